//! The command line: clap's arguments, one module per kind of command, each turning its
//! arguments into a request (or the builder's options) and the answer into output:
//! the explorer's questions ([`query`]), the front ends that hold an index ([`serve`]:
//! the web board, the shell, the GTP and analysis engines, the hint protocol),
//! the analyses of all games ([`analysis`]), the builder's commands ([`build`]); the
//! arguments several share ([`args`]).

mod analysis;
mod args;
mod build;
mod query;
mod serve;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};
use kifudex::explore::ExploreError;
use kifudex::print_stdout;

/// kifudex: what strong players played next, for the position on your board.
#[derive(Parser, Debug)]
#[command(name = "kifudex", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Build an index (or a microcontroller book) from SGF files, folders and archives.
    Build(build::BuildArgs),
    /// Next moves for a position, found in any orientation.
    Search(query::SearchArgs),
    /// The games that reached a position (or hold a pattern), newest first.
    Games(query::GamesArgs),
    /// Wildcard pattern search: where a local shape appeared (any orientation, colours
    /// exchanged too) and what was played next in its region.
    Pattern(query::PatternArgs),
    /// bGo's interactive shell: play moves, search, filter by year, list and replay games.
    Shell(serve::ShellArgs),
    /// Answer the hint protocol (docs/HINTS.md) from a book: requests on standard input, one
    /// reply line each on standard output, as the firmware answers on its UART.
    Hints(serve::HintsArgs),
    /// A GTP engine for Sabaki, Lizzie, GoGui and q5Go (docs/GTP.md): genmove plays the
    /// most played database move, lz-analyze and kata-analyze show the database's moves.
    Gtp(serve::EngineArgs),
    /// KataGo's JSON analysis protocol answered from the index, for KaTrain (docs/GTP.md).
    Analysis(serve::EngineArgs),
    /// Local shape statistics: the 3x3, diamond and 5x5 patterns around the played moves
    /// (canonical under the 8 symmetries, colours as the mover sees them), how often each
    /// was played when it was there, and the most frequent openings. (Named `patterns`
    /// before `pattern` searched; that name still works.)
    #[command(alias = "patterns")]
    Shapes(analysis::ShapesArgs),
    /// Learn the move predictor from an index's games and measure it on held-out games.
    Predict(analysis::PredictArgs),
    /// One stored game as the web board's JSON (information, setup, moves with captures),
    /// or as SGF.
    Game(query::GameArgs),
    /// Serve the web board (search board, game list, replay) and its JSON API.
    Serve(serve::ServeArgs),
    /// What an index holds.
    Info(build::InfoArgs),
    /// Merge indexes into one: the index one build of all their inputs would give, in
    /// this order (shards built anywhere combine this way).
    Merge(build::MergeArgs),
    /// Add the games of SGF files, archives or folders to an index (rewritten atomically):
    /// the index one build of its inputs followed by these would give.
    Add(build::AddArgs),
    /// Verify an index or book completely: checksums and every record (opening an index
    /// for a search checks only its structure).
    Verify(build::VerifyArgs),
}

impl Command {
    /// Runs the command: its exit status, or the error that ends it (status 1).
    pub fn run(self) -> Result<ExitCode> {
        match self {
            Command::Build(a) => build::build(a),
            Command::Search(a) => query::search(a),
            Command::Games(a) => query::games(a),
            Command::Pattern(a) => query::pattern(a),
            Command::Shell(a) => serve::shell(a),
            Command::Hints(a) => serve::hints(a),
            Command::Gtp(a) => serve::gtp(a),
            Command::Analysis(a) => serve::analysis(a),
            Command::Shapes(a) => analysis::shapes(a),
            Command::Predict(a) => analysis::predict(a),
            Command::Game(a) => query::game(a),
            Command::Serve(a) => serve::serve(a),
            Command::Info(a) => build::info(a),
            Command::Merge(a) => build::merge(a),
            Command::Add(a) => build::add(a),
            Command::Verify(a) => build::verify(a),
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

/// Prints a usage error and gives exit status 2.
fn usage_error(e: anyhow::Error) -> ExitCode {
    eprintln!("kifudex: {e:#}");
    ExitCode::from(2)
}
