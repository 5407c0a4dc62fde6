//! The desktop side of kifudex: reading SGF collections, building indexes and books,
//! and presenting searches (command line, shell, web board). The `kifudex` binary is a thin layer
//! over this library.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod build;
pub mod explore;
pub mod games;
pub mod gtp;
pub mod guide;
pub mod hints;
pub mod info;
pub mod input;
pub mod mapped;
pub mod numbers;
pub mod pattern;
pub mod position;
pub mod predict;
pub mod print;
pub mod rank;
pub mod sample;
pub mod sgf;
pub mod shapes;
pub mod shell;
pub mod web;

use std::path::Path;

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

pub use mapped::IndexBytes;

/// Why an index file was refused, for a message: the reader's reason, and what to do
/// about an index written by another version of kifudex.
pub fn invalid_index(e: kifudex_core::format::FormatError) -> String {
    match e {
        kifudex_core::format::FormatError::UnsupportedVersion => format!(
            "not a valid index: {e} (written by another version of kifudex: build it again \
             from its records)"
        ),
        e => format!("not a valid index: {e}"),
    }
}

/// Opens an index or book file: memory-mapped ([`mapped::map_file`]), so that opening costs
/// time independent of the file's size.
pub fn open_index_file(path: &Path) -> Result<IndexBytes> {
    mapped::map_file(path)
}
