//! The index's complete validation ([`Index::verify`]): every record is checked against the
//! others, so that every answer the index gives is the one its builder meant. (Reads are
//! safe without it: [`Index::open`] checks the structure and every read is clamped.)

use super::Index;
use crate::format::{FormatError, Packed};
use crate::pattern::summary::{summarize, PackedSummary};
use crate::stored::StoredGame;
use crate::stored::{decode_move, SetupRecord};

/// Whether `col` starts at 0, never decreases and ends at `total`.
fn offsets_ok(col: &Packed<'_>, total: u64) -> bool {
    let n = col.len();
    if n == 0 || col.at(0) != 0 || col.at(n - 1) != total {
        return false;
    }
    (1..n).all(|i| col.at(i - 1) <= col.at(i))
}

impl Index<'_> {
    /// Checks every record (see the module documentation).
    pub(super) fn validate(&self) -> Result<(), FormatError> {
        self.validate_records()?;
        self.validate_pattern_replays()
    }

    /// [`Index::validate`] but the replay of every game behind its pattern records
    /// ([`Index::validate_pattern_replays`]).
    pub(super) fn validate_records(&self) -> Result<(), FormatError> {
        self.validate_strings()?;
        self.validate_games()?;
        self.validate_occurrences()?;
        self.validate_shared()?;
        let pi = &self.pattern;
        pi.validate(|g| self.stored_game(g).map(|sg| sg.move_count()))
    }

    /// The pattern search's sections (their records checked by
    /// [`crate::pattern::PatternIndex::validate`] in [`Index::validate_records`]): each
    /// game's block bits, corner records and removals exactly what one replay of its
    /// stored game gives ([`summarize`]): the data a search trusts is the data of the
    /// games.
    fn validate_pattern_replays(&self) -> Result<(), FormatError> {
        let pi = &self.pattern;
        for g in 0..self.game_count() {
            let (Some(game), Some(info)) = (self.stored_game(g), self.game(g)) else {
                return Err(FormatError::BadRecord);
            };
            let mut stored = pi.removals_of(g);
            let mut same = true;
            let s = summarize(&game, info.winner, |n, p| {
                same &= stored.next() == Some((n, p));
            });
            if !same || stored.next().is_some() || PackedSummary::from(&s) != pi.packed_summary(g) {
                return Err(FormatError::BadRecord);
            }
        }
        Ok(())
    }

    /// Strings: monotonic offsets within the pool, valid UTF-8.
    fn validate_strings(&self) -> Result<(), FormatError> {
        if !offsets_ok(&self.string_index, self.strings.len() as u64) {
            return Err(FormatError::BadRecord);
        }
        for i in 1..self.string_index.len() {
            let (a, b) = (self.string_index.at(i - 1), self.string_index.at(i));
            let s = self
                .strings
                .get(a as usize..b as usize)
                .ok_or(FormatError::BadRecord)?;
            if core::str::from_utf8(s).is_err() {
                return Err(FormatError::BadRecord);
            }
        }
        Ok(())
    }

    /// Moves and setup records; games: increasing move and setup starts, valid sizes and
    /// string ids, setup stones on the board in move order.
    fn validate_games(&self) -> Result<(), FormatError> {
        let bad = Err(FormatError::BadRecord);
        if (0..self.moves.len()).any(|i| decode_move(self.moves.at(i)).is_none())
            || (0..self.setup.len()).any(|i| SetupRecord::decode(self.setup.at(i)).is_none())
        {
            return bad;
        }
        if !offsets_ok(&self.game_moves, self.moves.len() as u64)
            || !offsets_ok(&self.game_setup, self.setup.len() as u64)
        {
            return bad;
        }
        let n_str = self.string_index.len() as u64;
        let layout = self.header.game_layout();
        for g in 0..self.games.len() {
            let row = layout.decode(self.games.row(g).ok_or(FormatError::BadRecord)?);
            let size = row.size().ok_or(FormatError::BadRecord)?;
            if !self.header.has_size(size) {
                return bad;
            }
            if row.strings.ids().iter().any(|&id| id + 1 >= n_str) {
                return bad;
            }
            let (ms, me) = self.moves_of(g as u32);
            let (ss, se) = (self.game_setup.at(g), self.game_setup.at(g + 1));
            let mut prev_before = 0;
            for i in ss..se {
                let s =
                    SetupRecord::decode(self.setup.at(i as usize)).ok_or(FormatError::BadRecord)?;
                let before = s.before as u64;
                if before < prev_before || before > me - ms || !size.contains(s.point) {
                    return bad;
                }
                prev_before = before;
            }
        }
        Ok(())
    }

    /// Occurrences: plies within the moves, sorted remainders within each bucket, each
    /// bucket range within the table, one position start per remainder run.
    fn validate_occurrences(&self) -> Result<(), FormatError> {
        let bad = Err(FormatError::BadRecord);
        let n_occ = self.occ.len() as u64;
        if !offsets_ok(&self.buckets, n_occ) {
            return bad;
        }
        let lay = self.header.occurrence_layout();
        let mut positions = 0u64;
        for b in 0..self.buckets.len() - 1 {
            let (s, e) = (self.buckets.at(b), self.buckets.at(b + 1));
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
        let n_occ = self.occ.len() as u64;
        let lay = self.header.occurrence_layout();
        let next = self.header.next_layout();
        let split = self.header.split();
        if !offsets_ok(&self.shared_next, self.next.len() as u64) {
            return bad;
        }
        let mut prev_fp = 0;
        for r in 0..self.shared_keys.len() {
            let fp = self.shared_keys.at(r);
            let (os, oc) = (self.shared_starts.at(r), self.shared_counts.at(r));
            let (ns, ne) = (self.shared_next.at(r), self.shared_next.at(r + 1));
            if fp < prev_fp || oc == 0 || os.checked_add(oc).is_none_or(|e| e > n_occ) {
                return bad;
            }
            // The row's occurrences are exactly one position: it starts there, and the
            // next position starts right after.
            let (os, oe) = (os as usize, (os + oc) as usize);
            if !lay.starts_position(self.occ.at(os))
                || (os + 1..oe).any(|i| lay.starts_position(self.occ.at(i)))
                || ((oe as u64) < n_occ && !lay.starts_position(self.occ.at(oe)))
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
            for i in ns as usize..ne as usize {
                let records = [
                    self.next.at(i),
                    self.next_black.at(i),
                    self.next_white.at(i),
                ];
                let Some(m) = next.decode(records) else {
                    return bad;
                };
                let wins = m.black_wins.checked_add(m.white_wins);
                if m.count == 0 || wins.is_none_or(|w| w > m.count) {
                    return bad;
                }
                total = total.checked_add(m.count).ok_or(FormatError::BadRecord)?;
            }
            if total != oc {
                return bad;
            }
            prev_fp = fp;
        }
        Ok(())
    }
}
