//! Following a game from the snapshots of an electronic board ([`Tracker`]): a board does
//! not send moves, it sends what its sensors see, again and again. The tracker turns the
//! successive snapshots into a game [`Record`] (`docs/HINTS.md`, "Tracking a game").
//!
//! The first snapshot is the setup (White moves first if its stones are all black, else
//! the side the snapshot names, else Black when both colours have as many stones). Each
//! later snapshot is compared with the record's position (the setup and the moves played
//! with their captures, simple ko and no suicide, as a `moves` request plays them):
//!
//! - the same stones: the board is **consistent**;
//! - one new stone of the side to move where it may play, every other stone as recorded but
//!   for stones that move captures (which may still be on the board, or already gone): the
//!   stone is the next **move**; the captured stones still on the board must then be lifted
//!   ([`Condition::Remove`]), over as many snapshots as it takes. The other new stones are
//!   then judged again: both players may have moved between two snapshots;
//! - anything else is a [`Fix`]: a [`Condition`] and the points it concerns, and the record
//!   waits until the board is consistent again (or a new record starts: resynchronising).
//!
//! **Noise.** A sensor may misread a point for a snapshot or two (flicker), a hand over the
//! board hides the stones under it, a stone is lifted and put back. None of this changes
//! the record, by two rules counted in snapshots ([`STABLE`]):
//!
//! - a move is *provisional* until its stone has been seen on [`STABLE`] snapshots in a row
//!   (the one it appeared on included): if its stone is gone before, the move is taken
//!   back, as if it had never been played (a flickering phantom stone; a stone slid to the
//!   next point while it is being placed is taken back and played where it lands);
//! - the stones a move captured count as captured stones (to be lifted, never a new move)
//!   until the next move, or until every one of them has read empty on [`STABLE`]
//!   snapshots in a row (a captured stone that flickers back is still a captured stone).
//!
//! A recorded stone that reads empty (flicker, a hand, a stone lifted) is answered
//! [`Condition::Restore`] while it is missing, and nothing else happens: when it is back
//! the board is consistent again. A pass cannot be seen: a stone of the side not to move is
//! [`Condition::WrongColor`].
//!
//! Memory: a [`Tracker`] is 2,540 bytes (the record 2,208 with its 1,024 moves; the
//! record's position, a board of stones only; the captured stones; the provisional moves'
//! counts). Everything is fixed arrays and bit sets, nothing panics on any snapshot.

mod record;

pub use record::{Record, MAX_MOVES};

use crate::board::{Board, Rules, StonesOnly, Tracking};
use crate::point::{Color, Move};
use crate::pointset::PointSet;
use crate::predict::History;

/// How many snapshots in a row settle a change (see the module documentation): a move's
/// stone seen on 3 snapshots is final, captured stones read empty on 3 are gone. At 5 to 10
/// snapshots a second, misreadings shorter than 0.3 to 0.6 s change nothing.
pub const STABLE: u8 = 3;

/// The most moves provisional at once: an older one is settled when another is recorded.
const MAX_PROVISIONAL: usize = 8;

/// What is wrong with a snapshot that is neither the record's position nor its next move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Condition {
    /// Stones to lift: stones a move captured that are still on the board, or more than one
    /// new stone (the points: all of them).
    Remove,
    /// Recorded stones that are missing, or of the other colour (the points: where they
    /// belong).
    Restore,
    /// One new stone of the side that is not to move.
    WrongColor,
    /// One new stone of the side to move where it may not play (suicide, or retaking a ko
    /// at once).
    IllegalMove,
    /// The record holds [`MAX_MOVES`] moves: no more can be recorded (the point: the new
    /// stone).
    RecordFull,
}

impl Condition {
    /// The word of the `fix` reply.
    pub const fn as_str(self) -> &'static str {
        match self {
            Condition::Remove => "remove",
            Condition::Restore => "restore",
            Condition::WrongColor => "wrong-color",
            Condition::IllegalMove => "illegal-move",
            Condition::RecordFull => "record-full",
        }
    }
}

/// A condition and the points it concerns (never empty).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Fix {
    /// What is wrong.
    pub condition: Condition,
    /// Where.
    pub points: PointSet,
}

/// What a snapshot showed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Seen {
    /// The board holds the record's position (perhaps after recording a move, or taking
    /// a provisional one back).
    Consistent,
    /// The board must be fixed; the record waits.
    Fix(Fix),
}

/// Turns successive snapshots into a game record (see the module documentation).
#[derive(Clone, Debug)]
pub struct Tracker {
    record: Record,
    /// The record's position.
    board: Board<StonesOnly>,
    /// Captured stones by colour, not yet known to be lifted.
    captured: [PointSet; 2],
    /// Snapshots in a row on which every captured stone read empty.
    captured_gone: u8,
    /// Moves `settled..` are provisional.
    settled: u16,
    /// Snapshots in a row each provisional move's stone was seen on (`seen[i]` for move
    /// `settled + i`).
    seen: [u8; MAX_PROVISIONAL],
    /// Changes whenever the record's position does.
    generation: u32,
}

