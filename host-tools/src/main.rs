//! The `kifudex` command: build an index from SGF collections, search it, explore it.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand, ValueEnum};
use kifudex::build::{self, BuildOptions, Profile};
use kifudex::explore::request::{
    At, GameFilter, GamesRequest, Page, PatternRequest, Position, SearchRequest, Sort,
};
use kifudex::explore::{self, ExploreError, Explorer};
use kifudex::pattern;
use kifudex::predict::TrainOptions;
use kifudex::print::{json, text};
use kifudex::{open_index_file, print_stdout};
use kifudex_core::notation::parse_moves;
use kifudex_core::{Color, Size};

/// kifudex: what strong players played next, for the position on your board.
#[derive(Parser, Debug)]
#[command(name = "kifudex", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Build an index (or a microcontroller book) from SGF files, folders and archives.
    Build(BuildArgs),
    /// Next moves for a position, found in any orientation.
    Search(SearchArgs),
    /// The games that reached a position (or hold a pattern), newest first.
    Games(GamesArgs),
    /// Wildcard pattern search: where a local shape appeared (any orientation, colours
    /// exchanged too) and what was played next in its region.
    Pattern(PatternArgs),
    /// bGo's interactive shell: play moves, search, filter by year, list and replay games.
    Shell {
        /// The index file (default: the bundled sample of 286 professional games, indexed
        /// in memory). The shell's `import` adds games to it (a file is rewritten as `add`
        /// does).
        index: Option<PathBuf>,
        /// A book built with `--predictor`: its move predictor answers `predict`.
        #[arg(long)]
        predictor: Option<PathBuf>,
    },
    /// Answer the hint protocol (docs/HINTS.md) from a book: requests on standard input, one
    /// reply line each on standard output, as the firmware answers on its UART.
    Hints {
        /// The book (`kifudex build --profile mcu`).
        #[arg(long)]
        index: PathBuf,
        /// Also print each reply's LED frame on standard error (`leds pd:255 dp:120`).
        #[arg(long)]
        leds: bool,
    },
    /// Local shape statistics: the 3x3, diamond and 5x5 patterns around the played moves
    /// (canonical under the 8 symmetries, colours as the mover sees them), how often each
    /// was played when it was there, and the most frequent openings. (Named `patterns`
    /// before `pattern` searched; that name still works.)
    #[command(alias = "patterns")]
    Shapes(ShapesArgs),
    /// Learn the move predictor from an index's games and measure it on held-out games.
    Predict(PredictArgs),
    /// One stored game as the web board's JSON (information, setup, moves with captures),
    /// or as SGF.
    Game {
        /// The index file (default: the bundled sample, indexed in memory).
        #[arg(long)]
        index: Option<PathBuf>,
        /// The game's id (0 is the newest game; `games` lists them).
        id: u32,
        /// Print the game as SGF instead of JSON.
        #[arg(long)]
        sgf: bool,
    },
    /// Serve the web board (search board, game list, replay) and its JSON API.
    Serve {
        /// The index file (default: the bundled sample, indexed in memory).
        #[arg(long)]
        index: Option<PathBuf>,
        /// Address to listen on. Anything but loopback makes the board reachable from
        /// other machines.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// A book built with `--profile mcu --predictor`: its move predictor shows its
        /// guesses where the index has no next move.
        #[arg(long)]
        book: Option<PathBuf>,
    },
    /// What an index holds.
    Info {
        /// The index file.
        #[arg(long)]
        index: PathBuf,
        /// Also verify the whole file (checksums and every record), as `verify` does.
        #[arg(long)]
        verify: bool,
    },
    /// Merge indexes into one: the index one build of all their inputs would give, in
    /// this order (shards built anywhere combine this way).
    Merge {
        /// The indexes, their games in this order.
        #[arg(required = true)]
        indexes: Vec<PathBuf>,
        /// The file to write (atomically).
        #[arg(short, long)]
        output: PathBuf,
        /// Keep games that repeat a game read earlier.
        #[arg(long)]
        keep_duplicates: bool,
        /// No summary.
        #[arg(short, long)]
        quiet: bool,
    },
    /// Add the games of SGF files, archives or folders to an index (rewritten atomically):
    /// the index one build of its inputs followed by these would give.
    Add {
        /// The index to add to.
        index: PathBuf,
        /// SGF files (.sgf), archives (.tgz, .tar.gz, .zip) or folders searched recursively.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Keep games that repeat a game read earlier.
        #[arg(long)]
        keep_duplicates: bool,
        /// Rebuild the whole index (replay every stored game) instead of adding the new
        /// games in one pass over it; the same bytes either way.
        #[arg(long)]
        rebuild: bool,
        /// Also print the time and resident memory at the end of each phase.
        #[arg(long)]
        timings: bool,
        /// No summary.
        #[arg(short, long)]
        quiet: bool,
    },
    /// Verify an index or book completely: checksums and every record (opening an index
    /// for a search checks only its structure).
    Verify {
        /// The index or book file.
        index: PathBuf,
    },
}

