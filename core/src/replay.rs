//! Replay (to be filled in).
