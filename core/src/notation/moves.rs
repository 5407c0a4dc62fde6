//! The `--moves` list: `pd,dp,pass`, SGF points separated by commas, as the command line and
//! the hint protocol take them.

use core::fmt::{self, Write};
use core::iter::FusedIterator;

use super::human::human_point_at;
use super::sgf::{sgf_letter, sgf_move_at, SgfMove};
use super::{is_pass, NotationError};
use crate::point::{Move, Point, Size};

/// A streaming reader of a `--moves` list (`pd,dp,pp`, `Q16 D4 pass`): entries separated
/// by commas or whitespace.
///
/// - The empty string (or only whitespace) is no moves.
/// - Each entry is two SGF letters in either case (`pd`, `PD`; `tt` is a pass, see
///   [`parse_sgf`](super::parse_sgf)), human coordinates (`Q16`, `q16`: a column letter
///   without I, the row counted from the bottom) or `pass` (any case); ASCII whitespace
///   around an entry is ignored (so a trailing `\r` does no harm).
/// - An empty entry (`pd,,dp`, a trailing comma) is [`NotationError::Syntax`]; a point off
///   the board is [`NotationError::OffBoard`], so a caller can tell a malformed request from
///   an illegal move.
///
/// After the first error the iterator ends.
#[derive(Debug, Clone)]
pub struct MovesParser<'a> {
    input: &'a [u8],
    pos: usize,
    size: Size,
    done: bool,
}

/// Reads a `--moves` list for a board of `size` (see [`MovesParser`]).
pub fn parse_moves(s: &str, size: Size) -> MovesParser<'_> {
    let input = s.as_bytes();
    MovesParser {
        input,
        pos: 0,
        size,
        done: input.iter().all(u8::is_ascii_whitespace),
    }
}

impl Iterator for MovesParser<'_> {
    type Item = Result<Move, NotationError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let rest = self.input.get(self.pos..).unwrap_or(&[]);
        // The common entry, two letters `a`-`s` and a comma or the end, read directly.
        if let [cx @ b'a'..=b's', cy @ b'a'..=b's', tail @ ..] = rest {
            let p = Point::new(cx - b'a', cy - b'a');
            if self.size.contains(p) {
                match tail.first() {
                    None => {
                        self.done = true;
                        return Some(Ok(Move::Play(p)));
                    }
                    Some(b',') => {
                        self.pos += 3;
                        return Some(Ok(Move::Play(p)));
                    }
                    Some(_) => {}
                }
            }
        }
        let (start, end, next) = entry_bounds(self.input, self.pos);
        match next {
            Some(n) => self.pos = n,
            None => self.done = true,
        }
        let tok = self.input.get(start..end).unwrap_or(&[]);
        let item = parse_entry(tok, start, self.size);
        if item.is_err() {
            self.done = true;
        }
        Some(item)
    }
}

/// The entry that starts at or after byte `pos` (after any whitespace): its start and
/// end, and where the next entry starts (`None` at the end of the input). Entries are
/// separated by a comma or by whitespace; a comma may have whitespace around it.
fn entry_bounds(input: &[u8], pos: usize) -> (usize, usize, Option<usize>) {
    let len = input.len();
    let mut start = pos.min(len);
    while start < len && input.get(start).is_some_and(u8::is_ascii_whitespace) {
        start += 1;
    }
    let mut end = start;
    while end < len
        && input
            .get(end)
            .is_some_and(|&c| c != b',' && !c.is_ascii_whitespace())
    {
        end += 1;
    }
    let mut after = end;
    while after < len && input.get(after).is_some_and(u8::is_ascii_whitespace) {
        after += 1;
    }
    let next = match input.get(after) {
        None => None,
        Some(b',') => Some(after + 1),
        // Whitespace alone separated this entry from the next.
        Some(_) => Some(after),
    };
    (start, end, next)
}

/// One entry of a moves list at byte `at`: `pass` (any case), two SGF letters (either
/// case: on boards up to 19x19, `PD` can only mean `pd`), or human coordinates (`Q16`,
/// `q16`: a column letter without I, then the row counted from the bottom).
fn parse_entry(tok: &[u8], at: usize, size: Size) -> Result<Move, NotationError> {
    match *tok {
        [] => Err(NotationError::Syntax { at }),
        _ if is_pass(tok) => Ok(Move::Pass),
        [x, y] if x.is_ascii_alphabetic() && y.is_ascii_alphabetic() => {
            let lower = [x.to_ascii_lowercase(), y.to_ascii_lowercase()];
            match sgf_move_at(&lower, at, size)? {
                SgfMove::Play(p) => Ok(Move::Play(p)),
                SgfMove::Pass => Ok(Move::Pass),
                SgfMove::OffBoard(_) => Err(NotationError::OffBoard { at }),
            }
        }
        [c, ref digits @ ..]
            if c.is_ascii_alphabetic()
                && !digits.is_empty()
                && digits.iter().all(u8::is_ascii_digit) =>
        {
            human_point_at(tok, at, size).map(Move::Play)
        }
        _ => Err(NotationError::Syntax { at }),
    }
}

