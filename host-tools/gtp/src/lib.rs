//! kifudex inside the tools players review games with (`docs/GTP.md`): `kifudex gtp`, a
//! GTP version 2 engine whose moves and analysis come from the index (Sabaki, Lizzie,
//! GoGui, q5Go), and `kifudex analysis`, KataGo's JSON analysis protocol answered from the
//! index (KaTrain).
//!
//! | file | one idea |
//! |---|---|
//! | `protocol.rs` | GTP's framing: bounded lines, preprocessing, ids, answers, colours and vertices |
//! | `engine.rs` | the engine's state (board, history, komi) and its commands |
//! | `analysis.rs` | the database's moves as `lz-analyze`, `kata-analyze` and GoGui lines |
//! | `json_engine.rs` | KataGo's JSON analysis protocol: queries in, answers out |
//! | `json_reply.rs` | that protocol's replies as types, serialized in KataGo's field order |
//! | `database.rs` | the one question asked of the explorer: a position's next moves of one colour |
//!
//! [`serve`] runs the engine over a reader and a writer: a thread reads the input line by
//! line into a channel, so that an analysis, which writes a line every interval, stops at
//! the next line that arrives without losing it, and `quit` or the end of the input always
//! ends the engine.
//!
//! A session over the bundled sample (bGo's archive of professional games, indexed in
//! memory), as a review tool drives `kifudex gtp`:
//!
//! ```
//! use kifudex_explore::explore::request::{At, GameFilter, Position, SearchRequest};
//! use kifudex_explore::explore::{self, Explorer};
//! use kifudex_gtp::{serve, Engine};
//!
//! # fn main() -> anyhow::Result<()> {
//! let (bytes, name) = explore::load(None)?;
//! let explorer = Explorer::open(&bytes, name)?;
//! let mut engine = Engine::new(&explorer, GameFilter::default());
//! let commands = "1 name\n2 play B Q16\n3 play W D4\n4 play B Q4\n5 genmove W\n6 quit\n";
//! let mut replies = Vec::new();
//! serve(&mut engine, std::io::Cursor::new(commands), &mut replies)?;
//! let replies = String::from_utf8(replies)?;
//! // (An empty answer is `=ID ` then the blank line that ends every answer.)
//! assert!(replies.starts_with("=1 kifudex\n\n=2 \n\n=3 \n\n=4 \n\n=5 "));
//! assert!(replies.ends_with("\n\n=6 \n\n"));
//! // White's move: the one the sample's games played most often after Q16, D4, Q4.
//! let genmove = replies.lines().find_map(|l| l.strip_prefix("=5 ")).unwrap();
//! let at = At::Stated(Position {
//!     moves: "pd,dp,pp".into(),
//!     ..Position::default()
//! });
//! let search = SearchRequest { at, ..SearchRequest::default() };
//! let most_played = &explorer.search(&search)?.next[0];
//! let size = kifudex_core::Size::STANDARD;
//! assert_eq!(kifudex_gtp::protocol::parse_vertex(genmove, size).ok(), Some(most_played.mv));
//! # Ok(())
//! # }
//! ```
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod analysis;
pub mod database;
pub mod engine;
pub mod json_engine;
pub mod json_reply;
pub mod protocol;

use std::io::{self, BufReader, Read, Write};
use std::sync::mpsc::{self, RecvTimeoutError};

pub use engine::{Engine, Step};

use protocol::RawLine;

// The modules of the crates below, under their own names (`crate::explore`, `crate::sgf`).
use kifudex_explore::explore;
use kifudex_records::{input, position, sgf};

/// Reads `input` line by line on a thread of its own; the channel ends with the input
/// (or a read error, reported on standard error).
fn spawn_reader(input: impl Read + Send + 'static) -> mpsc::Receiver<RawLine> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(input);
        loop {
            match protocol::read_line(&mut r) {
                Ok(Some(line)) => {
                    if tx.send(line).is_err() {
                        return;
                    }
                }
                Ok(None) => return,
                Err(e) => {
                    eprintln!("kifudex gtp: reading commands: {e}");
                    return;
                }
            }
        }
    });
    rx
}

/// Answers the GTP commands of `input` on `output` until `quit` or the end of the input.
/// A closed output (the controller has gone) ends the engine quietly; another write error
/// is returned.
pub fn serve(
    engine: &mut Engine<'_>,
    input: impl Read + Send + 'static,
    output: impl Write,
) -> io::Result<()> {
    match serve_lines(engine, spawn_reader(input), output) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

fn serve_lines(
    engine: &mut Engine<'_>,
    lines: mpsc::Receiver<RawLine>,
    mut out: impl Write,
) -> io::Result<()> {
    // A line that arrived during an analysis, to answer next.
    let mut pending: Option<RawLine> = None;
    loop {
        let line = match pending.take() {
            Some(l) => l,
            None => match lines.recv() {
                Ok(l) => l,
                Err(_) => return Ok(()),
            },
        };
        match engine.handle(&line) {
            None => {}
            Some(Step::Answer(text)) => {
                out.write_all(text.as_bytes())?;
                out.flush()?;
            }
            Some(Step::Quit(text)) => {
                out.write_all(text.as_bytes())?;
                out.flush()?;
                return Ok(());
            }
            Some(Step::Analyze {
                head,
                line,
                interval,
            }) => {
                out.write_all(head.as_bytes())?;
                loop {
                    if !line.is_empty() {
                        out.write_all(line.as_bytes())?;
                        out.write_all(b"\n")?;
                    }
                    out.flush()?;
                    let next = match interval {
                        Some(every) => match lines.recv_timeout(every) {
                            Ok(l) => Some(l),
                            Err(RecvTimeoutError::Timeout) => continue,
                            Err(RecvTimeoutError::Disconnected) => None,
                        },
                        None => lines.recv().ok(),
                    };
                    // Any line ends the analysis (an empty one too, as KataGo does);
                    // a command on it is answered next.
                    out.write_all(b"\n")?;
                    out.flush()?;
                    match next {
                        Some(l) => pending = Some(l),
                        None => return Ok(()),
                    }
                    break;
                }
            }
        }
    }
}

/// `kifudex gtp` on standard input and output.
pub fn run_stdio(engine: &mut Engine<'_>) -> anyhow::Result<()> {
    serve(engine, io::stdin(), io::stdout().lock())
        .map_err(|e| anyhow::anyhow!("writing answers: {e}"))
}
