//! `kifudex hints`: the hint protocol (docs/HINTS.md) on standard input and output, answered by
//! the very handler the firmware runs ([`kifudex_core::hints`]) through
//! `embedded-io-adapters`, so the replies are the firmware's bytes. Standard output carries
//! the replies only; the LED frames (with `--leds`) and warnings go to standard error.

use std::io::{self, BufWriter, Read, Write};

use anyhow::{anyhow, Result};
use embedded_io_adapters::std::FromStd;
use kifudex_core::book::Book;
use kifudex_core::hints::{End, LedFrame, Leds, ServeError, StandardHints};

/// The harness that measures these hints on tracked games, now `kifudex::tracking`; kept
/// under its former paths for code written against them.
pub use crate::tracking::{eval, stream};

/// Retries reads interrupted by a signal (`embedded-io` has no such retry).
struct Uninterrupted<R>(R);

impl<R: Read> Read for Uninterrupted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.0.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                other => return other,
            }
        }
    }
}

/// LED frames as text lines on standard error (`leds pd:255 dp:120`), or nowhere.
struct StderrLeds(bool);

impl Leds for StderrLeds {
    fn show(&mut self, frame: &LedFrame) {
        if self.0 {
            eprintln!("{frame}");
        }
    }
}

/// Serves requests from `input` on `output` with the book `bytes` until `quit` or the end
/// of the input. A book that fails validation is not an error here: every request is then
/// answered `error bad-book` (or `error unsupported-book`), as the firmware would; `warn`
/// receives the reason once.
pub fn serve(
    bytes: &[u8],
    input: impl Read,
    output: impl Write,
    leds: bool,
    warn: impl FnOnce(&str),
) -> Result<End> {
    let hints = StandardHints::new(Book::open(bytes));
    if let Err(problem) = hints.book() {
        warn(&problem.to_string());
    }
    let mut r = FromStd::new(Uninterrupted(input));
    let mut w = FromStd::new(BufWriter::new(output));
    match hints.serve(&mut r, &mut w, &mut StderrLeds(leds)) {
        // Whoever read the replies has gone (`| head -1`): nothing more to answer.
        Err(ServeError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(End::Eof),
        Err(ServeError::Write(e)) => Err(anyhow!("writing replies: {e}")),
        Err(ServeError::Read(e)) => Err(anyhow!("reading requests: {e}")),
        Ok(end) => Ok(end),
    }
}

/// Why `hints` cannot answer from `bytes` (a damaged file, a desktop index, a book whose
/// positions hold more next moves than the handler keeps), or `None` if it can.
pub fn book_problem(bytes: &[u8]) -> Option<String> {
    StandardHints::new(Book::open(bytes))
        .book()
        .err()
        .map(|p| p.to_string())
}

/// Serves standard input and output. A book it cannot use is an error before any request
/// is read (the firmware, which has no one to tell, answers `error bad-book` instead).
pub fn run_stdio(bytes: &[u8], name: &str, leds: bool) -> Result<End> {
    if let Some(problem) = book_problem(bytes) {
        anyhow::bail!("{name}: cannot answer hints from this file: {problem}");
    }
    serve(
        bytes,
        io::stdin().lock(),
        io::stdout().lock(),
        leds,
        |problem| eprintln!("kifudex hints: {name}: {problem}"),
    )
}
