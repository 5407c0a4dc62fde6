//! The physical timeline of a game played on an electronic board ([`timeline`]): what lies
//! on the board, what covers it and what its sensors misread, in milliseconds, and the
//! buttons pressed. [`super::render`] turns one timeline into the snapshot streams of boards
//! of different cadences, so that they describe the same physical states.
//!
//! Per move, in time: an idle moment (sometimes a hand over the board hiding up to three
//! stones, or a stone lifted and put back); the stone placed (sometimes first on a
//! neighbouring point, slid into place a moment later); the stones it captures lifted one
//! at a time with human delays. Throughout, a point's sensor may misread it for 10 to 99 ms
//! (flicker). And the cases a player's hands make:
//!
//! - a **throw-in or retake** on a point a capture just emptied, placed right after that
//!   point's stone is lifted, before the capture's other stones are (or within 40 ms of
//!   the last of them);
//! - **both players moving between two readings**: a move, its captured stones lifted and the
//!   reply placed at one instant;
//! - **a `fix` ignored**: a captured stone left on the board while play goes on for one
//!   to three moves, then lifted;
//! - with [`Protocol::Full`]: **passes** (the `pass` button), **takebacks** (a move, the
//!   same as the game's or another, its captures lifted, then `undo`, its stone lifted and
//!   its captures put back one by one, then the game's move), **handicap stones** placed
//!   one by one in any order after `new N handicap K`, **dead stones** taken off after two
//!   passes ending the game, and games on 9x9 and 13x13 boards (`new 9`).

use kifudex_core::board::{Board, Rules, StonesOnly};
use kifudex_core::{Color, Event, Move, Point, PointSet, Size, Stone};

use super::{place_setup_stone, NoiseCount, Rng, Trackable};

/// A game as a board in players' hands can show it: handicap stones placed one by one, or
/// other setup stones on the board at the start, then moves of alternating colours (passes
/// included), each legal under simple ko without suicide, none after two passes in a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The board size (9x9, 13x13 or 19x19).
    pub size: Size,
    /// A handicap: Black's stones placed before White's first move (2 to 9 of them).
    pub handicap: Vec<Point>,
    /// Other setup stones, on the board at the first snapshot.
    pub setup: Vec<(Point, Color)>,
    /// The moves.
    pub moves: Vec<(Color, Move)>,
}

