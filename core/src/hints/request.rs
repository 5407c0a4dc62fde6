//! Request lines: `moves ...`, `board N <cells> [B|W]`, `track`, `new`, `game`, `untrack`,
//! `quit` ([`parse_request`]).

use crate::point::{Color, Size};

use super::Reason;

/// A request line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Request<'l> {
    /// `moves ...`: the moves (comma-separated), empty for the empty board.
    Moves(&'l str),
    /// `board N <cells> [B|W]`.
    Board {
        /// The board size.
        size: Size,
        /// The cells row by row from the top (their count and values not yet checked).
        cells: &'l [u8],
        /// The side to move, if the request names it.
        to_move: Option<Color>,
    },
    /// `track`: start a game record; from now on `board` requests feed it.
    Track,
    /// `new`: start a new game record.
    New,
    /// `game`: the record so far as SGF.
    Game,
    /// `untrack`: `board` requests are answered alone again.
    Untrack,
    /// `quit`.
    Quit,
}

/// Parses one request line (without its `\n`; a trailing `\r` is ignored).
pub fn parse_request(line: &[u8]) -> Result<Request<'_>, Reason> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = trim(line);
    let (word, rest) = split_word(line);
    match word {
        b"moves" => core::str::from_utf8(rest)
            .map(Request::Moves)
            .map_err(|_| Reason::BadRequest),
        b"board" => {
            // The cells are the rest of the line: a blank among them (a word too many)
            // is a bad request, found here only when the size fails, otherwise by
            // `set_cells`, which reads every cell anyway (361 bytes are not scanned twice).
            let (n, rest) = split_word(rest);
            let (cells, to_move) = split_side(rest);
            match parse_size(n) {
                Ok(size) => Ok(Request::Board {
                    size,
                    cells,
                    to_move,
                }),
                Err(_) if cells.iter().any(|&c| is_blank(c)) => Err(Reason::BadRequest),
                Err(e) => Err(e),
            }
        }
        b"quit" if rest.is_empty() => Ok(Request::Quit),
        b"track" if rest.is_empty() => Ok(Request::Track),
        b"new" if rest.is_empty() => Ok(Request::New),
        b"game" if rest.is_empty() => Ok(Request::Game),
        b"untrack" if rest.is_empty() => Ok(Request::Untrack),
        _ => Err(Reason::BadRequest),
    }
}

/// The cells and the optional side to move of a board request: a last word `B` or `W`
/// after a blank (a cell is never a `B` or a `W`).
fn split_side(rest: &[u8]) -> (&[u8], Option<Color>) {
    match rest {
        [cells @ .., blank, side] if is_blank(*blank) => match Color::from_letter(*side) {
            Some(c) if *side == b'B' || *side == b'W' => (trim(cells), Some(c)),
            _ => (rest, None),
        },
        _ => (rest, None),
    }
}

fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

fn trim(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|&c| !is_blank(c)).unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|&c| !is_blank(c))
        .map_or(start, |i| i + 1);
    s.get(start..end).unwrap_or(&[])
}

/// The first word of `s` (which starts with no blank) and the rest after the blanks that
/// follow it.
fn split_word(s: &[u8]) -> (&[u8], &[u8]) {
    let end = s.iter().position(|&c| is_blank(c)).unwrap_or(s.len());
    let (word, rest) = s.split_at(end);
    let skip = rest
        .iter()
        .position(|&c| !is_blank(c))
        .unwrap_or(rest.len());
    (word, rest.get(skip..).unwrap_or(&[]))
}

/// A board size in decimal: not digits is a bad request, outside `1..=19` unsupported.
fn parse_size(n: &[u8]) -> Result<Size, Reason> {
    if n.is_empty() || !n.iter().all(u8::is_ascii_digit) {
        return Err(Reason::BadRequest);
    }
    let v = n.iter().fold(0u32, |v, &d| {
        v.saturating_mul(10).saturating_add((d - b'0') as u32)
    });
    u8::try_from(v)
        .ok()
        .and_then(Size::square)
        .ok_or(Reason::UnsupportedSize)
}

