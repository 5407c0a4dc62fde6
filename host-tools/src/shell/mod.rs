//! `kifudex shell`: bGo's interactive shell over an index.
//!
//! A board to play moves on (SGF points `pd`, human coordinates `Q16`, bGo letters `PD`, or
//! the letter of a next move from the search), next-move searches drawn as bGo's text
//! board, a year filter, game lists and a replay of any game, and bGo's `import`, `ls`,
//! `cd` and `cwd` to add game records to the index. Every command answers with text; bad
//! input gives a one-line error and the shell goes on.
//!
//! A line is read into a [`command::Command`] ([`command`]); the [`Shell`] ([`state`])
//! holds the board, the filter and the replayed game on top of the explorer
//! ([`crate::explore::Explorer`]), asks it every answer and writes it with the text
//! printer and its own lines ([`render`]). [`run`] reads lines with rustyline (line editing
//! and history in memory on a terminal, plain lines from a pipe) and carries the shell's
//! state across an `import` (which rewrites the index and opens it again).

pub mod command;
pub mod render;
pub mod state;

use std::path::PathBuf;

use crate::explore::Explorer;
use crate::indexing::BuildReport;
use crate::input::Source;
use command::NOT_UTF8;

pub use state::{Outcome, Shell, ShellState};

/// Where the shell's index comes from, and where `import` adds games.
pub enum IndexSource {
    /// An index file: `import` adds to it as `kifudex add` does ([`crate::indexing::add`]: the
    /// file rewritten atomically, the index one build of its inputs and the new ones gives).
    File(PathBuf),
    /// An index built in memory from these sources (the bundled sample): `import` builds it
    /// again from them and the new sources after them.
    Memory(Vec<Source>),
}

impl IndexSource {
    /// Adds the games under `paths`: the new index's bytes and what was added, in words.
    fn import(&mut self, paths: &[PathBuf]) -> anyhow::Result<(crate::IndexBytes, BuildReport)> {
        match self {
            IndexSource::File(path) => {
                let report = crate::indexing::add(path, paths, false)?;
                Ok((crate::open_index_file(path)?, report))
            }
            IndexSource::Memory(sources) => {
                let (new, skipped) = crate::input::collect_sources(paths);
                let mut all = sources.clone();
                all.extend(new);
                let (bytes, report) = crate::indexing::build_in_memory(
                    all.clone(),
                    &skipped,
                    &crate::indexing::BuildOptions::default(),
                )?;
                *sources = all;
                Ok((bytes.into(), report))
            }
        }
    }
}

/// Reads command lines: with rustyline on a terminal (line editing, history in memory),
/// plainly from a pipe; a line that is not UTF-8 comes back as [`NOT_UTF8`].
struct LineReader {
    editor: Option<rustyline::DefaultEditor>,
}

impl LineReader {
    fn new() -> LineReader {
        LineReader {
            editor: rustyline::DefaultEditor::new().ok(),
        }
    }

    /// The next line, or `None` at the end of the input.
    fn next_line(&mut self) -> anyhow::Result<Option<String>> {
        use rustyline::error::ReadlineError;
        loop {
            let Some(ed) = self.editor.as_mut() else {
                let mut line = String::new();
                return match std::io::stdin().read_line(&mut line) {
                    Ok(0) => Ok(None),
                    Ok(_) => Ok(Some(line)),
                    Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                        Ok(Some(NOT_UTF8.into()))
                    }
                    Err(e) => Err(e.into()),
                };
            };
            return match ed.readline("> ") {
                Ok(line) => {
                    if !line.trim().is_empty() {
                        let _ = ed.add_history_entry(line.as_str());
                    }
                    Ok(Some(line))
                }
                Err(ReadlineError::Interrupted) => continue,
                Err(ReadlineError::Eof) => Ok(None),
                Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                    Ok(Some(NOT_UTF8.into()))
                }
                Err(e) => Err(e.into()),
            };
        }
    }
}

