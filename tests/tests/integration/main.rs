//! The integration tests of the workspace-level checks (independent implementations against the core and the index), one module per
//! concern, in one test binary.
//!
//! One binary instead of one per file: every integration test binary links the whole
//! dependency graph (with the cross-crate LTO the release profile had then, about 14 s of
//! wall clock and 23 s of CPU each on this project's 2-core machines), which dominated the
//! test command's time on a fresh clone. Run one module with a filter, e.g. `cargo test --release -p kifudex-tests --test
//! integration brute_force::`.

mod brute_force;
mod corpus_replay;
mod fuzz_replay;
mod layers;
mod pattern_naive;
mod web_soak;
