//! `kifudex shapes`: local shape statistics of a collection, as the report on pattern
//! generation from game records (seed 001) tabulates them: the 3x3, diamond and 5x5
//! patterns around every played move, folded onto canonical forms ([`shape`]), with how
//! often each was played and how often it was there to be played; and the most frequent
//! opening sequences, folded under the 8 symmetries.
//!
//! Two passes over the games. The first counts every played move's pattern of each shape
//! (exact codes, keyed by board size) and every game's opening. The second counts, for the
//! reported patterns only, every empty point of every position (before each move, seen by
//! the player to move) whose pattern it is: the pattern was *available* there.

pub mod shape;

use rustc_hash::FxHashMap as HashMap;

use rayon::prelude::*;

use kifudex_core::event::Event;
use kifudex_core::notation::Sgf;
use kifudex_core::{Color, Move, Point, Size, Stone, Transform};

use kifudex_core::stored::StoredGame;

use crate::predict::games::each_position;
use shape::{Shape, Window};

/// What to count and report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeOptions {
    /// Patterns reported per shape (the most played).
    pub top: usize,
    /// Moves of an opening sequence.
    pub opening_moves: usize,
    /// Opening sequences reported.
    pub openings: usize,
    /// Count only the moves before this move number of each game (`None`: all).
    pub max_moves: Option<usize>,
}

impl Default for ShapeOptions {
    fn default() -> Self {
        ShapeOptions {
            top: 20,
            opening_moves: 10,
            openings: 10,
            max_moves: None,
        }
    }
}

/// One pattern's counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternCount {
    /// The board size it was seen on.
    pub size: Size,
    /// Its canonical code ([`shape`]).
    pub code: u64,
    /// Moves played at its centre.
    pub played: u64,
    /// Empty points where it stood before a move, for the player to move.
    pub available: u64,
}

/// The patterns of one shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeStats {
    /// The shape.
    pub shape: Shape,
    /// Distinct patterns played (board sizes apart).
    pub distinct: usize,
    /// The most played, most first (ties by board size and code).
    pub top: Vec<PatternCount>,
}

/// One opening sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The board size.
    pub size: Size,
    /// The setup stones before the first move (handicap), canonical orientation.
    pub setup: Vec<(Point, Stone)>,
    /// The moves, canonical orientation.
    pub moves: Vec<(Color, Move)>,
    /// Games that opened so (in any orientation).
    pub count: u64,
    /// The named whole-board opening the sequence passes through (the last of its
    /// positions that [`kifudex_core::opening`] names), if any.
    pub name: Option<&'static str>,
}

/// The last position of a sequence (its moves) that has a named opening; none when the
/// sequence starts from setup stones (a handicap game is not a named opening).
fn opening_name(
    size: Size,
    setup: &[(Point, Stone)],
    moves: &[(Color, Move)],
) -> Option<&'static str> {
    if !setup.is_empty() {
        return None;
    }
    let mut board = kifudex_core::Board::new(size);
    for &(p, s) in setup {
        board.set_stone(p, s).ok()?;
    }
    let mut name = kifudex_core::opening::of_board(&board).map(|n| n.opening.name);
    for &(c, m) in moves {
        if board.play(c, m).is_err() {
            break;
        }
        if let Some(n) = kifudex_core::opening::of_board(&board) {
            name = Some(n.opening.name);
        }
    }
    name
}

/// Everything `kifudex shapes` reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Games read.
    pub games: usize,
    /// Played moves counted (passes not).
    pub moves: u64,
    /// Per shape, in [`Shape::ALL`] order.
    pub shapes: Vec<ShapeStats>,
    /// Moves of an opening sequence.
    pub opening_moves: usize,
    /// Games with at least that many moves.
    pub opening_games: u64,
    /// Distinct opening sequences.
    pub distinct_openings: usize,
    /// The most frequent, most first.
    pub openings: Vec<Opening>,
}

