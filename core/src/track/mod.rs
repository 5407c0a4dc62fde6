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
//! - the moves last taken back are remembered while they would be provisional (a longer
//!   branch over a shorter one taken back at the same point later): they come back when a
//!   new stone captures them after all, and when their stones show again with later moves
//!   they are played first, in their order;
//! - a settled last move whose stone goes while one stone of its colour shows elsewhere,
//!   nothing else changed but for stones that stone captures (to lift), is moved there,
//!   provisional again (a phantom that stood [`STABLE`] snapshots, then the real move); a
//!   last move whose stone goes while one of its colour shows on a neighbouring point,
//!   where played instead (with the other side's answer read at once, perhaps) it gives
//!   the snapshot exactly but for the stones it captured, still to lift, is moved there
//!   too (a stone slid onto a point where it captures);
//! - provisional stones missing below a later move whose stone stands are not phantoms
//!   when two or more recorded stones are missing within a hand's area (3x3 points), or
//!   when the record without them does not explain the standing stones (colours
//!   alternating, legal, no stone before one that showed on an earlier reading): they are
//!   [`Condition::Restore`], and the record keeps its order (but a hand does not rest
//!   over the board while the same `fix` is answered on [`STALLED`] snapshots in a row, or
//!   for [`STALLED_MS`] with `t=`: stones still missing then are phantoms after all); when
//!   moves taken back as phantoms show again with the record's later stones, the record
//!   taken back returns in its order;
//! - a captured stone of the side to move still on the board (another of the capture's
//!   stones lifted) whose move captures the recorded stones now missing is that side's
//!   retake, played between two readings: the capturing stone was taken;
//! - recorded stones missing, no new stone, that one pair of legal moves explains (the
//!   side to move on a point that reads empty, a captured stone of its colour or the move
//!   last taken back, capturing; the other side at once on a point it emptied, taking it)
//!   are that **exchange of captures**, both retakes played between two readings; the pair
//!   is taken back when the position before it shows again (a stone knocked off, put
//!   back);
//! - a pass recorded after a capture whose one captured stone of the passing side is still
//!   on the board, followed by a stone of that side, was the other side's: the captured
//!   stone was the retake;
//! - the stones a move captured count as captured stones (to be lifted, never a new move)
//!   until the next move, or until every one of them has read empty on [`STABLE`]
//!   snapshots in a row (a captured stone that flickers back is still a captured stone).
//!
//! A recorded stone that reads empty (flicker, a hand, a stone lifted) is answered
//! [`Condition::Restore`] while it is missing, and nothing else happens: when it is back
//! the board is consistent again. A pass cannot be seen: a stone of the side not to move is
//! [`Condition::WrongColor`]; the `pass` button leaves a provisional last move provisional
//! (a phantom stone of the side that passed, taken back when it goes, gives that side the
//! pass).
//!
//! Memory: a [`Tracker`] is 2,732 bytes (the record 2,208 with its 1,024 moves; the
//! record's position, a board of stones only; the captured stones; the provisional moves'
//! counts; the moves last taken back; the count of a `fix` repeated). Everything is fixed
//! arrays and bit sets, nothing panics on any snapshot.

mod record;

pub use record::{Record, MAX_MOVES};

use crate::board::{Board, Rules, StonesOnly, Tracking};
use crate::point::{Color, Move, Point, Size};
use crate::pointset::PointSet;
use crate::predict::History;

/// How many snapshots in a row settle a change (see the module documentation): a move's
/// stone seen on 3 snapshots is final, captured stones read empty on 3 are gone. At 5 to 10
/// snapshots a second, misreadings shorter than 0.3 to 0.6 s change nothing.
pub const STABLE: u8 = 3;

/// How long a change must last to settle when snapshots carry their time (`t=`): a move's
/// stone seen for 300 ms is final, captured stones read empty for 300 ms are gone.
pub const SETTLE_MS: u32 = 300;

/// The most moves provisional at once: an older one is settled when another is recorded.
const MAX_PROVISIONAL: usize = 8;

/// Snapshots in a row answered with the same `fix` after which stones kept to restore as
/// hidden by a hand are phantoms after all (see the module documentation): a hand rests
/// over the board a moment, not 16 readings.
pub const STALLED: u8 = 16;

/// How long the same `fix` must be answered, with `t=`, before stones kept to restore as
/// hidden by a hand are phantoms after all: a hand over the board lasts well under a
/// second.
pub const STALLED_MS: u32 = 1_000;

/// Recorded stones missing at once below a standing later move that are a hand over the
/// board, not phantoms, when they lie within [`HAND_SPAN`] (see
/// [`Tracker::hidden_below_standing`]).
const HIDDEN_MIN: usize = 2;

/// How far apart (across and down) the stones a hand hides may lie: a 3x3 area.
const HAND_SPAN: u8 = 2;

/// The most new stones of a snapshot remembered as waiting to be recorded (see
/// [`Tracker::phantoms_explain`]).
const MAX_WAITING: usize = 4;

/// No point (an empty slot of `y * 19 + x` indices).
const NONE: u16 = u16::MAX;

