//! Every input a build could not use whole, one [`Problem`] each, with its reason and place:
//! the skipped files, the rejected game trees, the games whose main line ended early and
//! (when asked for) the recovered defects. `kifudex build --report FILE` writes them as
//! JSON ([`to_json`]); `--verbose` prints them one per line.

use serde_json::{json, Value};

use kifudex_core::stored::MAX_GAME_MOVES;

use crate::input::Skipped;
use crate::sgf::{FileError, GameRecord, SourceRef, Warning};

/// What happened to an input.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// The file (or archive member) was not read.
    Skipped,
    /// A game tree (or the whole file) was not read as a game.
    Rejected,
    /// A game's main line ends before its last node; the moves before are indexed.
    Truncated,
    /// A defect was repaired; the game is indexed.
    Recovered,
}

impl Outcome {
    /// The name in reports (`skipped`, `rejected`, `truncated`, `recovered`).
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Skipped => "skipped",
            Outcome::Rejected => "rejected",
            Outcome::Truncated => "truncated",
            Outcome::Recovered => "recovered",
        }
    }
}

/// One input a build could not use whole.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Problem {
    /// What happened.
    pub outcome: Outcome,
    /// A short stable name of the reason (`not-sgf`, `no-game-tree`, `occupied`, ...).
    pub reason: String,
    /// The file (the archive for archive members).
    pub path: String,
    /// The archive member, if any.
    pub member: Option<String>,
    /// The game tree in the file, 1-based.
    pub game: Option<usize>,
    /// The move of the main line, 1-based.
    pub move_number: Option<usize>,
    /// The byte offset in the file (in the member for archive members).
    pub byte: Option<usize>,
    /// The reason in words.
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.path)?;
        if let Some(m) = &self.member {
            write!(f, ":{m}")?;
        }
        if let Some(b) = self.byte {
            write!(f, ": byte {b}")?;
        }
        if let Some(g) = self.game {
            write!(f, ": game {g}")?;
        }
        if let Some(m) = self.move_number {
            write!(f, ": move {m}")?;
        }
        write!(f, ": {}: {}", self.outcome.name(), self.message)
    }
}

impl Problem {
    /// The problem as a JSON object (absent places are left out).
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "outcome": self.outcome.name(),
            "reason": self.reason,
            "path": self.path,
        });
        let o = v.as_object_mut().expect("an object");
        if let Some(m) = &self.member {
            o.insert("member".into(), json!(m));
        }
        if let Some(g) = self.game {
            o.insert("game".into(), json!(g));
        }
        if let Some(m) = self.move_number {
            o.insert("move".into(), json!(m));
        }
        if let Some(b) = self.byte {
            o.insert("byte".into(), json!(b));
        }
        o.insert("message".into(), json!(self.message));
        v
    }
}

/// The problems as one JSON object: `{"problems": [...], "counts": {"skipped": N, ...}}`.
pub fn to_json(problems: &[Problem]) -> Value {
    let mut counts = serde_json::Map::new();
    for o in [
        Outcome::Skipped,
        Outcome::Rejected,
        Outcome::Truncated,
        Outcome::Recovered,
    ] {
        let n = problems.iter().filter(|p| p.outcome == o).count();
        counts.insert(o.name().into(), json!(n));
    }
    json!({
        "counts": counts,
        "problems": problems.iter().map(Problem::to_json).collect::<Vec<_>>(),
    })
}

/// A skipped input.
pub fn skipped(s: &Skipped) -> Problem {
    Problem {
        outcome: Outcome::Skipped,
        reason: s.reason.name().to_owned(),
        path: s.path.clone(),
        member: s.member.clone(),
        game: None,
        move_number: None,
        byte: None,
        message: s.reason.to_string(),
    }
}

/// The reason of a problem past one of a build's limits (a record, an archive, a game tree
/// too large): it fails the build.
pub const LIMIT: &str = "limit";

/// A rejected file or game tree.
pub fn rejected(e: &FileError) -> Problem {
    Problem {
        outcome: Outcome::Rejected,
        reason: e.kind.name().to_owned(),
        path: e.path.clone(),
        member: e.member.clone(),
        game: e.tree_index.map(|t| t + 1),
        move_number: None,
        byte: Some(e.byte_offset),
        message: e.kind.to_string(),
    }
}

/// A repaired defect of a game (or of the file, for a `source` whose tree index is
/// `usize::MAX`).
pub fn recovered(source: &SourceRef, w: &Warning) -> Problem {
    Problem {
        outcome: Outcome::Recovered,
        reason: w.kind.name().to_owned(),
        path: source.path.clone(),
        member: source.member.clone(),
        game: source.tree_index.checked_add(1),
        move_number: None,
        byte: Some(w.byte_offset),
        message: w.kind.name().replace('-', " "),
    }
}

/// A main line that ends at move `move_number` for `reason` (a move error's name,
/// `off-board`, `invalid-coordinate` or `too-many-moves`).
pub fn truncated(record: &GameRecord, reason: &str, move_number: usize) -> Problem {
    let words = match reason {
        "occupied" => "the point is occupied".to_owned(),
        "off-board" => "the move lies off the board".to_owned(),
        "invalid-coordinate" => "the move is not a coordinate".to_owned(),
        "too-many-moves" => format!("a game holds at most {MAX_GAME_MOVES} moves"),
        other => other.replace('-', " "),
    };
    Problem {
        outcome: Outcome::Truncated,
        reason: reason.to_owned(),
        path: record.source.path.clone(),
        member: record.source.member.clone(),
        game: Some(record.source.tree_index + 1),
        move_number: Some(move_number),
        byte: Some(record.byte_offset),
        message: format!("{words}; the moves before it are indexed"),
    }
}

/// Orders problems as the inputs are listed: by file, member, game, move and byte.
pub fn input_order(a: &Problem, b: &Problem) -> std::cmp::Ordering {
    (&a.path, &a.member, a.game, a.byte, a.move_number, a.outcome).cmp(&(
        &b.path,
        &b.member,
        b.game,
        b.byte,
        b.move_number,
        b.outcome,
    ))
}

/// The lines that explain why a build found nothing to index: every problem, one per
/// line (an empty string if there is none).
pub fn why_nothing(problems: &[Problem]) -> String {
    if problems.is_empty() {
        return String::new();
    }
    let lines: String = problems
        .iter()
        .filter(|p| p.outcome != Outcome::Recovered)
        .map(|p| format!("\n  {p}"))
        .collect();
    format!(":{lines}")
}