#[derive(Args, Debug)]
struct BuildArgs {
    /// SGF files (.sgf), archives (.tgz, .tar.gz, .zip) or folders searched recursively.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The file to write (atomically).
    #[arg(short, long)]
    output: PathBuf,
    /// Index only the positions before the first N moves of each game.
    #[arg(long)]
    max_moves: Option<u32>,
    /// `desktop` (the full index) or `mcu` (a book for the microcontroller).
    #[arg(long, value_enum, default_value = "desktop")]
    profile: ProfileArg,
    /// Book: drop next moves seen fewer than N times.
    #[arg(long, default_value_t = 1)]
    min_count: u32,
    /// Book: keep at most N next moves per position.
    #[arg(long)]
    max_next: Option<u32>,
    /// Book: add a move predictor learnt from every move of the games, for positions the
    /// book does not hold (`--max-moves` and `--min-count` limit only the positions).
    #[arg(long)]
    predictor: bool,
    /// Predictor: keep at most N patterns, the most played.
    #[arg(long, default_value_t = TrainOptions::default().max_patterns, requires = "predictor")]
    predictor_patterns: usize,
    /// Predictor: positions sampled for learning, per mille (fewer: less time and memory).
    #[arg(long, default_value_t = TrainOptions::default().keep_per_mille, requires = "predictor")]
    predictor_sample: u32,
    /// Keep games whose setup and main line repeat a game read earlier (default: left out
    /// and counted).
    #[arg(long)]
    keep_duplicates: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Index: the memory the build may use (e.g. 512M, 4G, 1.5GiB; binary multiples).
    /// Occurrences beyond it go to temporary files next to the output and are sorted in
    /// slices; the index is the same whatever the budget (docs/FORMAT.md).
    #[arg(long, value_name = "SIZE", default_value = "4G", value_parser = build::memory_size)]
    memory: u64,
    /// No progress bar and no summary (errors are still printed, and still fail the build).
    #[arg(short, long)]
    quiet: bool,
    /// Also list every skipped file, rejected game, truncated main line and recovered
    /// defect, one per line with its place.
    #[arg(short, long)]
    verbose: bool,
    /// Write every skipped file, rejected game, truncated main line and recovered defect,
    /// with its reason and place, to this JSON file (also when the build fails).
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Also print the time and memory of each phase.
    #[arg(long)]
    timings: bool,
}

/// What kind of file to build ([`Profile`] on the command line).
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum ProfileArg {
    /// The desktop index: positions, next moves, games, game records.
    Desktop,
    /// The microcontroller book: position keys and next-move counts only.
    Mcu,
}

impl From<ProfileArg> for Profile {
    fn from(p: ProfileArg) -> Profile {
        match p {
            ProfileArg::Desktop => Profile::Desktop,
            ProfileArg::Mcu => Profile::Mcu,
        }
    }
}

