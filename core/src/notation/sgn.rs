//! Simple Go Notation: `19x19 A9b B12w C2b` (or with commas, for URLs).

use core::fmt::{self, Write};
use core::iter::FusedIterator;

use super::human::{human_point_at, write_human_point};
use super::{is_pass, NotationError};
use crate::point::{Color, Move, Point, Size};

/// One entry of a Simple Go Notation game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SgnItem {
    /// A stone of this colour played (`A9b`, `B12w`), or a pass (`passb`, `passw`).
    Move(Color, Move),
    /// A capture mark (`A6c`): the stone on this point is removed. SGN uses it internally; it is
    /// not normally written in move lists since captures follow from the moves.
    Capture(Point),
}

/// Which separator [`write_sgn`] puts between the size and the entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SgnStyle {
    /// Spaces: `19x19 A9b B12w C2b`.
    Spaces,
    /// Commas, for URLs: `19x19,A9b,B12w,C2b`.
    Url,
}

fn is_sgn_separator(c: u8) -> bool {
    c == b',' || c.is_ascii_whitespace()
}

/// Reads a side of an SGN size: 1 or 2 digits without a leading zero.
fn size_side(b: &[u8]) -> Option<u8> {
    match *b {
        [d] if d.is_ascii_digit() => Some(d - b'0'),
        [d1, d2] if d1.is_ascii_digit() && d1 != b'0' && d2.is_ascii_digit() => {
            Some((d1 - b'0') * 10 + (d2 - b'0'))
        }
        _ => None,
    }
}

/// A streaming Simple Go Notation reader: reads the size at construction, then yields the
/// entries one by one without allocating.
///
/// The format (from the SGN notes, kifudex's reading of the open points):
/// - The game starts with the board size `WIDTHxHEIGHT` (`x` or `X`), each side 1 to 19,
///   width first as in SGF's `SZ[w:h]`: `13x9` has 13 columns and 9 rows.
/// - Then entries, each a human point (columns `A`-`T` without `I` from the left, rows from 1
///   at the bottom, so they depend on the height) followed by `b` (black), `w` (white) or `c`
///   (capture mark): `A9b B12w C2b A6c`. A pass is `passb` or `passw`. Any case is accepted.
/// - Entries are separated by spaces (`19x19 A9b B12w`) or commas, the URL form
///   (`19x19,A9b,B12w`); any run of ASCII whitespace and commas separates, and leading or
///   trailing separators are ignored.
///
/// After the first error the iterator ends.
#[derive(Debug, Clone)]
pub struct SgnParser<'a> {
    input: &'a [u8],
    pos: usize,
    size: Size,
    done: bool,
}

impl<'a> SgnParser<'a> {
    /// Reads the board size at the start of `s`; the entries follow from the iterator.
    ///
    /// Fails with [`NotationError::BadSize`] when the size is missing, malformed or not
    /// within 1..=19 on both sides.
    pub fn new(s: &'a str) -> Result<SgnParser<'a>, NotationError> {
        let input = s.as_bytes();
        let (start, end) = next_token(input, 0);
        let bad = NotationError::BadSize { at: start };
        let tok = input.get(start..end).ok_or(bad)?;
        let sep = tok
            .iter()
            .position(|&c| c == b'x' || c == b'X')
            .ok_or(bad)?;
        let w = tok.get(..sep).and_then(size_side).ok_or(bad)?;
        let h = tok.get(sep + 1..).and_then(size_side).ok_or(bad)?;
        let size = Size::new(w, h).ok_or(bad)?;
        Ok(SgnParser {
            input,
            pos: end,
            size,
            done: false,
        })
    }

    /// The board size read from the header.
    pub const fn size(&self) -> Size {
        self.size
    }

    fn item_at(&self, tok: &[u8], base: usize) -> Result<SgnItem, NotationError> {
        let (&mark, body) = tok.split_last().ok_or(NotationError::Syntax { at: base })?;
        let mark_at = base + body.len();
        if is_pass(body) {
            return match Color::from_letter(mark) {
                Some(c) => Ok(SgnItem::Move(c, Move::Pass)),
                None => Err(NotationError::Syntax { at: mark_at }),
            };
        }
        let color = match mark.to_ascii_lowercase() {
            b'b' => Some(Color::Black),
            b'w' => Some(Color::White),
            b'c' => None,
            _ => {
                // A point with no mark (`A9`) reports the missing mark at the end; anything
                // else reports the bad character.
                let at = if mark.is_ascii_digit() {
                    base + tok.len()
                } else {
                    mark_at
                };
                return Err(NotationError::Syntax { at });
            }
        };
        let p = human_point_at(body, base, self.size)?;
        Ok(match color {
            Some(c) => SgnItem::Move(c, Move::Play(p)),
            None => SgnItem::Capture(p),
        })
    }
}

/// The next token of `b` at or after `from`: `(start, end)`, empty at the end of the input.
fn next_token(b: &[u8], from: usize) -> (usize, usize) {
    let rest = b.get(from..).unwrap_or(&[]);
    let start = rest
        .iter()
        .position(|&c| !is_sgn_separator(c))
        .map_or(b.len(), |i| from + i);
    let tail = b.get(start..).unwrap_or(&[]);
    let end = tail
        .iter()
        .position(|&c| is_sgn_separator(c))
        .map_or(b.len(), |i| start + i);
    (start, end)
}

impl Iterator for SgnParser<'_> {
    type Item = Result<SgnItem, NotationError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let (start, end) = next_token(self.input, self.pos);
        self.pos = end;
        let tok = match self.input.get(start..end) {
            Some(t) if !t.is_empty() => t,
            _ => {
                self.done = true;
                return None;
            }
        };
        let item = self.item_at(tok, start);
        if item.is_err() {
            self.done = true;
        }
        Some(item)
    }
}

