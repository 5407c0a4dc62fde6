//! The pattern-search acceleration data of an index (`kifudex_core::pattern::stored`)
//! computed a second way, from the index's stored games: one replay per game
//! (`summarize`, on a board without hashes), blocks of games in parallel, written by the
//! core's `PatternWriter`. A search reads the sections the build stored in the index
//! (`IndexFile::pattern`), noted during the build's own replay; this computation is the tests'
//! independent check of them (about 0.1 s per 10,000 games on one core).

use anyhow::{anyhow, Result};
use kifudex_core::format::Body;
use kifudex_core::index::Index;
use kifudex_core::pattern::stored::block_games::{block_count, games_of};
use kifudex_core::pattern::stored::summary::{summarize, GameSummary};
use kifudex_core::pattern::stored::writer::PatternWriter;
use kifudex_core::pattern::PatternHeader;
use kifudex_core::pattern::PatternIndex;
use kifudex_core::Point;
use rayon::prelude::*;

/// A game's summary and the stones its moves removed, as (move number, point).
type Replayed = (GameSummary, Vec<(u32, Point)>);

/// Blocks of 64 games replayed at once by [`PatternData::compute`] (4,096 games).
const BATCH_BLOCKS: usize = 64;

/// The acceleration data: its header and its body (the sections' bytes).
#[derive(Clone, Debug)]
pub struct PatternData {
    /// Where the sections lie in `body`.
    pub header: PatternHeader,
    /// The sections.
    pub body: Vec<u8>,
}

impl PatternData {
    /// Computes the data of every game of `index`.
    pub fn compute(index: &Index<'_>) -> PatternData {
        let games = index.game_count();
        let n_blocks = block_count(games);
        let mut writer = PatternWriter::new();
        // Blocks of games replayed in parallel, a bounded batch at a time (memory holds
        // one batch's summaries beside the growing writer), then written in order.
        for start in (0..n_blocks).step_by(BATCH_BLOCKS) {
            let end = (start + BATCH_BLOCKS).min(n_blocks);
            let blocks: Vec<Vec<Replayed>> = (start..end)
                .into_par_iter()
                .map(|b| {
                    games_of(b, games)
                        .map(|id| {
                            let mut removed = Vec::new();
                            let s = match (index.stored_game(id), index.game(id)) {
                                (Some(g), Some(info)) => {
                                    summarize(&g, info.winner, |n, p| removed.push((n, p)))
                                }
                                _ => GameSummary::default(),
                            };
                            (s, removed)
                        })
                        .collect()
                })
                .collect();
            for (s, removed) in blocks.iter().flatten() {
                writer.push(s, removed.iter().copied());
            }
        }
        let mut body = Body::new();
        let header = writer.finish(&mut body);
        PatternData {
            header,
            body: body.to_vec(),
        }
    }

    /// The data, validated against `index`.
    pub fn open<'a>(&'a self, index: &Index<'_>) -> Result<PatternIndex<'a>> {
        PatternIndex::open(&self.header, &self.body, index)
            .map_err(|e| anyhow!("pattern data does not fit the index: {e}"))
    }

    /// Bytes of the data (what the index would grow by).
    pub fn len(&self) -> usize {
        self.body.len()
    }

    /// Whether there is no data (never: the sections have padding).
    pub fn is_empty(&self) -> bool {
        self.body.is_empty()
    }
}
