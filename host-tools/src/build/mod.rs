//! Building an index (desktop) or a book (microcontroller) from SGF collections.
//!
//! The pipeline: inputs are collected ([`crate::input`]), every file is parsed and every
//! game's main line replayed with captures in parallel ([`replay`]), games are ordered
//! newest first, every indexed move becomes an occurrence keyed by its position's
//! canonical 128-bit key, occurrences are sorted, the build checks **exactly** that no key
//! stands for two different positions ([`verify`]), and the file is written atomically
//! ([`index_file`], [`book_file`]). The output depends only on the inputs and options:
//! never on the thread count or the machine.
//!
//! For an index the steps overlap: the games are ordered while the sort's buffer is
//! prepared, encoded while the occurrences are bucket-sorted, and the occurrences are
//! encoded and the file written (to a temporary file, renamed into place only after the
//! check) while the keys are checked.
//!
//! | file | part |
//! |---|---|
//! | `mod.rs` | the options and the pipeline: [`build`], [`build_in_memory`], [`collect`] |
//! | `gather.rs` | reading, parsing and replaying the inputs in parallel; ordering the games |
//! | `replay.rs` | one game's main line replayed into moves, setup stones and occurrences |
//! | `duplicates.rs` | games repeated in the inputs, left out |
//! | `merge.rs` | adding games to an index, merging indexes |
//! | `sort.rs` | the parallel bucket sort of the occurrences |
//! | `verify.rs` | the exact collision check |
//! | `index_file.rs`, `book_file.rs` | encoding through the core's record codecs |
//! | `bits.rs` | packing large sections in parallel |
//! | `output.rs` | atomic output |
//! | `report.rs` | what a build read, skipped and measured |

pub(crate) mod bits;
pub mod book_file;
mod duplicates;
mod gather;
pub mod index_file;
mod merge;
mod output;
mod preflight;
pub mod problems;
pub mod replay;
mod report;
mod sort;
pub mod verify;

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Result};
use kifudex_core::format::EncodedFile;

use crate::input::{self, Skipped, Source};
use gather::prepare;
pub use merge::{add, merge, stored_records, StoredRecord};
pub use output::write_atomically;
use output::{persist, write_temporary};
pub use preflight::{check_inputs, check_output};
pub use problems::{Outcome, Problem};
use replay::ReplayedGame;
use report::resident_bytes;
pub use report::BuildReport;
use sort::{Renumbering, SortPlan};

/// What kind of file to build.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Profile {
    /// The desktop index: positions, next moves, games, game records.
    Desktop,
    /// The microcontroller book: position keys and next-move counts only.
    Mcu,
}

/// Options of a build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Index only the positions before the first N moves of each game (`None`: all).
    pub max_moves: Option<u32>,
    /// Desktop index or microcontroller book.
    pub profile: Profile,
    /// Book: drop next moves seen fewer times than this.
    pub min_count: u32,
    /// Book: keep at most this many next moves per position.
    pub max_next: Option<u32>,
    /// Index: positions with at least this many occurrences get precomputed next moves.
    pub shared_min: u32,
    /// Show a progress bar on a terminal.
    pub progress: bool,
    /// Book: also learn a move predictor from every move of the games, with these options.
    pub predictor: Option<crate::predict::TrainOptions>,
    /// List every recovered defect in [`BuildReport::problems`] (they are always counted).
    pub list_recovered: bool,
    /// Keep games whose setup and main line repeat a game read earlier (default: left
    /// out and counted, [`duplicates`]).
    pub keep_duplicates: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            max_moves: None,
            profile: Profile::Desktop,
            min_count: 1,
            max_next: None,
            shared_min: 8,
            progress: false,
            predictor: None,
            list_recovered: false,
            keep_duplicates: false,
        }
    }
}

/// One occurrence during a build: the canonical key, the global move number, the
/// transform from the game's orientation to the canonical one, and the position's check
/// value ([`verify`]). Ordered by key, then move number (move numbers are distinct).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Occ {
    /// High half of the canonical key (the fingerprint).
    pub hi: u64,
    /// Low half of the canonical key.
    pub lo: u64,
    /// Global move number (index into the concatenated moves of all games).
    pub ply: u32,
    /// Transform from the game's orientation to the canonical one.
    pub orient: u8,
    /// A second hash of the position, independent of the key and of the orientation
    /// ([`verify::check_value`]): occurrences of one key must agree on it.
    pub check: u64,
}

/// Games in index order with their occurrences sorted by key.
pub struct Collected {
    /// The games, newest first.
    pub games: Vec<ReplayedGame>,
    /// First global move number of each game.
    pub move_starts: Vec<u32>,
    /// All occurrences, sorted by (key, global move number).
    pub occs: Vec<Occ>,
    /// `occs` split into positions: start index of each group, plus `occs.len()`.
    pub groups: Vec<u32>,
}