impl Default for Tracker {
    fn default() -> Self {
        Self::new()
    }
}

impl Tracker {
    /// A tracker waiting for the first snapshot of a new record.
    pub fn new() -> Tracker {
        Tracker {
            record: Record::new(),
            board: Board::empty(crate::point::Size::STANDARD, Rules::STANDARD),
            captured: [PointSet::EMPTY; 2],
            captured_gone: 0,
            settled: 0,
            seen: [0; MAX_PROVISIONAL],
            generation: 0,
        }
    }

    /// Starts a new record: the next snapshot is its setup.
    pub fn reset(&mut self) {
        // In place: a second tracker on a microcontroller's stack would cost 2.5 KB.
        self.record.clear();
        self.board = Board::empty(crate::point::Size::STANDARD, Rules::STANDARD);
        self.captured = [PointSet::EMPTY; 2];
        self.captured_gone = 0;
        self.settled = 0;
        self.seen = [0; MAX_PROVISIONAL];
        self.generation = self.generation.wrapping_add(1);
    }

    /// The record so far.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The record's position (the rules of a `moves` request: simple ko, no suicide).
    pub fn board(&self) -> &Board<StonesOnly> {
        &self.board
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.record.to_move()
    }

    /// The last two moves, as the predictor knows them.
    pub fn history(&self) -> History {
        History {
            last: self.record.back(0),
            before: self.record.back(1),
        }
    }

    /// How many moves are final (not provisional).
    pub fn settled(&self) -> usize {
        self.settled as usize
    }

    /// A number that changes whenever the record's position does (a new record, a move
    /// recorded or taken back): a reply computed for one generation holds while it lasts.
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// Whether the record waits for its first snapshot.
    pub fn is_waiting(&self) -> bool {
        !self.record.is_started()
    }

    /// Starts the record from the first snapshot: its stones are the setup. White moves
    /// first if they are all black; otherwise `named` if the snapshot names the side to
    /// move, else Black when both colours have as many stones, else White.
    pub fn start<T: Tracking>(&mut self, snapshot: &Board<T>, named: Option<Color>) {
        let black = snapshot.stones(Color::Black).len();
        let white = snapshot.stones(Color::White).len();
        let first = if black > 0 && white == 0 {
            Color::White
        } else if let Some(c) = named {
            c
        } else if black == white {
            Color::Black
        } else {
            Color::White
        };
        self.record.start(snapshot, first);
        self.board = Board::empty(snapshot.size(), Rules::STANDARD);
        // A replay of no moves puts the setup on the board.
        let _ = self.record.replay(&mut self.board, |_, _| {});
        self.generation = self.generation.wrapping_add(1);
    }

    /// Compares a snapshot (of the record's size) with the record: records a move, takes
    /// provisional moves back, or says what to fix (see the module documentation).
    pub fn see<T: Tracking>(&mut self, snapshot: &Board<T>) -> Seen {
        let seen = [
            *snapshot.stones(Color::Black),
            *snapshot.stones(Color::White),
        ];
        self.take_back_missing(&seen);
        self.note_captured(&seen);
        let verdict = self.judge(&seen);
        self.count_provisional();
        verdict
    }

    /// Takes back the first provisional move whose stone is not on the board (and every
    /// move after it).
    fn take_back_missing(&mut self, seen: &[PointSet; 2]) {
        let first_missing = (self.settled()..self.record.len()).find(|&i| {
            self.record.get(i).is_some_and(|(color, p)| {
                let stones = self.board.stones(color);
                stones.contains(p) && !seen[color.index()].contains(p)
            })
        });
        if let Some(i) = first_missing {
            if self.captured_by_next(seen) {
                return;
            }
            self.record.truncate(i);
            let _ = self.record.replay(&mut self.board, |_, _| {});
            // Stones captured by the moves taken back are on the record's board again.
            let occupied = *self.board.stones(Color::Black) | *self.board.stones(Color::White);
            for c in &mut self.captured {
                *c = *c - occupied;
            }
            self.generation = self.generation.wrapping_add(1);
        }
    }

    /// Whether the recorded stones missing from `seen` are all captured by one new stone
    /// of the side to move: then a provisional move whose stone is gone was captured, not
    /// misread.
    fn captured_by_next(&self, seen: &[PointSet; 2]) -> bool {
        let record = [
            *self.board.stones(Color::Black),
            *self.board.stones(Color::White),
        ];
        let missing = (record[0] - seen[0]) | (record[1] - seen[1]);
        let to_move = self.to_move();
        let new = seen[to_move.index()] - (record[0] | record[1]);
        match (new.len(), new.first()) {
            (1, Some(p)) => {
                let mut after = self.board.clone();
                after
                    .play(to_move, Move::Play(p))
                    .is_ok_and(|caps| missing.is_subset(&caps.points))
            }
            _ => false,
        }
    }

