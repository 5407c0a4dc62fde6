//! The training data of minorization-maximization: for each sampled position, every legal
//! candidate as its pattern feature and its tuple of group values, candidates with equal
//! features merged with a multiplicity, and which one was played.

use rustc_hash::FxHashMap as HashMap;

use rayon::prelude::*;

use kifudex_core::predict::features::{GROUPS, GROUP_VALUES};
use kifudex_core::predict::{Analysis, History};
use kifudex_core::{Move, Point};

use kifudex_core::stored::StoredGame;

use super::games::each_position;

/// A tuple of group values as one mixed-radix number (group 0 the least significant).
pub fn tuple_id(values: &[u8; GROUPS]) -> u32 {
    let mut id = 0u32;
    for g in (0..GROUPS).rev() {
        id = id * GROUP_VALUES[g] as u32 + values[g] as u32;
    }
    id
}

/// The group values of a mixed-radix tuple id.
pub fn tuple_values(mut id: u32) -> [u8; GROUPS] {
    let mut v = [0u8; GROUPS];
    for (g, slot) in v.iter_mut().enumerate() {
        let r = GROUP_VALUES[g] as u32;
        *slot = (id % r) as u8;
        id /= r;
    }
    v
}

/// Number of possible tuple ids.
pub fn tuple_space() -> usize {
    GROUP_VALUES.iter().map(|&v| v as usize).product()
}

/// The pattern feature of a candidate: the index (in `patterns`) of the largest pattern
/// around `p` that `patterns` holds, 0 if none (pattern indices start at 1).
pub fn pattern_feature(a: &Analysis, p: Point, patterns: &HashMap<u64, u32>) -> u32 {
    let mut found = 0;
    a.pattern_keys(p, |_, k| match patterns.get(&k) {
        Some(&i) => {
            found = i;
            true
        }
        None => false,
    });
    found
}

/// Sampled positions and their candidates (structure of arrays).
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Start of each position's candidates; one more entry than positions.
    pub start: Vec<u32>,
    /// The played candidate of each position (an index into the candidates).
    pub winner: Vec<u32>,
    /// Each candidate's pattern feature (0: none known).
    pub pattern: Vec<u32>,
    /// Each candidate's tuple (a dense index into `tuples`).
    pub tuple: Vec<u32>,
    /// How many candidates of the position have these features.
    pub mult: Vec<u16>,
    /// The group values of each dense tuple.
    pub tuples: Vec<[u8; GROUPS]>,
}

impl Dataset {
    /// Number of positions.
    pub fn positions(&self) -> usize {
        self.winner.len()
    }
}

