//! Why the explorer refuses a request: each refusal one line for the user (the command line
//! prints it after `kifudex: ` with status 2, the shell after `error: `, the web API as
//! `{"error": ...}` with a 4xx status, [`ExploreError::is_not_found`] telling which).

use kifudex_core::search::SearchError;

use super::answer::{IllegalMove, Refusal};
use super::position::PositionError;

/// A refused request.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExploreError {
    /// A position that cannot be set up (a bad entry, an illegal move).
    #[error(transparent)]
    Position(#[from] PositionError),
    /// The search could not be completed (more classes of next moves than it holds).
    #[error("the search cannot be completed ({0:?})")]
    Search(SearchError),
    /// A game id past the index's games.
    #[error("no game {id} (the index holds games 0 to {last})")]
    NoGame {
        /// The id asked for.
        id: u32,
        /// The last game id.
        last: u32,
    },
    /// A move number past a game's moves.
    #[error("game {id} has only {moves} moves")]
    PastTheEnd {
        /// The game.
        id: u32,
        /// Its moves.
        moves: u32,
    },
    /// A stored game that cannot be replayed to a move (a damaged index).
    #[error("game {id} cannot be replayed to move {at}")]
    Unplayable {
        /// The game.
        id: u32,
        /// The move number.
        at: u32,
    },
    /// A pasted record that holds no game.
    #[error("no game in the SGF text ({0})")]
    NoGameInText(String),
    /// A question for the move predictor, and the explorer has none (each front end says
    /// how to give one).
    #[error("no move predictor")]
    NoPredictor,
}

impl ExploreError {
    /// Whether the request asks for something that is not there (a game, the predictor),
    /// rather than being malformed or impossible.
    pub fn is_not_found(&self) -> bool {
        matches!(
            self,
            ExploreError::NoGame { .. } | ExploreError::NoPredictor
        )
    }

    /// The refusal as the web API answers it (an illegal move with its number, move,
    /// colour and reason).
    pub fn refusal(&self) -> Refusal {
        let illegal = match self {
            ExploreError::Position(PositionError::Illegal {
                number,
                color,
                mv,
                reason,
            }) => Some(IllegalMove {
                move_number: *number,
                mv: mv.clone(),
                color,
                reason: reason.name(),
            }),
            _ => None,
        };
        Refusal {
            error: self.to_string(),
            illegal,
        }
    }
}
