//! The builder's commands: `build`, `add`, `merge`, and `info` and `verify`, which describe
//! and check a file's bytes. They call the builder (`kifudex::indexing`) and `kifudex::info`,
//! not the explorer.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use kifudex::indexing::{self, BuildOptions, Profile};
use kifudex::input::Limits;
use kifudex::predict::TrainOptions;
use kifudex::sgf;
use kifudex::{open_index_file, print_stdout};

#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Records (.sgf, .gib, .ngf, .ugf), archives (.tgz, .tar.bz2, .tar.xz, .zip, .7z) or
    /// folders searched recursively.
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
    #[arg(long, value_name = "SIZE", default_value = "4G", value_parser = indexing::memory_size)]
    memory: u64,
    /// The most bytes one record (a file or an archive member) may hold; a larger one
    /// fails the build, and is never read whole (e.g. 64M, 1G).
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = indexing::memory_size)]
    max_record_bytes: u64,
    /// The most members (records or not) one archive may hold; more fail the build.
    #[arg(long, value_name = "N", default_value_t = Limits::DEFAULT.archive_members)]
    max_archive_members: u64,
    /// The most memory an archive's decompressor may ask for (the dictionary a `.xz` block
    /// or a `.7z` coder declares; e.g. 128M, 2G); an archive that declares more fails the
    /// build before any of it is taken.
    #[arg(long, value_name = "SIZE", default_value = "128M", value_parser = indexing::memory_size)]
    max_decoder_memory: u64,
    /// The most nodes of a game's main line (lines of a .gib, .ngf or .ugf record).
    #[arg(long, value_name = "N", default_value_t = sgf::Limits::DEFAULT.nodes)]
    max_tree_nodes: u64,
    /// The deepest nesting of a game tree's variations.
    #[arg(long, value_name = "N", default_value_t = sgf::Limits::DEFAULT.depth)]
    max_tree_depth: u64,
    /// The most bytes of one property value (e.g. 16M).
    #[arg(long, value_name = "SIZE", default_value = "16M", value_parser = indexing::memory_size)]
    max_value_bytes: u64,
    /// The most moves and setup stones of a game's main line.
    #[arg(long, value_name = "N", default_value_t = sgf::Limits::DEFAULT.events)]
    max_game_events: u64,
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
pub enum ProfileArg {
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
pub struct InfoArgs {
    /// The index file.
    #[arg(long)]
    index: PathBuf,
    /// Also verify the whole file (checksums and every record), as `verify` does.
    #[arg(long)]
    verify: bool,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
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
}

#[derive(Args, Debug)]
pub struct AddArgs {
    /// The index to add to.
    index: PathBuf,
    /// Records (.sgf, .gib, .ngf, .ugf), archives (.tgz, .tar.bz2, .tar.xz, .zip, .7z) or
    /// folders searched recursively.
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
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The index or book file.
    index: PathBuf,
}

/// `kifudex build`.
pub fn build(a: BuildArgs) -> Result<ExitCode> {
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
        limits: Limits {
            record_bytes: a.max_record_bytes,
            archive_members: a.max_archive_members,
            decoder_bytes: a.max_decoder_memory,
            sgf: sgf::Limits {
                nodes: a.max_tree_nodes,
                depth: a.max_tree_depth,
                value_bytes: a.max_value_bytes,
                events: a.max_game_events,
            },
        },
        ..BuildOptions::default()
    };
    if a.predictor && opts.profile != Profile::Mcu {
        anyhow::bail!("--predictor needs --profile mcu");
    }
    let mut report = indexing::BuildReport::default();
    let built = indexing::build_reporting(&a.paths, &a.output, &opts, &mut report);
    if let Some(file) = &a.report {
        let json = indexing::problems::to_json(&report.problems).to_string();
        indexing::write_atomically(file, json.as_bytes())?;
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

/// `kifudex info`.
pub fn info(a: InfoArgs) -> Result<ExitCode> {
    let InfoArgs { index, verify } = a;
    let bytes = open_index_file(&index)?;
    print_stdout(
        &kifudex::info::describe(&bytes, verify).with_context(|| format!("{}", index.display()))?,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `kifudex merge`.
pub fn merge(a: MergeArgs) -> Result<ExitCode> {
    let MergeArgs {
        indexes,
        output,
        keep_duplicates,
        quiet,
    } = a;
    let report = indexing::merge(&indexes, &output, keep_duplicates)?;
    if !quiet {
        eprintln!("{}", report.summary());
    }
    Ok(ExitCode::SUCCESS)
}

/// `kifudex add`.
pub fn add(a: AddArgs) -> Result<ExitCode> {
    let AddArgs {
        index,
        paths,
        keep_duplicates,
        rebuild,
        timings,
        quiet,
    } = a;
    let report = if rebuild {
        indexing::add_by_rebuild(&index, &paths, keep_duplicates)?
    } else {
        indexing::add(&index, &paths, keep_duplicates)?
    };
    if !quiet {
        eprintln!("{}", report.summary());
    }
    if timings {
        eprint!("{}", report.phases_text());
    }
    Ok(ExitCode::SUCCESS)
}

/// `kifudex verify`.
pub fn verify(a: VerifyArgs) -> Result<ExitCode> {
    let VerifyArgs { index } = a;
    let bytes = open_index_file(&index)?;
    let what = kifudex::info::verify(&bytes).with_context(|| format!("{}", index.display()))?;
    print_stdout(&format!("{}: {what}\n", index.display()))?;
    Ok(ExitCode::SUCCESS)
}
