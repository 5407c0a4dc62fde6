//! The games that reached a position: newest first, filtered, paged.

use clap::Args;
use kifudex_core::board::Board;
use kifudex_core::index::{Game, Index, Occurrence};
use kifudex_core::outcome::Margin;
use kifudex_core::Color;
use serde_json::{json, Value};

/// Which games to list.
#[derive(Args, Debug, Clone, Default)]
pub struct GameFilter {
    /// Only games from this year on.
    #[arg(long)]
    pub year_from: Option<u16>,
    /// Only games up to this year.
    #[arg(long)]
    pub year_to: Option<u16>,
    /// Only games with a player whose name contains this (case-insensitive).
    #[arg(long)]
    pub player: Option<String>,
    /// Only games with this handicap (0 for even games).
    #[arg(long)]
    pub handicap: Option<u8>,
    /// Only games won by this colour (`B` or `W`).
    #[arg(long, value_parser = parse_winner)]
    pub winner: Option<Color>,
    /// At most this many games.
    #[arg(long, default_value_t = 100)]
    pub limit: usize,
    /// Skip this many matching games first.
    #[arg(long, default_value_t = 0)]
    pub offset: usize,
}

fn parse_winner(s: &str) -> Result<Color, String> {
    match s {
        "B" | "b" => Ok(Color::Black),
        "W" | "w" => Ok(Color::White),
        _ => Err(format!("expected B or W, not {s:?}")),
    }
}

impl GameFilter {
    /// Whether a game passes the filter.
    pub fn accepts(&self, g: &Game<'_>) -> bool {
        if self.year_from.is_some() || self.year_to.is_some() {
            let Some(y) = g.year() else { return false };
            if self.year_from.is_some_and(|f| y < f) || self.year_to.is_some_and(|t| y > t) {
                return false;
            }
        }
        if let Some(p) = &self.player {
            let p = p.to_lowercase();
            if !g.black.to_lowercase().contains(&p) && !g.white.to_lowercase().contains(&p) {
                return false;
            }
        }
        if self.handicap.is_some_and(|h| h != g.handicap) {
            return false;
        }
        if self.winner.is_some() && self.winner != g.winner {
            return false;
        }
        true
    }
}

/// The matching games (one entry per game: its first occurrence), after offset and limit,
/// and how many games match in all.
pub struct GameList {
    /// The page of games.
    pub games: Vec<Occurrence>,
    /// Matching games in all.
    pub matching: usize,
}

/// Lists the games that reached `board` (in any orientation).
pub fn list(index: &Index<'_>, board: &Board, filter: &GameFilter) -> GameList {
    let mut out = GameList {
        games: Vec::new(),
        matching: 0,
    };
    let Some(found) = index.find(board) else {
        return out;
    };
    let mut last_game = None;
    for occ in index.occurrences(&found) {
        if last_game == Some(occ.game) {
            continue;
        }
        last_game = Some(occ.game);
        let Some(g) = index.game(occ.game) else {
            continue;
        };
        if !filter.accepts(&g) {
            continue;
        }
        if out.matching >= filter.offset && out.games.len() < filter.limit {
            out.games.push(occ);
        }
        out.matching += 1;
    }
    out
}

/// The result as a short text (`B+R`, `W+6.5`...), from the parsed result when it is
/// understood, else as written.
pub fn result_text(g: &Game<'_>) -> String {
    let w = match g.winner {
        Some(Color::Black) => "B+",
        Some(Color::White) => "W+",
        None => match g.margin {
            Margin::Draw => return "Draw".into(),
            Margin::Void => return "Void".into(),
            _ => return g.result.to_string(),
        },
    };
    match g.margin {
        Margin::Points(t) => format!("{w}{}", t as f64 / 10.0),
        Margin::Resign => format!("{w}R"),
        Margin::Time => format!("{w}T"),
        Margin::Forfeit => format!("{w}F"),
        _ => format!("{w}?"),
    }
}

/// The list as JSON.
pub fn list_json(index: &Index<'_>, list: &GameList) -> Value {
    let games: Vec<Value> = list
        .games
        .iter()
        .filter_map(|o| {
            let g = index.game(o.game)?;
            Some(json!({
                "id": g.id,
                "black": g.black, "black_rank": g.black_rank,
                "white": g.white, "white_rank": g.white_rank,
                "date": g.date, "event": g.event, "round": g.round, "place": g.place,
                "result": result_text(&g),
                "winner": g.winner.map(crate::present::color_letter),
                "handicap": g.handicap,
                "komi": g.komi.map(|k| k as f64 / 100.0),
                "move_number": o.move_number + 1,
                "orientation": o.orientation.index(),
                "moves": g.move_count,
                "file": g.path, "member": g.member, "tree": g.tree,
            }))
        })
        .collect();
    json!({ "matching": list.matching, "games": games })
}

/// The list as a text table.
pub fn list_text(index: &Index<'_>, list: &GameList) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "{} games", list.matching);
    for o in &list.games {
        let Some(g) = index.game(o.game) else {
            continue;
        };
        let _ = writeln!(
            s,
            "{:>6}  {:<10}  {} {} - {} {}  {}  move {}  {}",
            g.id,
            g.date,
            g.black,
            g.black_rank,
            g.white,
            g.white_rank,
            result_text(&g),
            o.move_number + 1,
            g.event
        );
    }
    s
}
