//! `kifudex hints`: the hint protocol (docs/HINTS.md) on books built from real games, checked
//! against `kifudex search --json` on a desktop index of the same games and, where QEMU is
//! installed, against the firmware's UART replies byte for byte.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn shared(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared")
        .join(rel)
}

fn kifudex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(args)
        .output()
        .expect("run kifudex")
}

fn build(inputs: &[PathBuf], out: &Path, extra: &[&str]) {
    let mut args: Vec<&str> = vec!["build"];
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    args.extend(["-o", out.to_str().unwrap(), "--quiet"]);
    args.extend(extra);
    let o = kifudex(&args);
    assert!(
        o.status.success(),
        "build: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// [`build`], unless this target folder holds the output of the same build: the same
/// `kifudex` binary (its bytes), arguments and input files (each one's path, length and
/// modification time). scripts/test.sh runs this test binary a second time for the firmware
/// under QEMU, and the cross-check's book spends most of a minute learning its predictor; a
/// build is deterministic, so the second run reads what the first wrote. The key is written
/// after the output, so an interrupted build is made again.
fn build_once(inputs: &[PathBuf], out: &Path, extra: &[&str]) {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    std::fs::read(env!("CARGO_BIN_EXE_kifudex"))
        .expect("read the kifudex binary")
        .hash(&mut h);
    extra.hash(&mut h);
    for input in inputs {
        for e in walkdir::WalkDir::new(input).sort_by_file_name() {
            let e = e.expect("walk the inputs");
            let m = e.metadata().expect("stat an input");
            (e.path(), m.len(), m.modified().ok()).hash(&mut h);
        }
    }
    let key = format!("{:016x}\n", h.finish());
    let key_file = out.with_extension("key");
    if out.is_file() && std::fs::read_to_string(&key_file).ok().as_deref() == Some(key.as_str()) {
        return;
    }
    let _ = std::fs::remove_file(&key_file);
    build(inputs, out, extra);
    std::fs::write(&key_file, key).expect("write the build's key");
}

/// Runs `kifudex hints` with `requests` on standard input.
fn hints(book: &Path, requests: &[u8], extra: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(["hints", "--index", book.to_str().unwrap()])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kifudex hints");
    let mut stdin = child.stdin.take().unwrap();
    let input = requests.to_vec();
    let writer = std::thread::spawn(move || {
        // The handler may stop reading at `quit`: a broken pipe is fine.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn hints_protocol_on_bgo_test_archive() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("bgo.kdb");
    build(
        &[shared("corpus/bgo_testsgf/TestSGF.tgz")],
        &book,
        &["--profile", "mcu", "--max-moves", "30"],
    );
    let mut req = Vec::new();
    req.extend_from_slice(b"moves\n");
    req.extend_from_slice(b"moves \r\n");
    req.extend_from_slice(b"moves pd,dp,pp\n");
    req.extend_from_slice(b"moves pd,pd\n");
    req.extend_from_slice(b"moves pd,,dp\n");
    req.extend_from_slice(b"moves zz\n");
    // The empty 19x19 board as a sensor snapshot, and one with a stone at pd.
    req.extend_from_slice(format!("board 19 {}\n", ".".repeat(361)).as_bytes());
    let mut cells = vec![b'.'; 361];
    cells[3 * 19 + 15] = b'X';
    req.extend_from_slice(b"board 19 ");
    req.extend_from_slice(&cells);
    req.push(b'\n');
    req.extend_from_slice(format!("board 19 {}\n", ".".repeat(360)).as_bytes());
    req.extend_from_slice(b"board 20 .\n");
    req.extend_from_slice(b"board 9 .........\n");
    req.extend_from_slice(format!("board 9 {}\n", ".".repeat(81)).as_bytes());
    // The documented snapshot errors: an X captured but not lifted; a full board.
    req.extend_from_slice(b"board 3 XO.OX....\n");
    req.extend_from_slice(b"board 2 XOOX\n");
    req.extend_from_slice(b"hello\n\n");
    req.extend_from_slice(&[b'm'; 5000]);
    req.extend_from_slice(b"\n\x00\xff\x01\x1b[A\n");
    // The moves in every notation `--moves` takes: human coordinates, SGF letters in
    // either case, spaces.
    req.extend_from_slice(b"moves Q16 D4 q4\nmoves PD,dp pp\n");
    req.extend_from_slice(b"quit\nmoves\n");
    let out = hints(&book, &req, &["--leds"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    // bGo's answer for the empty board: the pd class 210, qd 74, qe 2 (total 286).
    let empty = "hints 0 286 pd:B:210 qd:B:74 qe:B:2";
    assert_eq!(
        lines,
        [
            empty,
            empty,
            "hints 959678554 7 dd:W:6 dc:W:1",
            "error illegal-move",
            "error bad-request",
            "error illegal-move",
            empty,
            lines[7].as_str(),
            "error bad-request",
            "error unsupported-size",
            "error bad-request",
            // The book holds no 9x9 game.
            "error unsupported-size",
            "error no-liberties",
            "error impossible-count",
            "error bad-request",
            "error bad-request",
            "error bad-request",
            "error bad-request",
            "hints 959678554 7 dd:W:6 dc:W:1",
            "hints 959678554 7 dd:W:6 dc:W:1",
        ]
    );
    assert!(lines[7].starts_with("hints "), "{}", lines[7]);
    // The LED frames, one per reply, on standard error only.
    let frames: Vec<&str> = std::str::from_utf8(&out.stderr).unwrap().lines().collect();
    assert_eq!(frames.len(), lines.len());
    assert_eq!(frames[0], "leds pd:255 qd:90 qe:2");
    assert_eq!(frames[3], "leds");
}

#[test]
fn hints_on_a_book_it_cannot_use_fail_before_any_reply() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.kdb");
    std::fs::write(&bad, b"KIFUDEX\x1a this is not a book").unwrap();
    let out = hints(&bad, b"moves\nmoves pd\nnonsense\nquit\nmoves\n", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("bad book") && text(&out.stderr).contains("bad.kdb"),
        "{}",
        text(&out.stderr)
    );
    // A desktop index is not a book either.
    let index = dir.path().join("bgo.kdx");
    build(&[shared("corpus/bgo_testsgf/TestSGF.tgz")], &index, &[]);
    let out = hints(&index, b"moves\n", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    // The library's serve still answers `error bad-book`, as the firmware does.
    let mut replies = Vec::new();
    kifudex::hints::serve(b"not a book", &b"moves\n"[..], &mut replies, false, |_| {}).unwrap();
    assert_eq!(text(&replies), "error bad-book\n");
    // A missing file is a command-line error.
    let out = hints(&dir.path().join("missing"), b"moves\n", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

/// A handler holds the classes of one position in a fixed array of `N`; a book whose
/// positions hold more next moves than that is refused with `error unsupported-book`.
#[test]
fn a_book_beyond_the_handler_capacity_is_refused() {
    use kifudex_core::book::Book;
    use kifudex_core::hints::{BookProblem, Hints, NoLeds};
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("bgo.kdb");
    build(
        &[shared("corpus/bgo_testsgf/TestSGF.tgz")],
        &book,
        &["--profile", "mcu", "--max-moves", "30"],
    );
    let bytes = std::fs::read(&book).unwrap();
    let serve = |h: &dyn Fn(&mut &[u8], &mut &mut [u8]) -> usize| {
        let mut input: &[u8] = b"moves\nmoves pd\nquit\n";
        let mut out = [0u8; 512];
        let mut w: &mut [u8] = &mut out;
        let left = h(&mut input, &mut w);
        String::from_utf8(out[..512 - left].to_vec()).unwrap()
    };
    // The archive's book holds at most 7 next moves per position.
    let small: Hints<'_, 6> = Hints::new(Book::open(&bytes));
    assert_eq!(
        small.book().err(),
        Some(BookProblem::TooManyMoves {
            max_run: 7,
            capacity: 6
        })
    );
    let out = serve(&|r, w| {
        small.serve(r, w, &mut NoLeds).unwrap();
        w.len()
    });
    assert_eq!(out, "error unsupported-book\nerror unsupported-book\n");
    let enough: Hints<'_, 7> = Hints::new(Book::open(&bytes));
    let out = serve(&|r, w| {
        enough.serve(r, w, &mut NoLeds).unwrap();
        w.len()
    });
    assert!(
        out.starts_with("hints 0 286 pd:B:210 qd:B:74 qe:B:2\nhints "),
        "{out}"
    );
}

// ---------------------------------------------------------------------------------------------
// The cross-check on real games: `kifudex hints` against `kifudex search --json`, and the
// firmware under QEMU against `kifudex hints`.
// ---------------------------------------------------------------------------------------------

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use kifudex::input::collect_sources;
use kifudex::sgf::GameRecord;
use kifudex_core::hints::MAX_LINE;
use kifudex_core::notation::Sgf;
use kifudex_core::query::position_after;
use kifudex_core::{Board, Color, Event, Move, Point, Rules, Size, Stone};

/// The games of the cross-check: professional 19x19 games (handicap games included) and
/// 9x9 games.
const CROSS_INPUTS: [&str; 2] = ["corpus/fox_pro/9p", "corpus/aeb_9x9"];
const CROSS_MAX_MOVES: &str = "40";
/// Positions per mille the cross-check's predictor learns from (few: a quick build).
const CROSS_PREDICTOR_SAMPLE: &str = "30";

/// A position of a real game: its cells row by row (`.` `X` `O`) and, when the position
/// can be stated as `--moves` from the empty board, those moves (setup stones played as
/// moves, passes keeping the colours alternating).
#[derive(Clone, Debug)]
struct Position {
    size: u8,
    cells: String,
    moves: Option<String>,
    /// The move the game played from here.
    next: Option<(Color, Move)>,
}

/// A request of the cross-check and how its expected reply is found.
#[derive(Clone, Debug)]
enum Expect {
    /// `kifudex search --json --size N --moves M`: the book's classes when it holds a next
    /// move of the side to move, else the predictor's guesses.
    Search {
        size: u8,
        moves: String,
        /// The side to move: after `moves` for a `moves` request, by the stone counts for
        /// a snapshot.
        to_move: Color,
        /// The request is a snapshot (no ko point, no last moves known).
        snapshot: bool,
        /// The move the game played from here.
        next: Option<(Color, Move)>,
    },
    /// A fixed reply.
    Fixed(&'static str),
}

/// The side to move after a `--moves` list (Black first, colours alternating).
fn after_moves(moves: &str) -> Color {
    if moves.split(',').filter(|m| !m.is_empty()).count() % 2 == 0 {
        Color::Black
    } else {
        Color::White
    }
}

/// The side to move of a snapshot by default: Black when both colours have as many stones.
fn by_counts(cells: &str) -> Color {
    let count = |c: char| cells.chars().filter(|&x| x == c).count();
    if count('X') == count('O') {
        Color::Black
    } else {
        Color::White
    }
}

struct Cross {
    book: PathBuf,
    requests: Vec<u8>,
    /// One per request line before `quit`.
    expect: Vec<Expect>,
    index: PathBuf,
}

fn cells_of(board: &Board) -> String {
    let s = board.size();
    let mut out = String::with_capacity(s.points());
    for y in 0..s.height() {
        for x in 0..s.width() {
            out.push(match board.get(Point::new(x, y)) {
                Stone::Empty => '.',
                Stone::Black => 'X',
                Stone::White => 'O',
            });
        }
    }
    out
}

/// The positions before each move of a game's main line (and after its last move),
/// replayed with captures as the index does; the replay stops where the build's does.
fn positions(g: &GameRecord) -> Vec<Position> {
    let size = g.size;
    let mut board = Board::with_rules(size, Rules::RECORD);
    let mut moves: Vec<String> = Vec::new();
    let mut expressible = true;
    let mut next = Color::Black;
    let mut out = Vec::new();
    let mut stopped = false;
    let add = |moves: &mut Vec<String>, next: &mut Color, c: Color, m: Move| {
        if *next != c {
            moves.push("pass".into());
        }
        moves.push(Sgf(m).to_string());
        *next = c.opponent();
    };
    let snapshot = |board: &Board, moves: &[String], expressible: bool| Position {
        size: size.width(),
        cells: cells_of(board),
        moves: expressible.then(|| moves.join(",")),
        next: None,
    };
    for ev in &g.events {
        match *ev {
            Event::Setup { point, stone } => {
                match stone.color() {
                    Some(c) if board.get(point) == Stone::Empty => {
                        add(&mut moves, &mut next, c, Move::Play(point))
                    }
                    _ => expressible = false,
                }
                if board.set_stone(point, stone).is_err() {
                    stopped = true;
                    break;
                }
            }
            Event::Play { color, mv } => {
                out.push(Position {
                    next: Some((color, mv)),
                    ..snapshot(&board, &moves, expressible)
                });
                if board.play(color, mv).is_err() {
                    stopped = true;
                    break;
                }
                add(&mut moves, &mut next, color, mv);
            }
        }
    }
    if !stopped && g.end.is_some() {
        // The position before the move that ends the main line (off the board).
        out.push(snapshot(&board, &moves, expressible));
    }
    out.push(snapshot(&board, &moves, expressible));
    // Keep the moves only where they give exactly this position under the query rules
    // (a recorded suicide, or a setup stone that captures, cannot be stated as moves).
    for p in &mut out {
        if let Some(m) = &p.moves {
            let ok = position_after(m, Size::square(p.size).unwrap())
                .is_ok_and(|(b, _)| cells_of(&b) == p.cells);
            if !ok {
                p.moves = None;
            }
        }
    }
    out
}

/// Whether some group of an `n` x `n` cell list (`.` `X` `O`) has no liberty: a flood
/// fill of each group, independent of the core's boards.
fn has_dead_group(cells: &[u8], n: usize) -> bool {
    let mut seen = vec![false; n * n];
    for s in 0..n * n {
        if cells[s] == b'.' || seen[s] {
            continue;
        }
        seen[s] = true;
        let mut stack = vec![s];
        let mut liberty = false;
        while let Some(q) = stack.pop() {
            let (x, y) = (q % n, q / n);
            let mut near = Vec::with_capacity(4);
            if x > 0 {
                near.push(q - 1);
            }
            if x + 1 < n {
                near.push(q + 1);
            }
            if y > 0 {
                near.push(q - n);
            }
            if y + 1 < n {
                near.push(q + n);
            }
            for r in near {
                if cells[r] == b'.' {
                    liberty = true;
                } else if cells[r] == cells[s] && !seen[r] {
                    seen[r] = true;
                    stack.push(r);
                }
            }
        }
        if !liberty {
            return true;
        }
    }
    false
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Builds the book and the desktop index (same inputs and options) and the requests, once
/// per test process; the files live in Cargo's temporary folder for integration tests.
fn cross() -> &'static Cross {
    static CROSS: OnceLock<Cross> = OnceLock::new();
    CROSS.get_or_init(|| {
        let t0 = Instant::now();
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hints-cross");
        std::fs::create_dir_all(&dir).unwrap();
        let inputs: Vec<PathBuf> = CROSS_INPUTS.iter().map(|p| shared(p)).collect();
        let book = dir.join("cross.kdb");
        let index = dir.join("cross.kdx");
        build_once(
            &inputs,
            &book,
            &[
                "--profile",
                "mcu",
                "--max-moves",
                CROSS_MAX_MOVES,
                "--predictor",
                "--predictor-sample",
                CROSS_PREDICTOR_SAMPLE,
            ],
        );
        build(&inputs, &index, &["--max-moves", CROSS_MAX_MOVES]);

        let (sources, _) = collect_sources(&inputs);
        let games: Vec<GameRecord> = sources.iter().flat_map(|s| s.parse().games).collect();
        let big: Vec<&GameRecord> = games.iter().filter(|g| g.size == Size::STANDARD).collect();
        let nine: Vec<&GameRecord> = games
            .iter()
            .filter(|g| g.size == Size::square(9).unwrap())
            .collect();
        assert!(
            big.len() > 5000 && nine.len() > 400,
            "{} {}",
            big.len(),
            nine.len()
        );
        let handicap = big
            .iter()
            .filter(|g| g.events.iter().any(|e| matches!(e, Event::Setup { .. })))
            .count();
        assert!(handicap > 100, "only {handicap} handicap games");

        let mut rng = Rng(0x6b69_6675_6465_7831);
        // A ply: mostly within the book's first 40 moves, sometimes anywhere in the game.
        let pick = |rng: &mut Rng, g: &GameRecord| -> Position {
            let ps = positions(g);
            let n = ps.len();
            let i = if rng.below(10) < 7 {
                rng.below(n.min(46))
            } else {
                rng.below(n)
            };
            ps[i].clone()
        };
        let mut requests = Vec::new();
        let mut expect = Vec::new();
        let mut push = |requests: &mut Vec<u8>, line: &[u8], e: Expect| {
            requests.extend_from_slice(line);
            requests.push(b'\n');
            expect.push(e);
        };
        let (mut n_moves, mut n_board) = (0, 0);
        // 19x19: a `moves` request and, for most, the same position as a sensor snapshot.
        while n_moves < 800 {
            let g = big[rng.below(big.len())];
            let p = pick(&mut rng, g);
            let Some(moves) = p.moves.clone() else {
                continue;
            };
            let line = format!("moves {moves}");
            let e = if line.len() > MAX_LINE {
                Expect::Fixed("error bad-request")
            } else {
                Expect::Search {
                    size: 19,
                    moves: moves.clone(),
                    to_move: after_moves(&moves),
                    snapshot: false,
                    next: p.next,
                }
            };
            push(&mut requests, line.as_bytes(), e);
            n_moves += 1;
            if rng.below(4) != 0 {
                let e = Expect::Search {
                    size: 19,
                    moves,
                    to_move: by_counts(&p.cells),
                    snapshot: true,
                    next: p.next,
                };
                push(&mut requests, format!("board 19 {}", p.cells).as_bytes(), e);
                n_board += 1;
            }
        }
        // 9x9 sensor snapshots, found by `search --size 9`.
        let mut n_nine = 0;
        while n_nine < 250 {
            let g = nine[rng.below(nine.len())];
            let p = pick(&mut rng, g);
            let Some(moves) = p.moves.clone() else {
                continue;
            };
            let e = Expect::Search {
                size: 9,
                moves,
                to_move: by_counts(&p.cells),
                snapshot: true,
                next: p.next,
            };
            push(&mut requests, format!("board 9 {}", p.cells).as_bytes(), e);
            n_nine += 1;
        }
        // Snapshots that name the side to move: the game's own side, or the other one
        // (the reply is the book's only if it holds a next move of the side named).
        let mut n_side = 0;
        while n_side < 150 {
            let g = big[rng.below(big.len())];
            let p = pick(&mut rng, g);
            let (Some(moves), Some((color, _))) = (p.moves.clone(), p.next) else {
                continue;
            };
            let side = if rng.below(2) == 0 {
                color
            } else {
                color.opponent()
            };
            let e = Expect::Search {
                size: 19,
                moves,
                to_move: side,
                snapshot: true,
                next: p.next,
            };
            let line = format!("board 19 {} {}", p.cells, side.letter());
            push(&mut requests, line.as_bytes(), e);
            n_side += 1;
        }
        // Captured stones not yet lifted: a game's position with its next move's stone
        // added and nothing removed, where that leaves a group without liberties (a
        // capture, found by the flood fill of `has_dead_group`).
        let mut n_dead = 0;
        let start = rng.below(games.len());
        for g in games.iter().cycle().skip(start).take(games.len()) {
            if n_dead == 60 {
                break;
            }
            let n = g.size.width() as usize;
            if g.size.height() as usize != n {
                continue;
            }
            for p in positions(g).iter().skip(rng.below(40)) {
                let Some((color, Move::Play(pt))) = p.next else {
                    continue;
                };
                let mut cells = p.cells.clone().into_bytes();
                let at = pt.y as usize * n + pt.x as usize;
                if cells[at] != b'.' || has_dead_group(&cells, n) {
                    continue;
                }
                cells[at] = if color == Color::Black { b'X' } else { b'O' };
                if has_dead_group(&cells, n) {
                    let line = format!("board {n} {}", String::from_utf8(cells).unwrap());
                    push(
                        &mut requests,
                        line.as_bytes(),
                        Expect::Fixed("error no-liberties"),
                    );
                    n_dead += 1;
                    break;
                }
            }
        }
        assert_eq!(n_dead, 60, "captures found in {} games", games.len());
        // Malformed requests, among them the documented examples of errors.
        let long = format!("moves {}", ["pd", "dp"].repeat(400).join(","));
        let noise: Vec<u8> = (0..300u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .filter(|&b| b != b'\n')
            .collect();
        let bad: Vec<(Vec<u8>, &'static str)> = vec![
            (long.into_bytes(), "error bad-request"),
            (vec![b'x'; 5 * MAX_LINE], "error bad-request"),
            (
                format!("board 19 {}", ".".repeat(360)).into_bytes(),
                "error bad-request",
            ),
            (
                format!("board 19 {}", ".".repeat(362)).into_bytes(),
                "error bad-request",
            ),
            (
                format!("board 9 {}", ".".repeat(361)).into_bytes(),
                "error bad-request",
            ),
            (
                format!("board 19 {}x", ".".repeat(360)).into_bytes(),
                "error bad-request",
            ),
            (b"board 20 .".to_vec(), "error unsupported-size"),
            // A full board: no game reaches it (every group would be without liberties).
            (
                format!("board 19 {}", "X".repeat(361)).into_bytes(),
                "error impossible-count",
            ),
            (
                format!("board 9 {}", "XO".repeat(40) + "X").into_bytes(),
                "error impossible-count",
            ),
            (b"board 2 XOOX W".to_vec(), "error impossible-count"),
            // The book holds 19x19 and 9x9 games only.
            (
                format!("board 13 {}", ".".repeat(169)).into_bytes(),
                "error unsupported-size",
            ),
            (
                format!("board 7 {} B", ".".repeat(49)).into_bytes(),
                "error unsupported-size",
            ),
            // The side to move: `B` or `W` once, as its own word.
            (
                format!("board 19 {} b", ".".repeat(361)).into_bytes(),
                "error bad-request",
            ),
            (
                format!("board 19 {} B W", ".".repeat(361)).into_bytes(),
                "error bad-request",
            ),
            (
                format!("board 19 {}B", ".".repeat(361)).into_bytes(),
                "error bad-request",
            ),
            (b"board 0 ".to_vec(), "error unsupported-size"),
            (b"board nineteen .".to_vec(), "error bad-request"),
            (b"hello".to_vec(), "error bad-request"),
            (b"Moves pd".to_vec(), "error bad-request"),
            (b"moves pd,pd".to_vec(), "error illegal-move"),
            (b"moves pd,dp,pd".to_vec(), "error illegal-move"),
            (b"moves zz".to_vec(), "error illegal-move"),
            (b"moves pd,,dp".to_vec(), "error bad-request"),
            (b"moves pd,".to_vec(), "error bad-request"),
            (b"moves p".to_vec(), "error bad-request"),
            // Human coordinates and upper-case SGF letters, as `--moves` takes them.
            (b"moves Q16 q16".to_vec(), "error illegal-move"),
            (b"moves PD,pd".to_vec(), "error illegal-move"),
            (b"moves D4,Q20".to_vec(), "error illegal-move"),
            (b"moves I5".to_vec(), "error bad-request"),
            (b"moves pd dp hello".to_vec(), "error bad-request"),
            (noise, "error bad-request"),
            (
                vec![0, 1, 2, 3, 0x1b, b'[', b'A', 0xff, 0xfe],
                "error bad-request",
            ),
            (b"".to_vec(), "error bad-request"),
            (b"\r".to_vec(), "error bad-request"),
            (b"   ".to_vec(), "error bad-request"),
            (b"quit please".to_vec(), "error bad-request"),
        ];
        let n_bad = bad.len();
        for (line, reply) in bad {
            push(&mut requests, &line, Expect::Fixed(reply));
        }
        // A stone on the last point, as a snapshot; Windows line ends; then the end.
        push(
            &mut requests,
            format!("board 19 {}X", ".".repeat(360)).as_bytes(),
            Expect::Search {
                size: 19,
                moves: "ss".into(),
                to_move: Color::White,
                snapshot: true,
                next: None,
            },
        );
        push(
            &mut requests,
            b"moves pd,dp,pp\r",
            Expect::Search {
                size: 19,
                moves: "pd,dp,pp".into(),
                to_move: Color::White,
                snapshot: false,
                next: None,
            },
        );
        requests.extend_from_slice(b"quit\nmoves\n");
        // Kept beside the book, to measure the firmware on them by hand
        // (`firmware-example/README.md`).
        std::fs::write(dir.join("requests.txt"), &requests).unwrap();
        eprintln!(
            "cross-check: {} games ({handicap} with setup stones), {} requests: {n_moves} moves, \
             {n_board} 19x19 and {n_nine} 9x9 snapshots, {n_side} naming the side to move, \
             {n_dead} with captured stones on the board, {n_bad} malformed or impossible; \
             prepared in {:.1?}",
            games.len(),
            expect.len(),
            t0.elapsed()
        );
        Cross {
            book,
            requests,
            expect,
            index,
        }
    })
}

/// The `hints` line that `search --json` stands for: hash, total, the first 10 classes.
fn hints_line(v: &serde_json::Value) -> String {
    let mut s = format!("hints {} {}", v["hash"], v["total"]);
    for c in v["next"].as_array().unwrap().iter().take(10) {
        s.push_str(&format!(
            " {}:{}:{}",
            c["move"].as_str().unwrap(),
            c["color"].as_str().unwrap(),
            c["count"]
        ));
    }
    s
}

/// What a reply must be.
#[derive(Clone, Debug)]
enum Want {
    /// Exactly this line.
    Line(String),
    /// The predictor's guesses for a position the book holds no next move of the side to
    /// move for: `guess <hash> ...` with 1 to 5 distinct legal moves of `to_move` (or
    /// `hints <hash> 0` if it has none).
    Guess {
        hash: String,
        to_move: Color,
        board: Box<Board>,
        next: Option<(Color, Move)>,
    },
}

/// The expected reply of every request, `search` run on 2 threads.
fn expected_replies(c: &Cross) -> Vec<Want> {
    let index = c.index.to_str().unwrap();
    let n = c.expect.len();
    let mut out = vec![Want::Line(String::new()); n];
    let workers = 2;
    std::thread::scope(|s| {
        for (w, chunk) in out.chunks_mut(n.div_ceil(workers)).enumerate() {
            let base = w * n.div_ceil(workers);
            let expect = &c.expect;
            s.spawn(move || {
                for (k, slot) in chunk.iter_mut().enumerate() {
                    *slot = match &expect[base + k] {
                        Expect::Fixed(r) => Want::Line(r.to_string()),
                        Expect::Search {
                            size,
                            moves,
                            to_move,
                            snapshot,
                            next,
                        } => {
                            let sz = size.to_string();
                            let o = kifudex(&[
                                "search", "--index", index, "--size", &sz, "--moves", moves,
                                "--json",
                            ]);
                            assert!(o.status.success(), "search {moves}: {}", text(&o.stderr));
                            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
                            let side = to_move.letter().to_string();
                            let has_side = v["next"]
                                .as_array()
                                .unwrap()
                                .iter()
                                .any(|c| c["color"].as_str() == Some(side.as_str()));
                            if has_side {
                                Want::Line(hints_line(&v))
                            } else {
                                let size = Size::square(*size).unwrap();
                                let (mut board, _) = position_after(moves, size).unwrap();
                                if *snapshot {
                                    // A snapshot knows no ko.
                                    let mut cells = vec![Stone::Empty; size.points()];
                                    board.to_cells(&mut cells);
                                    board = Board::from_cells(size, &cells).unwrap();
                                }
                                Want::Guess {
                                    hash: v["hash"].to_string(),
                                    to_move: *to_move,
                                    board: Box::new(board),
                                    next: *next,
                                }
                            }
                        }
                    };
                }
            });
        }
    });
    out
}

/// Checks a `guess` reply against what it must be (see [`Want::Guess`]); returns whether
/// its first guess is the move the game played.
fn check_guess(
    got: &str,
    hash: &str,
    to_move: Color,
    board: &Board,
    next: Option<(Color, Move)>,
) -> Result<bool, String> {
    let size = board.size();
    let legal: Vec<Move> = (0..size.height())
        .flat_map(|y| (0..size.width()).map(move |x| Move::Play(Point::new(x, y))))
        .filter(|&m| board.is_legal(to_move, m))
        .collect();
    if legal.is_empty() {
        return if got == format!("hints {hash} 0") {
            Ok(false)
        } else {
            Err("no legal move: want hints <hash> 0".into())
        };
    }
    let mut words = got.split(' ');
    if words.next() != Some("guess") || words.next() != Some(hash) {
        return Err(format!("want guess {hash} ..."));
    }
    let guesses: Vec<&str> = words.collect();
    if guesses.is_empty() || guesses.len() > 5 {
        return Err(format!("{} guesses", guesses.len()));
    }
    let mut seen = Vec::new();
    for g in &guesses {
        let (m, c) = g.split_once(':').ok_or("not move:color")?;
        if c != to_move.letter().to_string() {
            return Err(format!("{g}: not the side to move"));
        }
        let mv = kifudex_core::notation::parse_moves(m, size)
            .next()
            .and_then(Result::ok)
            .ok_or_else(|| format!("{g}: not a move"))?;
        if !legal.contains(&mv) {
            return Err(format!("{g}: not legal"));
        }
        if seen.contains(&mv) {
            return Err(format!("{g}: twice"));
        }
        seen.push(mv);
    }
    // No fewer than five guesses while more legal moves exist (equivalent moves of a
    // symmetric position are one guess, so only a position without symmetry is counted).
    if guesses.len() < 5 && legal.len() >= 5 && board.symmetries().0 == 1 {
        return Err(format!(
            "{} guesses of {} legal moves",
            guesses.len(),
            legal.len()
        ));
    }
    Ok(next == Some((to_move, seen[0])))
}

#[test]
fn hints_agree_with_desktop_search_on_real_games() {
    let c = cross();
    let t0 = Instant::now();
    let out = hints(&c.book, &c.requests, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let got: Vec<&str> = std::str::from_utf8(&out.stdout)
        .expect("replies are ASCII")
        .split_terminator('\n')
        .collect();
    let t_hints = t0.elapsed();
    let want = expected_replies(c);
    assert_eq!(got.len(), want.len(), "one reply per request line");
    let (mut bad, mut guesses, mut first_right) = (0, 0, 0);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        let problem = match w {
            Want::Line(w) => (g != w).then(|| format!("search: {w}")),
            Want::Guess {
                hash,
                to_move,
                board,
                next,
            } => {
                guesses += 1;
                match check_guess(g, hash, *to_move, board, *next) {
                    Ok(right) => {
                        first_right += right as usize;
                        None
                    }
                    Err(e) => Some(e),
                }
            }
        };
        if let Some(p) = problem {
            bad += 1;
            if bad <= 10 {
                eprintln!(
                    "request {i} ({:?}):\n  hints:  {g}\n  want: {p}",
                    c.expect[i]
                );
            }
        }
    }
    assert_eq!(bad, 0, "{bad} of {} replies wrong", want.len());
    // The check means something: most positions are in the book, many with several moves;
    // the rest are guessed, the first guess often the move the game played.
    let hits = got
        .iter()
        .filter(|l| l.starts_with("hints ") && !l.ends_with(" 0"))
        .count();
    let many = got
        .iter()
        .filter(|l| l.starts_with("hints ") && l.split(' ').count() >= 6)
        .count();
    assert!(
        hits * 10 >= got.len() * 5,
        "only {hits} of {} found",
        got.len()
    );
    assert!(many >= 100, "only {many} replies with 3 or more classes");
    assert!(guesses >= 200, "only {guesses} guesses");
    assert!(
        first_right * 100 >= guesses * 15,
        "the first guess was the game's move {first_right} times of {guesses}"
    );
    eprintln!(
        "{} replies: {hits} found in the book ({many} with 3+ classes) equal to search's, \
         {guesses} guesses ({first_right} first guesses the game's move); kifudex hints took \
         {t_hints:.1?}, {} searches {:.1?}",
        got.len(),
        c.expect
            .iter()
            .filter(|e| matches!(e, Expect::Search { .. }))
            .count(),
        t0.elapsed() - t_hints
    );
}

/// Runs `cmd` with `input` on standard input, killing it after `limit`.
fn run_with_timeout(mut cmd: Command, input: &[u8], limit: Duration) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut v);
        v
    });
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("timed out after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    writer.join().unwrap();
    Output {
        status,
        stdout: out_reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    }
}

fn have_qemu() -> bool {
    Command::new("qemu-system-arm")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The firmware built around the cross-check's book answers the same requests under QEMU
/// with the same bytes as `kifudex hints`. Skipped without `qemu-system-arm` unless
/// `KIFUDEX_REQUIRE_QEMU=1` (as `scripts/test.sh` sets it).
#[test]
fn firmware_replies_are_byte_identical_under_qemu() {
    if !have_qemu() {
        assert!(
            std::env::var_os("KIFUDEX_REQUIRE_QEMU").is_none_or(|v| v != "1"),
            "KIFUDEX_REQUIRE_QEMU=1 but qemu-system-arm is not installed"
        );
        eprintln!("skipped: qemu-system-arm is not installed");
        return;
    }
    let c = cross();
    let fw = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../firmware-example");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let firmware = |args: &[&str]| {
        let mut cmd = Command::new(&cargo);
        cmd.current_dir(&fw)
            .args(args)
            .env("KIFUDEX_BOOK", c.book.canonicalize().unwrap())
            // The firmware is its own workspace with its own target folder.
            .env_remove("CARGO_TARGET_DIR")
            .env_remove("CARGO_BUILD_TARGET");
        cmd
    };
    let t0 = Instant::now();
    let built = run_with_timeout(
        firmware(&["build", "--release"]),
        b"",
        Duration::from_secs(1200),
    );
    assert!(
        built.status.success(),
        "firmware build: {}",
        text(&built.stderr)
    );
    let t_build = t0.elapsed();
    // One session: `requests` on the firmware's UART under QEMU and to `kifudex hints`, the
    // replies byte for byte the same. The defmt log (semihosting standard output) goes to the
    // file `log` (tools/qemu-run.sh); the UART, QEMU's standard output here, carries only the
    // replies. Returns `kifudex hints`'s output and the firmware's run time.
    let session = |what: &str, requests: &[u8], log: &Path, limit: u64| {
        let mut run = firmware(&["run", "--release", "-q"]);
        run.env("KIFUDEX_DEFMT", log);
        let t0 = Instant::now();
        let fw_out = run_with_timeout(run, requests, Duration::from_secs(limit));
        let t_run = t0.elapsed();
        assert!(
            fw_out.status.success(),
            "{what}: firmware exit {:?}: {}",
            fw_out.status,
            text(&fw_out.stderr)
        );
        let host = hints(&c.book, requests, &["--leds"]);
        assert!(host.status.success());
        if fw_out.stdout != host.stdout {
            let (f, h) = (text(&fw_out.stdout), text(&host.stdout));
            let first = f
                .lines()
                .zip(h.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(f.lines().count().min(h.lines().count()));
            panic!(
                "{what}: firmware and kifudex hints differ from reply {first}: firmware {:?}, \
                 hints {:?} ({} and {} bytes)",
                f.lines().nth(first),
                h.lines().nth(first),
                f.len(),
                h.len()
            );
        }
        (host, t_run)
    };
    let elf = fw.join("target/thumbv7em-none-eabihf/release/kifudex-firmware-example");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hints-cross");

    let log = dir.join("firmware.defmt");
    let (host, t_run) = session("plain requests", &c.requests, &log, 600);
    let replies = host.stdout.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(replies, c.expect.len());
    eprintln!(
        "firmware: {replies} replies byte-identical to kifudex hints ({} bytes); built in \
         {t_build:.1?}, ran in {t_run:.1?}",
        host.stdout.len()
    );
    match decode_defmt(&elf, &log) {
        Some(frames) => check_firmware_log(c, &frames, &host, &text(&c.requests)),
        None => eprintln!("the firmware's log not decoded: defmt-print is not installed"),
    }

    // Tracked games: noisy snapshot streams of real games (one with handicap stones), the
    // records printed, a new record, back to plain snapshots.
    let requests = tracking_requests(c);
    let log = dir.join("tracking.defmt");
    std::fs::write(log.with_extension("txt"), &requests).unwrap();
    let (host, t_run) = session("tracking", &requests, &log, 900);
    let replies = host.stdout.iter().filter(|&&b| b == b'\n').count();
    eprintln!(
        "firmware, tracking: {replies} replies byte-identical to kifudex hints ({} bytes), ran in \
         {t_run:.1?}",
        host.stdout.len(),
    );
    if let Some(frames) = decode_defmt(&elf, &log) {
        check_firmware_log(c, &frames, &host, &text(&requests));
    }
}

/// `track`, the snapshot streams of three real games the book did not learn from (the
/// first with handicap stones), each game's record; streams of physical timelines of both
/// cadences (a handicap game with takebacks, a 9x9 game with a pass); a new record, plain
/// snapshots again.
fn tracking_requests(c: &Cross) -> Vec<u8> {
    let book = std::fs::read(&c.book).unwrap();
    let hints = StandardHints::new(kifudex_core::book::Book::open(&book));
    let (games, _) = tracking_games();
    let handicap = games.iter().find(|g| !g.2.setup.is_empty()).unwrap();
    let even = games.iter().filter(|g| g.2.setup.is_empty()).take(2);
    let mut ws: Box<Workspace<CAPACITY>> = Box::default();
    let mut out = String::new();
    for (i, (_, _, game)) in std::iter::once(handicap).chain(even).enumerate() {
        let first = if i == 0 { "track" } else { "new" };
        out += first;
        out += "\n";
        assert_eq!(ask(&hints, &mut ws, first), "ok");
        let s = stream(game, 77 + i as u64, |line| ask(&hints, &mut ws, line));
        for l in &s.lines {
            out += l;
            out += "\n";
        }
        out += "game\n";
        assert_eq!(ask(&hints, &mut ws, "game"), sgf_of(game));
    }
    // Physical timelines (`stream::timeline`) on boards of both cadences, with and without
    // `t=`, with the full protocol's lines: a handicap game (its stones placed one by one
    // after `new 19 handicap N`; its first 60 moves, with takebacks), a 9x9 game with a pass.
    use kifudex::hints::stream::{check_record, render, timeline, Cadence, Game, Noise, Protocol};
    let (cases, _) = crate::tracking::cases();
    let handicapped = cases.iter().find(|c| !c.game.handicap.is_empty()).unwrap();
    let short = Game {
        moves: handicapped.game.moves[..60].to_vec(),
        ..handicapped.game.clone()
    };
    let passing = cases
        .iter()
        .filter(|c| c.game.size == Size::square(9).unwrap())
        .find(|c| {
            c.game.moves.contains(&(Color::Black, Move::Pass))
                || c.game.moves.contains(&(Color::White, Move::Pass))
        })
        .unwrap();
    let noise = Noise {
        takeback: 100,
        ..Noise::ALL
    };
    let streams = [
        (&short, Cadence::Periodic, true),
        (&short, Cadence::ChangeOnly, false),
        (&passing.game, Cadence::ChangeOnly, true),
        (&passing.game, Cadence::Periodic, false),
    ];
    for (k, (game, cadence, times)) in streams.into_iter().enumerate() {
        let tl = timeline(game, 500 + k as u64, Protocol::Full, &noise);
        assert!(game.handicap.is_empty() || tl.noise.takebacks > 0);
        for l in render(&tl, cadence, times, k as u64).lines {
            ask(&hints, &mut ws, &l);
            out += &l;
            out += "\n";
        }
        out += "game\n";
        let record = ask(&hints, &mut ws, "game");
        if let Err(e) = check_record(game, &record, true) {
            panic!("{cadence:?} stream {k}: {e}: {record}");
        }
    }
    out += &format!(
        "board 19 {}\nuntrack\nboard 19 {}\ngame\nquit\n",
        ".".repeat(361),
        ".".repeat(361)
    );
    out.into_bytes()
}

/// The firmware's defmt log decoded by `defmt-print` (one line per frame, the message only);
/// `None` without `defmt-print`, unless `KIFUDEX_REQUIRE_QEMU=1` (then it fails).
fn decode_defmt(elf: &Path, log: &Path) -> Option<Vec<String>> {
    let have = Command::new("defmt-print")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        assert!(
            std::env::var_os("KIFUDEX_REQUIRE_QEMU").is_none_or(|v| v != "1"),
            "KIFUDEX_REQUIRE_QEMU=1 but defmt-print is not installed (scripts/setup.sh)"
        );
        return None;
    }
    let out = Command::new("defmt-print")
        .arg("-e")
        .arg(elf)
        .args(["--log-format", "{s}", "--show-skipped-frames"])
        .stdin(std::fs::File::open(log).unwrap())
        .output()
        .unwrap();
    assert!(out.status.success(), "defmt-print: {}", text(&out.stderr));
    Some(text(&out.stdout).lines().map(str::to_string).collect())
}

/// The firmware's decoded log against `kifudex hints --leds` and `kifudex info` on the same
/// book: its book summary, one LED frame per reply equal to the desktop's, the instruction
/// count of every request (summed up by kind and printed) and the totals it logged.
fn check_firmware_log(c: &Cross, frames: &[String], host: &Output, requests: &str) {
    let info = kifudex(&["info", "--index", c.book.to_str().unwrap()]);
    assert!(info.status.success(), "{}", text(&info.stderr));
    let info = text(&info.stdout);
    // `  games kept: G`, `  positions: P`, `  next moves: M (at most K per position)`,
    // `  predictor: Q patterns learnt from ...` (thousands separated).
    let numbers = |line: &str| -> Vec<u64> {
        line.replace(',', "")
            .split(|ch: char| !ch.is_ascii_digit())
            .filter(|w| !w.is_empty())
            .map(|w| w.parse().unwrap())
            .collect()
    };
    let line_of = |start: &str| {
        info.lines()
            .find(|l| l.trim_start().starts_with(start))
            .unwrap_or_else(|| panic!("kifudex info without {start:?}: {info}"))
    };
    let mut want = vec![std::fs::metadata(&c.book).unwrap().len()];
    for label in ["games kept:", "positions:", "next moves:"] {
        want.extend(numbers(line_of(label)));
    }
    want.push(numbers(line_of("predictor:"))[0]);
    let book = frames
        .iter()
        .find(|l| l.starts_with("book: "))
        .unwrap_or_else(|| panic!("no book summary in the firmware's log: {frames:?}"));
    assert_eq!(numbers(book), want, "{book} against kifudex info:\n{info}");

    // One LED frame per reply, each the desktop's frame for the same request.
    let leds: Vec<&str> = frames
        .iter()
        .filter(|l| l.starts_with("leds"))
        .map(String::as_str)
        .collect();
    let host_leds: Vec<&str> = std::str::from_utf8(&host.stderr)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("leds"))
        .collect();
    let replies: Vec<&str> = std::str::from_utf8(&host.stdout).unwrap().lines().collect();
    assert_eq!(leds.len(), replies.len(), "one LED frame per reply");
    assert_eq!(
        leds, host_leds,
        "the LED frames of the firmware and kifudex hints"
    );
    // The frames that light LEDs are those of the replies with a move on the board.
    let lit = leds.iter().filter(|l| l.contains(':')).count();
    let moving = replies
        .iter()
        .filter(|r| {
            let moves = match r.split(' ').next() {
                Some("hints") => 3,
                Some("guess") => 2,
                // A fix lights its points.
                Some("fix") => return true,
                _ => return false,
            };
            r.split(' ').skip(moves).any(|m| !m.starts_with("pass:"))
        })
        .count();
    assert_eq!(lit, moving, "lit LED frames against replies with moves");

    // Instructions per request, by request and reply kind.
    let counts: Vec<u64> = frames
        .iter()
        .filter_map(|l| l.strip_prefix("request "))
        .map(|l| numbers(l)[1])
        .collect();
    assert_eq!(counts.len(), replies.len());
    let mut kinds: std::collections::BTreeMap<String, Vec<u64>> = Default::default();
    let mut tracking = false;
    for ((request, reply), n) in requests.lines().zip(&replies).zip(&counts) {
        let first = request.split(' ').next().unwrap_or("");
        match first {
            "track" => tracking = true,
            "untrack" => tracking = false,
            _ => {}
        }
        let what = match first {
            "board" if tracking => "tracked board",
            "moves" | "board" => first,
            _ => "other",
        };
        let answer = match reply.split(' ').next().unwrap_or("") {
            w if w.starts_with("(;") => "game",
            w => w,
        };
        kinds
            .entry(format!("{what} -> {answer}"))
            .or_default()
            .push(*n);
    }
    for (kind, v) in &kinds {
        eprintln!(
            "firmware: {kind}: {} requests, instructions mean {}, max {}",
            v.len(),
            v.iter().sum::<u64>() / v.len() as u64,
            v.iter().max().unwrap()
        );
    }
    // The totals the firmware logged agree with its own per-request counts.
    let all = frames
        .iter()
        .find(|l| l.starts_with("requests: "))
        .expect("the firmware's totals");
    let t = numbers(all);
    assert_eq!(t[0], counts.len() as u64, "{all}");
    assert_eq!(
        t[1],
        counts.iter().sum::<u64>() / counts.len() as u64,
        "{all}"
    );
    assert_eq!(t[3], *counts.iter().max().unwrap(), "{all}");
    for l in frames.iter().filter(|l| {
        l.starts_with("requests: ") || l.starts_with("guesses: ") || l.starts_with("stack ")
    }) {
        eprintln!("firmware: {l}");
    }
    eprintln!(
        "firmware: {} defmt frames decoded, {} LED frames equal to kifudex hints --leds",
        frames.len(),
        leds.len()
    );
}

/// The library call the shell and the web board rank moves with
/// (`kifudex::predict::suggest::predictions`) gives the moves of every `guess` reply of the
/// cross-check, in the same order (positions without symmetry, where the reply lists five
/// distinct moves), with probabilities that fall and sum to at most 1.
#[test]
fn predictions_of_the_library_are_the_guess_replies() {
    use kifudex::predict::suggest::{book_predictor, predictions};
    use kifudex_core::predict::History;

    let c = cross();
    let out = hints(&c.book, &c.requests, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bytes = std::fs::read(&c.book).unwrap();
    let predictor = book_predictor(&bytes, "cross.kdb").unwrap();
    let replies = text(&out.stdout);
    let requests = text(&c.requests);
    let mut checked = 0;
    for (request, reply) in requests.lines().zip(replies.lines()) {
        let Some(guesses) = reply.strip_prefix("guess ") else {
            continue;
        };
        let want: Vec<&str> = guesses.split(' ').skip(1).collect();
        let words: Vec<&str> = request.split_whitespace().collect();
        let (board, to_move, history) = match words.as_slice() {
            ["moves", moves] => {
                let (board, to_move) = position_after(moves, Size::STANDARD).unwrap();
                let played: Vec<Move> = kifudex_core::notation::parse_moves(moves, Size::STANDARD)
                    .map(Result::unwrap)
                    .collect();
                let back = |k: usize| played.len().checked_sub(k).map(|i| played[i]);
                let history = History {
                    last: back(1),
                    before: back(2),
                };
                (board, to_move, history)
            }
            ["board", n, cells, rest @ ..] => {
                let size = Size::square(n.parse().unwrap()).unwrap();
                let stones: Vec<Stone> = cells
                    .bytes()
                    .map(|b| match b {
                        b'X' => Stone::Black,
                        b'O' => Stone::White,
                        _ => Stone::Empty,
                    })
                    .collect();
                let board = Board::from_cells(size, &stones).unwrap();
                let to_move = match rest {
                    ["B"] => Color::Black,
                    ["W"] => Color::White,
                    _ => by_counts(cells),
                };
                (board, to_move, History::default())
            }
            _ => panic!("a guess for {request:?}"),
        };
        if board.symmetries().0 != 1 || want.len() < 5 {
            continue;
        }
        let got = predictions(&predictor, &board, to_move, history, 0);
        let shown: Vec<String> = got
            .iter()
            .take(want.len())
            .map(|p| format!("{}:{}", Sgf(Move::Play(p.point)), to_move.letter()))
            .collect();
        assert_eq!(shown, want, "{request}");
        assert!(got.windows(2).all(|w| w[0].probability >= w[1].probability));
        let sum: f64 = got.iter().map(|p| p.probability).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{sum}");
        checked += 1;
    }
    assert!(checked >= 300, "only {checked} guesses checked");
    eprintln!("{checked} guess replies equal to the library's predictions");
}

// ---------------------------------------------------------------------------------------------
// Tracking: noisy snapshot streams of real games (kifudex::hints::stream) fed to the tracker
// of the hint protocol, checked against the games' main lines read by the project's SGF reader
// and, independently, by sgfmill.
// ---------------------------------------------------------------------------------------------

use kifudex::hints::eval::sgf_of;
use kifudex::hints::stream::{stream, Trackable};
use kifudex_core::hints::{NoLeds, Output as Reply, StandardHints, Workspace, CAPACITY};

/// Real games the cross-check's book did not learn from: fox_pro/2p (46 handicap games among
/// them) and 5p, and AlphaGo's games; each with its file and the game as a tracker can follow it
/// (games a board cannot follow, with a pass before their last stone, are counted apart).
fn tracking_games() -> (Vec<(PathBuf, GameRecord, Trackable)>, usize) {
    let inputs = [
        shared("corpus/fox_pro/2p"),
        shared("corpus/fox_pro/5p"),
        shared("corpus/aeb_alphago"),
    ];
    let mut out = Vec::new();
    let mut untrackable = 0;
    for input in inputs {
        let (sources, _) = collect_sources(&[input]);
        for s in sources {
            let parsed = s.parse();
            if parsed.games.len() != 1 {
                continue;
            }
            let g = parsed.games.into_iter().next().unwrap();
            if g.size != Size::STANDARD {
                continue;
            }
            match Trackable::of(g.size, &g.events) {
                Ok(t) if t.moves.len() >= 30 => out.push((PathBuf::from(&s.path), g, t)),
                Ok(_) => {}
                Err(_) => untrackable += 1,
            }
        }
    }
    (out, untrackable)
}

/// One request answered by the core's handler in this process (the firmware's and `kifudex
/// hints`'s code), the reply without its `\n`.
fn ask(hints: &StandardHints<'_>, ws: &mut Workspace<CAPACITY>, line: &str) -> String {
    match hints.reply(line.as_bytes(), ws, &mut NoLeds) {
        Some(Reply::Line(b)) => text(b).trim_end().to_string(),
        Some(Reply::Game(record)) => {
            let mut v = Vec::new();
            record
                .write_sgf(&mut embedded_io_adapters::std::FromStd::new(&mut v))
                .unwrap();
            text(&v).trim_end().to_string()
        }
        None => String::new(),
    }
}

/// The main line of an SGF file as sgfmill reads it, one line per game: the setup stones
/// (`AB`/`AW` of the nodes before the first move, sorted) and the moves without the passes after the last stone, or an error.
const SGFMILL_MAIN_LINES: &str = r#"
import sys
from sgfmill import sgf
for path in sys.argv[1:]:
    try:
        game = sgf.Sgf_game.from_bytes(open(path, "rb").read())
        black, white, moves = set(), set(), []
        for node in game.get_main_sequence():
            colour, move = node.get_move()
            if colour is not None:
                moves.append((colour, move))
            elif not moves:
                b, w, _ = node.get_setup_stones()
                black |= b
                white |= w
        while moves and moves[-1][1] is None:
            moves.pop()
        print(sorted(black), sorted(white), moves)
    except Exception as e:
        print("error", type(e).__name__)
"#;

fn sgfmill_main_lines(files: &[PathBuf]) -> Option<Vec<String>> {
    let have = Command::new("python3")
        .args(["-c", "import sgfmill"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        return None;
    }
    let out = Command::new("python3")
        .arg("-c")
        .arg(SGFMILL_MAIN_LINES)
        .args(files)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    Some(text(&out.stdout).lines().map(str::to_string).collect())
}

#[test]
fn tracked_streams_recover_real_games() {
    use rayon::prelude::*;
    let c = cross();
    let book = std::fs::read(&c.book).unwrap();
    let hints = StandardHints::new(kifudex_core::book::Book::open(&book));
    let (games, untrackable) = tracking_games();
    assert!(games.len() >= 400, "{} games", games.len());
    assert!(untrackable * 20 <= games.len(), "{untrackable} untrackable");
    let handicap = games.iter().filter(|g| !g.2.setup.is_empty()).count();
    assert!(handicap >= 40, "{handicap} games with setup stones");
    let dir = tempfile::tempdir().unwrap();
    let results: Vec<(String, usize, usize, usize)> = games
        .par_iter()
        .enumerate()
        .map(|(i, (_, _, game))| {
            let mut ws: Box<Workspace<CAPACITY>> = Box::default();
            assert_eq!(ask(&hints, &mut ws, "track"), "ok");
            // After each line: how many of the game's moves the record holds (None if it
            // holds a move the game did not play: a phantom stone, provisionally).
            let mut held: Vec<Option<usize>> = Vec::new();
            let s = stream(game, 1000 + i as u64, |line| {
                let reply = ask(&hints, &mut ws, line);
                let record = ws.tracker().record();
                let prefix = record
                    .moves()
                    .zip(&game.moves)
                    .all(|(a, b)| a == (b.0, Move::Play(b.1)));
                held.push(prefix.then_some(record.len()));
                reply
            });
            let record = ask(&hints, &mut ws, "game");
            if record != sgf_of(game) {
                return (record, s.lines.len(), 0, 0);
            }
            // Before each move where the record held the game's moves so far, the reply is
            // the one `moves <record>` gets (games without setup stones, their first 80
            // moves; Black first, as a moves list starts).
            let mut checked = 0;
            if game.setup.is_empty() && game.moves[0].0 == Color::Black {
                let mut moves: Vec<String> = Vec::new();
                for (n, &(_, p)) in game.moves.iter().enumerate().take(80) {
                    let k = s.before_move[n];
                    if held[k] == Some(n) {
                        let alone = ask(&hints, &mut ws, &format!("moves {}", moves.join(",")));
                        assert_eq!(s.replies[k], alone, "game {i}, before move {n}");
                        checked += 1;
                    }
                    moves.push(Sgf(Move::Play(p)).to_string());
                }
                assert!(
                    checked * 10 >= game.moves.len().min(80) * 8,
                    "game {i}: {checked}"
                );
            }
            let fixes = s.replies.iter().filter(|r| r.starts_with("fix ")).count();
            (record, s.lines.len(), fixes, checked)
        })
        .collect();
    // Every record is its game's.
    let wrong: Vec<&PathBuf> = (0..games.len())
        .filter(|&i| results[i].0 != sgf_of(&games[i].2))
        .map(|i| &games[i].0)
        .collect();
    assert!(wrong.is_empty(), "records not their game's: {wrong:?}");
    // The records, read back by the project's SGF reader: the games' setup and moves.
    let mut records = Vec::new();
    for (i, ((path, original, game), (record, ..))) in games.iter().zip(&results).enumerate() {
        let parsed = kifudex::sgf::parse_file(record.as_bytes(), "record", None);
        assert_eq!(parsed.games.len(), 1, "{record}");
        let back = &parsed.games[0];
        let setup = |events: &[Event]| {
            let mut v: Vec<(u16, Stone)> = events
                .iter()
                .filter_map(|e| match *e {
                    Event::Setup { point, stone } => Some((point.index19(), stone)),
                    _ => None,
                })
                .collect();
            v.sort();
            v
        };
        let moves = |events: &[Event]| -> Vec<(Color, Move)> {
            let mut v: Vec<(Color, Move)> = events
                .iter()
                .filter_map(|e| match *e {
                    Event::Play { color, mv } => Some((color, mv)),
                    _ => None,
                })
                .collect();
            while v.last().is_some_and(|m| m.1 == Move::Pass) {
                v.pop();
            }
            v
        };
        assert_eq!(setup(&back.events), setup(&original.events), "{path:?}");
        assert_eq!(moves(&back.events), moves(&original.events), "{path:?}");
        assert_eq!(back.size, original.size);
        assert_eq!(moves(&back.events).len(), game.moves.len());
        let file = dir.path().join(format!("{i}.sgf"));
        std::fs::write(&file, record).unwrap();
        records.push(file);
    }
    // And by sgfmill, the original files against the records.
    let originals: Vec<PathBuf> = games.iter().map(|g| g.0.clone()).collect();
    match (sgfmill_main_lines(&originals), sgfmill_main_lines(&records)) {
        (Some(a), Some(b)) => {
            assert_eq!(a.len(), originals.len());
            let mut compared = 0;
            for (k, (x, y)) in a.iter().zip(&b).enumerate() {
                if x.starts_with("error") {
                    continue;
                }
                assert_eq!(x, y, "{:?}", originals[k]);
                compared += 1;
            }
            assert!(compared * 10 >= games.len() * 9, "sgfmill read {compared}");
            eprintln!("sgfmill: {compared} records equal to their games' main lines");
        }
        _ => {
            assert!(
                std::env::var_os("KIFUDEX_REQUIRE_QEMU").is_none_or(|v| v != "1"),
                "sgfmill is not installed (scripts/setup.sh)"
            );
            eprintln!("skipped the sgfmill comparison: python3 with sgfmill is not installed");
        }
    }
    let snapshots: usize = results.iter().map(|r| r.1).sum();
    let fixes: usize = results.iter().map(|r| r.2).sum();
    let checked: usize = results.iter().map(|r| r.3).sum();
    let moves: usize = games.iter().map(|g| g.2.moves.len()).sum();
    eprintln!(
        "tracking: {} games ({handicap} with setup stones; {untrackable} a board cannot follow), \
         {moves} moves from {snapshots} snapshots ({fixes} answered fix), every record its \
         game's; {checked} replies before a move equal to the moves request's",
        games.len()
    );
}

/// A snapshot line of `board` with some points changed.
fn snapshot_with(board: &Board, changes: &[(Point, Stone)]) -> String {
    let mut cells = cells_of(board).into_bytes();
    let w = board.size().width() as usize;
    for &(p, s) in changes {
        cells[p.y as usize * w + p.x as usize] = match s {
            Stone::Empty => b'.',
            Stone::Black => b'X',
            Stone::White => b'O',
        };
    }
    format!("board {} {}", w, text(&cells))
}

/// Streams with real errors, on real games: each gets its named condition with its points,
/// the record waits, and once the board is put right the game goes on and is recorded exactly.
#[test]
fn streams_with_real_errors_get_the_named_condition() {
    let c = cross();
    let book = std::fs::read(&c.book).unwrap();
    let hints = StandardHints::new(kifudex_core::book::Book::open(&book));
    let (games, _) = tracking_games();
    let pts = |v: &[Point]| {
        let mut v = v.to_vec();
        v.sort_by_key(|p| p.index19());
        v.iter()
            .map(|&p| Sgf(Move::Play(p)).to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for (_, _, game) in games.iter().filter(|g| g.2.setup.is_empty()).take(12) {
        let mut ws: Box<Workspace<CAPACITY>> = Box::default();
        let mut say = |line: &str| ask(&hints, &mut ws, line);
        assert_eq!(say("track"), "ok");
        let mut board = Board::new(Size::STANDARD);
        say(&snapshot_with(&board, &[]));
        let empties = |b: &Board| -> Vec<Point> {
            (0..361u16)
                .filter_map(Point::from_index19)
                .filter(|&p| b.get(p) == Stone::Empty)
                .collect()
        };
        for (n, &(color, p)) in game.moves.iter().enumerate() {
            let before = board.clone();
            let captures = board.play(color, Move::Play(p)).unwrap().points;
            match n % 6 {
                // Two new stones of the side to move: the move and another one.
                0 if n > 0 => {
                    let q = empties(&before)
                        .into_iter()
                        .find(|&q| q != p && before.is_legal(color, Move::Play(q)))
                        .unwrap();
                    let two =
                        snapshot_with(&before, &[(p, Stone::of(color)), (q, Stone::of(color))]);
                    assert_eq!(
                        say(&two),
                        format!("fix remove {}", pts(&[p, q])),
                        "move {n}"
                    );
                    *seen.entry("two new stones").or_default() += 1;
                }
                // A stone of the side not to move.
                1 => {
                    let q = empties(&before)[n * 31 % empties(&before).len()];
                    let wrong = snapshot_with(&before, &[(q, Stone::of(color.opponent()))]);
                    assert_eq!(say(&wrong), format!("fix wrong-color {}", pts(&[q])));
                    *seen.entry("wrong colour").or_default() += 1;
                }
                // A recorded stone lifted (and put back below).
                2 if n > 4 => {
                    let s = game.moves[n - 3].1;
                    if before.get(s) != Stone::Empty {
                        let lifted = snapshot_with(&before, &[(s, Stone::Empty)]);
                        assert_eq!(say(&lifted), format!("fix restore {}", pts(&[s])));
                        *seen.entry("recorded stone removed").or_default() += 1;
                    }
                }
                // A point where the side to move may not play (suicide), if there is one.
                3 => {
                    let bad = empties(&before)
                        .into_iter()
                        .find(|&q| !before.is_legal(color, Move::Play(q)));
                    if let Some(q) = bad {
                        let illegal = snapshot_with(&before, &[(q, Stone::of(color))]);
                        assert_eq!(say(&illegal), format!("fix illegal-move {}", pts(&[q])));
                        *seen.entry("illegal move").or_default() += 1;
                    }
                }
                _ => {}
            }
            // The move; captured stones left on the board: remove, even when the next
            // player has already played.
            let placed: Vec<(Point, Stone)> = vec![(p, Stone::of(color))];
            let reply = say(&snapshot_with(&before, &placed));
            if !captures.is_empty() {
                let cap: Vec<Point> = captures.iter().collect();
                assert_eq!(reply, format!("fix remove {}", pts(&cap)), "move {n}");
                if let Some(&(next_color, q)) = game.moves.get(n + 1) {
                    if board.get(q) == Stone::Empty && !captures.contains(q) {
                        let mut early = placed.clone();
                        early.push((q, Stone::of(next_color)));
                        // The record follows the early move (a fix ignored): the stones it
                        // captures in turn are to lift as well.
                        let mut then = board.clone();
                        let mut lift = cap.clone();
                        lift.extend(then.play(next_color, Move::Play(q)).unwrap().points.iter());
                        assert_eq!(
                            say(&snapshot_with(&before, &early)),
                            format!("fix remove {}", pts(&lift)),
                            "move {n}"
                        );
                        *seen
                            .entry("captured stones still on the board")
                            .or_default() += 1;
                    }
                }
            } else {
                assert!(!reply.starts_with("fix "), "move {n}: {reply}");
            }
            // The board put right: consistent for a few snapshots (the move settles).
            for _ in 0..3 {
                let r = say(&snapshot_with(&board, &[]));
                assert!(!r.starts_with("fix "), "move {n}: {r}");
            }
        }
        assert_eq!(say("game"), sgf_of(game));
    }
    eprintln!("named conditions met: {seen:?}");
    for what in [
        "two new stones",
        "wrong colour",
        "recorded stone removed",
        "illegal move",
        "captured stones still on the board",
    ] {
        assert!(
            seen.get(what).copied().unwrap_or(0) >= 3,
            "{what}: {seen:?}"
        );
    }
}
