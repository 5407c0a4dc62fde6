//! What a build read, kept, skipped and measured ([`BuildReport`]), and the resident memory
//! of the process at each phase.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use super::problems::{Outcome, Problem};

/// How many problems of one kind the summary names before it only counts the rest.
const NAMED_IN_SUMMARY: usize = 3;

/// What a build read, kept and skipped.
#[derive(Clone, Debug, Default)]
pub struct BuildReport {
    /// Files and archive members read.
    pub files: usize,
    /// Inputs skipped, by reason.
    pub skipped_inputs: BTreeMap<String, usize>,
    /// Game trees rejected by the parser, by reason.
    pub rejected: BTreeMap<String, usize>,
    /// Games read.
    pub games_read: usize,
    /// Games left out as duplicates of games read earlier.
    pub duplicates: usize,
    /// The first few duplicates (in reading order), each with the game it repeats.
    pub duplicate_examples: Vec<String>,
    /// Games with at least one indexed move.
    pub games_indexed: usize,
    /// Games whose main line ended early, by reason.
    pub truncated: BTreeMap<String, usize>,
    /// Games with no move at all.
    pub games_without_moves: usize,
    /// Parser warnings (recovered defects), by kind.
    pub warnings: BTreeMap<String, usize>,
    /// Every skipped input, rejected tree and truncated main line, with its place, in
    /// input order; the recovered defects too if [`super::BuildOptions::list_recovered`].
    pub problems: Vec<Problem>,
    /// Indexed moves (occurrences).
    pub occurrences: u64,
    /// Distinct positions.
    pub positions: u64,
    /// Records written (next-move records for a book; occurrences for an index).
    pub records: u64,
    /// Keys standing for two different positions (must be 0).
    pub collisions: u64,
    /// Keys with more than one occurrence, checked for collisions.
    pub verified_positions: u64,
    /// Bytes written.
    pub bytes: u64,
    /// Bytes of occurrences spilled to temporary files (0: the build fit its memory).
    pub spilled_bytes: u64,
    /// Slices the spilled occurrences were sorted in.
    pub slices: u64,
    /// `kifudex add`: how the games were added (incrementally, or by a full rebuild and
    /// why), one line.
    pub added: Option<String>,
    /// The move predictor of a book: what it holds, one line.
    pub predictor: Option<String>,
    /// Wall time.
    pub elapsed: Duration,
    /// Wall time and resident memory (bytes, where the OS tells) at the end of each phase,
    /// in the order they ended (some overlap).
    pub phases: Vec<(&'static str, Duration, Option<u64>)>,
}

impl BuildReport {
    pub(super) fn phase(&mut self, name: &'static str, t0: Instant) {
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

    /// Counts `problem` under its reason and keeps it.
    pub(super) fn note(&mut self, problem: Problem) {
        let map = match problem.outcome {
            Outcome::Skipped => &mut self.skipped_inputs,
            Outcome::Rejected => &mut self.rejected,
            Outcome::Truncated => &mut self.truncated,
            // Counted by kind whether listed or not (see `warnings`).
            Outcome::Recovered => return self.problems.push(problem),
        };
        *map.entry(problem.reason.clone()).or_default() += 1;
        self.problems.push(problem);
    }

    /// The problems of one outcome and reason: the first few named, the rest counted.
    fn named(&self, outcome: Outcome, reason: &str) -> String {
        let all: Vec<&Problem> = self
            .problems
            .iter()
            .filter(|p| p.outcome == outcome && p.reason == reason)
            .collect();
        let mut s: Vec<String> = all
            .iter()
            .take(NAMED_IN_SUMMARY)
            .map(|p| p.to_string())
            .collect();
        if all.len() > NAMED_IN_SUMMARY {
            s.push(format!(
                "and {} more (all of them: --verbose or --report FILE)",
                all.len() - NAMED_IN_SUMMARY
            ));
        }
        s.iter().map(|l| format!("\n      {l}")).collect()
    }

    /// Every problem, one line each.
    pub fn problems_text(&self) -> String {
        self.problems.iter().map(|p| format!("{p}\n")).collect()
    }

    /// Games per second, end to end.
    pub fn games_per_second(&self) -> f64 {
        self.games_read as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// A human-readable summary (several lines), in the words of `kifudex info`
    /// ([`crate::numbers`]): the games read as a sum of the games kept and the
    /// duplicates left out, the games kept as a sum of those with and without moves.
    pub fn summary(&self) -> String {
        use crate::numbers::{self as n, thousands};
        use std::fmt::Write;
        let mut s = String::new();
        if let Some(a) = &self.added {
            let _ = writeln!(s, "added:               {a}");
        }
        let _ = writeln!(s, "files read:          {}", thousands(self.files as u64));
        for (k, n) in &self.skipped_inputs {
            let named = self.named(Outcome::Skipped, k);
            let _ = writeln!(s, "  skipped ({k}): {n}{named}");
        }
        let rejected: usize = self.rejected.values().sum();
        if rejected > 0 {
            let _ = writeln!(
                s,
                "game trees rejected: {} (not games: not in the games read)",
                thousands(rejected as u64)
            );
        }
        for (k, n) in &self.rejected {
            let named = self.named(Outcome::Rejected, k);
            let _ = writeln!(s, "  rejected ({k}): {n}{named}");
        }
        let kept = self.games_read.saturating_sub(self.duplicates) as u64;
        let _ = writeln!(
            s,
            "games read:          {} = {} kept + {} duplicates left out",
            thousands(self.games_read as u64),
            thousands(kept),
            thousands(self.duplicates as u64)
        );
        if self.duplicates > 0 {
            let _ = writeln!(
                s,
                "  duplicates left out: {}, e.g. {}",
                self.duplicates,
                self.duplicate_examples.join("; ")
            );
        }
        let _ = writeln!(
            s,
            "{}:          {}",
            n::GAMES_KEPT,
            n::games_kept(kept, self.games_without_moves as u64)
        );
        for (k, n) in &self.truncated {
            let named = self.named(Outcome::Truncated, k);
            let _ = writeln!(s, "  main line ended early ({k}): {n}{named}");
        }
        if !self.warnings.is_empty() {
            let w: Vec<String> = self
                .warnings
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            let _ = writeln!(s, "  recovered defects: {}", w.join(", "));
        }
        let _ = writeln!(
            s,
            "{}:         {}",
            n::OCCURRENCES,
            n::occurrences(self.occurrences)
        );
        let _ = writeln!(s, "positions:           {}", thousands(self.positions));
        let _ = writeln!(s, "records:             {}", thousands(self.records));
        let _ = writeln!(
            s,
            "key collisions:      {} ({} shared positions checked)",
            self.collisions,
            thousands(self.verified_positions)
        );
        if let Some(p) = &self.predictor {
            let _ = writeln!(s, "predictor:           {p}");
        }
        let _ = writeln!(s, "bytes:               {}", thousands(self.bytes));
        if self.spilled_bytes > 0 {
            let _ = writeln!(
                s,
                "spilled:             {} MB of occurrences to temporary files, sorted in {} slices (--memory)",
                thousands((self.spilled_bytes as f64 / 1e6).round() as u64),
                self.slices
            );
        }
        let _ = write!(
            s,
            "time:                {:.2} s ({} games read per second)",
            self.elapsed.as_secs_f64(),
            n::rate(self.games_per_second())
        );
        s
    }
}

/// Resident memory of this process (Linux), or `None`.
pub(super) fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}