/// The most new stones a re-explanation plays after the last move it takes back (see
/// [`Tracker::reexplained`]).
const REEXPLAIN_STONES: usize = 3;

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
    /// The captured points that have read empty since the capture.
    emptied: PointSet,
    /// The one captured stone still on the board when the capture was seen, the others
    /// gone (a throw-in within one reading, perhaps).
    left_at_capture: Option<Point>,
    /// Whether the captured stones are left over from before the last move (then they are
    /// forgotten as soon as they all read empty).
    carried: bool,
    /// Whether the last move stands on a point the move before captured and took nothing
    /// (a throw-in, or a captured stone put back by hand): it does not settle before the
    /// next move.
    doubtful: bool,
    /// Moves `settled..` are provisional.
    settled: u16,
    /// Snapshots in a row each provisional move's stone was seen on (`seen[i]` for move
    /// `settled + i`).
    seen: [u8; MAX_PROVISIONAL],
    /// The time of the first of those snapshots (with `t=`).
    seen_since: [u32; MAX_PROVISIONAL],
    /// The reading on which each provisional move's stone first showed, as
    /// [`Tracker::readings`] counts them (0: on a reading before the one that recorded it).
    shown_at: [u16; MAX_PROVISIONAL],
    /// Snapshots judged so far (wrapping, never 0).
    readings: u16,
    /// The new stones of the last snapshot that were not recorded (waiting for a move
    /// that explains them: `y * 19 + x`, [`NONE`] for none), and whether there were more.
    waiting: [u16; MAX_WAITING],
    waiting_more: bool,
    /// The time of the first snapshot of the `captured_gone` ones (with `t=`).
    gone_since: u32,
    /// The current snapshot's time, if it carries one.
    now: Option<u32>,
    /// The board size `new N` asked for, if any (the first snapshot's otherwise).
    want_size: Option<Size>,
    /// Whether handicap stones are still being placed (the record's setup is open).
    setup_open: bool,
    /// Snapshots in a row (or since when, with `t=`) that showed every handicap stone.
    setup_seen: u8,
    setup_since: u32,
    /// Whether an `undo` waits for the board to show the position before the move.
    undo_pending: bool,
    /// The points (`y * 19 + x`) of the moves last taken back, moves `undone_at..` of a
    /// record that was: a branch that may come back, and the order in which their stones,
    /// seen again together, are played again.
    undone: [u16; MAX_PROVISIONAL],
    undone_at: u16,
    undone_len: u8,
    /// The `fix` last answered (a digest of its condition and points), on how many
    /// snapshots in a row, and since when (with `t=`): see [`Tracker::hand_lifted`].
    stall_digest: u32,
    stalled: u8,
    stall_since: u32,
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
            emptied: PointSet::EMPTY,
            left_at_capture: None,
            carried: false,
            doubtful: false,
            settled: 0,
            seen: [0; MAX_PROVISIONAL],
            seen_since: [0; MAX_PROVISIONAL],
            shown_at: [0; MAX_PROVISIONAL],
            readings: 0,
            waiting: [NONE; MAX_WAITING],
            waiting_more: false,
            gone_since: 0,
            now: None,
            want_size: None,
            setup_open: false,
            setup_seen: 0,
            setup_since: 0,
            undo_pending: false,
            undone: [0; MAX_PROVISIONAL],
            undone_at: 0,
            undone_len: 0,
            stall_digest: 0,
            stalled: 0,
            stall_since: 0,
            generation: 0,
        }
    }

    /// Starts a new record: the next snapshot is its setup.
    pub fn reset(&mut self) {
        self.reset_to(None, 0);
    }

    /// Starts a new record on a board of `size` (`None`: the first snapshot's), with
    /// `handicap` black stones (0: none) placed one by one, in any order, before White's
    /// first move: they are the record's setup. Without a handicap the next snapshot is
    /// the setup.
    pub fn reset_to(&mut self, size: Option<Size>, handicap: u8) {
        // In place: a second tracker on a microcontroller's stack would cost 2.5 KB.
        let shown = size.unwrap_or(Size::STANDARD);
        self.record.clear_to(shown, handicap);
        self.want_size = size;
        self.setup_open = false;
        self.setup_seen = 0;
        self.undo_pending = false;
        self.now = None;
        self.board = Board::empty(shown, Rules::STANDARD);
        self.captured = [PointSet::EMPTY; 2];
        self.captured_gone = 0;
        self.captured_lifted = false;
        self.emptied = PointSet::EMPTY;
        self.left_at_capture = None;
        self.carried = false;
        self.doubtful = false;
        self.settled = 0;
        self.seen = [0; MAX_PROVISIONAL];
        self.undone_len = 0;
        self.stalled = 0;
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

    /// The board size `new N` asked for, if any: a snapshot of another size is refused.
    pub fn wanted_size(&self) -> Option<Size> {
        self.want_size
    }

    /// Whether handicap stones are still being placed.
    pub fn is_placing_handicap(&self) -> bool {
        self.setup_open
    }

    /// Whether an `undo` waits for the board to show the position before the move taken
    /// back.
    pub fn is_undo_pending(&self) -> bool {
        self.undo_pending
    }

    /// Whether the game is over: the record ends with two passes.
    pub fn is_over(&self) -> bool {
        self.record.passes_at_end() >= 2
    }

    /// The side to move passes (the `pass` button): the pass is recorded and every move
    /// before it is final (the players saw the board), but for the last one while it is
    /// provisional: a phantom stone of the side that passed, recorded just before, whose
    /// stone then goes is taken back and the pass given to that side. An open handicap
    /// setup closes with the stones placed so far. Nothing happens before the first
    /// snapshot or with a full record (`false`).
    pub fn pass(&mut self) -> bool {
        let before = self.record.len();
        if self.is_waiting() || self.undo_pending || !self.record.push_pass() {
            return false;
        }
        self.setup_open = false;
        self.doubtful = false;
        let _ = self
            .board
            .play(self.record.color_of(self.record.len() - 1), Move::Pass);
        let last_played = matches!(
            self.record.get(before.wrapping_sub(1)),
            Some((_, Move::Play(_)))
        );
        if self.settled() < before && last_played {
            // The last move stays provisional, the pass above it too.
            while self.settled() + 1 < before {
                self.settle_one();
            }
            if let Some(s) = self.seen.get_mut(1) {
                *s = 0;
            }
        } else {
            self.settled = self.record.len() as u16;
            self.seen = [0; MAX_PROVISIONAL];
        }
        self.undone_len = 0;
        self.generation = self.generation.wrapping_add(1);
        true
    }

    /// Takes the last recorded move back (the `undo` button): until a snapshot shows the
    /// position before it, snapshots are answered with what to lift ([`Condition::Remove`])
    /// or put back ([`Condition::Restore`]: the stones it captured). `false` if there was
    /// no move to take back.
    pub fn undo(&mut self) -> bool {
        let len = self.record.len();
        if self.is_waiting() || len == 0 {
            return false;
        }
        self.record.truncate(len - 1);
        self.doubtful = false;
        if self.settled() > len - 1 {
            self.settled = (len - 1) as u16;
        }
        self.seen = [0; MAX_PROVISIONAL];
        self.undone_len = 0;
        self.captured = [PointSet::EMPTY; 2];
        let _ = self.record.replay(&mut self.board, |_, _| {});
        self.undo_pending = true;
        self.generation = self.generation.wrapping_add(1);
        true
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
        if self.record.handicap() > 0 {
            // The handicap stones come one by one: the record starts on an empty board and
            // the first snapshot is judged as the setup being placed.
            let empty: Board<StonesOnly> = Board::empty(snapshot.size(), Rules::STANDARD);
            self.record.start(&empty, Color::White);
            self.setup_open = true;
            self.setup_seen = 0;
        } else {
            self.record.start(snapshot, first);
        }
        self.board = Board::empty(snapshot.size(), Rules::STANDARD);
        // A replay of no moves puts the setup on the board.
        let _ = self.record.replay(&mut self.board, |_, _| {});
        self.generation = self.generation.wrapping_add(1);
    }

    /// Compares a snapshot (of the record's size) with the record: records a move, takes
    /// provisional moves back, or says what to fix (see the module documentation). The
    /// snapshot carries no time: the stability rules count snapshots ([`STABLE`]).
    pub fn see<T: Tracking>(&mut self, snapshot: &Board<T>) -> Seen {
        self.see_at(snapshot, None)
    }

    /// As [`Tracker::see`], for a snapshot taken `time` ms after the board started (`t=`):
    /// then the stability rules are in time ([`SETTLE_MS`]) instead of snapshot counts.
    pub fn see_at<T: Tracking>(&mut self, snapshot: &Board<T>, time: Option<u32>) -> Seen {
        let seen = [
            *snapshot.stones(Color::Black),
            *snapshot.stones(Color::White),
        ];
        self.now = time;
        if self.undo_pending {
            return self.see_undo(&seen);
        }
        if self.setup_open {
            if let Some(verdict) = self.see_setup(&seen) {
                return verdict;
            }
        }
        if self.is_over() {
            return self.see_over(&seen);
        }
        if let Some(now) = self.now {
            // A stone that was on the board at the last reading that agreed with the record
            // stayed there until this one (a change-only board sends nothing meanwhile):
            // what lasted SETTLE_MS is final even if this reading is not consistent.
            while self.settled() < self.record.len()
                && self.seen[0] >= 1
                && now.wrapping_sub(self.seen_since[0]) >= SETTLE_MS
            {
                self.settle_one();
            }
        }
        self.readings = self.readings.wrapping_add(1).max(1);
        self.take_back_missing(&seen);
        self.note_captured(&seen);
        if self.difference(&seen) != (PointSet::EMPTY, PointSet::EMPTY) {
            self.branch_returns(&seen);
        }
        let verdict = self.judge(&seen);
        match verdict {
            Seen::Fix(f) => self.count_fix(f),
            Seen::Consistent => self.stalled = 0,
        }
        let occupied = *self.board.stones(Color::Black) | *self.board.stones(Color::White);
        let waiting = (seen[0] | seen[1]) - occupied;
        self.waiting = [NONE; MAX_WAITING];
        for (slot, p) in self.waiting.iter_mut().zip(waiting.iter()) {
            *slot = p.index19();
        }
        self.waiting_more = waiting.len() > MAX_WAITING;
        if verdict == Seen::Consistent {
            self.count_provisional();
        } else {
            // A provisional stone this reading misses was not there in a row (a hand over
            // it, or a phantom kept to restore): its count starts again when it shows.
            let settled = self.settled();
            for (i, s) in self.seen.iter_mut().enumerate() {
                if self
                    .record
                    .get(settled + i)
                    .is_some_and(|m| is_missing(&self.board, m, &seen))
                {
                    *s = 0;
                }
            }
        }
        verdict
    }

    /// Whether a change first seen at `since`, seen on `count` snapshots in a row since,
    /// has lasted: [`SETTLE_MS`] when the snapshot carries its time, else [`STABLE`]
    /// snapshots.
    fn lasted(&self, count: u8, since: u32) -> bool {
        match self.now {
            Some(now) => count >= 1 && now.wrapping_sub(since) >= SETTLE_MS,
            None => count >= STABLE,
        }
    }

    /// The current snapshot's time (0 without one).
    fn clock(&self) -> u32 {
        self.now.unwrap_or(0)
    }

    /// A snapshot while an `undo` waits: consistent once it shows the record's position;
    /// before, the stones to put back, then the stones to lift.
    fn see_undo(&mut self, seen: &[PointSet; 2]) -> Seen {
        let (missing, extra) = self.difference(seen);
        if !missing.is_empty() {
            return fix(Condition::Restore, missing);
        }
        if !extra.is_empty() {
            return fix(Condition::Remove, extra);
        }
        self.undo_pending = false;
        Seen::Consistent
    }

    /// The recorded stones missing from a snapshot (or of the other colour there), and the
    /// snapshot's stones that are not recorded (or of the other colour).
    fn difference(&self, seen: &[PointSet; 2]) -> (PointSet, PointSet) {
        let record = [
            *self.board.stones(Color::Black),
            *self.board.stones(Color::White),
        ];
        let missing = (record[0] - seen[0]) | (record[1] - seen[1]);
        let extra = (seen[0] - record[0]) | (seen[1] - record[1]);
        (missing, extra)
    }

    /// A snapshot while handicap stones are placed: the black stones on the board are the
    /// setup so far (any order; one lifted is no longer one) while they are at most the
    /// handicap; the setup closes when all of them have lasted ([`Tracker::lasted`]), or
    /// when a white stone comes with all of them on the board (White's first move: judged
    /// as any move, `None`). A white stone before is [`Condition::WrongColor`], a black
    /// stone too many [`Condition::Remove`].
    fn see_setup(&mut self, seen: &[PointSet; 2]) -> Option<Seen> {
        let n = self.record.handicap() as usize;
        let setup = *self.record.setup(Color::Black);
        if !seen[1].is_empty() {
            // Every handicap stone on the board and a white stone: White's first move (and
            // the black stones beyond the setup, Black's answers: both players may move
            // between two readings).
            if setup.len() == n && setup.is_subset(&seen[0]) {
                self.setup_open = false;
                return None;
            }
            if seen[0].len() == n {
                // The last handicap stone and a white stone in one reading: the black stones
                // are the setup, the white one White's first move.
                self.record.set_black_setup(seen[0]);
                let _ = self.record.replay(&mut self.board, |_, _| {});
                self.generation = self.generation.wrapping_add(1);
                self.setup_open = false;
                return None;
            }
            return Some(fix(Condition::WrongColor, seen[1]));
        }
        if seen[0].len() > n {
            return Some(fix(Condition::Remove, seen[0] - setup));
        }
        if seen[0] != setup {
            self.record.set_black_setup(seen[0]);
            let _ = self.record.replay(&mut self.board, |_, _| {});
            self.setup_seen = 0;
            self.generation = self.generation.wrapping_add(1);
        }
        if seen[0].len() == n {
            if self.setup_seen == 0 {
                self.setup_since = self.clock();
            }
            self.setup_seen = self.setup_seen.saturating_add(1);
            if self.lasted(self.setup_seen, self.setup_since) {
                self.setup_open = false;
            }
        }
        Some(Seen::Consistent)
    }

    /// A snapshot once the game is over (two passes): recorded stones lifted are dead
    /// stones taken off, not errors; a stone not recorded is [`Condition::Remove`] (to
    /// play on, `undo` the passes).
    fn see_over(&mut self, seen: &[PointSet; 2]) -> Seen {
        // A stone of the other colour on a recorded point is to lift as well.
        let (_, extra) = self.difference(seen);
        if extra.is_empty() {
            Seen::Consistent
        } else {
            fix(Condition::Remove, extra)
        }
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
        let (mut keep, mut board, mut last_captures) =
            longest_explained(record, first, len, seen, |i| record.get(i).map(|m| m.1));
        let mut from_undone = false;
        let undone_at = self.undone_at as usize;
        if self.undone_len > 0 && undone_at <= first {
            let undone = &self.undone;
            let end = undone_at + self.undone_len as usize;
            let (n, b, c) = longest_explained(record, undone_at, end, seen, |i| {
                undone
                    .get(i - undone_at)
                    .and_then(|&p| Point::from_index19(p))
                    .map(Move::Play)
            });
            if n > keep {
                (keep, board, last_captures, from_undone) = (n, b, c, true);
            }
        }
        if !from_undone {
            if let Some(top) = self.hidden_below_standing(keep, seen) {
                // A hand over stones below a later move that stands: they stay, to restore.
                keep = top;
                let _ = self
                    .record
                    .replay_to(&mut board, keep, |_, c| last_captures = *c);
            }
        }
        if keep == len && !from_undone {
            return;
        }
        let pass_above = (keep..len).any(|i| matches!(self.record.get(i), Some((_, Move::Pass))));
        if pass_above && !from_undone && self.difference(seen).0.len() >= HIDDEN_MIN {
            // Stones missing with a pass above them: a hand over the board after the pass,
            // not a phantom of the side that passed (they stay, to restore).
            return;
        }
        // The moves taken back now, remembered as the other branch.
        let base = if from_undone { undone_at } else { keep };
        let mut taken = [0u16; MAX_PROVISIONAL];
        let mut n = 0;
        for (slot, i) in taken.iter_mut().zip(base..len) {
            if let Some(p) = self.record.point(i) {
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
                // Their stones showed before (they were recorded once).
                let k = i.wrapping_sub(self.settled());
                if let Some(s) = self.shown_at.get_mut(k) {
                    *s = 0;
                }
            }
        } else {
            // The passes above the moves taken back were buttons pressed: they stay, given
            // to the side then to move.
            let passes = (keep..len)
                .filter(|&i| matches!(self.record.get(i), Some((_, Move::Pass))))
                .count();
            self.record.truncate(keep);
            for _ in 0..passes {
                let color = self.record.to_move();
                if self.record.push_pass() {
                    let _ = board.play(color, Move::Pass);
                }
            }
        }
        // A branch of more moves taken back at the same point stays the one that may come
        // back (three stones under a hand taken back, then a phantom recorded and taken
        // back before the hand lifts: the three return).
        if from_undone || self.undone_at as usize != base || self.undone_len <= n {
            (self.undone, self.undone_at, self.undone_len) = (taken, base as u16, n);
        }
        self.doubtful = false;
        self.board = board;
        let from = base.saturating_sub(self.settled()).min(MAX_PROVISIONAL);
        self.seen[from..].fill(0);
        // Stones captured by the moves taken back are on the record's board again.
        let occupied = *self.board.stones(Color::Black) | *self.board.stones(Color::White);
        for c in &mut self.captured {
            *c = *c - occupied;
        }
        self.doubt_last(last_captures);
        // Captured stones are left over from before the last move only when that move did
        // not capture them (a phantom recorded above a capture and taken back leaves the
        // capture the last move's again).
        let captured = self.captured[0] | self.captured[1];
        self.carried = !captured.is_subset(&last_captures);
        self.generation = self.generation.wrapping_add(1);
    }

    /// After moves were taken back: the last move kept, provisional, capturing nothing
    /// (`captures`), on a point the move before it captured, is doubtful again (a captured
    /// stone put back looks the same: the move taken back had confirmed it, a phantom
    /// answer), its stone a captured one too, to lift if a stone of its colour contradicts
    /// it ([`Tracker::contradicted`]).
    fn doubt_last(&mut self, captures: PointSet) {
        let keep = self.record.len();
        let Some((color, Move::Play(p))) = self.record.get(keep.wrapping_sub(1)) else {
            return;
        };
        if keep <= self.settled() || keep < 2 || !captures.is_empty() {
            return;
        }
        let mut before = PointSet::EMPTY;
        let mut scratch = Board::empty(self.record.size(), Rules::STANDARD);
        let _ = self.record.replay_to(&mut scratch, keep - 1, |i, caps| {
            if i + 2 == keep {
                before = *caps;
            }
        });
        if before.contains(p) {
            self.doubtful = true;
            self.captured[color.index()].insert(p);
        }
    }

    /// Whether the moves last taken back come back: played again in their order after
    /// the record's moves before them, they give the snapshot's position exactly, and the
    /// record since is the same stones (a stone lifted or misread below moves read at once
    /// was taken for a phantom and the moves above it recorded again in the other order;
    /// back on the board, it was no phantom). Then the record is that branch again, its
    /// moves provisional.
    fn branch_returns(&mut self, seen: &[PointSet; 2]) -> bool {
        let (at, n) = (self.undone_at as usize, self.undone_len as usize);
        let len = self.record.len();
        let undone = &self.undone;
        let Some(branch) = undone.get(..n) else {
            return false;
        };
        if n == 0 || at < self.settled() || at > len || at + n > MAX_MOVES {
            return false;
        }
        if (at..len).any(|i| {
            self.record
                .point(i)
                .is_none_or(|p| !branch.contains(&p.index19()))
        }) {
            return false;
        }
        let mut board = Board::empty(self.record.size(), Rules::STANDARD);
        let _ = self.record.replay_to(&mut board, at, |_, _| {});
        let mut color = self.record.color_of(at);
        for &p in branch {
            match Point::from_index19(p) {
                Some(p) if board.play(color, Move::Play(p)).is_ok() => {}
                _ => return false,
            }
            color = color.opponent();
        }
        if *board.stones(Color::Black) != seen[0] || *board.stones(Color::White) != seen[1] {
            return false;
        }
        self.record.truncate(at);
        for &p in branch {
            if let Some(p) = Point::from_index19(p) {
                let _ = self.record.push(p);
            }
        }
        self.board = board;
        self.undone_len = 0;
        self.doubtful = false;
        let from = (at - self.settled()).min(MAX_PROVISIONAL);
        self.seen[from..].fill(0);
        self.shown_at[from..].fill(0);
        while self.record.len() - self.settled() > MAX_PROVISIONAL {
            self.settle_one();
        }
        let occupied = *self.board.stones(Color::Black) | *self.board.stones(Color::White);
        for c in &mut self.captured {
            *c = *c - occupied;
        }
        self.generation = self.generation.wrapping_add(1);
        true
    }

    /// Whether the provisional moves from `from` missing from the snapshot are hidden (a
    /// hand over them, stones lifted and put back) rather than phantoms: a later move's
    /// stone stands above the first of them, and either [`HIDDEN_MIN`] or more recorded
    /// stones are missing, all within a hand's area ([`HAND_SPAN`]; two phantoms at once
    /// lie anywhere), or the record without them does not explain the standing stones
    /// ([`Tracker::phantoms_explain`]: a phantom's colour, taken back, leaves the standing
    /// stones one too many of a colour, or an order that is not legal). Then the record is
    /// kept up to that standing move (the length returned): the missing stones are to
    /// restore ([`Condition::Restore`]), nothing is taken back and re-recorded out of
    /// order.
    fn hidden_below_standing(&self, from: usize, seen: &[PointSet; 2]) -> Option<usize> {
        let stands = |i: usize| {
            self.record.get(i).is_some_and(|(c, mv)| {
                matches!(mv, Move::Play(p)
                    if seen[c.index()].contains(p) && self.board.stones(c).contains(p))
            })
        };
        let missing = |i: usize| {
            self.record
                .get(i)
                .is_some_and(|m| is_missing(&self.board, m, seen))
        };
        let len = self.record.len();
        let first = (from..len).find(|&i| missing(i))?;
        let top = (first..len).rev().find(|&i| stands(i))?;
        let hidden = self.difference(seen).0;
        let hand =
            hidden.len() >= HIDDEN_MIN && within_hand(hidden, HAND_SPAN) && !self.hand_lifted();
        (hand || !self.phantoms_explain(first, seen)).then_some(top + 1)
    }

    /// Whether the record's moves from `first` on, those missing from the snapshot taken
    /// back as phantoms, explain the stones that stand: played again from the position
    /// after `first` moves, colours alternating from the side to move there (each colour's
    /// stones in their recorded order, perhaps followed by the snapshot's new stones), every
    /// one is legal, the position is the snapshot's but for the stones still to lift, and
    /// no stone comes before one that showed on an earlier reading. (One phantom of one
    /// colour below a move of the other that stands does not explain it, nothing else
    /// new: the standing stone would be the side not to move's; nor does a phantom below
    /// two moves read one after the other, which would play the later first: a stone
    /// lifted or hidden there stays, to restore.)
    fn phantoms_explain(&self, first: usize, seen: &[PointSet; 2]) -> bool {
        let occupied = *self.board.stones(Color::Black) | *self.board.stones(Color::White);
        let new = [
            seen[0] - occupied - self.captured[0],
            seen[1] - occupied - self.captured[1],
        ];
        // A captured stone of the side then to move still on the board may be its retake
        // (lifted and a stone put back between two readings), answered by the standing
        // stone of the other side.
        let color = self.record.color_of(first).index();
        let back = (seen[color] & self.captured[color]) - occupied;
        let mut with_back = new;
        with_back[color] |= back;
        self.replays(first, seen, [PointSet::EMPTY; 2])
            || (!(new[0] | new[1]).is_empty() && self.replays(first, seen, new))
            || (back.len() == 1 && self.replays(first, seen, with_back))
    }

    /// [`Tracker::phantoms_explain`] with the new stones `new` played after the standing
    /// ones of their colour.
    fn replays(&self, first: usize, seen: &[PointSet; 2], new: [PointSet; 2]) -> bool {
        const MOST: usize = MAX_PROVISIONAL + MAX_WAITING;
        let len = self.record.len();
        // The stones to play again by colour, in their order: (order, point, shown at).
        let mut stones = [[(0usize, 0u16, 0u16); MOST]; 2];
        let mut count = [0usize; 2];
        let mut dropped = PointSet::EMPTY;
        let mut add = |c: Color, entry: (usize, u16, u16)| match stones[c.index()]
            .get_mut(count[c.index()])
        {
            Some(slot) => {
                *slot = entry;
                count[c.index()] += 1;
                true
            }
            None => false,
        };
        for i in first..len {
            let Some((c, Move::Play(p))) = self.record.get(i) else {
                return false;
            };
            if is_missing(&self.board, (c, Move::Play(p)), seen) {
                dropped.insert(p);
                continue;
            }
            let shown = self
                .shown_at
                .get(i.wrapping_sub(self.settled()))
                .copied()
                .unwrap_or(0);
            if !add(c, (i, p.index19(), shown)) {
                return false;
            }
        }
        for c in [Color::Black, Color::White] {
            for p in new[c.index()].iter() {
                let waited = self.waiting_more || self.waiting.contains(&p.index19());
                let shown = if waited { 0 } else { self.readings };
                if !add(c, (len, p.index19(), shown)) {
                    return false;
                }
            }
        }
        // Whether `a` is a reading before `b` (0: before any).
        let before = |a: u16, b: u16| b != 0 && (a == 0 || (b.wrapping_sub(a) as i16) > 0);
        let mut board = Board::empty(self.record.size(), Rules::STANDARD);
        let _ = self.record.replay_to(&mut board, first, |_, _| {});
        let mut color = self.record.color_of(first);
        let mut next = [0usize; 2];
        // The stones the sequence captures (a new stone taken at once may still be there).
        let mut taken = [PointSet::EMPTY; 2];
        for _ in 0..count[0] + count[1] {
            let (k, o) = (color.index(), color.opponent().index());
            let Some(&(i, p, shown)) = stones[k].get(next[k]).filter(|_| next[k] < count[k]) else {
                return false;
            };
            // The other colour's stones still to play that come before this one must not
            // have shown on an earlier reading.
            let later_first = stones[o]
                .iter()
                .take(count[o])
                .skip(next[o])
                .any(|&(j, _, at)| j < i && before(at, shown));
            let Some(p) = Point::from_index19(p) else {
                return false;
            };
            if later_first {
                return false;
            }
            match board.play(color, Move::Play(p)) {
                Ok(caps) => taken[o] |= caps.points,
                Err(_) => return false,
            }
            next[k] += 1;
            color = color.opponent();
        }
        [Color::Black, Color::White].iter().all(|&c| {
            let want = (*self.board.stones(c) - dropped) | new[c.index()];
            let stones = *board.stones(c);
            stones.is_subset(&want)
                && (want - stones).is_subset(&(taken[c.index()] & new[c.index()]))
        })
    }

    /// Forgets the captured stones once all of them have read empty [`STABLE`] times in a
    /// row.
    fn note_captured(&mut self, seen: &[PointSet; 2]) {
        let captured = self.captured[0] | self.captured[1];
        if captured.is_empty() {
            return;
        }
        self.emptied |= captured - (seen[0] | seen[1]);
        if captured.intersects(&(seen[0] | seen[1])) {
            // With times, stones all read empty for long enough before a stone came back
            // were gone (a change-only board sends nothing while they stay off).
            if self.now.is_some()
                && self.captured_gone > 0
                && self.lasted(self.captured_gone, self.gone_since)
            {
                self.captured = [PointSet::EMPTY; 2];
            }
            self.captured_gone = 0;
        } else if self.carried {
            self.captured = [PointSet::EMPTY; 2];
        } else {
            self.captured_lifted = true;
            if self.captured_gone == 0 {
                self.gone_since = self.clock();
            }
            self.captured_gone = self.captured_gone.saturating_add(1);
            if self.lasted(self.captured_gone, self.gone_since) {
                self.captured = [PointSet::EMPTY; 2];
            }
        }
    }

    /// Counts a snapshot for the provisional moves (whose stones are all on the board,
    /// [`Tracker::take_back_missing`] saw to it) and settles those seen often enough.
    fn count_provisional(&mut self) {
        // A doubtful last move is not counted (it settles after the next move).
        let pending = self.record.len() - self.settled() - usize::from(self.doubtful);
        let now = self.clock();
        for (s, since) in self.seen.iter_mut().zip(&mut self.seen_since).take(pending) {
            if *s == 0 {
                *since = now;
            }
            *s = s.saturating_add(1);
        }
        while self.settled() < self.record.len() && self.lasted(self.seen[0], self.seen_since[0]) {
            self.settle_one();
        }
    }

    /// Makes the oldest provisional move final.
    fn settle_one(&mut self) {
        self.seen.copy_within(1.., 0);
        self.seen_since.copy_within(1.., 0);
        self.shown_at.copy_within(1.., 0);
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
        // Whether the record was re-explained (once a snapshot at most).
        let mut retold = false;
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
            // Colours alternate: k new stones of the side to move need at least k - 1 of
            // the other side, or no sequence of moves explains them (two stones of one
            // colour are to remove, even when one of them is a move taken back).
            let theirs = new & seen[to_move.opponent().index()];
            let mut pick = match candidates.len() {
                1 => candidates.first(),
                k if k <= theirs.len() + 1 => self.redone(candidates),
                _ => None,
            };
            let mut thrown = false;
            if candidates.is_empty() {
                // A stone of the side to move on a point a capture emptied: its move (a
                // throw-in, a retake), provisional until the next move (a captured stone
                // put back is taken back when the next stone contradicts it).
                // With one new stone of the other side, the one captured stone of the side
                // to move still there is its retake (played between two readings), when
                // the capture is the last move's (a stone left over from an earlier capture
                // while play went on is a fix ignored, not a retake).
                // (A captured stone that never left the board is no answer: it is not new;
                // one back on a point that read empty is.)
                let answer = (fresh | (left & self.emptied)) & seen[to_move.opponent().index()];
                let answered = answer.len() == 1 && !self.carried;
                if let Some(p) = self.thrown_in(left & seen[to_move.index()], answered, missing) {
                    pick = Some(p);
                    left.remove(p);
                    thrown = true;
                }
            }
            if let Some(p) = pick {
                let mut after = self.board.clone();
                match after.play(to_move, Move::Play(p)) {
                    Ok(caps) => {
                        // The move explains every recorded stone missing (it captured
                        // them), or the next stone does; else the record re-explained may
                        // (a settled move slid, the next move with it); else the missing
                        // stones are final ones, lifted or knocked off, to put back while
                        // the game goes on (a `fix` ignored).
                        let rest = missing - caps.points;
                        let direct = rest.is_empty()
                            || self.next_explains(
                                &after,
                                fresh - PointSet::single(p),
                                &seen[to_move.opponent().index()],
                                rest,
                            );
                        if !direct && !retold && self.reexplained(seen) {
                            retold = true;
                            continue;
                        }
                        if !direct && !self.all_settled(rest) {
                            return fix(Condition::Restore, rest);
                        }
                        if !self.record.push(p) {
                            return fix(Condition::RecordFull, PointSet::single(p));
                        }
                        // Captured stones still on the board stay to lift (all those of the
                        // capture for a throw-in: it may be one of them put back).
                        let carry = if thrown {
                            self.captured
                        } else {
                            [left & seen[0], left & seen[1]]
                        };
                        self.played(after, caps.points, to_move, carry, seen);
                        continue;
                    }
                    Err(_) if missing.is_empty() && left.is_empty() && fresh.len() == 1 => {
                        return fix(Condition::IllegalMove, PointSet::single(p))
                    }
                    Err(_) => {}
                }
            }
            if left.is_empty() && self.moved_last(missing, fresh, seen) {
                continue;
            }
            if !retold && self.reexplained(seen) {
                retold = true;
                continue;
            }
            if missing.is_empty() && self.contradicted(fresh, seen) {
                continue;
            }
            if fresh.is_empty() && !missing.is_empty() && self.exchanged(seen) {
                continue;
            }
            if missing.is_empty() && left.is_empty() && self.exchange_undone(seen) {
                continue;
            }
            if missing.is_empty() && self.pass_after_retake(left, fresh, seen) {
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

    /// The one stone of `back` (captured stones of the side to move back on the board)
    /// that may be a move: its point read empty since the capture (lifted, then a stone put
    /// there), or the capture was seen with it as the only one of its stones still there
    /// (captured, lifted and a stone put back within one reading), or, with recorded
    /// stones `missing` and another captured stone lifted, it is the one whose move
    /// captures every missing stone (a retake that took the capturing stones), or it is the
    /// only one and the other side has `answered` it (one new stone of its colour); and the
    /// move is legal.
    fn thrown_in(&self, back: PointSet, answered: bool, missing: PointSet) -> Option<Point> {
        let mut emptied = back & self.emptied;
        if let Some(p) = self.left_at_capture.filter(|&p| back.contains(p)) {
            emptied.insert(p);
        }
        if emptied.is_empty() && !missing.is_empty() && !self.emptied.is_empty() {
            // Recorded stones are missing and one captured stone of the side to move still
            // on the board, played there, captures them all: a retake between two readings
            // that took the capturing stones.
            emptied = back
                .iter()
                .filter(|&p| self.captures_all(p, missing))
                .collect();
        }
        if answered && emptied.is_empty() {
            // The other side has answered: the one captured stone of the side to move
            // still on the board was played there again between two readings (nothing
            // else explains the answer).
            emptied = back;
        }
        match (emptied.len(), emptied.first()) {
            (1, Some(p)) if self.board.is_legal(self.to_move(), Move::Play(p)) => Some(p),
            _ => None,
        }
    }

    /// Whether a move of the side to move at `p` captures every stone of `missing`.
    fn captures_all(&self, p: Point, missing: PointSet) -> bool {
        let mut after = self.board.clone();
        after
            .play(self.to_move(), Move::Play(p))
            .is_ok_and(|caps| missing.is_subset(&caps.points))
    }

    /// Whether every recorded stone of `points` is a final move's or a setup stone (none
    /// of a provisional move).
    fn all_settled(&self, points: PointSet) -> bool {
        (self.settled()..self.record.len())
            .filter_map(|i| self.record.point(i))
            .all(|p| !points.contains(p))
    }

    /// Whether the record's last move, provisional and on a point the move before had just
    /// captured (a captured stone put back by hand looks the same), is contradicted by the
    /// one new stone `fresh`: a stone of its colour, a legal move from the position before
    /// it. Then the last move was a captured stone put back: it is taken back (a captured
    /// stone again, to lift) and the new stone is the move.
    fn contradicted(&mut self, fresh: PointSet, seen: &[PointSet; 2]) -> bool {
        let len = self.record.len();
        let (Some((color, Move::Play(p))), Some(q)) =
            (self.record.get(len.wrapping_sub(1)), fresh.first())
        else {
            return false;
        };
        if !self.doubtful
            || self.settled() >= len
            || fresh.len() != 1
            || !seen[color.index()].contains(q)
            || !seen[color.index()].contains(p)
        {
            return false;
        }
        let mut before = Board::empty(self.record.size(), Rules::STANDARD);
        let _ = self.record.replay_to(&mut before, len - 1, |_, _| {});
        let mut after = before;
        let Ok(caps) = after.play(color, Move::Play(q)) else {
            return false;
        };
        self.record.truncate(len - 1);
        if !self.record.push(q) {
            return false;
        }
        // The captured stones of the move before (the put-back one among them) stay to
        // lift.
        let carry = self.captured;
        self.played(after, caps.points, color, carry, seen);
        true
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
    /// colour, and played there instead (from the position before it) the old move
    /// captured nothing and the snapshot is the record's position but for stones the new
    /// one captures, still to lift. Then the move is replaced, provisional again (it moves
    /// back if its stone goes and the old one returns, or comes back captured if a new
    /// stone of the other side takes it). A move still provisional is taken back when its
    /// stone goes; one settled by a phantom that
    /// stood [`STABLE`] snapshots (two misreadings of a point in a row, or one followed by
    /// a stone slid over it) is moved here when the real move comes.
    fn moved_last(&mut self, missing: PointSet, fresh: PointSet, seen: &[PointSet; 2]) -> bool {
        let len = self.record.len();
        let (Some((color, Move::Play(p))), Some(q)) =
            (self.record.get(len.wrapping_sub(1)), fresh.first())
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
        // The new stone may capture: its captured stones may still be on the board.
        let captures = match after.play(color, Move::Play(q)) {
            Ok(caps)
                if after.stones(Color::Black).is_subset(&seen[0])
                    && after.stones(Color::White).is_subset(&seen[1])
                    && ((seen[0] - *after.stones(Color::Black))
                        | (seen[1] - *after.stones(Color::White)))
                    .is_subset(&caps.points) =>
            {
                caps.points
            }
            _ => return false,
        };
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
        self.played(after, captures, color, [PointSet::EMPTY; 2], seen);
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

    /// Whether the record without its last move (settled or not), whose stone is gone,
    /// followed by a short sequence of the snapshot's new stones (at most
    /// [`REEXPLAIN_STONES`]; colours alternating from the move taken back, each legal, a
    /// stone of its colour next to the stone gone), gives the snapshot's position exactly,
    /// but for stones the sequence captured that are still to lift: the last move's stone
    /// slid to a neighbour where it captures, perhaps with the other side's answer read at
    /// once. The sequence must be the only one that explains the snapshot (two orders of
    /// the same stones that both do are undecidable: nothing changes). Then the record is
    /// that one, its new moves provisional, the move taken back the branch that may come
    /// back. (Taking back two moves let a stone flickering below the last move and a stone
    /// of its colour played two moves later pass for a slide.)
    fn reexplained(&mut self, seen: &[PointSet; 2]) -> bool {
        let len = self.record.len();
        let occupied = *self.board.stones(Color::Black) | *self.board.stones(Color::White);
        let fresh = (seen[0] | seen[1]) - occupied;
        let Some((first, Move::Play(gone))) = self.record.get(len.wrapping_sub(1)) else {
            // No move, or a pass (a button pressed: final).
            return false;
        };
        if fresh.is_empty()
            || fresh.len() > REEXPLAIN_STONES
            || !self.board.stones(first).contains(gone)
            || seen[first.index()].contains(gone)
        {
            return false;
        }
        let mut base = Board::empty(self.record.size(), Rules::STANDARD);
        if self
            .record
            .replay_to(&mut base, len - 1, |_, _| {})
            .is_err()
        {
            return false;
        }
        let occupied = *base.stones(Color::Black) | *base.stones(Color::White);
        let new = [seen[0] - occupied, seen[1] - occupied];
        let m = new[0].len() + new[1].len();
        let ours = new[first.index()];
        let theirs = new[first.opponent().index()];
        let slid = PointSet::single(gone)
            .neighbours(self.record.size())
            .intersects(&ours);
        if !slid || m > REEXPLAIN_STONES || ours.len() != m.div_ceil(2) || theirs.len() != m / 2 {
            return false;
        }
        // The sequences: ours at even places, theirs at odd ones (at most two of ours, one
        // of theirs: two orders at most).
        let (a, b, c) = (ours.first(), theirs.first(), ours.iter().nth(1));
        let orders: [[Option<Point>; REEXPLAIN_STONES]; 2] = [[a, b, c], [c, b, a]];
        let tries = if c.is_some() { 2 } else { 1 };
        let mut found = None;
        let mut answers = 0;
        for order in orders.iter().take(tries) {
            if explains(&base, first, order, seen) {
                answers += 1;
                found = Some(*order);
            }
        }
        let Some(order) = found.filter(|_| answers == 1) else {
            return false;
        };
        self.record.truncate(len - 1);
        if self.settled() >= len {
            self.settled = (len - 1) as u16;
            self.seen = [0; MAX_PROVISIONAL];
            self.shown_at = [0; MAX_PROVISIONAL];
        } else {
            let at = (len - 1 - self.settled()).min(MAX_PROVISIONAL);
            self.seen[at..].fill(0);
            self.shown_at[at..].fill(0);
        }
        self.undone[0] = gone.index19();
        (self.undone_at, self.undone_len) = ((len - 1) as u16, 1);
        self.board = base;
        // The stones the move taken back captured are recorded stones again.
        self.captured = [PointSet::EMPTY; 2];
        self.doubtful = false;
        self.record_sequence(first, order.iter().flatten().copied(), seen);
        true
    }

    /// Counts the snapshots in a row answered with the same `fix` (and notes when the
    /// first was taken, with `t=`): see [`Tracker::hand_lifted`].
    fn count_fix(&mut self, fix: Fix) {
        let digest = fix.points.iter().fold(fix.condition as u32, |h, p| {
            h.rotate_left(5) ^ u32::from(p.index19())
        });
        if self.stalled == 0 || digest != self.stall_digest {
            (self.stall_digest, self.stalled, self.stall_since) = (digest, 1, self.clock());
        } else {
            self.stalled = self.stalled.saturating_add(1);
        }
    }

    /// Whether a hand over the board would have been lifted by now: the same `fix` has
    /// been answered on [`STALLED`] snapshots in a row (with `t=`: for [`STALLED_MS`]).
    /// Stones kept to restore as hidden by a hand that stay missing so long were
    /// phantoms (two misreadings close together): the players do not put back stones
    /// that were never there, and no hand rests that long.
    fn hand_lifted(&self) -> bool {
        match self.now {
            Some(now) => self.stalled >= 1 && now.wrapping_sub(self.stall_since) >= STALLED_MS,
            None => self.stalled >= STALLED,
        }
    }

    /// `moves` played from the record's position, colours alternating from `first`, each
    /// recorded as a provisional move, the captured stones still on the board (not those
    /// played on) kept to lift. Whether all were: the first illegal one, or one the record
    /// cannot hold, ends it.
    fn record_sequence(
        &mut self,
        first: Color,
        moves: impl IntoIterator<Item = Point>,
        seen: &[PointSet; 2],
    ) -> bool {
        let mut color = first;
        for p in moves {
            let mut after = self.board.clone();
            let Ok(caps) = after.play(color, Move::Play(p)) else {
                return false;
            };
            if !self.record.push(p) {
                return false;
            }
            let occupied = *after.stones(Color::Black) | *after.stones(Color::White);
            let carry = [
                (self.captured[0] & seen[0]) - occupied,
                (self.captured[1] & seen[1]) - occupied,
            ];
            self.played(after, caps.points, color, carry, seen);
            color = color.opponent();
        }
        true
    }

    /// Whether recorded stones missing, no new stone on the board, are an exchange of
    /// captures played between two readings: the side to move played on a point `x` that
    /// reads empty (a captured stone of its colour lifted, or the move last taken back),
    /// capturing stones, and the other side retook at once on one of them, capturing the
    /// stone at `x` (its point never read empty: the captured stone lifted and the retaking
    /// stone put there within one reading). The two moves, legal, give the snapshot's
    /// position but for captured stones still to lift, and no other such pair does. Then
    /// both are recorded, provisional (a knocked-off stone such an exchange would capture
    /// reads the same: when it is put back, the snapshot is the position before the pair,
    /// which is taken back: [`Tracker::exchange_undone`]).
    fn exchanged(&mut self, seen: &[PointSet; 2]) -> bool {
        let to_move = self.to_move();
        let occupied = *self.board.stones(Color::Black) | *self.board.stones(Color::White);
        let mut tried = self.captured[to_move.index()];
        for &p in self.undone.iter().take(self.undone_len as usize) {
            if let Some(p) = Point::from_index19(p) {
                tried.insert(p);
            }
        }
        let tried = tried - occupied - seen[0] - seen[1];
        let mut found = None;
        let mut answers = 0;
        for x in tried.iter() {
            let mut after = self.board.clone();
            let Ok(caps) = after.play(to_move, Move::Play(x)) else {
                continue;
            };
            for y in (caps.points & seen[to_move.opponent().index()]).iter() {
                if explains(&self.board, to_move, &[Some(x), Some(y)], seen) {
                    answers += 1;
                    found = Some((x, y));
                }
            }
        }
        let Some((x, y)) = found.filter(|_| answers == 1) else {
            return false;
        };
        if self.record_sequence(to_move, [x, y], seen) {
            self.undone_len = 0;
        }
        true
    }

    /// Whether the pass last recorded was the other side's, after a retake: the record
    /// ends with a capture and a pass given to the side to move then, one captured stone
    /// of that side is still on the board (`left`: it never read empty, the others were
    /// lifted), and the one new stone (`fresh`, or a stone on a point of the capture that
    /// read empty) is of that side too, which cannot move again after its pass. The
    /// captured stone was its retake (lifted and a stone put back between two readings),
    /// legal, and the pass the other side's: both are recorded and the new stone judged
    /// again, as the next move.
    fn pass_after_retake(&mut self, left: PointSet, fresh: PointSet, seen: &[PointSet; 2]) -> bool {
        let len = self.record.len();
        let (Some((passer, Move::Pass)), Some((_, Move::Play(_)))) = (
            self.record.get(len.wrapping_sub(1)),
            self.record.get(len.wrapping_sub(2)),
        ) else {
            return false;
        };
        // The retake's point never read empty; the new stone may stand on a point of the
        // capture that did.
        let back = (left & seen[passer.index()]) - self.emptied;
        let new = (fresh | left) - back;
        let (Some(c), Some(q)) = (back.first(), new.first()) else {
            return false;
        };
        if back.len() != 1 || new.len() != 1 || !seen[passer.index()].contains(q) {
            return false;
        }
        let mut after = self.board.clone();
        let Ok(caps) = after.play(passer, Move::Play(c)) else {
            return false;
        };
        self.record.truncate(len - 1);
        if self.settled() > len - 1 {
            self.settled = (len - 1) as u16;
            self.seen = [0; MAX_PROVISIONAL];
        }
        if !self.record.push(c) {
            return false;
        }
        let carry = [
            (self.captured[0] & seen[0]) - PointSet::single(c),
            (self.captured[1] & seen[1]) - PointSet::single(c),
        ];
        self.played(after, caps.points, passer, carry, seen);
        self.doubtful = false;
        let _ = self.pass();
        true
    }

    /// Whether the record's last two moves, both provisional, the second capturing the
    /// first's stone (an exchange of captures, [`Tracker::exchanged`]), are undone by the
    /// snapshot: it shows the position before them exactly (the stones they captured are
    /// back: one was knocked off, not captured). Then both are taken back.
    fn exchange_undone(&mut self, seen: &[PointSet; 2]) -> bool {
        let len = self.record.len();
        let (Some((c, Move::Play(x))), Some((_, Move::Play(_)))) = (
            self.record.get(len.wrapping_sub(2)),
            self.record.get(len.wrapping_sub(1)),
        ) else {
            return false;
        };
        if self.settled() + 2 > len || self.board.stones(c).contains(x) {
            return false;
        }
        let mut before = Board::empty(self.record.size(), Rules::STANDARD);
        if self
            .record
            .replay_to(&mut before, len - 2, |_, _| {})
            .is_err()
            || *before.stones(Color::Black) != seen[0]
            || *before.stones(Color::White) != seen[1]
        {
            return false;
        }
        self.record.truncate(len - 2);
        self.board = before;
        self.captured = [PointSet::EMPTY; 2];
        self.carried = false;
        self.doubtful = false;
        self.undone_len = 0;
        let at = (len - 2 - self.settled()).min(MAX_PROVISIONAL);
        self.seen[at..].fill(0);
        self.shown_at[at..].fill(0);
        self.generation = self.generation.wrapping_add(1);
        true
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

    /// Notes a move just pushed on the record: its position, its captures (with the
    /// captured stones `carry` left over from before, still to lift), a provisional count.
    fn played(
        &mut self,
        after: Board<StonesOnly>,
        captures: PointSet,
        mover: Color,
        carry: [PointSet; 2],
        seen: &[PointSet; 2],
    ) {
        let p = self.record.point(self.record.len() - 1);
        let before = self.captured[0] | self.captured[1];
        self.doubtful = captures.is_empty() && p.is_some_and(|p| before.contains(p));
        self.board = after;
        let kept = carry[0] | carry[1];
        self.emptied = (self.emptied & kept) | (captures - (seen[0] | seen[1]));
        let still = captures & seen[mover.opponent().index()];
        self.left_at_capture = match (captures.len() >= 2, still.len(), still.first()) {
            (true, 1, p) => p,
            _ => None,
        };
        self.carried = captures.is_empty() && !kept.is_empty();
        self.captured = carry;
        let opp = &mut self.captured[mover.opponent().index()];
        *opp |= captures;
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
        if let Some(s) = self.shown_at.get_mut(i) {
            let waited = |p: Point| self.waiting_more || self.waiting.contains(&p.index19());
            *s = match p {
                Some(p) if !waited(p) => self.readings,
                _ => 0,
            };
        }
        self.generation = self.generation.wrapping_add(1);
    }
}

/// Whether every point of `points` lies within `span` points of each other, across and
/// down (a hand's width).
fn within_hand(points: PointSet, span: u8) -> bool {
    let (mut x0, mut x1, mut y0, mut y1) = (u8::MAX, 0, u8::MAX, 0);
    for p in points.iter() {
        (x0, x1) = (x0.min(p.x), x1.max(p.x));
        (y0, y1) = (y0.min(p.y), y1.max(p.y));
    }
    x1.saturating_sub(x0) <= span && y1.saturating_sub(y0) <= span
}

/// Whether the stones `order` (those given, colours alternating from `first`), played on
/// `base`, are each legal and give the snapshot's position but for captured stones still
/// on the board.
fn explains(
    base: &Board<StonesOnly>,
    first: Color,
    order: &[Option<Point>],
    seen: &[PointSet; 2],
) -> bool {
    let mut board = base.clone();
    let mut captured = [PointSet::EMPTY; 2];
    let mut color = first;
    for &p in order.iter().flatten() {
        let Ok(caps) = board.play(color, Move::Play(p)) else {
            return false;
        };
        if let Some(opp) = captured.get_mut(color.opponent().index()) {
            *opp |= caps.points;
        }
        color = color.opponent();
    }
    [Color::Black, Color::White].iter().all(|&c| {
        let (stones, shown) = (*board.stones(c), seen[c.index()]);
        stones.is_subset(&shown) && (shown - stones).is_subset(&captured[c.index()])
    })
}

/// A fix verdict.
fn fix(condition: Condition, points: PointSet) -> Seen {
    Seen::Fix(Fix { condition, points })
}

/// Whether the recorded move `(color, mv)` on `board` is missing from the snapshot `seen`
/// (a pass never is).
fn is_missing(board: &Board<StonesOnly>, (color, mv): (Color, Move), seen: &[PointSet; 2]) -> bool {
    match mv {
        Move::Play(p) => board.stones(color).contains(p) && !seen[color.index()].contains(p),
        Move::Pass => false,
    }
}

/// The longest record `record[..first]` then the moves `point(first..end)` (colours
/// alternating) explains the snapshot as far as its provisional moves go: every move from
/// `first` whose stone is missing is captured by one new stone of the side to move (see
/// [`captured_by_next`]). At least `first` moves; with the position after them and the
/// stones the last of them captured.
fn longest_explained(
    record: &Record,
    first: usize,
    end: usize,
    seen: &[PointSet; 2],
    point: impl Fn(usize) -> Option<Move>,
) -> (usize, Board<StonesOnly>, PointSet) {
    // The record's position after `first` moves, then after each later one (with the
    // stones its last move captured, which may still be on the board).
    let mut board = Board::empty(record.size(), Rules::STANDARD);
    let mut last_captures = PointSet::EMPTY;
    let _ = record.replay_to(&mut board, first, |_, c| last_captures = *c);
    let mut keep = (first, board.clone(), last_captures);
    for n in first + 1..=end {
        let (color, Some(mv)) = (record.color_of(n - 1), point(n - 1)) else {
            break;
        };
        match board.play(color, mv) {
            Ok(caps) => last_captures = caps.points,
            Err(_) => break,
        }
        let gone = (first..n)
            .filter_map(|i| Some((record.color_of(i), point(i)?)))
            .filter(|&m| is_missing(&board, m, seen))
            .fold(PointSet::EMPTY, |set, (_, mv)| match mv {
                Move::Play(p) => set | PointSet::single(p),
                Move::Pass => set,
            });
        let to_move = record.color_of(n);
        if captured_by_next(&board, to_move, gone, last_captures, seen) {
            keep = (n, board.clone(), last_captures);
        }
    }
    keep
}

/// Whether a new stone of `to_move` on the snapshot `seen`, played on `board`, captures
/// every stone of `gone` (recorded stones missing from the snapshot): the next move took
/// them. The stones the record's last move captured (`last_captures`) are not new stones
/// (they may still be on the board), unless another of them was lifted: then one still
/// there may be the retake that took the capturing stone; a few new stones are tried (one
/// may be a phantom).
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
    let mut new = seen[to_move.index()] - occupied - last_captures;
    let lifted = !(last_captures - (seen[0] | seen[1])).is_empty();
    if lifted {
        // A captured stone still on the board, where another of the capture's stones was
        // lifted, may be the retake that took them.
        new |= seen[to_move.index()] & last_captures;
    }
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
