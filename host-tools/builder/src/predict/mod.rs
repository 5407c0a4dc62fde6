//! Learning the move predictor from game records, and measuring it.
//!
//! [`train`]: harvest the patterns played often enough ([`harvest`]), sample training
//! positions into candidate feature records ([`dataset`]), learn the feature strengths by
//! minorization-maximization ([`mm`]). [`eval::evaluate`] ranks the played moves of
//! held-out games ([`games::is_test`] splits them off by a hash of their opening, so two
//! records of one game are never on both sides). [`suggest::predictions`] ranks the moves of
//! one position for the shell and the web board.

pub mod dataset;
pub mod eval;
pub mod games;
pub mod harvest;
pub mod mm;
pub mod suggest;
pub mod table;

use rustc_hash::FxHashMap as HashMap;
use std::time::Instant;

use harvest::Pattern;
use kifudex_core::stored::StoredGame;
use mm::Gammas;

/// How a model is learnt.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// Learn from the moves before this move number of each game.
    pub max_moves: usize,
    /// Keep the patterns played at least this often.
    pub min_count: u32,
    /// Keep at most this many patterns (the most played; 0: no cap).
    pub max_patterns: usize,
    /// Sample this many positions in 1000 for MM.
    pub keep_per_mille: u32,
    /// Rounds of MM.
    pub iterations: usize,
    /// Virtual wins and losses of each pattern, against its pattern one size smaller.
    pub prior: f64,
    /// Learn this many positions in 1000 as board snapshots, their last moves unknown.
    pub hide_per_mille: u32,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            max_moves: 400,
            min_count: 3,
            max_patterns: 150_000,
            keep_per_mille: 150,
            iterations: 12,
            prior: 1.0,
            hide_per_mille: 500,
        }
    }
}

/// A learnt model: the harvested patterns (pattern feature `i + 1` is `patterns[i]`) and
/// the strengths.
#[derive(Clone, Debug)]
pub struct Model {
    /// Games it was learnt from.
    pub games: usize,
    /// The patterns, most played first.
    pub patterns: Vec<Pattern>,
    /// The strengths.
    pub gammas: Gammas,
}

/// Keeps the first `max` patterns of a list sorted by count, cut at a count boundary so
/// that the kept set holds, with each pattern, all its smaller ones.
pub fn cap_patterns(mut patterns: Vec<Pattern>, max: usize) -> Vec<Pattern> {
    if max == 0 || patterns.len() <= max {
        return patterns;
    }
    let cut = patterns[max].count;
    patterns.retain(|p| p.count > cut);
    patterns
}

/// Learns a model from `games`, reporting each phase to `log`.
pub fn train<G: StoredGame + Sync>(
    games: &[G],
    opts: &TrainOptions,
    mut log: impl FnMut(&str),
) -> Model {
    let t = Instant::now();
    let patterns = harvest::harvest(games, opts.max_moves, opts.min_count);
    let patterns = cap_patterns(patterns, opts.max_patterns);
    log(&format!(
        "harvested {} patterns (played at least {} times) in {:.1} s",
        patterns.len(),
        patterns.last().map_or(opts.min_count, |p| p.count),
        t.elapsed().as_secs_f64()
    ));
    let index: HashMap<u64, u32> = patterns
        .iter()
        .enumerate()
        .map(|(i, p)| (p.key, i as u32 + 1))
        .collect();
    let t = Instant::now();
    let ds = dataset::build(
        games,
        &index,
        opts.max_moves,
        opts.keep_per_mille,
        opts.hide_per_mille,
    );
    log(&format!(
        "sampled {} positions, {} candidate records, {} tuples in {:.1} s",
        ds.positions(),
        ds.pattern.len(),
        ds.tuples.len(),
        t.elapsed().as_secs_f64()
    ));
    let mut parent = vec![0u32];
    parent.extend(
        patterns
            .iter()
            .map(|p| index.get(&p.parent).copied().unwrap_or(0)),
    );
    let prior = mm::Prior {
        strength: opts.prior,
        parent,
    };
    let t = Instant::now();
    let wins = dataset::wins(
        games,
        &index,
        patterns.len() + 1,
        opts.max_moves,
        opts.hide_per_mille,
    );
    log(&format!(
        "counted the wins of {} positions in {:.1} s",
        wins.positions,
        t.elapsed().as_secs_f64()
    ));
    let t = Instant::now();
    let gammas = mm::train(
        &ds,
        &wins,
        Gammas::ones(patterns.len() + 1),
        &prior,
        opts.iterations,
        |it, ll| {
            log(&format!(
                "MM round {}: log-likelihood per position {ll:.4} ({:.1} s)",
                it + 1,
                t.elapsed().as_secs_f64()
            ))
        },
    );
    Model {
        games: games.len(),
        patterns,
        gammas,
    }
}

/// The table of `model` alone, as a book would hold it: its header and the bytes its
/// sections lie in (for measuring it without a book).
pub fn table(
    model: &Model,
    opts: &kifudex_core::predict::table::TableOptions,
) -> (
    kifudex_core::predict::PredictorHeader,
    Vec<u8>,
    kifudex_core::predict::table::TableStats,
) {
    let mut body = kifudex_core::format::Body::new();
    let (header, stats) = table::add_to(model, opts, &mut body);
    (header, body.to_vec(), stats)
}

/// What `kifudex predict --eval` measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Training games.
    pub train_games: usize,
    /// Test games.
    pub test_games: usize,
    /// The table as the book holds it.
    pub table: kifudex_core::predict::table::TableStats,
    /// With the last two moves known (a `moves` request).
    pub moves: eval::Report,
    /// As board snapshots (a `board` request: the last moves unknown).
    pub snapshots: eval::Report,
}

/// Learns a model from the training games of `games` (all but one in `test_every`, by
/// [`games::is_test`]) and measures its table, as a book would hold it, on the test games.
pub fn evaluate<G: StoredGame + Sync + Copy>(
    games: &[G],
    test_every: u64,
    opts: &TrainOptions,
    mut log: impl FnMut(&str),
) -> anyhow::Result<Evaluation> {
    let (test, learn): (Vec<G>, Vec<G>) =
        games.iter().partition(|g| games::is_test(*g, test_every));
    log(&format!(
        "{} training games, {} test games (one in {test_every}, by a hash of each game's setup and first {} moves)",
        learn.len(),
        test.len(),
        games::SPLIT_PREFIX
    ));
    let model = train(&learn, opts, &mut log);
    let (header, bytes, stats) = table(&model, &Default::default());
    let weights = kifudex_core::predict::Predictor::open(&header, &bytes)
        .map_err(|e| anyhow::anyhow!("the table does not read back: {e}"))?;
    Ok(Evaluation {
        train_games: learn.len(),
        test_games: test.len(),
        table: stats,
        moves: eval::evaluate(&test, &weights, eval::Mode::Moves),
        snapshots: eval::evaluate(&test, &weights, eval::Mode::Snapshot),
    })
}
