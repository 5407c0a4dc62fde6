//! The shell's own lines, around the answers the text printer writes
//! (`crate::print::text`): the state it reports (side to move, filters, letters shown),
//! the help, and what an import did.

use std::fmt::Write as _;
use std::path::PathBuf;

use kifudex_core::Color;

use super::command::HELP;
use crate::build::BuildReport;
use crate::games::GameFilter;
use crate::position::color_name;

/// Keeps a message to one line.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A refused command: `error: ` and the reason on one line.
pub fn error(e: &str) -> String {
    format!("error: {}\n", one_line(e))
}

/// `Moves played: N, Black to move`.
pub fn moves_played(n: usize, to_move: Color) -> String {
    format!("Moves played: {n}, {} to move\n", color_name(to_move))
}

/// `Black to move`.
pub fn to_move(c: Color) -> String {
    format!("{} to move\n", color_name(c))
}

/// The years a filter keeps, in words (`None`: every year).
pub fn years(filter: &GameFilter) -> Option<String> {
    match (filter.year_from, filter.year_to) {
        (None, None) => None,
        (Some(f), Some(t)) if f == t => Some(f.to_string()),
        (Some(f), Some(t)) => Some(format!("{f} to {t}")),
        (Some(f), None) => Some(format!("{f} on")),
        (None, Some(t)) => Some(format!("up to {t}")),
    }
}

/// The line under a search when a filter or the colour swap is on.
pub fn filter_notes(filter: &GameFilter, swap: bool) -> String {
    let mut notes = Vec::new();
    if let Some(y) = years(filter) {
        notes.push(format!("years {y}"));
    }
    if swap {
        notes.push("colour swap on".to_string());
    }
    if notes.is_empty() {
        String::new()
    } else {
        format!("Filter: {}\n", notes.join(", "))
    }
}

/// `Year filter: ...`.
pub fn year_filter(filter: &GameFilter) -> String {
    match years(filter) {
        Some(y) => format!("Year filter: {y}\n"),
        None => "Year filter: off (all games)\n".to_string(),
    }
}

/// `Marks: N`.
pub fn marks(n: usize) -> String {
    format!("Marks: {n}\n")
}

/// `Colour swap: on|off`.
pub fn swap(on: bool) -> String {
    format!("Colour swap: {}\n", if on { "on" } else { "off" })
}

/// What the numbers of a game list are for.
pub const GAMES_HINT: &str =
    "(`move`: the number of the move played from the position; `replay N` replays \
                 the game in place N of this list, `replay id ID` the game with that id)\n";

/// The commands with their arguments and what they do.
pub fn help() -> String {
    let mut s = String::new();
    for (usage, what) in HELP {
        let _ = writeln!(s, "  {usage:<28} {what}");
    }
    s
}

/// The command names.
pub fn commands() -> String {
    let mut names: Vec<&str> = HELP
        .iter()
        .flat_map(|(usage, _)| usage.split(" | "))
        .filter_map(|u| u.split_whitespace().next())
        .collect();
    names.dedup();
    format!("{}\n", names.join(" "))
}

/// The banner: the index and its games.
pub fn banner(name: &str, games: u32) -> String {
    format!("kifudex shell: {name}, {games} games. Type `help` for the commands.\n")
}

/// What an import did: games added, duplicates left out, the index's games, and every
/// skipped file, rejected game and game that ended early (its place and reason).
pub fn import(paths: &[PathBuf], before: u32, after: u32, report: &BuildReport) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let mut s = format!(
        "Imported {}: {} games added ({} duplicates left out); the index holds {} games.\n",
        names.join(" "),
        after.saturating_sub(before),
        report.duplicates,
        after
    );
    for p in &report.problems {
        let _ = writeln!(s, "  {}", one_line(&p.to_string()));
    }
    s
}
