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
//! | moves list ([`parse_moves`], [`write_moves`]) | `pd,dp,pass` | top left | as SGF |
//!
//! A pass is printed `pass` by every printer here (the SPEC's output convention), except
//! [`SgfValue`], which writes an SGF property value (empty for a pass), and SGN, which writes
//! `passb` / `passw` (a pass carries its colour there).

use core::fmt::{self, Write};
use core::iter::FusedIterator;

use crate::point::{Color, Move, Point, Size, MAX_SIDE};

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
fn is_pass(s: &[u8]) -> bool {
    s.eq_ignore_ascii_case(b"pass")
}

// ---------------------------------------------------------------------------------------------
// SGF letters
// ---------------------------------------------------------------------------------------------

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
/// Records do contain moves off their board (the SPEC says such a move ends the game's main
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

fn sgf_move_at(b: &[u8], base: usize, size: Size) -> Result<SgfMove, NotationError> {
    if b.is_empty() {
        return Ok(SgfMove::Pass);
    }
    sgf_point_at(b, base).map(|p| SgfMove::at(p, size))
}

fn write_sgf_point<W: Write + ?Sized>(f: &mut W, p: Point) -> fmt::Result {
    f.write_char(sgf_letter(p.x).unwrap_or('?'))?;
    f.write_char(sgf_letter(p.y).unwrap_or('?'))
}

/// Prints a move in SGF letters: `pd`, and `pass` for a pass (the SPEC's output convention).
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

