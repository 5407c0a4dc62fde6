//! SGF letters: `pd` is x 15, y 3 (`a`-`z` are 0-25, `A`-`Z` 26-51, from the top left);
//! `tt` and the empty value are a pass. Case-sensitive.

use core::fmt::{self, Write};

use super::NotationError;
use crate::point::{Move, Point, Size, MAX_SIDE};

/// The coordinate an SGF letter stands for: `a`-`z` are 0-25, `A`-`Z` are 26-51 (SGF FF\[4\]).
pub const fn sgf_value(c: u8) -> Option<u8> {
    match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        _ => None,
    }
}

/// The SGF letter of a coordinate 0-51 (`a`-`z`, then `A`-`Z`), `None` from 52 on.
pub const fn sgf_letter(v: u8) -> Option<char> {
    match v {
        0..=25 => Some((b'a' + v) as char),
        26..=51 => Some((b'A' + (v - 26)) as char),
        _ => None,
    }
}

/// A move read from SGF letters for a given board.
///
/// Records do contain moves off their board (such a move ends the game's main
/// line), so an off-board point is a value here, not an error: the caller sees the point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SgfMove {
    /// A point on the board.
    Play(Point),
    /// A pass: the empty value, or `tt` (every kifudex board is at most 19x19).
    Pass,
    /// Well-formed SGF letters naming a point outside the board (coordinates up to 51).
    OffBoard(Point),
}

impl SgfMove {
    /// The move that two SGF letters naming `p` stand for on a board of `size`: the point
    /// if it is on the board, a pass for `tt` (the point (19, 19), off every kifudex board),
    /// else [`SgfMove::OffBoard`].
    pub const fn at(p: Point, size: Size) -> SgfMove {
        if size.contains(p) {
            SgfMove::Play(p)
        } else if p.x == MAX_SIDE && p.y == MAX_SIDE {
            SgfMove::Pass
        } else {
            SgfMove::OffBoard(p)
        }
    }

    /// The move, `None` for a point off the board.
    pub const fn to_move(self) -> Option<Move> {
        match self {
            SgfMove::Play(p) => Some(Move::Play(p)),
            SgfMove::Pass => Some(Move::Pass),
            SgfMove::OffBoard(_) => None,
        }
    }
}

/// Parses exactly two SGF letters (column, then row) into a point, on no particular board.
///
/// Coordinates go up to 51; `tt` is the point (19, 19) here (see [`parse_sgf`] for passes).
/// Case-sensitive: `a` is 0 and `A` is 26.
pub fn parse_sgf_point(s: &str) -> Result<Point, NotationError> {
    sgf_point_at(s.as_bytes(), 0)
}

fn sgf_point_at(b: &[u8], base: usize) -> Result<Point, NotationError> {
    match *b {
        [cx, cy] => {
            let x = sgf_value(cx).ok_or(NotationError::Syntax { at: base })?;
            let y = sgf_value(cy).ok_or(NotationError::Syntax { at: base + 1 })?;
            Ok(Point::new(x, y))
        }
        // Too short: the error is at the end of the input; too long: at the third byte.
        _ => Err(NotationError::Syntax {
            at: base + b.len().min(2),
        }),
    }
}

/// Parses an SGF move value (`B[..]`/`W[..]` content) for a board of the given size.
///
/// - `""` is a pass (SGF FF\[4\]);
/// - `tt` is a pass too: kifudex boards are at most 19x19, and on a board of size ≤ 19 SGF
///   reads `tt` as a pass (FF\[3\] convention, still accepted by FF\[4\]);
/// - two letters naming a point on `size` give [`SgfMove::Play`];
/// - two letters naming a point outside `size` give [`SgfMove::OffBoard`] (not an error);
/// - anything else is [`NotationError::Syntax`].
pub fn parse_sgf(s: &str, size: Size) -> Result<SgfMove, NotationError> {
    sgf_move_at(s.as_bytes(), 0, size)
}

pub(super) fn sgf_move_at(b: &[u8], base: usize, size: Size) -> Result<SgfMove, NotationError> {
    if b.is_empty() {
        return Ok(SgfMove::Pass);
    }
    sgf_point_at(b, base).map(|p| SgfMove::at(p, size))
}