    /// Forgets the captured stones once all of them have read empty [`STABLE`] times in a
    /// row.
    fn note_captured(&mut self, seen: &[PointSet; 2]) {
        let captured = self.captured[0] | self.captured[1];
        if captured.is_empty() {
            return;
        }
        if captured.intersects(&(seen[0] | seen[1])) {
            self.captured_gone = 0;
        } else {
            self.captured_gone = self.captured_gone.saturating_add(1);
            if self.captured_gone >= STABLE {
                self.captured = [PointSet::EMPTY; 2];
            }
        }
    }

    /// Counts a snapshot for the provisional moves (whose stones are all on the board,
    /// [`Tracker::take_back_missing`] saw to it) and settles those seen often enough.
    fn count_provisional(&mut self) {
        let pending = self.record.len() - self.settled();
        for s in self.seen.iter_mut().take(pending) {
            *s = s.saturating_add(1);
        }
        while self.settled() < self.record.len() && self.seen[0] >= STABLE {
            self.settle_one();
        }
    }

    /// Makes the oldest provisional move final.
    fn settle_one(&mut self) {
        self.seen.copy_within(1.., 0);
        if let Some(last) = self.seen.last_mut() {
            *last = 0;
        }
        self.settled += 1;
    }

    /// The verdict on a snapshot after the provisional moves are checked: as long as one
    /// of the new stones is a move of the side to move, it is recorded and the rest judged
    /// again (both players may have moved between two snapshots; a phantom stone of the
    /// other colour becomes a provisional move, taken back when it goes).
    fn judge(&mut self, seen: &[PointSet; 2]) -> Seen {
        let fix = |condition, points| Seen::Fix(Fix { condition, points });
        loop {
            let record = [
                *self.board.stones(Color::Black),
                *self.board.stones(Color::White),
            ];
            let occupied = record[0] | record[1];
            let missing = (record[0] - seen[0]) | (record[1] - seen[1]);
            let new = (seen[0] | seen[1]) - occupied;
            if missing.is_empty() && new.is_empty() {
                return Seen::Consistent;
            }
            let left = (new & seen[0] & self.captured[0]) | (new & seen[1] & self.captured[1]);
            let fresh = new - left;
            let to_move = self.to_move();
            let candidates = fresh & seen[to_move.index()];
            if let (true, Some(p)) = (left.is_empty() && candidates.len() == 1, candidates.first())
            {
                let mut after = self.board.clone();
                match after.play(to_move, Move::Play(p)) {
                    Ok(caps) if missing.is_subset(&caps.points) => {
                        if !self.record.push(p) {
                            return fix(Condition::RecordFull, PointSet::single(p));
                        }
                        self.played(after, caps.points, to_move);
                        continue;
                    }
                    Ok(caps)
                        if self.next_explains(
                            &after,
                            fresh - PointSet::single(p),
                            &seen[to_move.opponent().index()],
                            missing - caps.points,
                        ) =>
                    {
                        if !self.record.push(p) {
                            return fix(Condition::RecordFull, PointSet::single(p));
                        }
                        self.played(after, caps.points, to_move);
                        continue;
                    }
                    Ok(caps) => return fix(Condition::Restore, missing - caps.points),
                    Err(_) if missing.is_empty() && fresh.len() == 1 => {
                        return fix(Condition::IllegalMove, PointSet::single(p))
                    }
                    Err(_) => {}
                }
            }
            return if !missing.is_empty() {
                fix(Condition::Restore, missing)
            } else if !left.is_empty() {
                fix(Condition::Remove, left)
            } else if candidates.len() >= 2 || fresh.len() >= 2 {
                fix(Condition::Remove, fresh)
            } else {
                // One new stone, of the side not to move.
                fix(Condition::WrongColor, fresh)
            };
        }
    }

    /// Whether, after a move (the position `after`), the one other new stone `others` is a
    /// stone of the other side (`theirs`) whose move captures every recorded stone still
    /// `missing`: both players moved between two snapshots, and the second move captured.
    fn next_explains(
        &self,
        after: &Board<StonesOnly>,
        others: PointSet,
        theirs: &PointSet,
        missing: PointSet,
    ) -> bool {
        match (others.len(), others.first()) {
            (1, Some(q)) if theirs.contains(q) => {
                let mut then = after.clone();
                then.play(self.to_move().opponent(), Move::Play(q))
                    .is_ok_and(|caps| missing.is_subset(&caps.points))
            }
            _ => false,
        }
    }

    /// Notes a move just pushed on the record: its position, its captures, a provisional
    /// count.
    fn played(&mut self, after: Board<StonesOnly>, captures: PointSet, mover: Color) {
        self.board = after;
        self.captured = [PointSet::EMPTY; 2];
        self.captured[mover.opponent().index()] = captures;
        self.captured_gone = 0;
        let pending = self.record.len() - self.settled();
        if pending > MAX_PROVISIONAL {
            self.settle_one();
        }
        let i = self.record.len() - self.settled() - 1;
        if let Some(s) = self.seen.get_mut(i) {
            *s = 0;
        }
        self.generation = self.generation.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests;
