//! Finding a position in the index: its canonical key's fingerprint in the shared table or
//! its bucket, each candidate checked exactly by replaying its game ([`Index::find`]); and
//! the occurrences of a found position ([`Index::occurrences`]).

use super::{Index, SharedRow};
use crate::board::{Board, StonesOnly, Tracking};
use crate::fingerprint::fingerprint;
use crate::hash::Key;
use crate::point::Color;
use crate::transform::Transform;

/// Where a position occurs: a game, the move number before which it stands (0-based: 0 is
/// the position before the first move) and the transform from the game's orientation to
/// the canonical one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    /// The game's id.
    pub game: u32,
    /// Moves played before the position (0-based move number of the next move).
    pub move_number: u32,
    /// Transform from the game's orientation to the position's canonical orientation.
    pub orientation: Transform,
}

/// A position found in the index.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Its occurrences: `occurrences[start..end]`.
    pub start: usize,
    /// End of the occurrences.
    pub end: usize,
    /// Its row in `shared`, if its next moves are precomputed.
    pub shared: Option<usize>,
    /// Transform from the query's orientation to the canonical one.
    pub to_canonical: Transform,
}

impl Found {
    /// Number of occurrences.
    pub fn count(&self) -> usize {
        self.end - self.start
    }
}

impl<'a> Index<'a> {
    /// Occurrence `i` of the occurrence table.
    pub(super) fn occurrence_at(&self, i: usize) -> Option<Occurrence> {
        let v = self.occ.get(i)?;
        let lay = self.header.occurrence_layout();
        let ply = lay.ply(v);
        let game = self.game_of_ply(ply);
        let move_number = ply.checked_sub(self.move_start(game))?;
        Some(Occurrence {
            game,
            move_number: u32::try_from(move_number).ok()?,
            orientation: lay.orientation(v),
        })
    }

    /// Whether occurrence `i` is the position `query` (exactly, by replay).
    fn is_position<T: Tracking>(
        &self,
        i: usize,
        query: &Board<T>,
        to_canonical: Transform,
    ) -> bool {
        let Some(occ) = self.occurrence_at(i) else {
            return false;
        };
        // Only the stones are compared: a replay that keeps nothing else.
        let Some(mut replay) = self.replay::<StonesOnly>(occ.game) else {
            return false;
        };
        if !replay.seek(occ.move_number) {
            return false;
        }
        let board = replay.board();
        let size = query.size();
        if board.size() != size {
            return false;
        }
        // game frame -> canonical -> query frame
        let to_query = occ.orientation.then(to_canonical.inverse());
        // Equal stone counts per colour, and every stone of the replayed board maps onto a
        // stone of the same colour of the query: as the transform is one-to-one on the
        // board, the two positions are then exactly equal (and only the stones are visited,
        // not every point).
        for color in [Color::Black, Color::White] {
            let (mine, theirs) = (board.stones(color), query.stones(color));
            if mine.len() != theirs.len() {
                return false;
            }
            if to_query == Transform::IDENTITY {
                if mine != theirs {
                    return false;
                }
            } else {
                for p in mine.iter() {
                    match to_query.apply(p, size) {
                        Some(q) if theirs.contains(q) => {}
                        _ => return false,
                    }
                }
            }
        }
        true
    }

    /// Finds `query` in the index (in any orientation).
    pub fn find(&self, query: &Board) -> Option<Found> {
        let (key, to_canonical) = query.keys().canonical(query.size());
        self.find_key(query, key, to_canonical)
    }

    /// Finds `query`, whose canonical key is `key` and `to_canonical` its transform onto
    /// the canonical orientation (as [`crate::hash::Keys::canonical`] or
    /// [`crate::hash::PositionKey`] give them), for a board of any tracking.
    pub fn find_key<T: Tracking>(
        &self,
        query: &Board<T>,
        key: Key,
        to_canonical: Transform,
    ) -> Option<Found> {
        if !self.header.has_size(query.size()) {
            return None;
        }
        let fp = fingerprint(key);
        // Popular positions: the shared table.
        let n_shared = self.shared_keys.len();
        let mut r = self.shared_keys.partition_point(0, n_shared, |k| k < fp);
        while r < n_shared && self.shared_keys.at(r) == fp {
            if let Some(row) = self.shared_row(r) {
                let os = row.first_occurrence as usize;
                if self.is_position(os, query, to_canonical) {
                    return Some(Found {
                        start: os,
                        end: os + row.occurrences as usize,
                        shared: Some(r),
                        to_canonical,
                    });
                }
            }
            r += 1;
        }
        // Every position: the occurrence buckets.
        let lay = self.header.occurrence_layout();
        let (bucket, rem) = self.header.split().split(fp);
        let n_occ = self.occ.len();
        let be = (self.buckets.at(bucket as usize + 1) as usize).min(n_occ);
        let bs = (self.buckets.at(bucket as usize) as usize).min(be);
        let mut i = self.occ.partition_point(bs, be, |v| lay.rem(v) < rem);
        while i < be {
            let v = self.occ.at(i);
            if lay.rem(v) != rem {
                break;
            }
            let mut end = i + 1;
            while end < be && !lay.starts_position(self.occ.at(end)) {
                end += 1;
            }
            if self.is_position(i, query, to_canonical) {
                return Some(Found {
                    start: i,
                    end,
                    shared: None,
                    to_canonical,
                });
            }
            i = end;
        }
        None
    }

    /// Shared position `r` (its occurrences and next moves clamped to their sections).
    pub(super) fn shared_row(&self, r: usize) -> Option<SharedRow> {
        let fingerprint = self.shared_keys.get(r)?;
        let n_occ = self.occ.len() as u64;
        let first_occurrence = self.shared_starts.at(r).min(n_occ);
        let occurrences = self.shared_counts.at(r).min(n_occ - first_occurrence);
        let n_next = self.next.len() as u64;
        let next_end = self.shared_next.at(r + 1).min(n_next);
        let first_next = self.shared_next.at(r).min(next_end);
        Some(SharedRow {
            fingerprint,
            first_occurrence,
            occurrences,
            first_next,
            next_count: next_end - first_next,
        })
    }

    /// Number of shared positions.
    pub fn shared_count(&self) -> usize {
        self.shared_keys.len()
    }

    /// The occurrences of a found position, newest game first.
    pub fn occurrences(&self, found: &Found) -> impl Iterator<Item = Occurrence> + '_ {
        (found.start..found.end).filter_map(move |i| self.occurrence_at(i))
    }
}
