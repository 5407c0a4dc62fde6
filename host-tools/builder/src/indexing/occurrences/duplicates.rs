//! Duplicate games (`docs/CONTRACTS.md`, `kifudex build`): a game whose board size, setup and main line
//! (as replayed: the moves up to the first illegal one, the setup stones with the move
//! they come before) equal those of a game read earlier is left out, unless
//! `--keep-duplicates` is given. "Earlier" is the order of reading: the inputs as listed
//! (command-line order, folders walked by file name), the members of an archive in their
//! order, the game trees of a file in theirs; so the same file or folder given twice keeps
//! its first reading.
//!
//! The comparison is exact: games are grouped by a 64-bit hash of what they hold, and
//! within a group compared field by field (a hash collision between different games costs a
//! comparison, never a wrong answer).

use std::hash::{DefaultHasher, Hash, Hasher};

use rayon::prelude::*;

use crate::indexing::replay::ReplayedGame;
use crate::indexing::report::BuildReport;

/// How many duplicates the build report names.
const NAMED: usize = 3;

/// Where a game was read, for the report: `path[:member] (game N)`.
pub fn location(g: &ReplayedGame) -> String {
    let s = &g.record.source;
    let mut out = s.path.clone();
    if let Some(m) = &s.member {
        out.push(':');
        out.push_str(m);
    }
    format!("{out} (game {})", s.tree_index + 1)
}

/// A game: (build worker, number among the worker's games).
type GameId = (u32, u32);

/// The order of reading: (input, source within it, tree within the source).
type ReadRank = (u32, u32, usize);

/// The order games were read in.
fn read_rank(g: &ReplayedGame) -> ReadRank {
    (g.read_rank.0, g.read_rank.1, g.record.source.tree_index)
}

pub fn content_hash(g: &ReplayedGame) -> u64 {
    let mut h = DefaultHasher::new();
    g.record.size.hash(&mut h);
    g.setup.hash(&mut h);
    g.moves.hash(&mut h);
    h.finish()
}

pub fn same_content(a: &ReplayedGame, b: &ReplayedGame) -> bool {
    a.record.size == b.record.size && a.moves == b.moves && a.setup == b.setup
}

/// Marks the duplicates among the workers' games: `dropped[w][i]` for game `i` of worker
/// `w`. Counts them in `report` and names the first few (in reading order).
pub fn find(games: &[&[ReplayedGame]], report: &mut BuildReport) -> Vec<Vec<bool>> {
    let mut dropped: Vec<Vec<bool>> = games.iter().map(|g| vec![false; g.len()]).collect();
    let all: Vec<GameId> = games
        .iter()
        .enumerate()
        .flat_map(|(w, g)| (0..g.len() as u32).map(move |i| (w as u32, i)))
        .collect();
    let game = |&(w, i): &GameId| &games[w as usize][i as usize];
    let mut keyed: Vec<(u64, ReadRank, GameId)> = all
        .par_iter()
        .map(|id| {
            let g = game(id);
            (content_hash(g), read_rank(g), *id)
        })
        .collect();
    keyed.par_sort_unstable();
    // (duplicate, the game it repeats)
    let mut found: Vec<(ReadRank, GameId, GameId)> = Vec::new();
    let mut kept: Vec<GameId> = Vec::new();
    for (i, &(hash, rank, id)) in keyed.iter().enumerate() {
        if i == 0 || keyed[i - 1].0 != hash {
            kept.clear();
        }
        // The run of equal hashes is in reading order: the first of equal games is kept.
        match kept.iter().find(|k| same_content(game(k), game(&id))) {
            Some(&original) => {
                dropped[id.0 as usize][id.1 as usize] = true;
                found.push((rank, id, original));
            }
            None => kept.push(id),
        }
    }
    report.duplicates = found.len();
    found.sort_unstable();
    report.duplicate_examples = found
        .iter()
        .take(NAMED)
        .map(|(_, d, o)| format!("{}, same as {}", location(game(d)), location(game(o))))
        .collect();
    dropped
}
