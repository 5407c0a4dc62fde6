//! `kifudex shell`: bGo's interactive shell over an index.
//!
//! A board to play moves on (SGF points `pd`, human coordinates `Q16`, bGo letters `PD`, or
//! the letter of a next move from the search), next-move searches drawn as bGo's text
//! board, a year filter, game lists and a replay of any game, and bGo's `import`, `ls`,
//! `cd` and `cwd` to add game records to the index. Every command answers with text; bad
//! input gives a one-line error and the shell goes on.
//!
//! [`Shell`] is the command interpreter (no terminal, testable) over a
//! [`crate::session::Session`], which holds the board, the filter and the replayed game;
//! the shell parses commands and writes text ([`crate::present::text`]). [`run`] reads lines
//! with rustyline (line editing and history in memory on a terminal, plain lines from a
//! pipe) and carries the shell's state across an `import` (which rewrites the index and
//! opens it again).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use kifudex_core::board::Board;
use kifudex_core::index::Index;
use kifudex_core::notation::{parse_moves, Human, NotationError, Sgf};
use kifudex_core::predict::Predictor;
use kifudex_core::{Color, Move, Transform};

use crate::games::{GameFilter, Page};
use crate::input::Source;
use crate::pattern::{self, PatternRequest};
use crate::predict::suggest::predictions;
use crate::present::{color_letter, result_text, text};
use crate::session::{GameView, PlayBoard, Session};

/// What the reader passes on for a line that is not UTF-8 (one error line, then go on).
const NOT_UTF8: &str = "\u{1}not-utf8";

/// The most letters a board can show (`a`-`z`, `A`-`Z`).
const MAX_MARKS: usize = 52;

/// The commands, with their arguments and what they do (for `help`).
const HELP: &[(&str, &str)] = &[
    ("board [reset]", "show the board; `reset` empties it"),
    (
        "play <moves...>",
        "play moves: SGF points (pd), human coordinates (Q16), bGo letters (PD), pass, or a next-move letter (a) of the search; colours alternate from the side to move",
    ),
    ("undo [n]", "take back the last move (or n moves)"),
    (
        "search",
        "next moves for the board: letters on the board and a table",
    ),
    (
        "rotations",
        "the position's bGo hash under the 8 transforms and its symmetry",
    ),
    (
        "year [FROM [TO]] | year off",
        "count only games of year FROM (to TO) in search and games; alone: show the filter",
    ),
    ("marks N", "show N next-move letters"),
    (
        "predict [N]",
        "the move predictor's N most likely moves (default 5), marked as predictions (shell --predictor BOOK)",
    ),
    (
        "games [N]",
        "the N newest games that reached the position (default 10), numbered 1, 2, ... in the `#` column beside their game ids",
    ),
    (
        "replay N [move]",
        "replay the game in place N of the last `games` list (its `#`), at the position searched or after `move` moves; then next/prev [n]",
    ),
    (
        "replay id ID [move]",
        "replay the game whose game id is ID (the `game id` column, as `kifudex game ID`), from the start or after `move` moves",
    ),
    ("next [n] | prev [n]", "step the replayed game"),
    (
        "swap on|off",
        "also count the colour-swapped position (colours exchanged) and list its games",
    ),
    (
        "pattern <rows> [L,T,R,B] [fixed]",
        "pattern search (rows such as ..X/.O./..., cells . X O x o *): the pattern drawn with lettered continuations and a table; `pattern cut L,T,R,B` takes the rectangle of the board",
    ),
    (
        "import PATH...",
        "add the games of records (.sgf, .gib, .ngf, .ugf), archives (.tgz, .tar.bz2, .tar.xz, .zip, .7z) or folders to the index (an index file is rewritten, as `kifudex add` does; the bundled sample grows in memory)",
    ),
    ("ls [PATH]", "list a folder (default: the current one)"),
    ("cd [PATH]", "change the current folder (default: the home folder)"),
    ("cwd", "show the current folder (relative paths start there)"),
    ("help", "this list"),
    ("commands", "the command names"),
    ("exit | quit", "leave the shell"),
];

/// What a command line asks the loop to do next.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Print this and read the next line.
    Print(String),
    /// Add the games under these paths (existing, resolved against the shell's current
    /// folder) to the index, open it again, and go on ([`run`] does).
    Import(Vec<PathBuf>),
    /// Leave the shell.
    Quit,
}

