//! The database's next moves in the forms review tools read: Leela Zero's `lz-analyze`
//! lines, KataGo's `kata-analyze` lines and a GoGui `gfx` answer.
//!
//! Each entry is one database move of the colour analysed (`visits` = games that played
//! it, `winrate` = that colour's wins among them, `prior` = its share of the colour's
//! moves, `order` = its rank, `pv` = the move), in the order of `kifudex search`.

use std::fmt::Write;
use std::time::Duration;

use kifudex_core::{Color, Move, Size};

use super::database::DbMove;
use super::protocol::{parse_color, vertex};

/// Which engine's line format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// Leela Zero: `winrate` and `prior` as integers from 0 to 10000.
    LeelaZero,
    /// KataGo: `winrate` and `prior` as decimals from 0 to 1, with KataGo's score fields.
    KataGo,
}

/// What an analysis command asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The colour whose moves are shown.
    pub color: Color,
    /// How often a line is repeated (`None` or zero: once).
    pub interval: Option<Duration>,
    /// At most this many entries.
    pub max_moves: usize,
}

/// Reads `[colour] [interval] [key value]...` as Leela Zero and KataGo take them: the
/// colour (`to_move` if absent), the interval in centiseconds, then `interval N` and
/// `maxmoves N`; other keys (`minmoves`, `ownership`, `pvVisits`, ...) are accepted and
/// change nothing.
pub fn parse_request(args: &[String], to_move: Color) -> Result<Request, String> {
    let mut req = Request {
        color: to_move,
        interval: None,
        max_moves: usize::MAX,
    };
    let mut rest = args;
    if let Some(c) = rest.first().and_then(|a| parse_color(a)) {
        req.color = c;
        rest = &rest[1..];
    }
    let centis = |s: &str| {
        s.parse::<u64>()
            .map(|cs| (cs > 0).then(|| Duration::from_millis(cs.min(360_000) * 10)))
            .map_err(|_| format!("interval {s:?} is not a number of centiseconds"))
    };
    if let Some(first) = rest
        .first()
        .filter(|a| a.bytes().all(|b| b.is_ascii_digit()))
    {
        req.interval = centis(first)?;
        rest = &rest[1..];
    }
    let mut pairs = rest.chunks(2);
    for pair in pairs.by_ref() {
        let [key, value] = pair else {
            return Err(format!("{:?} has no value", pair[0]));
        };
        match key.as_str() {
            "interval" => req.interval = centis(value)?,
            "maxmoves" => {
                req.max_moves = value
                    .parse()
                    .map_err(|_| format!("maxmoves {value:?} is not a number"))?
            }
            _ => {}
        }
    }
    Ok(req)
}

/// `numerator / denominator` as an integer from 0 to 10000, rounded (0 when the
/// denominator is 0).
pub fn per_10000(numerator: u64, denominator: u64) -> u64 {
    (numerator * 10_000 + denominator / 2)
        .checked_div(denominator)
        .unwrap_or(0)
}

/// `numerator / denominator` as a decimal from 0 to 1 (0 when the denominator is 0).
pub fn fraction(numerator: u64, denominator: u64) -> f64 {
    if denominator == 0 {
        0.0
    } else {
        numerator as f64 / denominator as f64
    }
}

/// One analysis line for the moves of `color`: `info move ... pv ...` per move, on one
/// line (empty when the database has no move for that colour). Passes are left out: the
/// tools draw moves on the board.
pub fn info_line(moves: &[DbMove], color: Color, size: Size, format: Format, max: usize) -> String {
    let total: u64 = moves.iter().map(|m| m.games as u64).sum();
    let mut line = String::new();
    let shown = moves.iter().filter(|m| m.mv != Move::Pass).take(max);
    for (order, m) in shown.enumerate() {
        let v = vertex(m.mv, size);
        let games = m.games as u64;
        let wins = m.wins(color) as u64;
        if !line.is_empty() {
            line.push(' ');
        }
        match format {
            Format::LeelaZero => {
                let _ = write!(
                    line,
                    "info move {v} visits {games} winrate {} prior {} order {order} pv {v}",
                    per_10000(wins, games),
                    per_10000(games, total),
                );
            }
            Format::KataGo => {
                // The database has no score estimate: the score fields say an even game.
                let _ = write!(
                    line,
                    "info move {v} visits {games} winrate {:.6} scoreMean 0.0 scoreLead 0.0 \
                     prior {:.6} order {order} pv {v}",
                    fraction(wins, games),
                    fraction(games, total),
                );
            }
        }
    }
    line
}

