//! kifudex's explorer: one [`explore::Explorer`] over an opened index answers every question
//! (a position's next moves and games, filters, profiles, years and ranks, pattern search,
//! shapes, games as records), with the engines it calls ([`games`]: which games count and
//! their order; [`pattern`]: the scan over all blocks of games) and one printer per output
//! format ([`print`]); [`info`] describes an index or book file.
//!
//! It depends on the records and builder crates, never on a front end (no HTTP, no terminal
//! line editor): their modules it uses are imported at the root under their own names
//! (`crate::sgf`, `crate::sample`, ...), so that a path reads the same in every crate.
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
