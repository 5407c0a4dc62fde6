//! `kifudex gtp` and `kifudex analysis` (docs/GTP.md) driven by the programs players use:
//! Sabaki's own GTP library (`@sabaki/gtp`, installed by `scripts/setup.sh` with `npm ci`
//! in `host-tools/tests/gtp-client/`), GNU Go (Debian's `gnugo`, in its GTP mode) as the
//! opponent of whole games on 9x9 and 19x19, KaTrain-shaped JSON queries, and hostile
//! input. Every answer about the database is checked against `kifudex search --json` on
//! the same position, run as a separate process. Without node's package or GNU Go the
//! tests fail (they do not skip): `scripts/setup.sh` installs both.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Output, Stdio};
use std::sync::OnceLock;

use proptest::prelude::*;
use serde_json::{json, Value};

fn shared(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared")
        .join(rel)
}

const KIFUDEX: &str = env!("CARGO_BIN_EXE_kifudex");
const GNUGO: &str = "/usr/games/gnugo";

fn kifudex(args: &[&str]) -> Output {
    Command::new(KIFUDEX)
        .args(args)
        .output()
        .expect("run kifudex")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A file `kifudex build` makes of `input` with `extra` options, in a folder kept for the
/// test binary's life (built once, whichever test asks first).
fn build(input: &Path, name: &str, extra: &[&str]) -> PathBuf {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let dir = DIR.get_or_init(|| tempfile::tempdir().unwrap());
    let out = dir.path().join(name);
    if !out.exists() {
        let mut args = vec![
            "build",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--quiet",
        ];
        args.extend_from_slice(extra);
        let o = kifudex(&args);
        assert!(o.status.success(), "build: {}", text(&o.stderr));
    }
    out
}

/// bGo's test archive: 286 professional 19x19 games.
fn index19() -> PathBuf {
    build(&shared("corpus/bgo_testsgf/TestSGF.tgz"), "bgo.kdx", &[])
}

/// The 9x9 games of the corpus.
fn index9() -> PathBuf {
    build(&shared("corpus/aeb_9x9"), "aeb9.kdx", &[])
}

/// The options of a book with its move predictor, which `genmove` plays from where no
/// game continues.
const BOOK: &[&str] = &["--profile", "mcu", "--predictor"];

/// A book of the 9x9 games with their move predictor.
fn book9() -> PathBuf {
    build(&shared("corpus/aeb_9x9"), "aeb9.kdb", BOOK)
}

/// A book of bGo's test archive with its move predictor.
fn book19() -> PathBuf {
    build(&shared("corpus/bgo_testsgf/TestSGF.tgz"), "bgo.kdb", BOOK)
}

// ---- an independent reading of the notations ----

/// A GTP vertex (`Q16`) as SGF letters (`pd`), on a square board of `size`.
fn sgf_of(vertex: &str, size: u8) -> String {
    if vertex.eq_ignore_ascii_case("pass") {
        return "pass".into();
    }
    let letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let col = vertex.chars().next().unwrap().to_ascii_uppercase();
    let x = letters
        .find(col)
        .unwrap_or_else(|| panic!("vertex {vertex}"));
    let row: usize = vertex[1..]
        .parse()
        .unwrap_or_else(|_| panic!("vertex {vertex}"));
    let y = size as usize - row;
    format!("{}{}", (b'a' + x as u8) as char, (b'a' + y as u8) as char)
}

/// SGF letters as a GTP vertex.
fn vertex_of(sgf: &str, size: u8) -> String {
    if sgf == "pass" {
        return "PASS".into();
    }
    let b = sgf.as_bytes();
    let letters = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let (x, y) = ((b[0] - b'a') as usize, (b[1] - b'a') as usize);
    format!("{}{}", letters[x] as char, size as usize - y)
}

/// `kifudex search --json` on moves from the empty board (SGF letters), with extra
/// arguments (filters, setup).
fn search(index: &Path, size: u8, moves: &[String], extra: &[&str]) -> Value {
    let list = moves.join(",");
    let size = size.to_string();
    let mut args = vec![
        "search",
        "--index",
        index.to_str().unwrap(),
        "--size",
        &size,
        "--moves",
        &list,
        "--json",
    ];
    args.extend_from_slice(extra);
    let o = kifudex(&args);
    assert!(o.status.success(), "search {list}: {}", text(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// One expected analysis entry.
#[derive(Debug, Clone, PartialEq)]
struct Entry {
    vertex: String,
    visits: u64,
    /// Wins of the colour analysed, per 10000 (lz) or as a fraction (kata, checked
    /// within 1e-6).
    winrate: f64,
    prior: f64,
    order: usize,
}

/// The entries `search --json` implies for `color`'s moves (passes left out of the list,
/// counted in the share), winrate and prior as fractions.
fn expected_entries(found: &Value, color: &str, size: u8) -> Vec<Entry> {
    let mine: Vec<&Value> = found["next"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["color"] == color)
        .collect();
    let total: u64 = mine.iter().map(|c| c["count"].as_u64().unwrap()).sum();
    let wins_key = if color == "B" {
        "black_wins"
    } else {
        "white_wins"
    };
    mine.iter()
        .filter(|c| c["move"] != "pass")
        .enumerate()
        .map(|(order, c)| {
            let n = c["count"].as_u64().unwrap();
            Entry {
                vertex: vertex_of(c["move"].as_str().unwrap(), size),
                visits: n,
                winrate: c[wins_key].as_u64().unwrap() as f64 / n as f64,
                prior: n as f64 / total as f64,
                order,
            }
        })
        .collect()
}

/// One entry of an analysis line: the move, its key-value pairs, its pv.
type InfoEntry = (String, Vec<(String, String)>, Vec<String>);

/// The entries of one analysis line (`info move ... pv ...` repeated).
fn parse_info(line: &str) -> Vec<InfoEntry> {
    line.split("info ")
        .filter(|s| !s.trim().is_empty())
        .map(|entry| {
            let words: Vec<&str> = entry.split_whitespace().collect();
            let pv_at = words.iter().position(|w| *w == "pv").expect("a pv");
            let pairs: Vec<(String, String)> = words[..pv_at]
                .chunks(2)
                .map(|p| (p[0].to_owned(), p[1].to_owned()))
                .collect();
            let pv = words[pv_at + 1..].iter().map(|w| w.to_string()).collect();
            let mv = pairs.iter().find(|(k, _)| k == "move").unwrap().1.clone();
            (mv, pairs, pv)
        })
        .collect()
}

/// Checks one analysis line against the expected entries.
fn check_line(line: &str, want: &[Entry], kata: bool, what: &str) {
    let got = parse_info(line);
    assert_eq!(got.len(), want.len(), "{what}: {line}");
    for ((mv, pairs, pv), w) in got.iter().zip(want) {
        let get = |k: &str| -> &str {
            &pairs
                .iter()
                .find(|(key, _)| key == k)
                .unwrap_or_else(|| panic!("{what}: no {k} in {line}"))
                .1
        };
        assert_eq!(mv, &w.vertex, "{what}");
        assert_eq!(pv, &vec![w.vertex.clone()], "{what}");
        assert_eq!(get("visits").parse::<u64>().unwrap(), w.visits, "{what}");
        assert_eq!(get("order").parse::<usize>().unwrap(), w.order, "{what}");
        if kata {
            // Sabaki reads a KataGo winrate only when it has a decimal point.
            assert!(get("winrate").contains('.'), "{what}: {line}");
            let wr: f64 = get("winrate").parse().unwrap();
            let prior: f64 = get("prior").parse().unwrap();
            assert!(
                (wr - w.winrate).abs() < 1e-6,
                "{what}: {wr} vs {}",
                w.winrate
            );
            assert!((prior - w.prior).abs() < 1e-6, "{what}");
            assert_eq!(get("scoreLead"), "0.0");
        } else {
            assert_eq!(
                get("winrate").parse::<f64>().unwrap(),
                (w.winrate * 10000.0).round(),
                "{what}: {line}"
            );
            assert_eq!(
                get("prior").parse::<f64>().unwrap(),
                (w.prior * 10000.0).round(),
                "{what}"
            );
        }
    }
}

// ---- Sabaki's GTP library ----

/// The folder of the node driver, its package installed.
fn gtp_client() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/gtp-client");
    assert!(
        dir.join("node_modules/@sabaki/gtp").is_dir(),
        "@sabaki/gtp is not installed in {}: run scripts/setup.sh (npm ci there)",
        dir.display()
    );
    dir
}

/// Runs the steps through `session.js` against `kifudex gtp` with `engine_args`; the
/// recorded answers.
fn sabaki_session(steps: &Value, engine_args: &[&str]) -> Vec<Value> {
    let dir = gtp_client();
    let mut child = Command::new("node")
        .arg("session.js")
        .arg(KIFUDEX)
        .arg("gtp")
        .args(engine_args)
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run node (scripts/setup.sh installs it)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(steps.to_string().as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "node session: {}", text(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    for line in v["stderr"].as_array().unwrap() {
        assert!(
            !line.as_str().unwrap().contains("panicked"),
            "engine: {line}"
        );
    }
    v["answers"].as_array().unwrap().clone()
}

/// A line of play through the index: at each position the `k % 3`-th most played move of
/// the side to move (the most played when there are fewer), `n` moves; the SGF moves.
fn line_of_play(index: &Path, n: usize) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for k in 0..n {
        let color = if k.is_multiple_of(2) { "B" } else { "W" };
        let found = search(index, 19, &moves, &[]);
        let mine: Vec<&Value> = found["next"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["color"] == color && c["move"] != "pass")
            .collect();
        let pick = mine.get(k % 3).or(mine.first()).expect("a next move");
        moves.push(pick["move"].as_str().unwrap().to_owned());
    }
    moves
}

/// A session of Sabaki's: board synchronised move by move (with undo where the line
/// changes), lz-analyze and kata-analyze on every position, the stones, genmove; every
/// answer equals what `kifudex search --json` says of the same position.
fn check_sabaki_session(index: &Path, engine_args: &[&str], filter_args: &[&str]) {
    let moves = line_of_play(index, 10);
    let mut steps = vec![
        json!({"command": "1 protocol_version"}),
        json!({"command": "name"}),
        json!({"command": "list_commands"}),
    ];
    let color_of = |k: usize| if k.is_multiple_of(2) { "B" } else { "W" };
    for k in 0..=moves.len() {
        let history: Vec<Value> = moves[..k]
            .iter()
            .enumerate()
            .map(|(i, m)| json!([color_of(i), vertex_of(m, 19)]))
            .collect();
        steps.push(json!({"sync": {"boardsize": 19, "komi": 6.5, "moves": history}}));
        steps.push(json!({"analyze": format!("lz-analyze {} 1", color_of(k)), "lines": 2}));
        steps.push(
            json!({"analyze": format!("kata-analyze {} interval 1", color_of(k)), "lines": 2}),
        );
        steps.push(json!({"command": "list_stones black"}));
        steps.push(json!({"command": "list_stones white"}));
    }
    // Back to an earlier position as Sabaki goes back (undo), then genmove from there.
    let back: Vec<Value> = moves[..4]
        .iter()
        .enumerate()
        .map(|(i, m)| json!([color_of(i), vertex_of(m, 19)]))
        .collect();
    steps.push(json!({"sync": {"boardsize": 19, "komi": 6.5, "moves": back}}));
    steps.push(json!({"command": "7 genmove b"}));
    steps.push(json!({"command": "list_stones black"}));
    steps.push(json!({"command": "undo"}));
    steps.push(json!({"command": "play w Q16"}));
    steps.push(json!({"command": "boardsize 13"}));
    steps.push(json!({"command": "frobnicate"}));
    steps.push(json!({"command": "quit"}));

    let answers = sabaki_session(&Value::Array(steps.clone()), engine_args);
    let mut a = answers.iter();
    let mut next =
        |what: &str| -> &Value { a.next().unwrap_or_else(|| panic!("no answer for {what}")) };
    let v = next("protocol_version");
    assert_eq!(
        (v["id"].as_u64(), v["content"].as_str()),
        (Some(1), Some("2"))
    );
    assert_eq!(next("name")["content"], "kifudex");
    let listed: BTreeSet<&str> = next("list_commands")["content"]
        .as_str()
        .unwrap()
        .lines()
        .collect();
    for c in [
        "boardsize",
        "play",
        "undo",
        "genmove",
        "lz-analyze",
        "kata-analyze",
        "list_stones",
    ] {
        assert!(listed.contains(c), "{c} not listed");
    }
    let mut analysed = 0;
    for k in 0..=moves.len() {
        let found = search(index, 19, &moves[..k], filter_args);
        let color = color_of(k);
        assert!(!next("sync")["error"].as_bool().unwrap());
        let want = expected_entries(&found, color, 19);
        for kata in [false, true] {
            let v = next("analysis");
            assert!(!v["error"].as_bool().unwrap(), "{v}");
            let lines = v["lines"].as_array().unwrap();
            let what = format!("{} after {:?}", v["step"]["analyze"], &moves[..k]);
            if want.is_empty() {
                assert!(lines.is_empty(), "{what}: {v}");
                continue;
            }
            // Repeated every interval until the next command, each line the same.
            assert!(lines.len() >= 2, "{what}: {v}");
            for l in lines {
                assert_eq!(l, &lines[0], "{what}");
                check_line(l.as_str().unwrap(), &want, kata, &what);
            }
            analysed += 1;
        }
        // The stones, against the moves (no capture in these openings).
        for (list, parity) in [("black", 0), ("white", 1)] {
            let got: BTreeSet<String> = next("list_stones")["content"]
                .as_str()
                .unwrap()
                .split_whitespace()
                .map(|v| sgf_of(v, 19))
                .collect();
            let want: BTreeSet<String> = moves[..k]
                .iter()
                .enumerate()
                .filter(|(i, _)| i % 2 == parity)
                .map(|(_, m)| m.clone())
                .collect();
            assert_eq!(got, want, "{list} after {k} moves");
        }
    }
    assert!(
        analysed >= 10,
        "only {analysed} positions had database moves"
    );
    assert!(!next("sync back")["error"].as_bool().unwrap());
    let found = search(index, 19, &moves[..4], filter_args);
    let first_black = found["next"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["color"] == "B")
        .expect("a black move after 4 moves");
    let g = next("genmove");
    assert_eq!(g["id"], 7);
    assert_eq!(
        sgf_of(g["content"].as_str().unwrap(), 19),
        first_black["move"].as_str().unwrap(),
        "genmove plays the most played move"
    );
    let blacks = next("list_stones")["content"].as_str().unwrap().to_owned();
    assert!(blacks.split_whitespace().any(|v| v == g["content"]));
    assert!(!next("undo")["error"].as_bool().unwrap());
    let illegal = next("play on a stone");
    assert!(
        illegal["error"].as_bool().unwrap()
            && illegal["content"]
                .as_str()
                .unwrap()
                .starts_with("illegal move"),
        "{illegal}"
    );
    let size = next("boardsize 13");
    assert_eq!(
        (size["error"].as_bool(), size["content"].as_str()),
        (Some(true), Some("unacceptable size"))
    );
    let unknown = next("unknown");
    assert_eq!(
        (unknown["error"].as_bool(), unknown["content"].as_str()),
        (Some(true), Some("unknown command"))
    );
    assert!(!next("quit")["error"].as_bool().unwrap());
}

#[test]
fn sabaki_client_session_answers_as_search_does() {
    let index = index19();
    check_sabaki_session(&index, &["--index", index.to_str().unwrap()], &[]);
}

#[test]
fn sabaki_client_session_with_filters() {
    let index = index19();
    let filter = ["--year-from", "2012", "--player", "a"];
    let mut args = vec!["--index", index.to_str().unwrap()];
    args.extend_from_slice(&filter);
    check_sabaki_session(&index, &args, &filter);
}

// ---- whole games against GNU Go ----

/// A GTP engine as a child process: commands in, answers out.
struct Engine {
    name: &'static str,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(name: &'static str, program: &str, args: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("{program}: {e} (scripts/setup.sh installs gnugo)"));
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            name,
            child,
            stdin,
            stdout,
        }
    }

    /// Sends a command; `Ok(result)` for `=`, `Err(message)` for `?`.
    fn send(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).unwrap();
            assert!(n > 0, "{}: no answer to {command}", self.name);
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                if answer.is_empty() {
                    continue;
                }
                break;
            }
            answer.push_str(line);
            answer.push('\n');
        }
        let ok = answer.starts_with('=');
        assert!(ok || answer.starts_with('?'), "{}: {answer}", self.name);
        let body = answer[1..].trim().to_owned();
        if ok {
            Ok(body)
        } else {
            Err(body)
        }
    }

    fn ok(&mut self, command: &str) -> String {
        self.send(command)
            .unwrap_or_else(|e| panic!("{}: {command}: ? {e}", self.name))
    }

    fn stones(&mut self, color: &str, size: u8) -> BTreeSet<String> {
        self.ok(&format!("list_stones {color}"))
            .split_whitespace()
            .map(|v| sgf_of(v, size))
            .collect()
    }

    fn quit(mut self) {
        self.ok("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{} exited with {status}", self.name);
    }
}

