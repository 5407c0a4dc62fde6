//! A learnt model as the book's predictor table ([`kifudex_core::predict::table`]: the
//! layout, the encoder and the reader).

use kifudex_core::format::Body;
use kifudex_core::predict::table::{encode, TableOptions, TableStats, GROUP_TOTAL, MAX_WEIGHT};
use kifudex_core::predict::PredictorHeader;

use super::Model;

/// A strength as the table's log-strength (1/1024 nat), clamped to the table's bounds.
pub fn log_weight(gamma: f64) -> i32 {
    let max = MAX_WEIGHT as f64;
    (gamma.ln() * 1024.0).round().clamp(-max, max) as i32
}

/// Adds the table of `model` to `body`; returns its header.
pub fn add_to(
    model: &Model,
    opts: &TableOptions,
    body: &mut Body,
) -> (PredictorHeader, TableStats) {
    let patterns: Vec<(u64, i32)> = model
        .patterns
        .iter()
        .zip(&model.gammas.pattern[1..])
        .map(|(p, &g)| (p.key, log_weight(g)))
        .collect();
    let mut groups = [0i32; GROUP_TOTAL];
    for (slot, &g) in groups.iter_mut().zip(model.gammas.groups.iter().flatten()) {
        *slot = log_weight(g);
    }
    let (mut header, stats) = encode(
        &patterns,
        log_weight(model.gammas.pattern[0]),
        &groups,
        opts,
        body,
    );
    header.games = model.games as u32;
    (header, stats)
}
