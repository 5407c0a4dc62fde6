//! # kifudex-core
//!
//! The `no_std`, allocation-free heart of kifudex, shared by the desktop tools, the
//! microcontroller firmware and the tests:
//!
//! - [`point`]: points, colours, moves and board sizes;
//! - [`notation`]: SGF letters, human coordinates, bGo's shell letters, Simple Go Notation;
//! - [`transform`]: the 8 symmetries of the board in bGo's numbering, colour swap;
//! - [`hash`]: bGo's additive board hash and kifudex's 128-bit Zobrist position key;
//! - [`pointset`]: bitboard point sets;
//! - [`board`]: fixed-array boards with groups, liberties, captures, ko and superko;
//! - [`replay`]: a move sequence played on a board, with undo;
//! - [`hints`]: the hint protocol's request handler (desktop and firmware).
//!
//! No function here panics on any input; every fallible operation returns an error value.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    warn(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod board;
pub mod book;
pub mod event;
pub mod fingerprint;
pub mod format;
pub mod hash;
pub mod hints;
pub mod index;
pub mod notation;
pub mod outcome;
pub mod point;
pub mod pointset;
pub mod query;
pub mod replay;
pub mod search;
pub mod stored;
pub mod transform;

pub use board::{Board, Captures, KoRule, MoveError, Rules};
pub use event::Event;
pub use hash::{BgoHashes, Key, Keys};
pub use point::{Color, Move, Point, Size, Stone};
pub use pointset::PointSet;
pub use replay::Replay;
pub use transform::{Transform, TransformSet};
