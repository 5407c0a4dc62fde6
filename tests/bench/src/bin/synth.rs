//! Writes a synthetic game collection for scale tests (see `kifudex_tests::synth`):
//!
//! ```text
//! cargo run --release -p kifudex-bench --bin synth -- --games 1000000 --seed 1 --out /work/synthetic/1m
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use kifudex_tests::synth::{generate, Options, Sources, DEFAULT_PER_ARCHIVE};

/// Writes N synthetic games (real openings under the 8 symmetries and colour exchange,
/// continued with random legal moves) as .tar.gz archives of one SGF file per game.
#[derive(Parser)]
#[command(name = "synth")]
struct Args {
    /// Number of games of the run.
    #[arg(long)]
    games: u64,
    /// Write only the games from this one on (0-based; a multiple of --per-archive): the
    /// last archives of the run, different from every game before them, e.g. to add to
    /// the index of a run of FROM games with the same seed.
    #[arg(long, default_value_t = 0)]
    from: u64,
    /// The seed: the same seed and corpus give the same bytes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The folder to write the archives to (created; must be empty).
    #[arg(long)]
    out: PathBuf,
    /// Games per archive.
    #[arg(long, default_value_t = DEFAULT_PER_ARCHIVE)]
    per_archive: u64,
    /// The corpus of real games (default: the shared corpus next to the repository).
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// Worker threads (default: one per core). The output does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(n) = args.threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
        {
            eprintln!("synth: {e}");
            return ExitCode::FAILURE;
        }
    }
    let corpus = args.corpus.unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
    });
    if !corpus.is_dir() {
        eprintln!("synth: {}: no such folder", corpus.display());
        return ExitCode::FAILURE;
    }
    let start = Instant::now();
    let sources = Sources::load(&corpus);
    eprintln!(
        "synth: {} source games from {} ({} unusable, {} duplicates, {} inputs not SGF) in {:.1} s",
        sources.games.len(),
        corpus.display(),
        sources.unusable,
        sources.duplicates,
        sources.skipped_inputs,
        start.elapsed().as_secs_f64()
    );
    let opts = Options {
        games: args.games,
        from: args.from,
        seed: args.seed,
        per_archive: args.per_archive,
        out: args.out,
    };
    let start = Instant::now();
    let result = generate(&sources, &opts, |s| {
        eprintln!(
            "synth: {} games, {} archives, {:.1} MB, {:.1} s",
            s.games,
            s.archives,
            s.bytes as f64 / 1e6,
            start.elapsed().as_secs_f64()
        );
    });
    match result {
        Ok(s) => {
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{} games ({} moves, {:.1} per game) in {} archives of {} ({:.1} MB, {:.0} B per game) \
                 in {:.1} s: {:.0} games/s; {} tries replaced as equal to an earlier game",
                s.games,
                s.moves,
                s.moves as f64 / s.games.max(1) as f64,
                s.archives,
                opts.out.display(),
                s.bytes as f64 / 1e6,
                s.bytes as f64 / s.games.max(1) as f64,
                secs,
                s.games as f64 / secs,
                s.replaced
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("synth: {e}");
            ExitCode::FAILURE
        }
    }
}
