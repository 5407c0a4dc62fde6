//! Corner logs: for each 7x7 corner box of a game, its first [`CORNER_EVENTS`] changes
//! (point, what it became, the position they belong to) and the points emptied after them.
//!
//! Corner patterns (joseki) are what users search most. A placement whose region lies in
//! one box is decided by the box's history alone: replaying the kept changes gives every
//! position where the region newly matches; once a stone lies for good on a cell that
//! rejects it (no later emptying), nothing after the kept changes can match. For most
//! games that happens within the kept changes, so the game's moves are never read; when
//! not, the log at least tells, from its first changes, whether the placement can match at
//! all ([`CornerLog::may_match`]).
//!
//! A log never splits a position: the changes of one move (its stone, its captures) and of
//! the setup that follows it are kept together or not at all.

use crate::point::Point;

/// Side of a corner box.
pub const CORNER_BOX: u8 = 7;
/// Changes kept per corner box.
pub const CORNER_EVENTS: usize = 20;
/// Bytes of one corner's record: count and flags (1), changes (20), the position of each
/// change as the difference from the one before (20), emptied points (7).
pub const CORNER_BYTES: usize = 48;
const EVENTS_AT: usize = 1;
const DELTAS_AT: usize = EVENTS_AT + CORNER_EVENTS;
const EMPTIED_AT: usize = DELTAS_AT + CORNER_EVENTS;
/// Bytes of a game's four corner records.
pub const GAME_CORNER_BYTES: usize = 4 * CORNER_BYTES;

/// What a point became (bits 6-7 of a change byte).
pub const BECAME_BLACK: u8 = 0;
/// See [`BECAME_BLACK`].
pub const BECAME_WHITE: u8 = 1;
/// See [`BECAME_BLACK`].
pub const BECAME_EMPTY: u8 = 2;
/// Header bits 0-4: the count of kept changes.
const COUNT_MASK: u8 = 0x1f;
/// Header flag: the box changed again after the kept changes.
const MORE: u8 = 0x20;
/// Header flag: a setup after the start changed the box (its stones are no moves).
const LATE_SETUP: u8 = 0x40;
const BOX_POINTS: u8 = CORNER_BOX * CORNER_BOX;

/// The corner box holding `p` and `p`'s index in it (`ly * 7 + lx`), if any. Boxes:
/// 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right.
#[inline]
pub fn corner_of(p: Point) -> Option<(usize, u8)> {
    let far = 19 - CORNER_BOX;
    let (cx, lx) = match p.x {
        x if x < CORNER_BOX => (0, x),
        x if (far..19).contains(&x) => (1, x - far),
        _ => return None,
    };
    let (cy, ly) = match p.y {
        y if y < CORNER_BOX => (0, y),
        y if (far..19).contains(&y) => (1, y - far),
        _ => return None,
    };
    Some((cy * 2 + cx, ly * CORNER_BOX + lx))
}

/// The top-left board point of corner box `c`.
#[inline]
pub fn corner_origin(c: usize) -> Point {
    let far = 19 - CORNER_BOX;
    Point::new(
        if c & 1 == 0 { 0 } else { far },
        if c & 2 == 0 { 0 } else { far },
    )
}

/// The board point of index `at` of corner box `c`.
#[inline]
pub fn box_point(c: usize, at: u8) -> Point {
    let o = corner_origin(c);
    Point::new(o.x + at % CORNER_BOX, o.y + at / CORNER_BOX)
}

/// The history of one corner box, as far as pattern search needs it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CornerLog {
    /// The first changes in the box, in order: bits 0-5 the point's index in the box,
    /// bits 6-7 what it became ([`BECAME_BLACK`], [`BECAME_WHITE`], [`BECAME_EMPTY`]).
    pub events: [u8; CORNER_EVENTS],
    /// The position of each change (the number of moves played; 0 for the setup).
    pub numbers: [u16; CORNER_EVENTS],
    /// How many of `events` are used.
    pub count: u8,
    /// Whether the box changed after them.
    pub more: bool,
    /// Points of the box (bit `ly * 7 + lx`) emptied after the kept changes.
    pub emptied_later: u64,
    /// Whether a setup after the start changed the box: then stone changes are not all
    /// moves, and [`CornerLog::hits`] leaves the game to the scan.
    pub late_setup: bool,
}

