//! The shell's command lines: each read into a [`Command`] (its words checked, counts and
//! years parsed) or refused with a one-line reason; and the commands' help.

use kifudex_core::pattern::Rect;

use kifudex_core::Color;

use crate::explore::request::{parse_komi, parse_month, Rank, RankRange};
use crate::pattern::parse_region;

/// What the line reader passes on for a line that is not UTF-8 (one error line, then go on).
pub const NOT_UTF8: &str = "\u{1}not-utf8";

/// The most letters a board can show (`a`-`z`, `A`-`Z`).
pub const MAX_MARKS: usize = 52;

/// The commands, with their arguments and what they do (for `help`).
pub const HELP: &[(&str, &str)] = &[
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
    (
        "filter [rank MIN MAX | rank-of B|W|both | komi K | rules WORD | event WORDS | from YYYY-MM | to YYYY-MM] [off] | filter off",
        "count only games matching in search, games and pattern: both players' ranks within MIN..MAX (`-` for no bound; `rank-of` bounds one player), komi, rules or event containing the words, dates by month; `filter NAME off` drops one, `filter off` all (years too); alone: show the filters",
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

/// Where a pattern's rows come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternRows {
    /// Typed (`..X/.O./...`).
    Typed(String),
    /// The rectangle of the board (`pattern cut L,T,R,B`).
    Cut(Rect),
}

/// Which game `replay` opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayGame {
    /// Place `n` (from 1) of the last game list, at the position searched or at the move
    /// number `at` (read once the list has the game).
    Listed {
        /// The place.
        n: usize,
        /// The move number as typed.
        at: Option<String>,
    },
    /// Game `id`, at the start or at move number `at`.
    Id {
        /// The game id.
        id: u32,
        /// The move number.
        at: Option<u32>,
    },
}

/// A change of the filters (`filter ...`); `None` drops that filter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FilterChange {
    /// `filter off`: every filter dropped, years too.
    Off,
    /// `filter rank MIN MAX` (`-` for no bound).
    Ranks(RankRange),
    /// `filter rank-of B|W|both`.
    RankOf(Option<Color>),
    /// `filter komi K`.
    Komi(Option<i32>),
    /// `filter rules WORD`.
    Rules(Option<String>),
    /// `filter event WORDS`.
    Event(Option<String>),
    /// `filter from YYYY-MM`.
    From(Option<u32>),
    /// `filter to YYYY-MM`.
    To(Option<u32>),
}

/// `filter ...`'s arguments.
fn filter_change(args: &[&str]) -> Result<Option<FilterChange>, String> {
    let off = |w: &str| w.eq_ignore_ascii_case("off");
    let rank = |w: &str| -> Result<Option<Rank>, String> {
        if w == "-" {
            Ok(None)
        } else {
            w.parse::<Rank>().map(Some)
        }
    };
    Ok(Some(match args {
        [] => return Ok(None),
        [w] if off(w) => FilterChange::Off,
        ["rank", w] if off(w) => FilterChange::Ranks(RankRange::default()),
        ["rank", min, max] => {
            let r = RankRange {
                min: rank(min)?,
                max: rank(max)?,
            };
            if let (Some(a), Some(b)) = (r.min, r.max) {
                if a > b {
                    return Err(format!("rank range {a} to {b} is empty"));
                }
            }
            FilterChange::Ranks(r)
        }
        ["rank-of", w] if off(w) || w.eq_ignore_ascii_case("both") => FilterChange::RankOf(None),
        ["rank-of", w] if w.eq_ignore_ascii_case("b") => FilterChange::RankOf(Some(Color::Black)),
        ["rank-of", w] if w.eq_ignore_ascii_case("w") => FilterChange::RankOf(Some(Color::White)),
        ["komi", w] if off(w) => FilterChange::Komi(None),
        ["komi", k] => FilterChange::Komi(Some(parse_komi(k)?)),
        ["rules", w] if off(w) => FilterChange::Rules(None),
        ["rules", words @ ..] if !words.is_empty() => FilterChange::Rules(Some(words.join(" "))),
        ["event", w] if off(w) => FilterChange::Event(None),
        ["event", words @ ..] if !words.is_empty() => FilterChange::Event(Some(words.join(" "))),
        ["from", w] if off(w) => FilterChange::From(None),
        ["from", m] => FilterChange::From(Some(parse_month(m, false)?)),
        ["to", w] if off(w) => FilterChange::To(None),
        ["to", m] => FilterChange::To(Some(parse_month(m, true)?)),
        _ => {
            return Err(format!(
                "usage: {}",
                HELP.iter()
                    .find(|h| h.0.starts_with("filter"))
                    .map_or("filter", |h| h.0)
            ))
        }
    }))
}

