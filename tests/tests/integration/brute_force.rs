//! An independent second computation of next-move statistics, checked against the index.
//!
//! Everything that decides the answer is re-implemented here from `docs/JSON.md` and
//! `docs/HASH.md`, sharing no code with the core's board, transforms, hashes or
//! search: a plain array board with flood-fill captures, the 8 transforms written from
//! bGo's table, and a naive scan of every position of every game. Only the SGF parser
//! (the game records themselves) is shared with the index build.
//!
//! For every query position drawn from real games, every game of the corpus subset is
//! replayed; each position before a move that equals the query in some orientation is
//! one occurrence, its next move mapped into the query's frame. Moves made equivalent by
//! the query's own symmetry are merged. The result must equal `Index::next_moves`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::time::Instant;

use kifudex::indexing::{build, BuildOptions};
use kifudex::input::collect_sources;
use kifudex::sgf::GameRecord;
use kifudex_core::index::Index;
use kifudex_core::search::MAX_CLASSES;
use kifudex_core::{Board, Color, Event, Move, Point, Rules, Size, Stone};
use kifudex_tests::naive::{transform, valid, Naive, BLACK, EMPTY, WHITE};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus");

/// A next move in plain numbers: colour (1 black, 2 white) and point, `None` for a pass.
type NaiveMove = (u8, Option<(u8, u8)>);

/// Classes of next moves: (colour, the set of equivalent points, `None` for a pass) ->
/// (count, black wins, white wins).
type Classes = BTreeMap<(u8, BTreeSet<Option<(u8, u8)>>), (u32, u32, u32)>;

/// Whether `game[p] == query[t(p)]` for every point p.
fn matches(game: &Naive, query: &Naive, t: usize) -> bool {
    let (w, h) = (game.w, game.h);
    for y in 0..h {
        for x in 0..w {
            let (qx, qy) = transform(t, x, y, w, h).unwrap();
            if game.cells[y * w + x] != query.cells[qy * w + qx] {
                return false;
            }
        }
    }
    true
}

/// The transforms that leave `query` unchanged.
fn symmetry_group(query: &Naive) -> Vec<usize> {
    (0..8)
        .filter(|&t| valid(t, query.w, query.h) && matches(query, query, t))
        .collect()
}

/// The orbit of a move under `sym`, as a sorted set.
fn orbit(mv: NaiveMove, sym: &[usize], w: usize, h: usize) -> (u8, BTreeSet<Option<(u8, u8)>>) {
    let (c, p) = mv;
    let mut set = BTreeSet::new();
    match p {
        None => {
            set.insert(None);
        }
        Some((x, y)) => {
            for &t in sym {
                let (a, b) = transform(t, x as usize, y as usize, w, h).unwrap();
                set.insert(Some((a as u8, b as u8)));
            }
        }
    }
    (c, set)
}

/// One game, replayed once into its positions and moves.
struct Replayed {
    winner: Option<Color>,
    /// (position before the move, the move).
    plies: Vec<(Naive, NaiveMove)>,
}

fn replay(g: &GameRecord) -> Replayed {
    let (w, h) = (g.size.width() as usize, g.size.height() as usize);
    let mut b = Naive::new(w, h);
    let mut plies = Vec::new();
    for ev in &g.events {
        match *ev {
            Event::Setup { point, stone } => {
                let (x, y) = (point.x as usize, point.y as usize);
                if x < w && y < h {
                    b.cells[y * w + x] = match stone {
                        Stone::Empty => EMPTY,
                        Stone::Black => BLACK,
                        Stone::White => WHITE,
                    };
                }
            }
            Event::Play { color, mv } => {
                let c = if color == Color::Black { BLACK } else { WHITE };
                match mv {
                    Move::Pass => plies.push((b.clone(), (c, None))),
                    Move::Play(p) => {
                        let (x, y) = (p.x as usize, p.y as usize);
                        if x >= w || y >= h {
                            break;
                        }
                        let before = b.clone();
                        if !b.play(c, x, y) {
                            break;
                        }
                        plies.push((before, (c, Some((p.x, p.y)))));
                    }
                }
            }
        }
    }
    Replayed {
        winner: g.info.result.as_ref().and_then(|r| r.winner),
        plies,
    }
}

/// Brute-force answer for one query.
#[derive(Default, Debug)]
struct Tally {
    /// (colour, orbit) -> (count, black wins, white wins).
    classes: Classes,
    total: u64,
    games: BTreeSet<usize>,
}

fn to_core(q: &Naive) -> Board {
    let size = Size::new(q.w as u8, q.h as u8).unwrap();
    let mut b = Board::with_rules(size, Rules::RECORD);
    for y in 0..q.h {
        for x in 0..q.w {
            let s = match q.cells[y * q.w + x] {
                BLACK => Stone::Black,
                WHITE => Stone::White,
                _ => continue,
            };
            b.set_stone(Point::new(x as u8, y as u8), s).unwrap();
        }
    }
    b
}

fn show(q: &Naive) -> String {
    let mut s = String::new();
    for y in 0..q.h {
        for x in 0..q.w {
            s.push(match q.cells[y * q.w + x] {
                BLACK => 'X',
                WHITE => 'O',
                _ => '.',
            });
        }
        s.push('\n');
    }
    s
}

