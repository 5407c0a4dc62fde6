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
//!   next point while it is being placed is taken back and played where it lands), unless
//!   a new stone captured it (the longest record one new stone explains is kept);
//! - the moves last taken back are remembered while they would be provisional: they come
//!   back when a new stone captures them after all, and when their stones show again with
//!   later moves they are played first, in their order;
//! - a settled last move whose stone goes while one stone of its colour shows elsewhere,
//!   nothing else changed, is moved there, provisional again (a phantom that stood
//!   [`STABLE`] snapshots, then the real move);
//! - the stones a move captured count as captured stones (to be lifted, never a new move)
//!   until the next move, or until every one of them has read empty on [`STABLE`]
//!   snapshots in a row (a captured stone that flickers back is still a captured stone).
//!
//! A recorded stone that reads empty (flicker, a hand, a stone lifted) is answered
//! [`Condition::Restore`] while it is missing, and nothing else happens: when it is back
//! the board is consistent again. A pass cannot be seen: a stone of the side not to move is
//! [`Condition::WrongColor`].
//!
//! Memory: a [`Tracker`] is 2,560 bytes (the record 2,208 with its 1,024 moves; the
//! record's position, a board of stones only; the captured stones; the provisional moves'
//! counts; the moves last taken back). Everything is fixed arrays and bit sets, nothing panics on any snapshot.

mod record;

pub use record::{Record, MAX_MOVES};

use crate::board::{Board, Rules, StonesOnly, Tracking};
use crate::point::{Color, Move, Point};
use crate::pointset::PointSet;
use crate::predict::History;

/// How many snapshots in a row settle a change (see the module documentation): a move's
/// stone seen on 3 snapshots is final, captured stones read empty on 3 are gone. At 5 to 10
/// snapshots a second, misreadings shorter than 0.3 to 0.6 s change nothing.
pub const STABLE: u8 = 3;

/// The most moves provisional at once: an older one is settled when another is recorded.
const MAX_PROVISIONAL: usize = 8;

