//! Query positions, as the command line and the hint protocol state them: a list of moves
//! from the empty board, or a board snapshot read from sensors.

use crate::board::{Board, MoveError, Rules};
use crate::notation::{parse_moves, NotationError};
use crate::point::{Color, Point, Size, Stone};

/// Why a query position could not be set up.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum QueryError {
    /// The request is not well formed.
    BadRequest,
    /// A move is not legal in its position.
    IllegalMove(MoveError),
    /// The board size is not supported.
    UnsupportedSize,
}

impl QueryError {
    /// A one-word name, as the hint protocol replies it.
    pub const fn as_str(self) -> &'static str {
        match self {
            QueryError::BadRequest => "bad-request",
            QueryError::IllegalMove(_) => "illegal-move",
            QueryError::UnsupportedSize => "unsupported-size",
        }
    }
}

impl From<NotationError> for QueryError {
    fn from(e: NotationError) -> Self {
        match e {
            NotationError::OffBoard { .. } => QueryError::IllegalMove(MoveError::OffBoard),
            _ => QueryError::BadRequest,
        }
    }
}

impl core::fmt::Display for QueryError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            QueryError::IllegalMove(e) => write!(f, "illegal move ({e:?})"),
            other => f.write_str(other.as_str()),
        }
    }
}

/// The position after `moves` (comma-separated SGF points or `pass`), played from the
/// empty board of `size`, Black first, colours alternating, captures applied, suicide
/// forbidden and simple ko enforced. Returns the board and the colour to move next.
pub fn position_after(moves: &str, size: Size) -> Result<(Board, Color), QueryError> {
    let mut board = Board::new(size);
    let mut color = Color::Black;
    for mv in parse_moves(moves, size) {
        let mv = mv?;
        board.play(color, mv).map_err(QueryError::IllegalMove)?;
        color = color.opponent();
    }
    Ok((board, color))
}

/// A board snapshot of `size` from its cells row by row from the top: `.` empty, `X`
/// black, `O` white. No history: captured stones are already off the board.
pub fn position_from_cells(size: Size, cells: &[u8]) -> Result<Board, QueryError> {
    if cells.len() != size.points() {
        return Err(QueryError::BadRequest);
    }
    let mut board = Board::with_rules(size, Rules::RECORD);
    let w = size.width() as usize;
    for (i, &c) in cells.iter().enumerate() {
        let stone = match c {
            b'.' => continue,
            b'X' => Stone::Black,
            b'O' => Stone::White,
            _ => return Err(QueryError::BadRequest),
        };
        let p = Point::new((i % w) as u8, (i / w) as u8);
        board
            .set_stone(p, stone)
            .map_err(|_| QueryError::BadRequest)?;
    }
    Ok(board)
}
