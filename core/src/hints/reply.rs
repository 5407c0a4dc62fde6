//! Reply lines, formatted in a fixed buffer ([`Reply`]): `hints ...`, `guess ...`,
//! `fix ...`, `ok` and `error ...` (the one longer line, `game`, is written in pieces by
//! [`Record::write_sgf`](crate::track::Record::write_sgf)).

use core::fmt;

use crate::notation::sgf_letter;
use crate::point::{Color, Move};
use crate::predict::Guess;
use crate::search::NextMoves;
use crate::track::Fix;

use super::{Reason, MAX_HINTS, MAX_REPLY};

/// A reply line being formatted (at most [`MAX_REPLY`] bytes).
#[derive(Clone, Debug)]
pub struct Reply {
    buf: [u8; MAX_REPLY],
    len: usize,
}

impl Default for Reply {
    fn default() -> Self {
        Self::new()
    }
}

impl Reply {
    /// An empty reply.
    pub const fn new() -> Self {
        Reply {
            buf: [0; MAX_REPLY],
            len: 0,
        }
    }

    /// The bytes written so far.
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }

    /// Empties the reply.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a byte (dropped if the reply is full, which a reply line never is).
    #[inline]
    pub fn push(&mut self, b: u8) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    /// Appends bytes. (A byte loop: the pieces are a few bytes, shorter than a `memcpy`
    /// call's own cost on a Cortex-M.)
    pub fn push_bytes(&mut self, s: &[u8]) {
        for &b in s {
            self.push(b);
        }
    }

    /// Appends `v` in decimal, as `Display` writes it, without 64-bit divisions for values
    /// that fit 32 bits. (The digits are written in place, lowest first, then reversed.)
    pub fn push_u64(&mut self, mut v: u64) {
        let start = self.len;
        // At most two 64-bit divisions, then 32-bit ones.
        while v > u32::MAX as u64 {
            let mut low = (v % 1_000_000_000) as u32;
            v /= 1_000_000_000;
            for _ in 0..9 {
                self.push(b'0' + (low % 10) as u8);
                low /= 10;
            }
        }
        let mut v = v as u32;
        loop {
            self.push(b'0' + (v % 10) as u8);
            v /= 10;
            if v == 0 {
                break;
            }
        }
        if let Some(digits) = self.buf.get_mut(start..self.len) {
            digits.reverse();
        }
    }

    /// Appends `v` in decimal, as `Display` writes it.
    pub fn push_i64(&mut self, v: i64) {
        if v < 0 {
            self.push(b'-');
        }
        self.push_u64(v.unsigned_abs());
    }

    /// Appends a move as [`Sgf`](crate::notation::Sgf) displays it: `pd`, `pass`.
    pub fn push_move(&mut self, mv: Move) {
        match mv {
            Move::Play(p) => {
                for v in [p.x, p.y] {
                    self.push(sgf_letter(v).map_or(b'?', |c| c as u8));
                }
            }
            Move::Pass => self.push_bytes(b"pass"),
        }
    }

    /// Replaces the reply with `error <reason>\n`.
    pub fn error(&mut self, reason: Reason) {
        self.clear();
        self.push_bytes(b"error ");
        self.push_bytes(reason.as_str().as_bytes());
        self.push(b'\n');
    }

    /// Replaces the reply with `hints <hash> <total> <move>:<color>:<count> ...\n`: the
    /// first [`MAX_HINTS`] classes of `next`.
    pub fn hints<const N: usize>(&mut self, hash: i64, next: &NextMoves<N>) {
        self.clear();
        self.push_bytes(b"hints ");
        self.push_i64(hash);
        self.push(b' ');
        self.push_u64(next.total());
        for c in next.classes().iter().take(MAX_HINTS) {
            self.push(b' ');
            self.push_move(c.mv);
            self.push(b':');
            self.push(c.color.letter() as u8);
            self.push(b':');
            self.push_u64(c.count as u64);
        }
        self.push(b'\n');
    }
}

