//! Writing one game as SGF: the game information, the setup and the main line.
//!
//! The reader's inverse: [`write_game`]'s output, read back by [`super::parse_file`], gives
//! the same size, game information ([`GameInfo`]) and events (setup stones and moves), as
//! the loopback tests check on the real corpus. The web board serves stored games with it
//! (`/api/game/ID.sgf`); exports of search results use it too.

use std::fmt::Write as _;

use kifudex_core::notation::sgf_letter;
use kifudex_core::{Color, Point, Size, Stone};

use kifudex_core::Move;

use super::{Event, GameInfo};

/// The program named in `AP[]`.
const APPLICATION: &str = concat!("kifudex:", env!("CARGO_PKG_VERSION"));

/// Moves per line of the written main line.
const MOVES_PER_LINE: usize = 10;

/// Writes a game as an SGF collection of one tree: a root node (`FF[4]`, `GM[1]`,
/// `CA[UTF-8]`, `AP`, `SZ`, the game information, the setup before the first move), then
/// one node per move, a setup between moves in a node of its own before the move.
///
/// The events are a main line as the reader gives it ([`super::GameRecord::events`]) or as
/// an index stores it: the written line ends where they end (a record's
/// [`super::LineEnd`] is not written).
pub fn write_game(size: Size, info: &GameInfo, events: &[Event]) -> String {
    let mut out = String::with_capacity(256 + 7 * events.len());
    out.push_str("(;FF[4]GM[1]CA[UTF-8]");
    property(&mut out, "AP", APPLICATION);
    if size.is_square() {
        let _ = write!(out, "SZ[{}]", size.width());
    } else {
        let _ = write!(out, "SZ[{}:{}]", size.width(), size.height());
    }
    write_info(&mut out, info);

    let mut setup: Vec<(Point, Stone)> = Vec::new();
    let mut root = true;
    let mut moves = 0usize;
    for ev in events {
        match *ev {
            Event::Setup { point, stone } => setup.push((point, stone)),
            Event::Play { color, mv } => {
                let value = match mv {
                    Move::Play(p) => match point_value(p) {
                        Some(v) => v,
                        None => break,
                    },
                    Move::Pass => String::new(),
                };
                write_setup(&mut out, &setup, root);
                setup.clear();
                root = false;
                if moves.is_multiple_of(MOVES_PER_LINE) {
                    out.push('\n');
                }
                let tag = match color {
                    Color::Black => 'B',
                    Color::White => 'W',
                };
                let _ = write!(out, ";{tag}[{value}]");
                moves += 1;
            }
        }
    }
    write_setup(&mut out, &setup, root);
    out.push_str(")\n");
    out
}

/// The game-information properties, in the usual order.
fn write_info(out: &mut String, info: &GameInfo) {
    let text = [
        ("GN", &info.game_name),
        ("EV", &info.event),
        ("RO", &info.round),
        ("PC", &info.place),
        ("DT", &info.date),
        ("PB", &info.black),
        ("BR", &info.black_rank),
        ("PW", &info.white),
        ("WR", &info.white_rank),
        ("RU", &info.rules),
    ];
    for (name, value) in text {
        if let Some(v) = value {
            property(out, name, v);
        }
    }
    if let Some(k) = info.komi {
        property(out, "KM", &komi_text(k));
    }
    if let Some(h) = info.handicap {
        let _ = write!(out, "HA[{h}]");
    }
    if let Some(r) = &info.result {
        property(out, "RE", &r.raw);
    }
}

/// Komi in hundredths as a decimal with at least one fractional digit (`650` is `6.5`,
/// `700` is `7.0`): a point keeps the reader from taking a large integer for Fox's
/// hundredths.
pub fn komi_text(hundredths: i32) -> String {
    let sign = if hundredths < 0 { "-" } else { "" };
    let a = hundredths.unsigned_abs();
    let (int, frac) = (a / 100, a % 100);
    if frac % 10 == 0 {
        format!("{sign}{int}.{}", frac / 10)
    } else {
        format!("{sign}{int}.{frac:02}")
    }
}

/// One property with a SimpleText value, escaped (`\` and `]`).
fn property(out: &mut String, name: &str, value: &str) {
    out.push_str(name);
    out.push('[');
    for c in value.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push(']');
}

/// A point's two SGF letters.
fn point_value(p: Point) -> Option<String> {
    Some([sgf_letter(p.x)?, sgf_letter(p.y)?].iter().collect())
}

