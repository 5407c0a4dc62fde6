//! Replays the main line of every game of `../shared/corpus` on the core [`Board`], under
//! the standard rules (no suicide, simple ko) and under [`Rules::RECORD`] (suicide applied,
//! no ko), and checks the result against a deliberately simple second implementation
//! (a plain `[[u8; 19]; 19]` array with flood-fill captures).
//!
//! Run with `cargo test -p kifudex-tests --release --test integration corpus_replay:: -- --nocapture`
//! to see every failing main line.
//!
//! # What the failing records are (examined in the SGF text around the move)
//!
//! Every folder but three replays to the end under both rule sets: `aeb_9x9`,
//! `aeb_alphago`, `bgo_testsgf`, `fuego_regression` and `gnugo_regression` (whose GNU Go
//! regression positions are legal along their main lines). The failures are:
//!
//! - **Fox handicap games without their handicap stones** (24 of the 26 `fox_pro`
//!   failures): `HA[2]`..`HA[8]` and White's first move, but no `AB[]` at all (132 Fox
//!   files are like that; most replay anyway). Black's missing stones show up as a Black
//!   "suicide" (a stone played where a handicap stone would have given it liberties:
//!   standard rules), and under the record rules, which apply that suicide, as a move on an
//!   occupied point a few moves later (a White stone that the missing handicap stone would
//!   have let Black capture, or the point refilled). Some fail as "occupied" directly.
//! - **A Fox record with its handicap stones but a lost move** (`9p/1513793745010002646`,
//!   `AB[pd][dp]`, move 127 on an occupied point): a capture that never happened on the
//!   recorded board, i.e. moves missing from the transcription.
//! - **A Fox transcription of an old professional game with the ko threats left out**
//!   (`9p/1550647483080010073`, 1992): `W[rs] B[qs] W[rs] B[qs] ...`, the ko retaken at
//!   once; illegal only under a ko rule (fine under [`Rules::RECORD`]).
//! - **An AI-server record with a move on an occupied point** (`yenw_ai/Sweeper`, move
//!   242 `W[gd]`, a point played at move 90 and never captured): a broken export.
//! - **Deliberately illegal test files** (`tricky`): littlego's `Illegal games/illegal-move.sgf`
//!   (move 16 on the point just played), `Illegal games/suicide.sgf` (White's suicide in
//!   the corner `W[aa]`, legal under record rules that allow suicide), and gogui's
//!   `invalidmove.sgf` (`B[rs]` off a 9x9 board).

use std::collections::BTreeMap;
use std::path::PathBuf;

use kifudex::input::collect_sources;
use kifudex::sgf::{GameRecord, LineEnd};
use kifudex_core::{Board, Color, Event, KoRule, Move, Rules, Size, Stone};

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

/// Where a main line stopped: the 1-based move number and the error name.
type Failure = Option<(usize, String)>;

/// Replays `g`'s main line on the core board.
fn replay_core(g: &GameRecord, rules: Rules) -> Failure {
    let mut b = Board::with_rules(g.size, rules);
    let mut n = 0;
    for e in &g.events {
        match *e {
            Event::Setup { point, stone } => {
                if let Err(err) = b.set_stone(point, stone) {
                    return Some((n, format!("setup {err}")));
                }
            }
            Event::Play { color, mv } => {
                n += 1;
                if let Err(err) = b.play(color, mv) {
                    return Some((n, err.name().into()));
                }
            }
        }
    }
    line_end(g, n)
}

/// Where the record's main line ends before its last node, if it does.
fn line_end(g: &GameRecord, moves: usize) -> Failure {
    match g.end? {
        LineEnd::OffBoard(_) => Some((moves + 1, "off-board".into())),
        LineEnd::Invalid => Some((moves + 1, "invalid".into())),
    }
}

/// The independent, deliberately simple board: 0 empty, 1 black, 2 white.
struct Simple {
    w: usize,
    h: usize,
    cells: [[u8; 19]; 19],
    suicide: bool,
    ko_check: bool,
    /// (x, y, colour code forbidden to play there)
    ko: Option<(usize, usize, u8)>,
}

impl Simple {
    fn new(size: Size, rules: Rules) -> Simple {
        Simple {
            w: size.width() as usize,
            h: size.height() as usize,
            cells: [[0; 19]; 19],
            suicide: rules.suicide_allowed,
            ko_check: rules.ko != KoRule::None,
            ko: None,
        }
    }

    fn neighbours(&self, x: usize, y: usize) -> Vec<(usize, usize)> {
        let mut v = Vec::with_capacity(4);
        if x > 0 {
            v.push((x - 1, y));
        }
        if x + 1 < self.w {
            v.push((x + 1, y));
        }
        if y > 0 {
            v.push((x, y - 1));
        }
        if y + 1 < self.h {
            v.push((x, y + 1));
        }
        v
    }