/// What the shell keeps when its index is replaced (after an `import`): the board, the
/// filter, the colour swap, the letters shown and the current folder. The game list and
/// the replayed game are dropped: game ids change when games are added.
#[derive(Clone, Debug)]
pub struct ShellState {
    play: PlayBoard,
    filter: GameFilter,
    swap: bool,
    marks: usize,
    cwd: PathBuf,
}

impl Default for ShellState {
    fn default() -> ShellState {
        ShellState {
            play: PlayBoard::new(kifudex_core::Size::STANDARD),
            filter: GameFilter::default(),
            swap: false,
            marks: 12,
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
        }
    }
}

/// The shell's state over one index: a session, the letters shown, the last game list, the
/// current folder.
pub struct Shell<'a> {
    session: Session<'a>,
    marks: usize,
    predictor: Option<&'a Predictor<'a>>,
    /// The last `games` list: each game's id and the moves played before the position.
    listed: Vec<(u32, u32)>,
    cwd: PathBuf,
}

type CmdResult = Result<String, String>;

impl<'a> Shell<'a> {
    /// A shell on the empty 19x19 board.
    pub fn new(index: &'a Index<'a>) -> Shell<'a> {
        Shell::with_state(index, ShellState::default())
    }

    /// A shell on `index` that goes on from `state` (see [`Shell::into_state`]).
    pub fn with_state(index: &'a Index<'a>, state: ShellState) -> Shell<'a> {
        let mut session = Session::new(index);
        session.set_play_board(state.play);
        *session.filter_mut() = state.filter;
        session.set_swap(state.swap);
        Shell {
            session,
            marks: state.marks,
            predictor: None,
            listed: Vec::new(),
            cwd: state.cwd,
        }
    }

    /// What the shell keeps when its index is replaced.
    pub fn into_state(self) -> ShellState {
        ShellState {
            play: self.session.play_board().clone(),
            filter: self.session.filter().clone(),
            swap: self.session.swap(),
            marks: self.marks,
            cwd: self.cwd,
        }
    }

    /// The folder relative paths start from.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// Lets `predict` rank moves with `predictor` (a book's, `kifudex build --predictor`).
    pub fn set_predictor(&mut self, predictor: &'a Predictor<'a>) {
        self.predictor = Some(predictor);
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        self.session.board()
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.session.play_board().to_move()
    }

    /// Runs one command line. Errors come back as one line starting with `error: `.
    pub fn execute(&mut self, line: &str) -> Outcome {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            return Outcome::Print(String::new());
        };
        let result = match cmd.to_ascii_lowercase().as_str() {
            NOT_UTF8 => Err("the line is not UTF-8 text".into()),
            "exit" | "quit" => return Outcome::Quit,
            "board" => self.cmd_board(args),
            "play" => self.cmd_play(args),
            "undo" => self.cmd_undo(args),
            "search" => no_args(cmd, args).and_then(|_| self.search_text()),
            "rotations" => no_args(cmd, args).map(|_| self.rotations_text()),
            "year" => self.cmd_year(args),
            "marks" => self.cmd_marks(args),
            "predict" => self.cmd_predict(args),
            "games" => self.cmd_games(args),
            "replay" => self.cmd_replay(args),
            "next" => self.cmd_step(args, true),
            "prev" => self.cmd_step(args, false),
            "swap" => self.cmd_swap(args),
            "pattern" => self.cmd_pattern(args),
            "import" => match self.cmd_import(args) {
                Ok(paths) => return Outcome::Import(paths),
                Err(e) => Err(e),
            },
            "ls" => self.cmd_ls(args),
            "cd" => self.cmd_cd(args),
            "cwd" => no_args(cmd, args).map(|_| format!("{}\n", self.cwd.display())),
            "help" => Ok(help_text()),
            "commands" => Ok(commands_text()),
            _ => Err(format!("unknown command {cmd:?} (try `help`)")),
        };
        Outcome::Print(match result {
            Ok(s) => s,
            Err(e) => format!("error: {}\n", one_line(&e)),
        })
    }

    fn cmd_board(&mut self, args: &[&str]) -> CmdResult {
        match args {
            [] => {}
            [w] if w.eq_ignore_ascii_case("reset") => self.session.reset(),
            _ => return Err("usage: board [reset]".into()),
        }
        let mut s = text::board_with_last(self.board(), &[], 0, self.last_point());
        let _ = writeln!(
            s,
            "Moves played: {}, {} to move",
            self.session.play_board().moves_played(),
            color_name(self.to_move())
        );
        Ok(s)
    }

    fn cmd_play(&mut self, args: &[&str]) -> CmdResult {
        if args.is_empty() {
            return Err("usage: play <moves...> (pd, Q16, PD, pass, or a letter a-z)".into());
        }
        // Play on a copy: a bad move anywhere leaves the board as it was.
        let mut play: PlayBoard = self.session.play_board().clone();
        // Words, and comma-separated lists of them (`play pd,dp Q4`).
        let words = args
            .iter()
            .flat_map(|w| w.split(','))
            .filter(|w| !w.is_empty());
        for (i, word) in words.enumerate() {
            let (mv, mover) = self
                .parse_move(word, play.board())
                .map_err(|e| format!("move {}: {e}", i + 1))?;
            // A next-move letter plays its class's move with its colour (records where a
            // colour moved twice, handicap stones, the colour-swapped search).
            let color = mover.unwrap_or(play.to_move());
            play.play(mv, Some(color)).map_err(|e| {
                format!(
                    "move {}, {} {word}: {}",
                    i + 1,
                    color_name(color),
                    e.words()
                )
            })?;
        }
        self.session.set_play_board(play);
        self.search_text()
    }

    /// A move word on `board` (the position it would be played on), with the colour that
    /// must play it if the word says (a next-move letter: its class's colour).
    fn parse_move(&self, word: &str, board: &Board) -> Result<(Move, Option<Color>), String> {
        let size = board.size();
        let b = word.as_bytes();
        if word.eq_ignore_ascii_case("pass") {
            return Ok((Move::Pass, None));
        }
        let mv = match b {
            [c] if c.is_ascii_alphabetic() => {
                let i = (0..MAX_MARKS)
                    .find(|&i| text::mark_letter(i) == *c as char)
                    .ok_or("not a next-move letter")?;
                if i >= self.marks {
                    return Err(format!(
                        "only {} letters are shown (see `marks`)",
                        self.marks
                    ));
                }
                let next = self
                    .session
                    .next_moves_of(board)
                    .map_err(|e| e.to_string())?;
                return match next.classes().get(i) {
                    Some(c) if c.mv != Move::Pass => Ok((c.mv, Some(c.color))),
                    _ => Err("no next move has this letter here".into()),
                };
            }
            // Everything else as `--moves` and the hint protocol read it: SGF points in
            // either case (bGo's `PD` is `pd`), human coordinates, `pass`.
            _ => {
                let mut entries = parse_moves(word, size);
                match (entries.next(), entries.next()) {
                    (Some(Ok(m)), None) => Ok(m),
                    // Refused as the rules refuse it, with the colour that plays it.
                    (Some(Err(NotationError::OffBoard { .. })), _) => {
                        Ok(Move::Play(kifudex_core::Point::new(u8::MAX, u8::MAX)))
                    }
                    _ => Err(format!(
                        "`{word}` is not a move (expected an SGF point like pd, a \
                         coordinate like Q16, pass, or a next-move letter)"
                    )),
                }
            }
        };
        mv.map(|m| (m, None))
    }

    fn cmd_undo(&mut self, args: &[&str]) -> CmdResult {
        let n = match args {
            [] => 1,
            [n] => parse_count(n, "undo")?,
            _ => return Err("usage: undo [n]".into()),
        };
        self.session.undo(n).map_err(|e| e.to_string())?;
        self.search_text()
    }

    /// The point of the last move played on the board (none after a pass or undo to the
    /// start).
    fn last_point(&self) -> Option<kifudex_core::Point> {
        match self.session.play_board().last_moves().last {
            Some(Move::Play(p)) => Some(p),
            _ => None,
        }
    }

    fn search_text(&self) -> CmdResult {
        let board = self.board();
        let next = self.session.next_moves().map_err(|e| e.to_string())?;
        let mut s = text::board_with_last(board, next.classes(), self.marks, self.last_point());
        s.push_str(&text::table(&next, self.marks, self.marks));
        let mut notes = Vec::new();
        if let Some(y) = self.year_text() {
            notes.push(format!("years {y}"));
        }
        if self.session.swap() {
            notes.push("colour swap on".to_string());
        }
        if !notes.is_empty() {
            let _ = writeln!(s, "Filter: {}", notes.join(", "));
        }
        let _ = writeln!(s, "{} to move", color_name(self.to_move()));
        Ok(s)
    }

    fn rotations_text(&self) -> String {
        const NAMES: [&str; 8] = [
            "identity",
            "flip left-right",
            "flip top-bottom",
            "rotate 90 CCW",
            "rotate 180",
            "rotate 270 CCW",
            "transpose",
            "anti-transpose",
        ];
        let board = self.board();
        let hashes = board.bgo_hashes().0;
        let mut s = String::new();
        for t in Transform::all_for(board.size()) {
            let i = t.index();
            let _ = writeln!(s, "  {i}  {:<16} {:>12}", NAMES[i], hashes[i]);
        }
        let sym = board.symmetries();
        if sym.len() == 1 {
            let _ = writeln!(s, "Symmetry: none (only 0, the identity)");
        } else {
            let list: Vec<String> = sym.iter().map(|t| t.index().to_string()).collect();
            let _ = writeln!(
                s,
                "Symmetry: {} transforms leave the position unchanged: {}",
                sym.len(),
                list.join(" ")
            );
        }
        s
    }

    fn year_text(&self) -> Option<String> {
        let filter = self.session.filter();
        match (filter.year_from, filter.year_to) {
            (None, None) => None,
            (Some(f), Some(t)) if f == t => Some(f.to_string()),
            (Some(f), Some(t)) => Some(format!("{f} to {t}")),
            (Some(f), None) => Some(format!("{f} on")),
            (None, Some(t)) => Some(format!("up to {t}")),
        }
    }

    fn cmd_year(&mut self, args: &[&str]) -> CmdResult {
        let years = match args {
            [] => None,
            [w] if w.eq_ignore_ascii_case("off") => Some((None, None)),
            [y] => {
                let y = parse_year(y)?;
                Some((Some(y), Some(y)))
            }
            [f, t] => {
                let (f, t) = (parse_year(f)?, parse_year(t)?);
                if f > t {
                    return Err(format!("year range {f} to {t} is empty"));
                }
                Some((Some(f), Some(t)))
            }
            _ => return Err("usage: year [FROM [TO]] | year off".into()),
        };
        if let Some((from, to)) = years {
            let filter = self.session.filter_mut();
            filter.year_from = from;
            filter.year_to = to;
        }
        Ok(match self.year_text() {
            Some(y) => format!("Year filter: {y}\n"),
            None => "Year filter: off (all games)\n".to_string(),
        })
    }

    fn cmd_marks(&mut self, args: &[&str]) -> CmdResult {
        let [n] = args else {
            return Ok(format!("Marks: {}\n", self.marks));
        };
        let n = parse_count(n, "marks")?;
        if n > MAX_MARKS {
            return Err(format!("at most {MAX_MARKS} marks (a-z, A-Z)"));
        }
        self.marks = n;
        Ok(format!("Marks: {n}\n"))
    }

    fn cmd_predict(&mut self, args: &[&str]) -> CmdResult {
        let n = match args {
            [] => 5,
            [n] => parse_count(n, "predict")?,
            _ => return Err("usage: predict [N]".into()),
        };
        let predictor = self.predictor.ok_or(
            "no move predictor: start the shell with --predictor BOOK (a book built with --predictor)",
        )?;
        let play = self.session.play_board();
        let to_move = play.to_move();
        let list = predictions(predictor, play.board(), to_move, play.last_moves(), n);
        let mut s = format!(
            "Predictions for {} (the move predictor, learnt from {} games; not moves of the games):\n",
            color_name(to_move),
            predictor.header().games
        );
        if list.is_empty() {
            s.push_str("  no legal move\n");
        }
        let size = play.board().size();
        for (i, p) in list.iter().enumerate() {
            let mv = Move::Play(p.point);
            let _ = writeln!(
                s,
                "  {:>2}. {:<4} {}  {:>5.1}%",
                i + 1,
                Human(mv, size).to_string(),
                Sgf(mv),
                p.probability * 100.0
            );
        }
        Ok(s)
    }

    fn cmd_games(&mut self, args: &[&str]) -> CmdResult {
        let limit = match args {
            [] => 10,
            [n] => parse_count(n, "games")?,
            _ => return Err("usage: games [N]".into()),
        };
        let list = self.session.games(Page::first(limit));
        self.listed = list
            .games
            .iter()
            .map(|l| (l.occurrence.game, l.occurrence.move_number))
            .collect();
        let mut s = text::games_table(self.session.index(), &list, true);
        if !list.games.is_empty() {
            s.push_str(
                "(`move`: the number of the move played from the position; `replay N` replays \
                 the game in place N of this list, `replay id ID` the game with that id)\n",
            );
        }
        Ok(s)
    }

    fn cmd_replay(&mut self, args: &[&str]) -> CmdResult {
        let usage = "usage: replay N [move] (place N of the last `games` list) | replay id ID [move] (game id ID)";
        let move_number = |a: &str| {
            a.parse::<u32>()
                .map_err(|_| format!("{a:?} is not a move number"))
        };
        let (id, at) = match args {
            [w, id, rest @ ..] if w.eq_ignore_ascii_case("id") && rest.len() <= 1 => {
                let id: u32 = id.parse().map_err(|_| format!("{id:?} is not a game id"))?;
                let at = rest.first().map(|a| move_number(a)).transpose()?;
                (id, at.unwrap_or(0))
            }
            [n, rest @ ..] if rest.len() <= 1 => {
                let n: usize = match n.parse() {
                    Ok(n) if n > 0 => n,
                    _ => {
                        return Err(format!(
                            "{n:?} is not a place in the game list (1, 2, ...); {usage}"
                        ))
                    }
                };
                let Some(&(id, reached)) = self.listed.get(n - 1) else {
                    return Err(if self.listed.is_empty() {
                        "no game list: `games` lists the games of the position (or `replay id ID` replays game ID)".to_string()
                    } else {
                        format!(
                            "the last game list has {} games, not {n}",
                            self.listed.len()
                        )
                    });
                };
                let at = rest.first().map(|a| move_number(a)).transpose()?;
                (id, at.unwrap_or(reached))
            }
            _ => return Err(usage.into()),
        };
        let view = self.session.open_game(id, at).map_err(|e| e.to_string())?;
        Ok(replay_text(&view))
    }

    /// `import PATH...`: the paths, resolved against the current folder; each must exist.
    fn cmd_import(&self, args: &[&str]) -> Result<Vec<PathBuf>, String> {
        if args.is_empty() {
            return Err("usage: import PATH... (SGF files, archives or folders)".into());
        }
        args.iter()
            .map(|a| {
                let p = self.resolve(a);
                if p.exists() {
                    Ok(p)
                } else {
                    Err(format!("{}: no such file or folder", p.display()))
                }
            })
            .collect()
    }

    /// `ls [PATH]`: the folder's entries sorted by name, folders with a trailing `/`.
    fn cmd_ls(&self, args: &[&str]) -> CmdResult {
        let dir = match args {
            [] => self.cwd.clone(),
            [p] => self.resolve(p),
            _ => return Err("usage: ls [PATH]".into()),
        };
        if !dir.is_dir() {
            return if dir.exists() {
                Ok(format!("{}\n", dir.display()))
            } else {
                Err(format!("{}: no such file or folder", dir.display()))
            };
        }
        let read = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut names: Vec<String> = read
            .filter_map(|e| e.ok())
            .map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                if e.path().is_dir() {
                    format!("{name}/")
                } else {
                    name
                }
            })
            .collect();
        names.sort();
        Ok(names.iter().map(|n| format!("{n}\n")).collect())
    }

    /// `cd [PATH]`: the new current folder (the home folder without a path).
    fn cmd_cd(&mut self, args: &[&str]) -> CmdResult {
        let dir = match args {
            [] => std::env::var_os("HOME")
                .map(PathBuf::from)
                .ok_or("no home folder (HOME is not set)")?,
            [p] => self.resolve(p),
            _ => return Err("usage: cd [PATH]".into()),
        };
        let dir = dir
            .canonicalize()
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        if !dir.is_dir() {
            return Err(format!("{}: not a folder", dir.display()));
        }
        self.cwd = dir;
        Ok(format!("{}\n", self.cwd.display()))
    }

    /// A path as typed, relative to the current folder (`~/` is the home folder).
    fn resolve(&self, typed: &str) -> PathBuf {
        if let (Some(rest), Some(home)) = (typed.strip_prefix("~/"), std::env::var_os("HOME")) {
            return PathBuf::from(home).join(rest);
        }
        self.cwd.join(typed)
    }

    fn cmd_step(&mut self, args: &[&str], forward: bool) -> CmdResult {
        let n = match args {
            [] => 1,
            [n] => parse_count(n, if forward { "next" } else { "prev" })?,
            _ => {
                return Err(format!(
                    "usage: {} [n]",
                    if forward { "next" } else { "prev" }
                ))
            }
        };
        let view = self
            .session
            .step_game(n as u32, forward)
            .map_err(|e| e.to_string())?;
        Ok(replay_text(&view))
    }

    fn cmd_swap(&mut self, args: &[&str]) -> CmdResult {
        match args {
            [] => {}
            [w] if w.eq_ignore_ascii_case("on") => self.session.set_swap(true),
            [w] if w.eq_ignore_ascii_case("off") => self.session.set_swap(false),
            _ => return Err("usage: swap on|off".into()),
        }
        Ok(format!(
            "Colour swap: {}\n",
            if self.session.swap() { "on" } else { "off" }
        ))
    }
}

