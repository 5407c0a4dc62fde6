//! The index's next moves: the index is a [`NextMoveSource`] (precomputed statistics for
//! popular positions, the occurrences' own next moves for the others), and so is an index
//! filtered by game ([`Filtered`], which always counts occurrence by occurrence).

use super::{Found, Game, Index};
use crate::board::{Board, Rules, Tracking};
use crate::hash::Key;
use crate::point::{Color, Point};
use crate::search::{next_moves_into, Lookup, NextMove, NextMoveSource, NextMoves, SearchError};
use crate::transform::Transform;

impl<'a> Index<'a> {
    /// The next moves of the occurrences of a found position from games that `keep`
    /// accepts, one by one (count 1, the game's winner), each with the transform from its
    /// game's orientation onto the query's.
    fn for_each_occurrence_move<E>(
        &self,
        found: &Found,
        keep: impl Fn(&Game<'a>) -> bool,
        mut visit: impl FnMut(NextMove, Transform) -> Result<(), E>,
    ) -> Result<(), E> {
        let to_query = found.to_canonical.inverse();
        for i in found.start..found.end {
            let Some(r) = self.occurrences.get(i) else {
                continue;
            };
            let Some(game) = self.game(self.games.game_of_ply(r.ply)) else {
                continue;
            };
            if !keep(&game) {
                continue;
            }
            let (color, mv) = self.games.global_move(r.ply);
            let winner = game.winner;
            let m = NextMove {
                color,
                mv,
                count: 1,
                black_wins: (winner == Some(Color::Black)) as u32,
                white_wins: (winner == Some(Color::White)) as u32,
            };
            // The stored move is in the game's orientation: go through the canonical one.
            visit(m, r.orientation.then(to_query))?;
        }
        Ok(())
    }

    /// The index restricted to the games `keep` accepts (for example a year range): its next
    /// moves are counted occurrence by occurrence, so they are exact for any filter.
    pub fn filtered<F: Fn(&Game<'a>) -> bool>(&self, keep: F) -> Filtered<'_, 'a, F> {
        Filtered { index: self, keep }
    }

    /// Next-move statistics for `query`: found in any orientation, moves mapped back and
    /// merged by the position's symmetry; with `swap`, the colour-swapped position's moves
    /// are added with colours exchanged.
    pub fn next_moves<const N: usize>(
        &self,
        query: &Board,
        swap: bool,
    ) -> Result<NextMoves<N>, SearchError> {
        search(self, query, swap)
    }

    /// [`Index::next_moves`] counting only the occurrences from games that `keep` accepts.
    pub fn next_moves_where<const N: usize>(
        &self,
        query: &Board,
        swap: bool,
        keep: impl Fn(&Game<'a>) -> bool,
    ) -> Result<NextMoves<N>, SearchError> {
        search(&self.filtered(keep), query, swap)
    }
}

/// [`next_moves_into`] for a board that keeps its keys, and its colour-swapped position.
fn search<S: NextMoveSource, const N: usize>(
    source: &S,
    query: &Board,
    swap: bool,
) -> Result<NextMoves<N>, SearchError> {
    let mut out = NextMoves::new(query.size(), query.symmetries());
    let lookup = Lookup::with_symmetries(query, out.symmetries());
    let swapped = swap.then(|| swapped_board(query));
    let swapped = swapped
        .as_ref()
        .map(|b| Lookup::with_symmetries(b, lookup.symmetries));
    next_moves_into(source, &lookup, swapped.as_ref(), &mut out)?;
    Ok(out)
}

impl NextMoveSource for Index<'_> {
    type Found = Found;

    fn find_position<T: Tracking>(
        &self,
        query: &Board<T>,
        key: Key,
        to_canonical: Transform,
    ) -> Option<Found> {
        self.find_key(query, key, to_canonical)
    }

    fn for_each_next_move<E>(
        &self,
        found: &Found,
        mut visit: impl FnMut(NextMove, Transform) -> Result<(), E>,
    ) -> Result<(), E> {
        let Some(row) = found
            .shared
            .and_then(|r| self.shared.row(r, self.occurrences.len()))
        else {
            return self.for_each_occurrence_move(found, |_| true, visit);
        };
        // A popular position: its precomputed statistics, in canonical orientation.
        let to_query = found.to_canonical.inverse();
        for m in self.shared.next_moves(&row) {
            visit(m.next_move(), to_query)?;
        }
        Ok(())
    }
}

/// An index restricted to some games ([`Index::filtered`]).
#[derive(Clone, Debug)]
pub struct Filtered<'i, 'a, F> {
    index: &'i Index<'a>,
    keep: F,
}

impl<'a, F: Fn(&Game<'a>) -> bool> NextMoveSource for Filtered<'_, 'a, F> {
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
        self.index
            .for_each_occurrence_move(found, &self.keep, visit)
    }
}

/// The position with colours exchanged.
pub fn swapped_board(board: &Board) -> Board {
    let size = board.size();
    let mut out = Board::with_rules(size, Rules::RECORD);
    for y in 0..size.height() {
        for x in 0..size.width() {
            let p = Point::new(x, y);
            let _ = out.set_stone(p, board.get(p).swapped());
        }
    }
    out
}