impl Game {
    /// The main line of a record as a board in players' hands shows it, or why it cannot:
    /// a size other than 9, 13 or 19, a setup stone after the first move, colours not
    /// alternating, a move the rules of a `moves` request refuse, a move after two passes
    /// in a row, setup stones on a small board or with a first mover the tracker's rule
    /// cannot be told.
    pub fn of(size: Size, events: &[Event]) -> Result<Game, &'static str> {
        let w = size.width();
        if size.height() != w || ![9, 13, 19].contains(&w) {
            return Err("a board size other than 9, 13 or 19");
        }
        let mut setup: Vec<(Point, Color)> = Vec::new();
        let mut moves: Vec<(Color, Move)> = Vec::new();
        let mut board: Board<StonesOnly> = Board::empty(size, Rules::STANDARD);
        for e in events {
            match *e {
                Event::Setup { point, stone } => {
                    let c = place_setup_stone(&mut board, !moves.is_empty(), point, stone)?;
                    setup.push((point, c));
                }
                Event::Play { color, mv } => {
                    if moves.last().is_some_and(|&(c, _)| c == color) {
                        return Err("two moves of one colour in a row");
                    }
                    let n = moves.len();
                    if n >= 2 && moves[n - 1].1 == Move::Pass && moves[n - 2].1 == Move::Pass {
                        return Err("a move after two passes in a row");
                    }
                    board
                        .play(color, mv)
                        .map_err(|_| "a move the rules refuse")?;
                    moves.push((color, mv));
                }
            }
        }
        let first = moves.first().map(|m| m.0);
        let all_black = !setup.is_empty() && setup.iter().all(|s| s.1 == Color::Black);
        if all_black && (2..=9).contains(&setup.len()) && first != Some(Color::Black) {
            let handicap = setup.iter().map(|s| s.0).collect();
            return Ok(Game {
                size,
                handicap,
                setup: Vec::new(),
                moves,
            });
        }
        if setup.is_empty() {
            if first == Some(Color::White) {
                return Err("White moves first on an empty board");
            }
        } else if w != 19 {
            return Err("setup stones on a small board");
        } else if all_black && first == Some(Color::Black) {
            return Err("Black moves first after black setup stones");
        }
        Ok(Game {
            size,
            handicap: Vec::new(),
            setup,
            moves,
        })
    }

    /// A game of the legacy generator's kind (setup stones shown at the start, no passes).
    pub fn from_trackable(t: &Trackable) -> Game {
        Game {
            size: t.size,
            handicap: Vec::new(),
            setup: t.setup.clone(),
            moves: t.moves.iter().map(|&(c, p)| (c, Move::Play(p))).collect(),
        }
    }

    /// The setup of the record: the handicap stones (black) and the other setup stones.
    pub fn all_setup(&self) -> Vec<(Point, Color)> {
        let mut v: Vec<(Point, Color)> = self.handicap.iter().map(|&p| (p, Color::Black)).collect();
        v.extend(&self.setup);
        v
    }

    /// The side the first snapshot of a setup shown at the start must name: the first
    /// mover when the tracker's rule (White after black stones only, else Black when both
    /// colours have as many stones, else White) would not give it.
    pub fn named_first(&self, setup: &[(Point, Color)]) -> Option<Color> {
        let black = setup.iter().filter(|s| s.1 == Color::Black).count();
        let by_rule = if black * 2 == setup.len() {
            Color::Black
        } else {
            Color::White
        };
        match self.moves.first() {
            Some(&(c, _)) if c != by_rule => Some(c),
            _ => None,
        }
    }

    /// Whether the game ends with two passes in a row (then dead stones are taken off).
    pub fn ends_with_two_passes(&self) -> bool {
        let n = self.moves.len();
        n >= 2 && self.moves[n - 1].1 == Move::Pass && self.moves[n - 2].1 == Move::Pass
    }
}

/// Which request lines a board sends besides `board`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// `board` lines only: a setup (handicap stones too) shown on the first snapshot, no
    /// passes (a game with one is not for this protocol: its passes are left out), no
    /// takebacks.
    Today,
    /// `new N [handicap K]` first, `pass` and `undo` buttons, handicap stones placed one by
    /// one, dead stones taken off after two passes.
    Full,
}

/// How often each kind of noise comes, per mille (of the moves, or of the moves where it
/// can happen).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Noise {
    /// Flickers started per move.
    pub flicker: usize,
    /// A stone lifted and put back before a move.
    pub lift: usize,
    /// A hand over the board before a move.
    pub hand: usize,
    /// A stone placed first on a neighbouring point.
    pub slide: usize,
    /// A move on a point the previous move's capture emptied made at once.
    pub throw_in: usize,
    /// A move and the reply between two readings.
    pub lost_reading: usize,
    /// A captured stone of a capture left on the board for one to three moves.
    pub ignored_fix: usize,
    /// A takeback before a move ([`Protocol::Full`]).
    pub takeback: usize,
}

impl Noise {
    /// The noise of the issue that asked for a tracker of any cadence: flicker, a hand
    /// over the board, stones lifted and put back, slid stones, captured stones lifted one
    /// at a time, a throw-in at once where the game plays one.
    pub const ISSUE: Noise = Noise {
        flicker: 150,
        lift: 30,
        hand: 30,
        slide: 50,
        throw_in: 1000,
        lost_reading: 0,
        ignored_fix: 0,
        takeback: 0,
    };

    /// Every kind.
    pub const ALL: Noise = Noise {
        flicker: 150,
        lift: 30,
        hand: 30,
        slide: 50,
        throw_in: 700,
        lost_reading: 15,
        ignored_fix: 100,
        takeback: 10,
    };
}

