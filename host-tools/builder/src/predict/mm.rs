//! Minorization-maximization for the generalized Bradley-Terry model (Hunter 2004, as
//! Coulom 2007 applies it to Go moves).
//!
//! Each position is a competition among its legal candidates; a candidate is a team of
//! features whose strength is the product of their `gamma`s; the played candidate won.
//! The features fall into groups such that a candidate has exactly one feature of each
//! group (its pattern, and one value of each [`kifudex_core::predict::Group`]). Updating
//! one group at a time, with every other `gamma` fixed,
//!
//! ```text
//! gamma_i <- (W_i + 1) / (sum_j C_ij / E_j + 2 / (1 + gamma_i))
//! ```
//!
//! never lowers the likelihood: `W_i` counts the wins of feature `i`, `E_j` is the total
//! strength of position `j`'s candidates, `C_ij` the strength of its candidates with
//! feature `i` divided by `gamma_i`, and the `+ 1` and `2 / (1 + gamma_i)` are Coulom's prior,
//! a virtual win and a virtual loss against a virtual feature of strength 1. Value 0 of
//! each group (and the unknown pattern) stays at 1, which fixes each group's scale.

use rayon::prelude::*;

use kifudex_core::predict::features::{GROUPS, GROUP_VALUES};

use super::dataset::{Dataset, Wins};

/// The learnt strengths.
#[derive(Clone, Debug, PartialEq)]
pub struct Gammas {
    /// By pattern feature (index 0: no known pattern).
    pub pattern: Vec<f64>,
    /// By group, then value.
    pub groups: Vec<Vec<f64>>,
}

impl Gammas {
    /// Every strength 1.
    pub fn ones(patterns: usize) -> Gammas {
        Gammas {
            pattern: vec![1.0; patterns],
            groups: GROUP_VALUES
                .iter()
                .map(|&n| vec![1.0; n as usize])
                .collect(),
        }
    }
}

/// The strength of each dense tuple of `ds`.
fn tuple_strengths(ds: &Dataset, g: &Gammas) -> Vec<f64> {
    ds.tuples
        .par_iter()
        .map(|t| {
            t.iter()
                .enumerate()
                .map(|(gi, &v)| g.groups[gi][v as usize])
                .product()
        })
        .collect()
}

/// Positions per parallel chunk.
const CHUNK: usize = 4096;

fn add_into(mut a: Vec<f64>, b: Vec<f64>) -> Vec<f64> {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
    a
}

/// One pass: for every position its total strength `E`, then for every candidate `c`
/// `acc[index(c)] += m_c * weight(c) / E`. Returns the accumulator and the
/// log-likelihood of the played moves.
fn pass(
    ds: &Dataset,
    strength: impl Fn(usize) -> f64 + Sync,
    index: impl Fn(usize) -> usize + Sync,
    weight: impl Fn(usize) -> f64 + Sync,
    n: usize,
) -> (Vec<f64>, f64) {
    let positions = ds.positions();
    let chunks: Vec<usize> = (0..positions).step_by(CHUNK).collect();
    chunks
        .par_iter()
        .map(|&c0| {
            let mut acc = vec![0.0; n];
            let mut ll = 0.0;
            for j in c0..(c0 + CHUNK).min(positions) {
                let (s, e) = (ds.start[j] as usize, ds.start[j + 1] as usize);
                let mut total = 0.0;
                for c in s..e {
                    total += ds.mult[c] as f64 * strength(c);
                }
                ll += (strength(ds.winner[j] as usize) / total).ln();
                for c in s..e {
                    acc[index(c)] += ds.mult[c] as f64 * weight(c) / total;
                }
            }
            (acc, ll)
        })
        .reduce(
            || (vec![0.0; n], 0.0),
            |a, b| (add_into(a.0, b.0), a.1 + b.1),
        )
}

/// Coulom's update of one feature, with `prior` virtual wins and as many virtual losses
/// against a virtual opponent of strength `theta`.
fn update(gamma: f64, wins: f64, denominator: f64, prior: f64, theta: f64) -> f64 {
    (wins + prior) / (denominator + 2.0 * prior / (theta + gamma))
}

/// The prior of the pattern strengths.
#[derive(Clone, Debug, PartialEq)]
pub struct Prior {
    /// Virtual wins (and as many losses) of every feature.
    pub strength: f64,
    /// For each pattern feature, the feature whose strength its prior is centred on (its
    /// pattern one size smaller; 0, the unknown pattern of strength 1, for the smallest);
    /// empty: every prior centred on 1, as Coulom's.
    pub parent: Vec<u32>,
}

/// Runs `iterations` rounds of MM (each: the pattern group, then every other group),
/// starting from `start`. The wins are counted over all training positions (`wins`), the
/// denominators over the sampled ones (`ds`), scaled up by their ratio: an unbiased
/// estimate that lets every played move count while the candidates of only a sample are
/// held in memory. Calls `progress(iteration, log_likelihood_per_position)`.
pub fn train(
    ds: &Dataset,
    wins: &Wins,
    start: Gammas,
    prior: &Prior,
    iterations: usize,
    mut progress: impl FnMut(usize, f64),
) -> Gammas {
    let mut g = start;
    let np = g.pattern.len();
    // The wins come from all positions, the denominators from the sample: scale these up.
    let scale = wins.positions as f64 / ds.positions().max(1) as f64;
    let positions = ds.positions().max(1) as f64;
    for it in 0..iterations {
        // The pattern group.
        let ts = tuple_strengths(ds, &g);
        let (den, ll) = pass(
            ds,
            |c| g.pattern[ds.pattern[c] as usize] * ts[ds.tuple[c] as usize],
            |c| ds.pattern[c] as usize,
            |c| ts[ds.tuple[c] as usize],
            np,
        );
        progress(it, ll / positions);
        let old = g.pattern.clone();
        for i in 1..np {
            let theta = prior.parent.get(i).map_or(1.0, |&p| old[p as usize]);
            g.pattern[i] = update(
                old[i],
                wins.pattern[i],
                scale * den[i],
                prior.strength,
                theta,
            );
        }
        // The other groups, one at a time.
        for gi in 0..GROUPS {
            let ts = tuple_strengths(ds, &g);
            let (s, _) = pass(
                ds,
                |c| g.pattern[ds.pattern[c] as usize] * ts[ds.tuple[c] as usize],
                |c| ds.tuple[c] as usize,
                |c| g.pattern[ds.pattern[c] as usize],
                ds.tuples.len(),
            );
            let mut den = vec![0.0; GROUP_VALUES[gi] as usize];
            for ((st, tv), vals) in s.iter().zip(&ts).zip(&ds.tuples) {
                let v = vals[gi] as usize;
                den[v] += st * tv / g.groups[gi][v];
            }
            for (v, d) in den.iter().enumerate().skip(1) {
                let w = wins.groups[gi][v];
                g.groups[gi][v] = update(g.groups[gi][v], w, scale * d, 1.0, 1.0);
            }
        }
    }
    g
}
