//! Reading, parsing and replaying the inputs in parallel (phase `parse`), then ordering the
//! games newest first and numbering their moves (phase `gather`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use rayon::prelude::*;

use super::duplicates;
use super::sort::{Renumbering, SortPlan};
use super::spill::{Spill, Spilled};
use super::{InMemory, Occurrences, OnDisk, Prepared, Worker};
use crate::indexing::inputs::Input;
use crate::indexing::occurrence::Occ;
use crate::indexing::options::BuildOptions;
use crate::indexing::parse::{self, InputNotes, ReadGame};
use crate::indexing::problems;
use crate::indexing::replay::{self, ReplayedGame};
use crate::indexing::report::{resident_bytes, BuildReport};
use crate::input::Skipped;

/// What one build worker gathered: games, their occurrences (with provisional global move
/// numbers: the worker's games' moves counted in its order), notes on its inputs.
#[derive(Default)]
struct Gathered {
    /// The worker's number (the order workers start in; it names the worker's spilled
    /// occurrences).
    id: u32,
    games: Vec<ReplayedGame>,
    /// The occurrences in pieces of about [`OCC_PIECE`] that never grow (growing a large
    /// vector moves its pages, which costs more than filling them).
    occs: Vec<Vec<Occ>>,
    moves: u64,
    notes: Vec<InputNotes>,
    /// After duplicates are left out: the new number of each of its games in the order
    /// read (`u32::MAX`: left out); empty if none was.
    renumbered: Vec<u32>,
}

/// The memory a build may use while it reads ([`BuildOptions::memory`]): past half of
/// it, a worker spills its occurrences (the other half is for sorting them). What counts
/// is the process's resident memory, measured (Linux: `/proc/self/statm`) every few
/// megabytes of new games and occurrences and after every spill; where the system does
/// not tell, an estimate of the games' and occurrences' bytes.
pub struct Budget {
    spill: Spill,
    /// Estimated bytes of games and occurrences in memory.
    used: AtomicU64,
    /// Estimated bytes of games in memory.
    games: AtomicU64,
    /// Resident bytes when last measured (0: unknown).
    resident: AtomicU64,
    /// Estimated bytes added since then.
    since: AtomicU64,
    limit: u64,
    /// Numbers for the workers.
    next_worker: AtomicU32,
    /// The first error a spill met.
    failed: Mutex<Option<anyhow::Error>>,
}

/// A worker spills only when it holds at least this many bytes of occurrences (or at the
/// end), so that a budget the games alone fill does not spill game by game.
const MIN_SPILL: u64 = 1 << 20;

/// Bytes of new games and occurrences between two measures of the resident memory.
const MEASURE_EVERY: u64 = 8 << 20;

impl Budget {
    /// A budget of `memory` bytes for a build whose spilled occurrences go to `dir`.
    pub fn new(memory: u64, dir: &std::path::Path) -> Budget {
        Budget {
            spill: Spill::new(dir),
            used: AtomicU64::new(0),
            games: AtomicU64::new(0),
            resident: AtomicU64::new(0),
            since: AtomicU64::new(0),
            limit: memory / 2,
            next_worker: AtomicU32::new(0),
            failed: Mutex::new(None),
        }
    }

    /// Counts a game and its `occs` new occurrences held by `acc`; spills `acc`'s
    /// occurrences if the build is over its budget.
    fn hold(&self, acc: &mut Gathered, game_bytes: u64, occs: usize) {
        let bytes = occs as u64 * std::mem::size_of::<Occ>() as u64 + game_bytes;
        self.games.fetch_add(game_bytes, Ordering::Relaxed);
        let used = self.used.fetch_add(bytes, Ordering::Relaxed) + bytes;
        if self.since.fetch_add(bytes, Ordering::Relaxed) + bytes >= MEASURE_EVERY {
            self.measure();
        }
        let over = match self.resident.load(Ordering::Relaxed) {
            0 => used > self.limit,
            resident => resident > self.limit,
        };
        let held: u64 = acc.occs.iter().map(|p| p.len() as u64).sum::<u64>()
            * std::mem::size_of::<Occ>() as u64;
        if over && held >= MIN_SPILL {
            self.spill_all(acc, true);
            self.measure();
        }
    }

    /// Measures the resident memory (where the system tells).
    fn measure(&self) {
        self.since.store(0, Ordering::Relaxed);
        if let Some(r) = resident_bytes() {
            self.resident.store(r, Ordering::Relaxed);
        }
    }

