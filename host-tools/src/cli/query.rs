//! The explorer's questions on the command line: `search`, `games`, `game`, `pattern`.
//! Each turns its arguments into a request, asks the explorer, and prints the answer with
//! the JSON or the text printer.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use kifudex::explore::request::{
    GamesRequest, Page, PatternRequest, RanksRequest, SearchRequest, Sort,
};
use kifudex::explore::{self, Explorer};
use kifudex::print::{json, text};
use kifudex::print_stdout;

use super::args::{parse_sort, FilterArgs, PositionArgs};
use super::{print_answer, usage_error};

#[derive(Args, Debug)]
pub struct SearchArgs {
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
    /// Also show how the top next moves change with the players' ranks (30k-10k, 9k-1k,
    /// 1d-3d, 4d-6d, 7d-9d, 1p-9p, mixed, unknown): a table, or `by_rank` in the JSON.
    #[arg(long)]
    by_rank: bool,
}

#[derive(Args, Debug)]
pub struct GamesArgs {
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
pub struct PatternArgs {
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

#[derive(Args, Debug)]
pub struct GameArgs {
    /// The index file (default: the bundled sample, indexed in memory).
    #[arg(long)]
    index: Option<PathBuf>,
    /// The game's id (0 is the newest game; `games` lists them).
    id: u32,
    /// Print the game as SGF instead of JSON.
    #[arg(long)]
    sgf: bool,
}

/// Says on standard error that a position with no games lies beyond what an index built
/// with `--max-moves` holds, if it does.
fn note_depth(explorer: &Explorer<'_>, depth: usize) {
    if let Some(note) = explorer.beyond_max_moves(depth) {
        eprintln!("kifudex: {note}");
    }
}

/// `kifudex search`: the next moves of a position.
pub fn search(a: SearchArgs) -> Result<ExitCode> {
    let (bytes, label) = explore::load(a.position.index.as_deref())?;
    let explorer = Explorer::open(&bytes, label)?;
    let (at, depth) = a.position.position()?;
    let q = SearchRequest {
        at,
        swap: a.swap,
        filter: a.filter.filter(),
    };
    let answer = explorer.search(&q).and_then(|mut answer| {
        if a.by_rank {
            let r = RanksRequest {
                search: q.clone(),
                top: 5,
            };
            answer.by_rank = Some(explorer.ranks(&r)?);
        }
        Ok(answer)
    });
    print_answer(answer.map(|answer| {
        if answer.total == 0 {
            note_depth(&explorer, depth);
        }
        if a.json {
            json::to_line(&answer)
        } else {
            let mut s = text::search(&answer, a.marks, 40, None);
            if let Some(r) = &answer.by_rank {
                s += "\n";
                s += &text::ranks(r, answer.board.size());
            }
            s.trim_end().to_owned()
        }
    }))
}

/// Scans the games for `req` (the explorer keeps the scan for the answers that follow),
/// with a progress bar on standard error when it is a terminal and the scan runs past
/// 0.2 s (nothing when it is piped).
fn scan_with_progress(explorer: &Explorer<'_>, req: &PatternRequest) {
    use std::io::IsTerminal;
    use std::time::{Duration, Instant};
    let terminal = std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut bar: Option<indicatif::ProgressBar> = None;
    let never = kifudex::explore::scan_cache::Cancel::new();
    let _ = explorer.pattern_scan(req, &never, |p| {
        if !terminal || p.scanned >= p.total {
            return;
        }
        if bar.is_none() && started.elapsed() >= Duration::from_millis(200) {
            let b = indicatif::ProgressBar::new(p.total);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{spinner} pattern: {pos}/{len} games [{bar:40}] {msg} {eta}",
            ) {
                b.set_style(style.progress_chars("=> "));
            }
            bar = Some(b);
        }
        if let Some(b) = &bar {
            b.set_position(p.scanned);
            b.set_message(format!("{} hits", p.report.hits));
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

/// `kifudex games`: the games of a position, or of a pattern.
pub fn games(a: GamesArgs) -> Result<ExitCode> {
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
        scan_with_progress(&explorer, &req);
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

/// `kifudex game`: one stored game, as JSON or SGF.
pub fn game(a: GameArgs) -> Result<ExitCode> {
    let GameArgs { index, id, sgf } = a;
    let (bytes, label) = explore::load(index.as_deref())?;
    let explorer = Explorer::open(&bytes, label)?;
    print_answer(if sgf {
        explorer.game_sgf(id).map(|t| t.trim_end().to_owned())
    } else {
        explorer.game(id).map(|r| json::to_line(&r))
    })
}

impl PatternArgs {
    /// The query: typed rows, or the rectangle cut from a record's position; the filters,
    /// and the date profile if asked.
    fn request(&self) -> Result<PatternRequest> {
        let area = self.area.as_deref();
        let req = match (&self.pattern, &self.sgf, &self.region) {
            (Some(rows), _, _) => PatternRequest::parse(rows, area, self.fixed_color),
            (None, Some(sgf), Some(region)) => {
                PatternRequest::cut(sgf, self.move_number, region, area, self.fixed_color)
            }
            _ => Err(anyhow::anyhow!(
                "give --pattern ROWS, or --sgf FILE --region L,T,R,B"
            )),
        }?;
        Ok(PatternRequest {
            filter: self.filter.filter(),
            by_year: self.by_year,
            ..req
        })
    }
}

/// `kifudex pattern`: a pattern's continuations (and date profile), hits or games.
pub fn pattern(a: PatternArgs) -> Result<ExitCode> {
    use std::time::Instant;
    if let Some(t) = a.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .ok();
    }
    let req = match a.request() {
        Ok(r) => r,
        Err(e) => return Ok(usage_error(e)),
    };
    let t0 = Instant::now();
    let (bytes, label) = explore::load(a.index.as_deref())?;
    let explorer = Explorer::open(&bytes, label)?;
    let t_open = t0.elapsed();
    if let Some(dest) = &a.export {
        scan_with_progress(&explorer, &req);
        let n = explorer.export_pattern_games(&req, dest)?;
        print_stdout(&format!("{n} games written to {}\n", dest.display()))?;
        return Ok(ExitCode::SUCCESS);
    }
    let (counts, timings) = if a.timings {
        let (counts, timings) = explorer.pattern_timed(&req, a.repeat);
        (Some(counts), Some(timings))
    } else {
        scan_with_progress(&explorer, &req);
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