/// What happens at one moment.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A stone placed (`Black`, `White`) or lifted (`Empty`).
    Stone(Point, Stone),
    /// The point's sensor misreads it as this stone from now on (`Some`), or reads it
    /// right again (`None`).
    Misread(Point, Option<Stone>),
    /// A hand comes over a point (`true`: a stone there reads empty) or leaves it.
    Hand(Point, bool),
    /// A button pressed: the request line it sends (`pass`, `undo`).
    Button(&'static str),
}

/// A change and its time.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimedChange {
    /// Milliseconds since the board started.
    pub t: u32,
    /// What changed.
    pub change: Change,
}

/// A game played on a board, in time (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeline {
    /// The board size.
    pub size: Size,
    /// The lines sent before the first snapshot (`new 19 handicap 4`).
    pub start: Vec<String>,
    /// The stones on the board at time 0 (row by row).
    pub initial: Vec<Stone>,
    /// The side the first snapshot names.
    pub named: Option<Color>,
    /// The changes, in time order (changes of one moment in the order they happen).
    pub changes: Vec<TimedChange>,
    /// When each move of the game begins (its stone first touches the board, its pass is
    /// pressed), after any takeback before it.
    pub move_at: Vec<u32>,
    /// For each move, the noise counted before it (the noise made while move `i` is played,
    /// its captures lifted, and the next move forced to come at once, is `noise_before[i +
    /// 1]` (or `noise`) less `noise_before[i]`).
    pub noise_before: Vec<NoiseCount>,
    /// When the game is over and the board quiet.
    pub end: u32,
    /// What the timeline holds besides plain moves.
    pub noise: NoiseCount,
}

/// Builds a timeline: the changes in the order they are made, sorted by time at the end.
struct Gen {
    size: Size,
    rng: Rng,
    changes: Vec<TimedChange>,
    /// The stones on the board as last placed (whatever the time order of the calls).
    phys: Vec<Stone>,
    /// Until when each point's sensor misreads it.
    flicker_until: Vec<u32>,
    noise: NoiseCount,
}

impl Gen {
    fn at(&self, p: Point) -> usize {
        p.y as usize * self.size.width() as usize + p.x as usize
    }

    fn point(&self, i: usize) -> Point {
        let w = self.size.width() as usize;
        Point::new((i % w) as u8, (i / w) as u8)
    }

    fn put(&mut self, t: u32, p: Point, s: Stone) {
        let i = self.at(p);
        self.phys[i] = s;
        self.changes.push(TimedChange {
            t,
            change: Change::Stone(p, s),
        });
    }

    fn push(&mut self, t: u32, change: Change) {
        self.changes.push(TimedChange { t, change });
    }

    /// Maybe a flicker starting between `from` and `to`.
    fn flicker(&mut self, per_mille: usize, from: u32, to: u32) {
        if !self.rng.chance(per_mille) || to <= from {
            return;
        }
        let t = self.rng.range(from, to - 1);
        let i = self.rng.below(self.phys.len());
        if self.flicker_until[i] >= t {
            return;
        }
        let reads = match (self.phys[i], self.rng.below(2)) {
            (Stone::Empty, 0) => Stone::Black,
            (Stone::Empty, _) => Stone::White,
            (s, 0) => s.swapped(),
            _ => Stone::Empty,
        };
        let d = self.rng.range(10, 99);
        let p = self.point(i);
        self.push(t, Change::Misread(p, Some(reads)));
        self.push(t + d, Change::Misread(p, None));
        self.flicker_until[i] = t + d;
        self.noise.flickers += 1;
    }

