//! The exact collision check: every position key that more than one occurrence shares is
//! checked by comparing the whole canonical boards of all its occurrences, replayed from
//! the stored moves. Keys seen once cannot merge two positions, so this is exact.
//!
//! Why it stays 0: the 128-bit Zobrist keys of `n` distinct positions collide with
//! probability below `n^2 / 2^129` (about 1e-19 for ten billion positions, a collection
//! of fifty million games), and every build checks it anyway.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use kifudex_core::board::{Board, StonesOnly, Tracking};
use kifudex_core::stored::StoredGame;
use kifudex_core::{Color, Transform};
use rayon::prelude::*;

use super::Collected;

/// A whole board in canonical orientation: 2 bits per point index.
type Packed = [u64; 12];

fn canonical_board<T: Tracking>(board: &Board<T>, orient: u8) -> Packed {
    let size = board.size();
    let t = Transform::ALL[orient as usize & 7];
    let mut out = [0u64; 12];
    for (bit, color) in [(0, Color::Black), (1, Color::White)] {
        for p in board.stones(color).iter() {
            let q = t.apply_unchecked(p, size);
            let i = q.index19() as usize * 2 + bit;
            out[i / 64] |= 1 << (i % 64);
        }
    }
    out
}

/// An occurrence to check: (global move number, shared key, orientation).
type Stop = (u32, u32, u8);

/// Returns (keys standing for more than one position, keys compared).
pub fn count_collisions(c: &Collected) -> (u64, u64) {
    // The keys with more than one occurrence.
    let shared: Vec<usize> = (0..c.groups.len() - 1)
        .into_par_iter()
        .filter(|&gi| c.groups[gi + 1] - c.groups[gi] >= 2)
        .collect();
    // Their occurrences as (global move number, shared key, orientation), by move number:
    // game after game, move after move.
    let mut stops: Vec<Stop> = shared
        .par_iter()
        .enumerate()
        .flat_map_iter(|(k, &gi)| {
            let (s, e) = (c.groups[gi] as usize, c.groups[gi + 1] as usize);
            c.occs[s..e]
                .iter()
                .map(move |o| (o.ply, k as u32, o.orient))
        })
        .collect();
    stops.par_sort_unstable_by_key(|x| x.0);
    // Split by game.
    let mut by_game: Vec<(usize, &[Stop])> = Vec::new();
    let mut rest = &stops[..];
    while let Some(&(ply, _, _)) = rest.first() {
        let g = c.game_of_ply(ply);
        let end = c.move_starts[g] + c.games[g].moves.len() as u32;
        let (list, tail) = rest.split_at(rest.partition_point(|x| x.0 < end));
        by_game.push((g, list));
        rest = tail;
    }
    let reps: Vec<OnceLock<Packed>> = (0..shared.len()).map(|_| OnceLock::new()).collect();
    let bad: Vec<AtomicBool> = (0..shared.len()).map(|_| AtomicBool::new(false)).collect();
    by_game.par_iter().for_each(|&(g, list)| {
        let start = c.move_starts[g];
        // Only the stones are compared: a replay that keeps nothing else.
        let mut replay = c.games[g].replay::<StonesOnly>();
        for &(ply, group, orient) in list {
            if !replay.seek(ply - start) {
                // (The builder stored only moves it could play.)
                bad[group as usize].store(true, Ordering::Relaxed);
                continue;
            }
            let packed = canonical_board(replay.board(), orient);
            let rep = reps[group as usize].get_or_init(|| packed);
            if *rep != packed {
                bad[group as usize].store(true, Ordering::Relaxed);
            }
        }
    });
    let collisions = bad.iter().filter(|b| b.load(Ordering::Relaxed)).count() as u64;
    (collisions, shared.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{collect_sources, BuildOptions, BuildReport};
    use crate::input;
    use crate::sample::{SAMPLE_NAME, SAMPLE_TGZ};

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
        let (collisions, compared) = count_collisions(&c);
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
        assert_eq!(count_collisions(&c).0, 2);
    }
}