/// One command line, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An empty line.
    Nothing,
    /// `exit`, `quit`.
    Quit,
    /// `board [reset]`.
    Board {
        /// Empty the board first.
        reset: bool,
    },
    /// `play <moves...>`: the move words (comma-separated lists split).
    Play(Vec<String>),
    /// `undo [n]`.
    Undo(usize),
    /// `search`.
    Search,
    /// `rotations`.
    Rotations,
    /// `year`: show the filter (`None`), or set it (`year off`: no bounds).
    Year(Option<(Option<u16>, Option<u16>)>),
    /// `filter ...`: show (`None`) or change the filters.
    Filter(Option<FilterChange>),
    /// `marks [N]`: show (`None`) or set.
    Marks(Option<usize>),
    /// `predict [N]`.
    Predict(usize),
    /// `games [N]`.
    Games(usize),
    /// `replay ...`.
    Replay(ReplayGame),
    /// `next [n]` (`forward`) or `prev [n]`.
    Step {
        /// Moves.
        n: usize,
        /// Forward.
        forward: bool,
    },
    /// `swap [on|off]`: show (`None`) or set.
    Swap(Option<bool>),
    /// `pattern <rows> [L,T,R,B] [fixed]`, `pattern cut L,T,R,B ...`.
    Pattern {
        /// The rows.
        rows: PatternRows,
        /// The area as typed.
        area: Option<String>,
        /// Colours only as given.
        fixed: bool,
    },
    /// `import PATH...`, the paths as typed.
    Import(Vec<String>),
    /// `ls [PATH]`.
    Ls(Option<String>),
    /// `cd [PATH]`.
    Cd(Option<String>),
    /// `cwd`.
    Cwd,
    /// `help`.
    Help,
    /// `commands`.
    Commands,
}

/// Reads a command line; a refusal is one line.
pub fn parse(line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&cmd, args)) = words.split_first() else {
        return Ok(Command::Nothing);
    };
    Ok(match cmd.to_ascii_lowercase().as_str() {
        NOT_UTF8 => return Err("the line is not UTF-8 text".into()),
        "exit" | "quit" => Command::Quit,
        "board" => match args {
            [] => Command::Board { reset: false },
            [w] if w.eq_ignore_ascii_case("reset") => Command::Board { reset: true },
            _ => return Err("usage: board [reset]".into()),
        },
        "play" => {
            if args.is_empty() {
                return Err("usage: play <moves...> (pd, Q16, PD, pass, or a letter a-z)".into());
            }
            // Words, and comma-separated lists of them (`play pd,dp Q4`).
            Command::Play(
                args.iter()
                    .flat_map(|w| w.split(','))
                    .filter(|w| !w.is_empty())
                    .map(str::to_owned)
                    .collect(),
            )
        }
        "undo" => Command::Undo(match args {
            [] => 1,
            [n] => parse_count(n, "undo")?,
            _ => return Err("usage: undo [n]".into()),
        }),
        "search" => no_args(cmd, args).map(|_| Command::Search)?,
        "rotations" => no_args(cmd, args).map(|_| Command::Rotations)?,
        "year" => Command::Year(match args {
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
        }),
        "filter" => Command::Filter(filter_change(args)?),
        "marks" => Command::Marks(match args {
            [n] => {
                let n = parse_count(n, "marks")?;
                if n > MAX_MARKS {
                    return Err(format!("at most {MAX_MARKS} marks (a-z, A-Z)"));
                }
                Some(n)
            }
            _ => None,
        }),
        "predict" => Command::Predict(match args {
            [] => 5,
            [n] => parse_count(n, "predict")?,
            _ => return Err("usage: predict [N]".into()),
        }),
        "games" => Command::Games(match args {
            [] => 10,
            [n] => parse_count(n, "games")?,
            _ => return Err("usage: games [N]".into()),
        }),
        "replay" => Command::Replay(replay(args)?),
        "next" => step(args, true)?,
        "prev" => step(args, false)?,
        "swap" => Command::Swap(match args {
            [] => None,
            [w] if w.eq_ignore_ascii_case("on") => Some(true),
            [w] if w.eq_ignore_ascii_case("off") => Some(false),
            _ => return Err("usage: swap on|off".into()),
        }),
        "pattern" => pattern(args)?,
        "import" => {
            if args.is_empty() {
                return Err("usage: import PATH... (SGF files, archives or folders)".into());
            }
            Command::Import(args.iter().map(|a| a.to_string()).collect())
        }
        "ls" => match args {
            [] => Command::Ls(None),
            [p] => Command::Ls(Some(p.to_string())),
            _ => return Err("usage: ls [PATH]".into()),
        },
        "cd" => match args {
            [] => Command::Cd(None),
            [p] => Command::Cd(Some(p.to_string())),
            _ => return Err("usage: cd [PATH]".into()),
        },
        "cwd" => no_args(cmd, args).map(|_| Command::Cwd)?,
        "help" => Command::Help,
        "commands" => Command::Commands,
        _ => return Err(format!("unknown command {cmd:?} (try `help`)")),
    })
}