#[cfg(test)]
mod tests {
    extern crate std;

    use crate::board::{Board, Rules, StonesOnly};
    use crate::query::QueryError;

    use super::*;

    #[test]
    fn parses_requests() {
        assert_eq!(parse_request(b"moves"), Ok(Request::Moves("")));
        assert_eq!(parse_request(b"moves\r"), Ok(Request::Moves("")));
        assert_eq!(
            parse_request(b"moves pd,dp,pp\r"),
            Ok(Request::Moves("pd,dp,pp"))
        );
        assert_eq!(
            parse_request(b"  moves \tpd, dp  "),
            Ok(Request::Moves("pd, dp"))
        );
        assert_eq!(parse_request(b"quit"), Ok(Request::Quit));
        assert_eq!(parse_request(b"quit\r"), Ok(Request::Quit));
        for (line, request) in [
            (&b"track"[..], Request::Track),
            (b" new\r", Request::New),
            (b"game ", Request::Game),
            (b"\tuntrack", Request::Untrack),
        ] {
            assert_eq!(parse_request(line), Ok(request), "{line:?}");
        }
        assert_eq!(
            parse_request(b"board 2 X..O"),
            Ok(Request::Board {
                size: Size::square(2).unwrap(),
                cells: b"X..O",
                to_move: None,
            })
        );
        for (line, side) in [
            (&b"board 2 X..O W"[..], Color::White),
            (b"board 2 X..O\tB ", Color::Black),
            (b"board 2  X..O   B", Color::Black),
        ] {
            assert_eq!(
                parse_request(line),
                Ok(Request::Board {
                    size: Size::square(2).unwrap(),
                    cells: b"X..O",
                    to_move: Some(side),
                }),
                "{line:?}"
            );
        }
        // A lowercase side or a side glued to the cells is not a side: the cells are
        // refused later (a blank or a letter among them).
        for line in [
            &b"board 2 X..O b"[..],
            b"board 2 X..OW",
            b"board 2 X..O B W",
        ] {
            let Ok(Request::Board { to_move, cells, .. }) = parse_request(line) else {
                panic!("{line:?}");
            };
            let mut board = Board::<StonesOnly>::empty(Size::square(2).unwrap(), Rules::RECORD);
            assert!(
                to_move.is_none() || crate::query::set_cells(&mut board, cells).is_err(),
                "{line:?}"
            );
        }
        assert_eq!(
            parse_request(b"board 19"),
            Ok(Request::Board {
                size: Size::STANDARD,
                cells: b"",
                to_move: None,
            })
        );
        for bad in [
            &b""[..],
            b"\r",
            b"   ",
            b"quit now",
            b"track 19",
            b"Track",
            b"game sgf",
            b"newgame",
            b"Quit",
            b"move pd",
            b"movespd",
            b"hints",
            b"board",
            b"board x9 .........",
            b"board -1 .",
            b"board 99 X. .O",
            b"moves \xff",
            b"\x00\x01\x02",
        ] {
            assert_eq!(parse_request(bad), Err(Reason::BadRequest), "{bad:?}");
        }
        // A word too many on a board line: the cells hold a blank, which `set_cells`
        // refuses (it reads every cell anyway).
        let Ok(Request::Board { size, cells, .. }) = parse_request(b"board 2 X. .O") else {
            panic!("a board line with a blank among its cells");
        };
        let mut board = Board::<StonesOnly>::empty(size, Rules::RECORD);
        assert_eq!(
            crate::query::set_cells(&mut board, cells),
            Err(QueryError::BadRequest)
        );
        for unsupported in [
            &b"board 0 "[..],
            b"board 20 .",
            b"board 99999999999999999999 .",
        ] {
            assert_eq!(
                parse_request(unsupported),
                Err(Reason::UnsupportedSize),
                "{unsupported:?}"
            );
        }
    }
}
