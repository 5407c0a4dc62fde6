//! The occurrences of the positions most games reach, kept in memory in the form the
//! filters' loops read ([`Hot`]).
//!
//! A filtered question at the empty board or after the first moves walks a large share of
//! the collection's occurrences (about 591,000 of a million games at the empty board), and
//! each occurrence of the index's table costs several reads: its record, the game it falls
//! in (galloping over the games' first moves), the game's first move, and the move played
//! from it, a random read in the moves. Measured at a million games
//! (`tests/bench/src/bin/explore_bench.rs`), those reads were nearly all of a filtered question's
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
//!
//! A position is walked once: questions that reach it while its first walk runs wait for
//! that walk (eight clients asking at once walked it eight times before). A server walks
//! the positions it would keep at start, in the background ([`Hot::warm`]), so that a
//! first question is answered as fast as the next ones; nothing of this is stored in the
//! index.
//!
//! A [`Hot`] also keeps the masks of the filters asked lately ([`Hot::masks`],
//! `mask.rs`): the games each filter keeps, one bit per game, made for the walks of many
//! occurrences; the tallies of the profiles asked lately at kept positions, of every game
//! and of each winner's games ([`Hot::profile`]: a position's next moves by year or by band
//! of ranks, counted once); the names the filters' texts matched lately ([`Hot::matches`],
//! `names.rs`); and every game's filtered fields unpacked ([`Hot::unpacked`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use kifudex_core::index::{Found, Index, Occurrence};
use kifudex_core::stored::encode_move;
use kifudex_core::transform::Transform;
use kifudex_core::Color;
use rayon::prelude::*;

use super::mask::Masks;
use super::names::Matches;
use super::pieces::pieces;
use super::recent::Recent;
use super::tally::{slot, Tallies};
use super::unpacked::Unpacked;
use kifudex_core::columns::GameColumns;

/// Positions with at least this many occurrences are kept (by default): fewer are walked
/// in a few milliseconds.
pub const HOT_MIN: usize = 8_192;

/// Occurrences kept in all (by default): 14 bytes each, so at most about 59 MB.
pub const HOT_CAPACITY: usize = 1 << 22;

/// Profiles' tallies kept (the most recently used): a years profile's at the empty board
/// of a million games is about 4.5 MB (a slot per year of 65,536, 98 KB a year counted),
/// a ranks profile's under 1 MB; so at most about 54 MB. (Twelve: the years and ranks
/// profiles of every game and of each winner at two positions.)
pub const PROFILES: usize = 12;

/// What a profile's tallies count: its name (`years`, `ranks`), the position's first
/// occurrence, whether the colour-exchanged position is counted too, and the winner whose
/// games alone are counted (`None`: every game).
pub type ProfileKey = (&'static str, usize, bool, Option<Color>);

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
    /// Whether the occurrences are in the order of (game, move number), strictly: a game
    /// that reaches the position more than once (the empty board of a game that opens with
    /// two passes) has its occurrences together, its first one first. The position's game
    /// list is then the occurrences that follow one of another game ([`HotPosition::first`]).
    pub ordered: bool,
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
            ordered: false,
        };
        for (o, s) in parts {
            p.occurrences.extend(o);
            p.slots.extend(s);
        }
        p.firsts = p.occurrences.windows(2).all(|w| w[0].game < w[1].game);
        p.ordered = p
            .occurrences
            .windows(2)
            .all(|w| (w[0].game, w[0].move_number) < (w[1].game, w[1].move_number));
        p
    }

    /// Whether occurrence `i` is its game's first one, in a position whose occurrences are
    /// [`HotPosition::ordered`] (false past the occurrences).
    #[inline]
    pub fn first(&self, i: usize) -> bool {
        let Some(o) = self.occurrences.get(i) else {
            return false;
        };
        self.firsts
            || i == 0
            || self
                .occurrences
                .get(i - 1)
                .is_none_or(|before| before.game != o.game)
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

/// The kept positions of one index, by their first occurrence, and the masks of the
/// filters asked lately.
pub struct Hot {
    min: usize,
    capacity: usize,
    held: Mutex<Held>,
    masks: Masks,
    matches: Matches,
    profiles: Recent<ProfileKey, Arc<Tallies>>,
    unpacked: OnceLock<Arc<Unpacked>>,
}

/// A kept position: walked once, by the first question that reaches it; the questions that
/// reach it meanwhile wait for that walk instead of walking it again.
type Cell = Arc<OnceLock<Arc<HotPosition>>>;

/// What a [`Hot`] holds.
#[derive(Default)]
struct Held {
    /// Occurrences of the positions kept or being walked.
    occurrences: usize,
    positions: HashMap<usize, Cell>,
}

impl Default for Hot {
    fn default() -> Self {
        Hot::new(HOT_MIN, HOT_CAPACITY)
    }
}

/// What [`Hot::warm`] kept.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Warmed {
    /// Positions kept (walked now or before).
    pub positions: usize,
    /// Their occurrences.
    pub occurrences: usize,
}