impl Shell<'_> {
    fn cmd_pattern(&mut self, args: &[&str]) -> CmdResult {
        let usage = "usage: pattern <rows> [L,T,R,B] [fixed] | pattern cut L,T,R,B";
        let (rows, rest) = match args {
            ["cut", region, rest @ ..] => {
                let r = pattern::parse_region(region).map_err(|e| format!("{e:#}"))?;
                let cut =
                    pattern::pattern_from_board(self.board(), r).map_err(|e| format!("{e:#}"))?;
                (cut.to_string(), rest)
            }
            [rows, rest @ ..] => (rows.to_string(), rest),
            [] => return Err(usage.into()),
        };
        let (mut area, mut fixed) = (None, false);
        for w in rest {
            match *w {
                "fixed" => fixed = true,
                a if area.is_none() && a.contains(',') => area = Some(a),
                _ => return Err(usage.into()),
            }
        }
        let req = PatternRequest::parse(&rows, area, fixed).map_err(|e| format!("{e:#}"))?;
        let req = PatternRequest {
            filter: self.session.filter().clone(),
            ..req
        };
        let index = self.session.index();
        let data = kifudex_core::index_file::IndexFile::pattern_of(index)
            .map_err(|e| format!("not a valid index: {e}"))?;
        let report = pattern::search(index, &data, &req);
        Ok(pattern::text::report(&req.query(), &report, self.marks, 20))
    }
}

