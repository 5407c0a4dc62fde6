//! The games a filter keeps as one bit per game ([`GameMask`]), and the masks of the
//! filters asked lately kept for reuse ([`Masks`]).
//!
//! A filtered question at a position most games reach (the empty board: about 591,000
//! occurrences at a million games) asked whether each occurrence's game passes the
//! filter: several reads and decodes of the game columns per occurrence, for every
//! question. A mask asks it once per game, in a tight loop over the columns on all cores
//! (a million games: 125 KB, and as much again for each winner), and a walk then tests one
//! bit per occurrence (and reads the winner's bits of the games kept). A mask costs a
//! walk over every game of the collection, so it is made only for a walk of many
//! occurrences ([`super::Hot::min`] or more); once made it is kept, the most recently
//! used [`MASKS`] of them, and read by every question with the same filter, on any route
//! and at any position (a user who sets a filter and then plays through a game asks it
//! again at every move). A mask is made from the columns' own test
//! ([`super::Selection::mask`] calls [`GameMask::of`] with [`super::Selection::kept`]): a
//! test compares the masks with the rows on every game.

use std::sync::{Arc, Mutex, OnceLock};

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
        GameMask {
            words: words.iter().map(|w| w[0]).collect(),
            black_won: words.iter().map(|w| w[1]).collect(),
            white_won: words.iter().map(|w| w[2]).collect(),
        }
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

    /// Number of games kept.
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// A mask being made or made: made once, by the first question that needs it; the
/// questions that need it meanwhile wait for it instead of making it again.
type Cell = Arc<OnceLock<Arc<GameMask>>>;

/// The masks of the filters asked lately (of one index), the most recently used last.
pub struct Masks {
    capacity: usize,
    held: Mutex<Vec<(GameFilter, Cell)>>,
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
            capacity,
            held: Mutex::new(Vec::new()),
        }
    }

    /// Number of masks kept (made or being made).
    pub fn len(&self) -> usize {
        self.held.lock().map_or(0, |h| h.len())
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
        if self.capacity == 0 {
            return None;
        }
        let cell: Cell = {
            let mut held = self.held.lock().ok()?;
            match held.iter().position(|(f, _)| f == filter) {
                Some(i) => {
                    let entry = held.remove(i);
                    let cell = Arc::clone(&entry.1);
                    held.push(entry);
                    cell
                }
                None if make => {
                    if held.len() >= self.capacity {
                        held.remove(0);
                    }
                    let cell = Cell::default();
                    held.push((filter.clone(), Arc::clone(&cell)));
                    cell
                }
                None => return None,
            }
        };
        // Made without the lock: other filters are answered meanwhile.
        let mask = cell.get_or_init(|| Arc::new(of()));
        Some(Arc::clone(mask))
    }
}