/// A board size as 10 bits.
fn size_code(size: Size) -> u64 {
    (size.width() as u64) << 5 | size.height() as u64
}

fn size_of_code(c: u64) -> Size {
    Size::new((c >> 5) as u8 & 31, c as u8 & 31).unwrap_or(Size::STANDARD)
}

/// A key of (board size, shape, 50-bit code).
fn key(size: Size, shape: Shape, code: u64) -> u64 {
    size_code(size) << 52 | (shape as u64) << 50 | code
}

/// The canonical opening of a game: its root setup and first `n` moves under the transform
/// that makes them smallest; `None` for a game with fewer moves.
fn opening<G: StoredGame>(game: &G, n: usize) -> Option<(u64, Vec<u16>, Vec<u16>)> {
    let mut setup = Vec::new();
    let mut moves = Vec::new();
    for ev in game.events() {
        match ev {
            Event::Setup { point, stone } if moves.is_empty() => setup.push((point, stone)),
            Event::Setup { .. } => {}
            Event::Play { color, mv } => {
                if moves.len() == n {
                    break;
                }
                moves.push((color, mv));
            }
        }
    }
    if moves.len() < n {
        return None;
    }
    let size = game.size();
    Transform::all_for(size)
        .iter()
        .map(|&t| {
            let mv = |m: Move| match m {
                Move::Play(p) => t.apply(p, size).map_or(Move::Pass, Move::Play),
                Move::Pass => Move::Pass,
            };
            let m: Vec<u16> = moves
                .iter()
                .map(|&(c, m)| mv(m).code() | (c.index() as u16) << 9)
                .collect();
            let mut s: Vec<u16> = setup
                .iter()
                .filter_map(|&(p, st)| {
                    t.apply(p, size)
                        .map(|q| q.index19() | (st.code() as u16) << 9)
                })
                .collect();
            s.sort_unstable();
            (size_code(size), m, s)
        })
        .min()
}

fn merge(a: HashMap<u64, u64>, b: HashMap<u64, u64>) -> HashMap<u64, u64> {
    let (mut big, small) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    for (k, v) in small {
        *big.entry(k).or_default() += v;
    }
    big
}

