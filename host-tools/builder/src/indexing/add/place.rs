//! The positions of the added games, and where each goes among the old index's positions.
//!
//! The old index keeps, per occurrence, only the top `bucket_bits + rem_bits` bits of its
//! position's key; its positions are sorted by their whole key. A new position's place is
//! found from its own kept bits: the old positions with other kept bits are before or
//! after it; those with the same bits (its own position if the old index has it, and
//! rarely others) are replayed to their first occurrence for their whole key, which says
//! whether the new position is one of them (same key and same check value: the build's
//! own collision check) or goes before which.

use std::ops::Range;

use rayon::prelude::*;

use super::old::OldIndex;
use kifudex_core::fingerprint::fingerprint;
use kifudex_core::hash::Key;

use crate::indexing::occurrence::Occ;

/// A position of the added games.
pub(super) struct NewPosition {
    /// Its canonical key.
    pub key: Key,
    /// Its check value ([`crate::indexing::occurrence::check_value`]).
    pub check: u64,
    /// Its occurrences among the added ones (final move numbers, in order).
    pub occs: Range<usize>,
    /// The old occurrence before which it goes, or (`joins`) where the old position it is
    /// starts.
    pub at: usize,
    /// Whether the old index has the position (starting at `at`).
    pub joins: bool,
}

/// The occurrences of the added games (`sorted` by key and move number, split into
/// positions by `groups`, their games' moves starting at `move_starts`) that are kept
/// (`final_start[g]`: where new game `g` starts in the merged index, `None` if it is left
/// out), renumbered, with their positions in key order (not yet placed).
pub(super) fn new_positions(
    sorted: &[Occ],
    groups: &[u32],
    move_starts: &[u32],
    final_start: &[Option<u64>],
) -> (Vec<Occ>, Vec<NewPosition>) {
    let game_of_ply = |ply: u32| move_starts.partition_point(|&s| s <= ply).saturating_sub(1);
    let holds = |g: usize, ply: u32| {
        move_starts.get(g).is_some_and(|&s| s <= ply)
            && move_starts.get(g + 1).is_none_or(|&e| ply < e)
    };
    let mut occs = Vec::with_capacity(sorted.len());
    let mut positions = Vec::new();
    let mut game = 0usize;
    for w in groups.windows(2) {
        let start = occs.len();
        for o in &sorted[w[0] as usize..w[1] as usize] {
            if !holds(game, o.ply) {
                game = game_of_ply(o.ply);
            }
            if let Some(Some(s)) = final_start.get(game) {
                occs.push(Occ {
                    ply: (o.ply - move_starts[game]) + *s as u32,
                    ..*o
                });
            }
        }
        if occs.len() > start {
            let first = occs[start];
            positions.push(NewPosition {
                key: first.key(),
                check: first.check,
                occs: start..occs.len(),
                at: 0,
                joins: false,
            });
        }
    }
    (occs, positions)
}

/// Places every new position among the old index's ([`NewPosition::at`],
/// [`NewPosition::joins`]), in parallel. Returns the number of keys that stand for two
/// different positions (a new one and an old one): the build's collision check.
pub(super) fn place(old: &OldIndex, positions: &mut [NewPosition]) -> anyhow::Result<u64> {
    let results: Vec<Result<bool, usize>> = positions
        .par_iter_mut()
        .map(|p| place_one(old, p))
        .collect();
    let mut collisions = 0;
    for r in results {
        match r {
            Ok(collided) => collisions += collided as u64,
            Err(i) => anyhow::bail!("occurrence {i} of the index cannot be replayed"),
        }
    }
    Ok(collisions)
}

/// Places `p`; `Ok(true)` if its key is an old position's but its check value is not,
/// `Err(i)` if old occurrence `i` cannot be replayed.
fn place_one(old: &OldIndex, p: &mut NewPosition) -> Result<bool, usize> {
    let key = p.key;
    let std::ops::Range { start: mut i, end } = old.filed_under(fingerprint(p.key));
    while i < end {
        let (old_key, check) = old.key_at(i).ok_or(i)?;
        match old_key.cmp(&key) {
            std::cmp::Ordering::Less => i = old.position_end(i, end),
            std::cmp::Ordering::Equal => {
                p.at = i;
                p.joins = true;
                return Ok(check != p.check);
            }
            std::cmp::Ordering::Greater => break,
        }
    }
    p.at = i;
    p.joins = false;
    Ok(false)
}
