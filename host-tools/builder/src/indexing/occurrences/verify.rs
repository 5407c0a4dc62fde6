//! The collision check: no position key may stand for two different positions.
//!
//! Every occurrence carries, besides its canonical 128-bit Zobrist key, a **check value**
//! ([`crate::indexing::occurrence::check_value`]): the sum of the position's keys under
//! every transform of its board. The sum does not depend on the orientation the position
//! was played in (the transforms of a transformed position are the same set), so all the
//! occurrences of one position carry the same value; two different positions that share a canonical key would have
//! to agree on seven more independent 128-bit keys, folded into 64 bits, to share it too.
//! The build compares the check values of every key's occurrences, group by group, as the
//! groups come out of the sort: it needs no replay and no memory beyond the group, so it
//! works the same when the occurrences are sorted in slices from disk (`spill.rs`).
//!
//! Why it stays 0: the 128-bit keys of `n` distinct positions collide with probability
//! below `n^2 / 2^129` (about 1e-19 for ten billion positions, a collection of fifty
//! million games); a collision that the check value also missed would take another
//! chance of 2^-64. Earlier builds compared whole boards replayed from the stored moves,
//! which is exact but needs every game at hand for every slice of the sort.

use rayon::prelude::*;

use crate::indexing::occurrence::Occ;

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
    use crate::indexing::inputs;
    use crate::indexing::occurrences::{prepare, Collected};
    use crate::indexing::options::BuildOptions;
    use crate::indexing::report::BuildReport;
    use crate::input;
    use crate::sample::{SAMPLE_NAME, SAMPLE_TGZ};

    /// The bundled sample's games, collected.
    fn sample() -> Collected {
        let mut sources = Vec::new();
        let mut skipped = Vec::new();
        input::collect_archive(SAMPLE_NAME, SAMPLE_TGZ.to_vec(), &mut sources, &mut skipped);
        let mut report = BuildReport::default();
        let inputs = inputs::sources(sources);
        let t0 = std::time::Instant::now();
        let opts = BuildOptions::default();
        let prepared = prepare(inputs, skipped, &opts, &mut report, t0, None, true).unwrap();
        prepared.sort_and_check(&mut report, t0).unwrap()
    }

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
        let mut c = sample();
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

    /// On real games, one check value per key and a different one for every key.
    #[test]
    fn the_check_value_tells_the_positions_of_real_games_apart() {
        let c = sample();
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
