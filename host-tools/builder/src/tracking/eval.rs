//! How good the hints of a tracked game are (`kifudex predict --eval --streams`): a book and
//! its move predictor built from the training games of a collection, the hint protocol's
//! replies to noisy snapshot streams of the test games ([`super::stream`]: the legacy
//! generator, or a physical timeline of each game as a periodic or a change-only board
//! sends it) read where the players were about to move, beside the replies to the same
//! positions sent as plain snapshots (the side to move named, no last moves).
//!
//! The split is the predictor evaluation's ([`crate::predict::games`]): one game in
//! `test_every` by a hash of its setup and first 40 moves, so a game recorded twice lands on
//! one side; a file holding a test game gives no game to the book.

use anyhow::{bail, Result};
use rayon::prelude::*;

use kifudex_core::book::Book;
use kifudex_core::hints::{NoLeds, Output, StandardHints, Workspace, CAPACITY};
use kifudex_core::notation::parse_moves;
use kifudex_core::{Board, Color, Move, Point, Size, Stone};

use super::stream::{
    check_record, render, stream, timeline, Cadence, Game, Noise, NoiseCount, Protocol, Trackable,
};
use crate::indexing::{build_in_memory, BuildOptions, Profile};
use crate::predict::eval::{Report, Tally, BUCKETS};
use crate::predict::games::{is_test_key, split_key_of};
use crate::predict::TrainOptions;

/// How the book is built and the games are split.
#[derive(Clone, Debug)]
pub struct StreamOptions {
    /// One game in N is a test game.
    pub test_every: u64,
    /// The book's positions: the first N moves of each training game.
    pub book_max_moves: u32,
    /// The book's next moves: seen at least N times.
    pub book_min_count: u32,
    /// How the predictor is learnt.
    pub train: TrainOptions,
    /// The noise of each test game's stream is seeded with this and the game's number.
    pub seed: u64,
    /// The boards' cadences, each measured on the same book: the streams of a physical
    /// timeline ([`super::stream::timeline`], the noise of [`StreamOptions::noise`]) as a board
    /// of this cadence sends them; `None`: the legacy generator ([`stream`]: periodic, the
    /// players waiting while the board asks for a fix).
    pub cadences: Vec<Option<Cadence>>,
    /// With a cadence: the snapshots carry their time (`t=<ms>`).
    pub times: bool,
    /// With a cadence: the noise of each game's timeline ([`Noise::ALL`], or
    /// [`Noise::ISSUE`]: no reading lost, no fix ignored).
    pub noise: Noise,
}

/// What the measurement counted: the book, the games, the snapshots and their noise.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StreamCounts {
    /// Training games (in the book).
    pub train_games: usize,
    /// Test games whose streams were measured.
    pub test_games: usize,
    /// Test games a board cannot follow (a pass before the last stone, a move the rules
    /// refuse, not 19x19).
    pub untrackable: usize,
    /// The book's size in bytes.
    pub book_bytes: usize,
    /// Snapshots sent.
    pub snapshots: usize,
    /// Their noise.
    pub noise: NoiseCount,
    /// Test games whose record (the `game` reply) was not their main line.
    pub records_wrong: usize,
    /// The cadence of the streams (`None`: the legacy generator).
    pub cadence: Option<Cadence>,
    /// Whether the snapshots carried their time.
    pub times: bool,
}

/// What the measurement found.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamEvaluation {
    /// The counts.
    pub counts: StreamCounts,
    /// The replies to the tracked streams, read before each move.
    pub tracked: Report,
    /// The replies to the same positions as plain snapshots, the side to move named.
    pub snapshots_alone: Report,
}

