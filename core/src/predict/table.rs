//! The predictor's table, as a book stores it: the learnt log-strengths of the known
//! patterns and of every group value, read in place and validated completely at open
//! ([`Predictor::open`]); the encoder beside it (`encode`, feature `alloc`).
//!
//! **Patterns.** A pattern's canonical key (64 bits, [`super::shape`]) is split as the
//! book splits fingerprints ([`Split`]): its top `bucket_bits` choose a bucket, the next
//! `rem_bits` are stored. Each pattern is one record ([`PatternRecord`]: its weight in the
//! low `weight_bits`, its stored key bits above), sorted by stored key bits within its
//! bucket, strictly increasing, so each stored pattern is unique; `buckets` holds the
//! `2^bucket_bits + 1` start indices. A pattern's log-strength is `weight_base + weight *
//! weight_step`. A key the table does not hold matches a stored one only if its
//! `bucket_bits + rem_bits` bits equal one's: about one lookup in `2^rem_bits` per pattern
//! of its bucket.
//!
//! **Groups.** `groups` holds one 32-bit record per group value, the groups in
//! [`super::features::ALL_GROUPS`] order, each group's values in order: the log-strength as
//! a two's-complement `i32`.
//!
//! Log-strengths are natural logarithms in units of 1/1024 (`ln(gamma) * 1024`, rounded);
//! every one is within `±`[`MAX_WEIGHT`], so a candidate's sum of 8 never overflows.

use serde::{Deserialize, Serialize};

use crate::fingerprint::Split;
use crate::format::{Field, FormatError, Packed, Section};

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
    /// Games it was learnt from.
    pub games: u32,
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

impl PredictorHeader {
    /// How a pattern key is split.
    pub fn split(&self) -> Split {
        Split {
            bucket_bits: self.bucket_bits as u32,
            rem_bits: self.rem_bits as u32,
        }
    }

    /// The layout of a pattern record.
    pub fn record(&self) -> PatternRecord {
        PatternRecord {
            weight: Field::new(0, self.weight_bits as u32),
            rem: Field::new(self.weight_bits as u32, self.rem_bits as u32),
        }
    }
}

/// The layout of a pattern record: the weight, then the stored key bits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PatternRecord {
    /// The quantized log-strength.
    pub weight: Field,
    /// The stored key bits.
    pub rem: Field,
}

impl PatternRecord {
    /// Width in bits of a record.
    pub const fn bits(self) -> u32 {
        self.rem.end()
    }

    /// The record of a pattern.
    pub const fn encode(self, rem: u64, weight: u64) -> u64 {
        self.rem.put(rem) | self.weight.put(weight)
    }
}

