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

mod bits;
pub mod book_file;
pub mod index_file;
pub mod replay;
pub mod verify;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use kifudex_core::format::EncodedFile;
use rayon::prelude::*;

use crate::input::{self, Skipped, Source};
use replay::ReplayedGame;

/// What kind of file to build.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
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
        }
    }
}

/// What a build read, kept and skipped.
#[derive(Clone, Debug, Default)]
pub struct BuildReport {
    /// Files and archive members read.
    pub files: usize,
    /// Inputs skipped, by reason, with an example path.
    pub skipped_inputs: BTreeMap<String, (usize, String)>,
    /// Game trees rejected by the parser, by reason, with an example.
    pub rejected: BTreeMap<String, (usize, String)>,
    /// Games read.
    pub games_read: usize,
    /// Games with at least one indexed move.
    pub games_indexed: usize,
    /// Games whose main line ended early, by reason, with an example (file and move).
    pub truncated: BTreeMap<String, (usize, String)>,
    /// Games with no move at all.
    pub games_without_moves: usize,
    /// Parser warnings (recovered defects), by kind.
    pub warnings: BTreeMap<String, usize>,
    /// Indexed moves (occurrences).
    pub occurrences: u64,
    /// Distinct positions.
    pub positions: u64,
    /// Records written (next-move records for a book; occurrences for an index).
    pub records: u64,
    /// Keys standing for two different positions (must be 0).
    pub collisions: u64,
    /// Positions compared exactly to check for collisions.
    pub verified_positions: u64,
    /// Bytes written.
    pub bytes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Wall time and resident memory (bytes, where the OS tells) at the end of each phase,
    /// in the order they ended (some overlap).
    pub phases: Vec<(&'static str, Duration, Option<u64>)>,
}

impl BuildReport {
    fn phase(&mut self, name: &'static str, t0: Instant) {
        self.phases.push((name, t0.elapsed(), resident_bytes()));
    }

    /// The phases as one line each.
    pub fn phases_text(&self) -> String {
        self.phases
            .iter()
            .map(|(n, t, rss)| {
                let mem = rss.map_or(String::new(), |b| {
                    format!(", {:.0} MB resident", b as f64 / 1e6)
                });
                format!("  {n:<10} {:>8.3} s{mem}\n", t.as_secs_f64())
            })
            .collect()
    }

    fn bump(
        map: &mut BTreeMap<String, (usize, String)>,
        key: &str,
        example: impl FnOnce() -> String,
    ) {
        map.entry(key.to_string())
            .or_insert_with(|| (0, example()))
            .0 += 1;
    }

