//! # kifudex-core
//!
//! The `no_std`, allocation-free heart of kifudex, shared by the desktop tools, the
//! microcontroller firmware and the tests:
//!
//! - [`point`], [`event`]: points, colours, stones, moves, board sizes; a game record's
//!   steps (setup stones and moves);
//! - [`notation`]: SGF letters, human coordinates, bGo's shell letters, Simple Go Notation,
//!   `--moves` lists;
//! - [`transform`], [`hash`], [`fingerprint`]: the 8 symmetries in bGo's numbering, bGo's
//!   additive hash and the 128-bit Zobrist position key (`docs/HASH.md`);
//! - [`pointset`], [`board`], [`replay`]: bitboard point sets and regions; fixed-array boards
//!   with captures, suicide, ko and symmetries; a board with undo and positional superko;
//! - [`stored`]: stored games and their replay, position by position;
//! - [`format`], [`index`], [`book`]: the file container and the readers of the desktop
//!   index and of the microcontroller book, each record with its codec (`docs/FORMAT.md`);
//!   [`index_file`]: the index file as a whole, the index and pattern search's sections;
//! - [`search`]: next moves mapped onto the query, merged by its symmetry, ordered;
//! - [`hints`]: the hint protocol's handler (desktop and firmware, `docs/HINTS.md`);
//! - [`pattern`]: wildcard pattern search (the pattern, matching, continuations, the
//!   acceleration data);
//! - [`query`], [`outcome`]: query positions (moves or a sensor snapshot); game results.
//!
//! No function here panics on any input; every fallible operation returns an error value.
//! The writing side of the file formats (`format::BitWriter`, `format::Body`) needs a
//! heap and is behind the `alloc` feature.
//!
//! # Examples
//!
//! A position, its hash, its symmetries and its notations:
//!
//! ```
//! use kifudex_core::notation::{parse_moves, Human, Sgf};
//! use kifudex_core::{Board, Color, Move, Point, Size};
//!
//! let size = Size::STANDARD;
//! let mut board = Board::new(size);
//! let mut color = Color::Black;
//! for mv in parse_moves("pd,dp,pp,dd", size) {
//!     board.play(color, mv.unwrap()).unwrap();
//!     color = color.opponent();
//! }
//! // bGo's own hash of this position (docs/HASH.md).
//! assert_eq!(board.bgo_hashes().0[0], 731_239_216);
//! // Only the flip top-bottom (transform 2) leaves it unchanged.
//! let symmetries: Vec<usize> = board.symmetries().iter().map(|t| t.index()).collect();
//! assert_eq!(symmetries, [0, 2]);
//! let pd = Move::Play(Point::new(15, 3));
//! assert_eq!(Sgf(pd).to_string(), "pd");
//! assert_eq!(Human(pd, size).to_string(), "Q16");
//! ```
//!
//! Captures, and a move refused:
//!
//! ```
//! use kifudex_core::{Board, Color, Move, MoveError, Point, Size, Stone};
//!
//! let mut board = Board::new(Size::square(9).unwrap());
//! let at = |x, y| Move::Play(Point::new(x, y));
//! board.play(Color::White, at(0, 0)).unwrap();
//! board.play(Color::Black, at(1, 0)).unwrap();
//! let captured = board.play(Color::Black, at(0, 1)).unwrap();
//! assert_eq!(captured.count, 1);
//! assert_eq!(board.get(Point::new(0, 0)), Stone::Empty);
//! assert_eq!(board.play(Color::White, at(1, 0)), Err(MoveError::Occupied));
//! ```
//!
//! Every orientation of a position has one canonical key, which a transform maps back:
//!
//! ```
//! use kifudex_core::query::position_after;
//! use kifudex_core::{Point, Size, Transform};
//!
//! let size = Size::STANDARD;
//! let flip = Transform::new(1).unwrap(); // (x, y) -> (18 - x, y)
//! assert_eq!(flip.apply(Point::new(15, 3), size), Some(Point::new(3, 3)));
//! let (a, _) = position_after("pd,dp", size).unwrap();
//! let (b, _) = position_after("dd,pp", size).unwrap(); // `a` flipped left-right
//! let (key_a, to_canonical_a) = a.keys().canonical(size);
//! let (key_b, to_canonical_b) = b.keys().canonical(size);
//! assert_eq!(key_a, key_b);
//! assert_eq!(flip.then(to_canonical_a), to_canonical_b);
//! ```
//!
//! Searching an index (this one: 10 professional 9x9 games), listing the games of a
//! position and replaying one of them:
//!
//! ```
//! use kifudex_core::board::StonesOnly;
//! use kifudex_core::index::Index;
//! use kifudex_core::notation::Sgf;
//! use kifudex_core::query::position_after;
//! use kifudex_core::search::NextMoves;
//! use kifudex_core::stored::StoredGame;
//! use kifudex_core::Size;
//!
//! let file = include_bytes!("../tests/data/golden.kdx");
//! let index = Index::open(file).unwrap(); // validates the whole file first
//! let (board, _) = position_after("", Size::square(9).unwrap()).unwrap();
//! let next: NextMoves<64> = index.next_moves(&board, false).unwrap();
//! let best = next.classes()[0];
//! assert_eq!((Sgf(best.mv).to_string(), best.count, best.black_wins), ("ee".into(), 5, 3));
//! assert_eq!(next.total(), 10);
//!
//! let found = index.find(&board).unwrap();
//! let first = index.occurrences(&found).next().unwrap();
//! let info = index.game(first.game).unwrap();
//! assert_eq!(info.event, "NHK TV 9x9 Tournament 1991");
//! let game = index.stored_game(first.game).unwrap();
//! let mut replay = game.replay::<StonesOnly>();
//! let mut positions = 0;
//! while let Some(p) = replay.next_position() {
//!     positions += 1;
//!     if p.next.is_none() {
//!         assert_eq!(p.move_number, info.move_count);
//!     }
//! }
//! assert_eq!(positions, info.move_count + 1);
//! ```
//!
//! The hint protocol, answered from a book, as the firmware answers on its UART:
//!
//! ```
//! use kifudex_core::book::Book;
//! use kifudex_core::hints::{End, NoLeds, StandardHints};
//!
//! let hints = StandardHints::new(Book::open(include_bytes!("../tests/data/golden.kdb")));
//! let requests = format!("board 9 {}\nmoves zz\nquit\n", ".".repeat(81));
//! let mut replies = [0u8; 256];
//! let mut output = &mut replies[..];
//! let end = hints.serve(&mut requests.as_bytes(), &mut output, &mut NoLeds).unwrap();
//! let written = 256 - output.len();
//! assert_eq!(end, End::Quit);
//! assert_eq!(
//!     &replies[..written],
//!     b"hints 0 10 ee:B:5 fe:B:3 gc:B:1 gd:B:1\nerror illegal-move\n"
//! );
//! ```
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
pub mod columns;
pub mod event;
pub mod fingerprint;
pub mod format;
pub mod hash;
pub mod hints;
pub mod index;
pub mod index_file;
pub mod notation;
pub mod opening;
pub mod outcome;
pub mod pattern;
pub mod point;
pub mod pointset;
pub mod predict;
pub mod query;
pub mod replay;
pub mod search;
pub mod stored;
pub mod track;
pub mod transform;

pub use board::{Board, Captures, KoRule, MoveError, Rules};
pub use event::Event;
pub use hash::{BgoHashes, Key, Keys};
pub use point::{Color, Move, Point, Size, Stone};
pub use pointset::PointSet;
pub use replay::Replay;
pub use transform::{Transform, TransformSet};
