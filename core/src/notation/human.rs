//! Human coordinates: `Q16` (columns `A`-`T` without `I` from the left, rows from 1 at the
//! bottom, so a point depends on the board's height). Case-insensitive.

use core::fmt::{self, Write};

use super::{is_pass, NotationError};
use crate::point::{Move, Point, Size};

/// The column of a human coordinate letter: `A`-`H` are 0-7, `J`-`T` are 8-18 (no `I`), any case.
pub const fn human_column_value(c: u8) -> Option<u8> {
    match c.to_ascii_uppercase() {
        u @ b'A'..=b'H' => Some(u - b'A'),
        u @ b'J'..=b'T' => Some(u - b'A' - 1),
        _ => None,
    }
}

/// The human coordinate letter of column 0-18 (`A`-`T` without `I`), `None` from 19 on.
pub const fn human_column_letter(x: u8) -> Option<char> {
    match x {
        0..=7 => Some((b'A' + x) as char),
        8..=18 => Some((b'A' + x + 1) as char),
        _ => None,
    }
}

/// Reads a human point (`Q16`) spanning all of `b`, which starts at byte `base` of the input.
pub(super) fn human_point_at(b: &[u8], base: usize, size: Size) -> Result<Point, NotationError> {
    let (&c, digits) = b.split_first().ok_or(NotationError::Syntax { at: base })?;
    let x = human_column_value(c).ok_or(NotationError::Syntax { at: base })?;
    // A row is 1 or 2 digits, without a leading zero.
    let row = match *digits {
        [d] if d.is_ascii_digit() && d != b'0' => d - b'0',
        [d1, d2] if d1.is_ascii_digit() && d1 != b'0' && d2.is_ascii_digit() => {
            (d1 - b'0') * 10 + (d2 - b'0')
        }
        _ => {
            // Point at the first offending byte.
            let bad = digits
                .iter()
                .enumerate()
                .position(|(i, &d)| !d.is_ascii_digit() || (i == 0 && d == b'0') || i >= 2)
                .unwrap_or(digits.len());
            return Err(NotationError::Syntax { at: base + 1 + bad });
        }
    };
    if x >= size.width() || row > size.height() {
        return Err(NotationError::OffBoard { at: base });
    }
    Ok(Point::new(x, size.height() - row))
}

pub(super) fn write_human_point<W: Write + ?Sized>(f: &mut W, p: Point, size: Size) -> fmt::Result {
    match human_column_letter(p.x) {
        Some(c) if size.contains(p) => {
            f.write_char(c)?;
            write!(f, "{}", size.height() - p.y)
        }
        _ => Err(fmt::Error),
    }
}

/// Parses a human coordinate (`Q16`, `q16`) or `pass` (any case) for a board of `size`.
///
/// Columns are `A`-`T` without `I` from the left, rows are numbered from 1 at the bottom, so
/// the point depends on the board's height: `Q16` is `pd` on 19x19 and off the board on 13x13
/// ([`NotationError::OffBoard`]). Rows are 1 or 2 digits without a leading zero.
pub fn parse_human(s: &str, size: Size) -> Result<Move, NotationError> {
    let b = s.as_bytes();
    if is_pass(b) {
        return Ok(Move::Pass);
    }
    human_point_at(b, 0, size).map(Move::Play)
}

/// Prints a move in human coordinates for a board of the given size: `Q16` (upper case),
/// `pass` for a pass.
///
/// A point outside the board, which has no human name, is printed `?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Human(pub Move, pub Size);

impl fmt::Display for Human {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Move::Pass => f.write_str("pass"),
            Move::Play(p) => {
                if self.1.contains(p) {
                    write_human_point(f, p, self.1)
                } else {
                    f.write_char('?')
                }
            }
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
    fn human_coordinates() {
        assert_eq!(parse_human("Q16", s19()), Ok(Move::Play(pt(15, 3))));
        assert_eq!(parse_human("q16", s19()), Ok(Move::Play(pt(15, 3))));
        assert_eq!(parse_human("D4", s19()), Ok(Move::Play(pt(3, 15))));
        assert_eq!(parse_human("A19", s19()), Ok(Move::Play(pt(0, 0))));
        assert_eq!(parse_human("A1", s19()), Ok(Move::Play(pt(0, 18))));
        assert_eq!(parse_human("T1", s19()), Ok(Move::Play(pt(18, 18))));
        assert_eq!(parse_human("J10", s19()), Ok(Move::Play(pt(8, 9))));
        assert_eq!(parse_human("H10", s19()), Ok(Move::Play(pt(7, 9))));
        assert_eq!(parse_human("pass", s19()), Ok(Move::Pass));
        assert_eq!(parse_human("PASS", s19()), Ok(Move::Pass));
        // Depends on the height: C3 on 9x9 is the 3-3 point at the bottom left.
        assert_eq!(parse_human("C3", sq(9)), Ok(Move::Play(pt(2, 6))));
        assert_eq!(
            parse_human("Q16", sq(13)),
            Err(NotationError::OffBoard { at: 0 })
        );
        assert_eq!(
            parse_human("A14", sq(13)),
            Err(NotationError::OffBoard { at: 0 })
        );
        assert_eq!(
            parse_human("A20", s19()),
            Err(NotationError::OffBoard { at: 0 })
        );
        assert_eq!(
            parse_human("I5", s19()),
            Err(NotationError::Syntax { at: 0 })
        );
        assert_eq!(
            parse_human("U5", s19()),
            Err(NotationError::Syntax { at: 0 })
        );
        assert_eq!(
            parse_human("A0", s19()),
            Err(NotationError::Syntax { at: 1 })
        );
        assert_eq!(
            parse_human("A05", s19()),
            Err(NotationError::Syntax { at: 1 })
        );
        assert_eq!(
            parse_human("A100", s19()),
            Err(NotationError::Syntax { at: 3 })
        );
        assert_eq!(
            parse_human("A1x", s19()),
            Err(NotationError::Syntax { at: 2 })
        );
        assert_eq!(
            parse_human("A", s19()),
            Err(NotationError::Syntax { at: 1 })
        );
        assert_eq!(parse_human("", s19()), Err(NotationError::Syntax { at: 0 }));
        assert_eq!(Human(Move::Play(pt(15, 3)), s19()).to_string(), "Q16");
        assert_eq!(Human(Move::Play(pt(8, 0)), s19()).to_string(), "J19");
        assert_eq!(Human(Move::Play(pt(2, 6)), sq(9)).to_string(), "C3");
        assert_eq!(Human(Move::Play(pt(15, 3)), sq(9)).to_string(), "?");
        assert_eq!(Human(Move::Pass, sq(9)).to_string(), "pass");
    }
}
