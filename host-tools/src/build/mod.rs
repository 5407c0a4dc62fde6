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
//! | `merge.rs` | merging indexes; adding games by a full rebuild |
//! | `add/` | adding games to an index incrementally (one pass over the old index) |
//! | `sort.rs` | the parallel bucket sort of the occurrences |
//! | `verify.rs` | the exact collision check |
//! | `index_file.rs`, `book_file.rs` | encoding through the core's record codecs |
//! | `bits.rs` | packing large sections in parallel |
//! | `output.rs` | atomic output |
//! | `report.rs` | what a build read, skipped and measured |

mod add;
pub(crate) mod bits;
mod body;
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
mod spill;
pub mod verify;

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Result};
use kifudex_core::format::EncodedFile;

use crate::input::{self, Skipped, Source};
use body::StreamBody;
pub use body::Streamed;
use gather::{prepare, Budget};
use index_file::{IndexWriter, SliceView};
pub use merge::{
    add, add_by_rebuild, merge, stored_record, stored_records, StoredGames, StoredRecord,
};
pub use output::write_atomically;
use output::{persist, write_temporary};

pub use preflight::{check_inputs, check_output};
pub use problems::{Outcome, Problem};
use replay::ReplayedGame;
pub use report::BuildReport;
use sort::{Renumbering, SortPlan};
use spill::Slices;

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
    /// Index: the memory the build may use, in bytes (`--memory`). Occurrences beyond it
    /// are spilled to temporary files and sorted in slices ([`spill`]); the index is the
    /// same whatever the budget. A book is built in memory.
    pub memory: u64,
}

/// The default memory budget of a build: 4 GiB.
pub const DEFAULT_MEMORY: u64 = 4 << 30;

