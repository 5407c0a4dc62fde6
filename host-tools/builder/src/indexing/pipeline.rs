//! The pipeline that builds a file from inputs, stage after stage: the inputs are read,
//! parsed and replayed in parallel, the games ordered and the occurrences gathered
//! ([`prepare`]), the occurrences sorted and checked for key collisions, and the file
//! encoded ([`crate::indexing::write`]) and written atomically ([`crate::indexing::output`]). A
//! build, a merge and an add by a full rebuild are this pipeline over different inputs.
//!
//! For an index the steps overlap: the games are ordered while the sort's buffer is
//! prepared, encoded while the occurrences are bucket-sorted, and the occurrences are
//! encoded and the file written (to a temporary file, renamed into place only after the
//! check) while the keys are checked.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;

use crate::indexing::inputs::{self, Input};
use crate::indexing::occurrences::{
    prepare, record_collisions, verify, Budget, Occurrences, Prepared,
};
use crate::indexing::options::{BuildOptions, Profile};
use crate::indexing::output::{self, persist, write_temporary};
use crate::indexing::preflight::{check_inputs, check_output};
use crate::indexing::replay::ReplayedGame;
use crate::indexing::report::BuildReport;
use crate::indexing::write::{self, index, FileBytes, IndexWriter, SliceView, StreamBody};
use crate::input::{Skipped, Source};

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
    let (inputs, skipped) = inputs::files(paths);
    build_file(inputs, skipped, opts, out, report, t0)
}

/// Builds the file of `inputs` (`skipped`: the inputs that could not be read) and writes it
/// atomically to `out`; `t0` is when the command started (for the report's phases).
pub fn build_file(
    inputs: Vec<Input>,
    skipped: Vec<Skipped>,
    opts: &BuildOptions,
    out: &Path,
    report: &mut BuildReport,
    t0: Instant,
) -> Result<()> {
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
pub fn write_file(out: &Path, mut file: FileBytes) -> Result<(output::Temporary, u64)> {
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
    let (bytes, games) = collect_and_encode(
        inputs::sources(sources),
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
        let file = write::encode(&collected, opts, report)?;
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
        Occurrences::Memory(occs) => {
            // One slice: the games are encoded while it is sorted, and it is checked
            // while it is encoded.
            let (games_part, sorted) = rayon::join(
                || index::encode_games(&games, &move_starts),
                || occs.sort(&renumbering),
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
        Occurrences::Spilled(mut disk) => {
            let games_part = index::encode_games(&games, &move_starts);
            let mut w = IndexWriter::new(body, games_part, games.len(), occurrences_total, opts)?;
            while let Some((occs, groups)) = disk.next_slice(&renumbering)? {
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
