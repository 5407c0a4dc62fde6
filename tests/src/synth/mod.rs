//! Synthetic game collections for scale tests: a million games that are not copies of each
//! other, made from a corpus of real games, in `.tar.gz` archives that `kifudex build`
//! reads.
//!
//! Game `i` of a run seeded with `s` is a function of `(s, i)` and the corpus only:
//!
//! - its source: the corpus's usable games ([`Sources`]) in an order shuffled by the seed,
//!   taken in turn (game `i` uses source `i mod S`, its `i / S`-th variant);
//! - its symmetry: one of the 8 transforms (4 on a rectangular board) with or without colour
//!   exchange, the variants of a source going through the 16 in turn from a point drawn
//!   per source;
//! - its opening: the source's first N moves under that symmetry, N drawn in
//!   [`MIN_PREFIX`]..=[`MAX_PREFIX`] (at most the source's length);
//! - then random legal moves ([`variant::make`]): so the positions branch, as they do in
//!   real collections, instead of repeating the corpus's;
//! - made-up players, ranks, dates (1950-2025), result and the source's komi; `GN` names the
//!   game's number, the source, the symmetry and N.
//!
//! A game whose setup and moves equal an earlier game's of the run is replaced by a new try
//! ([`Generator::games`]: rare; counted in [`Summary::replaced`]), so that no two games
//! of a run are equal (a build would leave duplicates out). Games are made in parallel and
//! checked in order, so the archives are the same bytes whatever the number of threads,
//! and a run's first games are those of any longer run with the same seed and corpus
//! (30,000 games are the first three archives of 1,000,000).

mod rng;
mod sources;
pub mod variant;

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use flate2::{Compression, GzBuilder};
use kifudex::sgf::write_game;
use kifudex_core::Event;
use rayon::prelude::*;

pub use rng::SplitMix64;
pub use sources::{SourceGame, Sources};
pub use variant::{SynthGame, Variant, MAX_MOVES, MAX_PREFIX, MIN_PREFIX, MIN_RANDOM};

/// Games per archive unless told otherwise.
pub const DEFAULT_PER_ARCHIVE: u64 = 10_000;

/// Tries of a game on one source before the next source is taken.
const TRIES_PER_SOURCE: u32 = 4;
/// Tries of a game before the run gives up (only a corpus of a few tiny boards gets there).
const MAX_TRIES: u32 = 4_096;

/// Makes the games of one run, in order, each different from those made before.
pub struct Generator<'a> {
    sources: &'a Sources,
    seed: u64,
    /// Source indexes in the order games take them.
    order: Vec<usize>,
    /// Per source, where its variants start in its list of symmetries.
    first_symmetry: Vec<u64>,
    /// Hashes of the setup and moves of every game made so far.
    seen: HashSet<u64>,
    /// Tries replaced because they equalled an earlier game.
    replaced: u64,
}