/// A region part on one corner box: masks over the box's points (bit `ly * 7 + lx`), as
/// a variant's masks over its rows, and the box points of the region.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BoxMasks {
    /// Cells whose blackness matters.
    pub care_black: u64,
    /// Cells that must be black.
    pub need_black: u64,
    /// Cells whose whiteness matters.
    pub care_white: u64,
    /// Cells that must be white.
    pub need_white: u64,
    /// Every point of the region in the box.
    pub region: u64,
}

impl BoxMasks {
    #[inline]
    fn holds(&self, b: u64, w: u64) -> bool {
        b & self.care_black == self.need_black && w & self.care_white == self.need_white
    }

    /// Points holding a stone their cell rejects.
    #[inline]
    fn rejected(&self, b: u64, w: u64) -> u64 {
        (b & self.care_black & !self.need_black) | (w & self.care_white & !self.need_white)
    }
}

/// The continuation of a hit read from a corner log.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LogContinuation {
    /// The move: its number, its point (box index) and whether it is White's.
    Move(u32, u8, bool),
    /// The game has no later move in the region.
    None,
    /// Not among the kept changes: the first move in the region after this move number.
    After(u32),
}

/// A hit read from a corner log: its position and its continuation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LogHit {
    /// Moves played before the position.
    pub move_number: u32,
    /// The continuation.
    pub continuation: LogContinuation,
}

/// The most hits one log gives a placement.
pub const MAX_LOG_HITS: usize = CORNER_EVENTS + 1;

/// What a log tells of one placement ([`CornerLog::replay`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogReplay {
    /// The hits at the kept positions, in order.
    pub hits: heapless::Vec<LogHit, MAX_LOG_HITS>,
    /// Whether there are no others: the region cannot hold after the kept changes.
    pub decided: bool,
    /// The last kept position (0 when nothing is kept): hits after it come from a scan.
    pub last: u32,
}

/// What [`CornerLog::replay_record`] tells besides the hits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RecordReplay {
    /// Whether there are no other hits: the region cannot hold after the kept changes.
    pub decided: bool,
    /// The last kept position looked at (0 when nothing is kept): hits after it come
    /// from a scan.
    pub last: u32,
}

impl CornerLog {
    fn kept(&self) -> usize {
        (self.count as usize).min(CORNER_EVENTS)
    }

    /// Whether the region part `m` can ever hold in the game: some kept state agrees, or
    /// after the kept changes no stone lies for good on a cell that rejects it.
    pub fn may_match(&self, m: &BoxMasks) -> bool {
        CornerLog::may_match_record(&self.to_bytes(), m)
    }

    /// The number of kept changes of a record.
    #[inline]
    pub fn record_count(rec: &[u8; CORNER_BYTES]) -> usize {
        ((rec[0] & COUNT_MASK) as usize).min(CORNER_EVENTS)
    }

    /// [`CornerLog::may_match`] read straight from a record's bytes (validated when the
    /// data was opened; any bytes give an answer, never a panic).
    #[inline]
    pub fn may_match_record(rec: &[u8; CORNER_BYTES], m: &BoxMasks) -> bool {
        let (mut b, mut w) = (0u64, 0u64);
        if m.holds(b, w) {
            return true;
        }
        let kept = CornerLog::record_count(rec);
        let events = &rec[EVENTS_AT..EVENTS_AT + kept];
        let more = rec[0] & MORE != 0;
        let later = if more { emptied_later(rec) } else { 0 };
        // Points ever emptied after the start: a stone on a rejecting cell elsewhere stays
        // for the rest of the game, and nothing later can match.
        let emptied = later | emptied_points(rec);
        let whole = m.region == (1u64 << BOX_POINTS) - 1;
        for &ev in events {
            if !whole && m.region >> (ev & 63) & 1 == 0 {
                // Outside the region: the masks do not see it.
                continue;
            }
            apply(ev, &mut b, &mut w);
            if m.holds(b, w) {
                return true;
            }
            if m.rejected(b, w) & !emptied != 0 {
                return false;
            }
        }
        more && m.rejected(b, w) & !later == 0
    }

