//! The GTP engine's state and its commands: a board with its history (for `undo` and
//! `printsgf`), the komi, and the explorer (with a filter of games and, with `--book`, a
//! move predictor) that `genmove` and the analysis commands ask.
//!
//! [`Engine::handle`] answers one input line and never panics: every problem is a `?`
//! answer.

use std::collections::BTreeSet;
use std::time::Duration;

use kifudex_core::board::Board;
use kifudex_core::predict::History;
use kifudex_core::{Color, Event, Move, Replay, Size, Stone};

use super::analysis::{self, Format};
use super::database::{self, DbMove};
use super::protocol::{self, failure, parse_color, parse_vertex, success, vertex, RawLine};
use crate::explore::request::{GameFilter, SuggestRequest};
use crate::explore::{ExploreError, Explorer};
use crate::sgf::{self, GameInfo};

/// The moves and setup stones a game can hold.
pub const HISTORY: usize = 4096;

/// The commands, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "undo",
    "genmove",
    "set_free_handicap",
    "list_stones",
    "showboard",
    "loadsgf",
    "printsgf",
    "final_score",
    "time_settings",
    "time_left",
    "lz-analyze",
    "kata-analyze",
    "gogui-analyze_commands",
    DATABASE_MOVES,
];

/// The GoGui analysis command: the database's moves as labels on the board.
pub const DATABASE_MOVES: &str = "kifudex-database_moves";

/// What one input line asks of the serving loop.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Write this answer.
    Answer(String),
    /// Write this answer, then stop.
    Quit(String),
    /// Write `head`, then `line` and a line feed every `interval` (once when `None`) until
    /// the next input line arrives, then an empty line.
    Analyze {
        /// `=id` and a line feed.
        head: String,
        /// The analysis line.
        line: String,
        /// How often it is repeated.
        interval: Option<Duration>,
    },
}

/// The board and its history.
#[derive(Clone, Debug)]
struct Game {
    replay: Box<Replay<HISTORY>>,
    to_move: Color,
}

impl Game {
    fn new(size: Size) -> Game {
        Game {
            replay: Box::new(Replay::new(size)),
            to_move: Color::Black,
        }
    }

    fn board(&self) -> &Board {
        self.replay.board()
    }

    fn size(&self) -> Size {
        self.board().size()
    }

    fn play(&mut self, color: Color, mv: Move) -> Result<(), String> {
        self.replay
            .play(color, mv)
            .map_err(|e| format!("illegal move ({})", e.words()))?;
        self.to_move = color.opponent();
        Ok(())
    }

    fn last_moves(&self) -> History {
        let plays: Vec<Move> = self
            .replay
            .steps()
            .filter_map(|e| e.play().map(|(_, mv)| mv))
            .collect();
        let n = plays.len();
        History {
            last: n.checked_sub(1).map(|i| plays[i]),
            before: n.checked_sub(2).map(|i| plays[i]),
        }
    }
}

/// The engine (see the module documentation).
pub struct Engine<'a> {
    explorer: &'a Explorer<'a>,
    filter: GameFilter,
    /// The board sizes the index holds, found at the first `boardsize`.
    sizes: Option<BTreeSet<(u8, u8)>>,
    game: Game,
    komi: f64,
}

