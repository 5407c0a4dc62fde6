//! kifudex's explorer: one [`explore::Explorer`] over an opened index answers every question
//! (a position's next moves and games, filters, profiles, years and ranks, pattern search,
//! shapes, games as records), with the engines it calls ([`games`]: which games count and
//! their order; [`pattern`]: the scan over all blocks of games) and one printer per output
//! format ([`print`](mod@print)); [`info`] describes an index or book file.
//!
//! It depends on the records and builder crates, never on a front end (no HTTP, no terminal
//! line editor): their modules it uses are imported at the root under their own names
//! (`crate::sgf`, `crate::sample`, ...), so that a path reads the same in every crate.
//!
//! One question, on the bundled sample (bGo's archive of professional games, indexed in
//! memory when no index file is named):
//!
//! ```
//! use kifudex_explore::explore::request::{At, Position, SearchRequest};
//! use kifudex_explore::explore::{self, Explorer};
//!
//! # fn main() -> anyhow::Result<()> {
//! let (bytes, name) = explore::load(None)?;
//! let explorer = Explorer::open(&bytes, name)?;
//! // The next moves after Q16, D4, Q4: bGo counts 7 games in this archive.
//! let question = SearchRequest {
//!     at: At::Stated(Position {
//!         moves: "pd,dp,pp".into(),
//!         ..Position::default()
//!     }),
//!     ..SearchRequest::default()
//! };
//! let answer = explorer.search(&question)?;
//! assert_eq!(answer.total, 7);
//! assert!(answer.next.iter().all(|m| u64::from(m.count) <= answer.total));
//! # Ok(())
//! # }
//! ```
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod explore;
pub mod games;
pub mod info;
pub mod pattern;
pub mod print;

use kifudex_builder::{
    invalid_index, mapped, open_index_file, predict, sample, shapes, tracking, IndexBytes,
};
use kifudex_records::{input, numbers, position, rank, sgf};