    /// The hits of a placement whose region lies inside the box (masks `m`), as far as
    /// the log tells: every kept position where the region newly holds, with the
    /// continuation, and whether that is all of them. `None` when a late setup makes the
    /// log unfit (the game is then scanned).
    pub fn replay(&self, m: &BoxMasks) -> Option<LogReplay> {
        let mut hits = heapless::Vec::new();
        let mut full = false;
        let r = CornerLog::replay_record(&self.to_bytes(), m, |h| full |= hits.push(h).is_err())?;
        if full {
            return None;
        }
        Some(LogReplay {
            hits,
            decided: r.decided,
            last: r.last,
        })
    }

    /// [`CornerLog::replay`] read straight from a record's bytes (validated when the data
    /// was opened; any bytes give an answer, never a panic), the hits passed to `on_hit`
    /// in order. It stops at the first kept position where a stone lies for good on a
    /// cell that rejects it (no kept change and nothing after the kept changes empties
    /// it): nothing later can hold. `None` when a late setup makes the log unfit.
    #[inline]
    pub fn replay_record(
        rec: &[u8; CORNER_BYTES],
        m: &BoxMasks,
        mut on_hit: impl FnMut(LogHit),
    ) -> Option<RecordReplay> {
        if rec[0] & LATE_SETUP != 0 {
            return None;
        }
        let kept = CornerLog::record_count(rec);
        let more = rec[0] & MORE != 0;
        let later = if more { emptied_later(rec) } else { 0 };
        let events = &rec[EVENTS_AT..EVENTS_AT + kept];
        let deltas = &rec[DELTAS_AT..DELTAS_AT + kept];
        let (mut b, mut w) = (0u64, 0u64);
        let mut prev: Option<bool> = None;
        // Position 0 (the setup) first, even when nothing is set up in the box.
        if deltas.first().is_none_or(|&d| d != 0) {
            let now = m.holds(0, 0);
            if now {
                on_hit(record_hit(rec, kept, more, 0, m));
            }
            prev = Some(now);
        }
        let mut emptied: Option<u64> = None;
        let (mut i, mut at) = (0usize, 0u16);
        while i < kept {
            // The changes of one position: the first with its difference, the others 0.
            // Only those inside the region matter (the masks lie inside it).
            at = at.saturating_add(deltas[i] as u16);
            let mut touched = false;
            loop {
                let e = events[i];
                if m.region >> (e & 63) & 1 == 1 {
                    apply(e, &mut b, &mut w);
                    touched = true;
                }
                i += 1;
                if i >= kept || deltas[i] != 0 {
                    break;
                }
            }
            // (The first position is looked at even untouched: its matches are hits.)
            if !touched && prev.is_some() {
                continue;
            }
            let now = m.holds(b, w);
            if now && prev != Some(true) {
                on_hit(record_hit(rec, kept, more, at as u32, m));
            }
            prev = Some(now);
            let rejected = m.rejected(b, w);
            if rejected != 0 {
                let e = *emptied.get_or_insert_with(|| later | emptied_points(rec));
                if rejected & !e != 0 {
                    return Some(RecordReplay {
                        decided: true,
                        last: at as u32,
                    });
                }
            }
        }
        Some(RecordReplay {
            decided: !more || m.rejected(b, w) & !later != 0,
            last: at as u32,
        })
    }

