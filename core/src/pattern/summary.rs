//! What pattern search keeps of each game besides its moves, computed by one replay of
//! its setup and moves with captures ([`summarize`], the function the index builder calls
//! per game), and the byte layouts of these records (encoders here, beside the reader in
//! [`super::accel`]).
//!
//! - [`GameSummary`]: the points that ever held a black / a white stone, whether the game
//!   is searched (19x19) and its winner;
//! - [`CornerLog`]s: for each 7x7 corner box, its first changes and the points emptied
//!   after them (see [`super::corner`]);
//! - the removed stones: every stone a move removed, as (move number, point).

use crate::board::{Board, Rules, StonesOnly};
use crate::event::Event;
use crate::point::{Color, Move, Point, Size, Stone};
use crate::pointset::PointSet;
use crate::stored::StoredGame;

use super::corner::{
    CornerLog, CornerLogger, BECAME_BLACK, BECAME_EMPTY, BECAME_WHITE, CORNER_BYTES,
    GAME_CORNER_BYTES,
};

/// What the blocks hold of one game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSummary {
    /// Whether pattern search reads the game (a 19x19 board).
    pub searched: bool,
    /// The winner by the record.
    pub winner: Option<Color>,
    /// Points that ever held a black stone (setup included).
    pub ever_black: PointSet,
    /// Points that ever held a white stone.
    pub ever_white: PointSet,
    /// The four corner boxes.
    pub corners: [CornerLog; 4],
}

impl GameSummary {
    /// The game's four corner records, bytes as stored.
    pub fn corner_bytes(&self) -> [u8; GAME_CORNER_BYTES] {
        let mut out = [0u8; GAME_CORNER_BYTES];
        for (chunk, log) in out.chunks_exact_mut(CORNER_BYTES).zip(&self.corners) {
            chunk.copy_from_slice(&log.to_bytes());
        }
        out
    }
}

/// What the replay of [`summarize`] notes of each change.
struct Notes {
    summary: GameSummary,
    logger: CornerLogger,
}

impl Notes {
    fn changed(&mut self, p: Point, old: Stone, new: Stone) {
        if old == new {
            return;
        }
        if old != Stone::Empty {
            self.logger.change(p, BECAME_EMPTY);
        }
        match new {
            Stone::Black => {
                self.summary.ever_black.insert(p);
                self.logger.change(p, BECAME_BLACK);
            }
            Stone::White => {
                self.summary.ever_white.insert(p);
                self.logger.change(p, BECAME_WHITE);
            }
            Stone::Empty => {}
        }
    }
}

/// Replays a stored game with captures (its events, [`StoredGame::events`]): its summary,
/// and every removed stone passed to `removed` as (move number, point) in order. Games not
/// on a 19x19 board are not searched: an empty summary, no removals.
pub fn summarize<G: StoredGame>(
    game: &G,
    winner: Option<Color>,
    mut removed: impl FnMut(u32, Point),
) -> GameSummary {
    let size = game.size();
    let mut s = GameSummary {
        winner,
        ..GameSummary::default()
    };
    if size != Size::STANDARD {
        return s;
    }
    s.searched = true;
    let mut notes = Notes {
        summary: s,
        logger: CornerLogger::default(),
    };
    let mut board: Board<StonesOnly> = Board::empty(size, Rules::RECORD);
    let mut n = 0u32;
    for event in game.events() {
        match event {
            Event::Setup { point: p, stone } => {
                let old = board.get(p);
                if board.set_stone(p, stone).is_ok() {
                    if n > 0 && old != stone {
                        notes.logger.late_setup(p);
                    }
                    notes.changed(p, old, stone);
                }
            }
            Event::Play { color, mv } => {
                notes.logger.end_position(n);
                n += 1;
                if let Ok(caps) = board.play(color, mv) {
                    if let Move::Play(p) = mv {
                        // A suicide removes the played stone with its group: the box
                        // sees it come and go.
                        notes.changed(p, Stone::Empty, Stone::of(color));
                    }
                    let lost = if caps.own {
                        Stone::of(color)
                    } else {
                        Stone::of(color.opponent())
                    };
                    for p in caps.points.iter() {
                        notes.changed(p, lost, Stone::Empty);
                        removed(n, p);
                    }
                }
            }
        }
    }
    notes.logger.end_position(n);
    let mut s = notes.summary;
    s.corners = notes.logger.logs();
    s
}

/// A removal record: bits 0-8 the point code, bits 9-24 the move number.
pub fn removal_record(move_number: u32, p: Point) -> u64 {
    p.index19() as u64 | (move_number as u64) << 9
}
