//! The occurrences of a build: gathered from the inputs read and replayed in parallel
//! (`gather.rs`: the games ordered newest first and numbered, duplicates left out by
//! `duplicates.rs`, occurrences past the memory budget spilled by key range, `spill.rs`),
//! sorted by key (`sort.rs`) and checked for key collisions (`verify.rs`).
//!
//! | file | part |
//! |---|---|
//! | `mod.rs` | what the stage hands on: [`Prepared`] (games ordered, occurrences not yet sorted), [`Collected`] (sorted and checked) |
//! | `gather.rs` | reading, parsing and replaying the inputs in parallel ([`prepare`]); ordering the games |
//! | `duplicates.rs` | games repeated in the inputs, left out |
//! | `sort.rs` | the parallel bucket sort of the occurrences |
//! | `spill.rs` | occurrences past the memory budget, on disk, read back in slices of keys |
//! | `verify.rs` | the exact collision check |

pub mod duplicates;
mod gather;
mod sort;
mod spill;
pub mod verify;

use std::time::Instant;

use anyhow::{bail, Result};

use crate::indexing::occurrence::Occ;
use crate::indexing::problems;
use crate::indexing::replay::ReplayedGame;
use crate::indexing::report::BuildReport;
pub use gather::{index_order, prepare, Budget};
use sort::{Renumbering, SortPlan};
use spill::Slices;

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
pub enum Occurrences {
    /// In memory: the workers' pieces (provisional move numbers), each with the offset
    /// that makes its worker's numbers global, and the sort's counts and buffer.
    Memory(InMemory),
    /// Spilled to disk (`spill.rs`), to be sorted slice by slice.
    Spilled(OnDisk),
}

/// Occurrences in memory, not yet sorted.
pub struct InMemory {
    sources: Vec<(Vec<Occ>, u32)>,
    plan: SortPlan,
}

impl InMemory {
    /// The occurrences sorted, with their groups of equal keys (start of each, then the
    /// number of occurrences), their move numbers made final by `renumbering`.
    pub fn sort(self, renumbering: &Renumbering) -> (Vec<Occ>, Vec<u32>) {
        self.plan.sort(self.sources, renumbering)
    }
}

/// Occurrences spilled to disk, with the workers that replayed them (by number).
pub struct OnDisk {
    slices: Slices,
    workers: Vec<Worker>,
}

impl OnDisk {
    /// The next slice of spilled occurrences (in key order), renumbered and sorted, with
    /// its groups; `None` after the last.
    pub fn next_slice(
        &mut self,
        renumbering: &Renumbering,
    ) -> Result<Option<(Vec<Occ>, Vec<u32>)>> {
        let workers = &self.workers;
        let slice = self.slices.next_slice(Occ::ZERO, |s| {
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
}

/// Games read, replayed and ordered, with their occurrences not yet sorted.
pub struct Prepared {
    /// The games, newest first.
    pub games: Vec<ReplayedGame>,
    /// First global move number of each game.
    pub move_starts: Vec<u32>,
    /// Provisional move numbers to final ones.
    pub renumbering: Renumbering,
    /// The occurrences.
    pub occurrences: Occurrences,
}

impl Prepared {
    /// Sorts the occurrences (phase `sort`), all in memory.
    pub fn sort(self, report: &mut BuildReport, t0: Instant) -> Result<Collected> {
        let Prepared {
            games,
            move_starts,
            renumbering,
            occurrences,
        } = self;
        let sorted = match occurrences {
            Occurrences::Memory(m) => m.sort(&renumbering),
            Occurrences::Spilled(mut disk) => {
                let (mut occs, mut groups) = (Vec::new(), Vec::new());
                while let Some((o, g)) = disk.next_slice(&renumbering)? {
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
    pub fn sort_and_check(self, report: &mut BuildReport, t0: Instant) -> Result<Collected> {
        let collected = self.sort(report, t0)?;
        let checked = verify::count_collisions(&collected.occs, &collected.groups);
        report.phase("verify", t0);
        record_collisions(checked, report)?;
        Ok(collected)
    }
}

/// Records the collision check's result (keys whose occurrences disagree, keys compared);
/// fails if a key stands for two positions.
pub fn record_collisions(
    (collisions, compared): (u64, u64),
    report: &mut BuildReport,
) -> Result<()> {
    report.collisions = collisions;
    report.verified_positions = compared;
    if collisions > 0 {
        bail!(
            "{collisions} position keys stand for two different positions; refusing to merge them"
        );
    }
    Ok(())
}

/// The error of a build that found no game with a legal move, naming why.
pub fn nothing_indexed(report: &BuildReport, games: &[ReplayedGame]) -> anyhow::Error {
    anyhow::anyhow!(
        "no game with a legal move was found in the inputs ({} games read, {} without moves){}",
        report.games_read,
        report.games_without_moves,
        problems::why_nothing(&report.problems) + &crate::indexing::replay::without_moves(games)
    )
}