/// A replayed game: its players, result and event, the board, where it stands.
fn replay_text(v: &GameView<'_>) -> String {
    let game = &v.game;
    let mut s = String::new();
    let header = format!(
        "Game {}: {} {} (B) - {} {} (W), {}, {} {}",
        game.id,
        game.black,
        game.black_rank,
        game.white,
        game.white_rank,
        game.date,
        result_text(game),
        game.event
    );
    let _ = writeln!(s, "{}", one_line(&header));
    let last = match v.last {
        Some((_, Move::Play(p))) => Some(p),
        _ => None,
    };
    s.push_str(&text::board_with_last(&v.board, &[], 0, last));
    let _ = write!(s, "Move {} of {}", v.at, v.moves);
    if let Some((c, m)) = v.last {
        let marked = if last.is_some() { " (marked)" } else { "" };
        let _ = write!(s, ", last {} {}{marked}", color_letter(c), Sgf(m));
    }
    if let Some((c, m)) = v.next {
        let _ = write!(s, ", next {} {}", color_letter(c), Sgf(m));
    }
    let _ = writeln!(s);
    s
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn no_args(cmd: &str, args: &[&str]) -> Result<(), String> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(format!("{cmd} takes no arguments"))
    }
}

fn parse_count(s: &str, what: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n > 0 && n <= 1_000_000 => Ok(n),
        _ => Err(format!("{what}: {s:?} is not a count (1 or more)")),
    }
}

