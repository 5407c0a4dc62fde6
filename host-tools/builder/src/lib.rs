//! kifudex's builder: an index or a book written from game records ([`indexing`], in stages),
//! the move predictor learnt ([`predict`]), local shape statistics ([`shapes`]), the bundled
//! sample indexed in memory ([`sample`]), the measurement of hints on tracked games
//! ([`tracking`]), and the opening of an index file ([`open_index_file`], [`mapped`]).
//!
//! The modules of the records crate it reads are imported at the root under their own names
//! (`crate::sgf`, `crate::input`, ...), so that a path reads the same in every crate.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod indexing;
pub mod mapped;
pub mod predict;
pub mod sample;
pub mod shapes;
pub mod tracking;

use std::path::Path;

use anyhow::Result;
use kifudex_records::{input, numbers, rank, sgf};

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