impl Collected {
    /// The game holding global move `ply`.
    pub fn game_of_ply(&self, ply: u32) -> usize {
        self.move_starts
            .partition_point(|&s| s <= ply)
            .saturating_sub(1)
    }
}

/// Something to read games from.
pub enum Input {
    /// A file (SGF or archive) to read.
    File(PathBuf),
    /// Sources already in memory (e.g. the bundled sample).
    Sources(Vec<Source>),
    /// The games of an index, read back ([`merge`]).
    Stored(Vec<merge::StoredRecord>),
}

/// Reads, parses and replays every game under `paths`, then sorts the occurrences and
/// checks them for key collisions.
pub fn collect(
    paths: &[PathBuf],
    opts: &BuildOptions,
    report: &mut BuildReport,
) -> Result<Collected> {
    let (files, skipped) = input::list_inputs(paths);
    collect_inputs(
        files.into_iter().map(Input::File).collect(),
        skipped,
        opts,
        report,
    )
}

/// [`collect`] for inputs already in memory (for example an embedded archive read with
/// [`input::collect_archive`]); `skipped` are the inputs that could not be read.
pub fn collect_sources(
    sources: Vec<Source>,
    skipped: &[Skipped],
    opts: &BuildOptions,
    report: &mut BuildReport,
) -> Result<Collected> {
    let inputs = sources
        .into_iter()
        .map(|s| Input::Sources(vec![s]))
        .collect();
    collect_inputs(inputs, skipped.to_vec(), opts, report)
}

/// [`collect`] over listed inputs.
pub fn collect_inputs(
    inputs: Vec<Input>,
    skipped: Vec<Skipped>,
    opts: &BuildOptions,
    report: &mut BuildReport,
) -> Result<Collected> {
    let t0 = Instant::now();
    prepare(inputs, skipped, opts, report, t0)?.sort_and_check(report, t0)
}

/// Games read, replayed and ordered, with their occurrences not yet sorted.
struct Prepared {
    games: Vec<ReplayedGame>,
    move_starts: Vec<u32>,
    /// The workers' occurrences in pieces (provisional move numbers), each with the
    /// offset that makes its worker's numbers global.
    sources: Vec<(Vec<Occ>, u32)>,
    /// The sort's counts and buffer.
    plan: SortPlan,
    /// Provisional move numbers to final ones.
    renumbering: Renumbering,
}

impl Prepared {
    /// Sorts the occurrences (phase `sort`).
    fn sort(self, report: &mut BuildReport, t0: Instant) -> Collected {
        let sorted = self.plan.sort(self.sources, &self.renumbering);
        Collected::sorted(self.games, self.move_starts, sorted, report, t0)
    }

    /// [`Prepared::sort`], then the collision check (phase `verify`).
    fn sort_and_check(self, report: &mut BuildReport, t0: Instant) -> Result<Collected> {
        let collected = self.sort(report, t0);
        check_collisions(
            verify::count_collisions(&collected.occs, &collected.groups),
            report,
            t0,
        )?;
        Ok(collected)
    }
}

impl Collected {
    /// The games with their sorted occurrences and groups (ending phase `sort`).
    fn sorted(
        games: Vec<ReplayedGame>,
        move_starts: Vec<u32>,
        (occs, groups): (Vec<Occ>, Vec<u32>),
        report: &mut BuildReport,
        t0: Instant,
    ) -> Collected {
        report.phase("sort", t0);
        report.occurrences = occs.len() as u64;
        report.positions = (groups.len() - 1) as u64;
        Collected {
            games,
            move_starts,
            occs,
            groups,
        }
    }
}

/// Records the collision check's result (phase `verify`); fails if a key stands for two
/// positions.
fn check_collisions(checked: (u64, u64), report: &mut BuildReport, t0: Instant) -> Result<()> {
    report.phase("verify", t0);
    record_collisions(checked, report)
}

/// Records the collision check's result; fails if a key stands for two positions.
fn record_collisions((collisions, compared): (u64, u64), report: &mut BuildReport) -> Result<()> {
    report.collisions = collisions;
    report.verified_positions = compared;
    if collisions > 0 {
        bail!(
            "{collisions} position keys stand for two different positions; refusing to merge them"
        );
    }
    Ok(())
}

/// Builds an index or a book from `paths` and writes it atomically to `out`. Before any
/// input is read, every path must exist and be readable ([`check_inputs`]) and `out` must
/// be writable ([`check_output`]).
pub fn build(paths: &[PathBuf], out: &Path, opts: &BuildOptions) -> Result<BuildReport> {
    let mut report = BuildReport::default();
    build_reporting(paths, out, opts, &mut report)?;
    Ok(report)
}