/// `next [n]` or `prev [n]`.
fn step(args: &[&str], forward: bool) -> Result<Command, String> {
    let name = if forward { "next" } else { "prev" };
    let n = match args {
        [] => 1,
        [n] => parse_count(n, name)?,
        _ => return Err(format!("usage: {name} [n]")),
    };
    Ok(Command::Step { n, forward })
}

/// The usage of `replay`.
pub const REPLAY_USAGE: &str =
    "usage: replay N [move] (place N of the last `games` list) | replay id ID [move] (game id ID)";

fn replay(args: &[&str]) -> Result<ReplayGame, String> {
    match args {
        [w, id, rest @ ..] if w.eq_ignore_ascii_case("id") && rest.len() <= 1 => {
            let id: u32 = id.parse().map_err(|_| format!("{id:?} is not a game id"))?;
            let at = rest.first().map(|a| move_number(a)).transpose()?;
            Ok(ReplayGame::Id { id, at })
        }
        [n, rest @ ..] if rest.len() <= 1 => {
            let n: usize = match n.parse() {
                Ok(n) if n > 0 => n,
                _ => {
                    return Err(format!(
                        "{n:?} is not a place in the game list (1, 2, ...); {REPLAY_USAGE}"
                    ))
                }
            };
            Ok(ReplayGame::Listed {
                n,
                at: rest.first().map(|a| a.to_string()),
            })
        }
        _ => Err(REPLAY_USAGE.into()),
    }
}

fn pattern(args: &[&str]) -> Result<Command, String> {
    let usage = "usage: pattern <rows> [L,T,R,B] [fixed] | pattern cut L,T,R,B";
    let (rows, rest) = match args {
        ["cut", region, rest @ ..] => {
            let r = parse_region(region).map_err(|e| format!("{e:#}"))?;
            (PatternRows::Cut(r), rest)
        }
        [rows, rest @ ..] => (PatternRows::Typed(rows.to_string()), rest),
        [] => return Err(usage.into()),
    };
    let (mut area, mut fixed) = (None, false);
    for w in rest {
        match *w {
            "fixed" => fixed = true,
            a if area.is_none() && a.contains(',') => area = Some(a.to_string()),
            _ => return Err(usage.into()),
        }
    }
    Ok(Command::Pattern { rows, area, fixed })
}

/// A move number as typed.
pub fn move_number(a: &str) -> Result<u32, String> {
    a.parse::<u32>()
        .map_err(|_| format!("{a:?} is not a move number"))
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