/// Runs the shell on the index in `bytes` (from `source`), reading commands until `exit`,
/// `quit` or the end of input. `label` says where the index comes from (printed once at the
/// start); `book` is a book with a move predictor for `predict` (its bytes and its name).
/// After an `import` the index is opened again and the shell goes on with its board,
/// filter and current folder.
pub fn run(
    mut source: IndexSource,
    mut bytes: crate::IndexBytes,
    label: &str,
    book: Option<(&[u8], &str)>,
) -> anyhow::Result<()> {
    let mut reader = LineReader::new();
    let mut state = ShellState::default();
    let mut banner = true;
    loop {
        let (paths, before) = {
            let mut explorer = Explorer::open(&bytes, label)?;
            if let Some((book, name)) = book {
                explorer = explorer.with_predictor(book, name)?;
            }
            if banner {
                crate::print_stdout(&render::banner(label, explorer.game_count()))?;
                banner = false;
            }
            let mut shell = Shell::with_state(&explorer, state);
            let paths = loop {
                let Some(line) = reader.next_line()? else {
                    return Ok(());
                };
                match shell.execute(&line) {
                    Outcome::Quit => return Ok(()),
                    // A closed pipe ends the shell quietly; a full disk is an error.
                    Outcome::Print(s) => crate::print_stdout(&s)?,
                    Outcome::Import(paths) => break paths,
                }
            };
            state = shell.into_state();
            (paths, explorer.game_count())
        };
        match source.import(&paths) {
            Ok((new_bytes, report)) => {
                bytes = new_bytes;
                let after = Explorer::open(&bytes, label).map_or(0, |e| e.game_count());
                crate::print_stdout(&render::import(&paths, before, after, &report))?;
            }
            // The index is as it was (an index file is replaced whole or not at all).
            Err(e) => crate::print_stdout(&render::error(&format!("{e:#}")))?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifudex_core::{Color, Point, Stone};

    fn text(shell: &mut Shell<'_>, line: &str) -> String {
        match shell.execute(line) {
            Outcome::Print(s) => s,
            other => panic!("{line:?}: {other:?}"),
        }
    }

    #[test]
    fn pattern_search_in_the_shell() {
        let bytes = crate::sample::sample_index().unwrap();
        let explorer = Explorer::open(&bytes, "the sample").unwrap();
        let mut shell = Shell::new(&explorer);
        let rows = text(
            &mut shell,
            "pattern ....../....../....../...X../....../..O... 0,0,0,0",
        );
        assert!(rows.contains("hits in"), "{rows}");
        // The same pattern cut from the board (Black dd, White cf).
        text(&mut shell, "play dd cf");
        let cut = text(&mut shell, "pattern cut 0,0,5,5 0,0,0,0");
        assert_eq!(cut, rows);
        // Colours as given only: fewer or as many hits.
        assert!(text(&mut shell, "pattern X fixed").contains("hits in"));
        assert!(text(&mut shell, "pattern ..Y").starts_with("error: "));
        assert!(text(&mut shell, "pattern").starts_with("error: usage"));
    }

    #[test]
    fn notations_reach_the_same_position() {
        let bytes = crate::sample::sample_index().unwrap();
        let explorer = Explorer::open(&bytes, "the sample").unwrap();
        let mut hashes = Vec::new();
        for line in [
            "play pd dp pp",
            "play Q16 D4 Q4",
            "play PD DP PP",
            "play pd D4 PP",
        ] {
            let mut shell = Shell::new(&explorer);
            let out = text(&mut shell, line);
            assert!(out.contains("Total count: 7"), "{line}: {out}");
            hashes.push(shell.board().bgo_hashes().0[0]);
        }
        assert_eq!(hashes, [959678554; 4]);
    }

    #[test]
    fn letters_follow_the_search_and_a_bad_move_changes_nothing() {
        let bytes = crate::sample::sample_index().unwrap();
        let explorer = Explorer::open(&bytes, "the sample").unwrap();
        let mut shell = Shell::new(&explorer);
        text(&mut shell, "play pd dp pp a");
        assert_eq!(shell.board().bgo_hashes().0[0], 731239216);
        let out = text(&mut shell, "play a pd");
        assert!(
            out.starts_with("error: move 2, White pd: the point is occupied"),
            "{out}"
        );
        assert_eq!(out.lines().count(), 1);
        assert_eq!(shell.board().bgo_hashes().0[0], 731239216);
        text(&mut shell, "undo 4");
        assert_eq!(shell.board().bgo_hashes().0[0], 0);
        assert!(text(&mut shell, "undo").starts_with("error: nothing to undo"));
        assert_eq!(shell.execute("exit"), Outcome::Quit);
    }

    #[test]
    fn a_letter_plays_its_class_colour() {
        // Black moved twice in these records: after B pd the next move is B dd.
        let sources = [
            "(;GM[1]SZ[19];B[pd];B[dd])",
            "(;GM[1]SZ[19];B[pd];B[dd];W[pp])",
        ]
        .iter()
        .enumerate()
        .map(|(i, s)| crate::input::Source {
            path: format!("{i}.sgf"),
            member: None,
            bytes: s.as_bytes().to_vec(),
        })
        .collect();
        let (bytes, _) = crate::indexing::build_in_memory(
            sources,
            &[],
            &crate::indexing::BuildOptions::default(),
        )
        .unwrap();
        let explorer = Explorer::open(&bytes, "the sample").unwrap();
        let mut shell = Shell::new(&explorer);
        let out = text(&mut shell, "play pd a");
        let dd = Point::new(3, 3);
        assert_eq!(shell.board().get(dd), Stone::Black, "{out}");
        assert_eq!(shell.to_move(), Color::White);
        // The next class is W pp (or dp: the position is symmetric left to right), with
        // White to move: plain alternation again.
        text(&mut shell, "play a");
        let (pp, dp) = (Point::new(15, 15), Point::new(3, 15));
        assert_eq!(
            [shell.board().get(pp), shell.board().get(dp)]
                .iter()
                .filter(|&&s| s == Stone::White)
                .count(),
            1
        );
        assert_eq!(shell.to_move(), Color::Black);
    }

    #[test]
    fn every_bad_line_is_one_error_line() {
        let bytes = crate::sample::sample_index().unwrap();
        let explorer = Explorer::open(&bytes, "the sample").unwrap();
        let mut shell = Shell::new(&explorer);
        for line in [
            "bogus",
            "play",
            "play zz",
            "play pd pd",
            "play q99",
            "play Z",
            "play !!",
            "undo",
            "undo 0",
            "undo x",
            "board x",
            "search now",
            "rotations 3",
            "year 2013 2012",
            "year x",
            "year 1 2 3",
            "marks 0",
            "marks 99",
            "games 0",
            "games 1 2",
            "replay",
            "replay 99999",
            "replay 1",
            "replay 0",
            "replay id",
            "replay id x",
            "replay id 99999",
            "replay id 0 99999",
            "replay id 0 1 2",
            "replay x",
            "import",
            "import /no/such/path",
            "ls /no/such/path",
            "ls a b",
            "cd /no/such/path",
            "cwd now",
            "next",
            "prev",
            "swap maybe",
            "\u{1F600} \u{0}",
        ] {
            let out = text(&mut shell, line);
            assert!(out.starts_with("error: "), "{line:?}: {out}");
            assert_eq!(out.lines().count(), 1, "{line:?}: {out}");
        }
        assert_eq!(shell.board().bgo_hashes().0[0], 0);
    }

    #[test]
    fn replay_steps_through_a_game() {
        let bytes = crate::sample::sample_index().unwrap();
        let explorer = Explorer::open(&bytes, "the sample").unwrap();
        let mut shell = Shell::new(&explorer);
        let index = kifudex_core::index::Index::open(&bytes).unwrap();
        let out = text(&mut shell, "replay id 0 10");
        assert!(out.contains("Move 10 of "), "{out}");
        let at10 = index.position(0, 10).unwrap().bgo_hashes().0[0];
        assert!(out.contains(&at10.to_string()));
        let out = text(&mut shell, "next 5");
        assert!(out.contains("Move 15 of "), "{out}");
        let out = text(&mut shell, "prev 100");
        assert!(out.contains("Move 0 of "), "{out}");
        assert!(text(&mut shell, "prev").starts_with("error: "));
    }

    #[test]
    fn rotations_show_the_symmetry() {
        let bytes = crate::sample::sample_index().unwrap();
        let explorer = Explorer::open(&bytes, "the sample").unwrap();
        let mut shell = Shell::new(&explorer);
        assert!(text(&mut shell, "rotations").contains("8 transforms"));
        text(&mut shell, "play pd dp pp dd");
        let out = text(&mut shell, "rotations");
        // B pd pp, W dp dd: only the flip top-bottom (2) maps it onto itself; bGo's
        // published hashes (docs/HASH.md).
        let hash = |t: &str| {
            out.lines()
                .find(|l| l.trim_start().starts_with(t))
                .and_then(|l| l.split_whitespace().last())
                .map(str::to_string)
        };
        assert_eq!(hash("2 ").as_deref(), Some("731239216"), "{out}");
        assert_eq!(hash("7 ").as_deref(), Some("-870213878"), "{out}");
        assert!(
            out.contains("Symmetry: 2 transforms leave the position unchanged: 0 2"),
            "{out}"
        );
    }
}
