//! The desktop side of kifudex: reading SGF collections, building indexes and books,
//! and presenting searches (command line, shell, web board). The `kifudex` binary is a thin layer
//! over this library.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod guide;
pub mod hints;
pub mod shell;

// The library crates below, under the module names this crate has always had, so that
// `kifudex::explore::Explorer`, `kifudex::indexing::build` and the rest keep their paths.
pub use kifudex_builder::{
    indexing, invalid_index, mapped, open_index_file, predict, sample, shapes, tracking, IndexBytes,
};
pub use kifudex_explore::{explore, games, info, pattern, print};
pub use kifudex_gtp as gtp;
pub use kifudex_records::{input, numbers, position, rank, sgf};
pub use kifudex_web as web;

use anyhow::{Context, Result};

/// Writes `text` to standard output. A closed pipe (`kifudex games | head -1`) ends the
/// process quietly with status 0, as the reader has all it wanted; any other write error
/// (a full disk, `> /dev/full`) is returned.
pub fn print_stdout(text: &str) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        r => r.context("cannot write to standard output"),
    }
}
