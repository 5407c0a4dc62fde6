//! Encoding the file through the core's record codecs: the desktop index (`index.rs`:
//! [`IndexWriter`], the games' sections first, then the sorted occurrences slice by slice,
//! then the rest), the microcontroller book (`book.rs`), the index's body written as a
//! stream (`body.rs`) and large sections packed in parallel (`bits.rs`).
//!
//! | file | part |
//! |---|---|
//! | `mod.rs` | a finished file ([`FileBytes`]), a file encoded from collected games ([`encode`]) |
//! | `index.rs` | the desktop index (layout: `docs/FORMAT.md`) |
//! | `columns.rs` | the index's game columns (what filters, sorts and profiles read) |
//! | `book.rs` | the microcontroller book |
//! | `body.rs` | a body written section after section, in memory or to a scratch file |
//! | `bits.rs` | packing large sections in parallel |

pub mod bits;
pub mod body;
pub mod book;
pub mod columns;
pub mod index;

use anyhow::Result;
use kifudex_core::format::EncodedFile;

use crate::indexing::occurrences::{nothing_indexed, Collected};
use crate::indexing::options::{BuildOptions, Profile};
use crate::indexing::report::BuildReport;
pub use body::{StreamBody, Streamed};
pub use index::{IndexWriter, SliceView};

/// A finished file: a book (in pieces) or an index (streamed).
pub enum FileBytes {
    /// Encoded in memory, in pieces.
    Pieces(EncodedFile),
    /// Written as a stream (memory or a temporary file).
    Streamed(Streamed),
}

impl FileBytes {
    /// Length in bytes.
    pub fn len(&self) -> u64 {
        match self {
            FileBytes::Pieces(f) => f.len() as u64,
            FileBytes::Streamed(f) => f.len(),
        }
    }

    /// Writes the file to `w`.
    pub fn write_to(&mut self, w: &mut impl std::io::Write) -> std::io::Result<()> {
        match self {
            FileBytes::Pieces(f) => f.pieces().try_for_each(|p| w.write_all(p)),
            FileBytes::Streamed(f) => f.write_to(w),
        }
    }

    /// The file as one buffer.
    pub fn into_vec(self) -> Result<Vec<u8>> {
        match self {
            FileBytes::Pieces(f) => Ok(f.to_vec()),
            FileBytes::Streamed(f) => f.into_vec(),
        }
    }
}

/// Encodes collected games as the file `opts.profile` asks for, in memory; fails if no
/// game has an indexed move.
pub fn encode(
    collected: &Collected,
    opts: &BuildOptions,
    report: &mut BuildReport,
) -> Result<FileBytes> {
    if report.games_indexed == 0 {
        return Err(nothing_indexed(report, &collected.games));
    }
    Ok(match opts.profile {
        Profile::Desktop => {
            let c = collected;
            let games = index::encode_games(&c.games, &c.move_starts);
            let occurrences = c.occs.len() as u64;
            let body = StreamBody::in_memory();
            let mut w = IndexWriter::new(body, games, c.games.len(), occurrences, opts)?;
            w.add(&SliceView {
                occs: &c.occs,
                groups: &c.groups,
            })?;
            FileBytes::Streamed(w.finish(report)?)
        }
        Profile::Mcu => FileBytes::Pieces(book::encode(collected, opts, report)?),
    })
}
