//! GTP version 2's framing: command lines in (read with a bound on their length,
//! preprocessed, split into an optional id, a name and arguments), answers out
//! (`=id result` or `?id message`, ended by an empty line), and the colours and vertices
//! that arguments and answers are made of.
//!
//! Preprocessing follows the protocol: control characters other than tab and line feed
//! are removed (a carriage return included), everything from a `#` on is a comment, tabs
//! become spaces, and a line left empty or blank is no command at all.

use std::io::{self, BufRead};

use kifudex_core::notation::{human_column_value, Human};
use kifudex_core::{Color, Move, Point, Size};

/// The longest command line kept, in bytes. A longer line is read to its end (its rest
/// dropped, so nothing that follows is lost) and answered with an error.
pub const MAX_LINE: usize = 64 * 1024;

/// One line of input as read: its bytes up to [`MAX_LINE`] (without the line feed), and
/// whether it was longer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawLine {
    /// The bytes kept.
    pub bytes: Vec<u8>,
    /// Whether bytes past [`MAX_LINE`] were dropped.
    pub overlong: bool,
}

/// Reads one line (up to a line feed or the end of the input) into a [`RawLine`], keeping
/// at most [`MAX_LINE`] bytes however long it is. `None` at the end of the input.
pub fn read_line(input: &mut impl BufRead) -> io::Result<Option<RawLine>> {
    let mut line = RawLine::default();
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then_some(line));
        }
        any = true;
        let (part, used, done) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = MAX_LINE - line.bytes.len();
        if part.len() > room {
            line.overlong = true;
        }
        line.bytes.extend_from_slice(&part[..part.len().min(room)]);
        input.consume(used);
        if done {
            return Ok(Some(line));
        }
    }
}

/// A command after preprocessing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    /// The id, as its digits (echoed in the answer exactly as given).
    pub id: Option<String>,
    /// The command's name.
    pub name: String,
    /// Its arguments.
    pub args: Vec<String>,
}

/// Preprocesses one line as the protocol says: control characters other than tab removed,
/// the comment from `#` on dropped, tabs made spaces. Bytes that are not UTF-8 become
/// U+FFFD (no command or argument holds them).
pub fn preprocess(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let text = text.split('#').next().unwrap_or("");
    text.chars()
        .filter(|&c| c == '\t' || !c.is_control())
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect()
}

/// The command on a line, `None` for a line that holds none (empty, blank or a comment).
/// A first word of digits only is the id.
pub fn parse(raw: &[u8]) -> Option<CommandLine> {
    let text = preprocess(raw);
    let mut words = text.split(' ').filter(|w| !w.is_empty());
    let first = words.next()?;
    let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
        (Some(first.to_owned()), words.next().unwrap_or(""))
    } else {
        (None, first)
    };
    Some(CommandLine {
        id,
        name: name.to_owned(),
        args: words.map(str::to_owned).collect(),
    })
}

/// The id of a line that may not parse as a command (an over-long line): its first word
/// if that is digits.
pub fn id_of(raw: &[u8]) -> Option<String> {
    parse(raw).and_then(|c| c.id)
}

/// A whole answer: `=id result` (or `=id` and the lines of a multi-line result) followed by
/// an empty line. Empty lines inside `result` are dropped, since an empty line ends an
/// answer.
pub fn success(id: Option<&str>, result: &str) -> String {
    answer('=', id, result)
}

/// A whole error answer: `?id message` followed by an empty line.
pub fn failure(id: Option<&str>, message: &str) -> String {
    answer('?', id, message)
}

fn answer(mark: char, id: Option<&str>, text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    out.push(mark);
    out.push_str(id.unwrap_or(""));
    out.push(' ');
    let mut first = true;
    for line in text.split('\n') {
        // A line of spaces only would read as the end of the answer too.
        if line.trim().is_empty() && !first {
            continue;
        }
        if !first {
            out.push('\n');
        }
        out.push_str(line.trim_end());
        first = false;
    }
    out.push_str("\n\n");
    out
}

/// A colour argument: `b`, `black`, `w` or `white`, in any case: a side as users write it
/// ([`crate::position::parse_side`]) or GTP's words.
pub fn parse_color(s: &str) -> Option<Color> {
    crate::position::parse_side(s).or_else(|| match s.to_ascii_lowercase().as_str() {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        _ => None,
    })
}

