//! Point and move notations: SGF letters, human coordinates, bGo's shell letters, Simple Go
//! Notation (SGN) and the `--moves` list.
//!
//! Everything here works on borrowed strings and writes to [`core::fmt::Write`]: no allocation,
//! and no function panics on any input. Parse errors are [`NotationError`] values carrying the
//! byte position of the problem in the input.
//!
//! | notation | example (the 4-4 point at the top right of 19x19) | origin | case |
//! |---|---|---|---|
//! | SGF letters ([`parse_sgf`], [`Sgf`]) | `pd` = x 15, y 3 | top left | sensitive (`a`-`z` then `A`-`Z`) |
//! | human ([`parse_human`], [`Human`]) | `Q16` (columns `A`-`T` without `I`) | bottom left | insensitive |
//! | bGo shell ([`parse_bgo`], [`Bgo`]) | `PD` (column letter, then row letter, `A`-`S`) | top left | insensitive |
//! | SGN ([`SgnParser`], [`write_sgn`]) | `19x19 Q16b D4w` or `19x19,Q16b,D4w` | bottom left | insensitive |
//! | moves list ([`parse_moves`], [`write_moves`]) | `pd,dp,pass`, `Q16 D4` | as its entries | SGF either case, human insensitive |
//!
//! A pass is printed `pass` by every printer here (kifudex's output convention), except
//! [`SgfValue`], which writes an SGF property value (empty for a pass), and SGN, which writes
//! `passb` / `passw` (a pass carries its colour there).

use core::fmt;

mod bgo;
mod human;
mod moves;
mod sgf;
mod sgn;

pub use bgo::{parse_bgo, Bgo};
pub use human::{human_column_letter, human_column_value, parse_human, Human};
pub use moves::{entry_at, parse_moves, write_moves, MovesParser};
pub use sgf::{parse_sgf, parse_sgf_point, sgf_letter, sgf_value, Sgf, SgfMove, SgfValue};
pub use sgn::{parse_sgn, write_sgn, SgnItem, SgnParser, SgnStyle};

/// A parse error, with the byte offset in the parsed string where the problem was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum NotationError {
    /// The text is not well formed in this notation (a wrong letter, a missing or extra
    /// character, an empty list entry...). `at` is the offending byte (or the end of the input).
    Syntax {
        /// Byte offset of the problem.
        at: usize,
    },
    /// A well-formed point that lies outside the board it is read for (e.g. `Q16` on 9x9).
    /// `at` is the start of the point.
    OffBoard {
        /// Byte offset of the point.
        at: usize,
    },
    /// An SGN board size that is missing, malformed, or outside 1..=19 on either side.
    /// `at` is the start of the size.
    BadSize {
        /// Byte offset of the size.
        at: usize,
    },
}

impl NotationError {
    /// The byte offset of the problem in the parsed string.
    pub const fn at(self) -> usize {
        match self {
            NotationError::Syntax { at }
            | NotationError::OffBoard { at }
            | NotationError::BadSize { at } => at,
        }
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NotationError::Syntax { at } => write!(f, "syntax error at byte {at}"),
            NotationError::OffBoard { at } => write!(f, "point off the board at byte {at}"),
            NotationError::BadSize { at } => write!(f, "bad board size at byte {at}"),
        }
    }
}

/// Whether a whole string is `pass`, in any case.
pub(crate) fn is_pass(s: &[u8]) -> bool {
    s.eq_ignore_ascii_case(b"pass")
}

#[cfg(test)]
mod tests;