/// A memory size as a user writes it: a number (decimals allowed), then optionally `K`,
/// `M`, `G` or `T` (binary multiples: `4G` is 4 GiB), optionally followed by `B` or `iB`.
pub fn memory_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let unit_at = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(unit_at);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("`{text}`: expected a size such as 512M or 4G")),
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}`: expected a size such as 512M or 4G"))?;
    let bytes = value * (1u64 << shift) as f64;
    if !(1.0..=u64::MAX as f64).contains(&bytes) {
        return Err(format!("`{text}`: out of range"));
    }
    Ok(bytes as u64)
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
            memory: DEFAULT_MEMORY,
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
    /// The move played from the position, in canonical orientation (a move record,
    /// bits 0-9), and the game's winner (bits 10-11: 0 none, 1 Black, 2 White): what the
    /// shared positions' next moves count, without going back to the games.
    pub next: u16,
}

impl Occ {
    /// An occurrence of all zeros, to fill buffers with.
    pub const ZERO: Occ = Occ {
        hi: 0,
        lo: 0,
        ply: 0,
        orient: 0,
        check: 0,
        next: 0,
    };
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
    /// Games of an index, read back one by one as they are replayed ([`merge`]).
    Stored(merge::StoredGames),
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
    prepare(inputs, skipped, opts, report, t0, None, true)?.sort_and_check(report, t0)
}

/// A build worker's games among all: the number of its first game in the order the games
/// are gathered (the [`Renumbering`]'s), and the new number of each of its games once the
/// duplicates were left out (`u32::MAX`: left out; empty: none was).
#[derive(Clone, Debug, Default)]
struct Worker {
    first_game: u32,
    renumbered: Vec<u32>,
}

impl Worker {
    /// The number among all games of the worker's game `game` (as read), unless it was
    /// left out.
    fn game(&self, game: u32) -> Option<usize> {
        let g = match self.renumbered.get(game as usize) {
            Some(&u32::MAX) => return None,
            Some(&g) => g,
            None if self.renumbered.is_empty() => game,
            None => return None,
        };
        Some(self.first_game as usize + g as usize)
    }
}

/// The occurrences of a build before they are sorted.
enum Occurrences {
    /// In memory: the workers' pieces (provisional move numbers), each with the offset
    /// that makes its worker's numbers global, and the sort's counts and buffer.
    Memory {
        sources: Vec<(Vec<Occ>, u32)>,
        plan: SortPlan,
    },
    /// Spilled to disk ([`spill`]), to be sorted slice by slice; the workers by number.
    Spilled {
        slices: Slices,
        workers: Vec<Worker>,
    },
}

/// Games read, replayed and ordered, with their occurrences not yet sorted.
struct Prepared {
    games: Vec<ReplayedGame>,
    move_starts: Vec<u32>,
    /// Provisional move numbers to final ones.
    renumbering: Renumbering,
    occurrences: Occurrences,
}

impl Prepared {
    /// Sorts the occurrences (phase `sort`), all in memory.
    fn sort(self, report: &mut BuildReport, t0: Instant) -> Result<Collected> {
        let Prepared {
            games,
            move_starts,
            renumbering,
            occurrences,
        } = self;
        let sorted = match occurrences {
            Occurrences::Memory { sources, plan } => plan.sort(sources, &renumbering),
            Occurrences::Spilled {
                mut slices,
                workers,
            } => {
                let (mut occs, mut groups) = (Vec::new(), Vec::new());
                while let Some((o, g)) = next_slice(&mut slices, &workers, &renumbering)? {
                    let base = occs.len() as u32;
                    groups.extend(g[..g.len() - 1].iter().map(|s| s + base));
                    occs.extend(o);
                }
                groups.push(occs.len() as u32);
                (occs, groups)
            }
        };
        Ok(Collected::sorted(games, move_starts, sorted, report, t0))
    }

    /// [`Prepared::sort`], then the collision check (phase `verify`).
    fn sort_and_check(self, report: &mut BuildReport, t0: Instant) -> Result<Collected> {
        let collected = self.sort(report, t0)?;
        check_collisions(
            verify::count_collisions(&collected.occs, &collected.groups),
            report,
            t0,
        )?;
        Ok(collected)
    }
}

/// The next slice of spilled occurrences, renumbered and sorted, with its groups.
fn next_slice(
    slices: &mut Slices,
    workers: &[Worker],
    renumbering: &Renumbering,
) -> Result<Option<(Vec<Occ>, Vec<u32>)>> {
    let slice = slices.next_slice(Occ::ZERO, |s| {
        let g = workers.get(s.worker as usize)?.game(s.game)?;
        Some(Occ {
            ply: renumbering.final_start(g)? + s.mv as u32,
            ..s.occ
        })
    })?;
    // Final move numbers already: sorted without renumbering.
    Ok(slice.map(|occs| {
        let sources = vec![(occs, 0)];
        SortPlan::new(&sources).sort(sources, &Renumbering::identity())
    }))
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
    let ((tmp, bytes), games) = collect_and_encode(
        inputs,
        skipped,
        opts,
        report,
        t0,
        Some(&output::folder(out)),
        |file| write_file(out, file),
    )?;
    persist(tmp, out)?;
    report.phase("persist", t0);
    report.bytes = bytes;
    report.elapsed = t0.elapsed();
    // Freeing the games' many small allocations takes about 10 ms on fox_pro: done by a
    // thread of its own, which a command line process exiting right away need not wait
    // for.
    std::thread::spawn(move || drop(games));
    Ok(())
}

/// Writes `file` to a temporary file for `out`; returns it with the file's length.
fn write_file(out: &Path, mut file: FileBytes) -> Result<(output::Temporary, u64)> {
    let len = file.len();
    let tmp = write_temporary(out, |w| file.write_to(w))?;
    Ok((tmp, len))
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
    let (bytes, games) = collect_and_encode(
        inputs,
        skipped.to_vec(),
        opts,
        &mut report,
        t0,
        None,
        FileBytes::into_vec,
    )?;
    drop(games);
    report.bytes = bytes.len() as u64;
    report.elapsed = t0.elapsed();
    Ok((bytes, report))
}

/// A finished file: a book (in pieces) or an index (streamed).
pub enum FileBytes {
    /// Encoded in memory, in pieces.
    Pieces(EncodedFile),
    /// Written as a stream (memory or a temporary file).
    Streamed(Streamed),
}

impl FileBytes {
    /// Length in bytes.
    pub fn len(&self) -> u64 {
        match self {
            FileBytes::Pieces(f) => f.len() as u64,
            FileBytes::Streamed(f) => f.len(),
        }
    }

    /// Whether the file is empty (never, for a finished file).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes the file to `w`.
    pub fn write_to(&mut self, w: &mut impl std::io::Write) -> std::io::Result<()> {
        match self {
            FileBytes::Pieces(f) => f.pieces().try_for_each(|p| w.write_all(p)),
            FileBytes::Streamed(f) => f.write_to(w),
        }
    }

    /// The file as one buffer.
    pub fn into_vec(self) -> Result<Vec<u8>> {
        match self {
            FileBytes::Pieces(f) => Ok(f.to_vec()),
            FileBytes::Streamed(f) => f.into_vec(),
        }
    }
}

/// Reads the inputs ([`prepare`]), encodes the file `opts.profile` asks for and hands it
/// to `finish` (phase `write`). Returns what `finish` returned and the games (to be
/// freed by the caller when convenient).
///
/// An index is written as a stream into a temporary file in `dir` (where occurrences
/// that do not fit [`BuildOptions::memory`] are spilled too; with no `dir`, into memory,
/// spilling into the system's temporary folder): the games first (while the
/// occurrences are sorted), then the occurrences slice by slice, each sorted, checked for
/// collisions and encoded (check and encoding in parallel), then the rest. A book, or a
/// build without indexed games, is made in memory.
fn collect_and_encode<T: Send>(
    inputs: Vec<Input>,
    skipped: Vec<Skipped>,
    opts: &BuildOptions,
    report: &mut BuildReport,
    t0: Instant,
    dir: Option<&Path>,
    finish: impl FnOnce(FileBytes) -> Result<T> + Send,
) -> Result<(T, Vec<ReplayedGame>)> {
    let spill_dir = dir.map_or_else(std::env::temp_dir, Path::to_path_buf);
    let budget = (opts.profile == Profile::Desktop).then(|| Budget::new(opts.memory, &spill_dir));
    let prepared = prepare(inputs, skipped, opts, report, t0, budget, true)?;
    if opts.profile == Profile::Mcu || report.games_indexed == 0 {
        let collected = prepared.sort_and_check(report, t0)?;
        let file = encode(&collected, opts, report)?;
        report.phase("encode", t0);
        let done = finish(file)?;
        report.phase("write", t0);
        return Ok((done, collected.games));
    }
    let Prepared {
        games,
        move_starts,
        renumbering,
        occurrences,
    } = prepared;
    let occurrences_total: u64 = games.iter().map(|g| g.indexed as u64).sum();
    let body = match dir {
        Some(d) => StreamBody::in_file(d)?,
        None => StreamBody::in_memory(),
    };
    let mut checked = (0u64, 0u64);
    let file = match occurrences {
        Occurrences::Memory { sources, plan } => {
            // One slice: the games are encoded while it is sorted, and it is checked
            // while it is encoded.
            let (games_part, sorted) = rayon::join(
                || index_file::encode_games(&games, &move_starts),
                || plan.sort(sources, &renumbering),
            );
            report.phase("sort", t0);
            let mut w = IndexWriter::new(body, games_part, games.len(), occurrences_total, opts)?;
            let view = SliceView {
                occs: &sorted.0,
                groups: &sorted.1,
            };
            let (c, added) = rayon::join(
                || verify::count_collisions(view.occs, view.groups),
                || w.add(&view),
            );
            added?;
            checked = c;
            let file = w.finish(report)?;
            report.phase("encode", t0);
            file
        }
        Occurrences::Spilled {
            mut slices,
            workers,
        } => {
            let games_part = index_file::encode_games(&games, &move_starts);
            let mut w = IndexWriter::new(body, games_part, games.len(), occurrences_total, opts)?;
            while let Some((occs, groups)) = next_slice(&mut slices, &workers, &renumbering)? {
                let view = SliceView {
                    occs: &occs,
                    groups: &groups,
                };
                let (c, added) = rayon::join(
                    || verify::count_collisions(view.occs, view.groups),
                    || w.add(&view),
                );
                added?;
                checked = (checked.0 + c.0, checked.1 + c.1);
                report.slices += 1;
            }
            let file = w.finish(report)?;
            report.phase("slices", t0);
            file
        }
    };
    report.occurrences = occurrences_total;
    record_collisions(checked, report)?;
    let done = finish(FileBytes::Streamed(file))?;
    report.phase("write", t0);
    Ok((done, games))
}

/// Encodes collected games as the file `opts.profile` asks for, in memory.
fn encode(
    collected: &Collected,
    opts: &BuildOptions,
    report: &mut BuildReport,
) -> Result<FileBytes> {
    if report.games_indexed == 0 {
        bail!(
            "no game with a legal move was found in the inputs ({} games read, {} without moves){}",
            report.games_read,
            report.games_without_moves,
            problems::why_nothing(&report.problems) + &problems::without_moves(&collected.games)
        );
    }
    Ok(match opts.profile {
        Profile::Desktop => {
            let c = collected;
            let games = index_file::encode_games(&c.games, &c.move_starts);
            let occurrences = c.occs.len() as u64;
            let body = StreamBody::in_memory();
            let mut w = IndexWriter::new(body, games, c.games.len(), occurrences, opts)?;
            w.add(&SliceView {
                occs: &c.occs,
                groups: &c.groups,
            })?;
            FileBytes::Streamed(w.finish(report)?)
        }
        Profile::Mcu => FileBytes::Pieces(book_file::encode(collected, opts, report)?),
    })
}

#[cfg(test)]
mod tests {
    use super::memory_size;

    #[test]
    fn memory_sizes() {
        assert_eq!(memory_size("4G"), Ok(4 << 30));
        assert_eq!(memory_size("512M"), Ok(512 << 20));
        assert_eq!(memory_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(memory_size("64kb"), Ok(64 << 10));
        assert_eq!(memory_size("1000"), Ok(1000));
        assert_eq!(memory_size(" 2 T "), Ok(2 << 40));
        for bad in ["", "G", "4X", "-1G", "0", "1e3", "4 GG"] {
            assert!(memory_size(bad).is_err(), "{bad}");
        }
    }
}
