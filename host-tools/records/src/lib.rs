//! kifudex's records: what a collection of Go games holds, read before any index exists.
//! SGF (and the GIB, NGF and UGF formats) read into core `Event`s and written back
//! ([`sgf`]), inputs in a fixed order from files, folders and archives ([`input`]), players'
//! ranks on one scale ([`rank`]), counts in words ([`numbers`]) and positions as users state
//! them ([`position`]). It knows no index: the builder and the explorer are crates above it.
//!
//! A record read, written back as SGF and read again is the same game:
//!
//! ```
//! use kifudex_records::sgf::{parse_file, write_game};
//!
//! let text = b"(;GM[1]FF[4]SZ[19]PB[Honinbo Shusaku]PW[Gennan Inseki]KM[0]RE[B+2]\
//!              ;B[qd];W[dc];B[pq];W[oc];B[cp];W[qo];B[pe])";
//! let parsed = parse_file(text, "ear-reddening.sgf", None);
//! assert!(parsed.rejected.is_empty());
//! let game = &parsed.games[0];
//! assert_eq!(game.info.black.as_deref(), Some("Honinbo Shusaku"));
//! assert_eq!(game.move_count(), 7);
//!
//! let written = write_game(game.size, &game.info, &game.events);
//! let again = parse_file(written.as_bytes(), "written.sgf", None);
//! assert_eq!(again.games[0].events, game.events);
//! assert_eq!(again.games[0].info.white, game.info.white);
//! ```
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod input;
pub mod numbers;
pub mod position;
pub mod rank;
pub mod sgf;
