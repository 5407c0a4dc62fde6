//! Pattern search checked against a second, deliberately simple implementation of the
//! "Pattern search" section of `docs/CONTRACTS.md`.
//!
//! The simple side shares nothing with the library's matcher but the SGF reader (the game
//! records themselves) and the plain board of `kifudex_tests::naive`: every position of
//! every game is replayed on an array board with flood-fill captures; for each position,
//! the board is transformed by each of the 8 transforms of bGo's table, and every allowed
//! placement is compared cell by cell with the pattern, as is and with colours exchanged.
//! A hit is a region where a match (transform, placement, colour choice) holds that did not
//! hold one position earlier; continuations, the pattern's symmetry and the classes follow
//! the contract sentence by sentence.
//!
//! The library's answers must agree on every field: the JSON object (games, hits, every
//! continuation class with its move, equivalent cells, colour, count, immediate, tenuki and
//! wins), and the list of hits (game, position, region, transform, colour choice and
//! continuation), for each of the ways the library narrows the games down (plans with and
//! without first stones, per placement and per game, and the local codes for every pattern of
//! at most 3x3 cells).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;

use kifudex::explore::pattern::counts;
use kifudex::indexing::{build_in_memory, BuildOptions};
use kifudex::input::collect_sources;
use kifudex::pattern::{PatternData, PatternRequest};
use kifudex::sgf::GameRecord;
use kifudex_core::index::Index;
use kifudex_core::index_file::IndexFile;
use kifudex_core::pattern::{Hit, ScanPlan, Strategy};
use kifudex_core::{Color, Event, Move, Stone};
use kifudex_tests::naive::{transform, valid, Naive, BLACK, EMPTY, WHITE};
use serde_json::{json, Value};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus");

/// A game's key: file, archive member, tree.
type Key = (String, Option<String>, usize);

/// A game as the simple side sees it: every position and the moves between them.
struct Game {
    key: Key,
    winner: Option<Color>,
    /// `positions[n]`: the board after `n` moves (setup that precedes move `n + 1` included).
    positions: Vec<Naive>,
    /// `moves[n]`: move `n + 1`: colour and point (`None` for a pass).
    moves: Vec<(u8, Option<(usize, usize)>)>,
}

fn replay(g: &GameRecord) -> Option<Game> {
    if g.size.width() != 19 || g.size.height() != 19 {
        return None;
    }
    let mut b = Naive::new(19, 19);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for ev in &g.events {
        match *ev {
            Event::Setup { point, stone } => {
                b.cells[point.y as usize * 19 + point.x as usize] = match stone {
                    Stone::Empty => EMPTY,
                    Stone::Black => BLACK,
                    Stone::White => WHITE,
                };
            }
            Event::Play { color, mv } => {
                let c = if color == Color::Black { BLACK } else { WHITE };
                let before = b.clone();
                let point = match mv {
                    Move::Pass => None,
                    Move::Play(p) => {
                        let (x, y) = (p.x as usize, p.y as usize);
                        if !b.play(c, x, y) {
                            break;
                        }
                        Some((x, y))
                    }
                };
                positions.push(before);
                moves.push((c, point));
            }
        }
    }
    positions.push(b);
    Some(Game {
        key: (
            g.source.path.clone(),
            g.source.member.clone(),
            g.source.tree_index,
        ),
        winner: g.info.result.as_ref().and_then(|r| r.winner),
        positions,
        moves,
    })
}

/// A pattern as the simple side reads `ROWS`.
struct Spec {
    w: usize,
    h: usize,
    cells: Vec<u8>,
    /// Per cell, as is and with colours exchanged: bit `v` set if the cell accepts the
    /// value `v` (`EMPTY`, `BLACK`, `WHITE`).
    accept: [Vec<u8>; 2],
    /// Allowed top-left points (in the transformed board's coordinates).
    allowed: BTreeSet<(usize, usize)>,
    fixed: bool,
}