impl Reply {
    /// Replaces the reply with `guess <hash> <move>:<color> ...\n` (`hints <hash> 0\n`
    /// without guesses).
    pub fn guess(&mut self, hash: i64, color: Color, guesses: &[Guess]) {
        self.clear();
        if guesses.is_empty() {
            self.push_bytes(b"hints ");
            self.push_i64(hash);
            self.push_bytes(b" 0\n");
            return;
        }
        self.push_bytes(b"guess ");
        self.push_i64(hash);
        for g in guesses {
            self.push(b' ');
            self.push_move(Move::Play(g.point));
            self.push(b':');
            self.push(color.letter() as u8);
        }
        self.push(b'\n');
    }
}

impl Reply {
    /// Replaces the reply with `ok\n`.
    pub fn ok(&mut self) {
        self.clear();
        self.push_bytes(b"ok\n");
    }

    /// Replaces the reply with `fix <condition> <points>\n`, the points in SGF letters,
    /// comma-separated, in `y * 19 + x` order.
    pub fn fix(&mut self, fix: &Fix) {
        self.clear();
        self.push_bytes(b"fix ");
        self.push_bytes(fix.condition.as_str().as_bytes());
        let mut sep = b' ';
        for p in fix.points.iter() {
            self.push(sep);
            self.push_move(Move::Play(p));
            sep = b',';
        }
        self.push(b'\n');
    }
}

impl fmt::Write for Reply {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(fmt::Error)?;
        let dst = self.buf.get_mut(self.len..end).ok_or(fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use crate::notation::Sgf;
    use crate::point::Point;

    use super::*;

    #[test]
    fn numbers_and_moves_print_as_display_does() {
        use std::string::ToString;
        let mut r = Reply::new();
        for v in [
            0i64,
            7,
            -1,
            959678554,
            -2119680312,
            4294967295,
            4294967296,
            -4294967296,
            1_000_000_000,
            999_999_999_999_999_999,
            1_000_000_000_000_000_000,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ] {
            r.clear();
            r.push_i64(v);
            assert_eq!(r.as_bytes(), v.to_string().as_bytes());
        }
        for v in [u64::MAX, u32::MAX as u64 + 1, 10_000_000_000_000_000_000] {
            r.clear();
            r.push_u64(v);
            assert_eq!(r.as_bytes(), v.to_string().as_bytes());
        }
        for mv in [
            Move::Pass,
            Move::Play(Point::new(15, 3)),
            Move::Play(Point::new(0, 18)),
        ] {
            r.clear();
            r.push_move(mv);
            assert_eq!(r.as_bytes(), Sgf(mv).to_string().as_bytes());
        }
    }

    #[test]
    fn replies_fit() {
        use crate::point::Point;
        use core::fmt::Write as _;
        let mut r = Reply::new();
        let long = "hints -9223372036854775808 18446744073709551615";
        r.write_str(long).unwrap();
        for _ in 0..MAX_HINTS {
            r.write_str(" pass:B:4294967295").unwrap();
        }
        r.write_str("\n").unwrap();
        assert_eq!(r.as_bytes().len(), super::super::MAX_HINTS_REPLY - 1);
        // The longest line: a fix of every point, under the longest condition word.
        let every = crate::pointset::PointSet::full(crate::point::Size::STANDARD);
        for condition in [
            crate::track::Condition::Remove,
            crate::track::Condition::Restore,
            crate::track::Condition::WrongColor,
            crate::track::Condition::RecordFull,
            crate::track::Condition::IllegalMove,
        ] {
            r.fix(&Fix {
                condition,
                points: every,
            });
            assert!(r.as_bytes().ends_with(b",ss\n"));
            assert!(r.as_bytes().len() <= MAX_REPLY);
        }
        assert_eq!(r.as_bytes().len(), MAX_REPLY);
        assert!(r.write_str("x").is_err());
        r.fix(&Fix {
            condition: crate::track::Condition::Remove,
            points: [Point::new(1, 1), Point::new(2, 1)].into_iter().collect(),
        });
        assert_eq!(r.as_bytes(), b"fix remove bb,cb\n");
    }
}
