//! The game filters (`--min-rank`, `--max-rank`, `--rank-of`, `--komi`, `--rules`,
//! `--event`, `--from`/`--to` by month, with the older year filters) against a count
//! written here from the SGF files themselves: each record of `../shared/corpus/fox_pro`
//! (one game per file) read by a tiny reader of this test (its root's
//! `BR`/`WR`/`KM`/`RU`/`EV`/`DT`, its `AB` stones and main-line moves), ranks read by this
//! test's own reading of the forms the collection uses (`P9段`, `5段`, `18级`), the games
//! reaching a position counted by replaying the first moves onto stone sets and comparing
//! them with the query's in the 8 orientations. The answers of `kifudex games --json` and
//! `kifudex search --json` on an index of the same files must equal these counts.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(rel)
}

/// One record as this test reads it.
struct Record {
    black_rank: Option<u8>,
    white_rank: Option<u8>,
    /// In hundredths.
    komi: Option<i32>,
    rules: String,
    event: String,
    /// The players' names (`PB`, `PW`).
    black: String,
    white: String,
    /// The result (`RE`).
    result: String,
    /// (year, month), month 0 when not given.
    date: Option<(u32, u32)>,
    setup: Vec<(u8, u8)>,
    moves: Vec<Played>,
}

/// A node: its properties and their values.
type Node = Vec<(String, Vec<String>)>;

/// The main line's nodes (the first variation at each fork): every node read up to the
/// first `)`, values read with their `\` escapes.
fn main_line(text: &str) -> Vec<Node> {
    let mut nodes: Vec<Node> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut name = String::new();
    while let Some(c) = chars.next() {
        match c {
            ')' => break,
            ';' => nodes.push(Vec::new()),
            '[' => {
                let mut v = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => v.extend(chars.next()),
                        ']' => break,
                        c => v.push(c),
                    }
                }
                if let Some(node) = nodes.last_mut() {
                    if !name.is_empty() {
                        node.push((std::mem::take(&mut name), Vec::new()));
                    }
                    if let Some(p) = node.last_mut() {
                        p.1.push(v);
                    }
                }
            }
            c if c.is_ascii_uppercase() => name.push(c),
            _ => name.clear(),
        }
    }
    nodes
}

/// The first value of property `name` of a node.
fn prop(node: &Node, name: &str) -> Option<String> {
    node.iter()
        .find(|p| p.0 == name)
        .and_then(|p| p.1.first().cloned())
}

/// A rank on one ordinal scale (30k = 0 .. 1k = 29, 1d = 30 .. 9d = 38, 1p = 39 .. 9p = 47),
/// for the forms this collection uses; `None` for any other.
fn rank(v: &str) -> Option<u8> {
    let (pro, rest) = match v.strip_prefix('P') {
        Some(r) => (true, r),
        None => (false, v),
    };
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let n: u8 = digits.parse().ok()?;
    match &rest[digits.len()..] {
        "段" if pro && (1..=9).contains(&n) => Some(38 + n),
        "段" if (1..=9).contains(&n) => Some(29 + n),
        "级" if !pro && (1..=30).contains(&n) => Some(30 - n),
        _ => None,
    }
}

fn point(v: &str) -> Option<(u8, u8)> {
    let b = v.as_bytes();
    (b.len() == 2 && b.iter().all(|c| c.is_ascii_lowercase()) && b[0] < b't' && b[1] < b't')
        .then(|| (b[0] - b'a', b[1] - b'a'))
}

fn read(path: &Path) -> Record {
    let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
    let nodes = main_line(&text);
    let root = &nodes[0];
    let komi = prop(root, "KM").and_then(|k| {
        let k = k.trim();
        if k.contains('.') {
            let v: f64 = k.parse().ok()?;
            Some((v * 100.0).round() as i32)
        } else {
            let v: i32 = k.parse().ok()?;
            // Fox writes komi in hundredths (650 for 6.5).
            Some(if v.abs() >= 100 { v } else { v * 100 })
        }
    });
    let date = prop(root, "DT").and_then(|d| {
        let y: u32 = d.get(0..4)?.parse().ok()?;
        let m: u32 = d.get(5..7).and_then(|m| m.parse().ok()).unwrap_or(0);
        Some((y, m))
    });
    let setup = root
        .iter()
        .filter(|p| p.0 == "AB")
        .flat_map(|p| p.1.iter().filter_map(|v| point(v)))
        .collect();
    let mut moves = Vec::new();
    for node in &nodes[1..] {
        let Some((black, v)) = node
            .iter()
            .find(|p| p.0 == "B" || p.0 == "W")
            .map(|p| (p.0 == "B", p.1.first().cloned().unwrap_or_default()))
        else {
            break;
        };
        match point(&v) {
            Some((x, y)) => moves.push((black, x, y)),
            None => break,
        }
    }
    Record {
        black_rank: prop(root, "BR").as_deref().and_then(rank),
        white_rank: prop(root, "WR").as_deref().and_then(rank),
        komi,
        rules: prop(root, "RU").unwrap_or_default(),
        event: prop(root, "EV").unwrap_or_default(),
        black: prop(root, "PB").unwrap_or_default(),
        white: prop(root, "PW").unwrap_or_default(),
        result: prop(root, "RE").unwrap_or_default(),
        date,
        setup,
        moves,
    }
}