/// The entry of a moves list that holds byte `at` (as [`NotationError::at`] gives it):
/// its 1-based number and its text (empty for an empty entry such as `pd,,dp`), split as
/// [`parse_moves`] splits.
pub fn entry_at(s: &str, at: usize) -> (usize, &str) {
    let input = s.as_bytes();
    let mut pos = 0;
    let mut number = 1;
    loop {
        let (start, end, next) = entry_bounds(input, pos);
        match next {
            Some(n) if n <= at && n > pos => {
                pos = n;
                number += 1;
            }
            _ => return (number, s.get(start..end).unwrap_or("")),
        }
    }
}

impl FusedIterator for MovesParser<'_> {}

/// Writes moves as a `--moves` list: SGF letters separated by commas, `pass` for a pass
/// (nothing at all for no moves).
///
/// Returns `Err(fmt::Error)` if a coordinate has no SGF letter (52 or more) or if `out` fails.
pub fn write_moves<W, I>(out: &mut W, moves: I) -> fmt::Result
where
    W: Write + ?Sized,
    I: IntoIterator<Item = Move>,
{
    for (i, m) in moves.into_iter().enumerate() {
        if i > 0 {
            out.write_char(',')?;
        }
        match m {
            Move::Pass => out.write_str("pass")?,
            Move::Play(p) => {
                let x = sgf_letter(p.x).ok_or(fmt::Error)?;
                let y = sgf_letter(p.y).ok_or(fmt::Error)?;
                out.write_char(x)?;
                out.write_char(y)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use crate::notation::tests::{pt, s19, sq};
    use std::string::String;
    use std::vec::Vec;

    fn moves(s: &str, size: Size) -> Vec<Result<Move, NotationError>> {
        parse_moves(s, size).collect()
    }

    #[test]
    fn moves_lists() {
        use Move::*;
        assert_eq!(
            moves("pd,dp,pp", s19()),
            [
                Ok(Play(pt(15, 3))),
                Ok(Play(pt(3, 15))),
                Ok(Play(pt(15, 15)))
            ]
        );
        assert!(moves("", s19()).is_empty());
        assert!(moves(" \r\n", s19()).is_empty());
        assert_eq!(moves("pass", s19()), [Ok(Pass)]);
        assert_eq!(
            moves("pd, PASS ,tt,dd\r", s19()),
            [Ok(Play(pt(15, 3))), Ok(Pass), Ok(Pass), Ok(Play(pt(3, 3)))]
        );
        assert_eq!(
            moves("pd,,dp", s19()),
            [Ok(Play(pt(15, 3))), Err(NotationError::Syntax { at: 3 })]
        );
        assert_eq!(
            moves("pd,", s19()),
            [Ok(Play(pt(15, 3))), Err(NotationError::Syntax { at: 3 })]
        );
        assert_eq!(moves(",pd", s19()), [Err(NotationError::Syntax { at: 0 })]);
        assert_eq!(
            moves("pd,zz,dd", s19()),
            [Ok(Play(pt(15, 3))), Err(NotationError::OffBoard { at: 3 })]
        );
        assert_eq!(
            moves("pd,ta", s19()),
            [Ok(Play(pt(15, 3))), Err(NotationError::OffBoard { at: 3 })]
        );
        assert_eq!(
            moves("pd,dpp", s19()),
            [Ok(Play(pt(15, 3))), Err(NotationError::Syntax { at: 3 })]
        );
        assert_eq!(
            moves("pd dp", s19()),
            [Ok(Play(pt(15, 3))), Ok(Play(pt(3, 15)))]
        );
        assert_eq!(moves("ff", sq(5)), [Err(NotationError::OffBoard { at: 0 })]);
        let mut s = String::new();
        write_moves(&mut s, [Play(pt(15, 3)), Pass, Play(pt(3, 15))]).unwrap();
        assert_eq!(s, "pd,pass,dp");
        let mut s = String::new();
        write_moves(&mut s, []).unwrap();
        assert_eq!(s, "");
        assert_eq!(
            write_moves(&mut String::new(), [Play(pt(60, 0))]),
            Err(fmt::Error)
        );
    }
}