    /// The bytes of spilled records a slice may hold: a third of what the budget leaves
    /// beside the process as it is (a slice, sorted, takes about three times that), at
    /// least 1 MiB (smaller slices cost more in overhead than they save).
    fn slice_bytes(&self) -> u64 {
        let held = resident_bytes().unwrap_or_else(|| self.games.load(Ordering::Relaxed));
        ((self.limit * 2).saturating_sub(held) / 3).max(1 << 20)
    }

    /// Spills `acc`'s occurrences, each with its game (by number among `acc`'s games,
    /// which are in the order of their occurrences) and move number, and frees them; with
    /// `keep_piece`, one piece stays allocated (emptied) for the worker's next occurrences.
    ///
    /// A worker over the budget spills about every [`MIN_SPILL`] bytes: a fresh piece each
    /// time is a fresh mapping whose pages the kernel faults in and zeroes again (1,000,000
    /// games: 5.3 million page faults; `clear_page` alone 6% of the build's samples).
    fn spill_all(&self, acc: &mut Gathered, keep_piece: bool) {
        let n: u64 = acc.occs.iter().map(|p| p.len() as u64).sum();
        if n == 0 {
            if !keep_piece {
                acc.occs = Vec::new();
            }
            return;
        }
        let games = &acc.games;
        let mut g = 0usize;
        let spilled = acc.occs.iter().flatten().map(|o| {
            // The game holding provisional move `o.ply`: the last starting at or before it
            // (games without moves start where the next one does).
            while games
                .get(g + 1)
                .is_some_and(|next| next.provisional_start <= o.ply)
            {
                g += 1;
            }
            if games.get(g).is_none_or(|x| x.provisional_start > o.ply) {
                g = games
                    .partition_point(|x| x.provisional_start <= o.ply)
                    .saturating_sub(1);
            }
            Spilled {
                occ: *o,
                worker: acc.id,
                game: g as u32,
                mv: (o.ply - games.get(g).map_or(0, |x| x.provisional_start)) as u16,
            }
        });
        if let Err(e) = self.spill.write(spilled) {
            let mut failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
            failed.get_or_insert(e);
        }
        let kept = if keep_piece { acc.occs.pop() } else { None };
        acc.occs = Vec::new();
        if let Some(mut piece) = kept {
            piece.clear();
            acc.occs.push(piece);
        }
        self.used
            .fetch_sub(n * std::mem::size_of::<Occ>() as u64, Ordering::Relaxed);
    }
}

/// Occurrences per piece of a build worker's occurrences: 32 MiB, so that the allocator
/// maps every piece on its own and gives it back to the system when it is freed (glibc
/// keeps freed blocks under 32 MiB for reuse, which would keep spilled occurrences'
/// memory resident). Pages are only resident as they are filled.
const OCC_PIECE: usize = (32 << 20) / std::mem::size_of::<Occ>();

/// Replays one game into `acc`: its moves numbered after the worker's, its occurrences
/// in the worker's pieces.
fn push_game(acc: &mut Gathered, g: ReadGame, max_moves: u32, budget: Option<&Budget>) {
    let base = u32::try_from(acc.moves).unwrap_or(u32::MAX);
    // A game has at most one occurrence per event.
    let need = g.record.events.len();
    if acc
        .occs
        .last()
        .is_none_or(|p| p.capacity() - p.len() < need)
    {
        acc.occs.push(Vec::with_capacity(need.max(OCC_PIECE)));
    }
    let piece = acc.occs.last_mut().expect("a piece with room");
    let before = piece.len();
    let mut game = replay::replay(g.record, max_moves, piece, base);
    let added = piece.len() - before;
    game.read_rank = g.read_rank;
    if let Some(date_key) = g.stored_date {
        game.date_key = date_key;
    }
    acc.moves += game.moves.len() as u64;
    let bytes = game.heap_bytes();
    acc.games.push(game);
    if let Some(b) = budget {
        b.hold(acc, bytes, added);
    }
}

/// Reads input `number` ([`parse::read`]) and replays its games into `acc`.
fn read_one(
    input: Input,
    number: usize,
    opts: &BuildOptions,
    acc: &mut Gathered,
    budget: Option<&Budget>,
) {
    let max_moves = opts.max_moves.unwrap_or(u32::MAX);
    let notes = parse::read(input, number, opts.list_recovered, &opts.limits, |g| {
        push_game(acc, g, max_moves, budget)
    });
    acc.notes.extend(notes);
}

