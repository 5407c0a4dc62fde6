//! A position's next moves tallied by slot: each next move by its move record and the
//! orientation it was played in ([`slot`]), with the games of it Black won and White won;
//! [`Tallies`] holds a query's positions in bins (a filter's games, a profile's years or
//! ranks) and reads them back as a next-move source of the core's aggregation. How they are
//! counted from an index: `count.rs`.

use kifudex_core::board::{Board, Tracking};
use kifudex_core::hash::Key;
use kifudex_core::index::{swapped_board, Found, Index};
use kifudex_core::search::{
    next_moves_into, Lookup, NextMove, NextMoveSource, NextMoves, SearchError,
};
use kifudex_core::stored::decode_move;
use kifudex_core::transform::Transform;
use kifudex_core::Color;

use super::mask::GameMask;

/// The tally slot of a move record played in orientation `orientation`.
#[inline]
pub(super) fn slot(record: u64, orientation: usize) -> u16 {
    ((record as usize & 1023) * 8 + (orientation & 7)) as u16
}

/// Slots of a tally: every move record (10 bits) in each of the 8 orientations.
pub(super) const SLOTS: usize = 1024 * 8;

/// One position's next moves in one bin: occurrences, of them in games Black won, White
/// won, by slot (move record * 8 + orientation).
#[derive(Clone)]
pub(super) struct Tally(pub(super) Vec<[u32; 3]>);

impl Tally {
    pub(super) fn new() -> Tally {
        Tally(vec![[0; 3]; SLOTS])
    }

    /// Adds an occurrence whose next move has tally slot `slot` ([`slot`]), in a game
    /// `winner` won.
    #[inline]
    pub(super) fn add_slot(&mut self, slot: u16, winner: Option<Color>) {
        if let Some(t) = self.0.get_mut(slot as usize) {
            t[0] = t[0].saturating_add(1);
            t[1] = t[1].saturating_add((winner == Some(Color::Black)) as u32);
            t[2] = t[2].saturating_add((winner == Some(Color::White)) as u32);
        }
    }

    /// Adds, for each occurrence of `games` whose next move has the tally slot of `slots`
    /// (the same length), its game's `mask` counts ([`GameMask::counts`]): the occurrences of
    /// the games the mask keeps, without a branch per occurrence (a kept position's
    /// occurrences: at most [`super::HOT_CAPACITY`], so no count can overflow). Returns
    /// the number of occurrences added.
    pub(super) fn add_masked(
        &mut self,
        games: impl Iterator<Item = u32>,
        slots: &[u16],
        mask: &GameMask,
    ) -> usize {
        // A branch per occurrence when the mask keeps nearly all games or nearly none (it
        // is then predicted and skips the others); without one when it keeps between an
        // eighth and seven eighths (a winner's games: half the branches would be
        // mispredicted). At the empty board of a million games, one client: the winner
        // filter 4.0-7.1 ms with the branch, 1.8 without; a year or handicap filter 1.1-1.9
        // ms with it, 2.0-3.4 without.
        let (kept, games_in) = (mask.count(), mask.games().max(1));
        let mixed = kept * 8 > games_in && kept * 8 < games_in * 7;
        let mut added = 0;
        for (game, &slot) in games.zip(slots) {
            let [kept, black, white] = mask.counts(game);
            if kept == 0 && !mixed {
                continue;
            }
            if let Some(t) = self.0.get_mut(slot as usize) {
                t[0] = t[0].wrapping_add(kept);
                t[1] = t[1].wrapping_add(black);
                t[2] = t[2].wrapping_add(white);
                added += kept as usize;
            }
        }
        added
    }

    /// Adds another tally's counts.
    pub(super) fn merge(&mut self, other: &Tally) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            for k in 0..3 {
                a[k] = a[k].saturating_add(b[k]);
            }
        }
    }

    /// Visits the tallied moves as a source's next moves of `found`.
    fn visit<E>(
        &self,
        found: &Found,
        mut visit: impl FnMut(NextMove, Transform) -> Result<(), E>,
    ) -> Result<(), E> {
        let to_query = found.to_canonical.inverse();
        for (slot, &[count, black_wins, white_wins]) in self.0.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let Some((color, mv)) = decode_move((slot / 8) as u64) else {
                continue;
            };
            let Some(orientation) = Transform::new((slot % 8) as u8) else {
                continue;
            };
            let m = NextMove {
                color,
                mv,
                count,
                black_wins,
                white_wins,
            };
            visit(m, orientation.then(to_query))?;
        }
        Ok(())
    }
}