/// A symmetry of the 19x19 board.
type Symmetry = fn(u8, u8) -> (u8, u8);

/// A move: black?, x, y.
type Played = (bool, u8, u8);

/// A position as (black stones, white stones), in the 8 orientations.
type Stones = (BTreeSet<(u8, u8)>, BTreeSet<(u8, u8)>);

fn orientations(s: &Stones) -> Vec<Stones> {
    let maps: [Symmetry; 8] = [
        |x, y| (x, y),
        |x, y| (18 - x, y),
        |x, y| (x, 18 - y),
        |x, y| (18 - x, 18 - y),
        |x, y| (y, x),
        |x, y| (18 - y, x),
        |x, y| (y, 18 - x),
        |x, y| (18 - y, 18 - x),
    ];
    maps.iter()
        .map(|f| {
            (
                s.0.iter().map(|&(x, y)| f(x, y)).collect(),
                s.1.iter().map(|&(x, y)| f(x, y)).collect(),
            )
        })
        .collect()
}

/// Whether the record reaches the position (no capture happens in the few first moves
/// compared: the stone sets only grow), and whether a move follows it there.
fn reaches(r: &Record, images: &[Stones], depth: usize) -> (bool, bool) {
    let mut s: Stones = (r.setup.iter().copied().collect(), BTreeSet::new());
    for k in 0..=depth.min(r.moves.len()) {
        if s.0.len() + s.1.len() == images[0].0.len() + images[0].1.len() && images.contains(&s) {
            return (true, k < r.moves.len());
        }
        if k < r.moves.len() {
            let (black, x, y) = r.moves[k];
            if black {
                s.0.insert((x, y))
            } else {
                s.1.insert((x, y))
            };
        }
    }
    (false, false)
}

/// A filter as the command line takes it and as this test applies it.
struct Filter {
    args: &'static [&'static str],
    keeps: fn(&Record) -> bool,
}

fn in_ranks(r: Option<u8>, lo: u8, hi: u8) -> bool {
    r.is_some_and(|r| lo <= r && r <= hi)
}

/// The months a record may be of lie within `from..=to` (`yyyymm`).
fn in_months(r: &Record, from: u32, to: u32) -> bool {
    match r.date {
        Some((y, 0)) => y * 100 + 1 >= from && y * 100 + 12 <= to,
        Some((y, m)) => (from..=to).contains(&(y * 100 + m)),
        None => false,
    }
}

