//! Merging indexes ([`merge`]): the games stored in the indexes are read back (moves,
//! setup, every game-info field the index keeps; [`crate::indexing::inputs`]) and go through
//! the same pipeline as games read from SGF, so the result is byte for byte the index one
//! `build` of all the inputs would give, in the same order (the first index's inputs
//! first; duplicates across them left out as a build would).
//!
//! This is also how shards built on several machines combine into one index: build each
//! shard anywhere (any job runner), then `kifudex merge shard1.kdx shard2.kdx ... -o all.kdx`.
//!
//! Cost of a merge: every stored game is replayed again (no SGF is parsed), in parallel,
//! in chunks of [`crate::indexing::inputs::CHUNK`] games read back from the memory-mapped
//! index as they are replayed: time proportional to all the games; memory as a build of
//! all of them (within `--memory`: occurrences past it are spilled).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;

use crate::indexing::inputs;
use crate::indexing::pipeline::build_file;
use crate::indexing::report::BuildReport;

/// Merges indexes into `out`: the same index as one build of all their inputs, in the
/// order given (the first index's inputs first).
pub fn merge(indexes: &[PathBuf], out: &Path, keep_duplicates: bool) -> Result<BuildReport> {
    let t0 = Instant::now();
    let mut report = BuildReport::default();
    let (inputs, mut opts) = inputs::indexes(indexes)?;
    opts.keep_duplicates = keep_duplicates;
    build_file(inputs, Vec::new(), &opts, out, &mut report, t0)?;
    Ok(report)
}