fn parse_year(s: &str) -> Result<u16, String> {
    match s.parse::<u16>() {
        Ok(y) if (1..=9999).contains(&y) => Ok(y),
        _ => Err(format!("{s:?} is not a year")),
    }
}

/// Keeps an error message to one line.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn help_text() -> String {
    let mut s = String::new();
    for (usage, what) in HELP {
        let _ = writeln!(s, "  {usage:<28} {what}");
    }
    s
}

fn commands_text() -> String {
    let mut names: Vec<&str> = HELP
        .iter()
        .flat_map(|(usage, _)| usage.split(" | "))
        .filter_map(|u| u.split_whitespace().next())
        .collect();
    names.dedup();
    format!("{}\n", names.join(" "))
}

/// Where the shell's index comes from, and where `import` adds games.
pub enum IndexSource {
    /// An index file: `import` adds to it as `kifudex add` does ([`crate::build::add`]: the
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
                let report = crate::build::add(path, paths, false)?;
                Ok((crate::open_index_file(path)?, report))
            }
            IndexSource::Memory(sources) => {
                let (new, skipped) = crate::input::collect_sources(paths);
                let mut all = sources.clone();
                all.extend(new);
                let (bytes, report) = crate::build::build_in_memory(
                    all.clone(),
                    &skipped,
                    &crate::build::BuildOptions::default(),
                )?;
                *sources = all;
                Ok((bytes.into(), report))
            }
        }
    }
}