/// [`build`] into a report the caller keeps, also when the build fails (to list why).
pub fn build_reporting(
    paths: &[PathBuf],
    out: &Path,
    opts: &BuildOptions,
    report: &mut BuildReport,
) -> Result<()> {
    check_output(out)?;
    check_inputs(paths)?;
    let t0 = Instant::now();
    let (files, skipped) = input::list_inputs(paths);
    let inputs = files.into_iter().map(Input::File).collect();
    // The file is written (to a temporary file) while the keys are checked, and renamed
    // into place once they are.
    let ((tmp, bytes), collected) =
        collect_and_encode(inputs, skipped, opts, report, t0, |file| {
            let tmp = write_temporary(out, |w| {
                use std::io::Write;
                file.pieces().try_for_each(|p| w.write_all(p))
            })?;
            Ok((tmp, file.len() as u64))
        })?;
    persist(tmp, out)?;
    report.phase("persist", t0);
    report.bytes = bytes;
    report.elapsed = t0.elapsed();
    // Freeing the games' many small allocations takes about 10 ms on fox_pro: done by a
    // thread of its own, which a command line process exiting right away need not wait
    // for.
    std::thread::spawn(move || drop(collected));
    Ok(())
}

/// Builds an index or a book from inputs in memory and returns the file's bytes.
pub fn build_in_memory(
    sources: Vec<Source>,
    skipped: &[Skipped],
    opts: &BuildOptions,
) -> Result<(Vec<u8>, BuildReport)> {
    let t0 = Instant::now();
    let mut report = BuildReport::default();
    let inputs = sources
        .into_iter()
        .map(|s| Input::Sources(vec![s]))
        .collect();
    let (bytes, collected) =
        collect_and_encode(inputs, skipped.to_vec(), opts, &mut report, t0, |file| {
            Ok(file.to_vec())
        })?;
    drop(collected);
    report.bytes = bytes.len() as u64;
    report.elapsed = t0.elapsed();
    Ok((bytes, report))
}

/// [`collect_inputs`], [`encode`], then `finish` with the file (phase `write`); for an
/// index, the games are encoded while the occurrences are sorted, and the occurrences
/// encoded and `finish` run while they are checked for collisions. Returns what `finish`
/// returned and what the file was made from.
fn collect_and_encode<T: Send>(
    inputs: Vec<Input>,
    skipped: Vec<Skipped>,
    opts: &BuildOptions,
    report: &mut BuildReport,
    t0: Instant,
    finish: impl FnOnce(&EncodedFile) -> Result<T> + Send,
) -> Result<(T, Collected)> {
    let prepared = prepare(inputs, skipped, opts, report, t0)?;
    if opts.profile == Profile::Mcu || report.games_indexed == 0 {
        let collected = prepared.sort_and_check(report, t0)?;
        let file = encode(&collected, opts, report)?;
        report.phase("encode", t0);
        let done = finish(&file)?;
        report.phase("write", t0);
        return Ok((done, collected));
    }
    let Prepared {
        games,
        move_starts,
        sources,
        plan,
        renumbering,
    } = prepared;
    let (games_part, sorted) = rayon::join(
        || index_file::encode_games(&games, &move_starts),
        || plan.sort(sources, &renumbering),
    );
    let c = Collected::sorted(games, move_starts, sorted, report, t0);
    let mut encoded = BuildReport::default();
    let (checked, done) = rayon::join(
        || {
            let checked = verify::count_collisions(&c.occs, &c.groups);
            (checked, t0.elapsed(), resident_bytes())
        },
        || -> Result<T> {
            let (occurrences, shared) = rayon::join(
                || index_file::encode_occurrences(&c),
                || index_file::encode_shared(&c, index_file::shared_min(opts)),
            );
            let file =
                index_file::assemble(&c, games_part, occurrences, shared, opts, &mut encoded)?;
            encoded.phase("encode", t0);
            let done = finish(&file)?;
            encoded.phase("write", t0);
            Ok(done)
        },
    );
    // The phases in the order they ended.
    let (checked, at, rss) = checked;
    report.records = encoded.records;
    report.phases.push(("verify", at, rss));
    report.phases.append(&mut encoded.phases);
    report.phases.sort_by_key(|p| p.1);
    record_collisions(checked, report)?;
    Ok((done?, c))
}

/// Encodes collected games as the file `opts.profile` asks for.
fn encode(
    collected: &Collected,
    opts: &BuildOptions,
    report: &mut BuildReport,
) -> Result<EncodedFile> {
    if report.games_indexed == 0 {
        bail!(
            "no game with a legal move was found in the inputs ({} games read, {} without moves){}",
            report.games_read,
            report.games_without_moves,
            problems::why_nothing(&report.problems) + &problems::without_moves(&collected.games)
        );
    }
    match opts.profile {
        Profile::Desktop => index_file::encode(collected, opts, report),
        Profile::Mcu => book_file::encode(collected, opts, report),
    }
}