    /// The group at (x, y) and its number of liberties.
    fn group(&self, x: usize, y: usize) -> (Vec<(usize, usize)>, usize) {
        let c = self.cells[y][x];
        let mut seen = [[false; 19]; 19];
        let mut libs = [[false; 19]; 19];
        let mut nlibs = 0;
        let mut stack = vec![(x, y)];
        let mut stones = Vec::new();
        seen[y][x] = true;
        while let Some((px, py)) = stack.pop() {
            stones.push((px, py));
            for (nx, ny) in self.neighbours(px, py) {
                let v = self.cells[ny][nx];
                if v == 0 {
                    if !libs[ny][nx] {
                        libs[ny][nx] = true;
                        nlibs += 1;
                    }
                } else if v == c && !seen[ny][nx] {
                    seen[ny][nx] = true;
                    stack.push((nx, ny));
                }
            }
        }
        (stones, nlibs)
    }

    fn setup(&mut self, x: usize, y: usize, s: Stone) {
        self.cells[y][x] = s as u8;
        self.ko = None;
    }

    fn play(&mut self, color: Color, x: usize, y: usize) -> Result<(), &'static str> {
        let me: u8 = if color == Color::Black { 1 } else { 2 };
        let op = 3 - me;
        if x >= self.w || y >= self.h {
            return Err("off-board");
        }
        if self.cells[y][x] != 0 {
            return Err("occupied");
        }
        if self.ko_check && self.ko == Some((x, y, me)) {
            return Err("ko");
        }
        self.cells[y][x] = me;
        let mut captured = Vec::new();
        for (nx, ny) in self.neighbours(x, y) {
            if self.cells[ny][nx] == op {
                let (stones, libs) = self.group(nx, ny);
                if libs == 0 {
                    for &(sx, sy) in &stones {
                        self.cells[sy][sx] = 0;
                    }
                    captured.extend(stones);
                }
            }
        }
        let (own, libs) = self.group(x, y);
        self.ko = None;
        if captured.is_empty() && libs == 0 {
            if !self.suicide {
                self.cells[y][x] = 0;
                return Err("suicide");
            }
            for (sx, sy) in own {
                self.cells[sy][sx] = 0;
            }
            return Ok(());
        }
        if captured.len() == 1 && own.len() == 1 && libs == 1 {
            let (cx, cy) = captured[0];
            self.ko = Some((cx, cy, op));
        }
        Ok(())
    }
}

fn replay_simple(g: &GameRecord, rules: Rules) -> Failure {
    let mut b = Simple::new(g.size, rules);
    let mut n = 0;
    for e in &g.events {
        match *e {
            Event::Setup { point, stone } => b.setup(point.x as usize, point.y as usize, stone),
            Event::Play { color, mv } => {
                n += 1;
                let r = match mv {
                    Move::Play(p) => b.play(color, p.x as usize, p.y as usize),
                    Move::Pass => {
                        b.ko = None;
                        Ok(())
                    }
                };
                if let Err(err) = r {
                    return Some((n, err.into()));
                }
            }
        }
    }
    line_end(g, n)
}

#[derive(Default, Debug)]
struct Tally {
    games: usize,
    legal_standard: usize,
    legal_record: usize,
}

fn label(g: &GameRecord) -> String {
    let s = &g.source;
    match &s.member {
        Some(m) => format!("{}:{} tree {}", s.path, m, s.tree_index),
        None => format!("{} tree {}", s.path, s.tree_index),
    }
}

#[test]
fn corpus_main_lines_replay() {
    let root = corpus_dir();
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("the corpus at ../shared/corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut classes: BTreeMap<(String, &str, String), usize> = BTreeMap::new();
    for folder in &folders {
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        let (sources, _skipped) = collect_sources(&[folder]);
        let t = tallies.entry(name.clone()).or_default();
        for s in &sources {
            for g in s.parse().games {
                t.games += 1;
                for (rname, rules) in [("standard", Rules::default()), ("record", Rules::RECORD)] {
                    let core = replay_core(&g, rules);
                    let simple = replay_simple(&g, rules);
                    assert_eq!(core, simple, "{} under {rname} rules", label(&g));
                    match core {
                        None if rname == "standard" => t.legal_standard += 1,
                        None => t.legal_record += 1,
                        Some((n, err)) => {
                            println!(
                                "{name} [{rname}] {}: move {n} of {}: {err}",
                                label(&g),
                                g.move_count()
                            );
                            *classes.entry((name.clone(), rname, err)).or_default() += 1;
                        }
                    }
                }
            }
        }
    }
    println!("\nfolder: games, legal to the end under standard rules, under record rules");
    for (name, t) in &tallies {
        println!(
            "{name}: {} games, {} standard, {} record",
            t.games, t.legal_standard, t.legal_record
        );
    }
    println!("\nfailures by folder, rules and error:");
    for ((name, rname, err), n) in &classes {
        println!("{name} [{rname}] {err}: {n}");
    }
    let got: Vec<(&str, usize, usize, usize)> = tallies
        .iter()
        .map(|(n, t)| (n.as_str(), t.games, t.legal_standard, t.legal_record))
        .collect();
    let want: Vec<(&str, usize, usize, usize)> = vec![
        ("aeb_9x9", 517, 517, 517),
        ("aeb_alphago", 221, 221, 221),
        ("bgo_testsgf", 286, 286, 286),
        ("fox_pro", 10348, 10322, 10326),
        ("fuego_regression", 575, 575, 575),
        ("gnugo_regression", 1622, 1622, 1622),
        ("tricky", 221, 218, 219),
        ("yenw_ai", 7259, 7258, 7258),
    ];
    assert_eq!(got, want);
}