impl<'a> Generator<'a> {
    /// A generator over `sources` seeded with `seed`; `None` when there is no usable source.
    pub fn new(sources: &'a Sources, seed: u64) -> Option<Generator<'a>> {
        let n = sources.games.len();
        if n == 0 {
            return None;
        }
        let mut rng = SplitMix64::derive(seed, u64::MAX, 0);
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let first_symmetry = (0..n).map(|_| rng.below(16)).collect();
        Some(Generator {
            sources,
            seed,
            order,
            first_symmetry,
            seen: HashSet::new(),
            replaced: 0,
        })
    }

    /// The `attempt`-th try (0-based) of game `index`: a pure function of the seed, the
    /// sources, `index` and `attempt`. After `TRIES_PER_SOURCE` tries the next source
    /// in the order is taken.
    pub fn game(&self, index: u64, attempt: u32) -> Option<SynthGame> {
        let n = self.order.len() as u64;
        let slot = index + u64::from(attempt / TRIES_PER_SOURCE);
        let source = self.order[(slot % n) as usize];
        let src = &self.sources.games[source];
        let symmetries: Vec<_> = variant::symmetries(src.size).collect();
        let k = (index / n + self.first_symmetry[source] + u64::from(attempt))
            % symmetries.len() as u64;
        let (transform, swapped) = symmetries[k as usize];
        let mut rng = SplitMix64::derive(self.seed, index, u64::from(attempt));
        let prefix_moves = rng.between(MIN_PREFIX, MAX_PREFIX).min(src.moves as u64) as usize;
        let v = Variant {
            index,
            attempt,
            source,
            transform,
            swapped,
            prefix_moves,
        };
        variant::make(src, v, &mut rng)
    }

    /// Games `range` of the run, made in parallel, then checked in order: a game equal to
    /// one made before (by this call or an earlier one: call with consecutive ranges) is
    /// replaced by its next try.
    pub fn games(&mut self, range: Range<u64>) -> io::Result<Vec<SynthGame>> {
        let made: Vec<Option<SynthGame>> = range
            .clone()
            .into_par_iter()
            .map(|i| self.game(i, 0))
            .collect();
        let mut out = Vec::with_capacity(made.len());
        for (index, first) in range.zip(made) {
            let mut attempt = 0;
            let mut game = first;
            loop {
                if let Some(g) = game {
                    if self.seen.insert(content_hash(&g)) {
                        out.push(g);
                        break;
                    }
                }
                attempt += 1;
                self.replaced += 1;
                if attempt >= MAX_TRIES {
                    return Err(io::Error::other(format!(
                        "game {index}: no try of {MAX_TRIES} differs from the games before it"
                    )));
                }
                game = self.game(index, attempt);
            }
        }
        Ok(out)
    }

    /// Tries replaced so far because they equalled an earlier game (or, never for
    /// [`Sources`] games, did not replay).
    pub fn replaced(&self) -> u64 {
        self.replaced
    }
}

/// A hash of what makes two games equal for a build: the size, the setup and the moves
/// (each event as a number, folded in by SplitMix64's finaliser: a fifth of SipHash's
/// time here). Equal games have equal hashes; a collision of unequal ones only costs a
/// needless try.
fn content_hash(g: &SynthGame) -> u64 {
    let size = u64::from(g.size.width()) << 8 | u64::from(g.size.height());
    g.events.iter().fold(rng::mix(size), |h, e| {
        let code = match *e {
            Event::Setup { point, stone } => {
                1 << 32 | u64::from(stone.code()) << 16 | u64::from(point.index19())
            }
            Event::Play { color, mv } => {
                2 << 32 | (color.index() as u64) << 16 | u64::from(mv.code())
            }
        };
        rng::mix(h ^ code)
    })
}

/// What to make.
#[derive(Clone, Debug)]
pub struct Options {
    /// Number of games of the run.
    pub games: u64,
    /// The first game written: games before it are made (so that the ones written differ
    /// from them) but not written. With `from` a multiple of `per_archive`, the archives
    /// written are the last ones of the whole run, under the same names: a collection to
    /// add to the index of the run's first `from` games.
    pub from: u64,
    /// The seed.
    pub seed: u64,
    /// Games per archive (the last may hold fewer).
    pub per_archive: u64,
    /// The folder to write to: absent or empty.
    pub out: PathBuf,
}

/// What a run made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games written.
    pub games: u64,
    /// Moves written (passes included).
    pub moves: u64,
    /// Archives written.
    pub archives: u64,
    /// Bytes of the archives.
    pub bytes: u64,
    /// Tries replaced because they equalled an earlier game.
    pub replaced: u64,
}

/// The name of archive `a` (0-based) of a run seeded with `seed`.
pub fn archive_name(seed: u64, a: u64) -> String {
    format!("synth-{seed}-{a:05}.tar.gz")
}

/// The name of game `index`'s file in its archive.
pub fn member_name(index: u64) -> String {
    format!("game-{index:09}.sgf")
}