    /// The hits of [`CornerLog::replay`] when the log decides them all.
    pub fn hits(&self, m: &BoxMasks) -> Option<heapless::Vec<LogHit, MAX_LOG_HITS>> {
        self.replay(m).filter(|r| r.decided).map(|r| r.hits)
    }

    /// The box's black and white stones (bits `ly * 7 + lx`) at position `at`, from the
    /// kept changes (meaningful up to the last kept position).
    pub fn state_at(&self, at: u32) -> (u64, u64) {
        let (mut b, mut w) = (0u64, 0u64);
        for (&e, &n) in self.events.iter().zip(&self.numbers).take(self.kept()) {
            if n as u32 > at {
                break;
            }
            apply(e, &mut b, &mut w);
        }
        (b, w)
    }

    /// The record's bytes (the logger keeps the differences of positions within a byte).
    pub fn to_bytes(&self) -> [u8; CORNER_BYTES] {
        let mut out = [0u8; CORNER_BYTES];
        out[0] = self.count
            | if self.more { MORE } else { 0 }
            | if self.late_setup { LATE_SETUP } else { 0 };
        out[EVENTS_AT..DELTAS_AT].copy_from_slice(&self.events);
        let mut prev = 0u16;
        for (d, &n) in out[DELTAS_AT..EMPTIED_AT]
            .iter_mut()
            .zip(&self.numbers)
            .take(self.kept())
        {
            *d = n.saturating_sub(prev).min(255) as u8;
            prev = n;
        }
        out[EMPTIED_AT..EMPTIED_AT + 7].copy_from_slice(&self.emptied_later.to_le_bytes()[..7]);
        out
    }

    /// A record from its bytes as they are (for records validated when the data was
    /// opened: any bytes give some log, never a panic).
    #[inline]
    pub fn read(b: &[u8; CORNER_BYTES]) -> CornerLog {
        let mut log = CornerLog {
            count: (b[0] & COUNT_MASK).min(CORNER_EVENTS as u8),
            more: b[0] & MORE != 0,
            late_setup: b[0] & LATE_SETUP != 0,
            ..CornerLog::default()
        };
        log.events.copy_from_slice(&b[EVENTS_AT..DELTAS_AT]);
        let mut at = 0u16;
        let kept = log.count as usize;
        for (n, &d) in log
            .numbers
            .iter_mut()
            .zip(&b[DELTAS_AT..EMPTIED_AT])
            .take(kept)
        {
            at = at.saturating_add(d as u16);
            *n = at;
        }
        let mut m = [0u8; 8];
        m[..7].copy_from_slice(&b[EMPTIED_AT..EMPTIED_AT + 7]);
        log.emptied_later = u64::from_le_bytes(m);
        log
    }

    /// A record from its bytes, `None` unless they are a valid record (counts, points,
    /// kinds, numbers in order, unused fields zero).
    pub fn from_bytes(b: &[u8]) -> Option<CornerLog> {
        let b: &[u8; CORNER_BYTES] = b.try_into().ok()?;
        let count = b[0] & COUNT_MASK;
        let more = b[0] & MORE != 0;
        if b[0] & !(COUNT_MASK | MORE | LATE_SETUP) != 0 || count as usize > CORNER_EVENTS {
            return None;
        }
        let mut log = CornerLog {
            count,
            more,
            late_setup: b[0] & LATE_SETUP != 0,
            ..CornerLog::default()
        };
        let read = CornerLog::read(b);
        log.events = read.events;
        log.numbers = read.numbers;
        log.emptied_later = read.emptied_later;
        for i in 0..CORNER_EVENTS {
            let (e, d) = (b[EVENTS_AT + i], b[DELTAS_AT + i]);
            let ok = if i < count as usize {
                (e & 63) < BOX_POINTS && e >> 6 <= BECAME_EMPTY
            } else {
                e == 0 && d == 0
            };
            if !ok {
                return None;
            }
        }
        if log.emptied_later >> BOX_POINTS != 0 || (!more && log.emptied_later != 0) {
            return None;
        }
        Some(log)
    }
}

