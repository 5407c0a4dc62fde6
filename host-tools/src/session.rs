//! A session over an index: the library under the shell and the web board.
//!
//! A [`Session`] holds what a person exploring an index has in hand: a board to play on
//! with undo ([`PlayBoard`]), which games count ([`GameFilter`], and whether the
//! colour-swapped position counts too), the next moves of the board, the games that
//! reached it, and one listed game being replayed ([`GameView`]). It holds no text: the
//! shell shows it with [`crate::present::text`], the web board with
//! [`crate::present::json`].

use kifudex_core::board::{Board, MoveError};
use kifudex_core::index::{Game, Index};
use kifudex_core::search::{NextMoves, SearchError};
use kifudex_core::stored::StoredGame;
use kifudex_core::{Color, Event, Move, Replay, Size};

use crate::web::Sort;

use crate::games::{self, GameFilter, GameList, Page};

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

/// Why a session request could not be done (each message one line).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// `undo` on the empty board.
    #[error("nothing to undo")]
    NothingToUndo,
    /// A game id past the index's games.
    #[error("no game {id} (the index holds games 0 to {last})")]
    NoSuchGame {
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
    /// Stepping with no game opened.
    #[error("no game is being replayed (use `replay <game id>` first)")]
    NoGame,
    /// Stepping forward at the end of the game.
    #[error("game {id} ends after move {moves}")]
    AtTheEnd {
        /// The game.
        id: u32,
        /// Its moves.
        moves: u32,
    },
    /// Stepping back at the start of the game.
    #[error("already at the start of the game")]
    AtTheStart,
    /// A stored game that cannot be replayed to a move (a damaged index).
    #[error("game {id} cannot be replayed to move {at}")]
    Unplayable {
        /// The game.
        id: u32,
        /// The move number.
        at: u32,
    },
    /// The search failed.
    #[error("search failed: {0:?}")]
    Search(SearchError),
}

/// A listed game at one of its positions.
#[derive(Clone, Debug)]
pub struct GameView<'i> {
    /// The game's information.
    pub game: Game<'i>,
    /// Moves played.
    pub at: u32,
    /// The game's moves.
    pub moves: u32,
    /// The position after `at` moves.
    pub board: Board,
    /// The move that led to it.
    pub last: Option<(Color, Move)>,
    /// The move played from it.
    pub next: Option<(Color, Move)>,
}

/// The game being replayed: its id and position.
#[derive(Copy, Clone, Debug)]
struct Viewing {
    game: u32,
    at: u32,
    moves: u32,
}

/// A session over one index (see the module documentation).
#[derive(Clone, Debug)]
pub struct Session<'i> {
    index: &'i Index<'i>,
    play: PlayBoard,
    filter: GameFilter,
    swap: bool,
    viewing: Option<Viewing>,
}

