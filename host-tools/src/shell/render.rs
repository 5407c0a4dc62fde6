//! The shell's own lines, around the answers the text printer writes
//! (`crate::print::text`): the state it reports (side to move, filters, letters shown),
//! the help, and what an import did.

use std::fmt::Write as _;
use std::path::PathBuf;

use kifudex_core::Color;

use super::command::{FilterChange, HELP};
use crate::explore::answer::SearchAnswer;
use crate::explore::request::Rank;
use crate::games::GameFilter;
use crate::indexing::BuildReport;
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

/// The filters other than the years in words, one entry each (none when off).
fn other_filters(filter: &GameFilter) -> Vec<String> {
    let mut notes = Vec::new();
    let r = filter.ranks;
    if !r.is_open() {
        let bound = |b: Option<Rank>| b.map_or("-".to_string(), |b| b.to_string());
        let whose = match filter.rank_of {
            None => "both players",
            Some(c) => color_name(c),
        };
        notes.push(format!(
            "ranks {} to {} ({whose})",
            bound(r.min),
            bound(r.max)
        ));
    }
    if let Some(k) = filter.komi {
        notes.push(format!("komi {}", k as f64 / 100.0));
    }
    if let Some(w) = &filter.rules {
        notes.push(format!("rules containing {w:?}"));
    }
    if let Some(w) = &filter.event {
        notes.push(format!("event containing {w:?}"));
    }
    let month = |m: u32| format!("{}-{:02}", m / 100, m % 100);
    match (filter.month_from, filter.month_to) {
        (None, None) => {}
        (Some(f), Some(t)) => notes.push(format!("months {} to {}", month(f), month(t))),
        (Some(f), None) => notes.push(format!("months {} on", month(f))),
        (None, Some(t)) => notes.push(format!("months up to {}", month(t))),
    }
    notes
}

/// `filter`: every filter in words.
pub fn filters(filter: &GameFilter) -> String {
    let mut notes = Vec::new();
    if let Some(y) = years(filter) {
        notes.push(format!("years {y}"));
    }
    notes.extend(other_filters(filter));
    if notes.is_empty() {
        "Filters: off (all games)\n".to_string()
    } else {
        format!("Filters: {}\n", notes.join(", "))
    }
}

/// Applies a `filter ...` change.
pub fn change_filter(filter: &mut GameFilter, change: FilterChange) {
    match change {
        FilterChange::Off => *filter = GameFilter::default(),
        FilterChange::Ranks(r) => filter.ranks = r,
        FilterChange::RankOf(c) => filter.rank_of = c,
        FilterChange::Komi(k) => filter.komi = k,
        FilterChange::Rules(w) => filter.rules = w,
        FilterChange::Event(w) => filter.event = w,
        FilterChange::From(m) => filter.month_from = m,
        FilterChange::To(m) => filter.month_to = m,
    }
}

/// `Opening: NAME` under a search of a named position (nothing otherwise).
pub fn opening(answer: &SearchAnswer) -> String {
    match &answer.opening {
        Some(o) => format!("Opening: {}\n", o.name),
        None => String::new(),
    }
}

/// The line under a search when a filter or the colour swap is on.
pub fn filter_notes(filter: &GameFilter, swap: bool) -> String {
    let mut notes = Vec::new();
    if let Some(y) = years(filter) {
        notes.push(format!("years {y}"));
    }
    notes.extend(other_filters(filter));
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