impl FusedIterator for SgnParser<'_> {}

/// Reads a Simple Go Notation game: its size and an iterator over its entries
/// (see [`SgnParser`] for the format).
pub fn parse_sgn(s: &str) -> Result<(Size, SgnParser<'_>), NotationError> {
    let p = SgnParser::new(s)?;
    Ok((p.size(), p))
}

/// Writes a Simple Go Notation game: the size (`WIDTHxHEIGHT`), then each entry, separated as
/// `style` says. Moves are written `A9b`/`B12w`, passes `passb`/`passw`, captures `A6c`.
///
/// Returns `Err(fmt::Error)` (after writing the entries before it) if an entry's point is not
/// on `size`, or if `out` fails.
pub fn write_sgn<W, I>(out: &mut W, size: Size, items: I, style: SgnStyle) -> fmt::Result
where
    W: Write + ?Sized,
    I: IntoIterator<Item = SgnItem>,
{
    let sep = match style {
        SgnStyle::Spaces => ' ',
        SgnStyle::Url => ',',
    };
    write!(out, "{}x{}", size.width(), size.height())?;
    for item in items {
        // Check before writing anything of this entry.
        if let SgnItem::Move(_, Move::Play(p)) | SgnItem::Capture(p) = item {
            if !size.contains(p) {
                return Err(fmt::Error);
            }
        }
        out.write_char(sep)?;
        let (point, mark) = match item {
            SgnItem::Move(c, m) => (m.point(), c.letter().to_ascii_lowercase()),
            SgnItem::Capture(p) => (Some(p), 'c'),
        };
        match point {
            Some(p) => write_human_point(out, p, size)?,
            None => out.write_str("pass")?,
        }
        out.write_char(mark)?;
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

    fn sgn_items(s: &str) -> (Size, Vec<Result<SgnItem, NotationError>>) {
        let (size, it) = parse_sgn(s).unwrap();
        (size, it.collect())
    }

    #[test]
    fn sgn_seed_example() {
        use SgnItem::*;
        let expected = [
            Ok(Move(Color::Black, crate::Move::Play(pt(0, 10)))), // A9: row 9 from the bottom
            Ok(Move(Color::White, crate::Move::Play(pt(1, 7)))),  // B12
            Ok(Move(Color::Black, crate::Move::Play(pt(2, 17)))), // C2
        ];
        for s in ["19x19 A9b B12w C2b", "19x19,A9b,B12w,C2b"] {
            let (size, items) = sgn_items(s);
            assert_eq!(size, s19());
            assert_eq!(items, expected);
        }
        // Handicap example from the notes.
        let (_, items) = sgn_items("19x19 C2b F9b C3b C9w");
        assert_eq!(items.len(), 4);
        assert!(items.iter().all(Result::is_ok));
    }

    #[test]
    fn sgn_capture_pass_and_case() {
        let (size, items) = sgn_items("9x9 a6C passb PASSW c3B");
        assert_eq!(size, sq(9));
        assert_eq!(
            items,
            [
                Ok(SgnItem::Capture(pt(0, 3))),
                Ok(SgnItem::Move(Color::Black, Move::Pass)),
                Ok(SgnItem::Move(Color::White, Move::Pass)),
                Ok(SgnItem::Move(Color::Black, Move::Play(pt(2, 6)))),
            ]
        );
        // Width first, as in SZ[w:h]: 13x9 has 13 columns and 9 rows.
        let (size, items) = sgn_items("13x9 N9b A1w");
        assert_eq!(size, Size::new(13, 9).unwrap());
        assert_eq!(
            items,
            [
                Ok(SgnItem::Move(Color::Black, Move::Play(pt(12, 0)))),
                Ok(SgnItem::Move(Color::White, Move::Play(pt(0, 8)))),
            ]
        );
        let (_, items) = sgn_items("  19X19 ,\tD4b\n ");
        assert_eq!(
            items,
            [Ok(SgnItem::Move(Color::Black, Move::Play(pt(3, 15))))]
        );
        let (_, items) = sgn_items("19x19");
        assert!(items.is_empty());
    }

    #[test]
    fn sgn_errors() {
        for (s, at) in [
            ("", 0),
            ("19", 0),
            ("19x", 0),
            ("x19", 0),
            ("20x19", 0),
            ("0x0", 0),
            ("19x019", 0),
            ("19x19x19", 0),
            ("  9x100", 2),
            ("A9b", 0),
        ] {
            assert_eq!(
                SgnParser::new(s).err(),
                Some(NotationError::BadSize { at }),
                "{s}"
            );
        }
        let cases: [(&str, NotationError); 8] = [
            ("19x19 A9", NotationError::Syntax { at: 8 }),
            ("19x19 A9x", NotationError::Syntax { at: 8 }),
            ("19x19 I9b", NotationError::Syntax { at: 6 }),
            ("19x19 passc", NotationError::Syntax { at: 10 }),
            ("9x9 Q16b", NotationError::OffBoard { at: 4 }),
            ("9x9 A10w", NotationError::OffBoard { at: 4 }),
            ("19x19 b", NotationError::Syntax { at: 6 }),
            ("19x19 A9b,A0w", NotationError::Syntax { at: 11 }),
        ];
        for (s, e) in cases {
            let items: Vec<_> = SgnParser::new(s).unwrap().collect();
            assert_eq!(items.last(), Some(&Err(e)), "{s}");
        }
        // The iterator stops after an error.
        let mut it = SgnParser::new("19x19 Z1b A1b").unwrap();
        assert!(matches!(it.next(), Some(Err(_))));
        assert_eq!(it.next(), None);
    }

    #[test]
    fn sgn_printing() {
        let items = [
            SgnItem::Move(Color::Black, Move::Play(pt(0, 10))),
            SgnItem::Move(Color::White, Move::Play(pt(1, 7))),
            SgnItem::Move(Color::Black, Move::Play(pt(2, 17))),
            SgnItem::Capture(pt(0, 13)),
            SgnItem::Move(Color::White, Move::Pass),
        ];
        let mut s = String::new();
        write_sgn(&mut s, s19(), items, SgnStyle::Spaces).unwrap();
        assert_eq!(s, "19x19 A9b B12w C2b A6c passw");
        let mut s = String::new();
        write_sgn(&mut s, s19(), items, SgnStyle::Url).unwrap();
        assert_eq!(s, "19x19,A9b,B12w,C2b,A6c,passw");
        let mut s = String::new();
        write_sgn(&mut s, Size::new(13, 9).unwrap(), [], SgnStyle::Url).unwrap();
        assert_eq!(s, "13x9");
        // Off the board: an error, nothing of the entry written.
        let mut s = String::new();
        let off = [
            SgnItem::Move(Color::Black, Move::Play(pt(3, 3))),
            SgnItem::Capture(pt(9, 0)),
        ];
        assert_eq!(
            write_sgn(&mut s, sq(9), off, SgnStyle::Spaces),
            Err(fmt::Error)
        );
        assert_eq!(s, "9x9 D6b");
        // Into a fixed buffer, no allocation.
        let mut h: heapless::String<32> = heapless::String::new();
        write_sgn(&mut h, s19(), items, SgnStyle::Url).unwrap();
        assert_eq!(h.as_str(), "19x19,A9b,B12w,C2b,A6c,passw");
    }
}