const FILTERS: &[Filter] = &[
    Filter {
        args: &[],
        keeps: |_| true,
    },
    // 1p = 39, 9p = 47; 5d = 34; 3p = 41; 9d = 38; 1k = 29; 18k = 12.
    Filter {
        args: &["--min-rank", "1p"],
        keeps: |r| in_ranks(r.black_rank, 39, 47) && in_ranks(r.white_rank, 39, 47),
    },
    Filter {
        args: &["--max-rank", "9d"],
        keeps: |r| in_ranks(r.black_rank, 0, 38) && in_ranks(r.white_rank, 0, 38),
    },
    Filter {
        args: &["--min-rank", "5d", "--max-rank", "3p"],
        keeps: |r| in_ranks(r.black_rank, 34, 41) && in_ranks(r.white_rank, 34, 41),
    },
    Filter {
        args: &["--min-rank", "9段", "--max-rank", "P1段"],
        keeps: |r| in_ranks(r.black_rank, 38, 39) && in_ranks(r.white_rank, 38, 39),
    },
    Filter {
        args: &["--min-rank", "1p", "--rank-of", "B"],
        keeps: |r| in_ranks(r.black_rank, 39, 47),
    },
    Filter {
        args: &["--max-rank", "1k", "--rank-of", "W"],
        keeps: |r| in_ranks(r.white_rank, 0, 29),
    },
    Filter {
        args: &["--komi", "6.5"],
        keeps: |r| r.komi == Some(650),
    },
    Filter {
        args: &["--komi", "0"],
        keeps: |r| r.komi == Some(0),
    },
    Filter {
        args: &["--rules", "chinese"],
        keeps: |r| r.rules.to_lowercase().contains("chinese"),
    },
    Filter {
        args: &["--event", "Mlily"],
        keeps: |r| r.event.to_lowercase().contains("mlily"),
    },
    Filter {
        args: &["--from", "2017-11", "--to", "2018-01"],
        keeps: |r| in_months(r, 201711, 201801),
    },
    Filter {
        args: &["--from", "2019-03"],
        keeps: |r| in_months(r, 201903, 999912),
    },
    Filter {
        args: &["--to", "2016"],
        keeps: |r| in_months(r, 0, 201612),
    },
    // The winner (from the result's first letters) and player filters (either name
    // contains the text), alone and with others.
    Filter {
        args: &["--winner", "B"],
        keeps: |r| r.result.starts_with("B+"),
    },
    Filter {
        args: &["--winner", "W"],
        keeps: |r| r.result.starts_with("W+"),
    },
    Filter {
        args: &["--player", "陈"],
        keeps: |r| r.black.contains('陈') || r.white.contains('陈'),
    },
    Filter {
        args: &["--winner", "W", "--player", "李", "--komi", "6.5"],
        keeps: |r| {
            r.result.starts_with("W+")
                && (r.black.contains('李') || r.white.contains('李'))
                && r.komi == Some(650)
        },
    },
    Filter {
        args: &[
            "--min-rank",
            "1p",
            "--rules",
            "japanese",
            "--from",
            "2018-06",
        ],
        keeps: |r| {
            in_ranks(r.black_rank, 39, 47)
                && in_ranks(r.white_rank, 39, 47)
                && r.rules.to_lowercase().contains("japanese")
                && in_months(r, 201806, 999912)
        },
    },
];

fn kifudex(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn filter_answers_equal_a_count_from_the_files() {
    let mut records = Vec::new();
    for dir in std::fs::read_dir(corpus("fox_pro")).unwrap() {
        for f in std::fs::read_dir(dir.unwrap().path()).unwrap() {
            records.push(read(&f.unwrap().path()));
        }
    }
    assert_eq!(records.len(), 10348);
    let tmp = tempfile::tempdir().unwrap();
    let index = tmp.path().join("fox_pro.kdx");
    let out = Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(["build", "--quiet", "--keep-duplicates", "-o"])
        .arg(&index)
        .arg(corpus("fox_pro"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let index = index.to_str().unwrap();
    // Positions: (moves as the command line takes them, the stones after them).
    let positions: [(&str, &[Played]); 4] = [
        ("pd", &[(true, 15, 3)]),
        ("pd,dd", &[(true, 15, 3), (false, 3, 3)]),
        ("qd,dd", &[(true, 16, 3), (false, 3, 3)]),
        ("pd,dp,pp", &[(true, 15, 3), (false, 3, 15), (true, 15, 15)]),
    ];
    let mut nonzero = 0;
    for (moves, stones) in positions {
        let s: Stones = (
            stones.iter().filter(|m| m.0).map(|m| (m.1, m.2)).collect(),
            stones.iter().filter(|m| !m.0).map(|m| (m.1, m.2)).collect(),
        );
        let images = orientations(&s);
        let reached: Vec<(bool, bool, &Record)> = records
            .iter()
            .map(|r| {
                let (reach, next) = reaches(r, &images, stones.len());
                (reach, next, r)
            })
            .collect();
        let mut matching_all = None;
        for f in FILTERS {
            let want_games = reached
                .iter()
                .filter(|(reach, _, r)| *reach && (f.keeps)(r))
                .count();
            let want_next = reached
                .iter()
                .filter(|(reach, next, r)| *reach && *next && (f.keeps)(r))
                .count();
            let mut args = vec![
                "games", "--index", index, "--moves", moves, "--json", "--limit", "0",
            ];
            args.extend(f.args);
            let games = kifudex(&args);
            assert_eq!(
                games["matching"].as_u64().unwrap() as usize,
                want_games,
                "games {moves} {:?}",
                f.args
            );
            let mut args = vec!["search", "--index", index, "--moves", moves, "--json"];
            args.extend(f.args);
            let search = kifudex(&args);
            assert_eq!(
                search["total"].as_u64().unwrap() as usize,
                want_next,
                "search {moves} {:?}",
                f.args
            );
            if f.args.is_empty() {
                matching_all = Some(want_games);
            } else if want_games > 0 {
                nonzero += 1;
                // The filters narrow (none of these keeps every game of the position).
                assert!(Some(want_games) <= matching_all);
            }
        }
    }
    // The filters are not trivially empty on these positions.
    assert!(nonzero >= FILTERS.len() * 2, "{nonzero}");
}