fn write_sgf_point<W: Write + ?Sized>(f: &mut W, p: Point) -> fmt::Result {
    f.write_char(sgf_letter(p.x).unwrap_or('?'))?;
    f.write_char(sgf_letter(p.y).unwrap_or('?'))
}

/// Prints a move in SGF letters: `pd`, and `pass` for a pass (kifudex's output convention).
///
/// A coordinate of 52 or more (which no parser here produces) is printed `?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sgf(pub Move);

impl fmt::Display for Sgf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Move::Play(p) => write_sgf_point(f, p),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Prints a move as an SGF property value (without brackets): `pd`, and the empty string for
/// a pass (SGF FF\[4\]).
///
/// A coordinate of 52 or more is printed `?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SgfValue(pub Move);

impl fmt::Display for SgfValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Move::Play(p) => write_sgf_point(f, p),
            Move::Pass => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use crate::notation::tests::{pt, s19, sq};
    use std::string::ToString;

    #[test]
    fn sgf_letters() {
        assert_eq!(parse_sgf_point("pd"), Ok(pt(15, 3)));
        assert_eq!(parse_sgf_point("aa"), Ok(pt(0, 0)));
        assert_eq!(parse_sgf_point("zA"), Ok(pt(25, 26)));
        assert_eq!(parse_sgf_point("ZZ"), Ok(pt(51, 51)));
        assert_eq!(parse_sgf_point("tt"), Ok(pt(19, 19)));
        assert_eq!(parse_sgf_point(""), Err(NotationError::Syntax { at: 0 }));
        assert_eq!(parse_sgf_point("p"), Err(NotationError::Syntax { at: 1 }));
        assert_eq!(parse_sgf_point("pdd"), Err(NotationError::Syntax { at: 2 }));
        assert_eq!(parse_sgf_point("p1"), Err(NotationError::Syntax { at: 1 }));
        assert_eq!(parse_sgf_point("é"), Err(NotationError::Syntax { at: 0 }));
        assert_eq!(Sgf(Move::Play(pt(15, 3))).to_string(), "pd");
        assert_eq!(Sgf(Move::Play(pt(26, 51))).to_string(), "AZ");
        assert_eq!(Sgf(Move::Play(pt(52, 0))).to_string(), "?a");
        assert_eq!(Sgf(Move::Pass).to_string(), "pass");
        assert_eq!(SgfValue(Move::Pass).to_string(), "");
        assert_eq!(SgfValue(Move::Play(pt(3, 15))).to_string(), "dp");
    }

    #[test]
    fn sgf_moves_on_a_board() {
        assert_eq!(parse_sgf("pd", s19()), Ok(SgfMove::Play(pt(15, 3))));
        assert_eq!(parse_sgf("", s19()), Ok(SgfMove::Pass));
        assert_eq!(parse_sgf("tt", s19()), Ok(SgfMove::Pass));
        assert_eq!(parse_sgf("tt", sq(9)), Ok(SgfMove::Pass));
        assert_eq!(parse_sgf("ss", s19()), Ok(SgfMove::Play(pt(18, 18))));
        assert_eq!(parse_sgf("pd", sq(9)), Ok(SgfMove::OffBoard(pt(15, 3))));
        assert_eq!(parse_sgf("ta", s19()), Ok(SgfMove::OffBoard(pt(19, 0))));
        assert_eq!(parse_sgf("Aa", s19()), Ok(SgfMove::OffBoard(pt(26, 0))));
        assert_eq!(
            parse_sgf("ia", Size::new(9, 5).unwrap()),
            Ok(SgfMove::Play(pt(8, 0)))
        );
        assert_eq!(
            parse_sgf("ae", Size::new(9, 5).unwrap()),
            Ok(SgfMove::Play(pt(0, 4)))
        );
        assert_eq!(
            parse_sgf("af", Size::new(9, 5).unwrap()),
            Ok(SgfMove::OffBoard(pt(0, 5)))
        );
        assert_eq!(parse_sgf("p!", s19()), Err(NotationError::Syntax { at: 1 }));
        assert_eq!(SgfMove::OffBoard(pt(1, 1)).to_move(), None);
        assert_eq!(SgfMove::Pass.to_move(), Some(Move::Pass));
    }
}