impl Spec {
    fn new(rows: &str, area: AreaSpec, fixed: bool) -> Spec {
        let lines: Vec<&[u8]> = rows.split('/').map(|r| r.as_bytes()).collect();
        let (w, h) = (lines[0].len(), lines.len());
        let cells: Vec<u8> = lines.concat();
        assert_eq!(cells.len(), w * h, "{rows}");
        let (l, t, r, b) = area.unwrap_or((0, 0, 18, 18));
        let mut allowed = BTreeSet::new();
        for y in 0..19 {
            for x in 0..19 {
                if x >= l && x <= r && y >= t && y <= b && x + w <= 19 && y + h <= 19 {
                    allowed.insert((x, y));
                }
            }
        }
        let accept = |swap: bool| -> Vec<u8> {
            cells
                .iter()
                .map(|&c| {
                    [EMPTY, BLACK, WHITE]
                        .iter()
                        .filter(|&&v| {
                            let v = if swap && v != EMPTY {
                                BLACK + WHITE - v
                            } else {
                                v
                            };
                            Spec::accepts(c, v)
                        })
                        .fold(0u8, |m, &v| m | 1 << v)
                })
                .collect()
        };
        Spec {
            w,
            h,
            accept: [accept(false), accept(true)],
            cells,
            allowed,
            fixed,
        }
    }

    fn accepts(cell: u8, v: u8) -> bool {
        match cell {
            b'.' => v == EMPTY,
            b'X' => v == BLACK,
            b'O' => v == WHITE,
            b'x' => v != WHITE,
            b'o' => v != BLACK,
            b'*' => true,
            _ => panic!("cell {cell}"),
        }
    }

    /// The grid transforms mapping the pattern and the allowed placements onto themselves.
    fn symmetries(&self) -> Vec<usize> {
        (0..8)
            .filter(|&u| {
                valid(u, self.w, self.h)
                    && (0..self.h).all(|y| {
                        (0..self.w).all(|x| {
                            let (a, b) = transform(u, x, y, self.w, self.h).unwrap();
                            self.cells[b * self.w + a] == self.cells[y * self.w + x]
                        })
                    })
                    && self.allowed.iter().all(|&(x, y)| {
                        let (a, b) = transform(u, x, y, 19, 19).unwrap();
                        let (c, d) = transform(u, x + self.w - 1, y + self.h - 1, 19, 19).unwrap();
                        self.allowed.contains(&(a.min(c), b.min(d)))
                    })
            })
            .collect()
    }
}

/// The cell shown for a class: as `search` shows a class (`docs/CONTRACTS.md`: "as in `search`"), the
/// first of the orbit in the upper-right octant of the grid, else the smallest `y * 19 + x`.
fn shown(orbit: &BTreeSet<(usize, usize)>, w: usize, h: usize) -> (usize, usize) {
    let rank = |&(x, y): &(usize, usize)| {
        let right_half = 2 * x >= w - 1;
        let top_half = 2 * y < h;
        let near_right = (w - 1 - x) <= y;
        (!(right_half && top_half && near_right), y * 19 + x)
    };
    *orbit.iter().min_by_key(|p| rank(p)).unwrap()
}

/// A class of continuations: (colour, shown cell).
type ClassKey = (u8, (usize, usize));

/// An area: left, top, right, bottom.
type AreaSpec = Option<(usize, usize, usize, usize)>;

/// A test pattern: rows, area, fixed colour, what it exercises.
type TestPattern = (String, AreaSpec, bool, &'static str);

/// A match: transform, origin in the transformed board, colours exchanged.
type Match = (usize, (usize, usize), bool);

/// One hit as both sides report it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct HitRow {
    game: Key,
    move_number: u32,
    /// left, top, right, bottom.
    region: (usize, usize, usize, usize),
    transform: usize,
    swapped: bool,
    /// move number, colour (1 black, 2 white), cell, immediate.
    continuation: Option<(u32, u8, (usize, usize), bool)>,
}

const INVERSE: [usize; 8] = [0, 1, 2, 5, 4, 3, 6, 7];

/// The simple answer for one pattern, built position by position.
struct Run<'s> {
    spec: &'s Spec,
    syms: Vec<usize>,
    rows: Vec<HitRow>,
    /// (colour, shown cell) -> [count, immediate, tenuki, black wins, white wins]
    classes: BTreeMap<ClassKey, [u64; 5]>,
    hit_games: u64,
    /// The matches of the position before (sorted), and whether the game has a hit yet.
    before: Vec<Match>,
    any: bool,
}

