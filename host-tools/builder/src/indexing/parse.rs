//! Reading one input into game records ([`read`]): a file's sources (an archive's members)
//! parsed one after the other, each game handed on as soon as it is read (the record of a
//! source is dropped before the next source is parsed), with the input's notes: the kinds
//! of the defects the parser recovered from, and the problems (members skipped, trees
//! rejected and, if asked for, every recovered defect with its place).

use crate::indexing::inputs::Input;
use crate::indexing::problems::{self, Problem};
use crate::input::{self, Source};
use crate::sgf::{GameRecord, SourceRef};

/// What one input yields besides its games.
pub struct InputNotes {
    /// The input's number (its place in the order of reading).
    pub input: usize,
    /// The kind of every defect the parser recovered from.
    pub warnings: Vec<&'static str>,
    /// Members skipped, trees rejected and, if asked for, the recovered defects.
    pub problems: Vec<Problem>,
}

/// A game as read.
pub struct ReadGame {
    /// The record.
    pub record: GameRecord,
    /// Where it comes in the order of reading: (input number, source number within the
    /// input); with the tree number, what decides which of two equal games is a duplicate.
    pub read_rank: (u32, u32),
    /// For a game read back from an index: the date key stored with it (which orders it,
    /// rather than one read again from its date).
    pub stored_date: Option<u32>,
}

/// Reads input `number` within `limits`, calling `each` with its games in order, and
/// returns its notes; `None` for a range of an index's games that is not the index's first
/// (an index counts as one input). With `list_recovered`, every recovered defect is a
/// problem too. An archive's members are read, parsed and dropped one after the other.
pub fn read(
    input: Input,
    number: usize,
    list_recovered: bool,
    limits: &input::Limits,
    mut each: impl FnMut(ReadGame),
) -> Option<InputNotes> {
    let rank = |source: usize| (number as u32, source as u32);
    let mut warnings = Vec::new();
    let mut found: Vec<Problem> = Vec::new();
    let mut source_number = 0usize;
    let mut one = |src: Source| {
        let parsed = src.parse_within(&limits.sgf);
        warnings.extend(parsed.warnings.iter().map(|w| w.kind.name()));
        found.extend(parsed.rejected.iter().map(problems::rejected));
        if list_recovered {
            let here = SourceRef {
                path: src.path.clone(),
                member: src.member.clone(),
                tree_index: usize::MAX,
            };
            found.extend(
                parsed
                    .warnings
                    .iter()
                    .map(|w| problems::recovered(&here, w)),
            );
        }
        drop(src);
        for g in parsed.games {
            warnings.extend(g.warnings.iter().map(|w| w.kind.name()));
            if list_recovered {
                found.extend(g.warnings.iter().map(|w| problems::recovered(&g.source, w)));
            }
            each(ReadGame {
                record: g,
                read_rank: rank(source_number),
                stored_date: None,
            });
        }
        source_number += 1;
    };
    let mut skipped = Vec::new();
    match input {
        Input::File(p) => input::read_input_each(&p, limits, &mut one, &mut skipped),
        Input::Sources(s) => s.into_iter().for_each(&mut one),
        Input::Stored(games) => {
            let mut i = 0;
            games.for_each(|s| {
                each(ReadGame {
                    record: s.record,
                    read_rank: rank(i),
                    stored_date: Some(s.date_key),
                });
                i += 1;
            });
            return games.first.then(|| InputNotes {
                input: number,
                warnings: Vec::new(),
                problems: Vec::new(),
            });
        }
    }
    // The skipped parts first, as before the streaming (the order of a report's problems
    // is fixed by `problems::input_order` anyway).
    let mut listed: Vec<Problem> = skipped.iter().map(problems::skipped).collect();
    listed.append(&mut found);
    Some(InputNotes {
        input: number,
        warnings,
        problems: listed,
    })
}
