//! The analyses of all an index's games: `shapes` (local shape statistics) and `predict
//! --eval` (the move predictor learnt and measured).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use kifudex::explore::Explorer;
use kifudex::predict::TrainOptions;
use kifudex::print::{json, text};
use kifudex::{open_index_file, print_stdout};

#[derive(Args, Debug)]
pub struct ShapesArgs {
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

/// The noise kinds of `predict --eval --streams` timelines.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoiseKinds {
    /// Every kind.
    All,
    /// No reading lost, no fix ignored.
    Issue,
}

#[derive(Args, Debug)]
pub struct PredictArgs {
    /// The index whose games are learnt from and tested on.
    #[arg(long, required_unless_present = "streams", conflicts_with = "streams")]
    index: Option<PathBuf>,
    /// Instead of --index: SGF files, archives or folders. A book (--book-max-moves,
    /// --book-min-count, a predictor) is built from the training games, and the hint
    /// protocol's replies to noisy snapshot streams of the test games, tracked as a board
    /// sends them, are measured beside the same positions sent as plain snapshots.
    #[arg(long, num_args = 1..)]
    streams: Vec<PathBuf>,
    /// With --streams: the book's positions are the first N moves of each training game.
    #[arg(long, default_value_t = 20, requires = "streams")]
    book_max_moves: u32,
    /// With --streams: the book keeps next moves seen at least N times.
    #[arg(long, default_value_t = 2, requires = "streams")]
    book_min_count: u32,
    /// With --streams: the seed of the streams' noise.
    #[arg(long, default_value_t = 1, requires = "streams")]
    seed: u64,
    /// With --streams: the board's cadence: `periodic` (a snapshot every 50-200 ms, most
    /// repeated) or `change-only` (one snapshot per change of the reading), both rendered
    /// from a physical timeline of each game; `legacy`: the first generator (periodic, the
    /// players waiting while the board asks for a fix). Several, comma-separated, are
    /// measured on one book, one report each.
    #[arg(long, default_value = "legacy", requires = "streams")]
    cadence: String,
    /// With --streams and a cadence: the snapshots carry their time (`t=<ms>`).
    #[arg(long, requires = "streams")]
    times: bool,
    /// With --streams and a cadence: the noise of the physical timeline: `all` (every
    /// kind: flicker, hands, stones lifted and slid, captures lifted slowly, throw-ins,
    /// readings lost while both players moved, fixes ignored) or `issue` (the kinds of the
    /// legacy generator and throw-ins: no reading lost, no fix ignored).
    #[arg(long, value_enum, default_value_t = NoiseKinds::All, requires = "streams")]
    noise: NoiseKinds,
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

/// `kifudex shapes`.
pub fn shapes(a: ShapesArgs) -> Result<ExitCode> {
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

/// `kifudex predict --eval`: over an index's games, or (`--streams`) the hint protocol's
/// replies to noisy snapshot streams of records' games.
pub fn predict(a: PredictArgs) -> Result<ExitCode> {
    let opts = TrainOptions {
        min_count: a.min_count,
        max_patterns: a.max_patterns,
        keep_per_mille: a.sample,
        iterations: a.iterations,
        prior: a.prior,
        hide_per_mille: a.hide,
        ..Default::default()
    };
    let log = |m: &str| {
        if !a.quiet {
            eprintln!("{m}")
        }
    };
    let Some(index) = &a.index else {
        let s = kifudex::tracking::eval::StreamOptions {
            test_every: a.test_every,
            book_max_moves: a.book_max_moves,
            book_min_count: a.book_min_count,
            train: opts,
            seed: a.seed,
            cadences: a
                .cadence
                .split(',')
                .map(|c| match c {
                    "legacy" => Ok(None),
                    c => c.parse().map(Some).map_err(|e| {
                        anyhow::anyhow!("--cadence {e} (periodic, change-only or legacy)")
                    }),
                })
                .collect::<Result<_>>()?,
            times: a.times,
            noise: match a.noise {
                NoiseKinds::All => kifudex::tracking::stream::Noise::ALL,
                NoiseKinds::Issue => kifudex::tracking::stream::Noise::ISSUE,
            },
        };
        let all = kifudex::tracking::eval::evaluate_streams(&a.streams, &s, log)?;
        for (k, e) in all.iter().enumerate() {
            let answer = kifudex::explore::analysis::streams(e);
            if a.json {
                print_stdout(&format!("{}\n", kifudex::print::json::to_line(&answer)))?;
            } else {
                let gap = if k > 0 { "\n" } else { "" };
                print_stdout(&format!("{gap}{}", kifudex::print::text::streams(&answer)))?;
            }
        }
        return Ok(ExitCode::SUCCESS);
    };
    let bytes = open_index_file(index)?;
    let explorer = Explorer::open(&bytes, index.display().to_string())?;
    let e = explorer.evaluate_predictor(a.test_every, &opts, log)?;
    if a.json {
        print_stdout(&format!("{}\n", json::to_line(&e)))?;
    } else {
        print_stdout(&text::evaluation(&e))?;
    }
    Ok(ExitCode::SUCCESS)
}
