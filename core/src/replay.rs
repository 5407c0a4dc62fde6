//! [`Replay`]: a board plus an undo history of up to `N` steps (moves, passes and setup
//! stones, each an [`Event`]), without allocation.
//!
//! Each step is stored in 8 bytes: the move and its colour, which neighbours' groups it
//! captured (4 bits: the captured stones are found again on undo as the empty regions
//! next to the played stone, which they exactly are right after the move), whether it was
//! a suicide, the previous ko state and pass count, and a 32-bit fingerprint of the
//! position's Zobrist key after the step.
//!
//! Under [`KoRule::PositionalSuperko`] a stone play that recreates any position held in
//! the history (the starting position included) is refused with [`MoveError::Superko`].
//! The fingerprints only pre-filter: a match is confirmed by rebuilding the earlier
//! position (undoing a copy of the board) and comparing every stone, so the check is
//! exact against the whole history. Passes never violate superko.

use crate::board::{Board, Captures, KoRule, MoveError, Rules};
use crate::event::Event;
use crate::point::{Color, Move, Point, Size, Stone, MAX_POINTS};

/// A packed step (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Record {
    /// bits 0..9 point code (361 = pass), 9..11 kind (0 black, 1 white, 2 setup),
    /// 11..15 capture directions (play) or previous and new stone (setup), 15 suicide,
    /// 16..25 previous ko point code (511 = none), 25 previous ko colour (1 = white),
    /// 26..32 previous pass count.
    bits: u32,
    /// Low 32 bits of key 0 after the step.
    fp: u32,
}

const NO_KO: u32 = 511;
const KIND_SETUP: u32 = 2;

fn stone_code(s: Stone) -> u32 {
    s.code() as u32
}

fn stone_of(code: u32) -> Stone {
    Stone::from_code((code & 3) as u8).unwrap_or(Stone::Empty)
}

impl Record {
    fn new(code: u32, kind: u32, extra: u32, suicide: bool, board: &Board) -> Record {
        let (ko, koc) = match board.ko() {
            Some((p, c)) => (p.index19() as u32, c.index() as u32),
            None => (NO_KO, 0),
        };
        Record {
            bits: (code & 511)
                | (kind & 3) << 9
                | (extra & 15) << 11
                | (suicide as u32) << 15
                | ko << 16
                | koc << 25
                | (board.passes() as u32 & 63) << 26,
            fp: 0,
        }
    }

    fn code(self) -> u16 {
        (self.bits & 511) as u16
    }
    fn kind(self) -> u32 {
        (self.bits >> 9) & 3
    }
    fn extra(self) -> u32 {
        (self.bits >> 11) & 15
    }
    fn suicide(self) -> bool {
        (self.bits >> 15) & 1 != 0
    }
    fn prev_ko(self) -> Option<(Point, Color)> {
        let code = (self.bits >> 16) & 511;
        let color = if (self.bits >> 25) & 1 != 0 {
            Color::White
        } else {
            Color::Black
        };
        Point::from_index19(code as u16).map(|p| (p, color))
    }
    fn prev_passes(self) -> u8 {
        (self.bits >> 26) as u8 & 63
    }

    /// The stone a setup step replaced.
    fn previous(self) -> Stone {
        stone_of(self.extra())
    }

    fn event(self) -> Event {
        if self.kind() == KIND_SETUP {
            Event::Setup {
                point: Point::from_index19(self.code()).unwrap_or(Point::new(0, 0)),
                stone: stone_of(self.extra() >> 2),
            }
        } else {
            Event::Play {
                color: if self.kind() == 1 {
                    Color::White
                } else {
                    Color::Black
                },
                mv: Move::from_code(self.code()).unwrap_or(Move::Pass),
            }
        }
    }

    /// Takes this step back on `board` (which must be the position right after it).
    fn unapply(self, board: &mut Board) {
        match self.event() {
            Event::Setup { point, .. } => {
                let _ = board.set_stone(point, self.previous());
            }
            Event::Play {
                color,
                mv: Move::Play(p),
            } => board.unplay(color, p, self.extra() as u8, self.suicide()),
            Event::Play { .. } => {}
        }
        board.restore_state(self.prev_passes(), self.prev_ko());
    }
}

/// The low 32 bits of a board's key 0.
fn fingerprint(board: &Board) -> u32 {
    board.keys().0[0] as u32
}

/// A board with an undo history of up to `N` steps (see the module documentation).
#[derive(Clone, Debug)]
pub struct Replay<const N: usize> {
    board: Board,
    start_fp: u32,
    history: heapless::Vec<Record, N>,
}

impl<const N: usize> Replay<N> {
    /// An empty board of `size` with the default rules.
    pub fn new(size: Size) -> Replay<N> {
        Replay::from_board(Board::new(size))
    }

    /// An empty board of `size` with the given rules.
    pub fn with_rules(size: Size, rules: Rules) -> Replay<N> {
        Replay::from_board(Board::with_rules(size, rules))
    }

