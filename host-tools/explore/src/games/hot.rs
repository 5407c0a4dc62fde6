//! The occurrences of the positions most games reach, kept in memory in the form the
//! filters' loops read ([`Hot`]).
//!
//! A filtered question at the empty board or after the first moves walks a large share of
//! the collection's occurrences (about 591,000 of a million games at the empty board), and
//! each occurrence of the index's table costs several reads: its record, the game it falls
//! in (galloping over the games' first moves), the game's first move, and the move played
//! from it, a random read in the moves. Measured at a million games
//! (`tests/src/bin/explore_bench.rs`), those reads were nearly all of a filtered question's
//! time (`Packed::get` 67 %, the gallop 11 % of the samples).
//!
//! A position with at least [`Hot::min`] occurrences is walked once, the first time a
//! question reaches it, and its occurrences are kept as the loops use them: each
//! occurrence's game, move number and orientation, and the tally slot of the move played
//! from it (move record * 8 + orientation, as [`super::Tallies`] counts). Later questions
//! at the position read these arrays in order: a filter then costs a few reads of the
//! game columns per game. What is kept is bounded ([`Hot::capacity`] occurrences in all;
//! a position that would pass the bound is walked each time, as without the cache). The
//! answers are those of the walk (the same occurrences, in the same order; tests compare
//! them on every filter, sort and position).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use kifudex_core::index::{Found, Index, Occurrence};
use kifudex_core::stored::encode_move;
use rayon::prelude::*;

use super::count::pieces;

/// Positions with at least this many occurrences are kept (by default): fewer are walked
/// in a few milliseconds.
pub const HOT_MIN: usize = 8_192;

/// Occurrences kept in all (by default): 14 bytes each, so at most about 59 MB.
pub const HOT_CAPACITY: usize = 1 << 22;

/// One position's occurrences, in the index's order.
pub struct HotPosition {
    /// Each occurrence (game, move number, orientation).
    pub occurrences: Vec<Occurrence>,
    /// The tally slot of each occurrence's next move: its move record (10 bits) * 8 + its
    /// orientation's index.
    pub slots: Vec<u16>,
    /// Whether the games strictly increase (each game once: the occurrences are the
    /// position's game list as it is).
    pub firsts: bool,
}

impl HotPosition {
    /// Walks the occurrences of `found` (in parallel pieces, concatenated in order).
    fn walk(index: &Index<'_>, found: &Found) -> HotPosition {
        let parts: Vec<(Vec<Occurrence>, Vec<u16>)> = pieces(found.start..found.end)
            .into_par_iter()
            .map(|piece| {
                let mut occurrences = Vec::with_capacity(piece.len());
                let mut slots = Vec::with_capacity(piece.len());
                index.for_each_occurrence_in(piece, |occ, (color, mv)| {
                    occurrences.push(occ);
                    slots.push(slot(encode_move(color, mv), occ.orientation.index()));
                });
                (occurrences, slots)
            })
            .collect();
        let mut p = HotPosition {
            occurrences: Vec::with_capacity(found.count()),
            slots: Vec::with_capacity(found.count()),
            firsts: false,
        };
        for (o, s) in parts {
            p.occurrences.extend(o);
            p.slots.extend(s);
        }
        p.firsts = p.occurrences.windows(2).all(|w| w[0].game < w[1].game);
        p
    }

    /// Number of occurrences.
    pub fn len(&self) -> usize {
        self.occurrences.len()
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.occurrences.is_empty()
    }
}

/// The tally slot of a move record played in orientation `orientation`.
#[inline]
pub(super) fn slot(record: u64, orientation: usize) -> u16 {
    ((record as usize & 1023) * 8 + (orientation & 7)) as u16
}

/// The kept positions of one index, by their first occurrence.
pub struct Hot {
    min: usize,
    capacity: usize,
    held: Mutex<Held>,
}

/// What a [`Hot`] holds.
#[derive(Default)]
struct Held {
    occurrences: usize,
    positions: HashMap<usize, Arc<HotPosition>>,
}

impl Default for Hot {
    fn default() -> Self {
        Hot::new(HOT_MIN, HOT_CAPACITY)
    }
}

impl Hot {
    /// Keeps positions of at least `min` occurrences, `capacity` occurrences in all.
    pub fn new(min: usize, capacity: usize) -> Hot {
        Hot {
            min: min.max(1),
            capacity,
            held: Mutex::new(Held::default()),
        }
    }

    /// The fewest occurrences of a kept position.
    pub fn min(&self) -> usize {
        self.min
    }

    /// The most occurrences kept in all.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Occurrences kept now.
    pub fn held(&self) -> usize {
        self.held.lock().map_or(0, |h| h.occurrences)
    }

    /// The occurrences of the position `found` (of `index`, the index this cache belongs
    /// to), walked now if they are not kept yet; `None` when the position has fewer than
    /// [`Hot::min`] occurrences or keeping it would pass [`Hot::capacity`].
    pub fn get(&self, index: &Index<'_>, found: &Found) -> Option<Arc<HotPosition>> {
        let n = found.count();
        if n < self.min {
            return None;
        }
        {
            let held = self.held.lock().ok()?;
            if let Some(p) = held.positions.get(&found.start) {
                return Some(Arc::clone(p));
            }
            if held.occurrences.saturating_add(n) > self.capacity {
                return None;
            }
        }
        // Walked without the lock (two first questions at once may both walk: the first
        // kept wins, the answers are the same).
        let walked = Arc::new(HotPosition::walk(index, found));
        let mut held = self.held.lock().ok()?;
        if let Some(p) = held.positions.get(&found.start) {
            return Some(Arc::clone(p));
        }
        if held.occurrences.saturating_add(n) > self.capacity {
            return Some(walked);
        }
        held.occurrences += n;
        held.positions.insert(found.start, Arc::clone(&walked));
        Some(walked)
    }
}
