//! `kifudex shapes` (local shape statistics) checked against a deliberately simple, independent count on real games
//! (`../shared/corpus/fox_pro`): its own board with captures, patterns as grids of
//! characters turned and mirrored as the seed report's Java code turns them, the
//! lexicographically smallest string as the canonical form, and plain hash maps. It
//! shares nothing with kifudex but the SGF reader.
//!
//! Every pattern's played and available counts of the three shapes and every opening's
//! count must agree.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use kifudex::indexing::{build, BuildOptions};
use kifudex::sgf::parse_file;
use kifudex::shapes::{collect, shape::rows, ShapeOptions};
use kifudex_core::event::Event;
use kifudex_core::index::Index;
use kifudex_core::{Color, Move, Stone};

const GAMES: usize = 40;
const MAX_MOVES: usize = 70;
const OPENING: usize = 6;

fn files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/fox_pro/9p");
    let mut f: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the corpus (../shared/corpus)")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    f.sort();
    f.truncate(GAMES);
    f
}

// ---- the simple count ------------------------------------------------------------------

type Grid = Vec<Vec<char>>;

fn rotate(g: &Grid) -> Grid {
    let n = g.len();
    (0..n)
        .map(|i| (0..n).map(|j| g[n - 1 - j][i]).collect())
        .collect()
}

fn mirror(g: &Grid) -> Grid {
    g.iter()
        .map(|r| r.iter().rev().copied().collect())
        .collect()
}

