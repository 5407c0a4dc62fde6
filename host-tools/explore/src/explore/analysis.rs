//! Analyses over every game of the index: local shape statistics (`crate::shapes`) and the
//! move predictor learnt from some games and measured on the others (`crate::predict`),
//! as answers.

use kifudex_core::index::Index;
use kifudex_core::{Move, Stone};

use super::answer::{
    ColoredMove, EvaluationAnswer, GuessRate, OpeningRow, Openings, SetupEntry, ShapeRow,
    ShapeTable, ShapesAnswer, TableSize,
};
use crate::predict::eval::{Report, Tally, BUCKETS};
use crate::predict::TrainOptions;
use crate::shapes::{self, shape, ShapeOptions};

/// The shape statistics of the index's games.
pub fn shapes(index: &Index<'_>, opts: &ShapeOptions) -> ShapesAnswer {
    let games = crate::predict::games::from_index(index);
    let st = shapes::collect(&games, opts);
    let size = |s: kifudex_core::Size| format!("{}x{}", s.width(), s.height());
    ShapesAnswer {
        games: st.games,
        moves: st.moves,
        patterns: st
            .shapes
            .iter()
            .map(|s| ShapeTable {
                shape: s.shape.name(),
                distinct: s.distinct,
                top: s
                    .top
                    .iter()
                    .map(|p| ShapeRow {
                        rows: shape::rows(p.code, s.shape),
                        size: size(p.size),
                        played: p.played,
                        available: p.available,
                        stones: shape::stones(p.code),
                    })
                    .collect(),
            })
            .collect(),
        openings: Openings {
            moves: st.opening_moves,
            games: st.opening_games,
            distinct: st.distinct_openings,
            top: st
                .openings
                .iter()
                .map(|o| {
                    let stones = |stone: Stone| {
                        o.setup
                            .iter()
                            .filter(|s| s.1 == stone)
                            .map(|s| s.0)
                            .collect()
                    };
                    OpeningRow {
                        size: size(o.size),
                        setup: SetupEntry {
                            black: stones(Stone::Black),
                            white: stones(Stone::White),
                            empty: Vec::new(),
                        },
                        moves: o
                            .moves
                            .iter()
                            .map(|&(color, mv): &(kifudex_core::Color, Move)| ColoredMove {
                                color,
                                mv,
                            })
                            .collect(),
                        sgf: shapes::opening_sgf(o),
                        name: o.name,
                        count: o.count,
                    }
                })
                .collect(),
        },
    }
}

/// How well the predictor guessed, by move range, then over moves 0 to 150.
pub fn rates(r: &Report) -> Vec<GuessRate> {
    let rate = |t: &Tally, moves: String| GuessRate {
        positions: t.positions,
        top1: t.top1,
        top5: t.top5,
        covered: t.covered,
        moves,
    };
    BUCKETS
        .iter()
        .zip(&r.buckets)
        .map(|(&(lo, hi), t)| rate(t, format!("{lo}-{hi}")))
        .chain([rate(&r.overall, "0-150".to_string())])
        .collect()
}

/// Learns the predictor from all games of the index but one in `test_every` and measures
/// it on the others (`log` hears the progress).
pub fn evaluate(
    index: &Index<'_>,
    test_every: u64,
    opts: &TrainOptions,
    log: impl FnMut(&str),
) -> anyhow::Result<EvaluationAnswer> {
    let games = crate::predict::games::from_index(index);
    let e = crate::predict::evaluate(&games, test_every, opts, log)?;
    Ok(EvaluationAnswer {
        train_games: e.train_games,
        test_games: e.test_games,
        table: TableSize {
            patterns: e.table.patterns,
            bytes: e.table.bytes,
        },
        moves: rates(&e.moves),
        snapshots: rates(&e.snapshots),
    })
}

/// The answer of a measurement of tracked streams ([`crate::tracking::eval::evaluate_streams`]).
pub fn streams(e: &crate::tracking::eval::StreamEvaluation) -> super::answer::StreamsAnswer {
    super::answer::StreamsAnswer {
        counts: e.counts.clone(),
        tracked: rates(&e.tracked),
        snapshots_alone: rates(&e.snapshots_alone),
    }
}