    /// Games per second, end to end.
    pub fn games_per_second(&self) -> f64 {
        self.games_read as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// A human-readable summary (several lines).
    pub fn summary(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "files read:        {}", self.files);
        for (k, (n, ex)) in &self.skipped_inputs {
            let _ = writeln!(s, "  skipped ({k}): {n}, e.g. {ex}");
        }
        let _ = writeln!(s, "games read:        {}", self.games_read);
        for (k, (n, ex)) in &self.rejected {
            let _ = writeln!(s, "  rejected ({k}): {n}, e.g. {ex}");
        }
        let _ = writeln!(s, "games indexed:     {}", self.games_indexed);
        if self.games_without_moves > 0 {
            let _ = writeln!(s, "  without moves: {}", self.games_without_moves);
        }
        for (k, (n, ex)) in &self.truncated {
            let _ = writeln!(s, "  main line ended early ({k}): {n}, e.g. {ex}");
        }
        if !self.warnings.is_empty() {
            let w: Vec<String> = self
                .warnings
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            let _ = writeln!(s, "  recovered defects: {}", w.join(", "));
        }
        let _ = writeln!(s, "occurrences:       {}", self.occurrences);
        let _ = writeln!(s, "positions:         {}", self.positions);
        let _ = writeln!(s, "records:           {}", self.records);
        let _ = writeln!(
            s,
            "key collisions:    {} ({} shared positions compared exactly)",
            self.collisions, self.verified_positions
        );
        let _ = writeln!(s, "bytes:             {}", self.bytes);
        let _ = write!(
            s,
            "time:              {:.3} s ({:.0} games/s)",
            self.elapsed.as_secs_f64(),
            self.games_per_second()
        );
        s
    }
}

/// One occurrence during a build: the canonical key, the global move number, and the
/// transform from the game's orientation to the canonical one.
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

/// What one input yields besides its games: (input number, warning kinds, rejections
/// (kind, description), skipped members).
type InputNotes = (
    usize,
    Vec<&'static str>,
    Vec<(String, String)>,
    Vec<Skipped>,
);

/// What one build worker gathered: games, their occurrences (with provisional global move
/// numbers: the worker's games' moves counted in its order), notes on its inputs.
#[derive(Default)]
struct Gathered {
    games: Vec<ReplayedGame>,
    /// The occurrences in pieces of about [`OCC_PIECE`] that never grow (growing a large
    /// vector moves its pages, which costs more than filling them).
    occs: Vec<Vec<Occ>>,
    moves: u64,
    notes: Vec<InputNotes>,
}

/// Occurrences per piece of a build worker's occurrences.
const OCC_PIECE: usize = 1 << 16;

/// Something to read games from.
pub enum Input {
    /// A file (SGF or archive) to read.
    File(PathBuf),
    /// Sources already in memory (e.g. the bundled sample).
    Sources(Vec<Source>),
}

fn read_one(input: Input, number: usize, max_moves: u32, acc: &mut Gathered) {
    let (sources, skipped) = match input {
        Input::File(p) => input::read_input(&p),
        Input::Sources(s) => (s, Vec::new()),
    };
    let mut warnings = Vec::new();
    let mut rejected = Vec::new();
    for src in sources {
        let parsed = src.parse();
        drop(src);
        warnings.extend(parsed.warnings.iter().map(|w| w.kind.name()));
        rejected.extend(
            parsed
                .rejected
                .iter()
                .map(|e| (e.kind.name().to_string(), e.to_string())),
        );
        for g in parsed.games {
            warnings.extend(g.warnings.iter().map(|w| w.kind.name()));
            let base = u32::try_from(acc.moves).unwrap_or(u32::MAX);
            // A game has at most one occurrence per event.
            let need = g.events.len();
            let piece = match acc.occs.last_mut() {
                Some(p) if p.capacity() - p.len() >= need => p,
                _ => {
                    acc.occs.push(Vec::with_capacity(need.max(OCC_PIECE)));
                    acc.occs.last_mut().expect("just pushed")
                }
            };
            let game = replay::replay(g, max_moves, piece, base);
            acc.moves += game.moves.len() as u64;
            acc.games.push(game);
        }
    }
    acc.notes.push((number, warnings, rejected, skipped));
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

/// Provisional global move numbers to final ones: for every game in provisional order,
/// the provisional and the final number of its first move.
struct Renumbering(Vec<(u32, u32)>);

impl Renumbering {
    /// The final number of provisional move `p`; `at` is the game to try first (the one
    /// found last: occurrences mostly come in provisional order), updated.
    fn map(&self, at: &mut usize, p: u32) -> u32 {
        let s = &self.0;
        let holds =
            |i: usize| s.get(i).is_some_and(|x| x.0 <= p) && s.get(i + 1).is_none_or(|x| x.0 > p);
        if !holds(*at) {
            // The last game starting at or before `p` (a game without moves starts where
            // the next one does, and comes before it).
            *at = s.partition_point(|x| x.0 <= p).saturating_sub(1);
        }
        p - s[*at].0 + s[*at].1
    }
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
        check_collisions(verify::count_collisions(&collected), report, t0)?;
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

/// Reads, parses and replays the inputs (phase `parse`), orders the games and numbers
/// their moves (phase `gather`).
fn prepare(
    inputs: Vec<Input>,
    skipped: Vec<Skipped>,
    opts: &BuildOptions,
    report: &mut BuildReport,
    t0: Instant,
) -> Result<Prepared> {
    for s in &skipped {
        BuildReport::bump(&mut report.skipped_inputs, s.reason.name(), || {
            s.to_string()
        });
    }
    let max_moves = opts.max_moves.unwrap_or(u32::MAX);
    let bar = progress_bar(opts.progress, inputs.len() as u64);
    let gathered: Vec<Gathered> = inputs
        .into_par_iter()
        .enumerate()
        .fold(Gathered::default, |mut acc, (number, inp)| {
            read_one(inp, number, max_moves, &mut acc);
            if let Some(b) = &bar {
                b.inc(1);
            }
            acc
        })
        .collect();
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    report.phase("parse", t0);
    // The workers' pieces of occurrences stay as they are, each with the offset that
    // makes its worker's provisional move numbers global (still in an order that depends
    // on the scheduling: fixed when the occurrences are sorted).
    let mut sources: Vec<(Vec<Occ>, u32)> = Vec::with_capacity(gathered.len());
    let mut rest = Vec::with_capacity(gathered.len());
    let mut offset: u64 = 0;
    for acc in gathered {
        let off = u32::try_from(offset).context("more than 4 billion moves")?;
        offset += acc.moves;
        sources.extend(acc.occs.into_iter().map(|p| (p, off)));
        rest.push((acc.games, acc.notes, off));
    }
    u32::try_from(offset).context("more than 4 billion moves")?;
    // The games are ordered while the sort's buffer is being prepared.
    let (plan, ordered) = rayon::join(|| SortPlan::new(&sources), || order_games(rest, report));
    let (games, move_starts, renumbering) = ordered?;
    report.phase("gather", t0);
    Ok(Prepared {
        games,
        move_starts,
        sources,
        plan,
        renumbering,
    })
}

/// The workers' games (with the offsets of their provisional move numbers) and notes in
/// input order: the notes go to the report, and the games are ordered newest first and
/// numbered.
fn order_games(
    parts: Vec<(Vec<ReplayedGame>, Vec<InputNotes>, u32)>,
    report: &mut BuildReport,
) -> Result<(Vec<ReplayedGame>, Vec<u32>, Renumbering)> {
    let mut games = Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum());
    let mut notes = Vec::new();
    for (mut g, mut n, off) in parts {
        for g in &mut g {
            g.provisional_start += off;
        }
        games.append(&mut g);
        notes.append(&mut n);
    }
    notes.sort_unstable_by_key(|n| n.0);
    let mut warnings: HashMap<&'static str, usize> = HashMap::new();
    for (_, w, r, sk) in notes {
        report.files += 1;
        for s in sk {
            BuildReport::bump(&mut report.skipped_inputs, s.reason.name(), || {
                s.to_string()
            });
        }
        for k in w {
            *warnings.entry(k).or_default() += 1;
        }
        for (k, ex) in r {
            BuildReport::bump(&mut report.rejected, &k, || ex);
        }
    }
    for (k, n) in warnings {
        *report.warnings.entry(k.to_string()).or_default() += n;
    }
    report.games_read = games.len();
    if games.is_empty() {
        bail!("no game found in the inputs");
    }
    // Newest first; ties by file, member and tree for a stable order. The games are
    // sorted by index (they are large), then moved into place cycle by cycle.
    let mut order: Vec<u32> = (0..games.len() as u32).collect();
    order.par_sort_by(|&a, &b| {
        let (a, b) = (&games[a as usize], &games[b as usize]);
        b.date_key
            .cmp(&a.date_key)
            .then_with(|| a.record.source.path.cmp(&b.record.source.path))
            .then_with(|| a.record.source.member.cmp(&b.record.source.member))
            .then_with(|| a.record.source.tree_index.cmp(&b.record.source.tree_index))
    });
    let mut renumbering: Vec<(u32, u32)> = games.iter().map(|g| (g.provisional_start, 0)).collect();
    let mut move_starts = Vec::with_capacity(games.len());
    let mut total: u64 = 0;
    for &i in &order {
        let g = &games[i as usize];
        let start = u32::try_from(total).context("more than 4 billion moves")?;
        move_starts.push(start);
        renumbering[i as usize].1 = start;
        total += g.moves.len() as u64;
        if let Some((reason, example)) = &g.truncated {
            BuildReport::bump(&mut report.truncated, reason, || example.clone());
        }
        if g.moves.is_empty() {
            report.games_without_moves += 1;
        }
        if g.indexed > 0 {
            report.games_indexed += 1;
        }
    }
    permute(&mut games, order);
    Ok((games, move_starts, Renumbering(renumbering)))
}

/// Puts `v[order[i]]` at `i` for every `i` (`order` is a permutation), in place.
fn permute<T>(v: &mut [T], mut order: Vec<u32>) {
    for i in 0..v.len() {
        // Follow the cycle through `i`: each step puts one element into place.
        let mut j = i;
        while order[j] as usize != i {
            let k = order[j] as usize;
            v.swap(j, k);
            order[j] = j as u32;
            j = k;
        }
        order[j] = j as u32;
    }
}

/// Key bits that split the occurrences into buckets for sorting (2048 buckets: each
/// small enough to sort in cache, few enough to scatter into).
const SORT_BUCKET_BITS: u32 = 11;

/// Occurrences per scatter task at most (so one big input still spreads over the threads).
const SCATTER_CHUNK: usize = 1 << 16;

/// The sorting bucket of an occurrence: the top bits of its key.
fn sort_bucket(o: &Occ) -> usize {
    (o.hi >> (64 - SORT_BUCKET_BITS)) as usize
}

/// Sorts one bucket of occurrences: splits it again by the next key bits (as many as
/// the bucket has occurrences, so that the pieces hold about one each) and sorts the
/// pieces, by insertion but for the few large ones (positions many games share).
/// `scratch` and `counts` are reusable buffers.
fn sort_bucket_of(b: &mut [Occ], scratch: &mut Vec<Occ>, counts: &mut Vec<u32>) {
    if b.len() <= 32 {
        b.sort_unstable();
        return;
    }
    let bits = (usize::BITS - b.len().leading_zeros()).min(16);
    let shift = 64 - SORT_BUCKET_BITS - bits;
    let mask = (1u64 << bits) - 1;
    let piece = |o: &Occ| ((o.hi >> shift) & mask) as usize;
    counts.clear();
    counts.resize((1 << bits) + 1, 0);
    for o in b.iter() {
        counts[piece(o) + 1] += 1;
    }
    for i in 1..counts.len() {
        counts[i] += counts[i - 1];
    }
    scratch.clear();
    scratch.extend_from_slice(b);
    for o in scratch.iter() {
        let k = piece(o);
        b[counts[k] as usize] = *o;
        counts[k] += 1;
    }
    // `counts[k]` is now the end of piece `k`.
    let mut s = 0;
    for &e in &counts[..1 << bits] {
        let e = e as usize;
        if e - s > 1 {
            b[s..e].sort_unstable();
        }
        s = e;
    }
}

/// [`SortPlan::new`] then [`SortPlan::sort`].
#[cfg(test)]
fn sort_occurrences(
    sources: Vec<(Vec<Occ>, u32)>,
    renumbering: &Renumbering,
) -> (Vec<Occ>, Vec<u32>) {
    SortPlan::new(&sources).sort(sources, renumbering)
}

/// The first half of the bucket sort of the occurrences, which needs nothing but them:
/// how many occurrences every chunk of input has in every bucket, and the output buffer.
///
/// A bucket sort: every chunk of input counts its occurrences per bucket, each chunk then
/// scatters into its own disjoint slice of every bucket (renumbering on the way), and the
/// buckets are sorted and split into groups independently. Occurrences are distinct (their
/// move numbers are), so the order is total and the result never depends on the threads.
struct SortPlan {
    /// By chunk (every source's occurrences cut into [`SCATTER_CHUNK`]s), by bucket.
    counts: Vec<Vec<u32>>,
    /// As many occurrences as the sources hold.
    occs: Vec<Occ>,
}

impl SortPlan {
    fn new(sources: &[(Vec<Occ>, u32)]) -> SortPlan {
        let nb = 1usize << SORT_BUCKET_BITS;
        let n: usize = sources.iter().map(|s| s.0.len()).sum();
        let chunks: Vec<&[Occ]> = sources
            .iter()
            .flat_map(|(v, _)| v.chunks(SCATTER_CHUNK))
            .collect();
        let (counts, occs) = rayon::join(
            || {
                chunks
                    .par_iter()
                    .map(|c| {
                        let mut k = vec![0u32; nb];
                        for o in *c {
                            k[sort_bucket(o)] += 1;
                        }
                        k
                    })
                    .collect()
            },
            || {
                // Filled in parallel: the page faults of a fresh buffer cost more than
                // the writes.
                let mut occs = Vec::with_capacity(n);
                occs.par_extend(rayon::iter::repeat_n(
                    Occ {
                        hi: 0,
                        lo: 0,
                        ply: 0,
                        orient: 0,
                    },
                    n,
                ));
                occs
            },
        );
        SortPlan { counts, occs }
    }

    /// Sorts `sources` (those the plan was made for) by (key, final move number),
    /// renumbering their moves through `renumbering`; returns them with the start of each
    /// group of equal keys (plus the total).
    fn sort(
        self,
        sources: Vec<(Vec<Occ>, u32)>,
        renumbering: &Renumbering,
    ) -> (Vec<Occ>, Vec<u32>) {
        let nb = 1usize << SORT_BUCKET_BITS;
        let SortPlan { counts, mut occs } = self;
        let n = occs.len();
        let mut bucket_len = vec![0usize; nb];
        for k in &counts {
            for (len, &c) in bucket_len.iter_mut().zip(k) {
                *len += c as usize;
            }
        }
        // Bucket by bucket, a slice for every chunk in chunk order; then the chunks'
        // slices source by source.
        let mut dests: Vec<Vec<&mut [Occ]>> =
            (0..counts.len()).map(|_| Vec::with_capacity(nb)).collect();
        let mut rest: &mut [Occ] = &mut occs;
        for b in 0..nb {
            for (d, k) in dests.iter_mut().zip(&counts) {
                let (head, tail) = std::mem::take(&mut rest).split_at_mut(k[b] as usize);
                d.push(head);
                rest = tail;
            }
        }
        let mut dests = dests.into_iter();
        let by_source: Vec<Vec<Vec<&mut [Occ]>>> = sources
            .iter()
            .map(|(v, _)| {
                dests
                    .by_ref()
                    .take(v.len().div_ceil(SCATTER_CHUNK))
                    .collect()
            })
            .collect();
        // Each source is freed as soon as it is scattered.
        sources
            .into_par_iter()
            .zip(by_source)
            .for_each(|((v, off), mut d)| {
                v.par_chunks(SCATTER_CHUNK)
                    .zip(d.par_iter_mut())
                    .for_each(|(c, d)| {
                        let mut fill = vec![0usize; nb];
                        let mut at = 0;
                        for o in c {
                            let b = sort_bucket(o);
                            d[b][fill[b]] = Occ {
                                ply: renumbering.map(&mut at, o.ply + off),
                                ..*o
                            };
                            fill[b] += 1;
                        }
                    });
            });
        // Sort every bucket and find its groups.
        let mut buckets: Vec<(&mut [Occ], u32)> = Vec::with_capacity(nb);
        let mut rest: &mut [Occ] = &mut occs;
        let mut start = 0u32;
        for &len in &bucket_len {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(len);
            buckets.push((head, start));
            start += len as u32;
            rest = tail;
        }
        let parts: Vec<Vec<u32>> = buckets
            .into_par_iter()
            .map_init(
                || (Vec::new(), Vec::new()),
                |(scratch, counts), (b, start)| {
                    sort_bucket_of(b, scratch, counts);
                    let mut g = Vec::new();
                    for i in 0..b.len() {
                        if i == 0 || (b[i].hi, b[i].lo) != (b[i - 1].hi, b[i - 1].lo) {
                            g.push(start + i as u32);
                        }
                    }
                    g
                },
            )
            .collect();
        // The buckets' group starts copied into place in parallel.
        let mut groups = vec![0u32; parts.iter().map(Vec::len).sum::<usize>() + 1];
        let mut slices = Vec::with_capacity(parts.len());
        let mut rest: &mut [u32] = &mut groups;
        for p in &parts {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(p.len());
            slices.push(head);
            rest = tail;
        }
        rest[0] = n as u32;
        slices
            .into_par_iter()
            .zip(&parts)
            .for_each(|(s, p)| s.copy_from_slice(p));
        (occs, groups)
    }
}

/// Builds an index or a book from `paths` and writes it atomically to `out`.
pub fn build(paths: &[PathBuf], out: &Path, opts: &BuildOptions) -> Result<BuildReport> {
    let t0 = Instant::now();
    let mut report = BuildReport::default();
    let (files, skipped) = input::list_inputs(paths);
    let inputs = files.into_iter().map(Input::File).collect();
    // The file is written (to a temporary file) while the keys are checked, and renamed
    // into place once they are.
    let ((tmp, bytes), collected) =
        collect_and_encode(inputs, skipped, opts, &mut report, t0, |file| {
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
    Ok(report)
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
            let checked = verify::count_collisions(&c);
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
        bail!("no game with a legal move was found in the inputs");
    }
    match opts.profile {
        Profile::Desktop => index_file::encode(collected, opts, report),
        Profile::Mcu => book_file::encode(collected, opts, report),
    }
}

/// Writes `bytes` to `path` through a temporary file in the same folder, renamed into
/// place, so that readers never see a half-written file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    write_with(path, |w| w.write_all(bytes))
}

/// [`write_atomically`] with the bytes produced by `fill`.
fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<&std::fs::File>) -> std::io::Result<()>,
) -> Result<()> {
    persist(write_temporary(path, fill)?, path)
}