/// GoGui's `gfx` answer for the moves of `color`: each move labelled with its games, and a
/// status line (`TEXT`) with the total and the most played move's win rate.
pub fn gogui_gfx(moves: &[DbMove], color: Color, size: Size) -> String {
    let total: u64 = moves.iter().map(|m| m.games as u64).sum();
    let mut out = String::new();
    let labels: Vec<String> = moves
        .iter()
        .filter(|m| m.mv != Move::Pass)
        .map(|m| format!("{} {}", vertex(m.mv, size), m.games))
        .collect();
    if !labels.is_empty() {
        let _ = writeln!(out, "LABEL {}", labels.join(" "));
    }
    let who = match color {
        Color::Black => "Black",
        Color::White => "White",
    };
    match moves.first() {
        None => {
            let _ = write!(out, "TEXT {who}: no game of the database continues here");
        }
        Some(m) => {
            let _ = write!(
                out,
                "TEXT {who}: {total} games, most played {} ({} games, {who} won {:.1}%)",
                vertex(m.mv, size),
                m.games,
                fraction(m.wins(color) as u64, m.games as u64) * 100.0,
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifudex_core::Point;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn requests() {
        let r = parse_request(&args("w 50"), Color::Black).unwrap();
        assert_eq!(r.color, Color::White);
        assert_eq!(r.interval, Some(Duration::from_millis(500)));
        let r = parse_request(&args("10"), Color::White).unwrap();
        assert_eq!(
            (r.color, r.interval),
            (Color::White, Some(Duration::from_millis(100)))
        );
        let r = parse_request(
            &args("B interval 20 maxmoves 3 ownership true"),
            Color::White,
        )
        .unwrap();
        assert_eq!(
            (r.color, r.interval, r.max_moves),
            (Color::Black, Some(Duration::from_millis(200)), 3)
        );
        assert_eq!(parse_request(&[], Color::Black).unwrap().interval, None);
        assert!(parse_request(&args("b 5 maxmoves"), Color::Black).is_err());
        assert!(parse_request(&args("b interval x"), Color::Black).is_err());
    }

    #[test]
    fn lines_in_both_formats() {
        let s = Size::STANDARD;
        let moves = [
            DbMove {
                mv: Move::Play(Point::new(15, 3)),
                games: 3,
                black_wins: 2,
                white_wins: 1,
            },
            DbMove {
                mv: Move::Pass,
                games: 5,
                black_wins: 0,
                white_wins: 0,
            },
            DbMove {
                mv: Move::Play(Point::new(3, 15)),
                games: 2,
                black_wins: 0,
                white_wins: 2,
            },
        ];
        assert_eq!(
            info_line(&moves, Color::Black, s, Format::LeelaZero, usize::MAX),
            "info move Q16 visits 3 winrate 6667 prior 3000 order 0 pv Q16 \
             info move D4 visits 2 winrate 0 prior 2000 order 1 pv D4"
        );
        assert_eq!(
            info_line(&moves, Color::White, s, Format::KataGo, 1),
            "info move Q16 visits 3 winrate 0.333333 scoreMean 0.0 scoreLead 0.0 \
             prior 0.300000 order 0 pv Q16"
        );
        assert_eq!(
            gogui_gfx(&moves, Color::Black, s),
            "LABEL Q16 3 D4 2\nTEXT Black: 10 games, most played Q16 (3 games, Black won 66.7%)"
        );
        assert_eq!(info_line(&[], Color::Black, s, Format::KataGo, 5), "");
    }
}
