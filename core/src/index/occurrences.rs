//! The index's occurrence table, the owner of its sections ([`OccurrenceTable`]:
//! `occurrences` and `buckets`), which it opens and validates: one record per indexed move,
//! sorted by (canonical key, global move number), each keeping only a few fingerprint bits
//! (the bucket it is filed in, then `rem_bits` more: [`OccurrenceLayout`]); the occurrences
//! of one position are contiguous, the first flagged.

use core::ops::Range;

use super::{IndexHeader, OccurrenceLayout, OccurrenceRecord};
use crate::fingerprint::Split;
use crate::format::{FormatError, Packed};

/// The occurrence table of an index, its structure checked ([`OccurrenceTable::open`]).
#[derive(Copy, Clone, Debug)]
pub struct OccurrenceTable<'a> {
    records: Packed<'a>,
    buckets: Packed<'a>,
    layout: OccurrenceLayout,
    split: Split,
}

impl<'a> OccurrenceTable<'a> {
    /// Opens the occurrence table of `body` as `h` places it, checking in constant time
    /// what every read relies on: the widths, the record counts (`2^bucket_bits + 1`
    /// bucket starts), each section's bounds and the ends of the bucket column.
    pub fn open(h: &IndexHeader, body: &'a [u8]) -> Result<OccurrenceTable<'a>, FormatError> {
        let layout = h.occurrence_layout();
        let n_buckets = 1u64
            .checked_shl(h.bucket_bits as u32)
            .and_then(|n| n.checked_add(1));
        if h.bucket_bits > 32
            || h.ply_bits == 0
            || h.ply_bits > 60
            || layout.bits() > 64
            || h.occurrences_section.width_bits != layout.bits()
            || h.occurrences_section.count != h.occurrences
            || Some(h.buckets.count) != n_buckets
            || h.positions > h.occurrences
        {
            return Err(FormatError::BadHeader);
        }
        let t = OccurrenceTable {
            records: h.occurrences_section.packed(body)?,
            buckets: h.buckets.packed(body)?,
            layout,
            split: h.split(),
        };
        if !t.buckets.ends_are(t.records.len() as u64) {
            return Err(FormatError::BadRecord);
        }
        Ok(t)
    }

    /// Checks every record: each move number within the `moves` moves, the bucket starts
    /// increasing, the kept bits sorted within each bucket with a position starting at
    /// each new value, and `positions` positions in all.
    pub fn validate(&self, moves: u64, positions: u64) -> Result<(), FormatError> {
        let bad = Err(FormatError::BadRecord);
        if !self.buckets.is_offsets_of(self.records.len() as u64) {
            return bad;
        }
        let lay = self.layout;
        let mut seen = 0u64;
        for b in 0..self.buckets.len() - 1 {
            let (s, e) = (self.buckets.at(b), self.buckets.at(b + 1));
            let mut prev_rem = None;
            for i in s as usize..e as usize {
                let v = self.records.at(i);
                if lay.ply(v) >= moves {
                    return bad;
                }
                let rem = lay.rem(v);
                let first_of_rem = prev_rem != Some(rem);
                if prev_rem.is_some_and(|p| rem < p) || (first_of_rem && !lay.starts_position(v)) {
                    return bad;
                }
                seen += lay.starts_position(v) as u64;
                prev_rem = Some(rem);
            }
        }
        if seen != positions {
            return bad;
        }
        Ok(())
    }

    /// Number of occurrences.
    #[inline]
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there is no occurrence.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// How a fingerprint is split into the bucket and the bits a record keeps.
    #[inline]
    pub fn split(&self) -> Split {
        self.split
    }

    /// Occurrence `i`, or `None` past the end.
    #[inline]
    pub fn get(&self, i: usize) -> Option<OccurrenceRecord> {
        self.records.get(i).map(|v| self.layout.decode(v))
    }

    /// Whether occurrence `i` starts a position (true past the end: the end of the last).
    #[inline]
    pub fn starts_position(&self, i: usize) -> bool {
        self.records
            .get(i)
            .is_none_or(|v| self.layout.starts_position(v))
    }

    /// The bucket `b`'s occurrences (clamped to the table).
    #[inline]
    fn bucket(&self, b: u64) -> Range<usize> {
        let n = self.records.len();
        let Ok(b) = usize::try_from(b) else {
            return n..n;
        };
        let end = (self.buckets.at(b.saturating_add(1)) as usize).min(n);
        (self.buckets.at(b) as usize).min(end)..end
    }

    /// The occurrences filed under the bits the index keeps of fingerprint `fp`: its
    /// bucket, then the records of that bucket whose kept bits are `fp`'s. Whole positions,
    /// in key order (usually one; more where their keys share the kept bits).
    pub fn filed_under(&self, fp: u64) -> Range<usize> {
        let (bucket, rem) = self.split.split(fp);
        let Range { start, end } = self.bucket(bucket);
        let lay = self.layout;
        let lo = self
            .records
            .partition_point(start, end, |v| lay.rem(v) < rem);
        let hi = self.records.partition_point(lo, end, |v| lay.rem(v) <= rem);
        lo..hi
    }

    /// Whether occurrence `i` is filed under fingerprint `fp`: in its bucket, keeping its
    /// bits.
    pub fn is_filed_under(&self, i: usize, fp: u64) -> bool {
        let (bucket, rem) = self.split.split(fp);
        self.bucket(bucket).contains(&i) && self.get(i).is_some_and(|r| r.rem == rem)
    }

    /// The end of the position that starts at occurrence `i`: the next position's start,
    /// at most `limit`.
    pub fn position_end(&self, i: usize, limit: usize) -> usize {
        let mut e = i + 1;
        while e < limit && !self.starts_position(e) {
            e += 1;
        }
        e.min(limit).max(i)
    }

    /// Calls `f(i, kept, record)` for the occurrences `i` of `range` in order (until it
    /// returns `false`), `kept` the fingerprint bits the index keeps of the occurrence's
    /// position, in place (its bucket then its kept bits at the top, zeros below:
    /// [`Split::join`]).
    pub fn for_each_in(
        &self,
        range: Range<usize>,
        mut f: impl FnMut(usize, u64, OccurrenceRecord) -> bool,
    ) {
        let starts = self.buckets.len();
        // The bucket holding the first occurrence of the range, then on as they end.
        let mut bucket = self
            .buckets
            .partition_point(0, starts, |s| s <= range.start as u64)
            .saturating_sub(1);
        let mut bucket_end = self.buckets.at(bucket + 1) as usize;
        let lay = self.layout;
        self.records.for_each_in(range, |i, v| {
            while i >= bucket_end && bucket + 1 < starts {
                bucket += 1;
                bucket_end = self.buckets.at(bucket + 1) as usize;
            }
            let r = lay.decode(v);
            f(i, self.split.join(bucket as u64, r.rem), r)
        });
    }
}
