//! The popularity of a position's top next moves by the players' strength: each game falls
//! in the range of ranks ([`RANGES`]) that holds both its players' ranks, else in `mixed`
//! (the players in different ranges) or `unknown` (a rank that cannot be read), and the
//! next moves are counted again over each range's games.

use std::sync::Arc;

use kifudex_core::board::Board;
use kifudex_core::columns::GameColumns;
use kifudex_core::index::{Game, Index};

use super::answer::{RankBin, RanksAnswer};
use super::years::{counts_of, next_and_top, top_moves};
use super::ExploreError;
use crate::games::{GameFilter, Hot, Selection, Tallies};
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

/// The bin of a game: the range of both its players' ranks, `MIXED` or `UNKNOWN`.
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

/// The range of each rank code of the game columns ([`Rank::from_index`]; `None`: a rank
/// that cannot be read), so that a game's bin is two lookups.
fn ranges_by_code() -> [Option<u8>; 64] {
    std::array::from_fn(|code| Rank::from_index(code as u8).map(|r| range_of(r) as u8))
}

/// [`bin_of_ranks`] of the ranks whose codes are `black` and `white`, from their ranges
/// ([`ranges_by_code`]).
#[inline]
fn bin_of_codes(ranges: &[Option<u8>; 64], black: u8, white: u8) -> usize {
    match (ranges[black as usize & 63], ranges[white as usize & 63]) {
        (Some(b), Some(w)) if b == w => b as usize,
        (Some(_), Some(_)) => MIXED,
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
    hot: Option<&Arc<Hot>>,
) -> Result<RanksAnswer, ExploreError> {
    // The position's occurrences tallied once, by bin.
    let selection = Selection::of(filter, columns, hot);
    let ranges = ranges_by_code();
    let tallies = Tallies::count_profile(
        index,
        board,
        swap,
        &selection,
        "ranks",
        UNKNOWN + 1,
        |_, f| Some(bin_of_codes(&ranges, f.black_rank, f.white_rank)),
    );
    let all: Vec<usize> = (0..=UNKNOWN).collect();
    let (next, top) = next_and_top(
        index, columns, board, swap, filter, hot, &tallies, &all, top,
    )?;
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
    use crate::explore::years::years;
    use crate::rank::RankRange;
    use kifudex_core::index_file::IndexFile;
    use kifudex_core::notation::parse_moves;
    use kifudex_core::search::NextMoves;
    use kifudex_core::{Color, Size};

    fn board(moves: &str) -> Board {
        let mut b = Board::new(Size::STANDARD);
        let mut color = Color::Black;
        for mv in parse_moves(moves, Size::STANDARD) {
            b.play(color, mv.unwrap()).unwrap();
            color = color.opponent();
        }
        b
    }

    /// A class: colour, move, count, Black's wins, White's wins.
    type ClassCounts = (Color, kifudex_core::Move, u32, u32, u32);

    /// The rank profile as it was counted from the rows: one pass of the row-based filter
    /// per bin (the second computation the tallies are checked against).
    fn ranks_from_rows(
        index: &Index<'_>,
        board: &Board,
        swap: bool,
        filter: &GameFilter,
    ) -> Vec<(u64, Vec<ClassCounts>)> {
        (0..=UNKNOWN)
            .map(|bin| {
                let n: NextMoves = index
                    .next_moves_where(board, swap, |g| bin_of(g) == bin && filter.accepts(g))
                    .unwrap();
                let classes = n
                    .classes()
                    .iter()
                    .map(|c| (c.color, c.mv, c.count, c.black_wins, c.white_wins))
                    .collect();
                (n.total(), classes)
            })
            .collect()
    }

    /// The year profile as it was counted from the rows: the filter's games' years, then
    /// one pass of the row-based filter per range of years.
    fn years_from_rows(
        index: &Index<'_>,
        board: &Board,
        swap: bool,
        filter: &GameFilter,
        top: &[(Color, kifudex_core::Move)],
    ) -> Vec<(u32, u32, u64, Vec<u32>)> {
        let mut years = std::collections::BTreeSet::new();
        for b in [board.clone(), kifudex_core::index::swapped_board(board)]
            .iter()
            .take(1 + swap as usize)
        {
            if let Some(found) = index.find(b) {
                for o in index.occurrences(&found) {
                    let g = index.game(o.game).unwrap();
                    if filter.accepts(&g) {
                        years.extend(g.year());
                    }
                }
            }
        }
        let (Some(&lo), Some(&hi)) = (years.first(), years.last()) else {
            return Vec::new();
        };
        let span = (hi - lo) as u32 + 1;
        let width = [1u32, 2, 5, 10, 20, 50, 100]
            .into_iter()
            .find(|w| span.div_ceil(*w) <= crate::explore::years::MAX_BINS)
            .unwrap();
        let mut out = Vec::new();
        let mut from = lo as u32 - lo as u32 % width;
        while from <= hi as u32 {
            let to = from + width - 1;
            let n: NextMoves = index
                .next_moves_where(board, swap, |g| {
                    g.year().is_some_and(|y| (from..=to).contains(&(y as u32))) && filter.accepts(g)
                })
                .unwrap();
            let counts = top
                .iter()
                .map(|t| {
                    n.classes()
                        .iter()
                        .find(|c| (c.color, c.mv) == *t)
                        .map_or(0, |c| c.count)
                })
                .collect();
            out.push((from, to, n.total(), counts));
            from += width;
        }
        out
    }

    /// A game's bin from its rank codes' ranges is the bin of its ranks, for every pair of
    /// codes (unknown codes included).
    #[test]
    fn bins_by_code_are_the_bins_of_the_ranks() {
        let ranges = ranges_by_code();
        let mut seen = [0usize; UNKNOWN + 1];
        for b in 0..64u8 {
            for w in 0..64u8 {
                let want = bin_of_ranks(GameRanks {
                    black: Rank::from_index(b),
                    white: Rank::from_index(w),
                });
                assert_eq!(bin_of_codes(&ranges, b, w), want, "{b} {w}");
                seen[want] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }

    /// The profiles from the columns' tallies equal those counted from the rows, bin by
    /// bin, with and without filters and the colour swap, walking the index's occurrences
    /// and reading the kept ones ([`Hot`]).
    #[test]
    fn profiles_equal_the_row_based_counts() {
        let bytes = crate::sample::sample_index().unwrap();
        let file = IndexFile::open(&bytes).unwrap();
        let (index, columns) = (&file.index, &file.columns);
        let filters = [
            GameFilter::default(),
            GameFilter {
                winner: Some(Color::White),
                ..GameFilter::default()
            },
            GameFilter {
                winner: Some(Color::Black),
                ..GameFilter::default()
            },
            GameFilter {
                ranks: RankRange {
                    min: Some("5d".parse().unwrap()),
                    max: None,
                },
                ..GameFilter::default()
            },
            GameFilter {
                year_from: Some(1985),
                ..GameFilter::default()
            },
        ];
        let mut nonempty = 0;
        // Walking the index's occurrences, and reading every position's from the kept
        // ones (each position kept: at least one occurrence). The unfiltered profiles'
        // tallies are kept: "dp" and "dp,dd" (the first moves transposed) read those of
        // "pd" and "pd,dd" in another orientation.
        let every = Arc::new(Hot::new(1, usize::MAX));
        for (moves, hot) in ["", "pd", "dp", "pd,dd", "dp,dd", "qd,dd,pp", "pd,dd,pq,dp"]
            .into_iter()
            .flat_map(|m| [(m, None), (m, Some(&every))])
        {
            let b = board(moves);
            for filter in &filters {
                for swap in [false, true] {
                    let r = ranks(index, columns, &b, swap, filter, 5, hot).unwrap();
                    // The top moves and the total: the filter's next moves from the rows.
                    let next: NextMoves = index
                        .next_moves_where(&b, swap, |g| filter.accepts(g))
                        .unwrap();
                    let want_top: Vec<_> = next
                        .classes()
                        .iter()
                        .take(5)
                        .map(|c| (c.color, c.mv, c.count))
                        .collect();
                    let top_of = |top: &[crate::explore::answer::TopMove]| -> Vec<_> {
                        top.iter().map(|t| (t.color, t.mv, t.count)).collect()
                    };
                    assert_eq!(r.total, next.total(), "{moves} {filter:?}");
                    assert_eq!(top_of(&r.top), want_top, "{moves} {filter:?}");
                    let want = ranks_from_rows(index, &b, swap, filter);
                    for (bin, (total, classes)) in r.bins.iter().zip(&want) {
                        assert_eq!(bin.total, *total, "{moves} {filter:?} {}", bin.ranks);
                        let counts: Vec<u32> = r
                            .top
                            .iter()
                            .map(|t| {
                                classes
                                    .iter()
                                    .find(|c| (c.0, c.1) == (t.color, t.mv))
                                    .map_or(0, |c| c.2)
                            })
                            .collect();
                        assert_eq!(bin.counts, counts, "{moves} {filter:?} {}", bin.ranks);
                        nonempty += (bin.total > 0) as u32;
                    }
                    let y = years(index, columns, &b, swap, filter, 5, hot).unwrap();
                    assert_eq!(y.total, next.total(), "{moves} {filter:?}");
                    assert_eq!(top_of(&y.top), want_top, "{moves} {filter:?}");
                    let top: Vec<_> = y.top.iter().map(|t| (t.color, t.mv)).collect();
                    let want = years_from_rows(index, &b, swap, filter, &top);
                    let got: Vec<_> = y
                        .bins
                        .iter()
                        .map(|b| (b.from, b.to, b.total, b.counts.clone()))
                        .collect();
                    assert_eq!(got, want, "{moves} {filter:?} swap {swap}");
                    nonempty += y.bins.len() as u32;
                }
            }
        }
        assert!(nonempty > 100, "{nonempty}");
        assert!(every.held() > 0);
        // Two profiles, four positions, with and without the swap, of every game and of
        // each winner: more counted than kept, the last PROFILES kept.
        assert_eq!(every.profiles(), crate::games::PROFILES);
    }

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
