//! The predictor's table, as a book stores it: the learnt log-strengths of the known
//! patterns and of every group value, read in place and validated completely at open.
//!
//! **Patterns.** A pattern's canonical key (64 bits, [`super::shape`]) is split into its
//! low `bucket_bits` (the bucket; the low bits of the smallest of 8 hashes are uniform,
//! its high bits are not) and the next `rem_bits` (stored). Each pattern is one record of
//! `rem_bits + weight_bits` bits, `rem << weight_bits | weight`, sorted by `rem` within its
//! bucket, strictly increasing (so each stored pattern is unique); `buckets` holds the
//! `2^bucket_bits + 1` start indices. A pattern's log-strength is `weight_base + weight *
//! weight_step`. A key the table does not hold matches a stored one only if its
//! `bucket_bits + rem_bits` bits equal one's: about one lookup in `2^rem_bits` per pattern of
//! the bucket.
//!
//! **Groups.** `groups` holds one 32-bit record per group value, the groups in
//! [`super::features::ALL_GROUPS`] order, each group's values in order: the log-strength as
//! a two's-complement `i32`.
//!
//! Log-strengths are natural logarithms in units of 1/1024 (`ln(gamma) * 1024`, rounded);
//! every one is within `±`[`MAX_WEIGHT`], so a candidate's sum of 8 never overflows.

use serde::{Deserialize, Serialize};

use crate::format::{field, FormatError, Packed, Section};

use super::features::{Group, GROUPS, GROUP_VALUES};
use super::rank::Weights;

/// The version of the features a table's weights belong to (the pattern geometry, the
/// Zobrist values and the groups); a table of another version is refused.
pub const FEATURES: u32 = 1;

/// The largest log-strength a table may hold, in either direction (2^24 / 1024 = 16384
/// nats: far beyond any learnt weight).
pub const MAX_WEIGHT: i64 = 1 << 24;

/// Number of group values: records of `groups`.
pub const GROUP_TOTAL: usize = group_total();

const fn group_total() -> usize {
    let mut n = 0;
    let mut g = 0;
    while g < GROUPS {
        n += GROUP_VALUES[g] as usize;
        g += 1;
    }
    n
}

/// Where group `g`'s values start in `groups`.
const GROUP_START: [usize; GROUPS] = group_starts();

const fn group_starts() -> [usize; GROUPS] {
    let mut s = [0usize; GROUPS];
    let mut g = 1;
    while g < GROUPS {
        s[g] = s[g - 1] + GROUP_VALUES[g - 1] as usize;
        g += 1;
    }
    s
}

/// The predictor's header: its parameters and the place of its sections.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct PredictorHeader {
    /// [`FEATURES`] of the build that learnt it.
    pub features: u32,
    /// Stored patterns.
    pub patterns: u64,
    /// Key bits that select a bucket.
    pub bucket_bits: u8,
    /// Key bits stored per pattern, after the bucket bits.
    pub rem_bits: u8,
    /// Bits of a pattern's weight.
    pub weight_bits: u8,
    /// Log-strength of weight 0.
    pub weight_base: i32,
    /// Log-strength added per unit of weight.
    pub weight_step: i32,
    /// Log-strength of a candidate none of whose patterns is stored.
    pub unknown: i32,
    /// Start of each bucket in `records`.
    pub buckets: Section,
    /// The patterns.
    pub records: Section,
    /// The group values' log-strengths.
    pub groups: Section,
}

/// A validated predictor table.
#[derive(Clone, Debug)]
pub struct Predictor<'a> {
    header: PredictorHeader,
    buckets: Packed<'a>,
    records: Packed<'a>,
    groups: [i32; GROUP_TOTAL],
}

impl<'a> Predictor<'a> {
    /// Opens and completely validates the table `header` describes in `body` (the body of
    /// the file that holds it).
    pub fn open(header: &PredictorHeader, body: &'a [u8]) -> Result<Predictor<'a>, FormatError> {
        let h = header;
        if h.features != FEATURES
            || h.bucket_bits > 24
            || h.rem_bits == 0
            || h.rem_bits > 40
            || h.weight_bits == 0
            || h.weight_bits > 16
            || h.records.width_bits != h.rem_bits as u32 + h.weight_bits as u32
            || h.groups.width_bits != 32
        {
            return Err(FormatError::BadHeader);
        }
        let weight_max = ((1i64 << h.weight_bits) - 1) * h.weight_step as i64;
        let in_range = |w: i64| (-MAX_WEIGHT..=MAX_WEIGHT).contains(&w);
        if !in_range(h.weight_base as i64)
            || !in_range(h.weight_base as i64 + weight_max)
            || !in_range(h.unknown as i64)
        {
            return Err(FormatError::BadHeader);
        }
        let buckets = h.buckets.packed(body)?;
        let records = h.records.packed(body)?;
        let groups_packed = h.groups.packed(body)?;
        let n = records.len();
        let nb = (1usize << h.bucket_bits) + 1;
        if buckets.len() != nb || n as u64 != h.patterns || groups_packed.len() != GROUP_TOTAL {
            return Err(FormatError::BadRecord);
        }
        if buckets.at(0) != 0 || buckets.at(nb - 1) != n as u64 {
            return Err(FormatError::BadRecord);
        }
        let wb = h.weight_bits as u32;
        for b in 0..nb - 1 {
            let (s, e) = (buckets.at(b), buckets.at(b + 1));
            if e < s || e > n as u64 {
                return Err(FormatError::BadRecord);
            }
            for i in s as usize + 1..e as usize {
                if records.at(i) >> wb <= records.at(i - 1) >> wb {
                    return Err(FormatError::BadRecord);
                }
            }
        }
        let mut groups = [0i32; GROUP_TOTAL];
        for (i, g) in groups.iter_mut().enumerate() {
            let v = groups_packed.at(i) as u32 as i32;
            if !in_range(v as i64) {
                return Err(FormatError::BadRecord);
            }
            *g = v;
        }
        Ok(Predictor {
            header: header.clone(),
            buckets,
            records,
            groups,
        })
    }

    /// The header.
    pub fn header(&self) -> &PredictorHeader {
        &self.header
    }

    /// The stored weight of the pattern with canonical key `key`, if stored.
    fn find(&self, key: u64) -> Option<u64> {
        let h = &self.header;
        let (bb, rb, wb) = (
            h.bucket_bits as u32,
            h.rem_bits as u32,
            h.weight_bits as u32,
        );
        let b = field(key, 0, bb) as usize;
        let rem = field(key, bb, rb);
        let (s, e) = (self.buckets.at(b) as usize, self.buckets.at(b + 1) as usize);
        let i = self.records.partition_point(s, e, |v| (v >> wb) < rem);
        if i >= e {
            return None;
        }
        let v = self.records.at(i);
        (v >> wb == rem).then_some(field(v, 0, wb))
    }
}

impl Weights for Predictor<'_> {
    fn pattern(&self, _size: usize, key: u64) -> Option<i32> {
        let w = self.find(key)?;
        let h = &self.header;
        // Within ±MAX_WEIGHT (checked at open).
        Some((h.weight_base as i64 + w as i64 * h.weight_step as i64) as i32)
    }

    fn unknown_pattern(&self) -> i32 {
        self.header.unknown
    }

    fn group(&self, group: Group, value: u8) -> i32 {
        let g = group as usize;
        match (GROUP_START.get(g), GROUP_VALUES.get(g)) {
            (Some(&start), Some(&n)) if value < n => self
                .groups
                .get(start + value as usize)
                .copied()
                .unwrap_or(0),
            _ => 0,
        }
    }
}
