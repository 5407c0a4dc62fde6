//! The popularity of a position's top next moves through the years: the years the
//! position's games span, cut into at most [`MAX_BINS`] ranges, and the next moves counted
//! again with each range as a year filter.

use std::collections::BTreeSet;
use std::sync::Arc;

use kifudex_core::board::Board;
use kifudex_core::columns::GameColumns;
use kifudex_core::index::Index;
use kifudex_core::search::{NextMove, NextMoves};

use super::answer::{TopMove, YearBin, YearsAnswer};
use super::{next_moves, ExploreError};
use crate::games::{GameFilter, Hot, Selection, Tallies};

/// The year ranges of the popularity chart: one per year when the years span at most
/// this many, else wider ranges (2, 5, 10, ... years) so there are at most this many.
pub const MAX_BINS: u32 = 40;

/// A game's year (as [`kifudex_core::index::Game::year`] reads its date), if known.
fn year_of(columns: &GameColumns<'_>, id: u32) -> Option<u16> {
    match columns.date(id) / 10_000 {
        0 => None,
        y => Some(y as u16),
    }
}

/// The top `top` next moves of `board` (counting the games `filter` keeps, with the
/// colour-exchanged position's with `swap`), and their counts in each range of years:
/// the position's occurrences tallied once by year, then the years cut into ranges.
pub fn years(
    index: &Index<'_>,
    columns: &GameColumns<'_>,
    board: &Board,
    swap: bool,
    filter: &GameFilter,
    top: usize,
    hot: Option<&Arc<Hot>>,
) -> Result<YearsAnswer, ExploreError> {
    // Every known year of the filter's games is a bin of its own, the games of no known
    // year bin 0 (no year is 0).
    let selection = Selection::of(filter, columns, hot);
    let by_year =
        Tallies::count_profile(index, board, swap, &selection, "years", 1 << 16, |id, _| {
            Some(year_of(columns, id).map_or(0, |y| y as usize))
        });
    let years: BTreeSet<u16> = (1..=u16::MAX)
        .filter(|&y| by_year.has(y as usize))
        .collect();
    let all: Vec<usize> = std::iter::once(0)
        .chain(years.iter().map(|&y| y as usize))
        .collect();
    let (next, top) = next_and_top(
        index, columns, board, swap, filter, hot, &by_year, &all, top,
    )?;
    let mut bins = Vec::new();
    let mut dated = 0u64;
    if let (Some(&lo), Some(&hi)) = (years.first(), years.last()) {
        let span = (hi - lo) as u32 + 1;
        let width = [1u32, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10_000]
            .into_iter()
            .find(|w| span.div_ceil(*w) <= MAX_BINS)
            .unwrap_or(10_000);
        let start = lo as u32 - lo as u32 % width;
        let mut from = start;
        while from <= hi as u32 {
            let to = from + width - 1;
            let in_bin: Vec<usize> = years
                .range(from as u16..=to.min(u16::MAX as u32) as u16)
                .map(|&y| y as usize)
                .collect();
            let (total, counts) = if in_bin.is_empty() {
                (0, vec![0; top.len()])
            } else {
                let n = by_year
                    .next_moves(index, board, swap, &in_bin)
                    .map_err(ExploreError::Search)?;
                (n.total(), counts_of(&n, &top))
            };
            dated += total;
            bins.push(YearBin {
                from,
                to,
                total,
                counts,
            });
            from += width;
        }
    }
    Ok(YearsAnswer {
        total: next.total(),
        top: top_moves(&top),
        bins,
        unknown_year: next.total().saturating_sub(dated),
    })
}

/// A profile's next moves and its `top` first ones: the filter's next moves, from the
/// index's statistics when it keeps every game, else the sum of the profile's bins `all`
/// (every kept game is in one of them), without walking the occurrences again.
#[allow(clippy::too_many_arguments)]
pub(super) fn next_and_top(
    index: &Index<'_>,
    columns: &GameColumns<'_>,
    board: &Board,
    swap: bool,
    filter: &GameFilter,
    hot: Option<&Arc<Hot>>,
    tallies: &Tallies,
    all: &[usize],
    top: usize,
) -> Result<(NextMoves, Vec<NextMove>), ExploreError> {
    let next = if filter.keeps_all() {
        next_moves(index, columns, board, swap, filter, hot)?
    } else {
        tallies
            .next_moves(index, board, swap, all)
            .map_err(ExploreError::Search)?
    };
    let top = next.classes().iter().take(top).copied().collect();
    Ok((next, top))
}

/// The moves a profile follows, as its answer lists them.
pub(super) fn top_moves(top: &[NextMove]) -> Vec<TopMove> {
    top.iter()
        .map(|c| TopMove {
            mv: c.mv,
            color: c.color,
            count: c.count,
        })
        .collect()
}

/// How often each of the profile's moves was played in `n` (0 where it was not).
pub(super) fn counts_of(n: &NextMoves, top: &[NextMove]) -> Vec<u32> {
    top.iter()
        .map(|t| {
            n.classes()
                .iter()
                .find(|c| c.color == t.color && c.mv == t.mv)
                .map_or(0, |c| c.count)
        })
        .collect()
}