impl Hot {
    /// Keeps positions of at least `min` occurrences, `capacity` occurrences in all.
    pub fn new(min: usize, capacity: usize) -> Hot {
        Hot {
            min: min.max(1),
            capacity,
            held: Mutex::new(Held::default()),
            masks: Masks::default(),
            matches: Matches::default(),
            profiles: Recent::new(PROFILES),
            unpacked: OnceLock::new(),
        }
    }

    /// The dates and facts of every game of `columns` (the columns of this cache's
    /// index) unpacked, made the first time (the questions that need them meanwhile wait).
    pub fn unpacked(&self, columns: &GameColumns<'_>) -> Arc<Unpacked> {
        Arc::clone(
            self.unpacked
                .get_or_init(|| Arc::new(Unpacked::of(columns))),
        )
    }

    /// The tallies of the profile `key` (of every game: no filter), counted by `count`
    /// the first time and kept, the [`PROFILES`] used last; the questions that ask for them
    /// while they are counted wait for that count. `None` if the lock is poisoned.
    pub fn profile(
        &self,
        key: ProfileKey,
        count: impl FnOnce() -> Tallies,
    ) -> Option<Arc<Tallies>> {
        self.profiles.get(&key, true, || Arc::new(count()))
    }

    /// Number of profiles' tallies kept (counted or being counted).
    pub fn profiles(&self) -> usize {
        self.profiles.len()
    }

    /// The masks of the filters asked lately (of the same index).
    pub fn masks(&self) -> &Masks {
        &self.masks
    }

    /// The matches of the filters' texts asked lately in the index's dictionaries.
    pub fn matches(&self) -> &Matches {
        &self.matches
    }

    /// The fewest occurrences of a kept position.
    pub fn min(&self) -> usize {
        self.min
    }

    /// The most occurrences kept in all.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Occurrences kept now (with those of positions being walked).
    pub fn held(&self) -> usize {
        self.held.lock().map_or(0, |h| h.occurrences)
    }

    /// The occurrences of the position `found` (of `index`, the index this cache belongs
    /// to), walked now if they are not kept yet; `None` when the position has fewer than
    /// [`Hot::min`] occurrences or keeping it would pass [`Hot::capacity`]. A position is
    /// walked once: a question that reaches it while another walks it waits for that walk.
    pub fn get(&self, index: &Index<'_>, found: &Found) -> Option<Arc<HotPosition>> {
        let n = found.count();
        if n < self.min {
            return None;
        }
        let cell: Cell = {
            let mut held = self.held.lock().ok()?;
            match held.positions.get(&found.start) {
                Some(c) => Arc::clone(c),
                None => {
                    if held.occurrences.saturating_add(n) > self.capacity {
                        return None;
                    }
                    held.occurrences += n;
                    let c = Cell::default();
                    held.positions.insert(found.start, Arc::clone(&c));
                    c
                }
            }
        };
        // Walked without the lock (other positions are answered meanwhile); the walk's
        // pieces run on the global pool, never blocked here (only the callers' threads
        // wait).
        let kept = cell.get_or_init(|| Arc::new(HotPosition::walk(index, found)));
        Some(Arc::clone(kept))
    }

    /// Walks now the positions of `index` a first question would keep, those of most
    /// occurrences first, until [`Hot::capacity`]: the index's shared positions (every
    /// position of [`Hot::min`] occurrences or more is one when the index's `shared_min` is
    /// at most that) of at least [`Hot::min`] occurrences. For a server, at start: its
    /// first questions are then answered as fast as the next ones.
    pub fn warm(&self, index: &Index<'_>) -> Warmed {
        let shared = index.shared_positions();
        let total = index.occurrence_table().len();
        let mut rows: Vec<(usize, usize)> = (0..shared.len())
            .filter_map(|r| shared.row(r, total))
            .filter(|row| row.occurrences as usize >= self.min)
            .map(|row| (row.first_occurrence as usize, row.occurrences as usize))
            .collect();
        rows.sort_by_key(|&(start, n)| (std::cmp::Reverse(n), start));
        let mut warmed = Warmed::default();
        for (start, n) in rows {
            let found = Found {
                start,
                end: start + n,
                shared: None,
                to_canonical: Transform::IDENTITY,
            };
            if self.get(index, &found).is_some() {
                warmed.positions += 1;
                warmed.occurrences += n;
            }
        }
        warmed
    }
}