#[derive(Args, Debug)]
struct ShapesArgs {
    /// The index whose games are counted.
    #[arg(long)]
    index: PathBuf,
    /// Patterns listed per shape.
    #[arg(long, default_value_t = 20)]
    top: usize,
    /// Moves of an opening sequence.
    #[arg(long, default_value_t = 10)]
    opening_moves: usize,
    /// Opening sequences listed.
    #[arg(long, default_value_t = 10)]
    openings: usize,
    /// Count only the moves before move N of each game.
    #[arg(long)]
    max_moves: Option<usize>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct PredictArgs {
    /// The index whose games are learnt from and tested on.
    #[arg(long)]
    index: PathBuf,
    /// Learn from all games but one in N (`--test-every`), test on the others (split by a
    /// hash of each game's setup and first 40 moves, so a game recorded twice is on one
    /// side), and print top-1/top-5 by move bucket.
    #[arg(long, required = true)]
    eval: bool,
    /// One game in N is a test game.
    #[arg(long, default_value_t = 10)]
    test_every: u64,
    /// Keep the patterns played at least N times.
    #[arg(long, default_value_t = TrainOptions::default().min_count)]
    min_count: u32,
    /// Keep at most N patterns, the most played (0: all).
    #[arg(long, default_value_t = TrainOptions::default().max_patterns)]
    max_patterns: usize,
    /// Positions sampled for the denominators of MM, per mille.
    #[arg(long, default_value_t = TrainOptions::default().keep_per_mille)]
    sample: u32,
    /// Rounds of minorization-maximization.
    #[arg(long, default_value_t = TrainOptions::default().iterations)]
    iterations: usize,
    /// Virtual wins and losses of each pattern against its pattern one size smaller.
    #[arg(long, default_value_t = TrainOptions::default().prior)]
    prior: f64,
    /// Positions learnt as board snapshots (last moves hidden), per mille.
    #[arg(long, default_value_t = TrainOptions::default().hide_per_mille)]
    hide: u32,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// No progress on standard error.
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct PositionArgs {
    /// The index file (default: the bundled sample, indexed in memory).
    #[arg(long)]
    index: Option<PathBuf>,
    /// Moves from the empty board (or the setup), the first by Black (or `--to-move`),
    /// colours alternating: SGF points (`pd`, either case), coordinates (`Q16`: a column
    /// letter without I, the row from the bottom) or `pass`, separated by commas or spaces.
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    moves: String,
    /// Black stones set up before the moves (points as in --moves).
    #[arg(long, default_value = "")]
    ab: String,
    /// White stones set up before the moves (points as in --moves).
    #[arg(long, default_value = "")]
    aw: String,
    /// Who plays the first of the moves (and is to move if there are none): B or W.
    #[arg(long, value_parser = parse_side)]
    to_move: Option<Color>,
    /// Instead of --moves/--ab/--aw: the position of this SGF record's main line (its
    /// first game), setup and handicap stones included.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["moves", "ab", "aw", "to_move"])]
    sgf: Option<PathBuf>,
    /// With --sgf: the position after this many moves (default: the end of the main line).
    #[arg(long = "move", value_name = "N", requires = "sgf")]
    move_number: Option<usize>,
    /// Board size: 19, 13, 9... or width x height (`19x9`).
    #[arg(long, default_value = "19", value_parser = kifudex::position::parse_size)]
    size: Size,
}

impl PositionArgs {
    /// The query position (stated, or a record's board), and how many moves deep it is.
    fn position(&self) -> Result<(At, usize)> {
        if let Some(file) = &self.sgf {
            let (board, _, depth) = kifudex::position::from_sgf_file(file, self.move_number)?;
            return Ok((board.into(), depth));
        }
        let depth = parse_moves(&self.moves, self.size).count();
        Ok((
            At::Stated(Position {
                size: self.size.width(),
                height: Some(self.size.height()),
                black: self.ab.clone(),
                white: self.aw.clone(),
                to_move: self.to_move,
                moves: self.moves.clone(),
            }),
            depth,
        ))
    }
}

/// Says on standard error that a position with no games lies beyond what an index built
/// with `--max-moves` holds, if it does.
fn note_depth(explorer: &Explorer<'_>, depth: usize) {
    if let Some(note) = explorer.beyond_max_moves(depth) {
        eprintln!("kifudex: {note}");
    }
}

/// Which games count.
#[derive(Args, Debug)]
struct FilterArgs {
    /// Only games from this year on.
    #[arg(long)]
    year_from: Option<u16>,
    /// Only games up to this year.
    #[arg(long)]
    year_to: Option<u16>,
    /// Only games with a player whose name contains this (case-insensitive).
    #[arg(long)]
    player: Option<String>,
    /// Only games with this handicap (0 for even games).
    #[arg(long)]
    handicap: Option<u8>,
    /// Only games won by this colour (`B` or `W`).
    #[arg(long, value_parser = parse_side)]
    winner: Option<Color>,
}

impl FilterArgs {
    fn filter(&self) -> GameFilter {
        GameFilter {
            year_from: self.year_from,
            year_to: self.year_to,
            player: self.player.clone(),
            handicap: self.handicap,
            winner: self.winner,
        }
    }
}

fn parse_side(s: &str) -> Result<Color, String> {
    match s {
        "B" | "b" => Ok(Color::Black),
        "W" | "w" => Ok(Color::White),
        _ => Err(format!("expected B or W, not {s:?}")),
    }
}

#[derive(Args, Debug)]
struct SearchArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Print the JSON object of docs/JSON.md.
    #[arg(long)]
    json: bool,
    /// Also find the colour-swapped position and add its moves with colours exchanged.
    #[arg(long)]
    swap: bool,
    #[command(flatten)]
    filter: FilterArgs,
    /// Letters drawn on the board.
    #[arg(long, default_value_t = 12)]
    marks: usize,
}

#[derive(Args, Debug)]
struct GamesArgs {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    filter: FilterArgs,
    /// Also list the games that reached the colour-swapped position.
    #[arg(long)]
    swap: bool,
    /// Order: newest, date, black, white, result, event or move (a leading - reverses).
    #[arg(long, default_value = "newest", allow_hyphen_values = true, value_parser = parse_sort)]
    sort: Sort,
    /// At most this many games.
    #[arg(long, default_value_t = 100)]
    limit: usize,
    /// Skip this many matching games first.
    #[arg(long, default_value_t = 0)]
    offset: usize,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Instead of a position: the games holding this pattern (`ROWS`, as `kifudex pattern`).
    #[arg(long)]
    pattern: Option<String>,
    /// With `--pattern`: the allowed placements L,T,R,B.
    #[arg(long, requires = "pattern")]
    area: Option<String>,
    /// With `--pattern`: colours only as given.
    #[arg(long, requires = "pattern")]
    fixed_color: bool,
}

#[derive(Args, Debug)]
struct PatternArgs {
    /// The index file (default: the bundled sample, indexed in memory).
    #[arg(long)]
    index: Option<PathBuf>,
    /// The pattern's rows, top to bottom, separated by `/`, all of one width (1 to 19
    /// cells, 1 to 19 rows): `.` empty, `X` black, `O` white, `x` black or empty, `o` white
    /// or empty, `*` anything.
    #[arg(long, required_unless_present = "sgf", conflicts_with = "sgf")]
    pattern: Option<String>,
    /// Allowed placements of the pattern's top-left cell: columns L..=R, rows T..=B
    /// (0-based; default: everywhere on the board).
    #[arg(long)]
    area: Option<String>,
    /// Search the colours only as given (no colour exchange).
    #[arg(long)]
    fixed_color: bool,
    /// Cut the pattern from a position of this game record (with `--region`).
    #[arg(long, requires = "region")]
    sgf: Option<PathBuf>,
    /// With `--sgf`: the position after this many moves (default: the end).
    #[arg(long = "move", requires = "sgf")]
    move_number: Option<u32>,
    /// With `--sgf`: the rectangle L,T,R,B of board points to cut (0-based, inclusive).
    #[arg(long, requires = "sgf")]
    region: Option<String>,
    #[command(flatten)]
    filter: FilterArgs,
    /// With `--hits`: at most this many hits.
    #[arg(long, default_value_t = 100)]
    limit: usize,
    /// With `--hits`: skip this many hits first.
    #[arg(long, default_value_t = 0)]
    offset: usize,
    /// Print the JSON object of docs/JSON.md.
    #[arg(long)]
    json: bool,
    /// List the hits (game, position, region, continuation, game information), from
    /// `--offset`, at most `--limit`.
    #[arg(long)]
    hits: bool,
    /// Also count hits and continuations by year (the date profile).
    #[arg(long)]
    by_year: bool,
    /// Letters drawn on the pattern.
    #[arg(long, default_value_t = 12)]
    marks: usize,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Write the games with hits (after the filters) as SGF to PATH: a folder (new or
    /// empty) of one file per game, or a `.zip`; prints how many.
    #[arg(long, value_name = "PATH", conflicts_with_all = ["hits", "timings"])]
    export: Option<PathBuf>,
    /// Print the time of each step on standard error.
    #[arg(long)]
    timings: bool,
    /// With `--timings`: search this many times and report the median.
    #[arg(long, default_value_t = 1)]
    repeat: usize,
}

fn parse_sort(s: &str) -> Result<Sort, String> {
    Sort::parse(s).ok_or_else(|| format!("unknown order {s:?}"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("kifudex: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// Prints an answer of the explorer: JSON (or text) on standard output, or the refusal on
/// standard error with exit status 2 (an illegal or malformed query).
fn print_answer(answer: std::result::Result<String, ExploreError>) -> Result<ExitCode> {
    match answer {
        Ok(text) => {
            // A closed pipe (`| head`) ends the output quietly; a full disk is an error.
            print_stdout(&format!("{text}\n"))?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("kifudex: {e}");
            Ok(ExitCode::from(2))
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Build(a) => {
            if let Some(t) = a.threads {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build_global()
                    .ok();
            }
            let opts = BuildOptions {
                max_moves: a.max_moves,
                profile: a.profile.into(),
                min_count: a.min_count,
                max_next: a.max_next,
                progress: !a.quiet,
                predictor: a.predictor.then(|| TrainOptions {
                    max_patterns: a.predictor_patterns,
                    keep_per_mille: a.predictor_sample,
                    ..TrainOptions::default()
                }),
                list_recovered: a.verbose || a.report.is_some(),
                keep_duplicates: a.keep_duplicates,
                memory: a.memory,
                ..BuildOptions::default()
            };
            if a.predictor && opts.profile != Profile::Mcu {
                anyhow::bail!("--predictor needs --profile mcu");
            }
            let mut report = build::BuildReport::default();
            let built = build::build_reporting(&a.paths, &a.output, &opts, &mut report);
            if let Some(file) = &a.report {
                let json = build::problems::to_json(&report.problems).to_string();
                build::write_atomically(file, json.as_bytes())?;
            }
            if a.verbose {
                eprint!("{}", report.problems_text());
            }
            built?;
            if !a.quiet {
                eprintln!("{}", report.summary());
            }
            if a.timings {
                eprint!("{}", report.phases_text());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Search(a) => {
            let (bytes, label) = explore::load(a.position.index.as_deref())?;
            let explorer = Explorer::open(&bytes, label)?;
            let (at, depth) = a.position.position()?;
            let q = SearchRequest {
                at,
                swap: a.swap,
                filter: a.filter.filter(),
            };
            print_answer(explorer.search(&q).map(|answer| {
                if answer.total == 0 {
                    note_depth(&explorer, depth);
                }
                if a.json {
                    json::to_line(&answer)
                } else {
                    text::search(&answer, a.marks, 40, None)
                        .trim_end()
                        .to_owned()
                }
            }))
        }
        Command::Games(a) => {
            let (bytes, label) = explore::load(a.position.index.as_deref())?;
            let explorer = Explorer::open(&bytes, label)?;
            let page = Page {
                limit: a.limit,
                offset: a.offset,
            };
            if let Some(rows) = &a.pattern {
                let req = match PatternRequest::parse(rows, a.area.as_deref(), a.fixed_color) {
                    Ok(r) => PatternRequest {
                        filter: a.filter.filter(),
                        ..r
                    },
                    Err(e) => return Ok(usage_error(e)),
                };
                let answer = explorer.pattern_games(&req, page);
                if a.json {
                    print_stdout(&format!("{}\n", json::to_line(&answer)))?;
                } else {
                    print_stdout(&text::pattern_games(&answer))?;
                }
                return Ok(ExitCode::SUCCESS);
            }
            let (at, depth) = a.position.position()?;
            let q = GamesRequest {
                at,
                swap: a.swap,
                filter: a.filter.filter(),
                sort: a.sort,
                page,
            };
            print_answer(explorer.games(&q).map(|answer| {
                if answer.matching == 0 {
                    note_depth(&explorer, depth);
                }
                if a.json {
                    json::to_line(&answer)
                } else {
                    text::games(&answer, false).trim_end().to_owned()
                }
            }))
        }
        Command::Game { index, id, sgf } => {
            let (bytes, label) = explore::load(index.as_deref())?;
            let explorer = Explorer::open(&bytes, label)?;
            print_answer(if sgf {
                explorer.game_sgf(id).map(|t| t.trim_end().to_owned())
            } else {
                explorer.game(id).map(|r| json::to_line(&r))
            })
        }
        Command::Serve { index, addr, book } => {
            let (bytes, label) = explore::load(index.as_deref())?;
            let mut explorer = Explorer::open(explore::keep(bytes), label.clone())?;
            if let Some(book) = book {
                let bytes = open_index_file(&book)?;
                explorer =
                    explorer.with_predictor(explore::keep(bytes), &book.display().to_string())?;
            }
            let games = explorer.game_count();
            if !kifudex::web::is_loopback(&addr) {
                eprintln!(
                    "kifudex: warning: listening on {addr}, not on loopback: other machines can reach the board"
                );
            }
            let explorer = std::sync::Arc::new(explorer);
            let server =
                kifudex::web::RunningServer::start(addr, explorer, kifudex::web::Limits::default())
                    .with_context(|| format!("cannot listen on {addr}"))?;
            eprintln!(
                "kifudex: serving {label} ({games} games) at http://{}/ (Ctrl-C stops)",
                server.addr()
            );
            server.wait_for_ctrl_c()?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Pattern(a) => pattern_command(a),
        Command::Shell { index, predictor } => {
            let (bytes, label) = explore::load(index.as_deref())?;
            Explorer::open(&bytes, label.clone())?;
            let source = match index {
                Some(path) => kifudex::shell::IndexSource::File(path),
                None => kifudex::shell::IndexSource::Memory(kifudex::sample::sample_sources()?),
            };
            let book = match &predictor {
                Some(path) => Some((open_index_file(path)?, path.display().to_string())),
                None => None,
            };
            let book = book.as_ref().map(|(b, name)| (&b[..], name.as_str()));
            kifudex::shell::run(source, bytes, &label, book)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Hints { index, leds } => {
            let bytes = open_index_file(&index)?;
            kifudex::hints::run_stdio(&bytes, &index.display().to_string(), leds)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Shapes(a) => {
            let bytes = open_index_file(&a.index)?;
            let explorer = Explorer::open(&bytes, a.index.display().to_string())?;
            let opts = kifudex::shapes::ShapeOptions {
                top: a.top,
                opening_moves: a.opening_moves,
                openings: a.openings,
                max_moves: a.max_moves,
            };
            let answer = explorer.shapes(&opts);
            if a.json {
                print_stdout(&format!("{}\n", json::to_line(&answer)))?;
            } else {
                print_stdout(&text::shapes(&answer))?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Predict(a) => {
            let bytes = open_index_file(&a.index)?;
            let explorer = Explorer::open(&bytes, a.index.display().to_string())?;
            let opts = kifudex::predict::TrainOptions {
                min_count: a.min_count,
                max_patterns: a.max_patterns,
                keep_per_mille: a.sample,
                iterations: a.iterations,
                prior: a.prior,
                hide_per_mille: a.hide,
                ..Default::default()
            };
            let e = explorer.evaluate_predictor(a.test_every, &opts, |m| {
                if !a.quiet {
                    eprintln!("{m}")
                }
            })?;
            if a.json {
                print_stdout(&format!("{}\n", json::to_line(&e)))?;
            } else {
                print_stdout(&text::evaluation(&e))?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Info { index, verify } => {
            let bytes = open_index_file(&index)?;
            print_stdout(
                &kifudex::info::describe(&bytes, verify)
                    .with_context(|| format!("{}", index.display()))?,
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Merge {
            indexes,
            output,
            keep_duplicates,
            quiet,
        } => {
            let report = build::merge(&indexes, &output, keep_duplicates)?;
            if !quiet {
                eprintln!("{}", report.summary());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Add {
            index,
            paths,
            keep_duplicates,
            rebuild,
            timings,
            quiet,
        } => {
            let report = if rebuild {
                build::add_by_rebuild(&index, &paths, keep_duplicates)?
            } else {
                build::add(&index, &paths, keep_duplicates)?
            };
            if !quiet {
                eprintln!("{}", report.summary());
            }
            if timings {
                eprint!("{}", report.phases_text());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify { index } => {
            let bytes = open_index_file(&index)?;
            let what =
                kifudex::info::verify(&bytes).with_context(|| format!("{}", index.display()))?;
            print_stdout(&format!("{}: {what}\n", index.display()))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Prints a usage error and gives exit status 2.
fn usage_error(e: anyhow::Error) -> ExitCode {
    eprintln!("kifudex: {e:#}");
    ExitCode::from(2)
}

fn pattern_command(a: PatternArgs) -> Result<ExitCode> {
    use std::time::Instant;
    if let Some(t) = a.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .ok();
    }
    let req = match (&a.pattern, &a.sgf, &a.region) {
        (Some(rows), _, _) => PatternRequest::parse(rows, a.area.as_deref(), a.fixed_color),
        (None, Some(sgf), Some(region)) => pattern::parse_region(region)
            .and_then(|r| pattern::pattern_from_sgf(sgf, a.move_number, r))
            .and_then(|p| PatternRequest::parse(&p.to_string(), a.area.as_deref(), a.fixed_color)),
        _ => Err(anyhow::anyhow!(
            "give --pattern ROWS, or --sgf FILE --region L,T,R,B"
        )),
    };
    let req = match req {
        Ok(r) => PatternRequest {
            filter: a.filter.filter(),
            by_year: a.by_year,
            ..r
        },
        Err(e) => return Ok(usage_error(e)),
    };
    let t0 = Instant::now();
    let (bytes, label) = explore::load(a.index.as_deref())?;
    let explorer = Explorer::open(&bytes, label)?;
    let t_open = t0.elapsed();
    if let Some(dest) = &a.export {
        let n = explorer.export_pattern_games(&req, dest)?;
        print_stdout(&format!("{n} games written to {}\n", dest.display()))?;
        return Ok(ExitCode::SUCCESS);
    }
    let (counts, timings) = if a.timings {
        let (counts, timings) = explorer.pattern_timed(&req, a.repeat);
        (Some(counts), Some(timings))
    } else {
        (None, None)
    };
    let out = if a.hits {
        let page = Page {
            limit: a.limit,
            offset: a.offset,
        };
        let answer = explorer.pattern_hits(&req, page);
        if a.json {
            format!("{}\n", json::to_line(&answer))
        } else {
            text::hits(&answer)
        }
    } else {
        let answer = counts.unwrap_or_else(|| explorer.pattern(&req));
        if a.json {
            format!("{}\n", json::to_line(&answer))
        } else {
            let mut s = text::pattern(&answer, a.marks, 40);
            if a.by_year {
                s += &text::pattern_years(&answer, 6);
            }
            s
        }
    };
    print_stdout(&out)?;
    if let Some(t) = timings {
        eprint!("{}", text::pattern_timings(t_open, &t));
    }
    Ok(ExitCode::SUCCESS)
}
