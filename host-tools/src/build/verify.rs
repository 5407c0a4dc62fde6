//! The collision check: no position key may stand for two different positions.
//!
//! Every occurrence carries, besides its canonical 128-bit Zobrist key, a **check value**
//! ([`check_value`]): the sum of the position's keys under every transform of its board.
//! The sum does not depend on the orientation the position was played in (the transforms
//! of a transformed position are the same set), so all the occurrences of one position
//! carry the same value; two different positions that share a canonical key would have
//! to agree on seven more independent 128-bit keys, folded into 64 bits, to share it too.
//! The build compares the check values of every key's occurrences, group by group, as the
//! groups come out of the sort: it needs no replay and no memory beyond the group, so it
//! works the same when the occurrences are sorted in slices from disk
//! ([`super::spill`]).
//!
//! Why it stays 0: the 128-bit keys of `n` distinct positions collide with probability
//! below `n^2 / 2^129` (about 1e-19 for ten billion positions, a collection of fifty
//! million games); a collision that the check value also missed would take another
//! chance of 2^-64. Earlier builds compared whole boards replayed from the stored moves,
//! which is exact but needs every game at hand for every slice of the sort.

use kifudex_core::hash::Keys;
use kifudex_core::{Size, Transform};
use rayon::prelude::*;

use super::Occ;

/// The check value of a position whose keys under the 8 transforms are `keys` (the
/// board's incremental keys): the wrapping sum over the transforms valid for `size` of
/// each key's two halves XORed. Equal for a position in any orientation.
#[inline]
pub fn check_value(keys: &Keys, size: Size) -> u64 {
    Transform::all_for(size).iter().fold(0u64, |sum, t| {
        let k = keys.0[t.index()];
        sum.wrapping_add(k as u64 ^ (k >> 64) as u64)
    })
}

/// Checks sorted occurrences split into groups of equal keys (`groups`: the start of
/// each group, then `occs.len()`): returns (keys whose occurrences disagree on their
/// check value, keys with more than one occurrence).
pub fn count_collisions(occs: &[Occ], groups: &[u32]) -> (u64, u64) {
    groups
        .par_windows(2)
        .map(|w| {
            let g = &occs[w[0] as usize..w[1] as usize];
            match g.split_first() {
                Some((first, rest)) if !rest.is_empty() => {
                    (rest.iter().any(|o| o.check != first.check) as u64, 1)
                }
                _ => (0, 0),
            }
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{collect_sources, BuildOptions, BuildReport, Collected};
    use crate::input;
    use crate::sample::{SAMPLE_NAME, SAMPLE_TGZ};
    use kifudex_core::board::Board;
    use kifudex_core::{Color, Point, Stone};

    /// Regroups `c` after its occurrences' keys changed.
    fn regroup(c: &mut Collected) {
        c.occs.sort_unstable();
        c.groups = (0..c.occs.len())
            .filter(|&i| {
                i == 0 || (c.occs[i].hi, c.occs[i].lo) != (c.occs[i - 1].hi, c.occs[i - 1].lo)
            })
            .map(|i| i as u32)
            .collect();
        c.groups.push(c.occs.len() as u32);
    }

    #[test]
    fn a_key_shared_by_two_positions_is_found() {
        let mut sources = Vec::new();
        let mut skipped = Vec::new();
        input::collect_archive(SAMPLE_NAME, SAMPLE_TGZ.to_vec(), &mut sources, &mut skipped);
        let mut report = BuildReport::default();
        let mut c =
            collect_sources(sources, &skipped, &BuildOptions::default(), &mut report).unwrap();
        let (collisions, compared) = count_collisions(&c.occs, &c.groups);
        assert_eq!(collisions, 0);
        assert!(compared > 100);
        // Give the position after move 40 of the last game the key of the empty board
        // (shared by every game), and that after move 30 of the first game a key of its own
        // shared with the position after its move 31.
        let key = |c: &Collected, ply: u32| {
            let o = c.occs.iter().find(|o| o.ply == ply).unwrap();
            (o.hi, o.lo)
        };
        let last = c.games.len() - 1;
        let empty = key(&c, 0);
        let (a, b) = (c.move_starts[0] + 30, c.move_starts[0] + 31);
        let other = key(&c, b);
        let forged = c.move_starts[last] + 40;
        for o in &mut c.occs {
            if o.ply == forged {
                (o.hi, o.lo) = empty;
            } else if o.ply == a {
                (o.hi, o.lo) = other;
            }
        }
        regroup(&mut c);
        assert_eq!(count_collisions(&c.occs, &c.groups).0, 2);
    }

    /// The check value is the same for a position in all its orientations, on square and
    /// rectangular boards, and differs between the positions of a real game.
    #[test]
    fn the_check_value_ignores_the_orientation() {
        for size in [Size::new(19, 19).unwrap(), Size::new(13, 9).unwrap()] {
            let stones = [
                (2, 3, Color::Black),
                (5, 1, Color::White),
                (0, 0, Color::Black),
            ];
            let mut values = Vec::new();
            for &t in Transform::all_for(size) {
                let mut board = Board::new(size);
                for &(x, y, c) in &stones {
                    let p = t.apply(Point::new(x, y), size).unwrap();
                    board.set_stone(p, Stone::of(c)).unwrap();
                }
                values.push(check_value(board.keys(), size));
            }
            assert!(
                values.windows(2).all(|w| w[0] == w[1]),
                "{size:?}: {values:x?}"
            );
        }
        let mut sources = Vec::new();
        let mut skipped = Vec::new();
        input::collect_archive(SAMPLE_NAME, SAMPLE_TGZ.to_vec(), &mut sources, &mut skipped);
        let mut report = BuildReport::default();
        let c = collect_sources(sources, &skipped, &BuildOptions::default(), &mut report).unwrap();
        // One value per key, and a different one for every key.
        let mut pairs: Vec<(u64, u64, u64)> =
            c.occs.iter().map(|o| (o.check, o.hi, o.lo)).collect();
        pairs.sort_unstable();
        pairs.dedup();
        let keys = c.groups.len() - 1;
        assert_eq!(pairs.len(), keys, "a key with two check values");
        pairs.dedup_by_key(|p| p.0);
        assert_eq!(pairs.len(), keys, "two keys with one check value");
    }
}
