//! Adding games to an index and merging indexes ([`merge`], [`add`]): the games stored in
//! the indexes are read back (moves, setup, every game-info field the index keeps) and go
//! through the same pipeline as games read from SGF, so the result is byte for byte the
//! index one `build` of all the inputs would give, in the same order (the indexes' inputs
//! first, in the order given; duplicates across them left out as a build would).
//!
//! This is also how shards built on several machines combine into one index: build each
//! shard anywhere (any job runner), then `kifudex merge shard1.kdx shard2.kdx ... -o all.kdx`.
//!
//! Cost of a merge (and of an add by [`add_by_rebuild`]): every stored game is replayed again (no SGF is parsed), in parallel, in chunks of
//! [`CHUNK`] games read back from the memory-mapped index as they are replayed: time
//! proportional to all the games, not only the new ones; memory as a build of all of them
//! (within `--memory`, [`super::spill`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use std::ops::Range;
use std::sync::Arc;

use anyhow::{anyhow, bail, Result};
use kifudex_core::index::Index;
use kifudex_core::Event;

use crate::mapped::IndexBytes;

use super::{collect_and_encode, output, BuildOptions, BuildReport, Input};
use crate::input;
use crate::sgf::{GameInfo, GameRecord, SourceRef};

/// A game read back from an index: its record (events, info, source) and its date key.
pub struct StoredRecord {
    /// The record as the SGF reader would give it (events up to the stored end).
    pub record: GameRecord,
    /// The date key stored with it.
    pub date_key: u32,
}

/// Games read back per input of a merge (so that the games of one index are replayed in
/// parallel).
pub const CHUNK: u32 = 4096;

/// A range of the games of an index, to be read back as they are replayed.
pub struct StoredGames {
    bytes: Arc<IndexBytes>,
    games: Range<u32>,
    /// The first range of its index (which counts as the input read).
    pub first: bool,
}

impl StoredGames {
    /// Every game of the (already verified) index `bytes`, in ranges of [`CHUNK`] games.
    pub fn chunks(bytes: Arc<IndexBytes>, games: u32) -> Vec<StoredGames> {
        (0..games.div_ceil(CHUNK).max(1))
            .map(|k| StoredGames {
                bytes: bytes.clone(),
                games: k * CHUNK..((k + 1) * CHUNK).min(games),
                first: k == 0,
            })
            .collect()
    }

    /// Calls `each` with every game of the range, in index order.
    pub fn for_each(&self, mut each: impl FnMut(StoredRecord)) {
        let Ok(index) = Index::open(&self.bytes) else {
            return;
        };
        for id in self.games.clone() {
            if let Some(r) = stored_record(&index, id) {
                each(r);
            }
        }
    }
}

/// Every game of `index`, in index order.
pub fn stored_records(index: &Index) -> Vec<StoredRecord> {
    (0..index.game_count())
        .filter_map(|id| stored_record(index, id))
        .collect()
}

/// Game `id` of `index`, as the SGF reader would give it.
pub fn stored_record(index: &Index, id: u32) -> Option<StoredRecord> {
    let g = index.game(id)?;
    Some(StoredRecord {
        record: record_of(&g, index.events(id).collect())?,
        date_key: g.date_key,
    })
}

/// The record of a game of an index (its information as the SGF reader gives it) with
/// `events` as its main line. (The stored date key, not one read again from the date,
/// orders the game: the caller keeps it.)
pub(super) fn record_of(
    g: &kifudex_core::index::Game<'_>,
    events: Vec<Event>,
) -> Option<GameRecord> {
    Some(GameRecord {
        source: SourceRef {
            path: g.path.to_string(),
            member: (!g.member.is_empty()).then(|| g.member.to_string()),
            tree_index: usize::try_from(g.tree).ok()?,
        },
        byte_offset: 0,
        size: g.size,
        encoding: "UTF-8",
        info: GameInfo::from_stored(g),
        events,
        end: None,
        warnings: Vec::new(),
    })
}

/// Opens and verifies each index (a merge reads every record: a damaged one must not go
/// into a new index unnoticed) and reads its games back; the options they were built
/// with must agree, and are returned.
fn read_indexes(paths: &[PathBuf]) -> Result<(Vec<Input>, BuildOptions)> {
    let mut inputs = Vec::new();
    let mut built: Option<(u32, u32)> = None;
    for p in paths {
        let bytes = Arc::new(crate::open_index_file(p)?);
        let index = Index::open_verified(&bytes)
            .map_err(|e| anyhow!("{}: not a valid index: {e}", p.display()))?;
        let h = index.header();
        let options = (h.max_moves, h.shared_min);
        match built {
            None => built = Some(options),
            Some(o) if o != options => bail!(
                "{}: built with other options (--max-moves {}) than {}",
                p.display(),
                h.max_moves,
                paths[0].display()
            ),
            Some(_) => {}
        }
        let games = index.game_count();
        inputs.extend(
            StoredGames::chunks(bytes.clone(), games)
                .into_iter()
                .map(Input::Stored),
        );
    }
    let (max_moves, shared_min) = built.ok_or_else(|| anyhow!("no index to read"))?;
    let opts = BuildOptions {
        max_moves: (max_moves > 0).then_some(max_moves),
        shared_min,
        ..BuildOptions::default()
    };
    Ok((inputs, opts))
}

/// Writes to `out` the index of the games of `indexes` then of `paths` (SGF files,
/// archives, folders), as one build of all their inputs in that order would.
pub(super) fn combine(
    indexes: &[PathBuf],
    paths: &[PathBuf],
    out: &Path,
    keep_duplicates: bool,
) -> Result<BuildReport> {
    let t0 = Instant::now();
    let mut report = BuildReport::default();
    let (mut inputs, mut opts) = read_indexes(indexes)?;
    opts.keep_duplicates = keep_duplicates;
    let (files, skipped) = input::list_inputs(paths);
    inputs.extend(files.into_iter().map(Input::File));
    let ((tmp, bytes), games) = collect_and_encode(
        inputs,
        skipped,
        &opts,
        &mut report,
        t0,
        Some(&output::folder(out)),
        |file| super::write_file(out, file),
    )?;
    output::persist(tmp, out)?;
    drop(games);
    report.bytes = bytes;
    report.elapsed = t0.elapsed();
    Ok(report)
}

/// Merges indexes into `out`: the same index as one build of all their inputs, in the
/// order given (the first index's inputs first).
pub fn merge(indexes: &[PathBuf], out: &Path, keep_duplicates: bool) -> Result<BuildReport> {
    combine(indexes, &[], out, keep_duplicates)
}

/// Adds the games under `paths` to the index at `index` (rewritten atomically): the same
/// index as one build of its inputs followed by `paths`. Incrementally, in one pass over
/// the old index ([`super::add`]), unless that cannot give the same bytes (then by a
/// full rebuild, [`add_by_rebuild`]); the report says which.
pub fn add(index: &Path, paths: &[PathBuf], keep_duplicates: bool) -> Result<BuildReport> {
    super::add::add(index, paths, keep_duplicates)
}

/// [`add`] by rebuilding everything: every stored game replayed again with the new ones.
pub fn add_by_rebuild(
    index: &Path,
    paths: &[PathBuf],
    keep_duplicates: bool,
) -> Result<BuildReport> {
    let mut report = combine(&[index.to_path_buf()], paths, index, keep_duplicates)?;
    report.added = Some("by a full rebuild (every stored game replayed)".into());
    Ok(report)
}