/// Builds the book from the training games of `paths` and measures the test games'
/// streams of each cadence (see the module documentation).
pub fn evaluate_streams(
    paths: &[std::path::PathBuf],
    opts: &StreamOptions,
    mut log: impl FnMut(&str),
) -> Result<Vec<StreamEvaluation>> {
    let (sources, _) = crate::input::collect_sources(paths);
    let parsed: Vec<_> = sources.par_iter().map(|s| s.parse().games).collect();
    let test_of = |g: &crate::sgf::GameRecord| {
        is_test_key(
            split_key_of(g.size, g.events.iter().copied()),
            opts.test_every,
        )
    };
    let mut train = Vec::new();
    let mut tests = Vec::new();
    for (source, games) in sources.into_iter().zip(parsed) {
        if games.iter().any(test_of) {
            tests.extend(games.into_iter().filter(|g| test_of(g)));
        } else {
            train.push(source);
        }
    }
    if train.is_empty() || tests.is_empty() {
        bail!("no training or no test games in the inputs");
    }
    log(&format!(
        "{} training files, {} test games; building the book (--max-moves {} --min-count {} --predictor)",
        train.len(),
        tests.len(),
        opts.book_max_moves,
        opts.book_min_count
    ));
    let build = BuildOptions {
        profile: Profile::Mcu,
        max_moves: Some(opts.book_max_moves),
        min_count: opts.book_min_count,
        predictor: Some(opts.train.clone()),
        ..BuildOptions::default()
    };
    let (book, report) = build_in_memory(train, &[], &build)?;
    log(&format!(
        "book: {} bytes from {} games ({})",
        book.len(),
        report.games_indexed,
        report.predictor.clone().unwrap_or_default()
    ));
    let games: Vec<Trackable> = tests
        .iter()
        .filter(|g| g.size == Size::STANDARD)
        .filter_map(|g| Trackable::of(g.size, &g.events).ok())
        .collect();
    let untrackable = tests.len() - games.len();
    let hints = StandardHints::new(Book::open(&book));
    if let Err(e) = hints.book() {
        bail!("the book does not read back: {e}");
    }
    let mut all = Vec::new();
    for &cadence in &opts.cadences {
        let per_game: Vec<GameResult> = games
            .par_iter()
            .enumerate()
            .map(|(i, g)| measure(&hints, g, opts.seed.wrapping_add(i as u64), cadence, opts))
            .collect();
        let mut out = StreamEvaluation {
            counts: StreamCounts {
                train_games: report.games_indexed,
                test_games: games.len(),
                untrackable,
                book_bytes: book.len(),
                snapshots: 0,
                noise: NoiseCount::default(),
                records_wrong: 0,
                cadence,
                times: opts.times,
            },
            tracked: Report {
                games: games.len(),
                ..Report::default()
            },
            snapshots_alone: Report {
                games: games.len(),
                ..Report::default()
            },
        };
        for r in &per_game {
            out.counts.snapshots += r.snapshots;
            out.counts.noise += r.noise;
            out.counts.records_wrong += !r.record_right as usize;
            for (total, part) in [
                (&mut out.tracked, &r.tracked),
                (&mut out.snapshots_alone, &r.alone),
            ] {
                for (b, t) in total.buckets.iter_mut().zip(part) {
                    b.add(t);
                }
            }
        }
        for r in [&mut out.tracked, &mut out.snapshots_alone] {
            for b in r.buckets {
                r.overall.add(&b);
            }
        }
        all.push(out);
    }
    Ok(all)
}

/// One test game's counts.
struct GameResult {
    snapshots: usize,
    noise: NoiseCount,
    record_right: bool,
    tracked: [Tally; 4],
    alone: [Tally; 4],
}

