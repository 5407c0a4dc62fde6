//! `kifudex add` incrementally: the new games are read and replayed as a build reads
//! them, and the old index is read in one sequential pass, without replaying its games;
//! the result is byte for byte the index one build of all the inputs would give (the old
//! index's games first, then the new inputs, in order), as [`add_by_rebuild`] gives it by
//! replaying every stored game (the pipeline of a build over the index's games read back,
//! then the new inputs).
//!
//! | file | part |
//! |---|---|
//! | `old.rs` | the old index read in place: occurrences, keys by replay, next moves, games |
//! | `place.rs` | the new positions and their places among the old ones |
//! | `pass.rs` | the pass over the old occurrences, the new ones put in, slice by slice |
//!
//! The steps:
//! 1. the new inputs are read, replayed and sorted as a build does
//!    ([`crate::indexing::occurrences::prepare`]);
//! 2. the old index is verified ([`kifudex_core::index::Index::verify`]) while its games
//!    are read back (moves, setup, information; no replay), hashed for the duplicates;
//! 3. new games equal to an old game (or to an earlier new one) are left out, the others
//!    merged into the old games' order (newest first; the old game first on a tie, as a
//!    build that reads it first); the old move numbers shift by the new moves before
//!    them ([`pass::Shift`]);
//! 4. every new position is placed among the old ones ([`place`]) while the games'
//!    sections are encoded;
//! 5. the occurrences are written in one pass over the old ones ([`pass`]), with the
//!    shared positions' next moves, then the rest ([`IndexWriter`]).
//!
//! When that cannot give the bytes of a build, the games are added by a full rebuild
//! ([`add_by_rebuild`]), and the report says why: the new occurrences are more
//! than the memory budget holds beside the old index (they would have to be spilled);
//! the merged index keeps more fingerprint bits per occurrence than the old one has
//! (its counts crossed a width); the old index holds duplicate games that a build
//! without `--keep-duplicates` leaves out.

mod old;
mod pass;
mod place;

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{anyhow, Context, Result};
use rayon::prelude::*;

use crate::indexing::inputs;
use crate::indexing::occurrences::duplicates::{content_hash, location, same_content};
use crate::indexing::occurrences::{index_order, prepare, Budget, Collected, Occurrences};
use crate::indexing::options::BuildOptions;
use crate::indexing::output;
use crate::indexing::pipeline::{build_file, write_file};
use crate::indexing::replay::ReplayedGame;
use crate::indexing::report::BuildReport;
use crate::indexing::write::index::{encode_games, occurrence_split, shared_min};
use crate::indexing::write::{FileBytes, IndexWriter, StreamBody};
use old::OldIndex;
use pass::{Pass, Shift};

/// Old occurrences per slice of the pass (about 40 MB of decoded occurrences).
const SLICE: usize = 1 << 20;

/// Adds the games under `paths` to the index at `index` (rewritten atomically), in one
/// pass over it when it can, else by a full rebuild (module documentation).
pub fn add(index: &Path, paths: &[PathBuf], keep_duplicates: bool) -> Result<BuildReport> {
    let t0 = Instant::now();
    let bytes = crate::open_index_file(index)?;
    let header = kifudex_core::index::Index::open(&bytes)
        .map_err(|e| anyhow!("{}: {}", index.display(), crate::invalid_index(e)))?
        .header()
        .clone();
    let opts = BuildOptions {
        max_moves: (header.max_moves > 0).then_some(header.max_moves),
        shared_min: header.shared_min,
        keep_duplicates,
        ..BuildOptions::default()
    };
    let mut report = BuildReport::default();
    let new = read_new(index, paths, &opts, &mut report, t0)?;
    let Some(new) = new else {
        return rebuild(
            index,
            paths,
            keep_duplicates,
            "the new games exceed the memory budget",
        );
    };
    match add_incrementally(index, &bytes, new, &opts, &mut report, t0)
        .with_context(|| format!("{}", index.display()))?
    {
        Added::Done => {
            report.added = Some("incrementally (one pass over the old index)".into());
            report.elapsed = t0.elapsed();
            Ok(report)
        }
        Added::Fallback(why) => {
            drop(bytes);
            rebuild(index, paths, keep_duplicates, why)
        }
    }
}

/// [`add`] by rebuilding everything: every stored game replayed again with the new ones
/// (the pipeline of a build over the index's games read back, then `paths`).
pub fn add_by_rebuild(
    index: &Path,
    paths: &[PathBuf],
    keep_duplicates: bool,
) -> Result<BuildReport> {
    let t0 = Instant::now();
    let mut report = BuildReport::default();
    let (mut inputs, mut opts) = inputs::indexes(&[index.to_path_buf()])?;
    opts.keep_duplicates = keep_duplicates;
    let (files, skipped) = inputs::files(paths);
    inputs.extend(files);
    build_file(inputs, skipped, &opts, index, &mut report, t0)?;
    report.added = Some("by a full rebuild (every stored game replayed)".into());
    Ok(report)
}