/// Plays a whole game between `kifudex gtp` (colour `kifudex_color`) and GNU Go, refereed:
/// every move one engine sends is played on the other, which must accept it; the game ends
/// after two passes in a row (or a resignation, or the move cap); both final boards must
/// agree. Returns the moves (SGF letters, pass included) and how many of kifudex's were
/// database moves.
fn game_against_gnugo(
    index: &Path,
    book: Option<&Path>,
    size: u8,
    kifudex_color: &str,
    komi: &str,
    cap: usize,
) -> Vec<String> {
    let mut args = vec!["gtp", "--index", index.to_str().unwrap()];
    if let Some(b) = book {
        args.extend(["--book", b.to_str().unwrap()]);
    }
    let mut kifudex = Engine::start("kifudex", KIFUDEX, &args);
    let mut gnugo = Engine::start(
        "gnugo",
        GNUGO,
        // A fixed seed: GNU Go picks among its opening moves at random (Q16, R16, now and
        // then tengen, which the 286 games of the 19x19 index never answer).
        &[
            "--mode",
            "gtp",
            "--level",
            "0",
            "--chinese-rules",
            "--seed",
            "1",
        ],
    );
    for e in [&mut kifudex, &mut gnugo] {
        e.ok(&format!("boardsize {size}"));
        e.ok("clear_board");
        e.ok(&format!("komi {komi}"));
    }
    let mut moves: Vec<String> = Vec::new();
    let mut passes = 0;
    let mut color = "b";
    while passes < 2 && moves.len() < cap {
        let (mover, other) = if color.eq_ignore_ascii_case(kifudex_color) {
            (&mut kifudex, &mut gnugo)
        } else {
            (&mut gnugo, &mut kifudex)
        };
        let v = mover.ok(&format!("genmove {color}"));
        if v.eq_ignore_ascii_case("resign") {
            break;
        }
        other
            .send(&format!("play {color} {v}"))
            .unwrap_or_else(|e| {
                panic!(
                    "{} refused {} {color} {v}: {e} (moves {moves:?})",
                    other.name, mover.name
                )
            });
        passes = if v.eq_ignore_ascii_case("pass") {
            passes + 1
        } else {
            0
        };
        moves.push(sgf_of(&v, size));
        color = if color == "b" { "w" } else { "b" };
    }
    for c in ["black", "white"] {
        let (k, g) = (kifudex.stones(c, size), gnugo.stones(c, size));
        assert_eq!(k, g, "{c} stones differ after {moves:?}");
    }
    // showboard too: the same points in the same places.
    let board = kifudex.ok("showboard");
    let cells: Vec<char> = board
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .flat_map(|l| {
            l.split_whitespace()
                .skip(1)
                .take(size as usize)
                .flat_map(|w| w.chars())
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(cells.len(), size as usize * size as usize, "{board}");
    let black = kifudex.stones("black", size);
    for (i, c) in cells.iter().enumerate() {
        let p = format!(
            "{}{}",
            (b'a' + (i % size as usize) as u8) as char,
            (b'a' + (i / size as usize) as u8) as char
        );
        assert_eq!(*c == 'X', black.contains(&p), "showboard at {p}");
    }
    eprintln!(
        "{size}x{size}, kifudex {kifudex_color}: {} moves, kifudex's score {}, GNU Go's {}: {}",
        moves.len(),
        kifudex.ok("final_score"),
        gnugo.ok("final_score"),
        moves.join(",")
    );
    kifudex.quit();
    gnugo.quit();
    moves
}

/// kifudex's moves of a game (every other move from its colour's first) that are the
/// most played database move of their position, checked with `search --json`.
fn database_moves_played(index: &Path, size: u8, moves: &[String], kifudex_first: usize) -> usize {
    let mut n = 0;
    for i in (kifudex_first..moves.len()).step_by(2) {
        let color = if i.is_multiple_of(2) { "B" } else { "W" };
        let found = search(index, size, &moves[..i], &[]);
        match found["next"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["color"] == color)
        {
            Some(c) => {
                assert_eq!(c["move"], moves[i], "move {} of {moves:?}", i + 1);
                n += 1;
            }
            None => return n,
        }
    }
    n
}

/// A whole game of kifudex (with the index and the book of `size`) against GNU Go: at
/// least `min_moves` moves, and kifudex's first moves the database's most played.
fn whole_game(size: u8, kifudex_color: &str, komi: &str, cap: usize, min_moves: usize) {
    let (index, book) = if size == 9 {
        (index9(), book9())
    } else {
        (index19(), book19())
    };
    let moves = game_against_gnugo(&index, Some(&book), size, kifudex_color, komi, cap);
    assert!(moves.len() >= min_moves, "{moves:?}");
    let first = usize::from(kifudex_color == "w");
    let from_db = database_moves_played(&index, size, &moves, first);
    assert!(from_db >= 1, "no database move in {moves:?}");
}

#[test]
fn a_whole_9x9_game_against_gnugo() {
    whole_game(9, "b", "7", 200, 10);
}

#[test]
fn a_whole_19x19_game_against_gnugo() {
    whole_game(19, "w", "6.5", 700, 20);
}

// ---- hostile input ----

/// `kifudex` with `args`, its standard streams piped.
fn spawn(args: &[&str]) -> Child {
    Command::new(KIFUDEX)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kifudex")
}

/// Runs `kifudex gtp` on the sample with `input`; (status, stdout, stderr).
fn gtp_with(input: &[u8]) -> (std::process::ExitStatus, String, String) {
    let mut child = spawn(&["gtp"]);
    let mut stdin = child.stdin.take().unwrap();
    let bytes = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&bytes);
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (o.status, text(&o.stdout), text(&o.stderr))
}

/// The answers of a GTP output: (ok, id, body) each.
fn answers(out: &str) -> Vec<(bool, String, String)> {
    out.split("\n\n")
        .filter(|a| !a.is_empty())
        .map(|a| {
            let ok = a.starts_with('=');
            assert!(ok || a.starts_with('?'), "not an answer: {a:?}");
            let rest = &a[1..];
            let id: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            let body = rest[id.len()..].trim().to_owned();
            (ok, id, body)
        })
        .collect()
}

#[test]
fn bad_input_gets_answers_never_a_panic() {
    let mut input: Vec<u8> = Vec::new();
    let mut rng = 0x9E3779B97F4A7C15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    input.extend_from_slice(
        b"1 boardsize 7\n2 boardsize 0\n3 boardsize -1\n4 boardsize 99999999999999999999\n",
    );
    input.extend_from_slice(b"5 play b Z99\n6 play x Q16\n7 play b\n8 play b Q16\n9 play w Q16\n");
    input.extend_from_slice(
        b"10 frobnicate\n11 undo\n12 undo\n13 komi abc\n14 loadsgf /nonexistent.sgf\n",
    );
    input.extend_from_slice(b"15 lz-analyze b maxmoves\n16 genmove purple\n17\n");
    input.extend_from_slice(b"18 list_stones\n19 set_free_handicap A1\n");
    input.extend(std::iter::repeat_n(b'a', 200_000));
    input.extend_from_slice(b"\n\t\r\n# comment only\n   \n");
    for _ in 0..300 {
        let n = (next() % 120) as usize;
        let line: Vec<u8> = (0..n)
            .map(|_| (next() % 256) as u8)
            .filter(|&b| b != b'\n')
            .collect();
        input.extend_from_slice(&line);
        input.push(b'\n');
    }
    input.extend_from_slice(b"\n98 protocol_version\n99 quit\n100 name\n");
    let (status, out, err) = gtp_with(&input);
    assert!(status.success(), "{status}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    let all = answers(&out);
    let by_id = |id: &str| {
        all.iter()
            .find(|a| a.1 == id)
            .unwrap_or_else(|| panic!("no answer {id}: {out}"))
    };
    assert!(by_id("11").0, "undo of 8");
    for bad in [
        "2", "3", "4", "5", "6", "7", "9", "10", "12", "13", "14", "15", "16", "17", "18", "19",
    ] {
        assert!(!by_id(bad).0, "{bad} should fail: {:?}", by_id(bad));
    }
    assert_eq!(
        by_id("1").2,
        "unacceptable size",
        "no 7x7 game in the sample"
    );
    assert!(by_id("8").0);
    assert!(all.iter().any(|a| !a.0 && a.2.starts_with("line too long")));
    assert_eq!(by_id("98"), &(true, "98".into(), "2".into()));
    // Nothing after quit.
    assert_eq!(all.last().unwrap().1, "99");
}

#[test]
fn the_end_of_input_and_a_closed_pipe_end_the_engine_quietly() {
    // The end of the input, also in the middle of an analysis.
    let (status, out, err) = gtp_with(b"name\nlz-analyze b 1");
    assert!(status.success() && err.is_empty(), "{status} {err}");
    assert!(out.starts_with("= kifudex\n\n=\ninfo move"), "{out}");
    assert!(
        out.ends_with("\n\n"),
        "the analysis ends with an empty line"
    );
    // A controller that stops reading: the engine exits without a word.
    let mut child = spawn(&["gtp"]);
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    for _ in 0..10_000 {
        if stdin.write_all(b"showboard\n").is_err() {
            break;
        }
    }
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", o.status);
    assert!(o.stderr.is_empty(), "{}", text(&o.stderr));
}

#[test]
fn an_analysis_stops_at_the_next_command_and_loses_none() {
    // Commands written at once, behind an analysis with a long interval: each answered.
    let (status, out, _) = gtp_with(b"1 kata-analyze b 5000\n2 play b Q16\n3 lz-analyze w 5000\n\n4 list_stones black\n5 quit\n");
    assert!(status.success());
    let parts: Vec<&str> = out.split("\n\n").collect();
    assert!(parts[0].starts_with("=1\ninfo move"), "{out}");
    assert_eq!(parts[1], "=2 ");
    assert!(parts[2].starts_with("=3\ninfo move"), "{out}");
    assert_eq!(parts[3], "=4 Q16");
    assert_eq!(parts[4], "=5 ");
}

fn sample_engine_lines(lines: &[Vec<u8>]) {
    static SAMPLE: OnceLock<Vec<u8>> = OnceLock::new();
    let bytes = SAMPLE.get_or_init(|| kifudex::sample::sample_index().unwrap());
    let explorer = kifudex::explore::Explorer::open(bytes, "the sample").unwrap();
    let mut engine = kifudex::gtp::Engine::new(&explorer, Default::default());
    for l in lines {
        let raw = kifudex::gtp::protocol::RawLine {
            bytes: l.clone(),
            overlong: false,
        };
        match engine.handle(&raw) {
            None => {}
            Some(kifudex::gtp::Step::Answer(a)) | Some(kifudex::gtp::Step::Quit(a)) => {
                assert!(a.starts_with('=') || a.starts_with('?'), "{a:?}");
                assert!(a.ends_with("\n\n"));
                assert!(!a[..a.len() - 2].contains("\n\n"), "{a:?}");
            }
            Some(kifudex::gtp::Step::Analyze { head, line, .. }) => {
                assert!(head.starts_with('=') && head.ends_with('\n'));
                assert!(!line.contains('\n'));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_line_handler_answers_any_bytes(lines in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..80), 0..20)) {
        sample_engine_lines(&lines);
    }

    #[test]
    fn the_line_handler_answers_command_soup(parts in proptest::collection::vec(proptest::collection::vec(prop_oneof![
        Just("play"), Just("genmove"), Just("undo"), Just("boardsize"), Just("b"), Just("w"),
        Just("Q16"), Just("pass"), Just("A1"), Just("T19"), Just("19"), Just("9"), Just("0"),
        Just("loadsgf"), Just("printsgf"), Just("set_free_handicap"), Just("D4"), Just("lz-analyze"),
        Just("kata-analyze"), Just("clear_board"), Just("final_score"), Just("showboard"),
        Just("list_stones"), Just("komi"), Just("-7.5"), Just("1e400"), Just("#"), Just("\t"),
        Just("12"), Just("kifudex-database_moves"), Just("maxmoves"), Just("interval"),
    ], 0..6), 0..40)) {
        let lines: Vec<Vec<u8>> = parts.iter().map(|p| p.join(" ").into_bytes()).collect();
        sample_engine_lines(&lines);
    }
}

#[test]
fn gogui_analyze_commands_and_the_database_moves_command() {
    let index = index19();
    let input = b"gogui-analyze_commands\nplay b R16\nkifudex-database_moves w\nkifudex-database_moves\nquit\n";
    let mut child = Command::new(KIFUDEX)
        .args(["gtp", "--index", index.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let o = child.wait_with_output().unwrap();
    let all = answers(&text(&o.stdout));
    assert_eq!(all[0].2, "gfx/Database moves/kifudex-database_moves %c");
    let found = search(&index, 19, &["qd".into()], &[]);
    let want = expected_entries(&found, "W", 19);
    let gfx = &all[2].2;
    let labels: Vec<String> = want
        .iter()
        .map(|e| format!("{} {}", e.vertex, e.visits))
        .collect();
    assert!(
        gfx.starts_with(&format!("LABEL {}\nTEXT White: ", labels.join(" "))),
        "{gfx}"
    );
    assert_eq!(all[3].2, all[2].2, "White to move by default");
}

// ---- KataGo's JSON analysis protocol ----

/// Runs `kifudex analysis` on query lines; the answer lines as JSON.
fn analysis(index: &Path, queries: &[Value], raw_tail: &[u8]) -> Vec<Value> {
    let mut child = spawn(&["analysis", "--index", index.to_str().unwrap()]);
    let mut input = Vec::new();
    for q in queries {
        input.extend_from_slice(q.to_string().as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(raw_tail);
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(
        o.status.success() && o.stderr.is_empty(),
        "{}",
        text(&o.stderr)
    );
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// A query as KaTrain sends it (`KataGoEngine.request_analysis`).
fn katrain_query(
    id: &str,
    moves: &[(&str, String)],
    stones: &[(&str, String)],
    turn: usize,
) -> Value {
    json!({
        "id": id,
        "rules": "japanese",
        "priority": 1,
        "analyzeTurns": [turn],
        "maxVisits": 500,
        "komi": 6.5,
        "boardXSize": 19,
        "boardYSize": 19,
        "includeOwnership": true,
        "includeMovesOwnership": true,
        "includePolicy": true,
        "initialStones": stones.iter().map(|(c, v)| json!([c, v])).collect::<Vec<_>>(),
        "initialPlayer": if stones.is_empty() { "B" } else { "W" },
        "moves": moves.iter().map(|(c, v)| json!([c, v])).collect::<Vec<_>>(),
        "overrideSettings": {"reportAnalysisWinratesAs": "BLACK", "maxTime": 8.0, "wideRootNoise": 0.04},
    })
}

/// Checks one answer against `search --json` of the same position: moveInfos (winrates
/// as Black's, as KaTrain asks), rootInfo and the policy.
fn check_answer(answer: &Value, found: &Value, to_move: &str, what: &str) {
    let black_view = expected_entries(found, to_move, 19);
    let mine: Vec<&Value> = found["next"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["color"] == to_move)
        .collect();
    let infos = answer["moveInfos"].as_array().unwrap();
    assert_eq!(infos.len(), mine.len(), "{what}");
    let total: u64 = mine.iter().map(|c| c["count"].as_u64().unwrap()).sum();
    let mut black_wins = 0;
    for (order, (info, c)) in infos.iter().zip(&mine).enumerate() {
        let n = c["count"].as_u64().unwrap();
        black_wins += c["black_wins"].as_u64().unwrap();
        assert_eq!(
            sgf_of(info["move"].as_str().unwrap(), 19),
            c["move"].as_str().unwrap(),
            "{what}"
        );
        assert_eq!(info["visits"].as_u64().unwrap(), n, "{what}");
        assert_eq!(info["order"].as_u64().unwrap(), order as u64, "{what}");
        let wr = c["black_wins"].as_u64().unwrap() as f64 / n as f64;
        assert!(
            (info["winrate"].as_f64().unwrap() - wr).abs() < 1e-9,
            "{what}"
        );
        assert!(
            (info["prior"].as_f64().unwrap() - n as f64 / total as f64).abs() < 1e-9,
            "{what}"
        );
        assert_eq!(info["pv"], json!([info["move"]]));
        assert_eq!(info["scoreLead"], 0.0);
    }
    assert!(black_view.len() <= infos.len());
    let root = &answer["rootInfo"];
    assert_eq!(root["visits"].as_u64().unwrap(), total, "{what}");
    assert_eq!(root["currentPlayer"], to_move);
    if total > 0 {
        assert!(
            (root["winrate"].as_f64().unwrap() - black_wins as f64 / total as f64).abs() < 1e-9
        );
    }
    assert_eq!(answer["isDuringSearch"], false);
    // The policy: row-major from the top left, the pass last.
    let policy = answer["policy"].as_array().unwrap();
    assert_eq!(policy.len(), 362, "{what}");
    for c in &mine {
        let m = c["move"].as_str().unwrap();
        let i = if m == "pass" {
            361
        } else {
            let b = m.as_bytes();
            (b[1] - b'a') as usize * 19 + (b[0] - b'a') as usize
        };
        let share = c["count"].as_u64().unwrap() as f64 / total as f64;
        assert!(
            (policy[i].as_f64().unwrap() - share).abs() < 1e-9,
            "{what}: {m}"
        );
    }
    let sum: f64 = policy.iter().map(|p| p.as_f64().unwrap().max(0.0)).sum();
    if total > 0 {
        assert!((sum - 1.0).abs() < 1e-9, "{what}: policy sums to {sum}");
    }
}

#[test]
fn katrain_queries_answer_as_search_does() {
    let index = index19();
    let line = line_of_play(&index, 8);
    let color_of = |k: usize| if k.is_multiple_of(2) { "B" } else { "W" };
    let moves: Vec<(&str, String)> = line
        .iter()
        .enumerate()
        .map(|(i, m)| (color_of(i), vertex_of(m, 19)))
        .collect();
    let mut queries: Vec<Value> = vec![json!({"id": "v", "action": "query_version"})];
    for k in 0..=moves.len() {
        queries.push(katrain_query(&format!("QUERY:{k}"), &moves[..k], &[], k));
    }
    // All turns of the game in one query, and KaTrain's terminate.
    let mut all = katrain_query("all", &moves, &[], 0);
    all["analyzeTurns"] = json!((0..=moves.len()).collect::<Vec<_>>());
    queries.push(all);
    queries.push(json!({"id": "t", "action": "terminate", "terminateId": "QUERY:1"}));
    // A position set up with stones, no moves (as KaTrain sends a handicap game or an
    // edited board): the stones of the first four moves, Black to move.
    let stones: Vec<(&str, String)> = moves[..4].to_vec();
    let mut setup = katrain_query("setup", &[], &stones, 0);
    setup["initialPlayer"] = json!("B");
    queries.push(setup);
    // "Find alternatives": the moves already shown avoided.
    let mut avoid = katrain_query("avoid", &moves[..2], &[], 2);
    let found2 = search(&index, 19, &line[..2], &[]);
    let top = expected_entries(&found2, "B", 19);
    avoid["avoidMoves"] = json!([{"moves": [top[0].vertex], "player": "B", "untilDepth": 1}]);
    queries.push(avoid);
    // Errors: an illegal move, a bad field, a line that is not JSON.
    queries.push(katrain_query(
        "illegal",
        &[("B", "Q16".into()), ("W", "Q16".into())],
        &[],
        2,
    ));
    let mut bad_size = katrain_query("size", &[], &[], 0);
    bad_size["boardXSize"] = json!(40);
    queries.push(bad_size);
    let out = analysis(&index, &queries, b"not json\n\n");
    let mut a = out.iter();
    let v = a.next().unwrap();
    assert_eq!(
        (v["id"].as_str(), v["action"].as_str()),
        (Some("v"), Some("query_version"))
    );
    assert!(v["version"].is_string());
    for k in 0..=moves.len() {
        let v = a.next().unwrap();
        assert_eq!(v["id"], format!("QUERY:{k}"));
        assert_eq!(v["turnNumber"], k);
        let found = search(&index, 19, &line[..k], &[]);
        check_answer(v, &found, color_of(k), &format!("turn {k}"));
    }
    for k in 0..=moves.len() {
        let v = a.next().unwrap();
        assert_eq!(
            (v["id"].as_str(), v["turnNumber"].as_u64()),
            (Some("all"), Some(k as u64))
        );
        let found = search(&index, 19, &line[..k], &[]);
        check_answer(v, &found, color_of(k), &format!("all, turn {k}"));
    }
    let v = a.next().unwrap();
    assert_eq!(
        (v["id"].as_str(), v["terminateId"].as_str()),
        (Some("t"), Some("QUERY:1"))
    );
    let v = a.next().unwrap();
    let (ab, aw) = (
        format!("{},{}", line[0], line[2]),
        format!("{},{}", line[1], line[3]),
    );
    let found = search(
        &index,
        19,
        &[],
        &["--ab", &ab, "--aw", &aw, "--to-move", "B"],
    );
    assert!(!found["next"].as_array().unwrap().is_empty());
    check_answer(v, &found, "B", "setup");
    let v = a.next().unwrap();
    let infos = v["moveInfos"].as_array().unwrap();
    assert_eq!(infos.len(), top.len() - 1, "{v}");
    assert!(infos.iter().all(|i| i["move"] != top[0].vertex.as_str()));
    let v = a.next().unwrap();
    assert_eq!(
        (v["id"].as_str(), v["field"].as_str()),
        (Some("illegal"), Some("moves"))
    );
    assert!(
        v["error"].as_str().unwrap().starts_with("Illegal move 2"),
        "{v}"
    );
    let v = a.next().unwrap();
    assert_eq!(
        (v["id"].as_str(), v["field"].as_str()),
        (Some("size"), Some("boardXSize"))
    );
    let v = a.next().unwrap();
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("could not parse JSON"),
        "{v}"
    );
    assert!(a.next().is_none(), "an empty line gets no answer");
}

// ---- records: loadsgf, printsgf, final_score ----

/// The area score of a position from its stones, counted here: stones plus the empty
/// regions that touch one colour only; `B+x`, `W+x` or `0` with the komi.
fn area_score(black: &BTreeSet<String>, white: &BTreeSet<String>, size: u8, komi: f64) -> String {
    let n = size as i32;
    let name = |x: i32, y: i32| format!("{}{}", (b'a' + x as u8) as char, (b'a' + y as u8) as char);
    let mut seen = BTreeSet::new();
    let (mut b, mut w) = (black.len() as f64, white.len() as f64);
    for y in 0..n {
        for x in 0..n {
            let p = name(x, y);
            if black.contains(&p) || white.contains(&p) || seen.contains(&p) {
                continue;
            }
            let (mut region, mut touches_b, mut touches_w) = (0, false, false);
            let mut todo = vec![(x, y)];
            seen.insert(p);
            while let Some((x, y)) = todo.pop() {
                region += 1;
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let (nx, ny) = (x + dx, y + dy);
                    if nx < 0 || ny < 0 || nx >= n || ny >= n {
                        continue;
                    }
                    let q = name(nx, ny);
                    if black.contains(&q) {
                        touches_b = true;
                    } else if white.contains(&q) {
                        touches_w = true;
                    } else if seen.insert(q) {
                        todo.push((nx, ny));
                    }
                }
            }
            match (touches_b, touches_w) {
                (true, false) => b += region as f64,
                (false, true) => w += region as f64,
                _ => {}
            }
        }
    }
    let d = b - w - komi;
    if d > 0.0 {
        format!("B+{d}")
    } else if d < 0.0 {
        format!("W+{}", -d)
    } else {
        "0".into()
    }
}

#[test]
fn loadsgf_and_printsgf_give_gnugo_s_positions_and_final_score_counts_the_area() {
    let mut files: Vec<PathBuf> = walk(&shared("corpus/aeb_9x9"));
    files.sort();
    let files: Vec<PathBuf> = files.into_iter().step_by(50).collect();
    let index = index9();
    let dir = tempfile::tempdir().unwrap();
    let mut kfx = Engine::start(
        "kifudex",
        KIFUDEX,
        &["gtp", "--index", index.to_str().unwrap()],
    );
    let mut gnugo = Engine::start("gnugo", GNUGO, &["--mode", "gtp"]);
    let mut compared = 0;
    for (i, f) in files.iter().enumerate() {
        for at in ["", " 1", " 12"] {
            let cmd = format!("loadsgf {}{at}", f.display());
            let (Ok(k), Ok(g)) = (kfx.send(&cmd), gnugo.send(&cmd)) else {
                panic!("{cmd}: one engine refused it");
            };
            assert_eq!(k, g, "{cmd}: the colour to move");
            for c in ["black", "white"] {
                assert_eq!(kfx.stones(c, 9), gnugo.stones(c, 9), "{cmd}: {c}");
            }
            // The database's moves there are those of search --sgf.
            let moves = match at {
                "" => None,
                n => Some((n.trim().parse::<usize>().unwrap() - 1).to_string()),
            };
            let mut args = vec![
                "search",
                "--index",
                index.to_str().unwrap(),
                "--sgf",
                f.to_str().unwrap(),
                "--json",
            ];
            if let Some(m) = &moves {
                args.extend(["--move", m]);
            }
            let o = kifudex(&args);
            assert!(o.status.success(), "{}", text(&o.stderr));
            let found: Value = serde_json::from_slice(&o.stdout).unwrap();
            let color = if k == "black" { "B" } else { "W" };
            let want = expected_entries(&found, color, 9);
            // A one-shot analysis, ended by an empty line (as KataGo's is).
            let line = kfx.ok(&format!("kata-analyze {color}\n"));
            check_line(line.trim(), &want, true, &cmd);
            compared += want.len();
            // printsgf, read back by GNU Go: the same position.
            let sgf = kfx.ok("printsgf");
            let copy = dir.path().join(format!("copy{i}.sgf"));
            std::fs::write(&copy, &sgf).unwrap();
            gnugo.ok(&format!("loadsgf {}", copy.display()));
            for c in ["black", "white"] {
                assert_eq!(
                    kfx.stones(c, 9),
                    gnugo.stones(c, 9),
                    "printsgf of {cmd}: {c}\n{sgf}"
                );
            }
        }
        kfx.ok("komi 5.5");
        let (b, w) = (kfx.stones("black", 9), kfx.stones("white", 9));
        assert_eq!(
            kfx.ok("final_score"),
            area_score(&b, &w, 9, 5.5),
            "{}",
            f.display()
        );
    }
    assert!(compared > 0, "no database move compared");
    // Handicap stones as Sabaki sets them up: the same board on both, White to move.
    for e in [&mut kfx, &mut gnugo] {
        e.ok("boardsize 9");
        e.ok("clear_board");
        e.ok("set_free_handicap C3 G7 c7");
    }
    for c in ["black", "white"] {
        assert_eq!(kfx.stones(c, 9), gnugo.stones(c, 9), "handicap: {c}");
    }
    assert!(
        kfx.send("set_free_handicap D4 E5").is_err(),
        "the board is not empty"
    );
    let v = kfx.ok("genmove w");
    gnugo.ok(&format!("play w {v}"));
    assert!(
        kfx.send("undo").is_ok() && kfx.send("undo").is_err(),
        "handicap stones stay"
    );
    kfx.quit();
    gnugo.quit();
}

/// The `.sgf` files under a folder.
fn walk(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|x| x == "sgf"))
        .collect()
}
