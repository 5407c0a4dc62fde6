//! Encoding a learnt model as the book's predictor table (layout:
//! [`kifudex_core::predict::table`]).

use kifudex_core::format::bits_for;
use kifudex_core::predict::features::{GROUPS, GROUP_VALUES};
use kifudex_core::predict::table::FEATURES;
use kifudex_core::predict::PredictorHeader;

use super::Model;
use kifudex_core::format::{BitWriter, Body};

/// How the table is laid out.
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

/// A log-strength in the table's units (1/1024 nat), within the table's bounds.
pub fn log_weight(gamma: f64) -> i32 {
    let max = kifudex_core::predict::table::MAX_WEIGHT as f64;
    (gamma.ln() * 1024.0).round().clamp(-max, max) as i32
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

/// Adds the table of `model` to `body`; returns its header.
pub fn encode(
    model: &Model,
    opts: &TableOptions,
    body: &mut Body,
) -> (PredictorHeader, TableStats) {
    let weights: Vec<i32> = model
        .gammas
        .pattern
        .iter()
        .map(|&g| log_weight(g))
        .collect();
    // Patterns (most played first) with their weights; feature i + 1 is patterns[i].
    let n = model.patterns.len();
    let bucket_bits = bits_for(n as u64).saturating_sub(3).clamp(1, 24);
    let (rb, wb) = (opts.rem_bits as u32, opts.weight_bits as u32);
    let (lo, hi) = weights[1..]
        .iter()
        .fold((i32::MAX, i32::MIN), |(lo, hi), &w| (lo.min(w), hi.max(w)));
    let (lo, hi) = if lo > hi { (0, 0) } else { (lo, hi) };
    let levels = (1i64 << wb) - 1;
    let step = ((hi as i64 - lo as i64 + levels - 1) / levels).max(1) as i32;
    let mut recs: Vec<(u64, u64, u64)> = Vec::with_capacity(n);
    for (p, &w) in model.patterns.iter().zip(&weights[1..]) {
        let b = p.key & ((1u64 << bucket_bits) - 1);
        let rem = (p.key >> bucket_bits) & ((1u64 << rb) - 1);
        let q = ((w as i64 - lo as i64 + step as i64 / 2) / step as i64).clamp(0, levels) as u64;
        recs.push((b, rem, q));
    }
    // Keep the first (most played) of patterns with equal stored bits.
    let mut order: Vec<usize> = (0..recs.len()).collect();
    order.sort_by_key(|&i| (recs[i].0, recs[i].1, i));
    order.dedup_by_key(|i| (recs[*i].0, recs[*i].1));
    let collisions = recs.len() - order.len();
    let nb = (1usize << bucket_bits) + 1;
    let mut starts = vec![0u64; nb];
    let mut records = BitWriter::with_capacity(rb + wb, order.len());
    for &i in &order {
        let (b, rem, q) = recs[i];
        starts[b as usize + 1] += 1;
        records.push(rem << wb | q);
    }
    for b in 1..nb {
        starts[b] += starts[b - 1];
    }
    let mut bw = BitWriter::with_capacity(bits_for(order.len() as u64), nb);
    for &s in &starts {
        bw.push(s);
    }
    let mut gw = BitWriter::new(32);
    for (values, gammas) in GROUP_VALUES.iter().zip(&model.gammas.groups).take(GROUPS) {
        for &g in gammas.iter().take(*values as usize) {
            gw.push(log_weight(g) as u32 as u64);
        }
    }
    let buckets = body.packed(bw);
    let records = body.packed(records);
    let groups = body.packed(gw);
    let header = PredictorHeader {
        features: FEATURES,
        patterns: order.len() as u64,
        bucket_bits: bucket_bits as u8,
        rem_bits: rb as u8,
        weight_bits: wb as u8,
        weight_base: lo,
        weight_step: step,
        unknown: weights[0],
        buckets,
        records,
        groups,
    };
    let stats = TableStats {
        patterns: order.len(),
        collisions,
        bytes: buckets.len + records.len + groups.len,
    };
    (header, stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::predict::harvest::Pattern;
    use crate::predict::mm::Gammas;
    use kifudex_core::format::FormatError;
    use kifudex_core::predict::features::ALL_GROUPS;
    use kifudex_core::predict::{Predictor, Weights};

    fn model(n: usize) -> Model {
        let mut z = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            z
        };
        let patterns: Vec<Pattern> = (0..n)
            .map(|i| Pattern {
                size: (i % 10) as u8,
                key: next(),
                count: (n - i) as u32,
                parent: 0,
            })
            .collect();
        let mut gammas = Gammas::ones(n + 1);
        for (i, g) in gammas.pattern.iter_mut().enumerate() {
            *g = ((i % 97) as f64 / 10.0 - 4.0).exp();
        }
        for (gi, g) in gammas.groups.iter_mut().enumerate() {
            for (v, x) in g.iter_mut().enumerate().skip(1) {
                *x = ((gi * 7 + v) as f64 / 5.0 - 2.0).exp();
            }
        }
        Model { patterns, gammas }
    }

    #[test]
    fn a_table_reads_back_what_was_written() {
        let m = model(5000);
        let (header, bytes, stats) = crate::predict::table(&m, &TableOptions::default());
        let t = Predictor::open(&header, &bytes).unwrap();
        assert_eq!(stats.patterns + stats.collisions, 5000);
        let half = header.weight_step / 2 + 1;
        for (i, p) in m.patterns.iter().enumerate() {
            let want = log_weight(m.gammas.pattern[i + 1]);
            let got = t.pattern(p.size as usize, p.key).unwrap();
            assert!((got - want).abs() <= half, "pattern {i}: {got} for {want}");
        }
        assert_eq!(t.unknown_pattern(), log_weight(m.gammas.pattern[0]));
        for (gi, g) in ALL_GROUPS.iter().enumerate() {
            for v in 0..GROUP_VALUES[gi] {
                assert_eq!(t.group(*g, v), log_weight(m.gammas.groups[gi][v as usize]));
            }
        }
        // Keys not stored are (almost always) not found.
        let misses = (0..10_000u64)
            .filter(|i| {
                t.pattern(0, i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                    .is_some()
            })
            .count();
        assert!(misses <= 2, "{misses} false matches");
    }

    #[test]
    fn a_damaged_table_is_refused() {
        let m = model(300);
        let (header, bytes, _) = crate::predict::table(&m, &TableOptions::default());
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
        // Every single-byte change of the records either fails validation or still
        // reads without a panic.
        for i in header.records.offset as usize..(header.records.offset + 40) as usize {
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
        let (header, bytes, _) = crate::predict::table(&m, &opts);
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
