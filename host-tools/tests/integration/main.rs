//! The integration tests of kifudex (the library, the `kifudex` binary and the web server), one module per
//! concern, in one test binary.
//!
//! One binary instead of one per file: every integration test binary links the whole
//! dependency graph (with the cross-crate LTO the release profile had then, about 14 s of
//! wall clock and 23 s of CPU each on this project's 2-core machines), which dominated the
//! test command's time on a fresh clone. Run one module with a filter, e.g. `cargo test --release -p kifudex --test
//! integration bgo_answers::`.

mod add;
mod bgo_answers;
mod cli_errors;
mod corpus;
mod corruption;
mod determinism;
mod duplicates;
mod filters;
mod golden;
mod gtp;
mod hints;
mod interrupt;
mod limits;
mod merge;
mod no_panic;
mod notation_cli;
mod openings;
mod pattern_cli;
mod pattern_contract;
mod pattern_data;
mod pattern_threads;
mod ranks;
mod records;
mod scale;
mod sealed;
mod sgf_write;
mod shapes;
mod shell;
mod sorts;
mod tracking;
mod tricky;
mod web_api;
mod web_browser;
mod web_scans;