/// Counts the patterns and openings of `games`.
pub fn collect<G: StoredGame + Sync>(games: &[G], opts: &ShapeOptions) -> Stats {
    let limit = opts.max_moves.unwrap_or(usize::MAX);
    // Pass 1: played patterns.
    let (played, moves) = games
        .par_iter()
        .fold(
            || (HashMap::<u64, u64>::default(), 0u64),
            |(mut counts, mut moves), g| {
                each_position(g, |n, board, _, color, mv| {
                    let Move::Play(p) = mv else { return };
                    if n >= limit {
                        return;
                    }
                    moves += 1;
                    let code5 = Window::new(board, color).code5(p);
                    for s in Shape::ALL {
                        let c = shape::canonical(code5 & s.mask());
                        *counts.entry(key(board.size(), s, c)).or_default() += 1;
                    }
                });
                (counts, moves)
            },
        )
        .reduce(
            || (HashMap::default(), 0),
            |a, b| (merge(a.0, b.0), a.1 + b.1),
        );
    // The most played of each shape.
    let mut by_shape: Vec<Vec<(u64, u64)>> = vec![Vec::new(); Shape::ALL.len()];
    for (&k, &n) in &played {
        by_shape[((k >> 50) & 3) as usize].push((k, n));
    }
    let mut shapes = Vec::new();
    for (s, mut list) in Shape::ALL.iter().zip(by_shape) {
        let distinct = list.len();
        list.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        list.truncate(opts.top);
        shapes.push(ShapeStats {
            shape: *s,
            distinct,
            top: list
                .into_iter()
                .map(|(k, n)| PatternCount {
                    size: size_of_code(k >> 52),
                    code: k & ((1 << 50) - 1),
                    played: n,
                    available: 0,
                })
                .collect(),
        });
    }
    // Pass 2: where the reported patterns were available.
    let mut wanted: HashMap<u64, (usize, usize)> = HashMap::default();
    for (si, s) in shapes.iter().enumerate() {
        for (pi, pc) in s.top.iter().enumerate() {
            for v in shape::variants(pc.code) {
                wanted.insert(key(pc.size, s.shape, v), (si, pi));
            }
        }
    }
    let sizes: Vec<Size> = {
        let mut v: Vec<Size> = shapes
            .iter()
            .flat_map(|s| s.top.iter().map(|p| p.size))
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let zero = || -> Vec<Vec<u64>> { shapes.iter().map(|s| vec![0u64; s.top.len()]).collect() };
    let avail = games
        .par_iter()
        .fold(zero, |mut acc, g| {
            if !sizes.contains(&g.size()) {
                return acc;
            }
            each_position(g, |n, board, _, color, mv| {
                if n >= limit || mv == Move::Pass {
                    return;
                }
                let w = Window::new(board, color);
                for p in board.empty_points().iter() {
                    let code5 = w.code5(p);
                    for s in Shape::ALL {
                        if let Some(&(si, pi)) = wanted.get(&key(board.size(), s, code5 & s.mask()))
                        {
                            acc[si][pi] += 1;
                        }
                    }
                }
            });
            acc
        })
        .reduce(zero, |mut a, b| {
            for (x, y) in a.iter_mut().zip(b) {
                for (u, v) in x.iter_mut().zip(y) {
                    *u += v;
                }
            }
            a
        });
    for (s, counts) in shapes.iter_mut().zip(avail) {
        for (pc, n) in s.top.iter_mut().zip(counts) {
            pc.available = n;
        }
    }
    // Openings.
    let n = opts.opening_moves;
    let mut open: HashMap<(u64, Vec<u16>, Vec<u16>), u64> = HashMap::default();
    let mut opening_games = 0;
    for g in games {
        if let Some(k) = opening(g, n) {
            opening_games += 1;
            *open.entry(k).or_default() += 1;
        }
    }
    let distinct_openings = open.len();
    let mut open: Vec<_> = open.into_iter().collect();
    open.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    open.truncate(opts.openings);
    let openings = open
        .into_iter()
        .map(|((sc, m, s), count)| {
            let size = size_of_code(sc);
            let setup: Vec<(Point, Stone)> = s
                .iter()
                .filter_map(|&v| {
                    let st = Stone::from_code((v >> 9) as u8).unwrap_or(Stone::Empty);
                    Point::from_index19(v & 0x1ff).map(|p| (p, st))
                })
                .collect();
            let moves: Vec<(Color, Move)> = m
                .iter()
                .filter_map(|&v| {
                    let c = if v >> 9 == 1 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    Move::from_code(v & 0x1ff).map(|mv| (c, mv))
                })
                .collect();
            Opening {
                name: opening_name(size, &setup, &moves),
                size,
                setup,
                moves,
                count,
            }
        })
        .collect();
    Stats {
        games: games.len(),
        moves,
        shapes,
        opening_moves: n,
        opening_games,
        distinct_openings,
        openings,
    }
}

/// An opening as SGF nodes: `AB[dd][pp];W[pd];B[dp]...` (setup first when there is one).
pub fn opening_sgf(o: &Opening) -> String {
    let mut s = String::new();
    for (prop, stone) in [
        ("AB", Stone::Black),
        ("AW", Stone::White),
        ("AE", Stone::Empty),
    ] {
        let pts: Vec<String> = o
            .setup
            .iter()
            .filter(|(_, st)| *st == stone)
            .map(|(p, _)| format!("[{}]", Sgf(Move::Play(*p))))
            .collect();
        if !pts.is_empty() {
            s += &format!(";{prop}{}", pts.concat());
        }
    }
    for (c, m) in &o.moves {
        let v = match m {
            Move::Pass => String::new(),
            Move::Play(_) => Sgf(*m).to_string(),
        };
        s += &format!(";{}[{v}]", c.letter());
    }
    s
}
