//! The games that reached a position: newest first, filtered, paged.

use kifudex_core::board::Board;
use kifudex_core::index::{Game, Index, Occurrence};
use kifudex_core::Color;

/// Which games count: by year, player, handicap, winner (`None` everywhere: every game).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Only games from this year on.
    pub year_from: Option<u16>,
    /// Only games up to this year.
    pub year_to: Option<u16>,
    /// Only games with a player whose name contains this (case-insensitive).
    pub player: Option<String>,
    /// Only games with this handicap (0 for even games).
    pub handicap: Option<u8>,
    /// Only games won by this colour.
    pub winner: Option<Color>,
}

/// Which of the matching games to list: at most `limit`, after skipping `offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// At most this many games.
    pub limit: usize,
    /// Skip this many matching games first.
    pub offset: usize,
}

impl Page {
    /// The first `limit` games.
    pub const fn first(limit: usize) -> Page {
        Page { limit, offset: 0 }
    }
}

impl Default for Page {
    /// The first 100 games.
    fn default() -> Page {
        Page::first(100)
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

/// Lists the games that reached `board` (in any orientation) and pass `filter`, one entry
/// per game, the `page` of them.
pub fn list(index: &Index<'_>, board: &Board, filter: &GameFilter, page: Page) -> GameList {
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
        if out.matching >= page.offset && out.games.len() < page.limit {
            out.games.push(occ);
        }
        out.matching += 1;
    }
    out
}
