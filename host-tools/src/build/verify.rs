//! The exact collision check: every position key that more than one occurrence shares is
//! checked by comparing the whole canonical boards of all its occurrences, replayed from
//! the stored moves. Keys seen once cannot merge two positions, so this is exact.
//!
//! Why it stays 0: the 128-bit Zobrist keys of `n` distinct positions collide with
//! probability below `n^2 / 2^129` (about 1e-19 for ten billion positions, a collection
//! of fifty million games), and every build checks it anyway.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use kifudex_core::board::{Board, Rules};
use kifudex_core::{Color, Move, Point, Stone, Transform};
use rayon::prelude::*;

use super::replay::ReplayedGame;
use super::Collected;

/// A whole board in canonical orientation: 2 bits per point index.
type Packed = [u64; 12];

fn canonical_board(board: &Board, orient: u8) -> Packed {
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

/// Replays a stored game, calling `at(board, moves_played)` before each move whose number
/// is in `stops` (sorted).
pub fn replay_stored(game: &ReplayedGame, stops: &[u32], mut at: impl FnMut(&Board, u32)) {
    let mut board = Board::with_rules(game.record.size, Rules::RECORD);
    let mut s = 0;
    let mut k = 0;
    let last = stops.last().copied().unwrap_or(0);
    for (i, &code) in game.moves.iter().enumerate() {
        while let Some(&(before, point, stone)) = game.setup.get(s) {
            if before as usize > i {
                break;
            }
            if let Some(p) = Point::from_index19(point) {
                let st = [Stone::Empty, Stone::Black, Stone::White][stone as usize % 3];
                let _ = board.set_stone(p, st);
            }
            s += 1;
        }
        while stops.get(k) == Some(&(i as u32)) {
            at(&board, i as u32);
            k += 1;
        }
        if i as u32 >= last {
            return;
        }
        let color = if code >> 9 & 1 == 1 {
            Color::White
        } else {
            Color::Black
        };
        let mv = Move::from_code(code & 0x1ff).unwrap_or(Move::Pass);
        let _ = board.play(color, mv);
    }
}

/// Returns (keys standing for more than one position, keys compared).
pub fn count_collisions(c: &Collected) -> (u64, u64) {
    // Occurrences of shared keys, by game: (move number, group, orientation).
    let mut by_game: Vec<Vec<(u32, u32, u8)>> = vec![Vec::new(); c.games.len()];
    let mut shared = 0u32;
    let mut group_of = Vec::new();
    for gi in 0..c.groups.len() - 1 {
        let (s, e) = (c.groups[gi] as usize, c.groups[gi + 1] as usize);
        if e - s < 2 {
            continue;
        }
        for o in &c.occs[s..e] {
            let g = c.game_of_ply(o.ply);
            by_game[g].push((o.ply - c.move_starts[g], shared, o.orient));
        }
        group_of.push(gi);
        shared += 1;
    }
    let reps: Vec<OnceLock<Packed>> = (0..shared).map(|_| OnceLock::new()).collect();
    let bad: Vec<AtomicBool> = (0..shared).map(|_| AtomicBool::new(false)).collect();
    by_game.par_iter_mut().enumerate().for_each(|(g, list)| {
        if list.is_empty() {
            return;
        }
        list.sort_unstable();
        let stops: Vec<u32> = list.iter().map(|x| x.0).collect();
        let mut k = 0;
        replay_stored(&c.games[g], &stops, |board, _| {
            let (_, group, orient) = list[k];
            k += 1;
            let packed = canonical_board(board, orient);
            let rep = reps[group as usize].get_or_init(|| packed);
            if *rep != packed {
                bad[group as usize].store(true, Ordering::Relaxed);
            }
        });
    });
    let collisions = bad.iter().filter(|b| b.load(Ordering::Relaxed)).count() as u64;
    (collisions, shared as u64)
}