impl<'a> Engine<'a> {
    /// An engine on the empty 19x19 board, komi 0, answering from the games of the
    /// explorer's index that `filter` keeps; `genmove` falls back on the explorer's move
    /// predictor (if it has one) where no game continues.
    pub fn new(explorer: &'a Explorer<'a>, filter: GameFilter) -> Engine<'a> {
        Engine {
            explorer,
            filter,
            sizes: None,
            game: Game::new(Size::STANDARD),
            komi: 0.0,
        }
    }

    /// The position.
    pub fn board(&self) -> &Board {
        self.game.board()
    }

    /// The colour to move.
    pub fn to_move(&self) -> Color {
        self.game.to_move
    }

    /// Answers one input line; `None` for a line without a command.
    pub fn handle(&mut self, line: &RawLine) -> Option<Step> {
        if line.overlong {
            let id = protocol::id_of(&line.bytes);
            return Some(Step::Answer(failure(
                id.as_deref(),
                &format!("line too long (more than {} bytes)", protocol::MAX_LINE),
            )));
        }
        let cmd = protocol::parse(&line.bytes)?;
        let id = cmd.id.as_deref();
        let args = &cmd.args;
        let answer = |r: Result<String, String>| match r {
            Ok(text) => Step::Answer(success(id, &text)),
            Err(message) => Step::Answer(failure(id, &message)),
        };
        Some(match cmd.name.as_str() {
            "quit" => Step::Quit(success(id, "")),
            "lz-analyze" | "kata-analyze" => {
                let format = if cmd.name == "lz-analyze" {
                    Format::LeelaZero
                } else {
                    Format::KataGo
                };
                match self.analyze(args, format) {
                    Ok((line, interval)) => Step::Analyze {
                        head: format!("={}\n", id.unwrap_or("")),
                        line,
                        interval,
                    },
                    Err(message) => Step::Answer(failure(id, &message)),
                }
            }
            name => answer(self.command(name, args)),
        })
    }

    /// Every command but `quit` and the analysis commands.
    fn command(&mut self, name: &str, args: &[String]) -> Result<String, String> {
        match name {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("kifudex".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(
                if args.first().is_some_and(|a| COMMANDS.contains(&a.as_str())) {
                    "true"
                } else {
                    "false"
                }
                .into(),
            ),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "boardsize" => {
                let n: u8 = arg(args, 0)?
                    .parse()
                    .map_err(|_| "boardsize not an integer".to_owned())?;
                let size = self.held_size(n).ok_or("unacceptable size")?;
                self.game = Game::new(size);
                Ok(String::new())
            }
            "clear_board" => {
                self.game = Game::new(self.game.size());
                Ok(String::new())
            }
            "komi" => {
                let k: f64 = arg(args, 0)?
                    .parse()
                    .ok()
                    .filter(|k: &f64| k.is_finite() && k.abs() <= 1000.0)
                    .ok_or("komi not a float")?;
                self.komi = k;
                Ok(String::new())
            }
            "play" => {
                let (color, mv) = self.color_and_vertex(args)?;
                self.game.play(color, mv)?;
                Ok(String::new())
            }
            "undo" => match self.game.replay.len().checked_sub(1) {
                Some(last) if matches!(self.game.replay.step(last), Some(Event::Play { .. })) => {
                    if let Some(Event::Play { color, .. }) = self.game.replay.undo() {
                        self.game.to_move = color;
                    }
                    Ok(String::new())
                }
                _ => Err("cannot undo".into()),
            },
            "genmove" => {
                let color = parse_color(arg(args, 0)?).ok_or("invalid color")?;
                let mv = self.choose(color)?;
                self.game.play(color, mv)?;
                Ok(vertex(mv, self.game.size()))
            }
            "set_free_handicap" => self.set_free_handicap(args),
            "list_stones" => {
                let color = parse_color(arg(args, 0)?).ok_or("invalid color")?;
                let size = self.game.size();
                let stones = self.board().stones(color);
                Ok(stones
                    .iter()
                    .map(|p| vertex(Move::Play(p), size))
                    .collect::<Vec<_>>()
                    .join(" "))
            }
            "showboard" => Ok(showboard(self.board())),
            "loadsgf" => self.loadsgf(args),
            "printsgf" => Ok(self.sgf()),
            "final_score" => Ok(self.final_score()),
            "time_settings" | "time_left" => Ok(String::new()),
            "gogui-analyze_commands" => Ok(format!("gfx/Database moves/{DATABASE_MOVES} %c")),
            DATABASE_MOVES => {
                let color = match args.first() {
                    Some(a) => parse_color(a).ok_or("invalid color")?,
                    None => self.game.to_move,
                };
                let moves = self.database_moves(color)?;
                Ok(analysis::gogui_gfx(&moves, color, self.game.size()))
            }
            "" => Err("no command after the id".into()),
            _ => Err("unknown command".into()),
        }
    }

    /// The database's moves of `color` in the position.
    fn database_moves(&self, color: Color) -> Result<Vec<DbMove>, String> {
        database::next_moves(self.explorer, self.board(), &self.filter, color)
            .map_err(|e| e.to_string())
    }

    /// `lz-analyze` and `kata-analyze`: the line and its interval.
    fn analyze(
        &self,
        args: &[String],
        format: Format,
    ) -> Result<(String, Option<Duration>), String> {
        let req = analysis::parse_request(args, self.game.to_move)?;
        let moves = self.database_moves(req.color)?;
        let line = analysis::info_line(&moves, req.color, self.game.size(), format, req.max_moves);
        Ok((line, req.interval))
    }

    /// `genmove`'s move: the most played legal database move, else the predictor's best
    /// legal guess, else a pass.
    fn choose(&self, color: Color) -> Result<Move, String> {
        let board = self.board();
        let legal = |mv: Move| self.game.replay.try_play(color, mv).is_ok();
        if let Some(m) = self.database_moves(color)?.iter().find(|m| legal(m.mv)) {
            return Ok(m.mv);
        }
        let q = SuggestRequest {
            board: board.clone(),
            to_move: color,
            history: self.game.last_moves(),
            max: 0,
        };
        match self.explorer.suggest(&q) {
            Ok(guesses) => {
                if let Some(g) = guesses.moves.iter().find(|g| legal(Move::Play(g.point))) {
                    return Ok(Move::Play(g.point));
                }
            }
            Err(ExploreError::NoPredictor) => {}
            Err(e) => return Err(e.to_string()),
        }
        Ok(Move::Pass)
    }

    /// The square size `n` if the index holds games of it.
    fn held_size(&mut self, n: u8) -> Option<Size> {
        let explorer = self.explorer;
        let sizes = self.sizes.get_or_insert_with(|| explorer.board_sizes());
        sizes.contains(&(n, n)).then(|| Size::square(n)).flatten()
    }

    fn color_and_vertex(&self, args: &[String]) -> Result<(Color, Move), String> {
        let color = parse_color(arg(args, 0)?).ok_or("invalid color or coordinate")?;
        let mv = parse_vertex(arg(args, 1)?, self.game.size())
            .map_err(|_| "invalid color or coordinate".to_owned())?;
        Ok((color, mv))
    }

    /// `set_free_handicap v1 v2 ...`: black stones on the empty board, White to move.
    fn set_free_handicap(&mut self, args: &[String]) -> Result<String, String> {
        if !self.game.replay.is_empty() || self.board().stone_count() != 0 {
            return Err("board not empty".into());
        }
        let size = self.game.size();
        let mut game = Game::new(size);
        let mut seen = BTreeSet::new();
        for a in args {
            let Ok(Move::Play(p)) = parse_vertex(a, size) else {
                return Err("bad vertex list".into());
            };
            if !seen.insert(p.index19()) {
                return Err("bad vertex list".into());
            }
            game.replay
                .set_stone(p, Stone::Black)
                .map_err(|_| "bad vertex list".to_owned())?;
        }
        if seen.len() < 2 || seen.len() >= size.points() {
            return Err("bad vertex list".into());
        }
        game.to_move = Color::White;
        self.game = game;
        Ok(String::new())
    }

    /// `loadsgf FILE [N]`: the first game of the file, its setup and moves up to move
    /// `N` (the position before move N is played, as the protocol counts; all of them
    /// without `N`). Answers the colour to move, as GNU Go does.
    fn loadsgf(&mut self, args: &[String]) -> Result<String, String> {
        let path = arg(args, 0)?;
        let before: Option<usize> = match args.get(1) {
            None => None,
            Some(n) => Some(
                n.parse()
                    .ok()
                    .filter(|&n: &usize| n >= 1)
                    .ok_or("move number must be a positive integer")?,
            ),
        };
        let limits = crate::input::Limits::DEFAULT;
        let bytes = crate::input::read_record_file(std::path::Path::new(path), &limits)
            .map_err(|e| format!("cannot load file {path:?} ({e})"))?;
        let parsed = sgf::parse_file(&bytes, path, None);
        let Some(record) = parsed.games.into_iter().next() else {
            let why = parsed
                .rejected
                .first()
                .map_or("no game in it".to_owned(), |r| r.to_string());
            return Err(format!("cannot load file {path:?} ({why})"));
        };
        if !record.size.is_square() || self.held_size(record.size.width()).is_none() {
            return Err(format!(
                "unacceptable size ({}x{}, which the index holds no game of)",
                record.size.width(),
                record.size.height()
            ));
        }
        let mut game = Game::new(record.size);
        let mut played = 0;
        let mut next = None;
        for ev in &record.events {
            match *ev {
                Event::Setup { point, stone } => {
                    game.replay
                        .set_stone(point, stone)
                        .map_err(|e| format!("cannot load file {path:?} (setup: {e})"))?;
                }
                Event::Play { color, mv } => {
                    if before.is_some_and(|n| played + 1 >= n) {
                        next = Some(color);
                        break;
                    }
                    game.replay.play(color, mv).map_err(|e| {
                        format!(
                            "cannot load file {path:?} (move {}, {} {}: {})",
                            played + 1,
                            protocol::color_letter(color),
                            vertex(mv, record.size),
                            e.words()
                        )
                    })?;
                    game.to_move = color.opponent();
                    played += 1;
                }
            }
        }
        if let Some(c) = next {
            game.to_move = c;
        } else if played == 0 {
            let board = game.board();
            let only_black =
                board.stones(Color::White).is_empty() && !board.stones(Color::Black).is_empty();
            game.to_move = if only_black {
                Color::White
            } else {
                Color::Black
            };
        }
        self.game = game;
        Ok(match self.game.to_move {
            Color::Black => "black",
            Color::White => "white",
        }
        .into())
    }

    /// The game so far as SGF: size, komi, setup stones and moves.
    fn sgf(&self) -> String {
        let info = GameInfo {
            komi: Some((self.komi * 100.0).round() as i32),
            ..GameInfo::default()
        };
        let events: Vec<Event> = self.game.replay.steps().collect();
        sgf::write_game(self.game.size(), &info, &events)
            .trim_end()
            .to_owned()
    }

    /// The area score with the komi: every stone on the board counts as alive.
    fn final_score(&self) -> String {
        let (b, w) = self.board().area_score();
        let diff = b as f64 - w as f64 - self.komi;
        let text = |d: f64| {
            if d.fract() == 0.0 {
                format!("{d:.0}")
            } else {
                format!("{d}")
            }
        };
        if diff > 0.0 {
            format!("B+{}", text(diff))
        } else if diff < 0.0 {
            format!("W+{}", text(-diff))
        } else {
            "0".into()
        }
    }
}

/// Argument `i`, or the protocol's error for a missing one.
fn arg(args: &[String], i: usize) -> Result<&str, String> {
    args.get(i)
        .map(String::as_str)
        .ok_or_else(|| "missing argument".to_owned())
}

/// The board as GNU Go shows it: column letters above and below, row numbers on both
/// sides, `X` for Black, `O` for White, `.` for an empty point.
pub fn showboard(board: &Board) -> String {
    let size = board.size();
    let (w, h) = (size.width(), size.height());
    let letters: String = (0..w)
        .filter_map(kifudex_core::notation::human_column_letter)
        .map(|c| format!(" {c}"))
        .collect();
    let mut out = format!("\n  {letters}\n");
    for y in 0..h {
        let row = h - y;
        out.push_str(&format!("{row:>2}"));
        for x in 0..w {
            out.push(' ');
            out.push(match board.get(kifudex_core::Point::new(x, y)) {
                Stone::Black => 'X',
                Stone::White => 'O',
                Stone::Empty => '.',
            });
        }
        out.push_str(&format!(" {row}\n"));
    }
    out.push_str(&format!("  {letters}"));
    out
}