    /// Starts from a given position (with its rules); the history is empty.
    pub fn from_board(board: Board) -> Replay<N> {
        Replay {
            start_fp: fingerprint(&board),
            board,
            history: heapless::Vec::new(),
        }
    }

    /// The current position.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Number of steps in the history.
    #[inline]
    pub fn len(&self) -> usize {
        self.history.len()
    }

    /// Whether the history is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.history.is_empty()
    }

    /// The most steps the history holds (`N`).
    #[inline]
    pub const fn capacity(&self) -> usize {
        N
    }

    /// Step `i` of the history (0 is the first).
    pub fn step(&self, i: usize) -> Option<Event> {
        self.history.get(i).map(|r| r.event())
    }

    /// The steps of the history, oldest first.
    pub fn steps(&self) -> impl Iterator<Item = Event> + '_ {
        self.history.iter().map(|r| r.event())
    }

    /// Plays a move (see [`Board::play`]), recording it. Fails with
    /// [`MoveError::HistoryFull`] when `N` steps are held, and with [`MoveError::Superko`]
    /// under positional superko; the position is then unchanged.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<Captures, MoveError> {
        if self.history.is_full() {
            return Err(MoveError::HistoryFull);
        }
        let mut rec = Record::new(
            mv.code() as u32,
            color.index() as u32,
            0,
            false,
            &self.board,
        );
        let caps = self.board.play(color, mv)?;
        if let Move::Play(p) = mv {
            let mut dirs = 0u32;
            if caps.count > 0 && !caps.own {
                let near = [
                    (p.x.wrapping_sub(1), p.y),
                    (p.x.wrapping_add(1), p.y),
                    (p.x, p.y.wrapping_sub(1)),
                    (p.x, p.y.wrapping_add(1)),
                ];
                for (d, &(x, y)) in near.iter().enumerate() {
                    if caps.points.contains(Point::new(x, y)) {
                        dirs |= 1 << d;
                    }
                }
            }
            rec.bits |= dirs << 11 | (caps.own as u32) << 15;
        }
        rec.fp = fingerprint(&self.board);
        if self.history.push(rec).is_err() {
            // Unreachable (checked above); keep the board consistent anyway.
            rec.unapply(&mut self.board);
            return Err(MoveError::HistoryFull);
        }
        if self.board.rules().ko == KoRule::PositionalSuperko
            && matches!(mv, Move::Play(_))
            && self.repeats_earlier()
        {
            self.undo();
            return Err(MoveError::Superko);
        }
        Ok(caps)
    }

    /// What [`Replay::play`] would return (superko included), leaving everything untouched.
    pub fn try_play(&self, color: Color, mv: Move) -> Result<Captures, MoveError> {
        if self.history.is_full() {
            return Err(MoveError::HistoryFull);
        }
        if self.board.rules().ko != KoRule::PositionalSuperko || mv == Move::Pass {
            return self.board.try_play(color, mv);
        }
        self.clone().play(color, mv)
    }

    /// Puts `stone` on `p` as an undoable setup step (see [`Board::set_stone`]).
    pub fn set_stone(&mut self, p: Point, stone: Stone) -> Result<(), MoveError> {
        if !self.board.size().contains(p) {
            return Err(MoveError::OffBoard);
        }
        if self.history.is_full() {
            return Err(MoveError::HistoryFull);
        }
        let prev = self.board.get(p);
        let mut rec = Record::new(
            p.index19() as u32,
            KIND_SETUP,
            stone_code(prev) | stone_code(stone) << 2,
            false,
            &self.board,
        );
        self.board.set_stone(p, stone)?;
        rec.fp = fingerprint(&self.board);
        if self.history.push(rec).is_err() {
            rec.unapply(&mut self.board);
            return Err(MoveError::HistoryFull);
        }
        Ok(())
    }

    /// Takes back the last step, restoring the exact board, hashes, keys, ko point and
    /// pass count. `None` if the history is empty.
    pub fn undo(&mut self) -> Option<Event> {
        let rec = self.history.pop()?;
        rec.unapply(&mut self.board);
        Some(rec.event())
    }

    /// Takes back every step.
    pub fn undo_all(&mut self) {
        while self.undo().is_some() {}
    }

    /// Whether the current position (after the last step) equals an earlier one.
    fn repeats_earlier(&self) -> bool {
        let n = self.history.len();
        let fp = fingerprint(&self.board);
        // Position j (0..n) is the one before step j.
        let fp_before = |j: usize| -> u32 {
            if j == 0 {
                self.start_fp
            } else {
                self.history.get(j - 1).map(|r| r.fp).unwrap_or(0)
            }
        };
        if !(0..n).any(|j| fp_before(j) == fp) {
            return false;
        }
        let mut b = self.board.clone();
        for j in (0..n).rev() {
            if let Some(r) = self.history.get(j) {
                r.unapply(&mut b);
            }
            if fp_before(j) == fp
                && b.stones(Color::Black) == self.board.stones(Color::Black)
                && b.stones(Color::White) == self.board.stones(Color::White)
            {
                return true;
            }
        }
        false
    }
}

// A pass code must not collide with a point code.
const _: () = assert!(MAX_POINTS == 361);
