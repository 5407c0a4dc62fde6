//! The real games the synthetic ones start from: every game of a corpus that the project's
//! SGF reader reads and that replays legally to its end.

use std::collections::HashSet;
use std::path::Path;

use kifudex::input::collect_sources;
use kifudex::sgf::GameRecord;
use kifudex_core::board::StonesOnly;
use kifudex_core::{Board, Event, Rules, Size};
use rayon::prelude::*;

/// One real game, as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceGame {
    /// Where it came from, relative to the corpus root: `folder/file.sgf`, with
    /// `:member` for an archive member and `#N` for a file's tree after the first (0-based
    /// N).
    pub label: String,
    /// The board size.
    pub size: Size,
    /// The main line: setup and moves.
    pub events: Vec<Event>,
    /// Number of moves (passes included).
    pub moves: usize,
    /// `KM`, in hundredths of a point.
    pub komi: Option<i32>,
}

/// The games of a corpus, in the corpus's order (folders walked sorted by name, archive
/// members in archive order), and what was left out.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    /// The usable games.
    pub games: Vec<SourceGame>,
    /// Game trees the reader rejected, main lines it cut short (a move off the board or
    /// no move at all), and games that do not replay under the standard rules (no suicide,
    /// simple ko: a move on an occupied point, a missing handicap stone...).
    pub unusable: usize,
    /// Games whose size and events equal those of an earlier one (the same game in two
    /// collections).
    pub duplicates: usize,
    /// Inputs that are not SGF at all (`.gib`, `.md`...) or could not be read.
    pub skipped_inputs: usize,
}

impl Sources {
    /// Reads every game under `root` (a folder, archives inside included).
    pub fn load(root: &Path) -> Sources {
        Sources::load_from(root, &[root])
    }

    /// Reads every game under `paths` (folders or files below `root`, the labels' base).
    pub fn load_from<P: AsRef<Path>>(root: &Path, paths: &[P]) -> Sources {
        let (inputs, skipped) = collect_sources(paths);
        let base = root.display().to_string();
        let parsed: Vec<_> = inputs.par_iter().map(|s| s.parse()).collect();
        let mut out = Sources {
            skipped_inputs: skipped.len(),
            ..Sources::default()
        };
        let mut seen: HashSet<(Size, Vec<Event>)> = HashSet::new();
        for file in parsed {
            out.unusable += file.rejected.len();
            for g in file.games {
                let Some(moves) = replays(&g) else {
                    out.unusable += 1;
                    continue;
                };
                if !seen.insert((g.size, g.events.clone())) {
                    out.duplicates += 1;
                    continue;
                }
                out.games.push(SourceGame {
                    label: label(&base, &g),
                    size: g.size,
                    moves,
                    komi: g.info.komi,
                    events: g.events,
                });
            }
        }
        out
    }
}

/// The number of moves of `g` if its whole record replays under the standard rules.
fn replays(g: &GameRecord) -> Option<usize> {
    if g.end.is_some() {
        return None;
    }
    let mut board = Board::<StonesOnly>::empty(g.size, Rules::STANDARD);
    let mut moves = 0;
    for e in &g.events {
        e.apply(&mut board).ok()?;
        moves += usize::from(e.is_play());
    }
    Some(moves)
}

/// `g`'s place relative to the corpus root.
fn label(base: &str, g: &GameRecord) -> String {
    let path = g.source.path.strip_prefix(base).unwrap_or(&g.source.path);
    let mut s = path.trim_start_matches('/').to_owned();
    if let Some(m) = &g.source.member {
        s.push(':');
        s.push_str(m);
    }
    if g.source.tree_index > 0 {
        s.push_str(&format!("#{}", g.source.tree_index));
    }
    s
}
