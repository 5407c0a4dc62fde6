//! The front ends that hold an index for a while: the web board (`serve`), the shell
//! (`shell`) and the engines for review tools (`gtp`, `analysis`), all over the explorer;
//! and the hint protocol over a book (`hints`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use kifudex::explore::scan_cache::ScanOptions;
use kifudex::explore::{self, Explorer};
use kifudex::open_index_file;

use super::args::FilterArgs;
use super::usage_error;

#[derive(Args, Debug)]
pub struct ServeArgs {
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
    /// Pattern searches that scan the games at once (apart from the other answers); one
    /// more gets 503 with Retry-After at once.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..))]
    max_scans: u16,
    /// Memory for the pattern scans kept for the next question about the same query, in
    /// MiB (0: none kept).
    #[arg(long, default_value_t = 256)]
    pattern_cache_mb: usize,
    /// Tests only: a pause after each slice (of one block) of a pattern scan, in
    /// milliseconds, to hold a scan open.
    #[arg(long, hide = true, default_value_t = 0)]
    scan_slice_delay_ms: u64,
}

#[derive(Args, Debug)]
pub struct ShellArgs {
    /// The index file (default: the bundled sample of 286 professional games, indexed
    /// in memory). The shell's `import` adds games to it (a file is rewritten as `add`
    /// does).
    index: Option<PathBuf>,
    /// A book built with `--predictor`: its move predictor answers `predict`.
    #[arg(long)]
    predictor: Option<PathBuf>,
}

/// The engines' options: the index, the games that count and (gtp) a predictor.
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// The index file (default: the bundled sample, indexed in memory).
    #[arg(long)]
    index: Option<PathBuf>,
    /// gtp: a book built with `--profile mcu --predictor`: genmove plays its best guess
    /// where no game of the index continues.
    #[arg(long)]
    book: Option<PathBuf>,
    #[command(flatten)]
    filter: FilterArgs,
}

#[derive(Args, Debug)]
pub struct HintsArgs {
    /// The book (`kifudex build --profile mcu`).
    #[arg(long)]
    index: PathBuf,
    /// Also print each reply's LED frame on standard error (`leds pd:255 dp:120`).
    #[arg(long)]
    leds: bool,
}

/// `kifudex serve`: the web board and its API until Ctrl-C.
pub fn serve(a: ServeArgs) -> Result<ExitCode> {
    let ServeArgs {
        index,
        addr,
        book,
        max_scans,
        pattern_cache_mb,
        scan_slice_delay_ms,
    } = a;
    let (bytes, label) = explore::load(index.as_deref())?;
    let limits = kifudex::web::Limits {
        max_scans: max_scans.into(),
        ..kifudex::web::Limits::default()
    };
    let mut explorer =
        Explorer::open(explore::keep(bytes), label.clone())?.with_scan_options(ScanOptions {
            cache_bytes: pattern_cache_mb.saturating_mul(1 << 20),
            // Their own pool: every core for one scan when nothing else waits.
            threads: Some(std::thread::available_parallelism().map_or(2, |n| n.get())),
            slice_delay: std::time::Duration::from_millis(scan_slice_delay_ms),
        })?;
    if let Some(book) = book {
        let bytes = open_index_file(&book)?;
        explorer = explorer.with_predictor(explore::keep(bytes), &book.display().to_string())?;
    }
    let games = explorer.game_count();
    if !kifudex::web::is_loopback(&addr) {
        eprintln!(
            "kifudex: warning: listening on {addr}, not on loopback: other machines can reach the board"
        );
    }
    let explorer = std::sync::Arc::new(explorer);
    // The positions most games reach walked in the background (a second or two at a
    // million games), so that first questions about them wait no walk.
    let warming = std::sync::Arc::clone(&explorer);
    std::thread::spawn(move || warming.warm());
    let server = kifudex::web::RunningServer::start(addr, explorer, limits)
        .with_context(|| format!("cannot listen on {addr}"))?;
    eprintln!(
        "kifudex: serving {label} ({games} games) at http://{}/ (Ctrl-C stops)",
        server.addr()
    );
    server.wait_for_ctrl_c()?;
    Ok(ExitCode::SUCCESS)
}

/// `kifudex shell`: bGo's shell on standard input and output.
pub fn shell(a: ShellArgs) -> Result<ExitCode> {
    let ShellArgs { index, predictor } = a;
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

/// `kifudex hints`: the hint protocol from a book.
pub fn hints(a: HintsArgs) -> Result<ExitCode> {
    let HintsArgs { index, leds } = a;
    let bytes = open_index_file(&index)?;
    kifudex::hints::run_stdio(&bytes, &index.display().to_string(), leds)?;
    Ok(ExitCode::SUCCESS)
}

/// `kifudex gtp`: a GTP engine on standard input and output.
pub fn gtp(a: EngineArgs) -> Result<ExitCode> {
    let (bytes, label) = explore::load(a.index.as_deref())?;
    let mut explorer = Explorer::open(&bytes, label)?;
    let book = a.book.as_deref().map(open_index_file).transpose()?;
    if let (Some(bytes), Some(path)) = (&book, &a.book) {
        explorer = explorer.with_predictor(bytes, &path.display().to_string())?;
    }
    let mut engine = kifudex::gtp::Engine::new(&explorer, a.filter.filter());
    kifudex::gtp::run_stdio(&mut engine)?;
    Ok(ExitCode::SUCCESS)
}

/// `kifudex analysis`: KataGo's JSON analysis protocol on standard input and output.
pub fn analysis(a: EngineArgs) -> Result<ExitCode> {
    if a.book.is_some() {
        return Ok(usage_error(anyhow::anyhow!("analysis takes no --book")));
    }
    let (bytes, label) = explore::load(a.index.as_deref())?;
    let explorer = Explorer::open(&bytes, label)?;
    kifudex::gtp::json_engine::run_stdio(&explorer, a.filter.filter())?;
    Ok(ExitCode::SUCCESS)
}
