//! First stones: for every point of a game, the position where it first holds a stone and
//! that stone's colour, and which points ever change again after it. With them a corner
//! or side placement is decided without replaying the game (`super::decide`): while no
//! point of its region has changed a second time, each cell is empty up to its first
//! stone and holds that stone from then on, so the region matches exactly from the last
//! stone it needs to the first stone it rejects.
//!
//! The records (encoders beside their readers, loopback tests below):
//!
//! - the **first-stone byte** of a point ([`first_byte`]): the position of its first stone
//!   (moves played; 0 for a stone set up before the first move) up to 253, [`FIRST_LATE`]
//!   for position 254 or later, [`FIRST_NEVER`] when the point never holds a stone;
//! - the **unsettled row** of a game ([`UnsettledRow`], [`UNSETTLED_ROW_BYTES`] bytes): the
//!   points whose content changes again after their first stone (a capture, or a setup
//!   after the start) or that a setup after the start changes at all, as 19 little-endian
//!   `u32` bit rows (bit `x` of row `y`); for each board row, the first position where one
//!   of its points changes so, as a first-stone byte ([`FIRST_NEVER`]: none); the same for
//!   the whole board; a byte of flags (bit 0: a setup after the start changes the board);
//!   7 zero bytes.
//!
//! Position 0 is the board before the first move: setup stones there are first stones at
//! position 0, however the setup reached them (a point set and cleared again before the
//! first move holds nothing at position 0).

use crate::point::{Color, Point, Stone, MAX_POINTS, MAX_SIDE};
use crate::pointset::PointSet;

/// First-stone byte of a point that never holds a stone.
pub const FIRST_NEVER: u8 = 255;
/// First-stone byte of a point whose first stone comes at position 254 or later.
pub const FIRST_LATE: u8 = 254;

/// The first-stone byte of a first stone at position `n`.
#[inline]
pub const fn first_byte(n: u32) -> u8 {
    if n >= FIRST_LATE as u32 {
        FIRST_LATE
    } else {
        n as u8
    }
}

/// Bytes of an [`UnsettledRow`].
pub const UNSETTLED_ROW_BYTES: usize = 104;
const ROWS: usize = MAX_SIDE as usize;
const ROW_FIRST_AT: usize = ROWS * 4;
const FIRST_UNSETTLING_AT: usize = ROW_FIRST_AT + ROWS;
const FLAGS_AT: usize = FIRST_UNSETTLING_AT + 1;
/// Flag: a setup after the start changes the board.
const LATE_SETUP: u8 = 1;

/// What a game's replay notes of its first stones.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FirstStones {
    /// Each point's first-stone byte ([`first_byte`]), by `y * 19 + x`.
    pub first: [u8; MAX_POINTS],
    /// The points whose first stone is white.
    pub first_white: PointSet,
    /// The points that change again after their first stone, or that a setup after the
    /// start changes.
    pub unsettled: PointSet,
    /// For each board row, the first position where a point of the row changes so, as a
    /// first-stone byte ([`FIRST_NEVER`]: none).
    pub row_unsettling: [u8; ROWS],
    /// Whether a setup after the start changes the board.
    pub late_setup: bool,
}

impl Default for FirstStones {
    fn default() -> Self {
        FirstStones::NONE
    }
}

impl FirstStones {
    /// A game without stones.
    pub const NONE: FirstStones = FirstStones {
        first: [FIRST_NEVER; MAX_POINTS],
        first_white: PointSet::EMPTY,
        unsettled: PointSet::EMPTY,
        row_unsettling: [FIRST_NEVER; ROWS],
        late_setup: false,
    };

    /// The game's unsettled row.
    pub fn unsettled_row(&self) -> UnsettledRow {
        UnsettledRow {
            unsettled: self.unsettled,
            row_unsettling: self.row_unsettling,
            late_setup: self.late_setup,
        }
    }
}

/// Notes the first stones of a game from its changes in order: the changes of position 0
/// ([`FirstStoneNotes::start`]), then each later change ([`FirstStoneNotes::change`]).
#[derive(Clone, Debug)]
pub struct FirstStoneNotes {
    stones: FirstStones,
    /// The board of position 0 while its setup is read.
    start: [PointSet; 2],
    /// Whether position 0 is over (a move was played).
    started: bool,
}

impl Default for FirstStoneNotes {
    fn default() -> Self {
        FirstStoneNotes::new()
    }
}

impl FirstStoneNotes {
    /// Nothing noted yet.
    pub const fn new() -> FirstStoneNotes {
        FirstStoneNotes {
            stones: FirstStones::NONE,
            start: [PointSet::EMPTY; 2],
            started: false,
        }
    }

    /// A setup before the first move put `new` on `p`.
    pub fn start(&mut self, p: Point, new: Stone) {
        let [black, white] = &mut self.start;
        black.remove(p);
        white.remove(p);
        match new {
            Stone::Black => black.insert(p),
            Stone::White => white.insert(p),
            Stone::Empty => false,
        };
    }