    /// Lifts `stones` one at a time from `t` on (`first` first, `last` last if given);
    /// returns when the last one was lifted and when `first` was.
    fn lift(
        &mut self,
        t: u32,
        stones: &[Point],
        first: Option<Point>,
        last: Option<Point>,
    ) -> (u32, u32) {
        let mut order: Vec<Point> = stones
            .iter()
            .copied()
            .filter(|&p| Some(p) != first && Some(p) != last)
            .collect();
        for k in (1..order.len()).rev() {
            order.swap(k, self.rng.below(k + 1));
        }
        if let Some(p) = first.filter(|p| stones.contains(p)) {
            order.insert(0, p);
        }
        if let Some(p) = last.filter(|p| stones.contains(p)) {
            order.push(p);
        }
        let mut t = t + self.rng.range(200, 600);
        let mut first_at = t;
        for (k, &p) in order.iter().enumerate() {
            if k > 0 {
                t += self.rng.range(150, 450);
            }
            if Some(p) == first {
                first_at = t;
            }
            self.put(t, p, Stone::Empty);
        }
        (t, first_at)
    }

    /// The stones on the board.
    fn stones(&self) -> Vec<Point> {
        (0..self.phys.len())
            .filter(|&i| self.phys[i] != Stone::Empty)
            .map(|i| self.point(i))
            .collect()
    }
}

