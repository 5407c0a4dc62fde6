//! Next moves counted over the game columns: a position's occurrences walked once, each
//! kept game's next move tallied by (move, orientation) into one or more bins (a filter's
//! games; a profile's years or ranks), and each bin's tally handed to the core's one
//! aggregation ([`next_moves_into`](kifudex_core::search::next_moves_into)) as a source whose counts are those sums. The classes,
//! counts and order are those of adding the occurrences one by one (a class's counts are
//! sums; the order is total), which [`Index::next_moves_where`] does.

use kifudex_core::board::Board;
use kifudex_core::columns::Facts;
use kifudex_core::index::{swapped_board, Index};
use kifudex_core::stored::encode_move;
use kifudex_core::Color;

use rayon::prelude::*;
use std::sync::Arc;

use super::mask::GameMask;
use super::pieces::{even_pieces, pieces};
use super::select::Selection;
use super::tally::{slot, Tallies, Tally};
use super::GameFilter;

impl Tallies {
    /// Walks the occurrences of `board` (and with `swap` of its colour-exchanged twin)
    /// once: each occurrence of a game `selection` keeps goes into the bin `bin_of` gives
    /// its game (its id and facts, as the selection read them; none: left out).
    pub fn count(
        index: &Index<'_>,
        board: &Board,
        swap: bool,
        selection: &Selection<'_>,
        bins: usize,
        bin_of: impl Fn(u32, &Facts) -> Option<usize> + Sync,
    ) -> Tallies {
        let columns = selection.columns();
        Tallies::walk(
            index,
            board,
            swap,
            selection,
            bins,
            |game, mask| {
                let facts = match mask {
                    Some(m) => m.has(game).then(|| columns.facts(game)),
                    None => selection.kept(game),
                }?;
                Some((bin_of(game, &facts)?, facts.winner))
            },
            false,
        )
    }

    /// [`Tallies::count`] for the profile `name` (its bins and `bin_of` the same for every
    /// question so named): when `selection` reads a hot cache that keeps the position, from
    /// the tallies it keeps for the profile of every game (counted now the first time): as
    /// they are when every game counts, and those of the games one player won when the
    /// filter asks only for that winner ([`Tallies::won_by`], kept as well); else counted
    /// now.
    #[allow(clippy::too_many_arguments)]
    pub fn count_profile(
        index: &Index<'_>,
        board: &Board,
        swap: bool,
        selection: &Selection<'_>,
        name: &'static str,
        bins: usize,
        bin_of: impl Fn(u32, &Facts) -> Option<usize> + Sync,
    ) -> Arc<Tallies> {
        let count = |s: &Selection<'_>| Tallies::count(index, board, swap, s, bins, &bin_of);
        let winner = selection.filter().winner;
        let only_winner = winner.is_some()
            && *selection.filter()
                == (GameFilter {
                    winner,
                    ..GameFilter::default()
                });
        let kept = selection
            .hot()
            .filter(|_| selection.keeps_all() || only_winner)
            .and_then(|hot| {
                let found = index.find(board)?;
                hot.get(index, &found)?;
                let every = Selection::new(&GameFilter::default(), selection.columns())
                    .with_hot(selection.hot_arc());
                let all = hot.profile((name, found.start, swap, None), || count(&every))?;
                match winner {
                    // Kept too: made from the tallies of every game, a years profile's
                    // copy of its bins was half of its time (12 ms at the empty board).
                    Some(w) if only_winner => {
                        hot.profile((name, found.start, swap, Some(w)), || all.won_by(w))
                    }
                    _ => Some(all),
                }
            });
        kept.unwrap_or_else(|| Arc::new(count(selection)))
    }

