//! The popularity of a position's top next moves by the players' strength: each game falls
//! in the range of ranks ([`RANGES`]) that holds both its players' ranks, else in `mixed`
//! (the players in different ranges) or `unknown` (a rank that cannot be read), and the
//! next moves are counted again over each range's games.

use kifudex_core::board::Board;
use kifudex_core::columns::GameColumns;
use kifudex_core::index::{Game, Index};

use super::answer::{RankBin, RanksAnswer};
use super::years::{counts_of, top_moves};
use super::{next_moves, ExploreError};
use crate::games::{GameFilter, Selection, Tallies};
use crate::rank::{GameRanks, Grade, Rank};

/// A rank as a grade and its number.
type GradeNumber = (Grade, u8);

/// The ranges of ranks of the profile, weakest first: their names and bounds (inclusive).
pub const RANGES: [(&str, GradeNumber, GradeNumber); 6] = [
    ("30k-10k", (Grade::Kyu, 30), (Grade::Kyu, 10)),
    ("9k-1k", (Grade::Kyu, 9), (Grade::Kyu, 1)),
    ("1d-3d", (Grade::Dan, 1), (Grade::Dan, 3)),
    ("4d-6d", (Grade::Dan, 4), (Grade::Dan, 6)),
    ("7d-9d", (Grade::Dan, 7), (Grade::Dan, 9)),
    ("1p-9p", (Grade::Pro, 1), (Grade::Pro, 9)),
];

/// The bin of `mixed` games, after the ranges.
const MIXED: usize = RANGES.len();
/// The bin of games with an unknown rank.
const UNKNOWN: usize = RANGES.len() + 1;

/// A range's bounds as ranks.
fn bounds(i: usize) -> (Rank, Rank) {
    let (_, lo, hi) = RANGES[i];
    let rank = |(g, n): (Grade, u8)| Rank::new(g, n).unwrap_or(Rank::MIN);
    (rank(lo), rank(hi))
}

/// The range of a rank.
fn range_of(r: Rank) -> usize {
    (0..RANGES.len())
        .find(|&i| {
            let (lo, hi) = bounds(i);
            lo <= r && r <= hi
        })
        .unwrap_or(MIXED)
}

/// The bin of a game: the range of both its players' ranks, [`MIXED`] or [`UNKNOWN`].
pub fn bin_of(g: &Game<'_>) -> usize {
    bin_of_ranks(GameRanks::of(g))
}

/// The bin of a game whose players have these ranks.
fn bin_of_ranks(ranks: GameRanks) -> usize {
    match ranks {
        GameRanks {
            black: Some(b),
            white: Some(w),
        } => {
            let (rb, rw) = (range_of(b), range_of(w));
            if rb == rw {
                rb
            } else {
                MIXED
            }
        }
        _ => UNKNOWN,
    }
}

/// The top `top` next moves of `board` (counting the games `filter` keeps, with the
/// colour-exchanged position's with `swap`), and their counts in each bin of ranks.
pub fn ranks(
    index: &Index<'_>,
    columns: &GameColumns<'_>,
    board: &Board,
    swap: bool,
    filter: &GameFilter,
    top: usize,
) -> Result<RanksAnswer, ExploreError> {
    let next = next_moves(index, columns, board, swap, filter)?;
    let top: Vec<_> = next.classes().iter().take(top).copied().collect();
    // The position's occurrences tallied once, by bin.
    let selection = Selection::new(filter, columns);
    let tallies = Tallies::count(index, board, swap, &selection, UNKNOWN + 1, |id| {
        let f = columns.facts(id);
        Some(bin_of_ranks(GameRanks {
            black: Rank::from_index(f.black_rank),
            white: Rank::from_index(f.white_rank),
        }))
    });
    let mut bins = Vec::new();
    for bin in 0..=UNKNOWN {
        let n = tallies
            .next_moves(index, board, swap, &[bin])
            .map_err(ExploreError::Search)?;
        let counts = counts_of(&n, &top);
        let (name, min, max) = match bin {
            MIXED => ("mixed", None, None),
            UNKNOWN => ("unknown", None, None),
            i => {
                let (lo, hi) = bounds(i);
                (RANGES[i].0, Some(lo.to_string()), Some(hi.to_string()))
            }
        };
        bins.push(RankBin {
            ranks: name,
            min,
            max,
            total: n.total(),
            counts,
        });
    }
    Ok(RanksAnswer {
        total: next.total(),
        top: top_moves(&top),
        bins,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ranges cover the scale once each, weakest first.
    #[test]
    fn the_ranges_cover_the_scale() {
        let mut expected = 0;
        for i in 0..=47u8 {
            let r = Rank::from_index(i).unwrap();
            let b = range_of(r);
            assert!(b < RANGES.len(), "{r}");
            assert!(b == expected || b == expected + 1, "{r}");
            expected = b;
        }
        assert_eq!(expected, RANGES.len() - 1);
    }
}
