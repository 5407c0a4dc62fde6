//! Measuring a predictor on held-out games: for every position of the test games, where
//! the move actually played ranks among the legal candidates, by move bucket.

use rayon::prelude::*;

use kifudex_core::predict::{score, Analysis, History, Weights};
use kifudex_core::{Move, Point, Transform, TransformSet};

use kifudex_core::stored::StoredGame;

use super::games::each_position;

/// The move buckets reported: move numbers (0-based) `lo..=hi`.
pub const BUCKETS: [(usize, usize); 4] = [(0, 20), (21, 50), (51, 100), (101, 150)];

/// The counts of one bucket.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Positions (moves) tested, passes included.
    pub positions: u64,
    /// Positions where the predictor named at least one move.
    pub covered: u64,
    /// The played move was the first guess.
    pub top1: u64,
    /// The played move was among the first five.
    pub top5: u64,
}

impl Tally {
    /// Adds another tally's counts.
    pub fn add(&mut self, o: &Tally) {
        self.positions += o.positions;
        self.covered += o.covered;
        self.top1 += o.top1;
        self.top5 += o.top5;
    }
}

/// The result of an evaluation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Test games.
    pub games: usize,
    /// One tally per [`BUCKETS`] entry.
    pub buckets: [Tally; 4],
    /// Moves 0 to 150.
    pub overall: Tally,
}

/// Whether the player to move's history is used (moves) or hidden (board snapshots).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The last two moves are known (a `moves` request).
    Moves,
    /// Nothing is known of the last moves (a `board` snapshot).
    Snapshot,
}

/// The rank (0-based) of the class of `played` among the classes of legal moves, by the
/// best score within each class (equivalent points under the position's symmetry `sym`
/// form a class); `None` if `played` is not a legal candidate.
pub fn rank_of<W: Weights + ?Sized>(
    a: &Analysis,
    w: &W,
    sym: TransformSet,
    played: Point,
) -> Option<usize> {
    let size = a.size();
    let mut scores: Vec<(Point, i32)> = Vec::with_capacity(361);
    for y in 0..size.height() {
        for x in 0..size.width() {
            let p = Point::new(x, y);
            if let Some(s) = score(a, w, p) {
                scores.push((p, s));
            }
        }
    }
    let class_of = |p: Point| -> u16 {
        sym.iter()
            .filter_map(|t: Transform| t.apply(p, size))
            .map(|q| q.index19())
            .min()
            .unwrap_or(p.index19())
    };
    let trivial = sym == TransformSet::IDENTITY;
    // The best (score, -index) of each class, keyed by the class.
    let mut best: Vec<(u16, i32, u16)> = Vec::with_capacity(scores.len());
    for &(p, s) in &scores {
        let c = if trivial { p.index19() } else { class_of(p) };
        best.push((c, s, p.index19()));
    }
    if !trivial {
        best.sort_by_key(|&(c, s, i)| (c, std::cmp::Reverse(s), i));
        best.dedup_by_key(|e| e.0);
    }
    let pc = if trivial {
        played.index19()
    } else {
        class_of(played)
    };
    let &(_, ps, pi) = best.iter().find(|e| e.0 == pc)?;
    Some(
        best.iter()
            .filter(|&&(c, s, i)| c != pc && (s > ps || (s == ps && i < pi)))
            .count(),
    )
}

/// Evaluates `w` on every position before move 151 of `games`.
pub fn evaluate<G: StoredGame + Sync, W: Weights + Sync + ?Sized>(
    games: &[G],
    w: &W,
    mode: Mode,
) -> Report {
    let last = BUCKETS[BUCKETS.len() - 1].1;
    let per_game: Vec<[Tally; 4]> = games
        .par_iter()
        .map(|g| {
            let mut t = [Tally::default(); 4];
            each_position(g, |n, board, history, color, mv| {
                if n > last {
                    return;
                }
                let Some(b) = BUCKETS.iter().position(|&(lo, hi)| n >= lo && n <= hi) else {
                    return;
                };
                let history = match mode {
                    Mode::Moves => history,
                    Mode::Snapshot => History::default(),
                };
                let a = Analysis::new(board, color, history);
                let tally = &mut t[b];
                tally.positions += 1;
                let any_legal = (0..board.size().height())
                    .any(|y| (0..board.size().width()).any(|x| a.features(Point::new(x, y)).legal));
                if any_legal {
                    tally.covered += 1;
                }
                let Move::Play(p) = mv else { return };
                if let Some(r) = rank_of(&a, w, board.symmetries(), p) {
                    tally.top1 += (r == 0) as u64;
                    tally.top5 += (r < 5) as u64;
                }
            });
            t
        })
        .collect();
    let mut report = Report {
        games: games.len(),
        ..Report::default()
    };
    for t in &per_game {
        for (b, x) in report.buckets.iter_mut().zip(t) {
            b.add(x);
        }
    }
    for b in report.buckets {
        report.overall.add(&b);
    }
    report
}
