//! bGo's shell letters: `PD` (the column letter, then the row letter, `A`-`S`, row `A` at
//! the top). Case-insensitive.

use core::fmt::{self, Write};

use super::{is_pass, NotationError};
use crate::point::{Move, Point, Size, MAX_SIDE};

/// The coordinate of a bGo shell letter: `A`-`S` are 0-18, any case.
const fn bgo_value(c: u8) -> Option<u8> {
    match c.to_ascii_uppercase() {
        u @ b'A'..=b'S' => Some(u - b'A'),
        _ => None,
    }
}

/// Parses bGo's shell coordinates (or `pass`, any case) for a board of `size`.
///
/// bGo prints the board with the letters `A`-`S` on both axes, row `A` at the top, and names a
/// point column letter first: `FQ` is x 5, y 16 (SGF `fq`). Case-insensitive. Letters past the
/// board's width or height give [`NotationError::OffBoard`]; letters after `S` are a syntax error.
pub fn parse_bgo(s: &str, size: Size) -> Result<Move, NotationError> {
    let b = s.as_bytes();
    if is_pass(b) {
        return Ok(Move::Pass);
    }
    match *b {
        [cx, cy] => {
            let x = bgo_value(cx).ok_or(NotationError::Syntax { at: 0 })?;
            let y = bgo_value(cy).ok_or(NotationError::Syntax { at: 1 })?;
            let p = Point::new(x, y);
            if size.contains(p) {
                Ok(Move::Play(p))
            } else {
                Err(NotationError::OffBoard { at: 0 })
            }
        }
        _ => Err(NotationError::Syntax { at: b.len().min(2) }),
    }
}

/// Prints a move in bGo's shell letters: `FQ` (upper case, column then row, row `A` at the
/// top), `pass` for a pass.
///
/// A coordinate of 19 or more is printed `?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bgo(pub Move);

impl fmt::Display for Bgo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = |v: u8| {
            if v < MAX_SIDE {
                (b'A' + v) as char
            } else {
                '?'
            }
        };
        match self.0 {
            Move::Play(p) => {
                f.write_char(letter(p.x))?;
                f.write_char(letter(p.y))
            }
            Move::Pass => f.write_str("pass"),
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
    fn bgo_letters() {
        // Seed 000: "next move position A (coordinate 'FQ')", drawn at column F, row Q.
        assert_eq!(parse_bgo("FQ", s19()), Ok(Move::Play(pt(5, 16))));
        assert_eq!(parse_bgo("fq", s19()), Ok(Move::Play(pt(5, 16))));
        assert_eq!(parse_bgo("PD", s19()), Ok(Move::Play(pt(15, 3))));
        assert_eq!(parse_bgo("SS", s19()), Ok(Move::Play(pt(18, 18))));
        assert_eq!(parse_bgo("Pass", s19()), Ok(Move::Pass));
        assert_eq!(parse_bgo("TA", s19()), Err(NotationError::Syntax { at: 0 }));
        assert_eq!(parse_bgo("AT", s19()), Err(NotationError::Syntax { at: 1 }));
        assert_eq!(
            parse_bgo("PD", sq(9)),
            Err(NotationError::OffBoard { at: 0 })
        );
        assert_eq!(parse_bgo("P", s19()), Err(NotationError::Syntax { at: 1 }));
        assert_eq!(
            parse_bgo("PDQ", s19()),
            Err(NotationError::Syntax { at: 2 })
        );
        assert_eq!(Bgo(Move::Play(pt(5, 16))).to_string(), "FQ");
        assert_eq!(Bgo(Move::Play(pt(19, 0))).to_string(), "?A");
        assert_eq!(Bgo(Move::Pass).to_string(), "pass");
    }
}
