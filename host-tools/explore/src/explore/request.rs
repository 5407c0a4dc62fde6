//! The explorer's requests: every question a front end (the command line, the shell, the
//! web API) asks, as plain values. Front ends build them from their own syntax (clap's
//! arguments, shell words, query strings) and nothing else; the explorer answers them.
//!
//! Which games count ([`GameFilter`]), their order ([`Sort`]) and a page of them ([`Page`])
//! are defined beside the game lists that apply them (`crate::games`), a pattern query
//! ([`PatternRequest`], parsed and so normalised: equal queries compare equal) beside the
//! scan (`crate::pattern`); they are re-exported here so that this module is the whole
//! vocabulary of questions.

use kifudex_core::board::Board;
use kifudex_core::predict::History;
use kifudex_core::Color;

pub use crate::games::{parse_komi, parse_month, GameFilter, Page, Sort, SortKey};
pub use crate::pattern::PatternRequest;
pub use crate::rank::{Rank, RankRange};

/// A position as a user states it: setup stones, then moves played from them, as text in
/// any notation of `--moves` (set up by the explorer with the core's rules; a refusal
/// names the entry).
///
/// `moves` alone is the plain query: moves from the empty 19x19 board, Black first,
/// colours alternating. Setup adds black and white stones (`black`, `white`: comma-separated
/// points, as SGF's `AB`/`AW`) and the side that plays the first move (`to_move`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Board width (1 to 19; default 19).
    pub size: u8,
    /// The height of a rectangular board (`None`: square).
    pub height: Option<u8>,
    /// Black setup stones, comma-separated points.
    pub black: String,
    /// White setup stones, comma-separated points.
    pub white: String,
    /// The side to move first; `None`: Black.
    pub to_move: Option<Color>,
    /// The moves, comma-separated points or `pass`.
    pub moves: String,
}

impl Default for Position {
    fn default() -> Self {
        Position {
            size: 19,
            height: None,
            black: String::new(),
            white: String::new(),
            to_move: None,
            moves: String::new(),
        }
    }
}

/// Where a question about a position looks: a position as stated, or a board in hand (the
/// shell's play board, a record's position read by the command line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum At {
    /// Set up from its statement.
    Stated(Position),
    /// As it stands (boxed: a board is larger than a statement).
    Board(Box<Board>),
}

impl Default for At {
    fn default() -> Self {
        At::Stated(Position::default())
    }
}

impl From<Position> for At {
    fn from(p: Position) -> At {
        At::Stated(p)
    }
}

impl From<Board> for At {
    fn from(b: Board) -> At {
        At::Board(Box::new(b))
    }
}

/// The next moves of a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchRequest {
    /// The position.
    pub at: At,
    /// Also count the colour-exchanged position (its moves with colours exchanged back).
    pub swap: bool,
    /// Which games count.
    pub filter: GameFilter,
}

/// The games that reached a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GamesRequest {
    /// The position.
    pub at: At,
    /// Also list the games that reached the colour-exchanged position.
    pub swap: bool,
    /// Which games.
    pub filter: GameFilter,
    /// Their order.
    pub sort: Sort,
    /// Which of them.
    pub page: Page,
}

/// The popularity of a position's top next moves, year by year.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct YearsRequest {
    /// The search whose top next moves are followed.
    pub search: SearchRequest,
    /// How many of the top next moves.
    pub top: usize,
}

/// The popularity of a position's top next moves by the players' ranks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RanksRequest {
    /// The search whose top next moves are followed.
    pub search: SearchRequest,
    /// How many of the top next moves.
    pub top: usize,
}

/// The move predictor's ranking of every legal move of the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuggestRequest {
    /// The position.
    pub board: Board,
    /// Who is to move.
    pub to_move: Color,
    /// The last two moves, where known.
    pub history: History,
    /// At most this many moves (0: all).
    pub max: usize,
}
