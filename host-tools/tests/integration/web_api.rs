//! The web board's API on a server on an ephemeral loopback port, over an index of real
//! games of `../shared/corpus`:
//! - every answer equals what the command line prints for the same query (`search --json`,
//!   `games --json`, `game ID`, `game ID --sgf`);
//! - the games listed are the games whose main line reaches the position, found by a
//!   deliberately simple replay of the records (a grid, flood fills, the 8 symmetries by
//!   brute force), and `/api/position`'s stones and captures are that replay's;
//! - a stored game as JSON and as SGF holds the moves and setup the record's main line holds;
//! - bad requests (illegal moves, garbage, a 100 KB query, path traversal plain and
//!   percent-encoded, unknown routes, wrong methods, bodies, slow headers) get a 4xx (with
//!   `{"error": ...}` wherever the request reached the router), random queries never a
//!   5xx, and the server keeps answering;
//! - idle and slow clients are cut off, and connections past the limit wait for a slot.
//!
//! Run with `cargo test -p kifudex --release --test integration web_api::`.

use std::collections::{BTreeSet, HashMap};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use kifudex::explore::{keep, Explorer};
use kifudex::input::collect_sources;
use kifudex::sgf::{parse_file, Event, GameRecord};
use kifudex::web::{Limits, RunningServer};
use kifudex_core::{Color, Move, Point, Size, Stone};
use serde_json::Value;

fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(rel)
}

const FOLDERS: [&str; 3] = ["bgo_testsgf", "aeb_alphago", "gnugo_regression"];

fn kifudex(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(args)
        .output()
        .expect("run kifudex")
}

/// The index of the test folders (built once per test binary) and the records it was
/// built from.
struct Fixture {
    index: PathBuf,
    records: Vec<GameRecord>,
    _dir: tempfile::TempDir,
}

fn fixture() -> &'static Fixture {
    static F: std::sync::OnceLock<Fixture> = std::sync::OnceLock::new();
    F.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let index = dir.path().join("web.kdx");
        let mut args: Vec<String> = vec!["build".into()];
        args.extend(FOLDERS.iter().map(|f| corpus(f).display().to_string()));
        args.extend(["-o".into(), index.display().to_string(), "--quiet".into()]);
        let out = Command::new(env!("CARGO_BIN_EXE_kifudex"))
            .args(&args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let paths: Vec<PathBuf> = FOLDERS.iter().map(|f| corpus(f)).collect();
        let (sources, _) = collect_sources(&paths);
        let mut records = Vec::new();
        for s in &sources {
            records.extend(parse_file(&s.bytes, &s.path, s.member.as_deref()).games);
        }
        Fixture {
            index,
            records,
            _dir: dir,
        }
    })
}

fn server() -> RunningServer {
    server_with(Limits::default())
}

fn server_with(limits: Limits) -> RunningServer {
    let f = fixture();
    let bytes = std::fs::read(&f.index).unwrap();
    let explorer = Explorer::open(keep(bytes), "web.kdx").unwrap();
    RunningServer::start("127.0.0.1:0".parse().unwrap(), Arc::new(explorer), limits).unwrap()
}

// ---- a plain HTTP/1.1 client (raw bytes: no normalisation of what is sent) ---------------

struct Reply {
    status: u16,
    head: String,
    body: Vec<u8>,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {} {}",
                self.head,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
        })
    }
}

fn raw(addr: SocketAddr, request: &[u8]) -> Reply {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(request).unwrap();
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    let split = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no answer: {:?}", String::from_utf8_lossy(&buf)));
    let head = String::from_utf8_lossy(&buf[..split]).into_owned();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Reply {
        status,
        head,
        body: buf[split + 4..].to_vec(),
    }
}