/// The tallies of a query's positions (the position, and the colour-exchanged one with
/// `swap`), by the position's first occurrence, each in `bins` bins.
pub struct Tallies {
    pub(super) positions: Vec<(usize, Vec<Option<Tally>>)>,
    pub(super) bins: usize,
}

impl Tallies {
    /// The tallies of the games `winner` won, of tallies of every game: each next move's
    /// count is its games `winner` won (and so are its wins of that colour, none of the
    /// other), as [`Tallies::count`] with that winner filter counts them; a bin none of
    /// whose games `winner` won holds nothing.
    pub fn won_by(&self, winner: Color) -> Tallies {
        let k = match winner {
            Color::Black => 1,
            Color::White => 2,
        };
        let positions = self
            .positions
            .iter()
            .map(|(start, bins)| {
                let bins = bins
                    .iter()
                    .map(|t| {
                        let t = t.as_ref()?;
                        let won: Vec<[u32; 3]> =
                            t.0.iter()
                                .map(|c| {
                                    let mut w = [c[k], 0, 0];
                                    w[k] = c[k];
                                    w
                                })
                                .collect();
                        won.iter().any(|c| c[0] > 0).then_some(Tally(won))
                    })
                    .collect();
                (*start, bins)
            })
            .collect();
        Tallies {
            positions,
            bins: self.bins,
        }
    }

    /// The next moves of the games of bins `bins` together, as the core aggregates a
    /// source's.
    pub fn next_moves(
        &self,
        index: &Index<'_>,
        board: &Board,
        swap: bool,
        bins: &[usize],
    ) -> Result<NextMoves, SearchError> {
        let source = BinSource {
            index,
            tallies: self,
            bins,
        };
        let mut out = NextMoves::new(board.size(), board.symmetries());
        let lookup = Lookup::with_symmetries(board, out.symmetries());
        let swapped = swap.then(|| swapped_board(board));
        let swapped = swapped
            .as_ref()
            .map(|b| Lookup::with_symmetries(b, lookup.symmetries));
        next_moves_into(&source, &lookup, swapped.as_ref(), &mut out)?;
        Ok(out)
    }

    /// Number of bins.
    pub fn bins(&self) -> usize {
        self.bins
    }

    /// Whether bin `bin` holds an occurrence.
    pub fn has(&self, bin: usize) -> bool {
        self.positions
            .iter()
            .any(|(_, t)| t.get(bin).is_some_and(Option::is_some))
    }
}

/// Bins of [`Tallies`] together as a next-move source (positions found as the index
/// finds them).
struct BinSource<'t, 'i, 'a> {
    index: &'i Index<'a>,
    tallies: &'t Tallies,
    bins: &'t [usize],
}

impl NextMoveSource for BinSource<'_, '_, '_> {
    type Found = Found;

    fn find_position<T: Tracking>(
        &self,
        query: &Board<T>,
        key: Key,
        to_canonical: Transform,
    ) -> Option<Found> {
        self.index.find_key(query, key, to_canonical)
    }

    fn for_each_next_move<E>(
        &self,
        found: &Found,
        visit: impl FnMut(NextMove, Transform) -> Result<(), E>,
    ) -> Result<(), E> {
        let Some((_, tallies)) = self
            .tallies
            .positions
            .iter()
            .find(|(s, _)| *s == found.start)
        else {
            return Ok(());
        };
        let mut of_bins = self
            .bins
            .iter()
            .filter_map(|&b| tallies.get(b).and_then(Option::as_ref));
        let Some(first) = of_bins.next() else {
            return Ok(());
        };
        let rest: Vec<&Tally> = of_bins.collect();
        if rest.is_empty() {
            return first.visit(found, visit);
        }
        let mut sum = first.clone();
        for t in rest {
            sum.merge(t);
        }
        sum.visit(found, visit)
    }
}
