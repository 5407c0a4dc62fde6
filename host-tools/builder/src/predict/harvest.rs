//! Harvesting patterns: the canonical keys of the local patterns around every played move
//! of the training games, of every size, counted; the frequent ones become the model's
//! pattern features.
//!
//! A pattern of size `s + 1` contains the pattern of size `s` around the same point, so it
//! is played at most as often: keeping every pattern played at least `n` times keeps, with
//! each pattern, all its smaller ones. The predictor relies on it: it looks for the patterns
//! of a point from the smallest up and stops at the first one it does not know.

use rayon::prelude::*;

use kifudex_core::predict::shape::SIZES;
use kifudex_core::predict::Analysis;
use kifudex_core::Move;

use kifudex_core::stored::StoredGame;

use super::games::each_position;

/// One harvested pattern.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// Its size (0: the 3x3 square with liberties).
    pub size: u8,
    /// Its canonical key.
    pub key: u64,
    /// How often it was played.
    pub count: u32,
    /// The canonical key of the pattern one size smaller around the same point (0 for
    /// size 0).
    pub parent: u64,
}

/// The patterns played at least `min_count` times in `games` (the moves before move
/// `max_moves` of each game), largest count first, then by size and key.
pub fn harvest<G: StoredGame + Sync>(
    games: &[G],
    max_moves: usize,
    min_count: u32,
) -> Vec<Pattern> {
    // One list of (key, parent key) per size: 16 bytes per played move and size.
    let per_game: Vec<Vec<Vec<(u64, u64)>>> = games
        .par_iter()
        .map(|g| {
            let mut keys: Vec<Vec<(u64, u64)>> = vec![Vec::new(); SIZES];
            each_position(g, |n, board, history, color, mv| {
                let Move::Play(p) = mv else { return };
                if n >= max_moves {
                    return;
                }
                let a = Analysis::new(board, color, history);
                let mut parent = 0;
                a.pattern_keys(p, |s, k| {
                    keys[s].push((k, parent));
                    parent = k;
                    true
                });
            });
            keys
        })
        .collect();
    let mut out = Vec::new();
    for s in 0..SIZES {
        let mut all: Vec<(u64, u64)> =
            Vec::with_capacity(per_game.iter().map(|k| k[s].len()).sum());
        for k in &per_game {
            all.extend_from_slice(&k[s]);
        }
        all.par_sort_unstable();
        let mut i = 0;
        while i < all.len() {
            let mut j = i + 1;
            while j < all.len() && all[j].0 == all[i].0 {
                j += 1;
            }
            let count = (j - i) as u32;
            if count >= min_count {
                out.push(Pattern {
                    size: s as u8,
                    key: all[i].0,
                    count,
                    parent: all[i].1,
                });
            }
            i = j;
        }
    }
    out.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then(a.size.cmp(&b.size))
            .then(a.key.cmp(&b.key))
    });
    out
}