    /// Ends position 0 (once, at the first move or at the end): its stones are first
    /// stones at position 0.
    fn end_start(&mut self) {
        if self.started {
            return;
        }
        self.started = true;
        for (c, set) in self.start.iter().enumerate() {
            for p in set.iter() {
                if let Some(f) = self.stones.first.get_mut(p.index19() as usize) {
                    *f = 0;
                }
                if c == 1 {
                    self.stones.first_white.insert(p);
                }
            }
        }
    }

    /// At position `n` (at least 1), `p` became `new` (a move's stone, a removed stone, or
    /// a setup after the start when `setup`).
    pub fn change(&mut self, p: Point, new: Stone, n: u32, setup: bool) {
        self.end_start();
        let Some(first) = self.stones.first.get_mut(p.index19() as usize) else {
            return;
        };
        let had_stone = *first != FIRST_NEVER;
        if let (false, Some(color)) = (had_stone, new.color()) {
            *first = first_byte(n);
            if color == Color::White {
                self.stones.first_white.insert(p);
            }
        }
        if setup || had_stone {
            if let Some(r) = self.stones.row_unsettling.get_mut(p.y as usize) {
                *r = (*r).min(first_byte(n));
            }
            self.stones.unsettled.insert(p);
            self.stones.late_setup |= setup;
        }
    }

    /// The first stones, once the game is over.
    pub fn finish(mut self) -> FirstStones {
        self.end_start();
        self.stones
    }
}

/// The points of a game that change again after their first stone (or by a setup after
/// the start), and where the first of them does: one row of the pattern data per game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UnsettledRow {
    /// The points.
    pub unsettled: PointSet,
    /// For each board row, the first position where one of its points changes so, as a
    /// first-stone byte ([`FIRST_NEVER`]: none).
    pub row_unsettling: [u8; ROWS],
    /// Whether a setup after the start changes the board.
    pub late_setup: bool,
}

impl Default for UnsettledRow {
    fn default() -> Self {
        FirstStones::NONE.unsettled_row()
    }
}

impl UnsettledRow {
    /// The row's bytes.
    pub fn encode(&self) -> [u8; UNSETTLED_ROW_BYTES] {
        let mut out = [0u8; UNSETTLED_ROW_BYTES];
        for (chunk, r) in out.chunks_exact_mut(4).zip(self.unsettled.rows()) {
            chunk.copy_from_slice(&r.to_le_bytes());
        }
        out[ROW_FIRST_AT..FIRST_UNSETTLING_AT].copy_from_slice(&self.row_unsettling);
        out[FIRST_UNSETTLING_AT] = self
            .row_unsettling
            .iter()
            .copied()
            .min()
            .unwrap_or(FIRST_NEVER);
        out[FLAGS_AT] = if self.late_setup { LATE_SETUP } else { 0 };
        out
    }

    /// The row of `bytes`, `None` unless they are a valid row (bits only on the board, a
    /// board row's position exactly when it has a point, the board's the first of them, a
    /// flag only with a point, unused bytes zero).
    pub fn decode(bytes: &[u8; UNSETTLED_ROW_BYTES]) -> Option<UnsettledRow> {
        let mut rows = [0u32; ROWS];
        let mut row_unsettling = [FIRST_NEVER; ROWS];
        for (y, (r, f)) in rows.iter_mut().zip(row_unsettling.iter_mut()).enumerate() {
            *r = UnsettledRow::row_bits(bytes, y);
            *f = UnsettledRow::row_unsettling_of(bytes, y);
            if *r >> MAX_SIDE != 0 || (*r == 0) != (*f == FIRST_NEVER) {
                return None;
            }
        }
        let row = UnsettledRow {
            unsettled: PointSet::from_rows(&rows),
            row_unsettling,
            late_setup: UnsettledRow::late_setup_of(bytes),
        };
        let first = row_unsettling.iter().copied().min().unwrap_or(FIRST_NEVER);
        let valid = UnsettledRow::first_unsettling_of(bytes) == first
            && (!row.late_setup || first != FIRST_NEVER)
            && bytes[FLAGS_AT] & !LATE_SETUP == 0
            && bytes[FLAGS_AT + 1..].iter().all(|&b| b == 0);
        valid.then_some(row)
    }

    /// Bit row `y` of the unsettled points of a row's bytes (0 past the board).
    #[inline(always)]
    pub fn row_bits(bytes: &[u8; UNSETTLED_ROW_BYTES], y: usize) -> u32 {
        match bytes.get(4 * y..4 * y + 4) {
            Some(b) if y < ROWS => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            _ => 0,
        }
    }

    /// The first position where a point of board row `y` changes again, as a first-stone
    /// byte ([`FIRST_NEVER`]: none, or past the board).
    #[inline(always)]
    pub fn row_unsettling_of(bytes: &[u8; UNSETTLED_ROW_BYTES], y: usize) -> u8 {
        match bytes.get(ROW_FIRST_AT + y) {
            Some(&b) if y < ROWS => b,
            _ => FIRST_NEVER,
        }
    }

    /// The first position where a point of the board changes again, as a first-stone byte
    /// ([`FIRST_NEVER`]: none).
    #[inline(always)]
    pub fn first_unsettling_of(bytes: &[u8; UNSETTLED_ROW_BYTES]) -> u8 {
        bytes[FIRST_UNSETTLING_AT]
    }