// ---------------------------------------------------------------------------------------------
// Human coordinates
// ---------------------------------------------------------------------------------------------

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
fn human_point_at(b: &[u8], base: usize, size: Size) -> Result<Point, NotationError> {
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

fn write_human_point<W: Write + ?Sized>(f: &mut W, p: Point, size: Size) -> fmt::Result {
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

// ---------------------------------------------------------------------------------------------
// bGo shell letters
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Simple Go Notation
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// The `--moves` list
// ---------------------------------------------------------------------------------------------

/// A streaming reader of a `--moves` list (`pd,dp,pp`): comma-separated SGF points or `pass`.
///
/// - The empty string (or only whitespace) is no moves.
/// - Each entry is two SGF letters, `tt` (a pass, see [`parse_sgf`]) or `pass` (any case);
///   ASCII whitespace around an entry is ignored (so a trailing `\r` does no harm).
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
        let (raw, next) = match rest.iter().position(|&c| c == b',') {
            Some(i) => (rest.get(..i).unwrap_or(&[]), Some(self.pos + i + 1)),
            None => (rest, None),
        };
        // Trim ASCII whitespace around the entry, keeping track of its offset.
        let lead = raw
            .iter()
            .position(|c| !c.is_ascii_whitespace())
            .unwrap_or(raw.len());
        let trail = raw
            .iter()
            .rposition(|c| !c.is_ascii_whitespace())
            .map_or(lead, |i| i + 1);
        let tok = raw.get(lead..trail).unwrap_or(&[]);
        let base = self.pos + lead;
        match next {
            Some(n) => self.pos = n,
            None => self.done = true,
        }
        let item = if tok.is_empty() {
            Err(NotationError::Syntax { at: base })
        } else if is_pass(tok) {
            Ok(Move::Pass)
        } else {
            match sgf_move_at(tok, base, self.size) {
                Ok(SgfMove::Play(p)) => Ok(Move::Play(p)),
                Ok(SgfMove::Pass) => Ok(Move::Pass),
                Ok(SgfMove::OffBoard(_)) => Err(NotationError::OffBoard { at: base }),
                Err(e) => Err(e),
            }
        };
        if item.is_err() {
            self.done = true;
        }
        Some(item)
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
    use proptest::prelude::*;
    use std::string::{String, ToString};
    use std::vec::Vec;

    fn s19() -> Size {
        Size::STANDARD
    }

    fn sq(n: u8) -> Size {
        Size::square(n).unwrap()
    }

    fn pt(x: u8, y: u8) -> Point {
        Point::new(x, y)
    }

    fn sgn_items(s: &str) -> (Size, Vec<Result<SgnItem, NotationError>>) {
        let (size, it) = parse_sgn(s).unwrap();
        (size, it.collect())
    }

    fn moves(s: &str, size: Size) -> Vec<Result<Move, NotationError>> {
        parse_moves(s, size).collect()
    }

    // ----- SGF -----

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

    // ----- human -----

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

    // ----- bGo -----

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

    // ----- SGN -----

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

    // ----- moves lists -----

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
            [Ok(Play(pt(15, 3))), Err(NotationError::Syntax { at: 5 })]
        );
        assert_eq!(
            moves("pd dp", s19()),
            [Err(NotationError::Syntax { at: 2 })]
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

    #[test]
    fn error_display() {
        assert_eq!(
            NotationError::Syntax { at: 3 }.to_string(),
            "syntax error at byte 3"
        );
        assert_eq!(
            NotationError::OffBoard { at: 0 }.to_string(),
            "point off the board at byte 0"
        );
        assert_eq!(
            NotationError::BadSize { at: 1 }.to_string(),
            "bad board size at byte 1"
        );
        assert_eq!(NotationError::BadSize { at: 7 }.at(), 7);
    }

    #[test]
    fn exhaustive_letter_tables() {
        for v in 0..=255u8 {
            if let Some(c) = sgf_letter(v) {
                assert_eq!(sgf_value(c as u8), Some(v));
            }
            if let Some(c) = human_column_letter(v) {
                assert_ne!(c, 'I');
                assert_eq!(human_column_value(c as u8), Some(v));
                assert_eq!(human_column_value(c.to_ascii_lowercase() as u8), Some(v));
            }
            if let Some(x) = human_column_value(v) {
                assert_eq!(
                    human_column_letter(x).map(|c| c.to_ascii_lowercase()),
                    Some((v as char).to_ascii_lowercase())
                );
            }
        }
        assert_eq!((0..=255u8).filter_map(sgf_value).count(), 52);
        assert_eq!((0..=255u8).filter_map(human_column_value).count(), 38);
    }

    // ----- properties -----

    fn size() -> impl Strategy<Value = Size> {
        (1..=19u8, 1..=19u8).prop_map(|(w, h)| Size::new(w, h).unwrap())
    }

    fn size_and_point() -> impl Strategy<Value = (Size, Point)> {
        size().prop_flat_map(|s| {
            (
                Just(s),
                (0..s.width(), 0..s.height()).prop_map(|(x, y)| pt(x, y)),
            )
        })
    }

    fn size_and_move() -> impl Strategy<Value = (Size, Move)> {
        size_and_point().prop_flat_map(|(s, p)| {
            (
                Just(s),
                prop_oneof![4 => Just(Move::Play(p)), 1 => Just(Move::Pass)],
            )
        })
    }

    fn color() -> impl Strategy<Value = Color> {
        prop_oneof![Just(Color::Black), Just(Color::White)]
    }

    fn size_and_items() -> impl Strategy<Value = (Size, Vec<SgnItem>)> {
        size().prop_flat_map(|s| {
            let p = (0..s.width(), 0..s.height()).prop_map(|(x, y)| pt(x, y));
            let item = prop_oneof![
                6 => (color(), p.clone()).prop_map(|(c, p)| SgnItem::Move(c, Move::Play(p))),
                1 => color().prop_map(|c| SgnItem::Move(c, Move::Pass)),
                1 => p.prop_map(SgnItem::Capture),
            ];
            (Just(s), proptest::collection::vec(item, 0..40))
        })
    }

    proptest! {
        #[test]
        fn sgf_point_round_trip(x in 0..52u8, y in 0..52u8) {
            let s = Sgf(Move::Play(pt(x, y))).to_string();
            prop_assert_eq!(parse_sgf_point(&s), Ok(pt(x, y)));
        }

        #[test]
        fn sgf_move_round_trip((size, m) in size_and_move()) {
            let s = Sgf(m).to_string();
            let v = SgfValue(m).to_string();
            prop_assert_eq!(parse_sgf(&v, size).map(SgfMove::to_move), Ok(Some(m)));
            if m == Move::Pass {
                prop_assert_eq!(s, "pass");
            } else {
                prop_assert_eq!(parse_sgf(&s, size), Ok(SgfMove::Play(m.point().unwrap())));
            }
        }

        #[test]
        fn sgf_off_board_is_seen(size in size(), x in 0..52u8, y in 0..52u8) {
            let p = pt(x, y);
            let s = Sgf(Move::Play(p)).to_string();
            let r = parse_sgf(&s, size);
            if s == "tt" {
                prop_assert_eq!(r, Ok(SgfMove::Pass));
            } else if size.contains(p) {
                prop_assert_eq!(r, Ok(SgfMove::Play(p)));
            } else {
                prop_assert_eq!(r, Ok(SgfMove::OffBoard(p)));
            }
        }

        #[test]
        fn human_round_trip((size, m) in size_and_move(), lower in any::<bool>()) {
            let mut s = Human(m, size).to_string();
            if lower {
                s.make_ascii_lowercase();
            }
            prop_assert_eq!(parse_human(&s, size), Ok(m));
        }

        #[test]
        fn bgo_round_trip((size, m) in size_and_move(), lower in any::<bool>()) {
            let mut s = Bgo(m).to_string();
            if lower {
                s.make_ascii_lowercase();
            }
            prop_assert_eq!(parse_bgo(&s, size), Ok(m));
            if let Move::Play(p) = m {
                // bGo letters are SGF letters in upper case.
                prop_assert_eq!(s.to_ascii_lowercase(), Sgf(Move::Play(p)).to_string());
            }
        }

        #[test]
        fn sgn_round_trip((size, items) in size_and_items(), url in any::<bool>()) {
            let style = if url { SgnStyle::Url } else { SgnStyle::Spaces };
            let mut s = String::new();
            write_sgn(&mut s, size, items.iter().copied(), style).unwrap();
            prop_assert_eq!(s.contains(','), url && !items.is_empty());
            let (got_size, it) = parse_sgn(&s).unwrap();
            prop_assert_eq!(got_size, size);
            let got: Result<Vec<_>, _> = it.collect();
            prop_assert_eq!(got, Ok(items));
        }

        #[test]
        fn moves_round_trip(ms in proptest::collection::vec(
            prop_oneof![4 => (0..19u8, 0..19u8).prop_map(|(x, y)| Move::Play(pt(x, y))), 1 => Just(Move::Pass)],
            0..30,
        )) {
            let mut s = String::new();
            write_moves(&mut s, ms.iter().copied()).unwrap();
            let got: Result<Vec<_>, _> = parse_moves(&s, s19()).collect();
            prop_assert_eq!(got, Ok(ms));
        }

        #[test]
        fn parsers_never_panic(s in "\\PC{0,24}", size in size()) {
            let _ = parse_sgf_point(&s);
            let _ = parse_sgf(&s, size);
            let _ = parse_human(&s, size);
            let _ = parse_bgo(&s, size);
            for r in parse_moves(&s, size) {
                if let Err(e) = r {
                    prop_assert!(e.at() <= s.len());
                }
            }
            if let Ok(p) = SgnParser::new(&s) {
                for r in p {
                    if let Err(e) = r {
                        prop_assert!(e.at() <= s.len());
                    }
                }
            }
        }

        #[test]
        fn sgn_like_input_never_panics(s in "[0-9xX ,A-Za-z]{0,30}") {
            if let Ok(p) = SgnParser::new(&s) {
                let n = p.clone().count();
                prop_assert!(n <= s.len());
            }
            let _ = parse_moves(&s, Size::STANDARD).count();
        }
    }
}