impl<'s> Run<'s> {
    fn new(spec: &'s Spec) -> Run<'s> {
        Run {
            syms: spec.symmetries(),
            spec,
            rows: Vec::new(),
            classes: BTreeMap::new(),
            hit_games: 0,
            before: Vec::new(),
            any: false,
        }
    }

    fn orbit(&self, cell: (usize, usize)) -> BTreeSet<(usize, usize)> {
        self.syms
            .iter()
            .map(|&u| transform(u, cell.0, cell.1, self.spec.w, self.spec.h).unwrap())
            .collect()
    }

    /// Position `n` of `g`, given as the board under each transform (`tb[t][t(p)] = p`).
    fn position(&mut self, g: &Game, n: usize, tb: &[Vec<u8>]) {
        let spec = self.spec;
        let (w, h) = (spec.w, spec.h);
        // Generated in (transform, origin, colour choice) order: sorted.
        let mut now: Vec<Match> = Vec::new();
        for (t, tb) in tb.iter().enumerate() {
            for &(ox, oy) in &spec.allowed {
                for swapped in [false, true] {
                    if swapped && spec.fixed {
                        continue;
                    }
                    let accept = &spec.accept[swapped as usize];
                    let ok = (0..h).all(|j| {
                        let row = &tb[(oy + j) * 19 + ox..(oy + j) * 19 + ox + w];
                        let cells = &accept[j * w..(j + 1) * w];
                        row.iter().zip(cells).all(|(&v, &a)| a >> v & 1 == 1)
                    });
                    if ok {
                        now.push((t, (ox, oy), swapped));
                    }
                }
            }
        }
        // New matches by region; the smallest transform, as is first, is the hit's.
        let mut by_region: BTreeMap<(usize, usize, usize, usize), Match> = BTreeMap::new();
        // Both lists are sorted: walk them together.
        let mut fresh = Vec::new();
        let mut old = self.before.iter().peekable();
        for &m in &now {
            while old.next_if(|&&o| o < m).is_some() {}
            if n == 0 || old.peek() != Some(&&m) {
                fresh.push(m);
            }
        }
        for m in fresh {
            let (t, (ox, oy), _) = m;
            let mut r = (usize::MAX, usize::MAX, 0, 0);
            for j in 0..h {
                for i in 0..w {
                    let (x, y) = transform(INVERSE[t], ox + i, oy + j, 19, 19).unwrap();
                    r = (r.0.min(x), r.1.min(y), r.2.max(x), r.3.max(y));
                }
            }
            let e = by_region.entry(r).or_insert(m);
            if (m.0, m.2) < (e.0, e.2) {
                *e = m;
            }
        }
        for (region, (t, (ox, oy), swapped)) in by_region {
            self.any = true;
            let inside = |x: usize, y: usize| {
                x >= region.0 && x <= region.2 && y >= region.1 && y <= region.3
            };
            let cont = g.moves.iter().enumerate().skip(n).find_map(|(k, &(c, p))| {
                let (x, y) = p?;
                if !inside(x, y) {
                    return None;
                }
                let (a, b) = transform(t, x, y, 19, 19).unwrap();
                let c = if swapped { BLACK + WHITE - c } else { c };
                Some((k as u32 + 1, c, (a - ox, b - oy), k == n))
            });
            if let Some((_, c, cell, immediate)) = cont {
                let key = (c, shown(&self.orbit(cell), w, h));
                let e = self.classes.entry(key).or_default();
                e[0] += 1;
                e[1] += immediate as u64;
                e[2] += !immediate as u64;
                e[3] += (g.winner == Some(Color::Black)) as u64;
                e[4] += (g.winner == Some(Color::White)) as u64;
            }
            self.rows.push(HitRow {
                game: g.key.clone(),
                move_number: n as u32,
                region,
                transform: t,
                swapped,
                continuation: cont,
            });
        }
        self.before = now;
    }

    fn end_game(&mut self) {
        self.hit_games += self.any as u64;
        self.any = false;
        self.before.clear();
    }

    /// The JSON object and the sorted hits.
    fn finish(mut self) -> (Value, Vec<HitRow>) {
        let w = self.spec.w;
        let letters = |(x, y): (usize, usize)| {
            format!("{}{}", (b'a' + x as u8) as char, (b'a' + y as u8) as char)
        };
        let mut list: Vec<(ClassKey, [u64; 5])> =
            std::mem::take(&mut self.classes).into_iter().collect();
        list.sort_by(|a, b| {
            b.1[0]
                .cmp(&a.1[0])
                .then(a.0 .0.cmp(&b.0 .0))
                .then((a.0 .1 .1 * w + a.0 .1 .0).cmp(&(b.0 .1 .1 * w + b.0 .1 .0)))
        });
        let conts: Vec<Value> = list
            .iter()
            .map(|((c, cell), k)| {
                let mut eq: Vec<(usize, usize)> = self.orbit(*cell).into_iter().collect();
                eq.sort_by_key(|&(x, y)| y * w + x);
                json!({
                    "move": letters(*cell),
                    "equivalent": eq.into_iter().map(letters).collect::<Vec<_>>(),
                    "color": if *c == BLACK { "B" } else { "W" },
                    "count": k[0], "immediate": k[1], "tenuki": k[2],
                    "black_wins": k[3], "white_wins": k[4],
                })
            })
            .collect();
        self.rows.sort();
        (
            json!({"games": self.hit_games, "hits": self.rows.len(), "continuations": conts}),
            self.rows,
        )
    }
}

/// The simple answers for all `specs`: the specs dealt round-robin to as many parts as
/// there are threads, each part one pass of its own over every position (the test binary's
/// other tests end long before this one, which would leave a core idle).
fn naive(games: &[Game], specs: &[Spec]) -> Vec<(Value, Vec<HitRow>)> {
    let parts = rayon::current_num_threads().clamp(1, specs.len().max(1));
    let answers: Vec<Vec<(Value, Vec<HitRow>)>> = (0..parts)
        .into_par_iter()
        .map(|p| {
            let part: Vec<&Spec> = specs.iter().skip(p).step_by(parts).collect();
            naive_pass(games, &part)
        })
        .collect();
    // Spec i is answer i / parts of part i % parts.
    let mut answers: Vec<_> = answers.into_iter().map(Vec::into_iter).collect();
    (0..specs.len())
        .map(|i| answers[i % parts].next().expect("one answer a spec"))
        .collect()
}

/// The simple answers for `specs`, one pass over every position of every game.
fn naive_pass(games: &[Game], specs: &[&Spec]) -> Vec<(Value, Vec<HitRow>)> {
    let mut runs: Vec<Run> = specs.iter().map(|s| Run::new(s)).collect();
    let mut tb = vec![vec![EMPTY; 361]; 8];
    for g in games {
        for (n, pos) in g.positions.iter().enumerate() {
            for (t, board) in tb.iter_mut().enumerate() {
                for y in 0..19 {
                    for x in 0..19 {
                        let (a, b) = transform(t, x, y, 19, 19).unwrap();
                        board[b * 19 + a] = pos.cells[y * 19 + x];
                    }
                }
            }
            for r in &mut runs {
                r.position(g, n, &tb);
            }
        }
        for r in &mut runs {
            r.end_game();
        }
    }
    runs.into_iter().map(Run::finish).collect()
}

/// The library's hits as rows, through the core's block scan with `plan`.
fn library_rows(
    index: &Index<'_>,
    data: &kifudex_core::pattern::PatternIndex<'_>,
    plan: &ScanPlan<'_>,
    keys: &[Option<Key>],
) -> Vec<HitRow> {
    let q = plan.query();
    let mut rows = Vec::new();
    for b in 0..data.block_count() {
        data.scan_block(index, plan, b, !0, &mut |id, _, h: &Hit| {
            let v = &q.variants()[h.variant as usize];
            let r = h.region;
            rows.push(HitRow {
                game: keys[id as usize]
                    .clone()
                    .expect("a hit in a game the test knows"),
                move_number: h.move_number,
                region: (
                    r.left as usize,
                    r.top as usize,
                    r.right as usize,
                    r.bottom as usize,
                ),
                transform: v.transform.index(),
                swapped: v.swapped,
                continuation: h.continuation.map(|c| {
                    (
                        c.move_number,
                        if c.color == Color::Black {
                            BLACK
                        } else {
                            WHITE
                        },
                        (c.cell.x as usize, c.cell.y as usize),
                        c.immediate,
                    )
                }),
            });
        });
    }
    rows.sort();
    rows
}

/// The patterns: (rows, area, fixed colour, what it exercises).
fn patterns() -> Vec<TestPattern> {
    let board = |c: &str| vec![c.repeat(19); 19].join("/");
    let mut v: Vec<TestPattern> = [
        (
            "......./......./...X.../..X..../..O..../......./.......",
            Some((0, 0, 0, 0)),
            false,
            "7x7 corner (issue)",
        ),
        (
            "..../..../..X*/..*O",
            Some((0, 0, 0, 0)),
            false,
            "4x4 corner, wildcards (issue)",
        ),
        (
            "...../...../X.O.X/...../.....",
            Some((1, 0, 13, 0)),
            false,
            "5x5 side, symmetric (issue)",
        ),
        (
            "XX./X../...",
            Some((1, 1, 15, 15)),
            false,
            "3x3 centre, empty triangle (issue)",
        ),
        ("XX./X../...", None, false, "3x3 anywhere (issue)"),
        (
            "XO./.X./...",
            Some((1, 1, 15, 15)),
            false,
            "3x3 centre (issue)",
        ),
        (
            ".X./X.X/.X.",
            None,
            false,
            "ponnuki: appears through captures, all 8 symmetries",
        ),
        (
            ".",
            Some((0, 0, 18, 18)),
            false,
            "1x1 empty: the setup, then captures",
        ),
        ("X", Some((2, 2, 16, 16)), true, "1x1 black, fixed colour"),
        (
            "...../...../..X../...../.....",
            Some((1, 1, 13, 13)),
            false,
            "5x5 lone stone, symmetric",
        ),
        (
            "......./......./......./...X.../......./......./.......",
            Some((0, 0, 0, 0)),
            false,
            "handicap star point at move 0",
        ),
        (
            "......./......./......./...O.../......./......./.......",
            Some((0, 0, 0, 0)),
            true,
            "white star point, fixed colour",
        ),
        (
            "......./......./...X.../..X..X./..OO.../......./.......",
            Some((0, 0, 0, 0)),
            false,
            "7x7 corner of five stones, read from the corner boxes",
        ),
        (
            "......../......../...X..../..X....*/..O...../......../........",
            Some((0, 0, 0, 0)),
            false,
            "8x7 corner: its 7x7 box looked up, a wildcard outside it",
        ),
        (
            "........./........./........./...X...../........./........./........./........./.........",
            Some((0, 0, 0, 0)),
            false,
            "9x9 corner, one star point: its 7x7 box looked up",
        ),
        ("XO/OX", None, false, "cross-cut"),
        ("XO/OX", None, true, "cross-cut, fixed colour"),
        ("X.O", None, false, "1x3: transforms that stand it upright"),
        (
            "XO/.X/..",
            Some((0, 0, 17, 5)),
            false,
            "2x3 rectangle, top band",
        ),
        ("xoo/***", None, false, "x o * wildcards"),
        (
            "*X*/O*O",
            Some((0, 0, 16, 0)),
            false,
            "wildcards on the first line",
        ),
        (
            "xxx/xXx/xxx",
            Some((1, 1, 15, 15)),
            false,
            "a stone with no white neighbour",
        ),
        (".O./O.O/...", Some((1, 1, 15, 15)), false, "eye shape"),
        (
            "X.X",
            Some((0, 0, 3, 0)),
            false,
            "shifted area: no left-right symmetry",
        ),
        (
            "*",
            Some((9, 9, 9, 9)),
            false,
            "tengen, anything: one hit per game at move 0",
        ),
        (
            "O",
            Some((3, 3, 3, 3)),
            false,
            "4-4 point stone, either colour",
        ),
        (
            ".",
            Some((3, 3, 3, 3)),
            true,
            "4-4 point empty: again after a capture",
        ),
        (
            "...../...../..XO./...../.....",
            Some((10, 10, 18, 18)),
            false,
            "area past the board's edge",
        ),
        ("XX/XX", None, true, "filled square, fixed colour"),
        (
            "....../....../..X..O",
            Some((0, 0, 0, 16)),
            false,
            "3 rows by the left edge",
        ),
        (
            "oooo/o.Xo/oooo",
            None,
            false,
            "black stone in white-free surroundings",
        ),
        (
            "...X/..O./.X../O...",
            None,
            false,
            "diagonal: transpose symmetries",
        ),
        (
            "......../......../..X.O.../........",
            Some((0, 0, 0, 0)),
            false,
            "8x4 corner",
        ),
        ("XOX/O.O", Some((0, 0, 16, 17)), false, "a ko shape"),
        ("x.x/.O./x.x", None, true, "wildcard corners, fixed colour"),
        (
            "..X/.O./...",
            Some((0, 0, 16, 0)),
            false,
            "3x3 on the first line only",
        ),
        (
            ".../.X./...",
            None,
            false,
            "3x3 lone stone anywhere: handicap stones at move 0, captures",
        ),
        (
            "OX./X.X/.X.",
            None,
            true,
            "3x3 capture shape anywhere, fixed colour",
        ),
        (
            "o.o/.../o.o",
            None,
            false,
            "3x3 without stones: every empty place at move 0, then captures",
        ),
        ("XO", None, true, "1x2 anywhere, fixed colour"),
        (
            "x*/Oo",
            Some((0, 0, 17, 17)),
            false,
            "2x2 wildcards, every orientation",
        ),
    ]
    .iter()
    .map(|&(r, a, f, w)| (r.to_string(), a, f, w))
    .collect();
    v.push((board("."), None, false, "19x19 empty board: openings"));
    v.push((board("*"), None, false, "19x19 anything: first moves"));
    v
}

/// The input: professional games (fox_pro: handicap setups, captures) and regression
/// positions of GNU Go (19x19 setups, later setup nodes).
fn inputs() -> Vec<PathBuf> {
    let fox = PathBuf::from(format!("{CORPUS}/fox_pro/2p"));
    let mut pro: Vec<PathBuf> = std::fs::read_dir(&fox)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    pro.sort();
    let mut v: Vec<PathBuf> = pro
        .into_iter()
        .take(if cfg!(debug_assertions) { 6 } else { 80 })
        .collect();
    let gnugo = PathBuf::from(format!("{CORPUS}/gnugo_regression"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&gnugo)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            std::fs::read_to_string(p).is_ok_and(|s| s.contains("SZ[19]") && s.contains("AB["))
        })
        .collect();
    files.sort();
    v.extend(
        files
            .into_iter()
            .take(if cfg!(debug_assertions) { 20 } else { 150 }),
    );
    v
}

