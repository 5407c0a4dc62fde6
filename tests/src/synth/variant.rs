//! One synthetic game: a real game's opening under a board symmetry and maybe colour
//! exchange, continued with random legal moves, with made-up game information that names
//! where it came from.

use kifudex::sgf::{parse_result, GameInfo};
use kifudex_core::board::StonesOnly;
use kifudex_core::{Board, Color, Event, Move, Point, Rules, Size, Stone, Transform};

use super::rng::SplitMix64;
use super::sources::SourceGame;

/// The fewest source moves a game keeps (fewer when the source is shorter).
pub const MIN_PREFIX: u64 = 10;
/// The most source moves a game keeps.
pub const MAX_PREFIX: u64 = 150;
/// The fewest random moves after the kept opening (unless nothing legal is left).
pub const MIN_RANDOM: usize = 10;
/// The most moves of a game, passes included.
pub const MAX_MOVES: usize = 400;

/// How a synthetic game was made from its source.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// The game's number in the run (0-based; also its order in the archives).
    pub index: u64,
    /// Which try this is (a try whose game equals an earlier game of the run is replaced
    /// by the next).
    pub attempt: u32,
    /// The source game's index in [`super::Sources::games`].
    pub source: usize,
    /// The symmetry applied to the source's events.
    pub transform: Transform,
    /// Whether Black and White were exchanged.
    pub swapped: bool,
    /// How many of the source's moves are kept (its setup before them included); random
    /// moves follow.
    pub prefix_moves: usize,
}

/// A synthetic game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SynthGame {
    /// How it was made.
    pub variant: Variant,
    /// The board size (the source's).
    pub size: Size,
    /// The game information written to its SGF.
    pub info: GameInfo,
    /// Setup and moves.
    pub events: Vec<Event>,
}

/// The symmetries of a board of `size` with and without colour exchange: 16 on a square
/// board, 8 on a rectangular one.
pub fn symmetries(size: Size) -> impl Iterator<Item = (Transform, bool)> {
    Transform::all_for(size)
        .iter()
        .flat_map(|&t| [(t, false), (t, true)])
}

/// `e` under `t`, colours exchanged if `swap`.
pub fn transform_event(e: Event, t: Transform, swap: bool, size: Size) -> Option<Event> {
    let point = |p: Point| t.apply(p, size);
    Some(match e {
        Event::Setup { point: p, stone } => Event::Setup {
            point: point(p)?,
            stone: if swap { stone.swapped() } else { stone },
        },
        Event::Play { color, mv } => Event::Play {
            color: if swap { color.opponent() } else { color },
            mv: match mv {
                Move::Play(p) => Move::Play(point(p)?),
                Move::Pass => Move::Pass,
            },
        },
    })
}

/// Makes the game `v` describes (the variant's numbers must be valid for `src`): the first
/// `prefix_moves` moves of `src` under its symmetry, then random legal moves drawn from
/// `rng` (never a suicide, a ko recapture, or a stone in a one-point eye of the mover's
/// own colour) up to a length drawn around the source's (at least [`MIN_RANDOM`] random
/// moves, at most [`MAX_MOVES`] in all). When the side to move has nothing left to play,
/// both sides pass and the game ends, scored by area; otherwise it ends by resignation.
///
/// `None` if the source does not replay under the standard rules (never for a
/// [`super::Sources`] game).
pub fn make(src: &SourceGame, v: Variant, rng: &mut SplitMix64) -> Option<SynthGame> {
    let size = src.size;
    let mut board = Board::<StonesOnly>::empty(size, Rules::STANDARD);
    let mut events = Vec::with_capacity(src.events.len().min(MAX_MOVES) + 8);
    let mut moves = 0usize;
    let mut last: Option<Color> = None;
    for &e in &src.events {
        // Up to the last kept move (the setup before the first move in any case).
        if moves == v.prefix_moves && (e.is_play() || moves > 0) {
            break;
        }
        let e = transform_event(e, v.transform, v.swapped, size)?;
        e.apply(&mut board).ok()?;
        if let Event::Play { color, .. } = e {
            moves += 1;
            last = Some(color);
        }
        events.push(e);
    }
    let first = if v.swapped {
        Color::White
    } else {
        Color::Black
    };
    let mut to_move = last.map_or(first, Color::opponent);

    // Around the source's length, with some random moves in any case.
    let around = (src.moves as u64 * rng.between(75, 125) / 100) as usize;
    let target = around.max(moves + MIN_RANDOM).min(MAX_MOVES);
    let mut candidates: Vec<Point> = Vec::with_capacity(size.points());
    let mut ended_by_passes = false;
    while moves < target {
        match random_move(&mut board, to_move, rng, &mut candidates) {
            Some(p) => {
                events.push(Event::Play {
                    color: to_move,
                    mv: Move::Play(p),
                });
                moves += 1;
                to_move = to_move.opponent();
            }
            None => {
                for _ in 0..2 {
                    if moves < MAX_MOVES {
                        events.push(Event::Play {
                            color: to_move,
                            mv: Move::Pass,
                        });
                        moves += 1;
                        to_move = to_move.opponent();
                    }
                }
                ended_by_passes = true;
                break;
            }
        }
    }
    let komi = src.komi.unwrap_or(650);
    let result = if ended_by_passes {
        let (b, w) = board.area_score();
        area_result(i64::from(b) * 100 - i64::from(w) * 100 - i64::from(komi))
    } else if rng.chance(1, 2) {
        "B+R".to_owned()
    } else {
        "W+R".to_owned()
    };
    let info = game_info(src, v, rng, komi, &result);
    Some(SynthGame {
        variant: v,
        size,
        info,
        events,
    })
}