/// The points the kept changes of a record empty (bits `ly * 7 + lx`). Captures are rare
/// among a box's first changes, so the change bytes are tested eight at a time (bits 7-6
/// `10`: [`BECAME_EMPTY`]) and only those found are read. Unused change bytes are zero
/// (a valid record's), which never reads as emptying; a damaged record can only add
/// points, which makes the answers that use this set less sharp, never wrong.
#[inline]
fn emptied_points(rec: &[u8; CORNER_BYTES]) -> u64 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word = |first: usize, live: u64| -> u64 {
        let mut bytes = [0u8; 8];
        if let Some(b) = rec.get(first..first + 8) {
            bytes.copy_from_slice(b);
        }
        let x = u64::from_le_bytes(bytes) & live;
        x & !(x << 1) & HIGH
    };
    // The third read covers changes 16-19 and 4 bytes past them, masked off.
    let parts = [
        word(EVENTS_AT, !0),
        word(EVENTS_AT + 8, !0),
        word(EVENTS_AT + 16, 0xffff_ffff),
    ];
    let mut out = 0u64;
    if parts.iter().all(|&m| m == 0) {
        return out;
    }
    for (k, mut m) in parts.into_iter().enumerate() {
        while m != 0 {
            let byte = (m.trailing_zeros() / 8) as usize;
            m &= m - 1;
            out |= 1 << (rec[EVENTS_AT + 8 * k + byte] & 63);
        }
    }
    out
}

/// The hit at position `move_number` of a record with `kept` changes: its continuation
/// is the first kept stone inside the region after it, or after the kept changes.
fn record_hit(
    rec: &[u8; CORNER_BYTES],
    kept: usize,
    more: bool,
    move_number: u32,
    m: &BoxMasks,
) -> LogHit {
    let mut at = 0u16;
    for j in 0..kept {
        at = at.saturating_add(rec[DELTAS_AT + j] as u16);
        let e = rec[EVENTS_AT + j];
        if at as u32 > move_number && e >> 6 != BECAME_EMPTY && m.region >> (e & 63) & 1 == 1 {
            // Without late setups, only moves put stones in the box after the start.
            return LogHit {
                move_number,
                continuation: LogContinuation::Move(at as u32, e & 63, e >> 6 == BECAME_WHITE),
            };
        }
    }
    LogHit {
        move_number,
        continuation: if more {
            LogContinuation::After(at as u32)
        } else {
            LogContinuation::None
        },
    }
}

/// The points a record says were emptied after its kept changes.
#[inline]
fn emptied_later(rec: &[u8; CORNER_BYTES]) -> u64 {
    let mut e = [0u8; 8];
    e[..7].copy_from_slice(&rec[EMPTIED_AT..EMPTIED_AT + 7]);
    u64::from_le_bytes(e)
}

#[inline]
fn apply(e: u8, b: &mut u64, w: &mut u64) {
    let bit = 1u64 << (e & 63);
    *b &= !bit;
    *w &= !bit;
    match e >> 6 {
        BECAME_BLACK => *b |= bit,
        BECAME_WHITE => *w |= bit,
        _ => {}
    }
}

/// Builds a game's four logs from its changes, position by position.
#[derive(Clone, Debug, Default)]
pub struct CornerLogger {
    logs: [CornerLog; 4],
    /// Changes of the current position not yet kept, per box.
    pending: [[u8; CORNER_EVENTS]; 4],
    pending_len: [u8; 4],
    /// Boxes whose current position's changes no longer fit.
    spilled: [bool; 4],
    /// Points emptied in the current position, per box.
    pending_emptied: [u64; 4],
    /// Boxes (bit `c`) changed in the current position: the others have nothing to end
    /// (most moves change one box or none).
    dirty: u8,
}

impl CornerLogger {
    /// Records that a setup after the start changed `p` (then [`CornerLogger::change`]).
    pub fn late_setup(&mut self, p: Point) {
        if let Some(log) = corner_of(p).and_then(|(c, _)| self.logs.get_mut(c)) {
            log.late_setup = true;
        }
    }