/// Whether move `n` of game `g` is sampled: `keep_per_mille` in 1000 by a hash.
fn sampled(g: usize, n: usize, keep_per_mille: u32) -> bool {
    let mut z = (g as u64) << 20 ^ n as u64 ^ 0x5851_f42d_4c95_7f2d;
    z = (z ^ (z >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    z ^= z >> 29;
    (z % 1000) < keep_per_mille as u64
}

/// Whether move `n` of game `g` is learnt as a board snapshot (history hidden):
/// `per_mille` in 1000 by a hash independent of `sampled`'s.
pub fn hidden(g: usize, n: usize, per_mille: u32) -> bool {
    sampled(g ^ 0x2545_f491, n ^ 0x4f6c_dd1d, per_mille)
}

/// The history as learnt: hidden for the positions [`hidden`] picks.
fn seen(g: usize, n: usize, history: History, hide_per_mille: u32) -> History {
    if hidden(g, n, hide_per_mille) {
        History::default()
    } else {
        history
    }
}

struct Local {
    start: Vec<u32>,
    winner: Vec<u32>,
    pattern: Vec<u32>,
    tuple: Vec<u32>,
    mult: Vec<u16>,
}

/// Builds the dataset from the moves before `max_moves` of `games`, keeping
/// `keep_per_mille` positions in 1000, `hide_per_mille` of them learnt as snapshots. Positions whose played move is not a legal
/// candidate (a pass, or a move the record allowed and the rules do not) are left out.
pub fn build<G: StoredGame + Sync>(
    games: &[G],
    patterns: &HashMap<u64, u32>,
    max_moves: usize,
    keep_per_mille: u32,
    hide_per_mille: u32,
) -> Dataset {
    let locals: Vec<Local> = games
        .par_iter()
        .enumerate()
        .map(|(gi, g)| {
            let mut l = Local {
                start: Vec::new(),
                winner: Vec::new(),
                pattern: Vec::new(),
                tuple: Vec::new(),
                mult: Vec::new(),
            };
            let mut cands: Vec<(u32, u32)> = Vec::with_capacity(361);
            each_position(g, |n, board, history, color, mv| {
                if n >= max_moves || !sampled(gi, n, keep_per_mille) {
                    return;
                }
                let Move::Play(played) = mv else { return };
                let a = Analysis::new(board, color, seen(gi, n, history, hide_per_mille));
                let size = board.size();
                cands.clear();
                let mut win = None;
                for y in 0..size.height() {
                    for x in 0..size.width() {
                        let p = Point::new(x, y);
                        let f = a.features(p);
                        if !f.legal {
                            continue;
                        }
                        let c = (pattern_feature(&a, p, patterns), tuple_id(&f.values));
                        if p == played {
                            win = Some(c);
                        }
                        cands.push(c);
                    }
                }
                let Some(win) = win else { return };
                cands.sort_unstable();
                l.start.push(l.pattern.len() as u32);
                let mut i = 0;
                while i < cands.len() {
                    let mut j = i + 1;
                    while j < cands.len() && cands[j] == cands[i] {
                        j += 1;
                    }
                    if cands[i] == win {
                        l.winner.push(l.pattern.len() as u32);
                    }
                    l.pattern.push(cands[i].0);
                    l.tuple.push(cands[i].1);
                    l.mult.push((j - i) as u16);
                    i = j;
                }
            });
            l
        })
        .collect();
    // Concatenate, rebasing the candidate indices.
    let mut ds = Dataset::default();
    for l in locals {
        let base = ds.pattern.len() as u32;
        ds.start.extend(l.start.iter().map(|s| s + base));
        ds.winner.extend(l.winner.iter().map(|w| w + base));
        ds.pattern.extend_from_slice(&l.pattern);
        ds.tuple.extend_from_slice(&l.tuple);
        ds.mult.extend_from_slice(&l.mult);
    }
    ds.start.push(ds.pattern.len() as u32);
    // Dense tuple indices.
    let mut dense = vec![u32::MAX; tuple_space()];
    for t in ds.tuple.iter_mut() {
        let slot = &mut dense[*t as usize];
        if *slot == u32::MAX {
            *slot = ds.tuples.len() as u32;
            ds.tuples.push(tuple_values(*t));
        }
        *t = *slot;
    }
    ds
}

/// The wins of every feature over all of `games`' positions before `max_moves` (not only
/// the sampled ones): how often each pattern feature and each group value was played.
#[derive(Clone, Debug, PartialEq)]
pub struct Wins {
    /// Positions counted (those whose played move is a legal candidate).
    pub positions: u64,
    /// Wins of each pattern feature.
    pub pattern: Vec<f64>,
    /// Wins of each group value.
    pub groups: Vec<Vec<f64>>,
}

/// Counts the [`Wins`] of every position of `games` before `max_moves`.
pub fn wins<G: StoredGame + Sync>(
    games: &[G],
    patterns: &HashMap<u64, u32>,
    n_patterns: usize,
    max_moves: usize,
    hide_per_mille: u32,
) -> Wins {
    let empty = || Wins {
        positions: 0,
        pattern: vec![0.0; n_patterns],
        groups: GROUP_VALUES
            .iter()
            .map(|&n| vec![0.0; n as usize])
            .collect(),
    };
    games
        .par_iter()
        .enumerate()
        .fold(empty, |mut w, (gi, g)| {
            each_position(g, |n, board, history, color, mv| {
                let Move::Play(p) = mv else { return };
                if n >= max_moves {
                    return;
                }
                let a = Analysis::new(board, color, seen(gi, n, history, hide_per_mille));
                let f = a.features(p);
                if !f.legal {
                    return;
                }
                w.positions += 1;
                w.pattern[pattern_feature(&a, p, patterns) as usize] += 1.0;
                for (gw, &v) in w.groups.iter_mut().zip(&f.values) {
                    gw[v as usize] += 1.0;
                }
            });
            w
        })
        .reduce(empty, |mut a, b| {
            a.positions += b.positions;
            for (x, y) in a.pattern.iter_mut().zip(&b.pattern) {
                *x += y;
            }
            for (ga, gb) in a.groups.iter_mut().zip(&b.groups) {
                for (x, y) in ga.iter_mut().zip(gb) {
                    *x += y;
                }
            }
            a
        })
}
