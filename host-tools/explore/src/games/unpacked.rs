//! The game columns a filter's mask reads, unpacked once per index ([`Unpacked`]).
//!
//! A mask (`mask.rs`) tests every game of the collection: at a million games, reading each
//! game's date and facts from their packed columns and decoding the facts cost about 16 ns
//! a game (`perf` of the first filtered questions at the empty board: `Selection::kept`),
//! so eight new filters asked at once waited for each other's million decodes. The dates
//! and the decoded facts are kept here as plain arrays (16 bytes a game: 16 MB at a
//! million games), made once, on all cores, by the first mask; a mask then tests plain
//! values. The values are the columns' own ([`GameColumns::date`], [`GameColumns::facts`]):
//! a test compares the masks made from them with the rows on every game.

use kifudex_core::columns::{Facts, GameColumns};
use rayon::prelude::*;

/// Games unpacked by one piece of the parallel loop.
const PIECE: u32 = 1 << 16;

/// Every game's date (`yyyymmdd`, 0 unknown) and facts, by game id.
pub struct Unpacked {
    dates: Vec<u32>,
    facts: Vec<Facts>,
}

impl Unpacked {
    /// Unpacks the dates and facts of every game of `columns`, in pieces on all cores.
    pub fn of(columns: &GameColumns<'_>) -> Unpacked {
        let n = columns.len();
        let parts: Vec<(Vec<u32>, Vec<Facts>)> = (0..n.div_ceil(PIECE))
            .into_par_iter()
            .map(|p| {
                let ids = p * PIECE..(p * PIECE).saturating_add(PIECE).min(n);
                let dates = ids.clone().map(|id| columns.date(id)).collect();
                let facts = ids.map(|id| columns.facts(id)).collect();
                (dates, facts)
            })
            .collect();
        let mut u = Unpacked {
            dates: Vec::with_capacity(n as usize),
            facts: Vec::with_capacity(n as usize),
        };
        for (d, f) in parts {
            u.dates.extend(d);
            u.facts.extend(f);
        }
        u
    }

    /// Game `id`'s date (0 past the games).
    #[inline]
    pub fn date(&self, id: u32) -> u32 {
        self.dates.get(id as usize).copied().unwrap_or(0)
    }

    /// Game `id`'s facts (the default past the games).
    #[inline]
    pub fn facts(&self, id: u32) -> Facts {
        self.facts.get(id as usize).copied().unwrap_or_default()
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.dates.len()
    }

    /// Whether it holds no game.
    pub fn is_empty(&self) -> bool {
        self.dates.is_empty()
    }
}
