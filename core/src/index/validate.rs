//! The index's complete validation at open: every record is checked against the others,
//! so that nothing read later can point outside the file or hold an impossible value.

use super::{GameRow, Index, SharedRow};
use crate::format::FormatError;
use crate::stored::{decode_move, SetupRecord};

impl Index<'_> {
    /// Checks every record (see the module documentation).
    pub(super) fn validate(&self) -> Result<(), FormatError> {
        self.validate_strings()?;
        self.validate_games()?;
        self.validate_occurrences()?;
        self.validate_shared()
    }

    /// Strings: monotonic offsets within the pool, valid UTF-8.
    fn validate_strings(&self) -> Result<(), FormatError> {
        let bad = Err(FormatError::BadRecord);
        let n_str = self.string_index.len();
        if n_str == 0
            || self.string_index.at(0) != 0
            || self.string_index.at(n_str - 1) != self.strings.len() as u64
        {
            return bad;
        }
        for i in 1..n_str {
            let (a, b) = (self.string_index.at(i - 1), self.string_index.at(i));
            if b < a {
                return bad;
            }
            let s = self
                .strings
                .get(a as usize..b as usize)
                .ok_or(FormatError::BadRecord)?;
            if core::str::from_utf8(s).is_err() {
                return bad;
            }
        }
        Ok(())
    }

    /// Moves and setup records; games: contiguous move and setup ranges, valid sizes and
    /// string ids, setup stones on the board in move order.
    fn validate_games(&self) -> Result<(), FormatError> {
        let bad = Err(FormatError::BadRecord);
        for i in 0..self.moves.len() {
            if decode_move(self.moves.at(i)).is_none() {
                return bad;
            }
        }
        for i in 0..self.setup.len() {
            if SetupRecord::decode(self.setup.at(i)).is_none() {
                return bad;
            }
        }
        if self.games.len() != self.header.games as usize {
            return bad;
        }
        let n_str = self.string_index.len();
        let (mut next_move, mut next_setup) = (0u64, 0u64);
        for g in 0..self.games.len() {
            let row = GameRow::decode(self.games.row(g).ok_or(FormatError::BadRecord)?);
            let (ms, mc) = (row.move_start as u64, row.move_count as u64);
            let (ss, sc) = (row.setup_start as u64, row.setup_count as u64);
            if ms != next_move || ss != next_setup {
                return bad;
            }
            next_move = ms + mc;
            next_setup = ss + sc;
            let size = row.size().ok_or(FormatError::BadRecord)?;
            if !self.header.has_size(size) {
                return bad;
            }
            if row.strings.ids().iter().any(|&id| id as usize + 1 >= n_str) {
                return bad;
            }
            let mut prev_before = 0;
            for i in ss..ss + sc {
                let s =
                    SetupRecord::decode(self.setup.at(i as usize)).ok_or(FormatError::BadRecord)?;
                let before = s.before as u64;
                if before < prev_before || before > mc || !size.contains(s.point) {
                    return bad;
                }
                prev_before = before;
            }
        }
        if next_move != self.moves.len() as u64 || next_setup != self.setup.len() as u64 {
            return bad;
        }
        Ok(())
    }

    /// Occurrences: plies within the moves, sorted remainders within each bucket, each
    /// bucket range within the table, one position start per remainder run.
    fn validate_occurrences(&self) -> Result<(), FormatError> {
        let bad = Err(FormatError::BadRecord);
        let n_occ = self.occ.len();
        // (`checked_shl`: 32 bucket bits would overflow a 32-bit `usize`.)
        let n_buckets = 1usize
            .checked_shl(self.header.bucket_bits as u32)
            .and_then(|n| n.checked_add(1))
            .ok_or(FormatError::BadHeader)?;
        if n_occ as u64 != self.header.occurrences || self.buckets.len() != n_buckets {
            return bad;
        }
        if self.buckets.at(0) != 0 || self.buckets.at(self.buckets.len() - 1) != n_occ as u64 {
            return bad;
        }
        let lay = self.header.occurrence_layout();
        let mut positions = 0u64;
        for b in 0..self.buckets.len() - 1 {
            let (s, e) = (self.buckets.at(b), self.buckets.at(b + 1));
            if e < s || e > n_occ as u64 {
                return bad;
            }
            let mut prev_rem = None;
            for i in s as usize..e as usize {
                let v = self.occ.at(i);
                if lay.ply(v) >= self.moves.len() as u64 {
                    return bad;
                }
                let rem = lay.rem(v);
                let first_of_rem = prev_rem != Some(rem);
                if prev_rem.is_some_and(|p| rem < p) || (first_of_rem && !lay.starts_position(v)) {
                    return bad;
                }
                positions += lay.starts_position(v) as u64;
                prev_rem = Some(rem);
            }
        }
        if positions != self.header.positions {
            return bad;
        }
        Ok(())
    }

    /// Shared positions: sorted fingerprints, each exactly one position filed under its
    /// fingerprint, next moves within their table, one per occurrence.
    fn validate_shared(&self) -> Result<(), FormatError> {
        let bad = Err(FormatError::BadRecord);
        let n_occ = self.occ.len();
        let lay = self.header.occurrence_layout();
        let next = self.header.next_layout();
        let split = self.header.split();
        let mut prev_fp = 0;
        let mut next_next = 0u64;
        for r in 0..self.shared.len() {
            let row = SharedRow::decode(self.shared.row(r).ok_or(FormatError::BadRecord)?);
            let fp = row.fingerprint;
            let (os, oc) = (row.first_occurrence as u64, row.occurrences as u64);
            let (ns, nc) = (row.first_next as u64, row.next_count as u64);
            if fp < prev_fp
                || oc == 0
                || os + oc > n_occ as u64
                || ns != next_next
                || ns + nc > self.next.len() as u64
            {
                return bad;
            }
            // The row's occurrences are exactly one position: it starts there, and the
            // next position starts right after.
            let (os, oe) = (os as usize, (os + oc) as usize);
            if !lay.starts_position(self.occ.at(os))
                || (os + 1..oe).any(|i| lay.starts_position(self.occ.at(i)))
                || (oe < n_occ && !lay.starts_position(self.occ.at(oe)))
            {
                return bad;
            }
            // Its fingerprint is the one its occurrences are filed under.
            let (bucket, rem) = split.split(fp);
            let (bs, be) = (
                self.buckets.at(bucket as usize),
                self.buckets.at(bucket as usize + 1),
            );
            if (os as u64) < bs || (os as u64) >= be || lay.rem(self.occ.at(os)) != rem {
                return bad;
            }
            // Its next moves: one per occurrence, wins within the counts.
            let mut total = 0u64;
            for i in ns as usize..(ns + nc) as usize {
                let Some(m) = next.decode(self.next.at(i)) else {
                    return bad;
                };
                let (n, b, w) = (m.count as u64, m.black_wins as u64, m.white_wins as u64);
                if n == 0 || b + w > n {
                    return bad;
                }
                total += n;
            }
            if total != oc {
                return bad;
            }
            prev_fp = fp;
            next_next = ns + nc;
        }
        if next_next != self.next.len() as u64 {
            return bad;
        }
        Ok(())
    }
}