#[test]
fn index_agrees_with_brute_force() {
    let t0 = Instant::now();
    let paths: Vec<PathBuf> = ["aeb_9x9", "fox_pro/1p", "bgo_testsgf/TestSGF.tgz"]
        .iter()
        .map(|p| PathBuf::from(format!("{CORPUS}/{p}")))
        .collect();

    // The games, in the build's own input order (ids are not compared, only sets).
    let (sources, _) = collect_sources(&paths);
    let games: Vec<Replayed> = sources
        .iter()
        .flat_map(|s| s.parse().games)
        .map(|g| replay(&g))
        .collect();
    assert!(games.len() > 1000, "only {} games", games.len());

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("brute.kfx");
    let report = build(&paths, &out, &BuildOptions::default()).unwrap();
    assert_eq!(report.games_read, games.len());
    let bytes = std::fs::read(&out).unwrap();
    let index = Index::open(&bytes).unwrap();
    eprintln!(
        "{} games replayed, index built in {:.1?}",
        games.len(),
        t0.elapsed()
    );

    // Query positions drawn deterministically from the games.
    let step = 5;
    let plies = [0usize, 1, 2, 3, 5, 10, 20, 40, 80, 150];
    let mut queries: Vec<Naive> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for g in games.iter().step_by(step) {
        for &p in &plies {
            if let Some((pos, _)) = g.plies.get(p) {
                if seen.insert(pos.clone()) {
                    queries.push(pos.clone());
                }
            }
        }
    }
    assert!(queries.len() >= 200, "only {} queries", queries.len());
    let nine = queries.iter().filter(|q| q.w == 9).count();
    assert!(nine >= 20, "only {nine} 9x9 queries");

    // (width, height, stones) -> query indices.
    let mut by_count: HashMap<(usize, usize, usize), Vec<usize>> = HashMap::new();
    let syms: Vec<Vec<usize>> = queries.iter().map(symmetry_group).collect();
    for (i, q) in queries.iter().enumerate() {
        by_count.entry((q.w, q.h, q.stones())).or_default().push(i);
    }

    // One replay of every game, each position against the queries of its stone count.
    let t1 = Instant::now();
    let mut tallies: Vec<Tally> = (0..queries.len()).map(|_| Tally::default()).collect();
    for (gi, g) in games.iter().enumerate() {
        for (pos, mv) in &g.plies {
            let Some(qs) = by_count.get(&(pos.w, pos.h, pos.stones())) else {
                continue;
            };
            for &qi in qs {
                let q = &queries[qi];
                // The first matching transform: a symmetric query counts the occurrence once.
                let Some(t) = (0..8).find(|&t| valid(t, q.w, q.h) && matches(pos, q, t)) else {
                    continue;
                };
                let mapped = match mv.1 {
                    None => (mv.0, None),
                    Some((x, y)) => {
                        let (a, b) = transform(t, x as usize, y as usize, q.w, q.h).unwrap();
                        (mv.0, Some((a as u8, b as u8)))
                    }
                };
                let tally = &mut tallies[qi];
                let e = tally
                    .classes
                    .entry(orbit(mapped, &syms[qi], q.w, q.h))
                    .or_default();
                e.0 += 1;
                e.1 += (g.winner == Some(Color::Black)) as u32;
                e.2 += (g.winner == Some(Color::White)) as u32;
                tally.total += 1;
                tally.games.insert(gi);
            }
        }
    }
    // Each query was drawn from a game, so it occurs at least there.
    assert!(tallies.iter().all(|t| t.total >= 1));
    let symmetric = syms.iter().filter(|s| s.len() > 1).count();
    eprintln!("{symmetric} queries have a non-trivial symmetry");
    eprintln!(
        "{} queries ({nine} on 9x9) scanned in {:.1?}",
        queries.len(),
        t1.elapsed()
    );

    // The index's answers.
    let mut failures = Vec::new();
    let mut occurrences_total = 0u64;
    for (qi, q) in queries.iter().enumerate() {
        let board = to_core(q);
        let nm = index.next_moves::<MAX_CLASSES>(&board, false).unwrap();
        let mut got: Classes = BTreeMap::new();
        for c in nm.classes() {
            let color = if c.color == Color::Black {
                BLACK
            } else {
                WHITE
            };
            let set: BTreeSet<Option<(u8, u8)>> = nm
                .equivalent(c)
                .iter()
                .map(|m| match m {
                    Move::Pass => None,
                    Move::Play(p) => Some((p.x, p.y)),
                })
                .collect();
            let shown = match c.mv {
                Move::Pass => None,
                Move::Play(p) => Some((p.x, p.y)),
            };
            assert!(set.contains(&shown), "class {c:?} not in its equivalents");
            let prev = got.insert((color, set), (c.count, c.black_wins, c.white_wins));
            assert!(prev.is_none(), "query {qi}: duplicate class {c:?}");
        }
        let want = &tallies[qi];
        let games_found: BTreeSet<u32> = index
            .find(&board)
            .map(|f| index.occurrences(&f).map(|o| o.game).collect())
            .unwrap_or_default();
        occurrences_total += want.total;
        if got != want.classes || nm.total() != want.total || games_found.len() != want.games.len()
        {
            failures.push(format!(
                "query {qi} ({}x{}, {} stones, symmetries {:?}):\n{}expected total {} in {} games: {:?}\ngot total {} in {} games: {:?}",
                q.w,
                q.h,
                q.stones(),
                syms[qi],
                show(q),
                want.total,
                want.games.len(),
                want.classes,
                nm.total(),
                games_found.len(),
                got
            ));
        }
    }
    eprintln!(
        "{} of {} queries agree ({} occurrences), {:.1?} in all",
        queries.len() - failures.len(),
        queries.len(),
        occurrences_total,
        t0.elapsed()
    );
    for f in failures.iter().take(5) {
        eprintln!("{f}");
    }
    assert!(failures.is_empty(), "{} queries disagree", failures.len());
}