    /// Records that `p` became `became` ([`BECAME_BLACK`], ...), in the current position.
    pub fn change(&mut self, p: Point, became: u8) {
        let Some((c, at)) = corner_of(p) else { return };
        self.dirty |= 1 << c;
        let (Some(log), Some(len), Some(spilled), Some(emptied), Some(pending)) = (
            self.logs.get(c),
            self.pending_len.get_mut(c),
            self.spilled.get_mut(c),
            self.pending_emptied.get_mut(c),
            self.pending.get_mut(c),
        ) else {
            return;
        };
        if became == BECAME_EMPTY {
            *emptied |= 1 << at;
        }
        if log.more || *spilled || log.count as usize + *len as usize >= CORNER_EVENTS {
            *spilled = true;
            return;
        }
        if let Some(slot) = pending.get_mut(*len as usize) {
            *slot = at | became << 6;
            *len += 1;
        }
    }

    /// Ends position `number`: its changes are kept if they all fit.
    pub fn end_position(&mut self, number: u32) {
        let mut dirty = self.dirty;
        self.dirty = 0;
        while dirty != 0 {
            let c = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let log = &mut self.logs[c];
            let len = self.pending_len[c] as usize;
            // Positions are kept as differences of at most 255 from the one before.
            let last = match log.count {
                0 => 0,
                k => log.numbers.get(k as usize - 1).copied().unwrap_or(0) as u32,
            };
            let far = len > 0 && number.saturating_sub(last) > 255;
            if self.spilled[c] || log.more || far {
                if self.spilled[c] || len > 0 || self.pending_emptied[c] != 0 {
                    log.more = true;
                }
                log.emptied_later |= self.pending_emptied[c];
            } else {
                for k in 0..len {
                    let i = log.count as usize;
                    if let (Some(e), Some(n)) = (log.events.get_mut(i), log.numbers.get_mut(i)) {
                        *e = self.pending[c][k];
                        *n = number.min(u16::MAX as u32) as u16;
                        log.count += 1;
                    }
                }
            }
            self.pending_len[c] = 0;
            self.spilled[c] = false;
            self.pending_emptied[c] = 0;
        }
    }

