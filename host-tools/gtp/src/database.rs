//! The one question the engines ask the explorer: which moves did the games that reached
//! this position play next, and how did those games end. Everything else in `gtp` is about
//! the protocols.

use kifudex_core::board::Board;
use kifudex_core::{Color, Move};

use crate::explore::request::{GameFilter, SearchRequest};
use crate::explore::{ExploreError, Explorer};

/// One next move of the database for one colour: a class of moves that the position's
/// symmetry makes equal, shown as one move (as `kifudex search` shows it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DbMove {
    /// The move (its class's representative).
    pub mv: Move,
    /// Occurrences followed by it: games (a game counts once per time it reached the
    /// position).
    pub games: u32,
    /// Of those, games Black won.
    pub black_wins: u32,
    /// Of those, games White won.
    pub white_wins: u32,
}

impl DbMove {
    /// Games won by `color` among [`DbMove::games`].
    pub fn wins(&self, color: Color) -> u32 {
        match color {
            Color::Black => self.black_wins,
            Color::White => self.white_wins,
        }
    }
}

/// The next moves of `color` from `board` in the games `filter` keeps (the position found
/// in any orientation, the moves mapped back onto it), most played first, in the order of
/// `kifudex search`: the explorer's search, one colour of it.
pub fn next_moves(
    explorer: &Explorer<'_>,
    board: &Board,
    filter: &GameFilter,
    color: Color,
) -> Result<Vec<DbMove>, ExploreError> {
    let q = SearchRequest {
        at: board.clone().into(),
        swap: false,
        filter: filter.clone(),
    };
    Ok(explorer
        .search(&q)?
        .next
        .iter()
        .filter(|c| c.color == color)
        .map(|c| DbMove {
            mv: c.mv,
            games: c.count,
            black_wins: c.black_wins,
            white_wins: c.white_wins,
        })
        .collect())
}