/// Setup stones in order, as `AB`/`AW`/`AE` properties: in the root node (`root`), else in
/// nodes of their own. A property letter that comes back after another, or a point set
/// twice, starts a new node, so that reading keeps the order.
fn write_setup(out: &mut String, setup: &[(Point, Stone)], root: bool) {
    if setup.is_empty() {
        return;
    }
    let mut node_open = root;
    let mut seen: Vec<Point> = Vec::new();
    let mut done: Vec<Stone> = Vec::new();
    let mut current: Option<Stone> = None;
    for &(p, stone) in setup {
        let Some(value) = point_value(p) else {
            continue;
        };
        let restart = seen.contains(&p) || (current != Some(stone) && done.contains(&stone));
        if !node_open || restart {
            out.push_str("\n;");
            node_open = true;
            seen.clear();
            done.clear();
            current = None;
        }
        if current != Some(stone) {
            if let Some(c) = current {
                done.push(c);
            }
            out.push_str(match stone {
                Stone::Black => "AB",
                Stone::White => "AW",
                Stone::Empty => "AE",
            });
            current = Some(stone);
        }
        let _ = write!(out, "[{value}]");
        seen.push(p);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse_file, parse_result, GameRecord, LineEnd};
    use super::*;

    fn reread(size: Size, info: &GameInfo, events: &[Event]) -> GameRecord {
        let text = write_game(size, info, events);
        let mut parsed = parse_file(text.as_bytes(), "written.sgf", None);
        assert!(parsed.rejected.is_empty(), "{text}");
        assert_eq!(parsed.games.len(), 1, "{text}");
        let g = parsed.games.remove(0);
        assert!(g.warnings.is_empty(), "{:?}\n{text}", g.warnings);
        assert_eq!(g.end, None, "{text}");
        g
    }

    fn play(color: Color, x: u8, y: u8) -> Event {
        Event::Play {
            color,
            mv: Move::Play(Point::new(x, y)),
        }
    }

    fn setup(x: u8, y: u8, stone: Stone) -> Event {
        Event::Setup {
            point: Point::new(x, y),
            stone,
        }
    }

    #[test]
    fn komi_texts_read_back() {
        for k in [
            0, 50, -50, 375, 650, 700, 750, 10_000, -10_000, 1, 99, 12_345,
        ] {
            let t = komi_text(k);
            assert_eq!(super::super::parse_komi(&t), Some(k), "{k} as {t}");
        }
        assert_eq!(komi_text(650), "6.5");
        assert_eq!(komi_text(375), "3.75");
        assert_eq!(komi_text(700), "7.0");
    }

    /// Every field and every kind of event, escapes and odd text included.
    #[test]
    fn a_full_record_reads_back_the_same() {
        let info = GameInfo {
            black: Some("Shin Jinseo".into()),
            white: Some("柯洁 ]\\ [x]".into()),
            black_rank: Some("9p".into()),
            white_rank: Some("9d".into()),
            date: Some("2019-03-22,23".into()),
            year: Some(2019),
            event: Some("LG Cup [final]".into()),
            round: Some("3".into()),
            place: Some("Seoul".into()),
            result: Some(parse_result("W+2.5")),
            komi: Some(650),
            handicap: Some(2),
            rules: Some("Japanese".into()),
            game_name: Some("game \\ one".into()),
        };
        let events = vec![
            setup(3, 3, Stone::Black),
            setup(15, 15, Stone::Black),
            setup(2, 2, Stone::White),
            play(Color::White, 16, 3),
            play(Color::Black, 2, 16),
            Event::Play {
                color: Color::White,
                mv: Move::Pass,
            },
            setup(10, 10, Stone::White),
            setup(3, 3, Stone::Empty),
            setup(4, 4, Stone::Black),
            setup(10, 10, Stone::Black),
            play(Color::Black, 9, 9),
            play(Color::Black, 18, 18),
            setup(0, 0, Stone::White),
        ];
        let g = reread(Size::STANDARD, &info, &events);
        assert_eq!(g.size, Size::STANDARD);
        assert_eq!(g.info, info);
        assert_eq!(g.events, events);
    }

    #[test]
    fn sizes_passes_and_an_empty_game() {
        let size = Size::new(13, 9).unwrap();
        let events = vec![
            play(Color::Black, 12, 8),
            Event::Play {
                color: Color::White,
                mv: Move::Pass,
            },
        ];
        let g = reread(size, &GameInfo::default(), &events);
        assert_eq!(g.size, size);
        assert_eq!(g.events, events);
        let g = reread(Size::square(9).unwrap(), &GameInfo::default(), &[]);
        assert!(g.events.is_empty());
        assert_eq!(g.info, GameInfo::default());
    }

    /// The reader ends a main line at a move off the board or no move at all; the line
    /// written ends there too and reads back the same.
    #[test]
    fn a_line_ended_by_the_reader_reads_back_the_same() {
        for text in ["(;SZ[9];B[cc];W[dd];B[rs];W[ee])", "(;B[dd];W[90];B[pp])"] {
            let read = parse_file(text.as_bytes(), "x.sgf", None).games.remove(0);
            assert_eq!(read.move_count(), if text.contains("SZ") { 2 } else { 1 });
            assert!(matches!(
                read.end,
                Some(LineEnd::OffBoard(_) | LineEnd::Invalid)
            ));
            let back: GameRecord = reread(read.size, &read.info, &read.events);
            assert_eq!(back.events, read.events, "{text}");
        }
    }
}