    /// The logs (after the last [`CornerLogger::end_position`]).
    pub fn logs(&self) -> [CornerLog; 4] {
        self.logs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_boxes() {
        assert_eq!(corner_of(Point::new(0, 0)), Some((0, 0)));
        assert_eq!(corner_of(Point::new(6, 6)), Some((0, 48)));
        assert_eq!(corner_of(Point::new(7, 0)), None);
        assert_eq!(corner_of(Point::new(12, 0)), Some((1, 0)));
        assert_eq!(corner_of(Point::new(18, 18)), Some((3, 48)));
        assert_eq!(corner_of(Point::new(3, 15)), Some((2, 3 * 7 + 3)));
        for c in 0..4 {
            assert_eq!(corner_of(corner_origin(c)), Some((c, 0)));
            assert_eq!(
                box_point(c, 48),
                Point::new(corner_origin(c).x + 6, corner_origin(c).y + 6)
            );
        }
    }

    fn bit(at: u8) -> u64 {
        1 << at
    }

    #[test]
    fn logs_keep_whole_positions() {
        let mut l = CornerLogger::default();
        let p = |at: u8| box_point(0, at);
        // Single changes up to four short of full...
        let single = CORNER_EVENTS as u8 - 4;
        for at in 0..single {
            l.change(p(at + 30), BECAME_BLACK);
            l.end_position(at as u32 + 1);
        }
        // ...then a capture: five changes of one position do not fit in the four left.
        l.change(p(20), BECAME_BLACK);
        for at in [30, 31, 32, 33] {
            l.change(p(at), BECAME_EMPTY);
        }
        l.end_position(40);
        l.change(p(44), BECAME_WHITE);
        l.end_position(41);
        let log = l.logs()[0];
        assert_eq!(log.count, single);
        assert!(log.more);
        assert_eq!(log.numbers[single as usize - 1], single as u16);
        assert_eq!(log.emptied_later, bit(30) | bit(31) | bit(32) | bit(33));
        assert_eq!(CornerLog::from_bytes(&log.to_bytes()), Some(log));
        assert_eq!(l.logs()[1], CornerLog::default());
        assert!(CornerLog::from_bytes(&[0xff; CORNER_BYTES]).is_none());
        // A position more than 255 after the one before ends the log.
        let mut far = CornerLogger::default();
        far.change(p(1), BECAME_BLACK);
        far.end_position(3);
        far.change(p(2), BECAME_WHITE);
        far.end_position(300);
        let log = far.logs()[0];
        assert_eq!((log.count, log.more), (1, true));
        assert_eq!(CornerLog::from_bytes(&log.to_bytes()), Some(log));
    }

    #[test]
    fn hits_from_a_log() {
        let mut l = CornerLogger::default();
        let p = |at: u8| box_point(0, at);
        // Black 10 (move 1), White elsewhere (not in the box), Black 11 (move 3),
        // White 10 captured... then Black 10 again (move 7).
        l.change(p(10), BECAME_BLACK);
        l.end_position(1);
        l.change(p(11), BECAME_BLACK);
        l.end_position(3);
        l.change(p(10), BECAME_EMPTY);
        l.change(p(12), BECAME_WHITE);
        l.end_position(5);
        l.change(p(10), BECAME_BLACK);
        l.end_position(7);
        let log = l.logs()[0];
        assert!(!log.more);
        // Region {10, 11}: black on 10, 11 anything ("X*").
        let m = BoxMasks {
            care_black: bit(10),
            need_black: bit(10),
            care_white: 0,
            need_white: 0,
            region: bit(10) | bit(11),
        };
        let hits = log.hits(&m).unwrap();
        assert_eq!(
            &hits[..],
            &[
                LogHit {
                    move_number: 1,
                    continuation: LogContinuation::Move(3, 11, false)
                },
                LogHit {
                    move_number: 7,
                    continuation: LogContinuation::None
                },
            ]
        );
        assert!(log.may_match(&m));
        // Region {13}: must be white: never.
        let never = BoxMasks {
            care_white: bit(13),
            need_white: bit(13),
            region: bit(13),
            ..BoxMasks::default()
        };
        assert_eq!(log.hits(&never).map(|h| h.len()), Some(0));
        assert!(!log.may_match(&never));
        // Region {20} empty: holds at position 0 already.
        let empty = BoxMasks {
            care_black: bit(20),
            care_white: bit(20),
            region: bit(20),
            ..BoxMasks::default()
        };
        let h = log.hits(&empty).unwrap();
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].move_number, 0);
    }

    #[test]
    fn undecided_logs() {
        let mut l = CornerLogger::default();
        let p = |at: u8| box_point(3, at);
        for at in 0..=CORNER_EVENTS as u8 {
            l.change(p(at), BECAME_BLACK);
            l.end_position(at as u32 + 1);
        }
        l.change(p(0), BECAME_EMPTY);
        l.end_position(30);
        let log = l.logs()[3];
        assert!(log.more);
        assert_eq!(log.emptied_later, bit(0));
        // Point 0 must be empty: emptied later, so undecided.
        let m = BoxMasks {
            care_black: bit(0),
            care_white: bit(0),
            region: bit(0),
            ..BoxMasks::default()
        };
        assert!(log.hits(&m).is_none());
        assert!(log.may_match(&m));
        // Point 1 must be empty: black for good from move 2.
        let m1 = BoxMasks {
            care_black: bit(1),
            care_white: bit(1),
            region: bit(1),
            ..BoxMasks::default()
        };
        let h = log.hits(&m1).unwrap();
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].continuation, LogContinuation::Move(2, 1, false));
    }
}