/// Writes the bytes produced by `fill` to a new temporary file in `path`'s folder and
/// syncs it; [`persist`] renames it into place, dropping it deletes it.
fn write_temporary(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<&std::fs::File>) -> std::io::Result<()>,
) -> Result<tempfile::NamedTempFile> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let tmp = tempfile::NamedTempFile::new_in(&dir)
        .with_context(|| format!("cannot create a file in {}", dir.display()))?;
    {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, tmp.as_file());
        fill(&mut w)
            .and_then(|()| w.flush())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    tmp.as_file().sync_all().ok();
    Ok(tmp)
}

/// Renames a file written by [`write_temporary`] to `path`.
fn persist(tmp: tempfile::NamedTempFile, path: &Path) -> Result<()> {
    tmp.persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Resident memory of this process (Linux), or `None`.
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

fn progress_bar(enabled: bool, len: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !enabled || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} reading {pos}/{len} files [{bar:40}] {per_sec} {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    Some(bar)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bucket sort gives what a plain sort of the renumbered occurrences gives, with
    /// the same groups, for keys spread out, keys shared by many occurrences and keys
    /// differing only in their low bits.
    #[test]
    fn occurrences_sort_like_a_plain_sort() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for (sources_n, games_n) in [(1, 1), (1, 3), (3, 10), (7, 100), (2, 1000)] {
            // Games of random lengths (some without moves) numbered provisionally one
            // after the other, and finally in another order.
            let lens: Vec<u32> = (0..games_n)
                .map(|_| {
                    if next() % 5 == 0 {
                        0
                    } else {
                        next() as u32 % 300
                    }
                })
                .collect();
            let mut prov = Vec::new();
            let mut p = 0;
            for &l in &lens {
                prov.push(p);
                p += l;
            }
            let total = p;
            let mut order: Vec<usize> = (0..games_n).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, next() as usize % (i + 1));
            }
            let mut fin = vec![0; games_n];
            let mut f = 0;
            for &g in &order {
                fin[g] = f;
                f += lens[g];
            }
            let renumbering = Renumbering(prov.iter().copied().zip(fin.iter().copied()).collect());
            let final_of = |p: u32| {
                let g = (0..games_n)
                    .rfind(|&g| prov[g] <= p && p < prov[g] + lens[g])
                    .unwrap();
                fin[g] + p - prov[g]
            };
            // The sources split the provisional numbers; most moves are indexed, in
            // order, except in the last source.
            let mut sources = Vec::new();
            let mut all = Vec::new();
            for s in 0..sources_n as u32 {
                let (from, to) = (
                    total * s / sources_n as u32,
                    total * (s + 1) / sources_n as u32,
                );
                let mut v = Vec::new();
                for p in from..to {
                    let r = next();
                    if r % 10 == 0 {
                        continue;
                    }
                    let (hi, lo) = match r % 8 {
                        0 => (1 << 63, 5),
                        1 => (1 << 63, r % 3),
                        2 => (r >> 40 << 40, r % 2),
                        _ => (r, next()),
                    };
                    let orient = (r >> 3) as u8 & 7;
                    v.push(Occ {
                        hi,
                        lo,
                        ply: p - from,
                        orient,
                    });
                    all.push(Occ {
                        hi,
                        lo,
                        ply: final_of(p),
                        orient,
                    });
                }
                if s + 1 == sources_n as u32 {
                    v.reverse();
                }
                sources.push((v, from));
            }
            all.sort_unstable();
            let mut want_groups: Vec<u32> = (0..all.len())
                .filter(|&i| i == 0 || (all[i].hi, all[i].lo) != (all[i - 1].hi, all[i - 1].lo))
                .map(|i| i as u32)
                .collect();
            want_groups.push(all.len() as u32);
            let (occs, groups) = sort_occurrences(sources, &renumbering);
            assert!(occs == all, "{sources_n} sources, {games_n} games");
            assert_eq!(groups, want_groups);
        }
    }
}
