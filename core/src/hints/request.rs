//! Request lines: `moves ...`, `board N <cells> [B|W] [t=<ms>]`, `track`, `new [N]
//! [handicap H]`, `pass`, `undo`, `game`, `untrack`, `quit` ([`parse_request`]).

use crate::point::{Color, Size};

use super::Reason;

/// The fewest handicap stones `new ... handicap H` accepts.
pub const MIN_HANDICAP: u8 = 2;

/// The most handicap stones `new ... handicap H` accepts.
pub const MAX_HANDICAP: u8 = 9;

/// A request line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Request<'l> {
    /// `moves ...`: the moves (comma-separated), empty for the empty board.
    Moves(&'l str),
    /// `board N <cells> [B|W] [t=<ms>]` (the last two fields in either order).
    Board {
        /// The board size.
        size: Size,
        /// The cells row by row from the top (their count and values not yet checked).
        cells: &'l [u8],
        /// The side to move, if the request names it.
        to_move: Option<Color>,
        /// The milliseconds since the board started, if the request gives them (`t=`).
        time: Option<u32>,
    },
    /// `track`: start a game record; from now on `board` requests feed it.
    Track,
    /// `new [N] [handicap H]`: start a new game record, on an `N` x `N` board if a size is
    /// given (else the first snapshot's), with `H` handicap stones placed one by one.
    New {
        /// The record's board size, if given.
        size: Option<Size>,
        /// The handicap stones (0: none; else [`MIN_HANDICAP`] to [`MAX_HANDICAP`]).
        handicap: u8,
    },
    /// `pass`: the side to move passes.
    Pass,
    /// `undo`: the last recorded move is taken back.
    Undo,
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
            let (cells, to_move, time) = split_fields(rest)?;
            match parse_size(n) {
                Ok(size) => Ok(Request::Board {
                    size,
                    cells,
                    to_move,
                    time,
                }),
                Err(_) if cells.iter().any(|&c| is_blank(c)) => Err(Reason::BadRequest),
                Err(e) => Err(e),
            }
        }
        b"quit" if rest.is_empty() => Ok(Request::Quit),
        b"track" if rest.is_empty() => Ok(Request::Track),
        b"new" => parse_new(rest),
        b"pass" if rest.is_empty() => Ok(Request::Pass),
        b"undo" if rest.is_empty() => Ok(Request::Undo),
        b"game" if rest.is_empty() => Ok(Request::Game),
        b"untrack" if rest.is_empty() => Ok(Request::Untrack),
        _ => Err(Reason::BadRequest),
    }
}

/// What a board request's cells are followed by.
type Fields<'l> = (&'l [u8], Option<Color>, Option<u32>);

/// The cells, the optional side to move and the optional time of a board request: up to
/// two last words, each `B` or `W` (a cell is never a `B` or a `W`) or `t=<ms>` (a cell is
/// never a `t`), at most one of each. A `t=` word that is not a decimal `u32` is a bad
/// request.
fn split_fields(rest: &[u8]) -> Result<Fields<'_>, Reason> {
    let (mut cells, mut to_move, mut time) = (rest, None, None);
    for _ in 0..2 {
        let Some(blank) = cells.iter().rposition(|&c| is_blank(c)) else {
            break;
        };
        let (head, word) = (
            trim(cells.get(..blank).unwrap_or(&[])),
            cells.get(blank + 1..).unwrap_or(&[]),
        );
        match word {
            [side @ (b'B' | b'W')] if to_move.is_none() => {
                to_move = Color::from_letter(*side);
            }
            [b't', b'=', ms @ ..] if time.is_none() => time = Some(parse_u32(ms)?),
            _ => break,
        }
        cells = head;
    }
    Ok((cells, to_move, time))
}

/// `new [N] [handicap H]`: a size as `board N` reads it, then `handicap` and a count from
/// [`MIN_HANDICAP`] to [`MAX_HANDICAP`] (any other count, or any other word, is a bad
/// request).
fn parse_new(rest: &[u8]) -> Result<Request<'_>, Reason> {
    let (first, after) = split_word(rest);
    let (size, rest) = match first {
        [] => (None, after),
        b"handicap" => (None, rest),
        n => (Some(parse_size(n)?), after),
    };
    let (word, rest) = split_word(rest);
    let handicap = match word {
        [] => 0,
        b"handicap" => {
            let (count, rest) = split_word(rest);
            if !rest.is_empty() {
                return Err(Reason::BadRequest);
            }
            match u8::try_from(parse_u32(count)?) {
                Ok(h) if (MIN_HANDICAP..=MAX_HANDICAP).contains(&h) => h,
                _ => return Err(Reason::BadRequest),
            }
        }
        _ => return Err(Reason::BadRequest),
    };
    if handicap == 0 && !rest.is_empty() {
        return Err(Reason::BadRequest);
    }
    Ok(Request::New { size, handicap })
}