    /// [`Tallies::count`] in one bin, every game `selection` keeps: with a mask, each
    /// occurrence is its bits (kept, the winner), no column is read; at a kept position,
    /// in one loop without a branch per occurrence (`Tally::add_masked`).
    pub fn count_kept(
        index: &Index<'_>,
        board: &Board,
        swap: bool,
        selection: &Selection<'_>,
    ) -> Tallies {
        Tallies::walk(
            index,
            board,
            swap,
            selection,
            1,
            |game, mask| match mask {
                Some(m) => m.has(game).then(|| (0, m.winner(game))),
                None => selection.kept(game).map(|f| (0, f.winner)),
            },
            true,
        )
    }

    /// The walk of [`Tallies::count`]: `classify` gives an occurrence's game's bin and
    /// winner (none: left out), from the filter's mask if one is read. With `by_mask`
    /// (`classify` in one bin as the mask's bits, as [`Tallies::count_kept`] asks), a kept
    /// position with a mask is counted by [`Tally::add_masked`] instead.
    fn walk(
        index: &Index<'_>,
        board: &Board,
        swap: bool,
        selection: &Selection<'_>,
        bins: usize,
        classify: impl Fn(u32, Option<&GameMask>) -> Option<(usize, Option<Color>)> + Sync,
        by_mask: bool,
    ) -> Tallies {
        let mut positions: Vec<(usize, Vec<Option<Tally>>)> = Vec::new();
        let swapped = swap.then(|| swapped_board(board));
        for b in std::iter::once(board).chain(swapped.as_ref()) {
            let Some(found) = index.find(b) else { continue };
            if positions.iter().any(|(s, _)| *s == found.start) {
                // The colour-exchanged position is the position itself: counted again by
                // the aggregation, from the same tally.
                continue;
            }
            let hot = selection.hot().and_then(|h| h.get(index, &found));
            // In pieces on all cores, summed: from the kept occurrences of a hot position,
            // else walking the index's.
            let ranges = match &hot {
                Some(h) => even_pieces(h.len()),
                None => pieces(found.start..found.end),
            };
            // The filter's games as one bit each, for a walk of many occurrences.
            let mask = selection.mask_for(found.count());
            let tallies = ranges
                .into_par_iter()
                .map(|piece| {
                    let mut tallies: Vec<Option<Tally>> = vec![None; bins];
                    let mut add = |game: u32, slot: u16| {
                        let Some((bin, winner)) = classify(game, mask.as_deref()) else {
                            return;
                        };
                        if let Some(t) = tallies.get_mut(bin) {
                            t.get_or_insert_with(Tally::new).add_slot(slot, winner);
                        }
                    };
                    match &hot {
                        Some(h) if by_mask && bins == 1 && mask.is_some() => {
                            let occurrences = h.occurrences.get(piece.clone()).unwrap_or(&[]);
                            let slots = h.slots.get(piece).unwrap_or(&[]);
                            if let (Some(m), Some(t)) = (mask.as_deref(), tallies.get_mut(0)) {
                                // A bin none of whose games is kept holds no tally, as
                                // when the occurrences are added one by one.
                                let mut tally = Tally::new();
                                let games = occurrences.iter().map(|o| o.game);
                                if tally.add_masked(games, slots, m) > 0 {
                                    *t = Some(tally);
                                }
                            }
                        }
                        Some(h) => {
                            let occurrences = h.occurrences.get(piece.clone()).unwrap_or(&[]);
                            let slots = h.slots.get(piece).unwrap_or(&[]);
                            for (o, &s) in occurrences.iter().zip(slots) {
                                add(o.game, s);
                            }
                        }
                        None => index.for_each_occurrence_in(piece, |occ, (color, mv)| {
                            add(
                                occ.game,
                                slot(encode_move(color, mv), occ.orientation.index()),
                            )
                        }),
                    }
                    tallies
                })
                .reduce_with(|mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        match (x.as_mut(), y) {
                            (Some(x), Some(y)) => x.merge(&y),
                            (None, Some(y)) => *x = Some(y),
                            (_, None) => {}
                        }
                    }
                    a
                })
                .unwrap_or_else(|| vec![None; bins]);
            positions.push((found.start, tallies));
        }
        Tallies { positions, bins }
    }
}
