//! [`Event`]: one step along a game record — a setup stone or a move.
//!
//! The one type for it: the SGF reader's main lines, the builder's replay, the games stored
//! in an index ([`crate::stored::StoredGame::events`]) and the board with undo
//! ([`crate::Replay`]) all speak in events.

use crate::board::{Board, MoveError, Tracking};
use crate::point::{Color, Move, Point, Stone};

/// One step of a game record.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Event {
    /// A setup change (SGF `AB`/`AW`/`AE`): `stone` put on `point`, [`Stone::Empty`] to clear
    /// it. No captures, no rule checks.
    Setup {
        /// The point set up.
        point: Point,
        /// What is put there.
        stone: Stone,
    },
    /// A move of `color`: a stone with its captures, or a pass.
    Play {
        /// Who moved.
        color: Color,
        /// The move.
        mv: Move,
    },
}

impl Event {
    /// Applies the event to `board`: [`Board::set_stone`] for a setup, [`Board::place`]
    /// for a move. On an error the board is unchanged.
    #[inline]
    pub fn apply<T: Tracking>(self, board: &mut Board<T>) -> Result<(), MoveError> {
        match self {
            Event::Setup { point, stone } => board.set_stone(point, stone),
            Event::Play { color, mv } => board.place(color, mv),
        }
    }

    /// The move and its colour, `None` for a setup.
    #[inline]
    pub const fn play(self) -> Option<(Color, Move)> {
        match self {
            Event::Play { color, mv } => Some((color, mv)),
            Event::Setup { .. } => None,
        }
    }

    /// Whether the event is a move (not a setup).
    #[inline]
    pub const fn is_play(self) -> bool {
        matches!(self, Event::Play { .. })
    }
}