fn get(addr: SocketAddr, target: &str) -> Reply {
    raw(
        addr,
        format!("GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

fn get_json(addr: SocketAddr, target: &str) -> Value {
    let r = get(addr, target);
    assert_eq!(
        r.status,
        200,
        "{target}: {}",
        String::from_utf8_lossy(&r.body)
    );
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/json")
    );
    r.json()
}

fn cli_json(args: &[&str]) -> Value {
    let index = fixture().index.display().to_string();
    let mut a = vec![args[0], "--index", &index];
    a.extend(&args[1..]);
    let out = kifudex(&a);
    assert!(
        out.status.success(),
        "kifudex {a:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

// ---- a deliberately simple Go board --------------------------------------------------------

#[derive(Clone, PartialEq, Eq)]
struct Grid {
    w: usize,
    h: usize,
    cells: Vec<u8>, // 0 empty, 1 black, 2 white
}

impl Grid {
    fn new(size: Size) -> Grid {
        let (w, h) = (size.width() as usize, size.height() as usize);
        Grid {
            w,
            h,
            cells: vec![0; w * h],
        }
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (x, y) = (i % self.w, i / self.w);
        let mut v = Vec::new();
        if x > 0 {
            v.push(i - 1);
        }
        if x + 1 < self.w {
            v.push(i + 1);
        }
        if y > 0 {
            v.push(i - self.w);
        }
        if y + 1 < self.h {
            v.push(i + self.w);
        }
        v
    }

    /// The group at `i` if it has no liberty.
    fn dead_group(&self, i: usize) -> Option<Vec<usize>> {
        let c = self.cells[i];
        let mut seen = vec![false; self.cells.len()];
        let mut stack = vec![i];
        let mut group = Vec::new();
        seen[i] = true;
        while let Some(j) = stack.pop() {
            group.push(j);
            for n in self.neighbours(j) {
                if self.cells[n] == 0 {
                    return None;
                }
                if self.cells[n] == c && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        Some(group)
    }

    /// Plays a stone (`None` if the point is taken): the opponent's groups without a
    /// liberty go, then the mover's own (a suicide, as records are replayed).
    fn play(&mut self, color: u8, x: usize, y: usize) -> Option<Vec<usize>> {
        let i = y * self.w + x;
        if x >= self.w || y >= self.h || self.cells[i] != 0 {
            return None;
        }
        self.cells[i] = color;
        let mut captured = Vec::new();
        for n in self.neighbours(i) {
            if self.cells[n] == 3 - color {
                if let Some(g) = self.dead_group(n) {
                    for &j in &g {
                        self.cells[j] = 0;
                    }
                    captured.extend(g);
                }
            }
        }
        if let Some(g) = self.dead_group(i) {
            for &j in &g {
                self.cells[j] = 0;
            }
            captured.extend(g);
        }
        captured.sort();
        Some(captured)
    }

    /// The smallest of the 8 symmetric images' stone lists (square boards).
    fn canonical(&self, swap: bool) -> Vec<(u16, u8)> {
        let n = self.w;
        (0..8)
            .map(|t| {
                let mut v: Vec<(u16, u8)> = (0..self.cells.len())
                    .filter(|&i| self.cells[i] != 0)
                    .map(|i| {
                        let (x, y) = (i % n, i / n);
                        let (a, b) = if t & 4 != 0 { (y, x) } else { (x, y) };
                        let a = if t & 1 != 0 { n - 1 - a } else { a };
                        let b = if t & 2 != 0 { n - 1 - b } else { b };
                        let c = self.cells[i];
                        ((b * n + a) as u16, if swap { 3 - c } else { c })
                    })
                    .collect();
                v.sort();
                v
            })
            .min()
            .unwrap()
    }
}

fn sgf_point(i: usize, w: usize) -> String {
    let (x, y) = (i % w, i / w);
    format!("{}{}", (b'a' + x as u8) as char, (b'a' + y as u8) as char)
}

fn color_code(c: Color) -> u8 {
    match c {
        Color::Black => 1,
        Color::White => 2,
    }
}

/// Canonical positions and the first move number that follows each.
type Occurrences = HashMap<Vec<(u16, u8)>, usize>;

/// A record's main line as the builder keeps it: replayed until a move that cannot be
/// played. Each position that a move follows, canonical, with the first move number.
fn occurrences(r: &GameRecord) -> Occurrences {
    let mut out = HashMap::new();
    if r.size != Size::STANDARD {
        return out;
    }
    let mut g = Grid::new(r.size);
    let mut n = 0;
    for ev in &r.events {
        match *ev {
            Event::Setup { point, stone } => {
                g.cells[point.y as usize * 19 + point.x as usize] = match stone {
                    Stone::Empty => 0,
                    Stone::Black => 1,
                    Stone::White => 2,
                };
            }
            Event::Play { color, mv } => {
                let before = g.canonical(false);
                match mv {
                    Move::Pass => {}
                    Move::Play(p) => {
                        if g.play(color_code(color), p.x as usize, p.y as usize)
                            .is_none()
                        {
                            break;
                        }
                    }
                }
                out.entry(before).or_insert(n);
                n += 1;
            }
        }
    }
    out
}

/// What the builder counts as one game: its size, setup and main line.
fn game_key(r: &GameRecord) -> String {
    format!("{:?}{:?}", r.size, r.events)
}

/// Query positions from real games: the first moves of records without setup.
fn queries() -> Vec<Vec<(u8, usize, usize)>> {
    let f = fixture();
    let mut out = vec![Vec::new()];
    let plain: Vec<&GameRecord> = f
        .records
        .iter()
        .filter(|r| {
            r.size == Size::STANDARD
                && r.events.iter().all(|e| matches!(e, Event::Play { .. }))
                && r.events.len() > 80
        })
        .collect();
    for (k, r) in plain.iter().step_by(plain.len() / 12 + 1).enumerate() {
        let len = [1, 2, 3, 4, 6, 9, 14, 20, 31, 45, 60, 75][k % 12];
        let mut moves = Vec::new();
        let mut color = 1u8;
        for ev in r.events.iter().take(len) {
            if let Event::Play {
                color: c,
                mv: Move::Play(p),
            } = *ev
            {
                if color_code(c) != color {
                    break;
                }
                moves.push((color, p.x as usize, p.y as usize));
                color = 3 - color;
            } else {
                break;
            }
        }
        out.push(moves);
    }
    out
}

fn moves_param(q: &[(u8, usize, usize)]) -> String {
    q.iter()
        .map(|&(_, x, y)| sgf_point(y * 19 + x, 19))
        .collect::<Vec<_>>()
        .join(",")
}

// ---- the tests -----------------------------------------------------------------------------

/// `/api/search` and `/api/games` equal `kifudex search --json` and `kifudex games --json`
/// for the same query: plain, colour-exchanged, filtered, set up, sorted and paged.
#[test]
fn api_answers_equal_the_command_line() {
    let srv = server();
    let addr = srv.addr();
    let mut compared = 0;
    for q in queries() {
        let moves = moves_param(&q);
        let variants: [(&str, Vec<&str>); 5] = [
            ("", vec![]),
            ("&swap=1", vec!["--swap"]),
            (
                "&year_from=2012&year_to=2016",
                vec!["--year-from", "2012", "--year-to", "2016"],
            ),
            (
                "&winner=W&handicap=0",
                vec!["--winner", "W", "--handicap", "0"],
            ),
            ("&player=a", vec!["--player", "a"]),
        ];
        for (params, flags) in &variants {
            let api = get_json(addr, &format!("/api/search?moves={moves}{params}"));
            let mut args = vec!["search", "--moves", &moves, "--json"];
            args.extend(flags);
            assert_eq!(api, cli_json(&args), "search {moves}{params}");
            compared += 1;
        }
        for (params, flags) in [
            ("", vec![]),
            (
                "&limit=7&offset=3&sort=-date",
                vec!["--limit", "7", "--offset", "3", "--sort=-date"],
            ),
            (
                "&swap=1&sort=black&limit=5",
                vec!["--swap", "--sort", "black", "--limit", "5"],
            ),
            (
                "&sort=move&year_from=2000",
                vec!["--sort", "move", "--year-from", "2000"],
            ),
        ] {
            let api = get_json(addr, &format!("/api/games?moves={moves}{params}"));
            let mut args = vec!["games", "--moves", &moves, "--json"];
            args.extend(&flags);
            assert_eq!(api, cli_json(&args), "games {moves}{params}");
            compared += 1;
        }
    }
    // A set-up position (handicap stones, White to move) and a 9x9 one.
    for (params, flags) in [
        (
            "ab=dd,pp,dp,pd&to_move=W&moves=qf,nc",
            vec!["--ab", "dd,pp,dp,pd", "--to-move", "W", "--moves", "qf,nc"],
        ),
        (
            "size=9&moves=ee,cc",
            vec!["--size", "9", "--moves", "ee,cc"],
        ),
        ("ab=dd&aw=pp", vec!["--ab", "dd", "--aw", "pp"]),
    ] {
        let api = get_json(addr, &format!("/api/search?{params}"));
        let mut args = vec!["search", "--json"];
        args.extend(&flags);
        assert_eq!(api, cli_json(&args), "search {params}");
        let api = get_json(addr, &format!("/api/games?{params}"));
        let mut args = vec!["games", "--json"];
        args.extend(&flags);
        assert_eq!(api, cli_json(&args), "games {params}");
        compared += 2;
    }
    // Stored games, as JSON and as SGF.
    let count = get_json(addr, "/api/info")["games"].as_u64().unwrap();
    for id in (0..count).step_by((count / 15) as usize) {
        let api = get_json(addr, &format!("/api/game/{id}"));
        assert_eq!(api, cli_json(&["game", &id.to_string()]), "game {id}");
        let r = get(addr, &format!("/api/game/{id}.sgf"));
        assert_eq!(r.status, 200);
        assert!(r
            .header("content-type")
            .unwrap()
            .starts_with("application/x-go-sgf"));
        let index = fixture().index.display().to_string();
        let out = kifudex(&["game", "--index", &index, &id.to_string(), "--sgf"]);
        assert_eq!(
            String::from_utf8_lossy(&r.body).trim_end(),
            String::from_utf8_lossy(&out.stdout).trim_end(),
            "game {id}.sgf"
        );
        compared += 2;
    }
    assert!(compared > 100, "{compared}");
}

/// The games listed for a position are exactly the games whose main line reaches it in
/// some orientation (and colour exchange with `swap`), each at the first move where it
/// does, found by the simple replay of the records. (Records with the same setup and main
/// line may be stored once: then one of them is listed.)
#[test]
fn listed_games_are_the_games_that_reach_the_position() {
    let f = fixture();
    let srv = server();
    let addr = srv.addr();
    let games: Vec<(&GameRecord, String, Occurrences)> = f
        .records
        .iter()
        .map(|r| (r, game_key(r), occurrences(r)))
        .collect();
    let mut checked = 0;
    for q in queries() {
        let mut g = Grid::new(Size::STANDARD);
        for &(c, x, y) in &q {
            g.play(c, x, y).unwrap();
        }
        let moves = moves_param(&q);
        for swap in [false, true] {
            // (file, member, tree) -> (first move number, the game's setup and main line)
            let mut expected: HashMap<(String, String, usize), (usize, &str)> = HashMap::new();
            let keys = [g.canonical(false), g.canonical(true)];
            for (r, key, occ) in &games {
                let first = keys
                    .iter()
                    .take(if swap { 2 } else { 1 })
                    .filter_map(|k| occ.get(k))
                    .min();
                if let Some(&n) = first {
                    let member = r.source.member.clone().unwrap_or_default();
                    expected.insert(
                        (r.source.path.clone(), member, r.source.tree_index),
                        (n + 1, key.as_str()),
                    );
                }
            }
            let distinct: BTreeSet<&str> = expected.values().map(|v| v.1).collect();
            let list = get_json(
                addr,
                &format!("/api/games?moves={moves}&limit=1000&swap={}", swap as u8),
            );
            let matching = list["matching"].as_u64().unwrap() as usize;
            assert!(
                matching == expected.len() || matching == distinct.len(),
                "{moves} swap {swap}: {matching} listed, {} games reach it ({} distinct)",
                expected.len(),
                distinct.len()
            );
            let mut listed = BTreeSet::new();
            for e in list["games"].as_array().unwrap() {
                let key = (
                    e["file"].as_str().unwrap().to_owned(),
                    e["member"].as_str().unwrap().to_owned(),
                    e["tree"].as_u64().unwrap() as usize,
                );
                let want = expected.get(&key);
                assert_eq!(
                    want.map(|w| w.0),
                    Some(e["move_number"].as_u64().unwrap() as usize),
                    "{moves} swap {swap}: {key:?}"
                );
                listed.insert(want.unwrap().1);
            }
            if matching <= 1000 {
                assert_eq!(listed, distinct, "{moves} swap {swap}");
            }
            checked += matching;
        }
    }
    assert!(checked > 200, "{checked}");
}

/// `/api/position`: the stones after the moves and each move's captures equal the simple
/// replay's; an illegal move names its number, the move and the reason.
#[test]
fn positions_are_the_rules_of_the_simple_replay() {
    let srv = server();
    let addr = srv.addr();
    let f = fixture();
    // Whole games with captures, from the records.
    let mut checked = 0;
    for r in f
        .records
        .iter()
        .filter(|r| {
            r.size == Size::STANDARD && r.events.iter().all(|e| matches!(e, Event::Play { .. }))
        })
        .step_by(23)
        .take(25)
    {
        let mut g = Grid::new(r.size);
        let mut moves = Vec::new();
        let mut caps = Vec::new();
        let mut color = 1u8;
        for ev in &r.events {
            let Event::Play {
                color: c,
                mv: Move::Play(p),
            } = *ev
            else {
                break;
            };
            if color_code(c) != color {
                break;
            }
            let Some(captured) = g.play(color, p.x as usize, p.y as usize) else {
                break;
            };
            moves.push(sgf_point(p.y as usize * 19 + p.x as usize, 19));
            caps.push(
                captured
                    .iter()
                    .map(|&i| sgf_point(i, 19))
                    .collect::<BTreeSet<_>>(),
            );
            color = 3 - color;
        }
        let v = get_json(addr, &format!("/api/position?moves={}", moves.join(",")));
        let api_moves = v["moves"].as_array().unwrap();
        assert_eq!(api_moves.len(), moves.len());
        for (i, m) in api_moves.iter().enumerate() {
            let got: BTreeSet<String> = m["captures"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_owned())
                .collect();
            assert_eq!(got, caps[i], "{}: move {}", r.source.path, i + 1);
        }
        for (key, code) in [("black", 1u8), ("white", 2u8)] {
            let got: BTreeSet<String> = v[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_owned())
                .collect();
            let want: BTreeSet<String> = (0..361)
                .filter(|&i| g.cells[i] == code)
                .map(|i| sgf_point(i, 19))
                .collect();
            assert_eq!(got, want, "{}", r.source.path);
        }
        assert_eq!(v["to_move"], if color == 1 { "B" } else { "W" });
        checked += moves.len();
    }
    assert!(checked > 1000, "{checked}");
    // Refusals: occupied, suicide, ko, off the board; set-up positions.
    for (q, n, reason) in [
        ("moves=pd,dp,pd", 3, "occupied"),
        ("ab=ba,ab&to_move=W&moves=aa", 1, "suicide"),
        // White takes at cb; Black may not retake at once.
        ("ab=ba,ab,bc&aw=ca,db,cc&moves=cb,bb,cb", 3, "ko"),
        ("moves=pd,zz", 2, "off-board"),
    ] {
        let r = get(addr, &format!("/api/position?{q}"));
        assert_eq!(r.status, 400, "{q}");
        let e = r.json();
        assert_eq!(e["move_number"], n, "{q}: {e}");
        assert_eq!(e["reason"], reason, "{q}: {e}");
        assert!(
            e["error"].as_str().unwrap().contains(&format!("move {n}")),
            "{e}"
        );
    }
    let v = get_json(addr, "/api/position?ab=ba,ab,bc&aw=ca,db,cc&moves=cb,bb");
    assert_eq!(v["moves"][1]["captures"], serde_json::json!(["cb"]));
    assert_eq!(v["ko"], "cb");
    assert_eq!(v["to_move"], "B");
    assert_eq!(v["captured"]["W"], 1);
    let v = get_json(addr, "/api/position?ab=dd,pp&to_move=W");
    assert_eq!(v["to_move"], "W");
    assert_eq!(v["black"], serde_json::json!(["dd", "pp"]));
}

/// A stored game, as JSON and as SGF read back by the project's reader, holds the moves
/// and setup of its record's main line (as far as the builder kept it).
#[test]
fn stored_games_hold_their_records() {
    let f = fixture();
    let srv = server();
    let addr = srv.addr();
    let by_source: HashMap<(String, String, usize), &GameRecord> = f
        .records
        .iter()
        .map(|r| {
            (
                (
                    r.source.path.clone(),
                    r.source.member.clone().unwrap_or_default(),
                    r.source.tree_index,
                ),
                r,
            )
        })
        .collect();
    let count = get_json(addr, "/api/info")["games"].as_u64().unwrap();
    let mut with_setup = 0;
    for id in (0..count).step_by(7) {
        let v = get_json(addr, &format!("/api/game/{id}"));
        let key = (
            v["file"].as_str().unwrap().to_owned(),
            v["member"].as_str().unwrap().to_owned(),
            v["tree"].as_u64().unwrap() as usize,
        );
        let r = by_source[&key];
        // The record's main line up to its first unplayable move, as (colour, point).
        let mut g = Grid::new(r.size);
        let mut want = Vec::new();
        for ev in &r.events {
            match *ev {
                Event::Setup { point, stone } => {
                    g.cells[point.y as usize * r.size.width() as usize + point.x as usize] =
                        stone as u8;
                }
                Event::Play { color, mv } => {
                    let text = match mv {
                        Move::Pass => "pass".to_owned(),
                        Move::Play(p) => {
                            if g.play(color_code(color), p.x as usize, p.y as usize)
                                .is_none()
                            {
                                break;
                            }
                            sgf_point(
                                p.y as usize * r.size.width() as usize + p.x as usize,
                                r.size.width() as usize,
                            )
                        }
                    };
                    want.push((if color == Color::Black { "B" } else { "W" }, text));
                }
            }
        }
        let got: Vec<(&str, String)> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["color"].as_str().unwrap(),
                    m["move"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        assert_eq!(got, want, "game {id} = {key:?}");
        let setup_b = v["setup"]["B"].as_array().unwrap().len();
        if setup_b > 0 {
            with_setup += 1;
        }
        // Player names as the record gives them.
        assert_eq!(v["info"]["PB"].as_str(), r.info.black.as_deref(), "{key:?}");
        assert_eq!(
            v["info"]["RE"].as_str(),
            r.info.result.as_ref().map(|x| x.raw.as_str())
        );
        // The SGF, read back: the same events as the stored game, the same information.
        let text = get(addr, &format!("/api/game/{id}.sgf")).body;
        let back = parse_file(&text, "back.sgf", None);
        assert_eq!(back.games.len(), 1, "{}", String::from_utf8_lossy(&text));
        let b = &back.games[0];
        assert_eq!(b.size, r.size);
        assert_eq!(b.info.black, r.info.black);
        assert_eq!(b.info.white, r.info.white);
        assert_eq!(b.info.date, r.info.date);
        assert_eq!(b.info.komi, r.info.komi);
        assert_eq!(b.info.result, r.info.result);
        let stored_moves: Vec<Event> = b
            .events
            .iter()
            .filter(|e| matches!(e, Event::Play { .. }))
            .copied()
            .collect();
        assert_eq!(stored_moves.len(), want.len(), "game {id}");
        let setup = |events: &[Event]| -> Vec<(Point, Stone)> {
            events
                .iter()
                .take_while(|e| matches!(e, Event::Setup { .. }))
                .filter_map(|e| match *e {
                    Event::Setup { point, stone } => Some((point, stone)),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(setup(&b.events), setup(&r.events), "game {id}");
    }
    assert!(
        with_setup > 0,
        "no stored game with setup stones was checked"
    );
}

/// What a bad request gets: a 4xx with `{"error": ...}`; and the server goes on.
#[test]
fn bad_requests_get_4xx_and_the_server_goes_on() {
    let srv = server();
    let addr = srv.addr();
    let long = "pd,".repeat(100 * 1024 / 3);
    let cases: Vec<(String, u16)> = vec![
        ("/api/search?moves=pd,pd".into(), 400),
        ("/api/search?moves=pd,zz".into(), 400),
        ("/api/search?moves=garbage".into(), 400),
        ("/api/search?moves=%ff%fe%00".into(), 400),
        ("/api/search?moves=pd,,dp".into(), 400),
        ("/api/search?mvoes=pd".into(), 400),
        ("/api/search?moves=pd&moves=dp".into(), 400),
        ("/api/search?moves=pd&swap=maybe".into(), 400),
        ("/api/search?size=0".into(), 400),
        ("/api/search?ab=pass".into(), 400),
        ("/api/search?ab=dd&aw=dd".into(), 400),
        ("/api/search?to_move=X".into(), 400),
        ("/api/games?limit=100000".into(), 400),
        ("/api/games?offset=-3".into(), 400),
        ("/api/games?sort=rating".into(), 400),
        ("/api/years?top=0".into(), 400),
        (format!("/api/search?moves={long}"), 414),
        ("/api/game/abc".into(), 400),
        ("/api/game/-1".into(), 400),
        ("/api/game/99999999".into(), 404),
        ("/api/game/4294967295.sgf".into(), 404),
        ("/api/game/1.sgf?x=1".into(), 400),
        ("/api/sgf?sgf=not%20a%20record".into(), 400),
        ("/api/sgf".into(), 400),
        ("/api/info?x=1".into(), 400),
        ("/api/nothing".into(), 404),
        ("/api".into(), 404),
        ("/nothing.html".into(), 404),
        ("/../../../../etc/passwd".into(), 404),
        ("/%2e%2e/%2e%2e/%2e%2e/etc/passwd".into(), 404),
        ("/..%2f..%2f..%2fCargo.toml".into(), 404),
        ("/%2e%2e%2fCargo.toml".into(), 404),
        ("/api/game/..%2f..%2fetc%2fpasswd".into(), 400),
        ("/api/game/../../Cargo.toml".into(), 404),
        ("/assets/../Cargo.toml".into(), 404),
        ("/app.js/../../Cargo.toml".into(), 404),
        ("//etc/passwd".into(), 404),
        ("/index.html%00.js".into(), 404),
        ("/.git/config".into(), 404),
    ];
    for (target, status) in &cases {
        let r = get(addr, target);
        assert_eq!(r.status, *status, "{target:.80}: {}", r.head);
        let e = r.json();
        assert!(e["error"].is_string(), "{target:.80}: {e}");
    }
    for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "BREW"] {
        for target in ["/api/search?moves=pd", "/", "/api/game/1", "/nothing"] {
            let r = raw(
                addr,
                format!("{method} {target} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .as_bytes(),
            );
            assert_eq!(r.status, 405, "{method} {target}");
            assert_eq!(r.header("allow").as_deref(), Some("GET, HEAD"));
            assert!(r.json()["error"].is_string());
        }
    }
    // A body on a GET; HEAD answers without one.
    let r = raw(
        addr,
        b"GET /api/search?moves=pd HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
    );
    assert_eq!(r.status, 413);
    assert!(r.json()["error"].is_string());
    let r = raw(
        addr,
        b"HEAD /api/search?moves=pd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(r.status, 200);
    assert!(r.body.is_empty());
    // Not HTTP at all, and headers past the buffer: refused by the HTTP layer itself.
    for junk in [
        b"\x00\x01\x02 garbage\r\n\r\n".to_vec(),
        b"GET /\r\n\r\n".to_vec(),
        format!("GET / HTTP/1.1\r\nX-Big: {}\r\n\r\n", "a".repeat(300_000)).into_bytes(),
    ] {
        let r = raw(addr, &junk);
        assert!((400..500).contains(&r.status), "{}", r.head);
    }
    // The page and the API still answer.
    assert_eq!(get(addr, "/").status, 200);
    let v = get_json(addr, "/api/search?moves=pd,dp,pp");
    assert!(v["total"].as_u64().unwrap() > 0);
}

/// Random queries on every route never get a 5xx; every refusal is JSON.
#[test]
fn random_queries_never_get_a_5xx() {
    let srv = server();
    let addr = srv.addr();
    let routes = [
        "/api/search",
        "/api/games",
        "/api/years",
        "/api/position",
        "/api/sgf",
        "/api/info",
        "/api/game/",
        "/",
    ];
    let names = [
        "moves",
        "ab",
        "aw",
        "to_move",
        "size",
        "swap",
        "year_from",
        "year_to",
        "player",
        "winner",
        "handicap",
        "limit",
        "offset",
        "sort",
        "top",
        "sgf",
        "x",
    ];
    let values = [
        "pd",
        "pd,dp",
        "pass",
        "tt",
        "zz",
        "",
        "0",
        "1",
        "19",
        "20",
        "-1",
        "B",
        "W",
        "b",
        "99999999999999999999",
        "%00",
        "%ff",
        "a%2Cb",
        "(;B[pd])",
        "(;SZ[9];B[ee];W[ff])",
        "date",
        "-move",
        "Q16,D4",
        "pd,pd",
        "%E6%9F%AF",
        "+",
        "1e9",
        "aa,bb,cc,dd,ee,ff",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    // Keep-alive: many requests on few connections.
    for _ in 0..6 {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let mut reader = std::io::BufReader::new(s.try_clone().unwrap());
        for _ in 0..150 {
            let route = routes[next(routes.len())];
            let mut target = route.to_owned();
            if route.ends_with('/') && route.len() > 1 {
                target.push_str(values[next(values.len())]);
            }
            target.push('?');
            for k in 0..next(4) {
                if k > 0 {
                    target.push('&');
                }
                target.push_str(names[next(names.len())]);
                target.push('=');
                target.push_str(values[next(values.len())]);
            }
            let target = target.replace(['(', ')', '[', ']', ';', ' '], "_");
            // One write per request (several small ones would wait for delayed ACKs).
            s.write_all(format!("GET {target} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
                .unwrap();
            let (status, body) = read_reply(&mut reader);
            assert!(status < 500, "{target}: {status}");
            if status >= 400 {
                let v: Value = serde_json::from_slice(&body).unwrap();
                assert!(v["error"].is_string(), "{target}");
            }
        }
    }
}

/// One keep-alive reply: status and body (by Content-Length).
fn read_reply(r: &mut impl std::io::BufRead) -> (u16, Vec<u8>) {
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    let status: u16 = line.split(' ').nth(1).unwrap().parse().unwrap();
    let mut len = 0usize;
    loop {
        let mut h = String::new();
        r.read_line(&mut h).unwrap();
        if h == "\r\n" || h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                len = v.trim().parse().unwrap();
            }
        }
    }
    let mut body = vec![0; len];
    r.read_exact(&mut body).unwrap();
    (status, body)
}

/// A client that sends its headers too slowly is cut off; others are served meanwhile.
#[test]
fn slow_headers_are_cut_off() {
    let srv = server_with(Limits {
        header_timeout: Duration::from_millis(500),
        ..Limits::default()
    });
    let addr = srv.addr();
    let mut slow = TcpStream::connect(addr).unwrap();
    slow.write_all(b"GET /api/info HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    assert_eq!(get(addr, "/api/info").status, 200);
    slow.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let t = std::time::Instant::now();
    let mut buf = Vec::new();
    let _ = slow.read_to_end(&mut buf);
    assert!(t.elapsed() < Duration::from_secs(9), "not cut off");
    let text = String::from_utf8_lossy(&buf);
    assert!(
        text.is_empty() || text.starts_with("HTTP/1.1 408"),
        "{text}"
    );
}

/// Idle and trickling clients are closed once the header timeout has passed: one that
/// connects and sends nothing, one that sends a byte every 100 ms and never ends its
/// headers, and one idle on a kept-alive connection after its answer. (The server keeps
/// none of them past the timeout, so a crowd of them holds no connection slot for long.)
#[test]
fn idle_and_trickling_clients_are_closed() {
    let timeout = Duration::from_millis(600);
    let srv = server_with(Limits {
        header_timeout: timeout,
        ..Limits::default()
    });
    let addr = srv.addr();
    let closed_within = |mut c: TcpStream, what: &str| {
        c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let t = std::time::Instant::now();
        let mut buf = Vec::new();
        let _ = c.read_to_end(&mut buf);
        let took = t.elapsed();
        assert!(took < Duration::from_secs(5), "{what}: open after {took:?}");
        took
    };
    // Silent.
    let silent = TcpStream::connect(addr).unwrap();
    closed_within(silent, "silent");
    // A byte every 100 ms, from another thread, until the server closes.
    let trickle = TcpStream::connect(addr).unwrap();
    let mut writer = trickle.try_clone().unwrap();
    let feeder = std::thread::spawn(move || {
        let line = b"GET /api/info HTTP/1.1\r\nHost: x\r\nX-Slow: ";
        let filler = std::iter::repeat(b'a');
        for b in line.iter().copied().chain(filler).take(200) {
            if writer.write_all(&[b]).is_err() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        false
    });
    closed_within(trickle, "trickle");
    assert!(
        feeder.join().unwrap(),
        "the trickling client was never cut off"
    );
    // Kept alive after one answer, then idle.
    let mut kept = TcpStream::connect(addr).unwrap();
    kept.write_all(b"GET /api/info HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    kept.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut first = [0u8; 12];
    kept.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    closed_within(kept, "idle after an answer");
    // The server still answers.
    assert_eq!(get(addr, "/api/info").status, 200);
}

/// Header lines of exactly `max_headers` bytes are answered; one byte more gets 431 with
/// `{"error": ...}`, whether it comes in one write or in pieces, and however far past the
/// limit (the HTTP layer alone let a head that came in one read pass its buffer's size).
#[test]
fn header_lines_just_under_and_just_over_the_limit() {
    let srv = server();
    let addr = srv.addr();
    let max = Limits::default().max_headers;
    let head = |pad: usize| {
        // "Host: x\r\n" 9, "Connection: close\r\n" 19, "X-Pad: " 7, "\r\n" 2, "\r\n" 2.
        format!(
            "GET /api/info HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Pad: {}\r\n\r\n",
            "a".repeat(pad)
        )
        .into_bytes()
    };
    let under = head(max - 39);
    let r = raw(addr, &under);
    assert_eq!(r.status, 200, "{}", r.head);
    let over = head(max - 38);
    let r = raw(addr, &over);
    assert_eq!(r.status, 431, "{}", r.head);
    assert!(r.json()["error"]
        .as_str()
        .unwrap()
        .contains(&max.to_string()));
    // In pieces.
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    for piece in over.chunks(1000) {
        if s.write_all(piece).is_err() {
            break;
        }
    }
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    assert!(
        buf.starts_with(b"HTTP/1.1 431"),
        "{}",
        String::from_utf8_lossy(&buf)
    );
    // Far past it, many times (in one write each: the case the HTTP layer let through).
    for _ in 0..20 {
        let r = raw(addr, &head(200_000));
        assert_eq!(r.status, 431, "{}", r.head);
    }
    assert_eq!(get(addr, "/api/info").status, 200);
}

/// At most `max_connections` connections are served at once: one more waits (in the listen
/// queue, unanswered) until one of them closes, and is then answered.
#[test]
fn connections_past_the_limit_wait_for_a_slot() {
    let srv = server_with(Limits {
        max_connections: 2,
        header_timeout: Duration::from_secs(5),
        ..Limits::default()
    });
    let addr = srv.addr();
    let request = b"GET /api/info HTTP/1.1\r\nHost: x\r\n\r\n";
    // Two kept-alive connections, answered once, then idle: both slots held.
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut c = TcpStream::connect(addr).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        c.write_all(request).unwrap();
        let mut first = [0u8; 12];
        c.read_exact(&mut first).unwrap();
        assert_eq!(&first, b"HTTP/1.1 200");
        held.push(c);
    }
    // A third: connected (the listen queue), its request sent, no answer while they stay.
    let mut third = TcpStream::connect(addr).unwrap();
    third.write_all(request).unwrap();
    third
        .set_read_timeout(Some(Duration::from_millis(700)))
        .unwrap();
    let mut first = [0u8; 12];
    let waited = third.read(&mut first);
    assert!(
        matches!(&waited, Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut)),
        "answered past the limit: {waited:?}"
    );
    // One closes: the third gets its slot and its answer (well before the others' 5 s
    // header timeout would have freed one).
    drop(held.remove(0));
    let t = std::time::Instant::now();
    third
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    third.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
}

/// The page and its files, with the safety headers; a pasted SGF opens.
#[test]
fn the_page_its_files_and_pasted_records() {
    let srv = server();
    let addr = srv.addr();
    for (path, kind) in [
        ("/", "text/html"),
        ("/?moves=pd,dp,pp", "text/html"),
        ("/app.js", "text/javascript"),
        ("/board.js", "text/javascript"),
        ("/style.css", "text/css"),
        ("/favicon.svg", "image/svg+xml"),
    ] {
        let r = get(addr, path);
        assert_eq!(r.status, 200, "{path}");
        assert!(
            r.header("content-type").unwrap().starts_with(kind),
            "{path}"
        );
        let csp = r.header("content-security-policy").unwrap();
        assert!(csp.contains("default-src 'self'"), "{csp}");
        assert_eq!(
            r.header("x-content-type-options").as_deref(),
            Some("nosniff")
        );
        // Nothing is loaded from another host.
        let body = String::from_utf8_lossy(&r.body);
        assert!(!body.contains("http://") || path.ends_with(".js") || path.ends_with(".svg"));
        assert!(!body.contains("https://"), "{path}");
    }
    let etag = get(addr, "/app.js").header("etag").unwrap();
    let r = raw(
        addr,
        format!(
            "GET /app.js HTTP/1.1\r\nHost: x\r\nIf-None-Match: {etag}\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    );
    assert_eq!(r.status, 304);
    // A pasted record: its main line with captures, as for a stored game.
    let sgf = "(;GM[1]SZ[19]PB[Black]PW[White]KM[6.5]AB[dd][pp];W[pd];B[dp];W[qq])";
    let enc: String = sgf.bytes().map(|b| format!("%{b:02X}")).collect();
    let v = get_json(addr, &format!("/api/sgf?sgf={enc}"));
    assert_eq!(v["info"]["PB"], "Black");
    assert_eq!(v["info"]["KM"], "6.5");
    assert_eq!(v["setup"]["B"], serde_json::json!(["dd", "pp"]));
    assert_eq!(v["moves"].as_array().unwrap().len(), 3);
    assert_eq!(v["moves"][0]["color"], "W");
    assert!(v["id"].is_null());
}

/// `/api/pattern` and `/api/pattern/games` equal `kifudex pattern --json` and `kifudex
/// games --pattern --json` for the same query (corner, side and anywhere patterns,
/// wildcards, fixed colours, filters, the date profile, pages); a bad pattern is a 400 that
/// names it.
#[test]
fn pattern_answers_equal_the_command_line() {
    let srv = server();
    let addr = srv.addr();
    let enc = |s: &str| s.replace('/', "%2F");
    let mut compared = 0;
    let mut hits = 0;
    for (rows, area) in [
        (
            ".......|.......|...X...|..X....|..O....|.......|.......",
            Some("0,0,0,0"),
        ),
        ("....|....|..X*|..*O", Some("0,0,0,0")),
        (".....|.....|X.O.X|.....|.....", Some("0,0,14,0")),
        ("XX.|X..|...", None),
        ("xo*|.X.|*O.", None),
        ("X", None),
        ("...|.X.|...", Some("2,2,2,2")),
    ] {
        let rows = rows.replace('|', "/");
        let mut base = format!("pattern={}", enc(&rows));
        let mut args = vec!["--pattern".to_owned(), rows.clone()];
        if let Some(a) = area {
            base += &format!("&area={a}");
            args.extend(["--area".to_owned(), a.to_owned()]);
        }
        for (params, flags) in [
            ("", vec![]),
            ("&fixed_color=1", vec!["--fixed-color"]),
            ("&by_year=1", vec!["--by-year"]),
            (
                "&year_from=2000&winner=B",
                vec!["--year-from", "2000", "--winner", "B"],
            ),
        ] {
            let api = get_json(addr, &format!("/api/pattern?{base}{params}"));
            let mut a: Vec<&str> = vec!["pattern"];
            a.extend(args.iter().map(|s| s.as_str()));
            a.extend(&flags);
            a.push("--json");
            assert_eq!(api, cli_json(&a), "pattern {base}{params}");
            hits += api["hits"].as_u64().unwrap();
            compared += 1;
        }
        for (params, flags) in [
            ("", vec![]),
            ("&limit=3&offset=2", vec!["--limit", "3", "--offset", "2"]),
        ] {
            let api = get_json(addr, &format!("/api/pattern/games?{base}{params}"));
            let mut a: Vec<&str> = vec!["games"];
            a.extend(args.iter().map(|s| s.as_str()));
            a.extend(&flags);
            a.push("--json");
            assert_eq!(api, cli_json(&a), "games {base}{params}");
            compared += 1;
        }
    }
    assert!(compared >= 40 && hits > 1000, "{compared} {hits}");
    for (target, word) in [
        ("/api/pattern", "pattern"),
        ("/api/pattern?pattern=XQ", "pattern"),
        ("/api/pattern?pattern=XX%2FX", "pattern"),
        ("/api/pattern?pattern=X&area=1,2", "area"),
        ("/api/pattern?pattern=X&fixed_color=2", "fixed_color"),
        ("/api/pattern/games?pattern=X&limit=5000", "limit"),
    ] {
        let r = get(addr, target);
        assert_eq!(r.status, 400, "{target}");
        let e = r.json()["error"].as_str().unwrap().to_owned();
        assert!(e.contains(word), "{target}: {e}");
    }
}

/// `/api/predict` gives the guesses `kifudex hints` answers with (`guess <hash>
/// <move>:<color> ...`) from the same book, for real positions the book holds no next move
/// for; without a book it is a 404.
#[test]
fn predictions_are_the_hint_protocols_guesses() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("predictor.kdb");
    let out = kifudex(&[
        "build",
        &corpus("bgo_testsgf").display().to_string(),
        "-o",
        &book.display().to_string(),
        "--profile",
        "mcu",
        "--predictor",
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&fixture().index).unwrap();
    let explorer = Explorer::open(keep(bytes), "web.kdx")
        .unwrap()
        .with_predictor(keep(std::fs::read(&book).unwrap()), "predictor.kdb")
        .unwrap();
    let srv = RunningServer::start(
        "127.0.0.1:0".parse().unwrap(),
        Arc::new(explorer),
        Limits::default(),
    )
    .unwrap();
    // Move lists of real games the book was not built from (no setup, Black first, colours
    // alternating), cut at a few move numbers.
    let mut lists: Vec<String> = Vec::new();
    for r in fixture()
        .records
        .iter()
        .filter(|r| r.size == Size::STANDARD && !r.source.path.contains("bgo_testsgf"))
    {
        let mut moves: Vec<String> = Vec::new();
        let mut next = Color::Black;
        for ev in &r.events {
            match *ev {
                Event::Play { color, mv } if color == next => {
                    moves.push(match mv {
                        Move::Pass => "pass".into(),
                        Move::Play(p) => {
                            format!("{}{}", (b'a' + p.x) as char, (b'a' + p.y) as char)
                        }
                    });
                    next = next.opponent();
                }
                _ => break,
            }
        }
        for n in [20, 45, 90] {
            if moves.len() > n {
                lists.push(moves[..n].join(","));
            }
        }
        if lists.len() >= 120 {
            break;
        }
    }
    let mut requests: String = lists.iter().map(|m| format!("moves {m}\n")).collect();
    requests.push_str("quit\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(["hints", "--index", &book.display().to_string()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(requests.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let replies = String::from_utf8(out.stdout).unwrap();
    let mut compared = 0;
    for (moves, reply) in lists.iter().zip(replies.lines()) {
        let api = get_json(srv.addr(), &format!("/api/predict?moves={moves}"));
        let Some(rest) = reply.strip_prefix("guess ") else {
            continue;
        };
        let guesses: Vec<&str> = rest.split(' ').skip(1).collect();
        let predicted = api["predicted"].as_array().unwrap();
        assert!(!guesses.is_empty());
        let to_move = api["to_move"].as_str().unwrap();
        let want: Vec<String> = guesses.iter().map(|g| g.to_string()).collect();
        let got: Vec<String> = predicted
            .iter()
            .take(guesses.len())
            .map(|p| format!("{}:{to_move}", p["move"].as_str().unwrap()))
            .collect();
        assert_eq!(got, want, "{moves}");
        compared += 1;
    }
    assert!(
        compared > 50,
        "{compared} positions compared of {} (replies: {:?})",
        lists.len(),
        replies.lines().take(3).collect::<Vec<_>>()
    );
    // Without a book: a 404 that says so.
    let plain = server();
    let r = get(plain.addr(), "/api/predict?moves=pd");
    assert_eq!(r.status, 404);
    assert!(r.json()["error"].as_str().unwrap().contains("predictor"));
}