#[test]
fn pattern_search_agrees_with_a_simple_implementation() {
    let t0 = Instant::now();
    let paths = inputs();
    let (sources, skipped) = collect_sources(&paths);
    let games: Vec<Game> = sources
        .iter()
        .flat_map(|s| s.parse().games)
        .filter_map(|g| replay(&g))
        .collect();
    let (bytes, _) = build_in_memory(sources, &skipped, &BuildOptions::default()).unwrap();
    let file = IndexFile::open(&bytes).unwrap();
    let index = file.index.clone();
    // The search reads the sections the build stored; they are exactly what a fresh
    // computation from the index's stored games gives (a replay of its own), and the
    // index verifies.
    let pidx = file.pattern;
    let fresh = PatternData::compute(&index);
    let fresh = fresh.open(&index).unwrap();
    assert_eq!(pidx.block_count(), fresh.block_count());
    for g in 0..index.game_count() {
        assert_eq!(pidx.packed_summary(g), fresh.packed_summary(g), "game {g}");
        assert!(pidx.removals_of(g).eq(fresh.removals_of(g)), "game {g}");
    }
    file.verify().unwrap();

    // The index's games by key; a game the index left out (a duplicate) is left out here.
    let keys: Vec<Option<Key>> = (0..index.game_count())
        .map(|id| {
            let g = index.game(id).unwrap();
            Some((
                g.path.to_string(),
                (!g.member.is_empty()).then(|| g.member.to_string()),
                g.tree as usize,
            ))
        })
        .collect();
    let known: BTreeSet<&Key> = keys.iter().flatten().collect();
    let mut seen = BTreeSet::new();
    let games: Vec<Game> = games
        .into_iter()
        .filter(|g| known.contains(&g.key) && seen.insert(g.key.clone()))
        .collect();
    let positions: usize = games.iter().map(|g| g.positions.len()).sum();
    let setups = games.iter().filter(|g| g.positions[0].stones() > 0).count();
    eprintln!(
        "{} games, {positions} positions, {setups} with setup stones, read in {:.1?}",
        games.len(),
        t0.elapsed()
    );
    assert!(games.len() >= if cfg!(debug_assertions) { 20 } else { 200 });
    assert!(setups >= 20, "only {setups} games with setup stones");

    let patterns = patterns();
    assert!(patterns.len() >= 40);
    let specs: Vec<Spec> = patterns
        .iter()
        .map(|(rows, area, fixed, _)| Spec::new(rows, *area, *fixed))
        .collect();
    let t1 = Instant::now();
    let answers = naive(&games, &specs);
    eprintln!(
        "simple implementation: {} patterns in {:.1?}",
        specs.len(),
        t1.elapsed()
    );
    let mut failures = Vec::new();
    for ((rows, area, fixed, what), (want_json, want_rows)) in patterns.iter().zip(answers) {
        let (rows, area, fixed) = (rows.as_str(), *area, *fixed);
        let t = Instant::now();
        let area_text = area.map(|(l, t, r, b)| format!("{l},{t},{r},{b}"));
        let req = PatternRequest::parse(rows, area_text.as_deref(), fixed).unwrap();
        let got_json = serde_json::to_value(counts(&index, &pidx, &req)).unwrap();
        if got_json != want_json {
            failures.push(format!(
                "{what} {rows} {area:?} fixed {fixed}: JSON differs\n want {want_json}\n got  {got_json}"
            ));
        }
        let q = req.query();
        let mut plans = vec![
            ScanPlan::new(&q),
            ScanPlan::with(&q, Strategy::PerGame, false),
            ScanPlan::with(&q, Strategy::Pairs, true),
            ScanPlan::with(&q, Strategy::Pairs, false),
        ];
        if !q.has_stones() {
            plans.push(ScanPlan::with(&q, Strategy::All, false));
        }
        if q.pattern().width() <= 3 && q.pattern().height() <= 3 {
            // Every pattern of at most 3x3 cells through the local codes too, whatever
            // the plan chosen for it (corner and side ones included).
            plans.push(ScanPlan::with(&q, Strategy::Local, false));
            assert_eq!(plans.last().map(|p| p.strategy()), Some(Strategy::Local));
        }
        for plan in &plans {
            let got_rows = library_rows(&index, &pidx, plan, &keys);
            if got_rows != want_rows {
                let missing: Vec<_> = want_rows
                    .iter()
                    .filter(|r| !got_rows.contains(r))
                    .take(3)
                    .collect();
                let extra: Vec<_> = got_rows
                    .iter()
                    .filter(|r| !want_rows.contains(r))
                    .take(3)
                    .collect();
                failures.push(format!(
                    "{what} {rows} {area:?} fixed {fixed}, plan {:?}: {} hits, want {}; missing {missing:?}; extra {extra:?}",
                    plan.strategy(),
                    got_rows.len(),
                    want_rows.len()
                ));
            }
        }
        eprintln!(
            "{what:<55} {:>6} hits in {:>4} games, {:>3} classes ({:.1?})",
            want_rows.len(),
            want_json["games"],
            want_json["continuations"].as_array().map_or(0, |a| a.len()),
            t.elapsed()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