/// Reads, parses and replays the inputs (phase `parse`), orders the games and numbers
/// their moves (phase `gather`). With a `budget`, occurrences that do not fit are spilled
/// (`spill.rs`), and if any were, all are. Finding no game is an error unless
/// `require_games` is false (games added to an index).
pub fn prepare(
    inputs: Vec<Input>,
    skipped: Vec<Skipped>,
    opts: &BuildOptions,
    report: &mut BuildReport,
    t0: Instant,
    budget: Option<Budget>,
    require_games: bool,
) -> Result<Prepared> {
    for s in &skipped {
        report.note(problems::skipped(s));
    }
    let bar = progress_bar(opts.progress, inputs.len() as u64);
    let mut gathered: Vec<Gathered> = inputs
        .into_par_iter()
        .enumerate()
        .fold(
            || Gathered {
                id: budget
                    .as_ref()
                    .map_or(0, |b| b.next_worker.fetch_add(1, Ordering::Relaxed)),
                ..Gathered::default()
            },
            |mut acc, (number, inp)| {
                read_one(inp, number, opts, &mut acc, budget.as_ref());
                if let Some(b) = &bar {
                    b.inc(1);
                }
                acc
            },
        )
        .collect();
    if let Some(b) = &budget {
        if let Some(e) = b.failed.lock().unwrap_or_else(|e| e.into_inner()).take() {
            return Err(e);
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    report.phase("parse", t0);
    let spilled = budget.as_ref().is_some_and(|b| b.spill.used());
    if let Some(b) = budget.as_ref().filter(|_| spilled) {
        // Once some occurrences are on disk, all go there: the slices read them back
        // (numbering each by its game as read, before duplicates are left out).
        gathered
            .par_iter_mut()
            .for_each(|acc| b.spill_all(acc, false));
        if let Some(e) = b.failed.lock().unwrap_or_else(|e| e.into_inner()).take() {
            return Err(e);
        }
        report.phase("spill", t0);
    }
    if !opts.keep_duplicates {
        drop_duplicates(&mut gathered, report);
    }
    // The workers' pieces of occurrences stay as they are, each with the offset that
    // makes its worker's provisional move numbers global (still in an order that depends
    // on the scheduling: fixed when the occurrences are sorted).
    let mut sources: Vec<(Vec<Occ>, u32)> = Vec::with_capacity(gathered.len());
    let mut workers: Vec<Worker> = Vec::new();
    let mut rest = Vec::with_capacity(gathered.len());
    let mut offset: u64 = 0;
    let mut games_before = 0u32;
    for acc in gathered {
        let off = u32::try_from(offset).context("more than 4 billion moves")?;
        offset += acc.moves;
        sources.extend(acc.occs.into_iter().map(|p| (p, off)));
        let id = acc.id as usize;
        if workers.len() <= id {
            workers.resize_with(id + 1, Worker::default);
        }
        workers[id] = Worker {
            first_game: games_before,
            renumbered: acc.renumbered,
        };
        games_before += acc.games.len() as u32;
        rest.push((acc.games, acc.notes, off));
    }
    u32::try_from(offset).context("more than 4 billion moves")?;
    if let Some(b) = budget.filter(|_| spilled) {
        report.spilled_bytes = b.spill.bytes();
        let (games, move_starts, renumbering) = order_games(rest, report, require_games)?;
        let slice_bytes = b.slice_bytes();
        let slices = b.spill.finish(slice_bytes)?;
        report.phase("gather", t0);
        return Ok(Prepared {
            games,
            move_starts,
            renumbering,
            occurrences: Occurrences::Spilled(OnDisk { slices, workers }),
        });
    }
    // The games are ordered while the sort's buffer is being prepared.
    let (plan, ordered) = rayon::join(
        || SortPlan::new(&sources),
        || order_games(rest, report, require_games),
    );
    let (games, move_starts, renumbering) = ordered?;
    report.phase("gather", t0);
    Ok(Prepared {
        games,
        move_starts,
        renumbering,
        occurrences: Occurrences::Memory(InMemory { sources, plan }),
    })
}

/// Leaves out the games that repeat a game read earlier ([`duplicates`]) and their
/// occurrences.
fn drop_duplicates(gathered: &mut [Gathered], report: &mut BuildReport) {
    let dropped = {
        let games: Vec<&[ReplayedGame]> = gathered.iter().map(|g| g.games.as_slice()).collect();
        duplicates::find(&games, report)
    };
    if report.duplicates == 0 {
        return;
    }
    gathered
        .par_iter_mut()
        .zip(dropped)
        .for_each(|(acc, dropped)| {
            // The dropped games' provisional move numbers, in order.
            let ranges: Vec<(u32, u32)> = acc
                .games
                .iter()
                .zip(&dropped)
                .filter(|&(g, &d)| d && !g.moves.is_empty())
                .map(|(g, _)| {
                    (
                        g.provisional_start,
                        g.provisional_start + g.moves.len() as u32,
                    )
                })
                .collect();
            let kept = |ply: u32| {
                let k = ranges.partition_point(|r| r.0 <= ply);
                k == 0 || ply >= ranges[k - 1].1
            };
            for piece in &mut acc.occs {
                piece.retain(|o| kept(o.ply));
            }
            let mut next = 0u32;
            acc.renumbered = dropped
                .iter()
                .map(|&d| {
                    if d {
                        u32::MAX
                    } else {
                        next += 1;
                        next - 1
                    }
                })
                .collect();
            let mut d = dropped.iter();
            acc.games.retain(|_| !d.next().copied().unwrap_or(false));
        });
}

/// The workers' games (with the offsets of their provisional move numbers) and notes in
/// input order: the notes go to the report, and the games are ordered newest first and
/// numbered.
fn order_games(
    parts: Vec<(Vec<ReplayedGame>, Vec<InputNotes>, u32)>,
    report: &mut BuildReport,
    require_games: bool,
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
    notes.sort_unstable_by_key(|n| n.input);
    let mut warnings: HashMap<&'static str, usize> = HashMap::new();
    for n in notes {
        report.files += 1;
        for k in n.warnings {
            *warnings.entry(k).or_default() += 1;
        }
        for p in n.problems {
            report.note(p);
        }
    }
    for (k, n) in warnings {
        *report.warnings.entry(k.to_string()).or_default() += n;
    }
    report.games_read = games.len() + report.duplicates;
    // An input past a limit fails the build: the index would silently lack it.
    let over: Vec<&problems::Problem> = report
        .problems
        .iter()
        .filter(|p| p.reason == problems::LIMIT)
        .collect();
    if !over.is_empty() {
        let lines: String = over.iter().map(|p| format!("\n  {p}")).collect();
        bail!("an input is past a limit of what a build reads:{lines}");
    }
    if games.is_empty() && require_games {
        report.problems.sort_by(problems::input_order);
        bail!(
            "no game found in the inputs{}",
            problems::why_nothing(&report.problems)
        );
    }
    // Newest first; ties by file, member and tree for a stable order. The games are
    // sorted by index (they are large), then moved into place cycle by cycle.
    let mut order: Vec<u32> = (0..games.len() as u32).collect();
    order.par_sort_by(|&a, &b| index_order(&games[a as usize], &games[b as usize]));
    let mut renumbering: Vec<(u32, u32)> = games.iter().map(|g| (g.provisional_start, 0)).collect();
    let mut move_starts = Vec::with_capacity(games.len());
    let mut total: u64 = 0;
    for &i in &order {
        let g = &games[i as usize];
        let start = u32::try_from(total).context("more than 4 billion moves")?;
        move_starts.push(start);
        renumbering[i as usize].1 = start;
        total += g.moves.len() as u64;
        if let Some((reason, move_number)) = g.truncated {
            report.note(problems::truncated(&g.record, reason, move_number));
        }
        if g.moves.is_empty() {
            report.games_without_moves += 1;
        }
        if g.indexed > 0 {
            report.games_indexed += 1;
        }
    }
    permute(&mut games, order);
    // In the order of the inputs, whatever the games' order.
    report.problems.sort_by(problems::input_order);
    Ok((games, move_starts, Renumbering(renumbering)))
}

/// The order of the games in an index: newest first; ties by file, member and tree (a
/// stable sort keeps the order of reading for the rest).
pub fn index_order(a: &ReplayedGame, b: &ReplayedGame) -> std::cmp::Ordering {
    b.date_key
        .cmp(&a.date_key)
        .then_with(|| a.record.source.path.cmp(&b.record.source.path))
        .then_with(|| a.record.source.member.cmp(&b.record.source.member))
        .then_with(|| a.record.source.tree_index.cmp(&b.record.source.tree_index))
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

fn progress_bar(enabled: bool, len: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !enabled || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} reading {pos}/{len} files [{bar:40}] {rate} {eta}",
    ) {
        // indicatif's own `{per_sec}` prints four decimals (`17,630.7951/s`): the rate as
        // the build's summary writes it instead.
        let rate = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{} files/s", crate::numbers::rate(state.per_sec()));
        };
        bar.set_style(style.with_key("rate", rate).progress_chars("=> "));
    }
    Some(bar)
}
