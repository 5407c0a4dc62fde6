//! Encoding a learnt model as the book's predictor table (layout:
//! [`kifudex_core::predict::table`]).

use kifudex_core::format::bits_for;
use kifudex_core::predict::features::{GROUPS, GROUP_VALUES};
use kifudex_core::predict::table::FEATURES;
use kifudex_core::predict::PredictorHeader;

use super::Model;
use crate::build::bits::{BitWriter, Body};

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