use crate::build::BuildReport;

/// What an import did, for the shell: games added, duplicates left out, the index's games,
/// and every skipped file, rejected game and game that ended early (its place and reason).
fn import_text(paths: &[PathBuf], before: u32, after: u32, report: &BuildReport) -> String {
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
/// start). After an `import` the index is opened again and the shell goes on with its
/// board, filter and current folder.
pub fn run(
    mut source: IndexSource,
    mut bytes: crate::IndexBytes,
    label: &str,
    predictor: Option<&Predictor<'_>>,
) -> anyhow::Result<()> {
    let mut reader = LineReader::new();
    let mut state = ShellState::default();
    let mut banner = true;
    loop {
        let (paths, before) = {
            let index = kifudex_core::index_file::IndexFile::open(&bytes)
                .map(|f| f.index)
                .map_err(|e| anyhow::anyhow!("{label}: not a valid index: {e}"))?;
            if banner {
                crate::print_stdout(&format!(
                    "kifudex shell: {label}, {} games. Type `help` for the commands.\n",
                    index.game_count()
                ))?;
                banner = false;
            }
            let mut shell = Shell::with_state(&index, state);
            if let Some(p) = predictor {
                shell.set_predictor(p);
            }
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
            (paths, index.game_count())
        };
        match source.import(&paths) {
            Ok((new_bytes, report)) => {
                bytes = new_bytes;
                let after = Index::open(&bytes).map_or(0, |i| i.game_count());
                crate::print_stdout(&import_text(&paths, before, after, &report))?;
            }
            // The index is as it was (an index file is replaced whole or not at all).
            Err(e) => crate::print_stdout(&format!("error: {}\n", one_line(&format!("{e:#}"))))?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifudex_core::{Point, Stone};

    fn text(shell: &mut Shell<'_>, line: &str) -> String {
        match shell.execute(line) {
            Outcome::Print(s) => s,
            other => panic!("{line:?}: {other:?}"),
        }
    }

    #[test]
    fn pattern_search_in_the_shell() {
        let bytes = crate::sample::sample_index().unwrap();
        let index = Index::open(&bytes).unwrap();
        let mut shell = Shell::new(&index);
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
        let index = Index::open(&bytes).unwrap();
        let mut hashes = Vec::new();
        for line in [
            "play pd dp pp",
            "play Q16 D4 Q4",
            "play PD DP PP",
            "play pd D4 PP",
        ] {
            let mut shell = Shell::new(&index);
            let out = text(&mut shell, line);
            assert!(out.contains("Total count: 7"), "{line}: {out}");
            hashes.push(shell.board().bgo_hashes().0[0]);
        }
        assert_eq!(hashes, [959678554; 4]);
    }

    #[test]
    fn letters_follow_the_search_and_a_bad_move_changes_nothing() {
        let bytes = crate::sample::sample_index().unwrap();
        let index = Index::open(&bytes).unwrap();
        let mut shell = Shell::new(&index);
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
        let (bytes, _) =
            crate::build::build_in_memory(sources, &[], &crate::build::BuildOptions::default())
                .unwrap();
        let index = Index::open(&bytes).unwrap();
        let mut shell = Shell::new(&index);
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
        let index = Index::open(&bytes).unwrap();
        let mut shell = Shell::new(&index);
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
        let index = Index::open(&bytes).unwrap();
        let mut shell = Shell::new(&index);
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
        let index = Index::open(&bytes).unwrap();
        let mut shell = Shell::new(&index);
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
