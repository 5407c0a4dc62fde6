//! What the shell holds between commands, on top of the explorer: a board to play on with
//! undo, which games count, the letters shown, the last game list, the game being
//! replayed, the current folder; and each command done with it ([`Shell::execute`]),
//! every answer asked of the explorer and written by the text printer.

use std::path::{Path, PathBuf};

use kifudex_core::board::Board;
use kifudex_core::notation::{parse_moves, NotationError};
use kifudex_core::{Color, Move, Point, Size};

use super::command::{self, Command, PatternRows, ReplayGame, MAX_MARKS};
use super::render;
use crate::explore::answer::{GameView, SearchAnswer};
use crate::explore::request::{
    GameFilter, GamesRequest, Page, PatternRequest, SearchRequest, SuggestRequest,
};
use crate::explore::{ExploreError, Explorer, PlayBoard};
use crate::pattern::pattern_from_board;
use crate::print::text;

/// What a command line asks the loop to do next.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Print this and read the next line.
    Print(String),
    /// Add the games under these paths (existing, resolved against the shell's current
    /// folder) to the index, open it again, and go on (`super::run` does).
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
            play: PlayBoard::new(Size::STANDARD),
            filter: GameFilter::default(),
            swap: false,
            marks: 12,
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
        }
    }
}

/// The game being replayed: its id and position.
#[derive(Copy, Clone, Debug)]
struct Viewing {
    game: u32,
    at: u32,
    moves: u32,
}

/// The shell over one explorer: its state, the last game list and the replayed game.
pub struct Shell<'a> {
    explorer: &'a Explorer<'a>,
    state: ShellState,
    /// The last `games` list: each game's id and the moves played before the position.
    listed: Vec<(u32, u32)>,
    viewing: Option<Viewing>,
}

type CmdResult = Result<String, String>;

/// The shell's words for a refusal of the explorer.
fn words(e: ExploreError) -> String {
    match e {
        ExploreError::NoPredictor => "no move predictor: start the shell with --predictor BOOK \
                                      (a book built with --predictor)"
            .into(),
        e => e.to_string(),
    }
}