/// [`add_by_rebuild`], reporting why.
fn rebuild(
    index: &Path,
    paths: &[PathBuf],
    keep_duplicates: bool,
    why: &str,
) -> Result<BuildReport> {
    let mut report = add_by_rebuild(index, paths, keep_duplicates)?;
    report.added = Some(format!("by a full rebuild: {why}"));
    Ok(report)
}

/// Reads, replays and sorts the new games as a build does (collisions among them
/// checked); `None` if their occurrences did not fit the memory budget.
fn read_new(
    index: &Path,
    paths: &[PathBuf],
    opts: &BuildOptions,
    report: &mut BuildReport,
    t0: Instant,
) -> Result<Option<Collected>> {
    let (inputs, skipped) = inputs::files(paths);
    // Half the budget: the old index's games and the pass need the rest.
    let budget = Budget::new(opts.memory / 2, &output::folder(index));
    let prepared = prepare(inputs, skipped, opts, report, t0, Some(budget), false)?;
    if matches!(prepared.occurrences, Occurrences::Spilled(_)) {
        return Ok(None);
    }
    Ok(Some(prepared.sort_and_check(report, t0)?))
}

/// How an add ended.
enum Added {
    /// The index is written.
    Done,
    /// It cannot be added incrementally, for this reason.
    Fallback(&'static str),
}

/// Steps 2 to 5 of the module documentation.
fn add_incrementally(
    index: &Path,
    bytes: &[u8],
    new: Collected,
    opts: &BuildOptions,
    report: &mut BuildReport,
    t0: Instant,
) -> Result<Added> {
    let old = OldIndex::open(bytes)?;
    // Its games are read back while it is verified, each through a mapping of its own:
    // the pages they read leave the process's memory with them (the rest of the add
    // reads the occurrences as it goes). The games' pages (their records, moves and
    // pattern search's sections, about 1 GB at a million games) held while the sections
    // were encoded and the new positions placed: 4.87 GB resident then, 1.2 GB of it the
    // mapped file's.
    let (verified, old_games) = rayon::join(
        || -> Result<()> {
            let whole = crate::open_index_file(index)?;
            OldIndex::open(&whole)?.verify()
        },
        || -> Result<Vec<ReplayedGame>> {
            let whole = crate::open_index_file(index)?;
            OldIndex::open(&whole)?.games(opts.max_moves.unwrap_or(u32::MAX))
        },
    );
    verified?;
    let old_games = old_games?;
    report.phase("read", t0);
    let Collected {
        games: new_games,
        move_starts: new_move_starts,
        occs: new_occs,
        groups: new_groups,
    } = new;
    let dropped = match duplicates_of_old(&old_games, &new_games, opts.keep_duplicates, report) {
        Some(d) => d,
        None => return Ok(Added::Fallback("the index holds duplicate games")),
    };
    let new_kept: u64 = new_games
        .iter()
        .zip(&dropped)
        .filter(|(_, &d)| !d)
        .map(|(g, _)| g.indexed as u64)
        .sum();
    report.phase("dups", t0);
    let merged = merge_games(old_games, new_games, &dropped)?;
    let total_moves = *merged.move_starts.last().unwrap_or(&0) as u64
        + merged.games.last().map_or(0, |g| g.moves.len() as u64);
    let occurrences = old.occurrences() + new_kept;
    let (_, split) = occurrence_split(total_moves, occurrences);
    if split.bucket_bits + split.rem_bits > old.prefix_bits {
        return Ok(Added::Fallback(
            "the merged index keeps more fingerprint bits than the old one has",
        ));
    }
    let (new_occs, mut positions) =
        place::new_positions(&new_occs, &new_groups, &new_move_starts, &merged.new_starts);
    drop(new_groups);
    report.phase("order", t0);
    // The games' sections are encoded while the new positions are placed, through a
    // mapping of their own too (their searches touch pages all over the occurrences).
    let (games_part, collisions) = rayon::join(
        || encode_games(&merged.games, &merged.move_starts),
        || -> Result<u64> {
            let whole = crate::open_index_file(index)?;
            place::place(&OldIndex::open(&whole)?, &mut positions)
        },
    );
    let collisions = collisions?;
    report.phase("place", t0);
    if collisions > 0 {
        report.collisions = collisions;
        anyhow::bail!(
            "{collisions} position keys stand for two different positions; refusing to merge them"
        );
    }
    report.games_read += old.index().game_count() as usize;
    report.files += 1;
    report.games_indexed = merged.games.iter().filter(|g| g.indexed > 0).count();
    report.games_without_moves = merged.games.iter().filter(|g| g.moves.is_empty()).count();
    let body = StreamBody::in_file(&output::folder(index))?;
    let mut w = IndexWriter::new(body, games_part, merged.games.len(), occurrences, opts)?;
    // Encoded: the pass needs the games no more.
    let Merged { games, shift, .. } = merged;
    std::thread::spawn(move || drop(games));
    let pass = Pass {
        old: &old,
        shift: &shift,
        new_occs: &new_occs,
        new: &positions,
        shared_min: shared_min(opts),
        slice: SLICE,
    };
    report.verified_positions = pass.run(&mut w)?;
    let file = w.finish(report)?;
    report.phase("pass", t0);
    report.occurrences = occurrences;
    let (tmp, len) = write_file(index, FileBytes::Streamed(file))?;
    output::persist(tmp, index)?;
    report.phase("write", t0);
    report.bytes = len;
    Ok(Added::Done)
}

/// Which new games repeat an old game (by setup and main line; none if
/// `keep_duplicates`), counted and named in `report`; `None` if two old games repeat
/// each other and duplicates are to be left out (a build of the old inputs would leave
/// one out: only a full rebuild does).
fn duplicates_of_old(
    old: &[ReplayedGame],
    new: &[ReplayedGame],
    keep_duplicates: bool,
    report: &mut BuildReport,
) -> Option<Vec<bool>> {
    if keep_duplicates {
        return Some(vec![false; new.len()]);
    }
    let mut hashes: Vec<(u64, u32)> = old
        .par_iter()
        .enumerate()
        .map(|(i, g)| (content_hash(g), i as u32))
        .collect();
    hashes.par_sort_unstable();
    let repeated = hashes.par_windows(2).any(|w| {
        w[0].0 == w[1].0 && {
            let run = hashes.partition_point(|h| h.0 < w[0].0);
            // Any two equal games among the run of equal hashes.
            let end = hashes.partition_point(|h| h.0 <= w[0].0);
            (run..end).any(|x| {
                (x + 1..end)
                    .any(|y| same_content(&old[hashes[x].1 as usize], &old[hashes[y].1 as usize]))
            })
        }
    });
    if repeated {
        return None;
    }
    let found: Vec<Option<u32>> = new
        .par_iter()
        .map(|g| {
            let h = content_hash(g);
            let from = hashes.partition_point(|x| x.0 < h);
            hashes[from..]
                .iter()
                .take_while(|x| x.0 == h)
                .find(|x| same_content(&old[x.1 as usize], g))
                .map(|x| x.1)
        })
        .collect();
    let mut named: Vec<((u32, u32, usize), String)> = new
        .iter()
        .zip(&found)
        .filter_map(|(g, o)| {
            let o = &old[(*o)? as usize];
            let rank = (g.read_rank.0, g.read_rank.1, g.record.source.tree_index);
            Some((rank, format!("{}, same as {}", location(g), location(o))))
        })
        .collect();
    named.sort();
    report.duplicates += named.len();
    let mut examples: Vec<String> = named.into_iter().map(|n| n.1).collect();
    examples.append(&mut report.duplicate_examples);
    examples.truncate(3);
    report.duplicate_examples = examples;
    Some(found.iter().map(Option::is_some).collect())
}

/// The old and the kept new games in the merged order.
struct Merged {
    /// The games, newest first.
    games: Vec<ReplayedGame>,
    /// Where each game's moves start.
    move_starts: Vec<u32>,
    /// Where each new game's moves start (`None`: left out).
    new_starts: Vec<Option<u64>>,
    /// Old move numbers to merged ones.
    shift: Shift,
}

/// Merges the new games (in their order, those `dropped` left out) into the old ones
/// (in theirs): newest first, a tie kept in the order of reading (the old games first).
fn merge_games(old: Vec<ReplayedGame>, new: Vec<ReplayedGame>, dropped: &[bool]) -> Result<Merged> {
    let mut new_starts = vec![None; new.len()];
    let mut games = Vec::with_capacity(old.len() + new.len());
    let mut move_starts = Vec::with_capacity(old.len() + new.len());
    let mut shift = Shift::new();
    let (mut total, mut old_total, mut inserted) = (0u64, 0u64, 0u64);
    let mut kept = new
        .into_iter()
        .enumerate()
        .filter(|&(k, _)| !dropped[k])
        .peekable();
    for g in old {
        while let Some((k, n)) = kept.next_if(|(_, n)| index_order(n, &g).is_lt()) {
            new_starts[k] = Some(total);
            move_starts.push(u32::try_from(total).context("more than 4 billion moves")?);
            total += n.moves.len() as u64;
            inserted += n.moves.len() as u64;
            games.push(n);
        }
        shift.push(old_total, inserted);
        move_starts.push(u32::try_from(total).context("more than 4 billion moves")?);
        total += g.moves.len() as u64;
        old_total += g.moves.len() as u64;
        games.push(g);
    }
    for (k, n) in kept {
        new_starts[k] = Some(total);
        move_starts.push(u32::try_from(total).context("more than 4 billion moves")?);
        total += n.moves.len() as u64;
        games.push(n);
    }
    u32::try_from(total).context("more than 4 billion moves")?;
    shift.finish(old_total);
    Ok(Merged {
        games,
        move_starts,
        new_starts,
        shift,
    })
}
