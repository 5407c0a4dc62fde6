//! Finding a position in the index: its canonical key's fingerprint in the shared table or
//! its bucket, each candidate checked exactly by replaying its game ([`Index::find`]); and
//! the occurrences of a found position ([`Index::occurrences`]).

use super::Index;
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
        let r = self.occurrences.get(i)?;
        let game = self.games.game_of_ply(r.ply);
        let move_number = r.ply.checked_sub(self.games.moves_of(game).0)?;
        Some(Occurrence {
            game,
            move_number: u32::try_from(move_number).ok()?,
            orientation: r.orientation,
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
        for r in self.shared.rows_of(fp) {
            if let Some(row) = self.shared.row(r, self.occurrences.len()) {
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
        }
        // Every position: the occurrences filed under its fingerprint.
        let filed = self.occurrences.filed_under(fp);
        let mut i = filed.start;
        while i < filed.end {
            let end = self.occurrences.position_end(i, filed.end);
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

    /// Number of shared positions.
    pub fn shared_count(&self) -> usize {
        self.shared.len()
    }

    /// The occurrences of a found position, newest game first.
    pub fn occurrences(&self, found: &Found) -> impl Iterator<Item = Occurrence> + '_ {
        (found.start..found.end).filter_map(move |i| self.occurrence_at(i))
    }

    /// [`Index::occurrences`] with each occurrence's next move (the move played from the
    /// position, in its game's orientation), for loops over every game of a position: each
    /// game is found from the previous one's ([`super::GameSections::game_of_ply_from`]),
    /// the same games as [`Index::occurrences`] gives.
    pub fn for_each_occurrence(
        &self,
        found: &Found,
        visit: impl FnMut(Occurrence, (Color, crate::point::Move)),
    ) {
        self.for_each_occurrence_in(found.start..found.end, visit)
    }

    /// [`Index::for_each_occurrence`] over a part of a found position's occurrences
    /// (`range` within `found.start..found.end`: for walks in parallel pieces).
    pub fn for_each_occurrence_in(
        &self,
        range: core::ops::Range<usize>,
        mut visit: impl FnMut(Occurrence, (Color, crate::point::Move)),
    ) {
        let mut game = 0u32;
        for i in range {
            let Some(r) = self.occurrences.get(i) else {
                continue;
            };
            game = self.games.game_of_ply_from(r.ply, game);
            let Some(move_number) = r
                .ply
                .checked_sub(self.games.moves_of(game).0)
                .and_then(|m| u32::try_from(m).ok())
            else {
                continue;
            };
            let occurrence = Occurrence {
                game,
                move_number,
                orientation: r.orientation,
            };
            visit(occurrence, self.games.global_move(r.ply));
        }
    }
}