/// Why a vertex argument cannot be read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VertexError {
    /// Not a vertex at all (`hello`).
    Syntax,
    /// A vertex outside the board (`T19` on 9x9).
    OffBoard,
}

/// A vertex argument: `pass`, or a column letter (`A` to `T` without `I`, any case) and a
/// row counted from 1 at the bottom.
pub fn parse_vertex(s: &str, size: Size) -> Result<Move, VertexError> {
    if s.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let b = s.as_bytes();
    let (&letter, digits) = b.split_first().ok_or(VertexError::Syntax)?;
    let x = human_column_value(letter).ok_or(VertexError::Syntax)?;
    if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
        return Err(VertexError::Syntax);
    }
    let row: u8 = std::str::from_utf8(digits)
        .ok()
        .and_then(|d| d.parse().ok())
        .ok_or(VertexError::Syntax)?;
    if row == 0 || row > size.height() || x >= size.width() {
        return Err(VertexError::OffBoard);
    }
    Ok(Move::Play(Point::new(x, size.height() - row)))
}

/// A move as a vertex (`Q16`, `pass`).
pub fn vertex(mv: Move, size: Size) -> String {
    Human(mv, size).to_string()
}

/// A colour as an answer writes it (`B`, `W`).
pub fn color_letter(c: Color) -> &'static str {
    match c {
        Color::Black => "B",
        Color::White => "W",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing_and_ids() {
        assert_eq!(parse(b""), None);
        assert_eq!(parse(b"   \t \r"), None);
        assert_eq!(parse(b"# a comment"), None);
        let c = parse(b"12\tplay  B\x01 q16 # the move\r").unwrap();
        assert_eq!(c.id.as_deref(), Some("12"));
        assert_eq!(c.name, "play");
        assert_eq!(c.args, ["B", "q16"]);
        let c = parse(b"name").unwrap();
        assert_eq!((c.id, c.name.as_str(), c.args.len()), (None, "name", 0));
        // An id alone: a command with an empty name.
        assert_eq!(parse(b"7").unwrap().name, "");
    }

    #[test]
    fn answers_end_with_an_empty_line_and_hold_none() {
        assert_eq!(success(Some("3"), "2"), "=3 2\n\n");
        assert_eq!(success(None, ""), "= \n\n");
        assert_eq!(failure(None, "unknown command"), "? unknown command\n\n");
        assert_eq!(success(None, "\na\n\nb\n"), "= \na\nb\n\n");
    }

    #[test]
    fn vertices() {
        let s19 = Size::STANDARD;
        let s9 = Size::square(9).unwrap();
        assert_eq!(parse_vertex("Q16", s19), Ok(Move::Play(Point::new(15, 3))));
        assert_eq!(parse_vertex("j1", s9), Ok(Move::Play(Point::new(8, 8))));
        assert_eq!(parse_vertex("PASS", s9), Ok(Move::Pass));
        assert_eq!(parse_vertex("T19", s9), Err(VertexError::OffBoard));
        assert_eq!(parse_vertex("A0", s9), Err(VertexError::OffBoard));
        assert_eq!(parse_vertex("I5", s19), Err(VertexError::Syntax));
        assert_eq!(parse_vertex("A123", s19), Err(VertexError::Syntax));
        assert_eq!(parse_vertex("", s19), Err(VertexError::Syntax));
        for y in 0..9 {
            for x in 0..9 {
                let m = Move::Play(Point::new(x, y));
                assert_eq!(parse_vertex(&vertex(m, s9), s9), Ok(m));
            }
        }
    }

    #[test]
    fn long_lines_are_cut_and_read_to_their_end() {
        let mut input = Vec::new();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        input.extend_from_slice(b"\nname\nlast");
        let mut r = io::BufReader::with_capacity(100, &input[..]);
        let l = read_line(&mut r).unwrap().unwrap();
        assert_eq!((l.bytes.len(), l.overlong), (MAX_LINE, true));
        let l = read_line(&mut r).unwrap().unwrap();
        assert_eq!((l.bytes.as_slice(), l.overlong), (&b"name"[..], false));
        assert_eq!(read_line(&mut r).unwrap().unwrap().bytes, b"last");
        assert_eq!(read_line(&mut r).unwrap(), None);
    }
}