impl<'i> Session<'i> {
    /// A session on the empty 19x19 board, every game counted, no colour swap.
    pub fn new(index: &'i Index<'i>) -> Session<'i> {
        Session {
            index,
            play: PlayBoard::new(Size::STANDARD),
            filter: GameFilter::default(),
            swap: false,
            viewing: None,
        }
    }

    /// The index.
    pub fn index(&self) -> &'i Index<'i> {
        self.index
    }

    /// The play board.
    pub fn play_board(&self) -> &PlayBoard {
        &self.play
    }

    /// The position on the play board.
    pub fn board(&self) -> &Board {
        self.play.board()
    }

    /// Replaces the play board (after moves played on a clone of it, all or nothing).
    pub fn set_play_board(&mut self, play: PlayBoard) {
        self.play = play;
    }

    /// Takes back up to `n` moves of the play board.
    pub fn undo(&mut self, n: usize) -> Result<usize, SessionError> {
        if self.play.moves_played() == 0 {
            return Err(SessionError::NothingToUndo);
        }
        Ok(self.play.undo(n))
    }

    /// Empties the play board.
    pub fn reset(&mut self) {
        self.play.reset();
    }

    /// Which games count.
    pub fn filter(&self) -> &GameFilter {
        &self.filter
    }

    /// Which games count, to change.
    pub fn filter_mut(&mut self) -> &mut GameFilter {
        &mut self.filter
    }

    /// Whether the colour-swapped position's moves count too (colours exchanged).
    pub fn swap(&self) -> bool {
        self.swap
    }

    /// Sets whether the colour-swapped position's moves count too.
    pub fn set_swap(&mut self, swap: bool) {
        self.swap = swap;
    }

    /// The next moves of the play board's position.
    pub fn next_moves(&self) -> Result<NextMoves, SessionError> {
        self.next_moves_of(self.board())
    }

    /// The next moves of `board`, counting only the occurrences from games the filter
    /// accepts, with the colour-swapped position's if the swap is on.
    pub fn next_moves_of(&self, board: &Board) -> Result<NextMoves, SessionError> {
        self.filter
            .next_moves(self.index, board, self.swap)
            .map_err(SessionError::Search)
    }

    /// The games that reached the play board's position (and, with the swap on, the
    /// colour-swapped position) and pass the filter, newest first.
    pub fn games(&self, page: Page) -> GameList {
        games::list(
            self.index,
            self.board(),
            self.swap,
            &self.filter,
            Sort::default(),
            page,
        )
    }

    /// Opens game `id` at its position after `at` moves.
    pub fn open_game(&mut self, id: u32, at: u32) -> Result<GameView<'i>, SessionError> {
        let game = self
            .index
            .game(id)
            .ok_or_else(|| SessionError::NoSuchGame {
                id,
                last: self.index.game_count().saturating_sub(1),
            })?;
        if at > game.move_count {
            return Err(SessionError::PastTheEnd {
                id,
                moves: game.move_count,
            });
        }
        self.viewing = Some(Viewing {
            game: id,
            at,
            moves: game.move_count,
        });
        self.game_view()
    }

    /// Moves the opened game `n` moves forward (or back), stopping at its ends.
    pub fn step_game(&mut self, n: u32, forward: bool) -> Result<GameView<'i>, SessionError> {
        let v = self.viewing.as_mut().ok_or(SessionError::NoGame)?;
        let to = if forward {
            v.at.saturating_add(n).min(v.moves)
        } else {
            v.at.saturating_sub(n)
        };
        if to == v.at {
            return Err(if forward {
                SessionError::AtTheEnd {
                    id: v.game,
                    moves: v.moves,
                }
            } else {
                SessionError::AtTheStart
            });
        }
        v.at = to;
        self.game_view()
    }

    /// The opened game at its current position.
    pub fn game_view(&self) -> Result<GameView<'i>, SessionError> {
        let v = self.viewing.ok_or(SessionError::NoGame)?;
        let unplayable = SessionError::Unplayable {
            id: v.game,
            at: v.at,
        };
        let game = self.index.game(v.game).ok_or(unplayable.clone())?;
        let stored = self.index.stored_game(v.game).ok_or(unplayable.clone())?;
        let mut replay = self.index.replay(v.game).ok_or(unplayable.clone())?;
        if !replay.seek(v.at) {
            return Err(unplayable);
        }
        let next = replay.next_move();
        Ok(GameView {
            game,
            at: v.at,
            moves: v.moves,
            board: replay.into_board(),
            last: v.at.checked_sub(1).and_then(|i| stored.move_at(i)),
            next,
        })
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

    #[test]
    fn a_listed_game_replays_as_the_index_stores_it() {
        let bytes = crate::sample::sample_index().unwrap();
        let index = Index::open(&bytes).unwrap();
        let mut s = Session::new(&index);
        let v = s.open_game(3, 20).unwrap();
        assert_eq!(v.board, index.position(3, 20).unwrap());
        let moves: Vec<(Color, Move)> = index.events(3).filter_map(Event::play).collect();
        assert_eq!(v.last, Some(moves[19]));
        assert_eq!(v.next, Some(moves[20]));
        let v = s.step_game(1000, true).unwrap();
        assert_eq!((v.at, v.next), (v.moves, None));
        assert!(matches!(
            s.step_game(1, true),
            Err(SessionError::AtTheEnd { id: 3, .. })
        ));
        assert_eq!(s.step_game(1000, false).unwrap().at, 0);
        assert_eq!(s.step_game(1, false).err(), Some(SessionError::AtTheStart));
        assert!(matches!(
            s.open_game(99_999, 0),
            Err(SessionError::NoSuchGame { .. })
        ));
    }
}