/// The timeline of `game` with the noise of `seed` (see the module documentation).
pub fn timeline(game: &Game, seed: u64, protocol: Protocol, noise: &Noise) -> Timeline {
    let size = game.size;
    let w = size.width();
    let full = protocol == Protocol::Full;
    let mut g = Gen {
        size,
        rng: Rng::new(seed),
        changes: Vec::new(),
        phys: vec![Stone::Empty; size.points()],
        flicker_until: vec![0; size.points()],
        noise: NoiseCount::default(),
    };
    let mut board: Board<StonesOnly> = Board::empty(size, Rules::STANDARD);
    // The setup shown at the start, and the handicap stones placed one by one.
    let shown: Vec<(Point, Color)> = if full {
        game.setup.clone()
    } else {
        game.all_setup()
    };
    for &(p, c) in &shown {
        let i = g.at(p);
        g.phys[i] = Stone::of(c);
        let _ = board.set_stone(p, Stone::of(c));
    }
    let initial = g.phys.clone();
    // After `new N handicap K` the tracker knows White moves after the handicap stones.
    let named = if full && !game.handicap.is_empty() {
        None
    } else {
        game.named_first(&shown)
    };
    let mut start = Vec::new();
    let mut now = 0u32;
    if full {
        start.push(if !game.handicap.is_empty() {
            format!("new {w} handicap {}", game.handicap.len())
        } else if !game.setup.is_empty() {
            "new".to_string()
        } else {
            format!("new {w}")
        });
        let mut order = game.handicap.clone();
        for k in (1..order.len()).rev() {
            order.swap(k, g.rng.below(k + 1));
        }
        for p in order {
            now += g.rng.range(300, 1200);
            g.flicker(noise.flicker, now.saturating_sub(300), now + 300);
            g.put(now, p, Stone::Black);
            let _ = board.set_stone(p, Stone::Black);
            g.noise.handicap_stones += 1;
        }
    }
    let moves = &game.moves;
    let mut move_at = Vec::with_capacity(moves.len());
    let mut noise_before = Vec::with_capacity(moves.len());
    // A move's time fixed by the one before (a throw-in, a lost reading).
    let mut next_at: Option<u32> = None;
    // A captured stone left on the board, lifted before move `.1`.
    let mut left: Option<(Point, usize)> = None;
    let played_soon = |from: usize, to: usize, p: Point| {
        moves
            .iter()
            .take(to)
            .skip(from)
            .any(|&(_, m)| m == Move::Play(p))
    };
    for (i, &(color, mv)) in moves.iter().enumerate() {
        if mv == Move::Pass && !full {
            continue;
        }
        noise_before.push(g.noise);
        let forced = next_at.take();
        let mut t = match forced {
            Some(t) => t,
            None => now + g.rng.range(250, 1200),
        };
        if let Some((p, _)) = left.filter(|l| l.1 <= i) {
            // The ignored fix done at last (at the moment of a move that comes at once).
            g.put(t, p, Stone::Empty);
            if forced.is_none() {
                t += g.rng.range(200, 600);
            }
            left = None;
        }
        if forced.is_none() {
            let stones: Vec<Point> = g
                .stones()
                .into_iter()
                .filter(|&q| left.is_none_or(|(p, _)| p != q))
                .collect();
            if i > 0 && !stones.is_empty() && g.rng.chance(noise.lift) {
                let q = stones[g.rng.below(stones.len())];
                let s = g.phys[g.at(q)];
                let d = g.rng.range(200, 800);
                g.put(t, q, Stone::Empty);
                g.put(t + d, q, s);
                g.noise.lifts += 1;
                t += d + g.rng.range(150, 400);
            } else if i > 0 && g.rng.chance(noise.hand) {
                let centre = match mv {
                    Move::Play(p) => p,
                    Move::Pass => stones.first().copied().unwrap_or(Point::new(0, 0)),
                };
                let mut near: Vec<Point> = stones
                    .iter()
                    .copied()
                    .filter(|q| q.x.abs_diff(centre.x) <= 1 && q.y.abs_diff(centre.y) <= 1)
                    .collect();
                for k in (1..near.len()).rev() {
                    near.swap(k, g.rng.below(k + 1));
                }
                near.truncate(3);
                let d = g.rng.range(150, 600);
                for &q in &near {
                    g.push(t, Change::Hand(q, true));
                    g.push(t + d, Change::Hand(q, false));
                }
                g.noise.hands += 1;
                t += d + g.rng.range(150, 400);
            }
            if let (true, Move::Play(p), None) = (full, mv, left) {
                if g.rng.chance(noise.takeback) {
                    t = takeback(&mut g, &board, t, color, p);
                }
            }
        }
        g.flicker(noise.flicker, now, t + 300);
        move_at.push(t);
        let Move::Play(p) = mv else {
            g.push(t, Change::Button("pass"));
            let _ = board.play(color, mv);
            g.noise.passes += 1;
            now = now.max(t);
            continue;
        };
        let mut placed = t;
        if forced.is_none() && g.rng.chance(noise.slide) {
            let near = [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)]
                .into_iter()
                .map(|(dx, dy)| (p.x as i32 + dx, p.y as i32 + dy))
                .filter(|&(x, y)| x >= 0 && y >= 0 && x < w as i32 && y < w as i32)
                .map(|(x, y)| Point::new(x as u8, y as u8))
                .find(|&q| g.phys[g.at(q)] == Stone::Empty);
            if let Some(q) = near {
                g.put(t, q, Stone::of(color));
                placed = t + g.rng.range(50, 250);
                g.put(placed, q, Stone::Empty);
                g.noise.slides += 1;
            }
        }
        g.put(placed, p, Stone::of(color));
        let captures: Vec<Point> = board
            .play(color, mv)
            .map(|c| c.points.iter().collect())
            .unwrap_or_default();
        now = now.max(placed);
        let next = moves.get(i + 1).map(|m| m.1);
        let next_point = match next {
            Some(Move::Play(q)) => Some(q),
            _ => None,
        };
        if forced.is_none()
            && next_point.is_some()
            && left.is_none()
            && g.rng.chance(noise.lost_reading)
        {
            // The reply comes before the next reading: the captured stones lifted and the
            // next stone placed at this very moment.
            for &q in &captures {
                g.put(placed, q, Stone::Empty);
            }
            g.noise.lost_readings += 1;
            next_at = Some(placed);
            continue;
        }
        if captures.is_empty() {
            continue;
        }
        g.noise.slow_captures += (captures.len() > 1) as usize;
        let throw_in = next_point.filter(|q| captures.contains(q));
        let mut leave = None;
        if throw_in.is_none() && left.is_none() && g.rng.chance(noise.ignored_fix) {
            let k = g.rng.range(1, 3) as usize;
            let c = captures[g.rng.below(captures.len())];
            let plays = moves
                .iter()
                .skip(i + 1)
                .take(k + 1)
                .all(|m| m.1 != Move::Pass);
            if plays && !played_soon(i + 1, i + 2 + k, c) {
                leave = Some(c);
                left = Some((c, i + 1 + k));
                g.noise.ignored_fixes += 1;
            }
        }
        let lifted: Vec<Point> = captures
            .iter()
            .copied()
            .filter(|&q| Some(q) != leave)
            .collect();
        match throw_in {
            Some(q) if g.rng.chance(noise.throw_in) => {
                g.noise.throw_ins += 1;
                if g.rng.below(2) == 0 {
                    // Before the capture's other stones are lifted.
                    let (end, first_at) = g.lift(placed, &lifted, Some(q), None);
                    next_at = Some(first_at + g.rng.range(0, 40));
                    now = now.max(end);
                } else {
                    // Right after the last of them.
                    let (end, _) = g.lift(placed, &lifted, None, Some(q));
                    next_at = Some(end + g.rng.range(0, 40));
                    now = now.max(end);
                }
            }
            _ => now = now.max(g.lift(placed, &lifted, None, None).0),
        }
    }
    if let Some((p, _)) = left {
        now += g.rng.range(300, 900);
        g.put(now, p, Stone::Empty);
    }
    if full && game.ends_with_two_passes() {
        // Dead stones taken off: up to two groups, a stone at a time.
        for _ in 0..1 + g.rng.below(2) {
            let stones = g.stones();
            if stones.is_empty() {
                break;
            }
            let s = stones[g.rng.below(stones.len())];
            let group = group_of(&board, s);
            let mut t = now + g.rng.range(500, 1500);
            for q in group.iter().take(15) {
                g.put(t, q, Stone::Empty);
                let _ = board.set_stone(q, Stone::Empty);
                g.noise.dead_stones += 1;
                t += g.rng.range(150, 400);
            }
            now = t;
        }
    }
    g.flicker(noise.flicker, now, now + 500);
    let end = now + g.rng.range(800, 1500);
    let mut changes = g.changes;
    changes.sort_by_key(|c| c.t);
    Timeline {
        size,
        start,
        initial,
        named,
        changes,
        move_at,
        noise_before,
        end,
        noise: g.noise,
    }
}