/// Sends one game's stream, and its positions as plain snapshots, to `hints`.
fn measure(
    hints: &StandardHints<'_>,
    game: &Trackable,
    seed: u64,
    cadence: Option<Cadence>,
    opts: &StreamOptions,
) -> GameResult {
    let mut ws: Box<Workspace<CAPACITY>> = Box::default();
    let ask = |ws: &mut Workspace<CAPACITY>, line: &str| -> String {
        match hints.reply(line.as_bytes(), ws, &mut NoLeds) {
            Some(Output::Line(b)) => String::from_utf8_lossy(b).trim_end().to_string(),
            Some(Output::Game(record)) => {
                let mut v = Vec::new();
                let _ = record.write_sgf(&mut embedded_io_adapters::std::FromStd::new(&mut v));
                String::from_utf8_lossy(&v).trim_end().to_string()
            }
            None => String::new(),
        }
    };
    ask(&mut ws, "track");
    let (replies, before_move, snapshots, noise) = match cadence {
        None => {
            let s = stream(game, seed, |line| ask(&mut ws, line));
            (s.replies, s.before_move, s.lines.len(), s.noise)
        }
        Some(cadence) => {
            let g = Game::from_trackable(game);
            let tl = timeline(&g, seed, Protocol::Today, &opts.noise);
            let r = render(&tl, cadence, opts.times, seed);
            let replies: Vec<String> = r.lines.iter().map(|l| ask(&mut ws, l)).collect();
            (replies, r.before_move, r.lines.len(), tl.noise)
        }
    };
    let record = ask(&mut ws, "game");
    let record_right = check_record(&Game::from_trackable(game), &record, false).is_ok();
    ask(&mut ws, "untrack");
    let last = BUCKETS[BUCKETS.len() - 1].1;
    let mut tracked = [Tally::default(); 4];
    let mut alone = [Tally::default(); 4];
    let mut board = Board::new(game.size);
    for &(p, c) in &game.setup {
        let _ = board.set_stone(p, Stone::of(c));
    }
    for (n, &(color, p)) in game.moves.iter().enumerate().take(last + 1) {
        let Some(b) = BUCKETS.iter().position(|&(lo, hi)| n >= lo && n <= hi) else {
            continue;
        };
        let plain = format!("board 19 {} {}", cells(&board), color.letter());
        let alone_reply = ask(&mut ws, &plain);
        let tracked_reply = before_move.get(n).and_then(|&k| replies.get(k));
        for (tally, reply) in [
            (&mut tracked[b], tracked_reply.map(String::as_str)),
            (&mut alone[b], Some(alone_reply.as_str())),
        ] {
            tally.positions += 1;
            let named = reply.map(|r| named_moves(r, color)).unwrap_or_default();
            if !named.is_empty() {
                tally.covered += 1;
            }
            if let Some(rank) = named.iter().position(|&q| same_class(&board, q, p)) {
                tally.top1 += (rank == 0) as u64;
                tally.top5 += (rank < 5) as u64;
            }
        }
        let _ = board.play(color, Move::Play(p));
    }
    GameResult {
        snapshots,
        noise,
        record_right,
        tracked,
        alone,
    }
}

/// The moves of `color` a `hints` or `guess` reply names, in its order.
fn named_moves(reply: &str, color: Color) -> Vec<Point> {
    let mut words = reply.split(' ');
    let skip = match words.next() {
        Some("hints") => 2,
        Some("guess") => 1,
        _ => return Vec::new(),
    };
    words
        .skip(skip)
        .filter_map(|w| {
            let mut parts = w.split(':');
            let mv = parts.next()?;
            let c = parts.next()?;
            if c.as_bytes().first() != Some(&(color.letter() as u8)) {
                return None;
            }
            parse_moves(mv, Size::STANDARD).next()?.ok()?.point()
        })
        .collect()
}

/// Whether `shown` is `played` or one of its images under the position's symmetries (a
/// reply shows one move of each class).
fn same_class(board: &Board, shown: Point, played: Point) -> bool {
    board
        .symmetries()
        .iter()
        .any(|t| t.apply(played, board.size()) == Some(shown))
}

/// A board's cells as a `board` request lists them.
fn cells(board: &Board) -> String {
    let size = board.size();
    let mut s = String::with_capacity(size.points());
    for y in 0..size.height() {
        for x in 0..size.width() {
            s.push(match board.get(Point::new(x, y)) {
                Stone::Empty => '.',
                Stone::Black => 'X',
                Stone::White => 'O',
            });
        }
    }
    s
}

/// The record a tracker should print for `game`: the `game` reply's form.
pub fn sgf_of(game: &Trackable) -> String {
    let mut s = format!("(;GM[1]FF[4]SZ[{}]", game.size.width());
    let letters = |p: Point| format!("{}{}", (b'a' + p.x) as char, (b'a' + p.y) as char);
    for (color, tag) in [(Color::Black, "AB"), (Color::White, "AW")] {
        let mut stones: Vec<Point> = game
            .setup
            .iter()
            .filter(|s| s.1 == color)
            .map(|s| s.0)
            .collect();
        stones.sort_by_key(|p| p.index19());
        if !stones.is_empty() {
            s += tag;
            for p in stones {
                s += &format!("[{}]", letters(p));
            }
        }
    }
    if game.moves.first().map_or(game.first_by_rule(), |m| m.0) == Color::White {
        s += "PL[W]";
    }
    for &(c, p) in &game.moves {
        s += &format!(";{}[{}]", c.letter(), letters(p));
    }
    s + ")"
}