/// The most new stones tried as the move that captured a provisional move's stone.
const MAX_TRIED: usize = 4;

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
    /// Whether every captured stone has read empty on some snapshot (they were lifted,
    /// or misread) since the move that captured them.
    captured_lifted: bool,
    /// Moves `settled..` are provisional.
    settled: u16,
    /// Snapshots in a row each provisional move's stone was seen on (`seen[i]` for move
    /// `settled + i`).
    seen: [u8; MAX_PROVISIONAL],
    /// The points (`y * 19 + x`) of the moves last taken back, moves `undone_at..` of a
    /// record that was: a branch that may come back, and the order in which their stones,
    /// seen again together, are played again.
    undone: [u16; MAX_PROVISIONAL],
    undone_at: u16,
    undone_len: u8,
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
            captured_lifted: false,
            settled: 0,
            seen: [0; MAX_PROVISIONAL],
            undone: [0; MAX_PROVISIONAL],
            undone_at: 0,
            undone_len: 0,
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
        self.captured_lifted = false;
        self.settled = 0;
        self.seen = [0; MAX_PROVISIONAL];
        self.undone_len = 0;
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
        if verdict == Seen::Consistent {
            self.count_provisional();
        }
        verdict
    }

    /// Takes back provisional moves whose stones are not on the board: from the first
    /// of them, every move but those the snapshot still explains. Moves are kept up to the
    /// longest record whose missing provisional stones one new stone on the board captures
    /// (the next move took them: a provisional move captured at once, perhaps after a
    /// phantom move recorded meanwhile, which then goes). The moves last taken back are a
    /// second branch: when they explain a longer record (a move taken back while its stone
    /// read wrong, captured at once by the next move), they come back.
    fn take_back_missing(&mut self, seen: &[PointSet; 2]) {
        let len = self.record.len();
        let Some(first) = (self.settled()..len).find(|&i| {
            self.record
                .get(i)
                .is_some_and(|m| is_missing(&self.board, m, seen))
        }) else {
            return;
        };
        let record = &self.record;
        let (mut keep, mut board) =
            longest_explained(record, first, len, seen, |i| record.get(i).map(|m| m.1));
        let mut from_undone = false;
        let undone_at = self.undone_at as usize;
        if self.undone_len > 0 && undone_at <= first {
            let undone = &self.undone;
            let end = undone_at + self.undone_len as usize;
            let (n, b) = longest_explained(record, undone_at, end, seen, |i| {
                undone
                    .get(i - undone_at)
                    .and_then(|&p| Point::from_index19(p))
            });
            if n > keep {
                (keep, board, from_undone) = (n, b, true);
            }
        }
        if keep == len && !from_undone {
            return;
        }
        // The moves taken back now, remembered as the other branch.
        let base = if from_undone { undone_at } else { keep };
        let mut taken = [0u16; MAX_PROVISIONAL];
        let mut n = 0;
        for (slot, i) in taken.iter_mut().zip(base..len) {
            if let Some((_, p)) = self.record.get(i) {
                *slot = p.index19();
                n += 1;
            }
        }
        if from_undone {
            self.record.truncate(undone_at);
            for i in undone_at..keep {
                let p = self.undone[i - undone_at];
                if let Some(p) = Point::from_index19(p) {
                    let _ = self.record.push(p);
                }
            }
        } else {
            self.record.truncate(keep);
        }
        (self.undone, self.undone_at, self.undone_len) = (taken, base as u16, n);
        self.board = board;
        let from = base.saturating_sub(self.settled()).min(MAX_PROVISIONAL);
        self.seen[from..].fill(0);
        // Stones captured by the moves taken back are on the record's board again.
        let occupied = *self.board.stones(Color::Black) | *self.board.stones(Color::White);
        for c in &mut self.captured {
            *c = *c - occupied;
        }
        self.generation = self.generation.wrapping_add(1);
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
            self.captured_lifted = true;
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
        if self.settled > self.undone_at {
            // The branch taken back forks before a final move: it cannot come back.
            self.undone_len = 0;
        }
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
            let to_move = self.to_move();
            let mut left = (new & seen[0] & self.captured[0]) | (new & seen[1] & self.captured[1]);
            if self.recaptures(left, seen, to_move) {
                left = PointSet::EMPTY;
            }
            let fresh = new - left;
            let candidates = fresh & seen[to_move.index()];
            let pick = match candidates.len() {
                1 => candidates.first(),
                _ => self.redone(candidates),
            };
            if let (true, Some(p)) = (left.is_empty(), pick) {
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
            if left.is_empty() && self.moved_last(missing, fresh, seen) {
                continue;
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

    /// The first of the moves last taken back whose stone is among `candidates` (new
    /// stones of the side to move): when they are seen again with other moves since, they
    /// are played again in their order.
    fn redone(&self, candidates: PointSet) -> Option<Point> {
        self.undone
            .iter()
            .take(self.undone_len as usize)
            .filter_map(|&p| Point::from_index19(p))
            .find(|&p| candidates.contains(p))
    }

    /// Whether the record's last move, settled, was moved before the other side played:
    /// its stone is the one recorded stone `missing`, the one new stone (`fresh`) is of its
    /// colour, and played there instead (from the position before it) neither move
    /// captures and the snapshot is the record's position. Then the move is replaced,
    /// provisional again (it moves back if its stone goes and the old one returns, or comes
    /// back captured if a new stone of the other side takes it). A move
    /// still provisional is taken back when its stone goes; one settled by a phantom that
    /// stood [`STABLE`] snapshots (two misreadings of a point in a row, or one followed by
    /// a stone slid over it) is moved here when the real move comes.
    fn moved_last(&mut self, missing: PointSet, fresh: PointSet, seen: &[PointSet; 2]) -> bool {
        let len = self.record.len();
        let (Some((color, p)), Some(q)) = (self.record.get(len.wrapping_sub(1)), fresh.first())
        else {
            return false;
        };
        if self.settled() < len
            || missing != PointSet::single(p)
            || fresh.len() != 1
            || !seen[color.index()].contains(q)
        {
            return false;
        }
        let mut before = Board::empty(self.record.size(), Rules::STANDARD);
        let _ = self.record.replay_to(&mut before, len - 1, |_, _| {});
        let mut was = before.clone();
        if !was
            .play(color, Move::Play(p))
            .is_ok_and(|caps| caps.points.is_empty())
        {
            return false;
        }
        let mut after = before;
        match after.play(color, Move::Play(q)) {
            Ok(caps)
                if caps.points.is_empty()
                    && *after.stones(Color::Black) == seen[0]
                    && *after.stones(Color::White) == seen[1] => {}
            _ => return false,
        }
        self.record.truncate(len - 1);
        self.settled -= 1;
        self.seen = [0; MAX_PROVISIONAL];
        // The move replaced is the branch that may come back (its stone was captured by
        // a move whose stone misread as the moved one, and the capturing stone reads right
        // again).
        self.undone[0] = p.index19();
        (self.undone_at, self.undone_len) = ((len - 1) as u16, 1);
        if !self.record.push(q) {
            return false;
        }
        self.played(after, PointSet::EMPTY, color);
        true
    }

    /// Whether the one captured stone back on the board (`left`: the captured stones
    /// have all read empty since they were captured, and every other one still does) is a
    /// move of the side to move that captures: a snapback played at once on the point its
    /// stone was just taken from. (A captured stone misread as empty and back would capture
    /// as well, but the stones it takes stay on the board: the move stays provisional until
    /// they are lifted, and is taken back when its stone goes.)
    fn recaptures(&self, left: PointSet, seen: &[PointSet; 2], to_move: Color) -> bool {
        let captured = self.captured[0] | self.captured[1];
        match (left.len(), left.first()) {
            (1, Some(p))
                if self.captured_lifted
                    && seen[to_move.index()].contains(p)
                    && captured & (seen[0] | seen[1]) == left =>
            {
                let mut after = self.board.clone();
                after
                    .play(to_move, Move::Play(p))
                    .is_ok_and(|caps| !caps.points.is_empty())
            }
            _ => false,
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
        self.captured_lifted = false;
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

/// Whether the recorded move `(color, p)` on `board` is missing from the snapshot `seen`.
fn is_missing(board: &Board<StonesOnly>, (color, p): (Color, Point), seen: &[PointSet; 2]) -> bool {
    board.stones(color).contains(p) && !seen[color.index()].contains(p)
}

/// The longest record `record[..first]` then the moves `point(first..end)` (colours
/// alternating) explains the snapshot as far as its provisional moves go: every move from
/// `first` whose stone is missing is captured by one new stone of the side to move (see
/// [`captured_by_next`]). At least `first` moves; with the position after them.
fn longest_explained(
    record: &Record,
    first: usize,
    end: usize,
    seen: &[PointSet; 2],
    point: impl Fn(usize) -> Option<Point>,
) -> (usize, Board<StonesOnly>) {
    // The record's position after `first` moves, then after each later one (with the
    // stones its last move captured, which may still be on the board).
    let mut board = Board::empty(record.size(), Rules::STANDARD);
    let mut last_captures = PointSet::EMPTY;
    let _ = record.replay_to(&mut board, first, |_, c| last_captures = *c);
    let mut keep = (first, board.clone());
    for n in first + 1..=end {
        let (color, Some(p)) = (record.color_of(n - 1), point(n - 1)) else {
            break;
        };
        match board.play(color, Move::Play(p)) {
            Ok(caps) => last_captures = caps.points,
            Err(_) => break,
        }
        let gone = (first..n)
            .filter_map(|i| Some((record.color_of(i), point(i)?)))
            .filter(|&m| is_missing(&board, m, seen))
            .fold(PointSet::EMPTY, |set, (_, p)| set | PointSet::single(p));
        let to_move = record.color_of(n);
        if captured_by_next(&board, to_move, gone, last_captures, seen) {
            keep = (n, board.clone());
        }
    }
    keep
}

/// Whether a new stone of `to_move` on the snapshot `seen`, played on `board`, captures
/// every stone of `gone` (recorded stones missing from the snapshot): the next move took
/// them. The stones the record's last move captured (`last_captures`) are not new stones
/// (they may still be on the board); a few new stones are tried (one may be a phantom).
fn captured_by_next(
    board: &Board<StonesOnly>,
    to_move: Color,
    gone: PointSet,
    last_captures: PointSet,
    seen: &[PointSet; 2],
) -> bool {
    if gone.is_empty() {
        return true;
    }
    let occupied = *board.stones(Color::Black) | *board.stones(Color::White);
    let new = seen[to_move.index()] - occupied - last_captures;
    new.len() <= MAX_TRIED
        && new.iter().any(|p| {
            let mut after = board.clone();
            after
                .play(to_move, Move::Play(p))
                .is_ok_and(|caps| gone.is_subset(&caps.points))
        })
}

#[cfg(test)]
mod tests;
