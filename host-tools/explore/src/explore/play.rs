//! A board to play on between questions: the position, its undo history and the side to
//! move. The shell holds one (and a GTP engine would); the explorer answers about its
//! position ([`super::request::At::Board`]).

use kifudex_core::board::{Board, MoveError};
use kifudex_core::{Color, Event, Move, Replay, Size};

/// Moves a play board can hold (its undo history).
pub const HISTORY: usize = 1024;

/// A board to play on: the position, its undo history and the side to move.
///
/// Colours alternate from Black, unless a move names its own colour (a next move of a
/// record where a colour moved twice); play on a clone to make several moves all or
/// nothing.
#[derive(Clone, Debug)]
pub struct PlayBoard {
    replay: Box<Replay<HISTORY>>,
    to_move: Color,
}

impl PlayBoard {
    /// The empty board of `size`, Black to move.
    pub fn new(size: Size) -> PlayBoard {
        PlayBoard {
            replay: Box::new(Replay::new(size)),
            to_move: Color::Black,
        }
    }

    /// The position.
    pub fn board(&self) -> &Board {
        self.replay.board()
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Moves played (and not taken back).
    pub fn moves_played(&self) -> usize {
        self.replay.len()
    }

    /// The last two moves, as the move predictor reads them: the last move, then the one
    /// before it (`None` where a setup or the start of the game comes first).
    pub fn last_moves(&self) -> kifudex_core::predict::History {
        let n = self.replay.len();
        let played = |back: usize| match n.checked_sub(back).and_then(|i| self.replay.step(i)) {
            Some(Event::Play { mv, .. }) => Some(mv),
            _ => None,
        };
        let last = played(1);
        kifudex_core::predict::History {
            last,
            before: last.and(played(2)),
        }
    }

    /// Plays `mv` for `color` (the side to move when `None`); the other colour moves next.
    /// An illegal move (occupied, suicide, ko, history full) changes nothing.
    pub fn play(&mut self, mv: Move, color: Option<Color>) -> Result<(), MoveError> {
        let color = color.unwrap_or(self.to_move);
        self.replay.play(color, mv)?;
        self.to_move = color.opponent();
        Ok(())
    }

    /// Takes back up to `n` moves; returns how many were taken back. The side to move is
    /// the colour of the last move taken back (Black on the empty board).
    pub fn undo(&mut self, n: usize) -> usize {
        let mut done = 0;
        while done < n {
            match self.replay.undo() {
                Some(Event::Play { color, .. }) => self.to_move = color,
                Some(Event::Setup { .. }) => {}
                None => break,
            }
            done += 1;
        }
        if self.replay.is_empty() {
            self.to_move = Color::Black;
        }
        done
    }

    /// Takes back every move.
    pub fn reset(&mut self) {
        self.replay.undo_all();
        self.to_move = Color::Black;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Move {
        let b = s.as_bytes();
        Move::Play(kifudex_core::Point::new(b[0] - b'a', b[1] - b'a'))
    }

    #[test]
    fn play_and_undo_keep_the_side_to_move() {
        let mut p = PlayBoard::new(Size::STANDARD);
        p.play(pt("pd"), None).unwrap();
        p.play(pt("dd"), Some(Color::Black)).unwrap();
        assert_eq!(p.to_move(), Color::White);
        assert_eq!(p.play(pt("pd"), None), Err(MoveError::Occupied));
        assert_eq!(p.moves_played(), 2);
        assert_eq!(p.undo(1), 1);
        assert_eq!(p.to_move(), Color::Black);
        assert_eq!(p.undo(5), 1);
        assert_eq!(p.to_move(), Color::Black);
        assert_eq!(p.undo(1), 0);
    }
}