impl<'a> Shell<'a> {
    /// A shell on the empty 19x19 board.
    pub fn new(explorer: &'a Explorer<'a>) -> Shell<'a> {
        Shell::with_state(explorer, ShellState::default())
    }

    /// A shell on `explorer` that goes on from `state` (see [`Shell::into_state`]).
    pub fn with_state(explorer: &'a Explorer<'a>, state: ShellState) -> Shell<'a> {
        Shell {
            explorer,
            state,
            listed: Vec::new(),
            viewing: None,
        }
    }

    /// What the shell keeps when its index is replaced.
    pub fn into_state(self) -> ShellState {
        self.state
    }

    /// The folder relative paths start from.
    pub fn cwd(&self) -> &Path {
        &self.state.cwd
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        self.state.play.board()
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.state.play.to_move()
    }

    /// Runs one command line. Errors come back as one line starting with `error: `.
    pub fn execute(&mut self, line: &str) -> Outcome {
        let result = match command::parse(line) {
            Ok(Command::Quit) => return Outcome::Quit,
            Ok(Command::Import(paths)) => match self.import(&paths) {
                Ok(paths) => return Outcome::Import(paths),
                Err(e) => Err(e),
            },
            Ok(c) => self.run(c),
            Err(e) => Err(e),
        };
        Outcome::Print(match result {
            Ok(s) => s,
            Err(e) => render::error(&e),
        })
    }

    fn run(&mut self, c: Command) -> CmdResult {
        match c {
            Command::Nothing => Ok(String::new()),
            Command::Board { reset } => {
                if reset {
                    self.state.play.reset();
                }
                let mut s = text::board(self.board(), &[], self.last_point());
                s += &render::moves_played(self.state.play.moves_played(), self.to_move());
                Ok(s)
            }
            Command::Play(words) => self.play(&words),
            Command::Undo(n) => {
                if self.state.play.moves_played() == 0 {
                    return Err("nothing to undo".into());
                }
                self.state.play.undo(n);
                self.search_text()
            }
            Command::Search => self.search_text(),
            Command::Rotations => Ok(text::rotations(self.board())),
            Command::Year(years) => {
                if let Some((from, to)) = years {
                    self.state.filter.year_from = from;
                    self.state.filter.year_to = to;
                }
                Ok(render::year_filter(&self.state.filter))
            }
            Command::Filter(change) => {
                if let Some(change) = change {
                    render::change_filter(&mut self.state.filter, change);
                }
                Ok(render::filters(&self.state.filter))
            }
            Command::Marks(n) => {
                if let Some(n) = n {
                    self.state.marks = n;
                }
                Ok(render::marks(self.state.marks))
            }
            Command::Predict(n) => {
                let play = &self.state.play;
                let q = SuggestRequest {
                    board: play.board().clone(),
                    to_move: play.to_move(),
                    history: play.last_moves(),
                    max: n,
                };
                let answer = self.explorer.suggest(&q).map_err(words)?;
                Ok(text::suggestions(&answer))
            }
            Command::Games(limit) => self.games(limit),
            Command::Replay(which) => self.replay(which),
            Command::Step { n, forward } => self.step(n as u32, forward),
            Command::Swap(on) => {
                if let Some(on) = on {
                    self.state.swap = on;
                }
                Ok(render::swap(self.state.swap))
            }
            Command::Pattern { rows, area, fixed } => self.pattern(rows, area.as_deref(), fixed),
            Command::Ls(path) => self.ls(path.as_deref()),
            Command::Cd(path) => self.cd(path.as_deref()),
            Command::Cwd => Ok(format!("{}\n", self.state.cwd.display())),
            Command::Help => Ok(render::help()),
            Command::Commands => Ok(render::commands()),
            // Answered by `execute`.
            Command::Quit | Command::Import(_) => Ok(String::new()),
        }
    }

    /// The next moves of `board` as the shell counts them (its filter and colour swap).
    fn search(&self, board: &Board) -> Result<SearchAnswer, String> {
        let q = SearchRequest {
            at: board.clone().into(),
            swap: self.state.swap,
            filter: self.state.filter.clone(),
        };
        self.explorer.search(&q).map_err(words)
    }

    /// Plays the words' moves on a copy of the board: a bad move anywhere leaves the board
    /// as it was.
    fn play(&mut self, words: &[String]) -> CmdResult {
        let mut play: PlayBoard = self.state.play.clone();
        for (i, word) in words.iter().enumerate() {
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
                    crate::position::color_name(color),
                    e.words()
                )
            })?;
        }
        self.state.play = play;
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
                if i >= self.state.marks {
                    return Err(format!(
                        "only {} letters are shown (see `marks`)",
                        self.state.marks
                    ));
                }
                let next = self.search(board)?;
                return match next.next.get(i) {
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
                        Ok(Move::Play(Point::new(u8::MAX, u8::MAX)))
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

    /// The point of the last move played on the board (none after a pass or undo to the
    /// start).
    fn last_point(&self) -> Option<Point> {
        match self.state.play.last_moves().last {
            Some(Move::Play(p)) => Some(p),
            _ => None,
        }
    }

    fn search_text(&self) -> CmdResult {
        let answer = self.search(self.board())?;
        let marks = self.state.marks;
        let mut s = text::search(&answer, marks, marks, self.last_point());
        s += &render::opening(&answer);
        s += &render::filter_notes(&self.state.filter, self.state.swap);
        s += &render::to_move(self.to_move());
        Ok(s)
    }

    fn games(&mut self, limit: usize) -> CmdResult {
        let q = GamesRequest {
            at: self.board().clone().into(),
            swap: self.state.swap,
            filter: self.state.filter.clone(),
            sort: Default::default(),
            page: Page::first(limit),
        };
        let answer = self.explorer.games(&q).map_err(words)?;
        // The position stood after `move_number - 1` moves.
        self.listed = answer
            .games
            .iter()
            .map(|g| (g.id, g.move_number.saturating_sub(1)))
            .collect();
        let mut s = text::games(&answer, true);
        if !answer.games.is_empty() {
            s.push_str(render::GAMES_HINT);
        }
        Ok(s)
    }

    fn replay(&mut self, which: ReplayGame) -> CmdResult {
        let (id, at) = match which {
            ReplayGame::Id { id, at } => (id, at.unwrap_or(0)),
            ReplayGame::Listed { n, at } => {
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
                let at = at.as_deref().map(command::move_number).transpose()?;
                (id, at.unwrap_or(reached))
            }
        };
        let view = self.view(id, at)?;
        Ok(text::game_view(&view))
    }

    /// Opens game `id` at its position after `at` moves.
    fn view(&mut self, id: u32, at: u32) -> Result<GameView<'a>, String> {
        let view = self.explorer.view_game(id, at).map_err(words)?;
        self.viewing = Some(Viewing {
            game: id,
            at,
            moves: view.moves,
        });
        Ok(view)
    }

    /// Moves the replayed game `n` moves forward (or back), stopping at its ends.
    fn step(&mut self, n: u32, forward: bool) -> CmdResult {
        let v = self
            .viewing
            .ok_or("no game is being replayed (use `replay <game id>` first)")?;
        let to = if forward {
            v.at.saturating_add(n).min(v.moves)
        } else {
            v.at.saturating_sub(n)
        };
        if to == v.at {
            return Err(if forward {
                format!("game {} ends after move {}", v.game, v.moves)
            } else {
                "already at the start of the game".to_string()
            });
        }
        let view = self.view(v.game, to)?;
        Ok(text::game_view(&view))
    }

    fn pattern(&self, rows: PatternRows, area: Option<&str>, fixed: bool) -> CmdResult {
        let rows = match rows {
            PatternRows::Typed(rows) => rows,
            PatternRows::Cut(r) => pattern_from_board(self.board(), r)
                .map_err(|e| format!("{e:#}"))?
                .to_string(),
        };
        let req = PatternRequest::parse(&rows, area, fixed).map_err(|e| format!("{e:#}"))?;
        let req = PatternRequest {
            filter: self.state.filter.clone(),
            ..req
        };
        Ok(text::pattern(
            &self.explorer.pattern(&req),
            self.state.marks,
            20,
        ))
    }

    /// `import PATH...`: the paths, resolved against the current folder; each must exist.
    fn import(&self, args: &[String]) -> Result<Vec<PathBuf>, String> {
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
    fn ls(&self, path: Option<&str>) -> CmdResult {
        let dir = match path {
            None => self.state.cwd.clone(),
            Some(p) => self.resolve(p),
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
    fn cd(&mut self, path: Option<&str>) -> CmdResult {
        let dir = match path {
            None => std::env::var_os("HOME")
                .map(PathBuf::from)
                .ok_or("no home folder (HOME is not set)")?,
            Some(p) => self.resolve(p),
        };
        let dir = dir
            .canonicalize()
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        if !dir.is_dir() {
            return Err(format!("{}: not a folder", dir.display()));
        }
        self.state.cwd = dir;
        Ok(format!("{}\n", self.state.cwd.display()))
    }

    /// A path as typed, relative to the current folder (`~/` is the home folder).
    fn resolve(&self, typed: &str) -> PathBuf {
        if let (Some(rest), Some(home)) = (typed.strip_prefix("~/"), std::env::var_os("HOME")) {
            return PathBuf::from(home).join(rest);
        }
        self.state.cwd.join(typed)
    }
}