fn text(g: &Grid) -> String {
    g.iter()
        .map(|r| r.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

/// The smallest of the 8 turned and mirrored grids, as text.
fn canonical(g: &Grid) -> String {
    let mut best: Option<String> = None;
    let mut cur = g.clone();
    for _ in 0..4 {
        for v in [cur.clone(), mirror(&cur)] {
            let t = text(&v);
            if best.as_ref().is_none_or(|b| t < *b) {
                best = Some(t);
            }
        }
        cur = rotate(&cur);
    }
    best.unwrap()
}

struct SimpleBoard {
    n: i32,
    cells: Vec<char>, // '.', 'B', 'W'
}

impl SimpleBoard {
    fn at(&self, x: i32, y: i32) -> char {
        if x < 0 || y < 0 || x >= self.n || y >= self.n {
            '#'
        } else {
            self.cells[(y * self.n + x) as usize]
        }
    }

    fn group_without_liberty(&self, x: i32, y: i32) -> Option<Vec<(i32, i32)>> {
        let c = self.at(x, y);
        let mut seen = vec![(x, y)];
        let mut i = 0;
        while i < seen.len() {
            let (a, b) = seen[i];
            i += 1;
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (p, q) = (a + dx, b + dy);
                let d = self.at(p, q);
                if d == '.' {
                    return None;
                }
                if d == c && !seen.contains(&(p, q)) {
                    seen.push((p, q));
                }
            }
        }
        Some(seen)
    }

    /// Plays a stone; `false` for an occupied point.
    fn play(&mut self, c: char, x: i32, y: i32) -> bool {
        if self.at(x, y) != '.' {
            return false;
        }
        self.cells[(y * self.n + x) as usize] = c;
        let other = if c == 'B' { 'W' } else { 'B' };
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            if self.at(x + dx, y + dy) == other {
                if let Some(g) = self.group_without_liberty(x + dx, y + dy) {
                    for (a, b) in g {
                        self.cells[(b * self.n + a) as usize] = '.';
                    }
                }
            }
        }
        if let Some(g) = self.group_without_liberty(x, y) {
            for (a, b) in g {
                self.cells[(b * self.n + a) as usize] = '.';
            }
        }
        true
    }

    /// The pattern of `shape` around (x, y), as `mover` sees it.
    fn pattern(&self, x: i32, y: i32, shape: &str, mover: char) -> Grid {
        let r: i32 = if shape == "3x3" { 1 } else { 2 };
        (-r..=r)
            .map(|dy| {
                (-r..=r)
                    .map(|dx| {
                        if shape == "diamond" && dx.abs() + dy.abs() > 2 {
                            return ' ';
                        }
                        match self.at(x + dx, y + dy) {
                            '.' => '.',
                            '#' => '#',
                            c if c == mover => 'X',
                            _ => 'O',
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

type Counts = HashMap<(String, String), (u64, u64)>;

/// The smallest text of an opening (setup stones, moves) under the 8 symmetries of the
/// points, written out.
fn opening_key(n: i32, setup: &[(i32, i32, char)], moves: &[(char, Option<(i32, i32)>)]) -> String {
    let m = n - 1;
    let sym = |t: usize, x: i32, y: i32| match t {
        0 => (x, y),
        1 => (m - x, y),
        2 => (x, m - y),
        3 => (m - x, m - y),
        4 => (y, x),
        5 => (m - y, x),
        6 => (y, m - x),
        _ => (m - y, m - x),
    };
    (0..8)
        .map(|t| {
            let mut s: Vec<String> = setup
                .iter()
                .map(|&(x, y, c)| {
                    let (a, b) = sym(t, x, y);
                    format!("{c}{b:02}{a:02}")
                })
                .collect();
            s.sort();
            let mv: Vec<String> = moves
                .iter()
                .map(|&(c, p)| match p {
                    None => format!("{c}pass"),
                    Some((x, y)) => {
                        let (a, b) = sym(t, x, y);
                        format!("{c}{b:02}{a:02}")
                    }
                })
                .collect();
            format!("{}|{}", s.join(","), mv.join(","))
        })
        .min()
        .unwrap()
}

fn simple_counts(files: &[PathBuf]) -> (Counts, HashMap<String, u64>, usize) {
    let mut counts: Counts = HashMap::new();
    let mut openings: HashMap<String, u64> = HashMap::new();
    let mut games = 0;
    for f in files {
        let bytes = std::fs::read(f).unwrap();
        for g in parse_file(&bytes, &f.display().to_string(), None).games {
            games += 1;
            let n = g.size.width() as i32;
            assert_eq!(n, g.size.height() as i32);
            let mut b = SimpleBoard {
                n,
                cells: vec!['.'; (n * n) as usize],
            };
            let mut moves: Vec<(char, Option<(i32, i32)>)> = Vec::new();
            let mut setup: Vec<(i32, i32, char)> = Vec::new();
            for ev in &g.events {
                match *ev {
                    Event::Setup { point, stone } => {
                        let c = match stone {
                            Stone::Black => 'B',
                            Stone::White => 'W',
                            Stone::Empty => '.',
                        };
                        b.cells[(point.y as i32 * n + point.x as i32) as usize] = c;
                        if moves.is_empty() {
                            setup.push((point.x as i32, point.y as i32, c));
                        }
                    }
                    Event::Play { color, mv } => {
                        let c = if color == Color::Black { 'B' } else { 'W' };
                        let (x, y) = match mv {
                            Move::Pass => {
                                moves.push((c, None));
                                continue;
                            }
                            Move::Play(p) => (p.x as i32, p.y as i32),
                        };
                        if b.at(x, y) != '.' {
                            break; // the index ends the main line here too
                        }
                        if moves.len() < MAX_MOVES {
                            for shape in ["3x3", "diamond", "5x5"] {
                                for yy in 0..n {
                                    for xx in 0..n {
                                        if b.at(xx, yy) != '.' {
                                            continue;
                                        }
                                        let k = canonical(&b.pattern(xx, yy, shape, c));
                                        let e = counts.entry((shape.to_string(), k)).or_default();
                                        e.1 += 1;
                                        if (xx, yy) == (x, y) {
                                            e.0 += 1;
                                        }
                                    }
                                }
                            }
                        }
                        moves.push((c, Some((x, y))));
                        assert!(b.play(c, x, y));
                    }
                }
            }
            if moves.len() >= OPENING {
                let best = opening_key(n, &setup, &moves[..OPENING]);
                *openings.entry(best).or_default() += 1;
            }
        }
    }
    (counts, openings, games)
}

#[test]
fn pattern_counts_match_a_simple_count() {
    let files = files();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.kdx");
    build(
        &files,
        &out,
        &BuildOptions {
            progress: false,
            ..BuildOptions::default()
        },
    )
    .unwrap();
    let bytes = std::fs::read(&out).unwrap();
    let index = Index::open(&bytes).unwrap();
    let games = kifudex::predict::games::from_index(&index);
    let stats = collect(
        &games,
        &ShapeOptions {
            top: usize::MAX,
            opening_moves: OPENING,
            openings: usize::MAX,
            max_moves: Some(MAX_MOVES),
        },
    );

    let (simple, simple_openings, simple_games) = simple_counts(&files);
    assert_eq!(stats.games, simple_games, "games");

    let mut mine: Counts = HashMap::new();
    for s in &stats.shapes {
        assert_eq!(s.distinct, s.top.len());
        for p in &s.top {
            let g: Grid = rows(p.code, s.shape)
                .iter()
                .map(|r| r.chars().map(|c| if c == '*' { '.' } else { c }).collect())
                .collect();
            let prev = mine.insert(
                (s.shape.name().to_string(), canonical(&g)),
                (p.played, p.available),
            );
            assert!(prev.is_none(), "two codes for one pattern");
        }
    }
    // The simple count also holds patterns that were available but never played.
    let simple_played: Counts = simple.into_iter().filter(|(_, v)| v.0 > 0).collect();
    let played_total: u64 = simple_played
        .iter()
        .filter(|(k, _)| k.0 == "3x3")
        .map(|(_, v)| v.0)
        .sum();
    assert_eq!(stats.moves, played_total, "moves");
    assert!(played_total > 1000, "{played_total} moves");
    assert_eq!(mine.len(), simple_played.len());
    for (k, v) in &simple_played {
        assert_eq!(mine.get(k), Some(v), "{k:?}");
    }

    let mine_openings: HashMap<String, u64> = stats
        .openings
        .iter()
        .map(|o| {
            let col = |c: Color| if c == Color::Black { 'B' } else { 'W' };
            let setup: Vec<(i32, i32, char)> = o
                .setup
                .iter()
                .map(|&(p, st)| {
                    let c = match st {
                        Stone::Black => 'B',
                        Stone::White => 'W',
                        Stone::Empty => '.',
                    };
                    (p.x as i32, p.y as i32, c)
                })
                .collect();
            let moves: Vec<(char, Option<(i32, i32)>)> = o
                .moves
                .iter()
                .map(|&(c, m)| (col(c), m.point().map(|p| (p.x as i32, p.y as i32))))
                .collect();
            (opening_key(o.size.width() as i32, &setup, &moves), o.count)
        })
        .collect();
    assert_eq!(stats.distinct_openings, simple_openings.len());
    assert_eq!(mine_openings, simple_openings);
}

/// The command is `shapes`; its old name `patterns` (before `pattern` searched) still
/// runs it, with the same output, and is not listed in the help beside `pattern`.
#[test]
fn shapes_answers_under_its_old_name_too() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.kdx");
    let files = files();
    build(
        &files[..8],
        &out,
        &BuildOptions {
            progress: false,
            ..BuildOptions::default()
        },
    )
    .unwrap();
    let run = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_kifudex"))
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let index = out.to_str().unwrap();
    let shapes = run(&["shapes", "--index", index, "--json", "--top", "5"]);
    assert!(shapes.contains("\"openings\""), "{shapes}");
    assert_eq!(
        run(&["patterns", "--index", index, "--json", "--top", "5"]),
        shapes
    );
    let help = run(&["--help"]);
    assert!(
        help.contains("  shapes ") && help.contains("  pattern "),
        "{help}"
    );
    assert!(!help.contains("  patterns "), "{help}");
}
