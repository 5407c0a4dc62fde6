//! The game columns a filter's mask reads, unpacked once per index ([`Unpacked`]), one
//! plain array per field.
//!
//! A mask (`mask.rs`) tests every game of the collection: at a million games, reading each
//! game's date and facts from their packed columns and decoding the facts cost about 16 ns
//! a game (`perf` of the first filtered questions at the empty board: `Selection::kept`),
//! so eight new filters asked at once waited for each other's million decodes. The dates
//! and the decoded facts are kept here as plain arrays, one per field, with the players'
//! and the event's ids (28 bytes a game: 28 MB at a million games), made once, on all
//! cores, by the first mask or the server's warm-up. A mask then reads only the fields its
//! filter tests, 64 games at a time ([`bits`]): a winner mask reads one byte a game. The
//! values are the columns' own ([`GameColumns::date`], [`GameColumns::facts`],
//! [`GameColumns::black`], ...): a test compares the masks made from them with the rows on
//! every game.

use kifudex_core::columns::{Facts, GameColumns};
use kifudex_core::Color;
use rayon::prelude::*;

/// Games unpacked by one piece of the parallel loop.
const PIECE: u32 = 1 << 16;

/// Every game's date and facts, by game id, a plain array per field.
#[derive(Default)]
pub struct Unpacked {
    /// `yyyymmdd`, 0 unknown.
    pub dates: Vec<u32>,
    /// The winner's code (`winner_code`).
    pub winners: Vec<u8>,
    /// Handicap stones.
    pub handicaps: Vec<u8>,
    /// Black's rank code ([`Facts::black_rank`]).
    pub black_ranks: Vec<u8>,
    /// White's rank code.
    pub white_ranks: Vec<u8>,
    /// The komi's id ([`Facts::komi`]).
    pub komis: Vec<u32>,
    /// The rules' id ([`Facts::rules`]).
    pub rules: Vec<u32>,
    /// Black's id in the players' dictionary ([`GameColumns::black`]).
    pub blacks: Vec<u32>,
    /// White's id ([`GameColumns::white`]).
    pub whites: Vec<u32>,
    /// The event's id ([`GameColumns::event`]).
    pub events: Vec<u32>,
}

/// A winner as one byte: 0 none, 1 Black, 2 White.
#[inline]
pub fn winner_code(winner: Option<Color>) -> u8 {
    match winner {
        None => 0,
        Some(Color::Black) => 1,
        Some(Color::White) => 2,
    }
}

/// The winner of a [`winner_code`].
#[inline]
pub fn winner_of(code: u8) -> Option<Color> {
    match code {
        1 => Some(Color::Black),
        2 => Some(Color::White),
        _ => None,
    }
}

/// One bit per value of `values` (at most 64; bit `i` for value `i`): whether `test`
/// holds of it. The loop a mask runs over a field, 64 games at a time: the tests into 64
/// bytes (a loop the compiler vectorises), then each 8 bytes of 0 or 1 gathered into 8 bits
/// by one multiplication (a fold setting one bit per value took four times as long: 0.63 ms
/// against 0.16 ms for a byte compared at a million games).
#[inline]
pub fn bits<T: Copy>(values: &[T], test: impl Fn(T) -> bool) -> u64 {
    let mut tested = [0u8; 64];
    for (t, &v) in tested.iter_mut().zip(values) {
        *t = test(v) as u8;
    }
    let mut b = 0u64;
    for (k, eight) in tested.chunks_exact(8).enumerate() {
        let mut x = [0u8; 8];
        x.copy_from_slice(eight);
        // Byte j (0 or 1) lands at bit 56 + j of the product; no two bytes' terms meet.
        let packed = u64::from_le_bytes(x).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        b |= packed << (k * 8);
    }
    b
}

impl Unpacked {
    /// Unpacks the dates and facts of every game of `columns`, in pieces on all cores.
    pub fn of(columns: &GameColumns<'_>) -> Unpacked {
        let n = columns.len();
        let parts: Vec<Unpacked> = (0..n.div_ceil(PIECE))
            .into_par_iter()
            .map(|p| {
                let ids = p * PIECE..(p * PIECE).saturating_add(PIECE).min(n);
                let mut u = Unpacked::default();
                for id in ids {
                    u.push(columns.date(id), &columns.facts(id));
                    u.blacks.push(columns.black(id));
                    u.whites.push(columns.white(id));
                    u.events.push(columns.event(id));
                }
                u
            })
            .collect();
        let mut u = Unpacked::default();
        for part in parts {
            u.dates.extend(part.dates);
            u.winners.extend(part.winners);
            u.handicaps.extend(part.handicaps);
            u.black_ranks.extend(part.black_ranks);
            u.white_ranks.extend(part.white_ranks);
            u.komis.extend(part.komis);
            u.rules.extend(part.rules);
            u.blacks.extend(part.blacks);
            u.whites.extend(part.whites);
            u.events.extend(part.events);
        }
        u
    }

    /// Adds a game.
    fn push(&mut self, date: u32, f: &Facts) {
        self.dates.push(date);
        self.winners.push(winner_code(f.winner));
        self.handicaps.push(f.handicap);
        self.black_ranks.push(f.black_rank);
        self.white_ranks.push(f.white_rank);
        self.komis.push(f.komi);
        self.rules.push(f.rules);
    }

    /// Game `id`'s date (0 past the games).
    #[inline]
    pub fn date(&self, id: u32) -> u32 {
        self.dates.get(id as usize).copied().unwrap_or(0)
    }

    /// Game `id`'s facts (the default past the games).
    #[inline]
    pub fn facts(&self, id: u32) -> Facts {
        let i = id as usize;
        let at = |v: &[u8]| v.get(i).copied().unwrap_or(0);
        if i >= self.len() {
            return Facts::default();
        }
        Facts {
            winner: winner_of(at(&self.winners)),
            handicap: at(&self.handicaps),
            black_rank: at(&self.black_ranks),
            white_rank: at(&self.white_ranks),
            komi: self.komis.get(i).copied().unwrap_or(0),
            rules: self.rules.get(i).copied().unwrap_or(0),
        }
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