/// A decimal `u32` (1 to 10 digits, no sign); anything else is a bad request.
fn parse_u32(n: &[u8]) -> Result<u32, Reason> {
    if n.is_empty() || n.len() > 10 || !n.iter().all(u8::is_ascii_digit) {
        return Err(Reason::BadRequest);
    }
    let v = n.iter().fold(0u64, |v, &d| v * 10 + u64::from(d - b'0'));
    u32::try_from(v).map_err(|_| Reason::BadRequest)
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
            (
                b" new\r",
                Request::New {
                    size: None,
                    handicap: 0,
                },
            ),
            (b"pass", Request::Pass),
            (b" undo\r", Request::Undo),
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
                time: None,
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
                    time: None,
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
                time: None,
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
            b"pass 1",
            b"undo 2",
            b"Pass",
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

    #[test]
    fn parses_the_time_of_a_snapshot_in_either_order_with_the_side() {
        let two = Size::square(2).unwrap();
        for (line, to_move, time) in [
            (&b"board 2 X..O t=123"[..], None, Some(123)),
            (b"board 2 X..O B t=0", Some(Color::Black), Some(0)),
            (
                b"board 2 X..O t=4294967295 W",
                Some(Color::White),
                Some(u32::MAX),
            ),
            (b"board 2 X..O\tt=7 \t B ", Some(Color::Black), Some(7)),
        ] {
            assert_eq!(
                parse_request(line),
                Ok(Request::Board {
                    size: two,
                    cells: b"X..O",
                    to_move,
                    time,
                }),
                "{line:?}"
            );
        }
        // A malformed time: a bad request.
        for bad in [
            &b"board 2 X..O t="[..],
            b"board 2 X..O t=-1",
            b"board 2 X..O t=4294967296",
            b"board 2 X..O t=12a",
            b"board 2 X..O B t=99999999999",
        ] {
            assert_eq!(parse_request(bad), Err(Reason::BadRequest), "{bad:?}");
        }
        // Two times or two sides: the first word is left among the cells (refused later).
        for line in [&b"board 2 X..O t=1 t=2"[..], b"board 2 X..O B B"] {
            let Ok(Request::Board { cells, .. }) = parse_request(line) else {
                panic!("{line:?}");
            };
            let mut board = Board::<StonesOnly>::empty(two, Rules::RECORD);
            assert!(
                crate::query::set_cells(&mut board, cells).is_err(),
                "{line:?}"
            );
        }
    }

    #[test]
    fn parses_new_records_with_a_size_and_a_handicap() {
        let new = |size: Option<u8>, handicap| Request::New {
            size: size.map(|n| Size::square(n).unwrap()),
            handicap,
        };
        for (line, want) in [
            (&b"new"[..], new(None, 0)),
            (b"new 9", new(Some(9), 0)),
            (b"new 13\r", new(Some(13), 0)),
            (b"new  19 \t handicap  4", new(Some(19), 4)),
            (b"new 19 handicap 2", new(Some(19), 2)),
            (b"new 9 handicap 9", new(Some(9), 9)),
            (b"new handicap 3", new(None, 3)),
        ] {
            assert_eq!(parse_request(line), Ok(want), "{line:?}");
        }
        for bad in [
            &b"new x"[..],
            b"new 19 handicap",
            b"new 19 handicap 1",
            b"new 19 handicap 10",
            b"new 19 handicap 0",
            b"new 19 handicap -2",
            b"new 19 handicap 4 5",
            b"new 19 19",
            b"new 19 komi 6",
            b"new handicap",
            b"new Handicap 4",
        ] {
            assert_eq!(parse_request(bad), Err(Reason::BadRequest), "{bad:?}");
        }
        assert_eq!(parse_request(b"new 20"), Err(Reason::UnsupportedSize));
        assert_eq!(
            parse_request(b"new 0 handicap 2"),
            Err(Reason::UnsupportedSize)
        );
    }
}