/// A takeback at `t` before the game's move `p` of `color`: a move (the game's, or another
/// legal one) with its captures lifted, `undo`, its stone lifted and its captures put back.
/// Returns when the board is back.
fn takeback(g: &mut Gen, board: &Board<StonesOnly>, t: u32, color: Color, p: Point) -> u32 {
    let mut x = p;
    if g.rng.below(2) == 0 {
        for _ in 0..20 {
            let i = g.rng.below(g.phys.len());
            let q = g.point(i);
            if q != p && g.phys[i] == Stone::Empty && board.is_legal(color, Move::Play(q)) {
                x = q;
                break;
            }
        }
    }
    let mut after = board.clone();
    let Ok(caps) = after.play(color, Move::Play(x)) else {
        return t;
    };
    let captured: Vec<Point> = caps.points.iter().collect();
    g.put(t, x, Stone::of(color));
    let (mut t, _) = if captured.is_empty() {
        (t, t)
    } else {
        g.lift(t, &captured, None, None)
    };
    t += g.rng.range(500, 1500);
    g.push(t, Change::Button("undo"));
    t += g.rng.range(200, 600);
    g.put(t, x, Stone::Empty);
    for q in captured {
        t += g.rng.range(200, 500);
        g.put(t, q, Stone::of(color.opponent()));
    }
    g.noise.takebacks += 1;
    t + g.rng.range(300, 900)
}

/// The stones of the group at `p` on `board`.
fn group_of(board: &Board<StonesOnly>, p: Point) -> PointSet {
    let size = board.size();
    let Some(c) = board.get(p).color() else {
        return PointSet::EMPTY;
    };
    let stones = *board.stones(c);
    let mut group = PointSet::single(p);
    loop {
        let grown = (group.neighbours(size) & stones) | group;
        if grown == group {
            return group;
        }
        group = grown;
    }
}