/// Writes the run `opts` describes into `opts.out` ([`archive_name`]s), calling `progress`
/// after each batch of archives with what is written so far. Each archive is written
/// to a temporary file in the folder and renamed when complete.
pub fn generate(
    sources: &Sources,
    opts: &Options,
    mut progress: impl FnMut(&Summary),
) -> io::Result<Summary> {
    let per = opts.per_archive.max(1);
    prepare_folder(&opts.out)?;
    let mut gen = Generator::new(sources, opts.seed)
        .ok_or_else(|| io::Error::other("no usable game in the corpus"))?;
    let batch = 2 * rayon::current_num_threads() as u64;
    let from = opts.from.min(opts.games);
    let mut skipped = 0;
    while skipped < from {
        let next = (skipped + batch * per).min(from);
        gen.games(skipped..next)?;
        skipped = next;
    }
    // Archive `a` holds games `first + a * per ..`, named as in the whole run.
    let (first, named) = (from - from % per, from / per);
    let archives = if from < opts.games {
        (opts.games - first).div_ceil(per)
    } else {
        0
    };
    let mut summary = Summary::default();
    let mut a0 = 0;
    while a0 < archives {
        let a1 = (a0 + batch).min(archives);
        let (lo, hi) = (
            (first + a0 * per).max(from),
            (first + a1 * per).min(opts.games),
        );
        let games = gen.games(lo..hi)?;
        let written: Vec<io::Result<u64>> = (a0..a1)
            .into_par_iter()
            .map(|a| {
                let s = ((first + a * per).max(lo) - lo) as usize;
                let e = ((first + (a + 1) * per).min(hi) - lo) as usize;
                let name = archive_name(opts.seed, named + a);
                write_archive(&opts.out.join(name), &games[s..e])
            })
            .collect();
        for w in written {
            summary.bytes += w?;
        }
        summary.games += games.len() as u64;
        summary.moves += games
            .iter()
            .map(|g| g.events.iter().filter(|e| e.is_play()).count() as u64)
            .sum::<u64>();
        summary.archives = a1;
        summary.replaced = gen.replaced();
        progress(&summary);
        a0 = a1;
    }
    Ok(summary)
}

/// Creates `out` if needed; refuses a folder that holds anything (old archives would be
/// read with the new ones).
fn prepare_folder(out: &Path) -> io::Result<()> {
    std::fs::create_dir_all(out)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", out.display())))?;
    if std::fs::read_dir(out)?.next().is_some() {
        return Err(io::Error::other(format!(
            "{}: not empty (the games are written to an empty or new folder)",
            out.display()
        )));
    }
    Ok(())
}

/// Writes `games` as a `.tar.gz` of one SGF file per game ([`member_name`]), fixed
/// headers (mode 0644, time 0, no owner) and the fastest gzip level, through a temporary
/// file renamed to `path` at the end. Returns the archive's size.
pub fn write_archive(path: &Path, games: &[SynthGame]) -> io::Result<u64> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other(format!("{}: no file name", path.display())))?;
    let tmp = path.with_file_name(format!(".{}.tmp", name.to_string_lossy()));
    let result = (|| {
        let file = File::create(&tmp)?;
        let gz = GzBuilder::new()
            .mtime(0)
            .write(BufWriter::with_capacity(1 << 20, file), Compression::fast());
        let mut tar = tar::Builder::new(gz);
        for g in games {
            let text = write_game(g.size, &g.info, &g.events);
            let mut header = tar::Header::new_gnu();
            header.set_entry_type(tar::EntryType::Regular);
            header.set_size(text.len() as u64);
            header.set_mode(0o644);
            header.set_mtime(0);
            tar.append_data(&mut header, member_name(g.variant.index), text.as_bytes())?;
        }
        let mut out = tar.into_inner()?.finish()?;
        out.flush()?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        let bytes = file.metadata()?.len();
        drop(file);
        std::fs::rename(&tmp, path)?;
        Ok(bytes)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(|e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

#[cfg(test)]
mod tests;