    /// Whether a row's bytes say that a setup after the start changes the board.
    #[inline(always)]
    pub fn late_setup_of(bytes: &[u8; UNSETTLED_ROW_BYTES]) -> bool {
        bytes[FLAGS_AT] & LATE_SETUP != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_bytes() {
        assert_eq!(first_byte(0), 0);
        assert_eq!(first_byte(253), 253);
        assert_eq!(first_byte(254), FIRST_LATE);
        assert_eq!(first_byte(u32::MAX), FIRST_LATE);
    }

    #[test]
    fn unsettled_rows_round_trip() {
        let mut set = PointSet::EMPTY;
        let mut row_unsettling = [FIRST_NEVER; ROWS];
        for (x, y, n) in [
            (0, 0, 7),
            (18, 0, 3),
            (0, 18, 253),
            (18, 18, 254),
            (9, 4, 0),
        ] {
            set.insert(Point::new(x, y));
            row_unsettling[y as usize] = row_unsettling[y as usize].min(n);
        }
        for late_setup in [false, true] {
            let row = UnsettledRow {
                unsettled: set,
                row_unsettling,
                late_setup,
            };
            let b = row.encode();
            assert_eq!(UnsettledRow::decode(&b), Some(row));
            assert_eq!(UnsettledRow::row_bits(&b, 0), 1 | 1 << 18);
            assert_eq!(UnsettledRow::row_bits(&b, 19), 0);
            assert_eq!(UnsettledRow::row_unsettling_of(&b, 0), 3);
            assert_eq!(UnsettledRow::row_unsettling_of(&b, 18), 253);
            assert_eq!(UnsettledRow::row_unsettling_of(&b, 19), FIRST_NEVER);
            assert_eq!(UnsettledRow::first_unsettling_of(&b), 0);
            assert_eq!(UnsettledRow::late_setup_of(&b), late_setup);
        }
        let none = UnsettledRow::default();
        assert_eq!(UnsettledRow::decode(&none.encode()), Some(none));
        assert_eq!(
            UnsettledRow::first_unsettling_of(&none.encode()),
            FIRST_NEVER
        );
        // Bits past the board, a row's position without points, points without a
        // position, a wrong first position, a flag without a point, unknown flags, unused
        // bytes: refused.
        let good = UnsettledRow {
            unsettled: set,
            row_unsettling,
            late_setup: false,
        }
        .encode();
        let damaged: [(usize, u8); 7] = [
            (2, 0x08),
            (ROW_FIRST_AT + 1, 5),
            (ROW_FIRST_AT + 4, FIRST_NEVER),
            (FIRST_UNSETTLING_AT, 1),
            (FLAGS_AT, 2),
            (UNSETTLED_ROW_BYTES - 1, 1),
            (FLAGS_AT + 1, 1),
        ];
        for (at, v) in damaged {
            let mut b = good;
            b[at] = v;
            assert_eq!(UnsettledRow::decode(&b), None, "byte {at} = {v}");
        }
        let mut b = none.encode();
        b[FLAGS_AT] = LATE_SETUP;
        assert_eq!(UnsettledRow::decode(&b), None);
    }

    #[test]
    fn notes_of_a_game() {
        let p = |x, y| Point::new(x, y);
        let mut n = FirstStoneNotes::new();
        // Position 0: a black stone set and cleared, a white one changed to black.
        n.start(p(0, 0), Stone::Black);
        n.start(p(0, 0), Stone::Empty);
        n.start(p(3, 3), Stone::White);
        n.start(p(3, 3), Stone::Black);
        n.change(p(15, 3), Stone::White, 1, false);
        n.change(p(16, 3), Stone::Black, 2, false);
        // Captured at move 300 and played again by the other colour.
        n.change(p(15, 3), Stone::Empty, 300, false);
        n.change(p(15, 3), Stone::Black, 301, false);
        n.change(p(9, 9), Stone::Black, 400, false);
        // A setup after the start on an empty point: a first stone, unsettled.
        n.change(p(1, 1), Stone::White, 401, true);
        let f = n.finish();
        let at = |x: u8, y: u8| f.first[p(x, y).index19() as usize];
        assert_eq!(at(0, 0), FIRST_NEVER);
        assert_eq!(at(3, 3), 0);
        assert_eq!(at(15, 3), 1);
        assert_eq!(at(16, 3), 2);
        assert_eq!(at(9, 9), FIRST_LATE);
        assert_eq!(at(1, 1), FIRST_LATE);
        assert!(f.first_white.contains(p(15, 3)) && f.first_white.contains(p(1, 1)));
        assert!(!f.first_white.contains(p(3, 3)));
        assert_eq!(
            f.unsettled.iter().collect::<heapless::Vec<Point, 4>>(),
            [p(1, 1), p(15, 3)]
        );
        assert_eq!(f.row_unsettling[3], FIRST_LATE);
        assert_eq!(f.row_unsettling[1], FIRST_LATE);
        assert_eq!(f.row_unsettling[0], FIRST_NEVER);
        assert!(f.late_setup);
    }
}
