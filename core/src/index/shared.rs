//! The index's shared positions, the owner of their sections ([`SharedPositions`]:
//! `shared_keys`, `shared_starts`, `shared_counts`, `shared_next`, `next`, `next_black`,
//! `next_white`), which it opens and validates: the positions with at least `shared_min`
//! occurrences, sorted by fingerprint ([`SharedRow`]), each with its next moves counted in
//! canonical orientation ([`NextLayout`], [`StoredNext`]).

use core::ops::Range;

use super::{IndexHeader, NextLayout, OccurrenceTable, SharedRow, StoredNext};
use crate::format::{FormatError, Packed};

/// The shared positions of an index, their structure checked ([`SharedPositions::open`]).
#[derive(Copy, Clone, Debug)]
pub struct SharedPositions<'a> {
    keys: Packed<'a>,
    starts: Packed<'a>,
    counts: Packed<'a>,
    next_starts: Packed<'a>,
    next: Packed<'a>,
    next_black: Packed<'a>,
    next_white: Packed<'a>,
    layout: NextLayout,
}

impl<'a> SharedPositions<'a> {
    /// Opens the shared positions of `body` as `h` places them, checking in constant time
    /// what every read relies on: the widths, the record counts (one of each column per
    /// position; one more start of next moves), each section's bounds and the ends of the
    /// next moves' starts.
    pub fn open(h: &IndexHeader, body: &'a [u8]) -> Result<SharedPositions<'a>, FormatError> {
        let layout = h.next_layout();
        let n = h.shared_keys.count;
        if h.count_bits == 0
            || h.count_bits as u32 > NextLayout::MAX_COUNT_BITS
            || h.next.width_bits != layout.bits()
            || h.next_black.width_bits != h.count_bits as u32
            || h.next_white.width_bits != h.count_bits as u32
            || h.shared_keys.width_bits != 64
            || h.shared_starts.count != n
            || h.shared_counts.count != n
            || h.shared_next.count != n.checked_add(1).unwrap_or(0)
            || h.next_black.count != h.next.count
            || h.next_white.count != h.next.count
        {
            return Err(FormatError::BadHeader);
        }
        let s = SharedPositions {
            keys: h.shared_keys.packed(body)?,
            starts: h.shared_starts.packed(body)?,
            counts: h.shared_counts.packed(body)?,
            next_starts: h.shared_next.packed(body)?,
            next: h.next.packed(body)?,
            next_black: h.next_black.packed(body)?,
            next_white: h.next_white.packed(body)?,
            layout,
        };
        if !s.next_starts.ends_are(s.next.len() as u64) {
            return Err(FormatError::BadRecord);
        }
        Ok(s)
    }

    /// Checks every record against the occurrence table `occ`: fingerprints sorted, each
    /// row exactly one position filed under its fingerprint, next moves within their table,
    /// each with wins within its count, adding up to the position's occurrences.
    pub fn validate(&self, occ: &OccurrenceTable<'_>) -> Result<(), FormatError> {
        let bad = Err(FormatError::BadRecord);
        let n_occ = occ.len() as u64;
        if !self.next_starts.is_offsets_of(self.next.len() as u64) {
            return bad;
        }
        let mut prev_fp = 0;
        for r in 0..self.keys.len() {
            let fp = self.keys.at(r);
            let (os, oc) = (self.starts.at(r), self.counts.at(r));
            if fp < prev_fp || oc == 0 || os.checked_add(oc).is_none_or(|e| e > n_occ) {
                return bad;
            }
            // The row's occurrences are exactly one position: it starts there, and the
            // next position starts right after.
            let (os, oe) = (os as usize, (os + oc) as usize);
            if !occ.starts_position(os)
                || (os + 1..oe).any(|i| occ.starts_position(i))
                || !occ.starts_position(oe)
            {
                return bad;
            }
            // Its fingerprint is the one its occurrences are filed under.
            if !occ.is_filed_under(os, fp) {
                return bad;
            }
            // Its next moves: one per occurrence, wins within the counts.
            let mut total = 0u64;
            for i in self.next_starts.at(r) as usize..self.next_starts.at(r + 1) as usize {
                let Some(m) = self.next_move(i) else {
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

    /// Number of shared positions.
    #[inline]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there is no shared position.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The rows whose fingerprint is `fp` (usually none or one).
    pub fn rows_of(&self, fp: u64) -> Range<usize> {
        let n = self.keys.len();
        let lo = self.keys.partition_point(0, n, |k| k < fp);
        let hi = self.keys.partition_point(lo, n, |k| k <= fp);
        lo..hi
    }

    /// The first row whose position starts at or after occurrence `start`.
    pub fn first_row_from(&self, start: usize) -> usize {
        let n = self.starts.len();
        self.starts.partition_point(0, n, |s| s < start as u64)
    }

    /// Row `r` (its occurrences within the `occurrences` of the table and its next moves
    /// within theirs: clamped, whatever the records say).
    pub fn row(&self, r: usize, occurrences: usize) -> Option<SharedRow> {
        let fingerprint = self.keys.get(r)?;
        let n_occ = occurrences as u64;
        let first_occurrence = self.starts.at(r).min(n_occ);
        let occurrences = self.counts.at(r).min(n_occ - first_occurrence);
        let n_next = self.next.len() as u64;
        let next_end = self.next_starts.at(r + 1).min(n_next);
        let first_next = self.next_starts.at(r).min(next_end);
        Some(SharedRow {
            fingerprint,
            first_occurrence,
            occurrences,
            first_next,
            next_count: next_end - first_next,
        })
    }

    /// Next move `i` of the `next` columns; `None` past the end or for a record that holds
    /// no move.
    #[inline]
    pub fn next_move(&self, i: usize) -> Option<StoredNext> {
        self.layout.decode([
            self.next.get(i)?,
            self.next_black.at(i),
            self.next_white.at(i),
        ])
    }

    /// The next moves of `row` (records that hold no move left out).
    pub fn next_moves(&self, row: &SharedRow) -> impl Iterator<Item = StoredNext> + '_ {
        let start = row.first_next as usize;
        (start..start + row.next_count as usize).filter_map(move |i| self.next_move(i))
    }
}
