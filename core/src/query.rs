//! Query positions, as the command line and the hint protocol state them: a list of moves
//! from the empty board, or a board snapshot read from sensors.

use crate::board::{Board, MoveError, Rules, Tracking};
use crate::notation::{parse_moves, NotationError};
use crate::point::{Color, Move, Point, Size, Stone};

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
            QueryError::IllegalMove(e) => write!(f, "illegal move: {}", e.words()),
            other => f.write_str(other.as_str()),
        }
    }
}

/// The position after `moves` (comma-separated SGF points or `pass`), played from the
/// empty board of `size`, Black first, colours alternating, captures applied, suicide
/// forbidden and simple ko enforced. Returns the board and the colour to move next.
pub fn position_after(moves: &str, size: Size) -> Result<(Board, Color), QueryError> {
    let mut board = Board::new(size);
    let color = play_moves(&mut board, moves)?;
    Ok((board, color))
}

/// [`position_after`] in place: plays `moves` on `board` (normally a fresh
/// `Board::new(size)`), Black first. Returns the colour to move next. On an error the
/// board holds the moves before the bad one.
pub fn play_moves<T: Tracking>(board: &mut Board<T>, moves: &str) -> Result<Color, QueryError> {
    play_moves_recent(board, moves).map(|(color, _)| color)
}

/// [`play_moves`], also returning the last two moves played (the last first; `None` where
/// fewer were played): what the move predictor knows of a position's history.
pub fn play_moves_recent<T: Tracking>(
    board: &mut Board<T>,
    moves: &str,
) -> Result<(Color, [Option<Move>; 2]), QueryError> {
    let mut color = Color::Black;
    let mut recent = [None, None];
    for mv in parse_moves(moves, board.size()) {
        let mv = mv?;
        board.place(color, mv).map_err(QueryError::IllegalMove)?;
        color = color.opponent();
        recent = [Some(mv), recent[0]];
    }
    Ok((color, recent))
}

/// A board snapshot of `size` from its cells row by row from the top: `.` empty, `X`
/// black, `O` white. No history: captured stones are already off the board.
pub fn position_from_cells(size: Size, cells: &[u8]) -> Result<Board, QueryError> {
    let mut board = Board::with_rules(size, Rules::RECORD);
    set_cells(&mut board, cells)?;
    Ok(board)
}

/// [`position_from_cells`] in place: puts the cells on `board` (normally a fresh
/// `Board::with_rules(size, Rules::RECORD)`), whose size gives the count of cells.
pub fn set_cells<T: Tracking>(board: &mut Board<T>, cells: &[u8]) -> Result<(), QueryError> {
    let size = board.size();
    if cells.len() != size.points() {
        return Err(QueryError::BadRequest);
    }
    let w = size.width() as usize;
    let mut put = |i: usize, c: u8| {
        let stone = match c {
            b'.' => return Ok(()),
            b'X' => Stone::Black,
            b'O' => Stone::White,
            _ => return Err(QueryError::BadRequest),
        };
        let p = Point::new((i % w) as u8, (i / w) as u8);
        board
            .set_stone(p, stone)
            .map_err(|_| QueryError::BadRequest)
    };
    // A sensor scan is mostly empty points: four at a time.
    let mut chunks = cells.chunks_exact(4);
    let mut i = 0;
    for chunk in &mut chunks {
        if let [a, b, c, d] = *chunk {
            if u32::from_le_bytes([a, b, c, d]) != u32::from_le_bytes(*b"....") {
                put(i, a)?;
                put(i + 1, b)?;
                put(i + 2, c)?;
                put(i + 3, d)?;
            }
        }
        i += 4;
    }
    for &c in chunks.remainder() {
        put(i, c)?;
        i += 1;
    }
    Ok(())
}
