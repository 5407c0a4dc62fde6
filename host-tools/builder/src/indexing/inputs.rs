//! What a build reads games from ([`Input`]): files (SGF or archives), sources already in
//! memory, and the games of an index read back as records ([`StoredGames`]), so that
//! merging and adding put an index's games through the same stages as games read from
//! SGF.
//!
//! An index is read back without its games being parsed: every stored field (moves, setup,
//! the game information the index keeps, the date key) becomes the record the SGF reader
//! would have given ([`record_of`]). The games are read in ranges of [`CHUNK`], each one
//! input, so that the games of one index are replayed in parallel.

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{anyhow, bail, Result};
use kifudex_core::index::{Game, Index};
use kifudex_core::index_file::IndexFile;
use kifudex_core::Event;

use crate::indexing::options::BuildOptions;
use crate::input::{self, Skipped, Source};
use crate::mapped::IndexBytes;
use crate::sgf::{GameInfo, GameRecord, SourceRef};

/// Something to read games from.
pub enum Input {
    /// A file (SGF or archive) to read.
    File(PathBuf),
    /// Sources already in memory (e.g. the bundled sample).
    Sources(Vec<Source>),
    /// Games of an index, read back one by one as they are replayed.
    Stored(StoredGames),
}

/// The inputs under `paths` (files, and folders searched for them), in the order a build
/// reads them, with the paths that cannot be read.
pub fn files(paths: &[PathBuf]) -> (Vec<Input>, Vec<Skipped>) {
    let (files, skipped) = input::list_inputs(paths);
    (files.into_iter().map(Input::File).collect(), skipped)
}

/// Sources in memory, one input each.
pub fn sources(sources: Vec<Source>) -> Vec<Input> {
    sources
        .into_iter()
        .map(|s| Input::Sources(vec![s]))
        .collect()
}

/// A game read back from an index: its record (events, info, source) and its date key.
pub struct StoredRecord {
    /// The record as the SGF reader would give it (events up to the stored end).
    pub record: GameRecord,
    /// The date key stored with it.
    pub date_key: u32,
}

/// Games read back per input (so that the games of one index are replayed in parallel).
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

/// Game `id` of `index`, as the SGF reader would give it.
fn stored_record(index: &Index, id: u32) -> Option<StoredRecord> {
    let g = index.game(id)?;
    Some(StoredRecord {
        record: record_of(&g, index.events(id).collect())?,
        date_key: g.date_key,
    })
}

/// The record of a game of an index (its information as the SGF reader gives it) with
/// `events` as its main line. (The stored date key, not one read again from the date,
/// orders the game: the caller keeps it.)
pub fn record_of(g: &Game<'_>, events: Vec<Event>) -> Option<GameRecord> {
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
/// into a new index unnoticed) and reads its games back, as inputs; the options they were
/// built with must agree, and are returned.
pub fn indexes(paths: &[PathBuf]) -> Result<(Vec<Input>, BuildOptions)> {
    let mut inputs = Vec::new();
    let mut built: Option<(u32, u32)> = None;
    for p in paths {
        let bytes = Arc::new(crate::open_index_file(p)?);
        let file = IndexFile::open_verified(&bytes)
            .map_err(|e| anyhow!("{}: {}", p.display(), crate::invalid_index(e)))?;
        let h = file.index.header();
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
        let games = file.index.game_count();
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