/// `RE` for an area margin in hundredths of a point (Black's minus White's, komi
/// included).
fn area_result(margin: i64) -> String {
    let (who, m) = if margin >= 0 {
        ('B', margin)
    } else {
        ('W', -margin)
    };
    if m == 0 {
        return "0".to_owned();
    }
    let text = kifudex::sgf::write::komi_text(m as i32);
    let text = text.strip_suffix(".0").unwrap_or(&text).to_owned();
    format!("{who}+{text}")
}

/// Plays a random legal move of `color` on `board` and returns it: an empty point drawn
/// at random, skipped if it is a one-point eye of `color` (every neighbour on the board a
/// stone of `color`) or the board refuses it (suicide, ko), until one is played or none
/// is left.
fn random_move(
    board: &mut Board<StonesOnly>,
    color: Color,
    rng: &mut SplitMix64,
    candidates: &mut Vec<Point>,
) -> Option<Point> {
    candidates.clear();
    candidates.extend(board.empty_points().iter());
    while !candidates.is_empty() {
        let i = rng.below(candidates.len() as u64) as usize;
        let p = candidates.swap_remove(i);
        if is_own_eye(board, p, color) {
            continue;
        }
        if board.place(color, Move::Play(p)).is_ok() {
            return Some(p);
        }
    }
    None
}

/// Whether every neighbour of `p` on the board is a stone of `color`.
pub fn is_own_eye(board: &Board<StonesOnly>, p: Point, color: Color) -> bool {
    let size = board.size();
    let own = Stone::of(color);
    let (x, y) = (p.x, p.y);
    let neighbours = [
        (x.wrapping_sub(1), y),
        (x + 1, y),
        (x, y.wrapping_sub(1)),
        (x, y + 1),
    ];
    neighbours
        .iter()
        .map(|&(x, y)| Point::new(x, y))
        .filter(|&q| size.contains(q))
        .all(|q| board.get(q) == own)
}

/// Family and given names the players are made of.
const FAMILY: [&str; 24] = [
    "Kim",
    "Lee",
    "Park",
    "Choi",
    "Cho",
    "Shin",
    "Wang",
    "Zhang",
    "Li",
    "Chen",
    "Liu",
    "Yang",
    "Huang",
    "Zhou",
    "Iyama",
    "Sato",
    "Suzuki",
    "Takahashi",
    "Tanaka",
    "Ito",
    "Watanabe",
    "Yamamoto",
    "Nakamura",
    "Kobayashi",
];
const GIVEN: [&str; 24] = [
    "Jinseo", "Sedol", "Changho", "Hoon", "Minjun", "Jiwoo", "Xinyi", "Hao", "Jie", "Yuxuan",
    "Tingyu", "Wei", "Ming", "Yuta", "Haruto", "Sota", "Yuto", "Ren", "Kaito", "Hina", "Aoi",
    "Sakura", "Yui", "Mei",
];
/// How many players the names are drawn from.
const PLAYERS: u64 = 20_000;

/// A player drawn with a skew (low numbers far more often, as a few players play most
/// games of a collection): a family name, a given name and, past the 576 plain names, a
/// number.
fn player(rng: &mut SplitMix64) -> String {
    let a = rng.below(PLAYERS);
    let b = rng.below(PLAYERS);
    let p = a * b / PLAYERS;
    let (f, g, n) = (
        p % FAMILY.len() as u64,
        (p / FAMILY.len() as u64) % GIVEN.len() as u64,
        p / (FAMILY.len() * GIVEN.len()) as u64,
    );
    let name = format!("{} {}", FAMILY[f as usize], GIVEN[g as usize]);
    if n == 0 {
        name
    } else {
        format!("{name} {n}")
    }
}

/// A rank from 1 kyu to 9 dan professional.
fn rank(rng: &mut SplitMix64) -> String {
    match rng.below(3) {
        0 => format!("{}k", rng.between(1, 9)),
        1 => format!("{}d", rng.between(1, 9)),
        _ => format!("{}p", rng.between(1, 9)),
    }
}

/// The game information: players and ranks, a date spread over 1950-2025, the result,
/// the komi, and a `GN` naming the source and the variant.
fn game_info(
    src: &SourceGame,
    v: Variant,
    rng: &mut SplitMix64,
    komi: i32,
    result: &str,
) -> GameInfo {
    let year = rng.between(1950, 2025) as u16;
    let date = format!("{year}-{:02}-{:02}", rng.between(1, 12), rng.between(1, 28));
    let black = player(rng);
    let mut white = player(rng);
    if white == black {
        white.push_str(" II");
    }
    GameInfo {
        black: Some(black),
        white: Some(white),
        black_rank: Some(rank(rng)),
        white_rank: Some(rank(rng)),
        date: Some(date),
        year: Some(year),
        result: Some(parse_result(result)),
        komi: Some(komi),
        game_name: Some(format!(
            "synthetic {}: {} t{}{} first {}",
            v.index,
            src.label,
            v.transform.index(),
            if v.swapped { " swapped" } else { "" },
            v.prefix_moves
        )),
        ..GameInfo::default()
    }
}
