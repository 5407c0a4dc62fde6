//! The games a filter keeps as one bit per game ([`GameMask`]), and the masks of the
//! filters asked lately kept for reuse ([`Masks`]).
//!
//! A filtered question at a position most games reach (the empty board: about 591,000
//! occurrences at a million games) asked whether each occurrence's game passes the
//! filter: several reads and decodes of the game columns per occurrence, for every
//! question. A mask asks it once per game (a million games: 125 KB, and as much again for
//! each winner), and a walk then tests one bit per occurrence (and reads the winner's bits
//! of the games kept). A mask costs a test of every game of the collection, so it is made
//! only for a walk of many occurrences ([`super::Hot::min`] or more); once made it is
//! kept, the most recently used [`MASKS`] of them, and read by every question with the
//! same filter, on any route and at any position (a user who sets a filter and then plays
//! through a game asks it again at every move). With a hot cache a mask is made from its
//! unpacked fields, 64 games at a time, in the asking thread
//! ([`super::Selection::mask_of`]: 0.6-2 ms at a million games); without one from the
//! columns' own test on all cores ([`GameMask::of`] with [`super::Selection::kept`]). A
//! test compares both with the rows on every game.

use std::sync::Arc;

use super::recent::Recent;

use kifudex_core::Color;
use rayon::prelude::*;

use super::GameFilter;

/// Masks kept (by default): at a million games 375 KB each (three bits a game), so 12 MB
/// in all.
pub const MASKS: usize = 32;

/// Words of a mask made by one piece of its parallel loop (16,384 games).
const WORDS_PER_PIECE: usize = 256;

/// One bit per game of an index: set for the games a filter keeps; and of those, which
/// Black won and which White won (what a tally of next moves reads of a game).
pub struct GameMask {
    /// Games kept (counted once made).
    kept: usize,
    words: Vec<u64>,
    black_won: Vec<u64>,
    white_won: Vec<u64>,
}

impl GameMask {
    /// The games `0..games` that `kept` keeps (`kept(id)`: `None` for a game left out, else
    /// the game's winner, if any), tested once each, in pieces on all cores.
    pub fn of(games: u32, kept: impl Fn(u32) -> Option<Option<Color>> + Sync) -> GameMask {
        let words = (games as usize).div_ceil(64);
        let words: Vec<[u64; 3]> = (0..words)
            .into_par_iter()
            .with_min_len(WORDS_PER_PIECE)
            .map(|w| {
                let first = w as u32 * 64;
                let last = first.saturating_add(64).min(games);
                let mut bits = [0u64; 3];
                for id in first..last {
                    if let Some(winner) = kept(id) {
                        let bit = 1 << (id - first);
                        bits[0] |= bit;
                        match winner {
                            Some(Color::Black) => bits[1] |= bit,
                            Some(Color::White) => bits[2] |= bit,
                            None => {}
                        }
                    }
                }
                bits
            })
            .collect();
        GameMask::counted(GameMask {
            kept: 0,
            words: words.iter().map(|w| w[0]).collect(),
            black_won: words.iter().map(|w| w[1]).collect(),
            white_won: words.iter().map(|w| w[2]).collect(),
        })
    }

    /// The mask with its games kept counted.
    fn counted(mut m: GameMask) -> GameMask {
        m.kept = m.words.iter().map(|w| w.count_ones() as usize).sum();
        m
    }

    /// The mask whose words (64 games each, game `64 * w + i` at bit `i` of word `w`) are
    /// `kept`, and of those the games Black won and White won (`(kept, black, white)` per
    /// word; bits past the games clear).
    pub fn from_words(words: impl IntoIterator<Item = (u64, u64, u64)>) -> GameMask {
        let mut m = GameMask {
            kept: 0,
            words: Vec::new(),
            black_won: Vec::new(),
            white_won: Vec::new(),
        };
        for (kept, black, white) in words {
            m.words.push(kept);
            m.black_won.push(black & kept);
            m.white_won.push(white & kept);
        }
        GameMask::counted(m)
    }

    /// Bit `id` of `bits` (false past the games).
    #[inline]
    fn bit(bits: &[u64], id: u32) -> bool {
        bits.get(id as usize / 64)
            .is_some_and(|w| w >> (id % 64) & 1 == 1)
    }

    /// Whether game `id` is kept (false past the games).
    #[inline]
    pub fn has(&self, id: u32) -> bool {
        GameMask::bit(&self.words, id)
    }

    /// The winner of game `id` if it is kept and its record names one.
    #[inline]
    pub fn winner(&self, id: u32) -> Option<Color> {
        if GameMask::bit(&self.black_won, id) {
            Some(Color::Black)
        } else if GameMask::bit(&self.white_won, id) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Game `id`'s bits as counts: `[kept, kept and Black won, kept and White won]`, each 0
    /// or 1 (all 0 past the games): what a tally adds for an occurrence of the game,
    /// without a branch.
    #[inline]
    pub fn counts(&self, id: u32) -> [u32; 3] {
        let (w, b) = (id as usize / 64, id % 64);
        let bit = |v: &[u64]| v.get(w).map_or(0, |x| (x >> b & 1) as u32);
        [bit(&self.words), bit(&self.black_won), bit(&self.white_won)]
    }

    /// Number of games kept.
    pub fn count(&self) -> usize {
        self.kept
    }

    /// Number of games it has a bit for (the index's, rounded up to 64).
    pub fn games(&self) -> usize {
        self.words.len() * 64
    }
}

/// The masks of the filters asked lately (of one index), the most recently used kept
/// (`recent.rs`: a mask is made once, by the first question that needs it; the questions
/// that need it meanwhile wait for it).
pub struct Masks {
    held: Recent<GameFilter, Arc<GameMask>>,
}

impl Default for Masks {
    fn default() -> Self {
        Masks::new(MASKS)
    }
}

impl Masks {
    /// Keeps at most `capacity` masks.
    pub fn new(capacity: usize) -> Masks {
        Masks {
            held: Recent::new(capacity),
        }
    }

    /// Number of masks kept (made or being made).
    pub fn len(&self) -> usize {
        self.held.len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// The mask of `filter`: the kept one (waiting for it if it is being made); else, with
    /// `make`, made now by `of` and kept (the least recently used one dropped past the
    /// capacity); else `None`.
    pub fn get(
        &self,
        filter: &GameFilter,
        make: bool,
        of: impl FnOnce() -> GameMask,
    ) -> Option<Arc<GameMask>> {
        // Made without the lock: other filters are answered meanwhile.
        self.held.get(filter, make, || Arc::new(of()))
    }
}