/// A validated predictor table.
#[derive(Clone, Debug)]
pub struct Predictor<'a> {
    header: PredictorHeader,
    buckets: Packed<'a>,
    records: Packed<'a>,
    groups: [i32; GROUP_TOTAL],
    /// The records' bytes, when a record fits 32 bits (every book `kifudex build` writes):
    /// then [`Predictor::find`] works in 32-bit words, the quick way on a microcontroller.
    narrow: Option<&'a [u8]>,
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
            || h.records.width_bits != h.record().bits()
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
        let rem = h.record().rem;
        for b in 0..nb - 1 {
            let (s, e) = (buckets.at(b), buckets.at(b + 1));
            if e < s || e > n as u64 {
                return Err(FormatError::BadRecord);
            }
            for i in s as usize + 1..e as usize {
                if rem.get(records.at(i)) <= rem.get(records.at(i - 1)) {
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
        let narrow = (h.record().bits() <= 32)
            .then(|| h.records.slice(body))
            .transpose()?;
        Ok(Predictor {
            header: header.clone(),
            buckets,
            records,
            groups,
            narrow,
        })
    }

    /// The header.
    pub fn header(&self) -> &PredictorHeader {
        &self.header
    }

    /// The stored weight of the pattern with canonical key `key`, if stored.
    fn find(&self, key: u64) -> Option<u64> {
        if let Some(bytes) = self.narrow {
            return self.find_narrow(bytes, key).map(u64::from);
        }
        let h = &self.header;
        let (b, rem) = h.split().split(key);
        let layout = h.record();
        let b = b as usize;
        let (s, e) = (self.buckets.at(b) as usize, self.buckets.at(b + 1) as usize);
        let i = self
            .records
            .partition_point(s, e, |v| layout.rem.get(v) < rem);
        if i >= e {
            return None;
        }
        let v = self.records.at(i);
        (layout.rem.get(v) == rem).then_some(layout.weight.get(v))
    }

    /// [`Predictor::find`] in 32-bit words (`narrow`: the records' bytes, whose sections
    /// end with 8 bytes of padding, so a record is read with two 4-byte loads): the same
    /// answer as `Split::split` and a binary search over the fields.
    #[inline]
    fn find_narrow(&self, bytes: &[u8], key: u64) -> Option<u32> {
        let h = &self.header;
        let (bb, rb, wb) = (
            h.bucket_bits as u32,
            h.rem_bits as u32,
            h.weight_bits as u32,
        );
        // bb <= 24, 1 <= wb, 1 <= rb, wb + rb <= 32 (checked at open): the bucket and the
        // stored bits are the top bb + rb bits of the key, in one 64-bit shift.
        let x = key >> (64 - bb - rb);
        let b = (x >> rb) as usize;
        let rem = (x as u32) & (u32::MAX >> (32 - rb));
        let (mut lo, mut hi) = (self.buckets.at(b) as usize, self.buckets.at(b + 1) as usize);
        let width = wb + rb;
        let word = |at: usize| -> Option<u32> {
            let b: &[u8; 4] = bytes.get(at..at + 4)?.try_into().ok()?;
            Some(u32::from_le_bytes(*b))
        };
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let bit = mid * width as usize;
            let (at, shift) = (bit / 8, (bit % 8) as u32);
            let v = (word(at)? >> shift) | word(at + 4)?.checked_shl(32 - shift).unwrap_or(0);
            let v = if width == 32 {
                v
            } else {
                v & ((1 << width) - 1)
            };
            let r = v >> wb;
            if r < rem {
                lo = mid + 1;
            } else if r > rem {
                hi = mid;
            } else {
                return Some(v & ((1 << wb) - 1));
            }
        }
        None
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

#[cfg(feature = "alloc")]
pub use encode::{encode, TableOptions, TableStats};

#[cfg(feature = "alloc")]
mod encode {
    extern crate alloc;

    use alloc::vec::Vec;

    use super::*;
    use crate::format::{bits_for, BitWriter, Body};

    /// How a table is laid out.
    #[derive(Copy, Clone, Debug, PartialEq, Eq)]
    pub struct TableOptions {
        /// Key bits stored per pattern beyond its bucket.
        pub rem_bits: u8,
        /// Bits of a pattern weight.
        pub weight_bits: u8,
    }

    impl Default for TableOptions {
        fn default() -> Self {
            TableOptions {
                rem_bits: 20,
                weight_bits: 8,
            }
        }
    }

    /// What [`encode`] kept.
    #[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
    pub struct TableStats {
        /// Patterns stored.
        pub patterns: usize,
        /// Patterns left out because their stored bits equal a more played pattern's.
        pub collisions: usize,
        /// Bytes of the three sections.
        pub bytes: u64,
    }

    /// Adds a table to `body`: `patterns` (canonical key, log-strength), most played first
    /// (of two patterns whose stored bits are equal the first is kept), the unknown
    /// pattern's log-strength and every group value's ([`GROUP_TOTAL`] of them, in
    /// [`super::super::features::ALL_GROUPS`] order). Log-strengths beyond
    /// `±`[`MAX_WEIGHT`] are clamped. Returns the header (`games` 0: the caller fills it).
    pub fn encode(
        patterns: &[(u64, i32)],
        unknown: i32,
        groups: &[i32; GROUP_TOTAL],
        opts: &TableOptions,
        body: &mut Body,
    ) -> (PredictorHeader, TableStats) {
        let clamp = |w: i32| (w as i64).clamp(-MAX_WEIGHT, MAX_WEIGHT) as i32;
        let n = patterns.len();
        let bucket_bits = bits_for(n as u64).saturating_sub(3).clamp(1, 24);
        let mut header = PredictorHeader {
            features: FEATURES,
            bucket_bits: bucket_bits as u8,
            rem_bits: opts.rem_bits.clamp(1, 40),
            weight_bits: opts.weight_bits.clamp(1, 16),
            unknown: clamp(unknown),
            ..PredictorHeader::default()
        };
        let (lo, hi) = patterns
            .iter()
            .fold((i32::MAX, i32::MIN), |(lo, hi), &(_, w)| {
                (lo.min(clamp(w)), hi.max(clamp(w)))
            });
        let (lo, hi) = if lo > hi { (0, 0) } else { (lo, hi) };
        let levels = (1i64 << header.weight_bits) - 1;
        let step = ((hi as i64 - lo as i64 + levels - 1) / levels).max(1);
        header.weight_base = lo;
        header.weight_step = step as i32;
        let split = header.split();
        let layout = header.record();
        let mut recs: Vec<(u64, u64, u64, usize)> = patterns
            .iter()
            .enumerate()
            .map(|(i, &(key, w))| {
                let (b, rem) = split.split(key);
                let q = ((clamp(w) as i64 - lo as i64 + step / 2) / step).clamp(0, levels);
                (b, rem, q as u64, i)
            })
            .collect();
        // By bucket and stored bits; of equal ones the first (most played) is kept.
        recs.sort_unstable_by_key(|r| (r.0, r.1, r.3));
        recs.dedup_by_key(|r| (r.0, r.1));
        let nb = (1usize << bucket_bits) + 1;
        let mut starts: Vec<u64> = alloc::vec![0; nb];
        let mut records = BitWriter::with_capacity(layout.bits(), recs.len());
        for &(b, rem, q, _) in &recs {
            if let Some(s) = starts.get_mut(b as usize + 1) {
                *s += 1;
            }
            records.push(layout.encode(rem, q));
        }
        for b in 1..nb {
            starts[b] += starts[b - 1];
        }
        let mut bw = BitWriter::with_capacity(bits_for(recs.len() as u64), nb);
        for &s in &starts {
            bw.push(s);
        }
        let mut gw = BitWriter::with_capacity(32, GROUP_TOTAL);
        for &g in groups {
            gw.push(clamp(g) as u32 as u64);
        }
        header.patterns = recs.len() as u64;
        header.buckets = body.packed(bw);
        header.records = body.packed(records);
        header.groups = body.packed(gw);
        let stats = TableStats {
            patterns: recs.len(),
            collisions: n - recs.len(),
            bytes: header.buckets.len + header.records.len + header.groups.len,
        };
        (header, stats)
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    extern crate alloc;

    use alloc::vec::Vec;

    use super::*;
    use crate::format::Body;
    use crate::predict::features::ALL_GROUPS;

    fn xorshift(z: &mut u64) -> u64 {
        *z ^= *z << 13;
        *z ^= *z >> 7;
        *z ^= *z << 17;
        *z
    }

    /// `n` patterns with random keys and weights from -4 to +6 nats; groups likewise.
    fn input(n: usize) -> (Vec<(u64, i32)>, [i32; GROUP_TOTAL]) {
        let mut z = 0x1234_5678_9abc_def0u64;
        let patterns = (0..n)
            .map(|i| (xorshift(&mut z), ((i % 97) as i32 - 40) * 105))
            .collect();
        let mut groups = [0i32; GROUP_TOTAL];
        for (i, g) in groups.iter_mut().enumerate() {
            *g = (i as i32 % 13 - 6) * 300;
        }
        (patterns, groups)
    }

    fn table(
        patterns: &[(u64, i32)],
        groups: &[i32; GROUP_TOTAL],
        opts: &TableOptions,
    ) -> (PredictorHeader, Vec<u8>, TableStats) {
        let mut body = Body::new();
        let (h, stats) = encode(patterns, -777, groups, opts, &mut body);
        (h, body.to_vec(), stats)
    }

    #[test]
    fn a_table_reads_back_what_was_written() {
        let (patterns, groups) = input(5000);
        let (header, bytes, stats) = table(&patterns, &groups, &TableOptions::default());
        let t = Predictor::open(&header, &bytes).unwrap();
        assert_eq!(stats.patterns + stats.collisions, 5000);
        assert!(stats.collisions <= 1);
        let half = header.weight_step / 2 + 1;
        for &(key, w) in &patterns {
            let got = t.pattern(0, key).unwrap();
            assert!((got - w).abs() <= half, "{got} for {w}");
        }
        assert_eq!(t.unknown_pattern(), -777);
        let mut i = 0;
        for (gi, g) in ALL_GROUPS.iter().enumerate() {
            for v in 0..GROUP_VALUES[gi] {
                assert_eq!(t.group(*g, v), groups[i]);
                i += 1;
            }
        }
        // Keys not stored are (almost always) not found.
        let mut z = 99u64;
        let false_matches = (0..10_000)
            .filter(|_| t.pattern(0, xorshift(&mut z)).is_some())
            .count();
        assert!(false_matches <= 2, "{false_matches} false matches");
    }

    #[test]
    fn the_32_bit_lookup_answers_as_the_general_one() {
        let (patterns, groups) = input(5000);
        for rem_bits in [6, 12, 20, 24] {
            let opts = TableOptions {
                rem_bits,
                ..TableOptions::default()
            };
            let (header, bytes, _) = table(&patterns, &groups, &opts);
            let t = Predictor::open(&header, &bytes).unwrap();
            assert!(t.narrow.is_some(), "{rem_bits}");
            let mut general = t.clone();
            general.narrow = None;
            let mut z = 7u64;
            let mut found = 0;
            let stored = patterns.iter().map(|p| p.0);
            for key in stored.chain((0..20_000).map(|_| xorshift(&mut z))) {
                let w = t.find(key);
                assert_eq!(w, general.find(key), "key {key:x}, {rem_bits} bits");
                found += w.is_some() as usize;
            }
            assert!(found >= 5000, "{found}");
        }
    }

    #[test]
    fn a_damaged_table_is_refused() {
        let (patterns, groups) = input(300);
        let (header, bytes, _) = table(&patterns, &groups, &TableOptions::default());
        let mut h = header.clone();
        h.features += 1;
        assert_eq!(
            Predictor::open(&h, &bytes).err(),
            Some(FormatError::BadHeader)
        );
        let mut h = header.clone();
        h.weight_step = i32::MAX;
        assert_eq!(
            Predictor::open(&h, &bytes).err(),
            Some(FormatError::BadHeader)
        );
        let mut h = header.clone();
        h.patterns += 1;
        assert!(Predictor::open(&h, &bytes).is_err());
        // Any single-byte change either fails validation or reads without a panic.
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x5a;
            if let Ok(t) = Predictor::open(&header, &b) {
                let _ = t.pattern(0, 12345);
            }
        }
        // Two patterns out of order within their bucket are refused (32-bit records).
        let opts = TableOptions {
            rem_bits: 24,
            weight_bits: 8,
        };
        let (header, bytes, _) = table(&patterns, &groups, &opts);
        assert!(Predictor::open(&header, &bytes).is_ok());
        let buckets = header.buckets.packed(&bytes).unwrap();
        let b = (0..buckets.len() - 1)
            .find(|&b| buckets.at(b + 1) - buckets.at(b) >= 2)
            .unwrap();
        let r = header.records.offset as usize + 4 * buckets.at(b) as usize;
        let mut swapped = bytes.clone();
        for k in 0..4 {
            swapped.swap(r + k, r + 4 + k);
        }
        assert_eq!(
            Predictor::open(&header, &swapped).err(),
            Some(FormatError::BadRecord)
        );
    }
}
