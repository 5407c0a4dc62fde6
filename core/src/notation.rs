//! Point and move notations (to be filled in).
