//! Building an index (desktop) or a book (microcontroller) from SGF collections, merging
//! indexes and adding games to one.
//!
//! The builder is a row of stages; each imports only the stages before it (checked by
//! `tests/tests/integration/layers.rs` against `ARCHITECTURE.md`):
//!
//! | stage | modules | what it does |
//! |---|---|---|
//! | 0 | `options`, `problems`, `report`, `output`, `preflight` | what a build is asked for and reports; atomic output and scratch files; the checks before any input is read |
//! | 1 | `inputs` | what games are read from: files, sources in memory, an index's games read back |
//! | 2 | `parse` | one input read into game records, with its problems |
//! | 3 | `occurrence`, `replay` | one game's main line replayed with captures into moves, setup stones and occurrences (`occurrence::Occ`) |
//! | 4 | `occurrences/` | the inputs gathered in parallel, games ordered newest first, duplicates left out, occurrences spilled past the memory budget, sorted and checked for key collisions |
//! | 5 | `write/` | the index or book encoded through the core's record codecs |
//! | 6 | `pipeline` | stages 1 to 5 as one build: [`build`], [`build_in_memory`] |
//! | 7 | `merge`, `add/` | a merge ([`merge`]) and an add ([`add`], [`add_by_rebuild`]): the pipeline over an index's games read back, or one pass over the old index |
//!
//! The output depends only on the inputs and options: never on the thread count, the
//! memory budget or the machine.

// Stage 0: what a build is asked for and reports; output files.
mod options;
mod output;
mod preflight;
pub mod problems;
mod report;

// Stage 1: inputs.
mod inputs;

// Stage 2: parse.
mod parse;

// Stage 3: replay.
mod occurrence;
mod replay;

// Stage 4: occurrences (gathered, sorted, spilled, checked).
mod occurrences;

// Stage 5: writers.
mod write;

// Stage 6: the pipeline.
mod pipeline;

// Stage 7: merge and add.
mod add;
mod merge;

pub use add::{add, add_by_rebuild};
pub use merge::merge;
pub use options::{memory_size, BuildOptions, Profile, DEFAULT_MEMORY};
pub use output::write_atomically;
pub use pipeline::{build, build_in_memory, build_reporting};
pub use preflight::{check_inputs, check_output};
pub use problems::{Outcome, Problem};
pub use report::BuildReport;
