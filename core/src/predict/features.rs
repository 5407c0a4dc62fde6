//! The features of a candidate move: what the predictor's weights are learnt for.
//!
//! [`Analysis::new`] looks at a position once, from the side of the player to move: a
//! padded grid of [`Cell`]s (so that a pattern near the edge reads off-board cells without
//! a bounds check), every group's liberties and stones, the ko point and what is known of
//! the last two moves. [`Analysis::features`] then describes each candidate point:
//!
//! | group | values |
//! |---|---|
//! | [`Group::Capture`] | the move captures: 1, 2-3 or 4+ stones; a plain capture, one that takes the stone just played, or one that saves an own group in atari |
//! | [`Group::Escape`] | an own group in atari beside the point gets 2 or 3+ liberties; the atari came from the last move or not |
//! | [`Group::SelfAtari`] | the new group has one liberty: a single stone or more |
//! | [`Group::Atari`] | an opponent group beside the point is left with one liberty: one stone or more |
//! | [`Group::DistLast`] | distance to the last move (2..=16, 17 for farther; unknown; a pass) |
//! | [`Group::DistBefore`] | the same for the move before it |
//! | [`Group::Edge`] | the point's lines from the two nearest edges |
//!
//! and, apart, the local patterns around the point ([`Analysis::pattern_keys`]: canonical
//! keys of sizes 0 to [`SIZES`]` - 1`, see [`super::shape`]).
//!
//! Everything is integer arithmetic on fixed arrays (about 3.7 KiB for an analysis); nothing
//! panics on any board.

use crate::board::{Board, Tracking};
use crate::point::{Color, Move, Point, Size, Stone, MAX_POINTS, MAX_SIDE};

use super::shape::{
    distance, Cell, INNER, MAX_REACH, OFFSETS, OFFSET_COUNT, PERM_BY_OFFSET, SIZES, SIZE_END,
    SIZE_SALT, ZOBRIST,
};

const PAD: usize = MAX_REACH as usize;
/// Side of the padded grid.
const GRID: usize = MAX_SIDE as usize + 2 * PAD;
const NO_GROUP: u16 = u16::MAX;

/// Grid index of each offset relative to the centre.
const DELTA: [i16; OFFSET_COUNT] = deltas();

const fn deltas() -> [i16; OFFSET_COUNT] {
    let mut d = [0i16; OFFSET_COUNT];
    let mut i = 0;
    while i < OFFSET_COUNT {
        d[i] = OFFSETS[i].1 as i16 * GRID as i16 + OFFSETS[i].0 as i16;
        i += 1;
    }
    d
}

/// Adds a cell (`Empty` adds nothing) whose offset has the images `perm` to the 8
/// transforms' hashes `h`.
#[inline(always)]
fn add(h: &mut [u64; 8], perm: &[u8; 8], cell: Cell) {
    if cell != Cell::Empty {
        let c = cell as usize;
        for (ht, &j) in h.iter_mut().zip(perm) {
            if let Some(z) = ZOBRIST.get(j as usize).and_then(|r| r.get(c)) {
                *ht ^= z;
            }
        }
    }
}

/// The smallest of 8 hashes.
#[inline]
fn min8(h: &[u64; 8]) -> u64 {
    let mut m = h[0];
    for &v in &h[1..] {
        if v < m {
            m = v;
        }
    }
    m
}

/// The canonical key of a size-`size` pattern whose smallest transform hash is `min`: the
/// size's salt mixed in, then rotated so that the low bits of the minimum (uniform; its
/// high bits lean towards zero) become the top bits a file splits keys by.
#[inline]
pub fn canonical_key(min: u64, size: usize) -> u64 {
    (min ^ SIZE_SALT.get(size).copied().unwrap_or(0)).rotate_left(32)
}

/// What is known of the moves that led to a position.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct History {
    /// The last move (the opponent's), `None` if unknown (a board snapshot).
    pub last: Option<Move>,
    /// The move before it (the player's own), `None` if unknown.
    pub before: Option<Move>,
}

/// The feature groups besides the pattern. A candidate has one value in each group;
/// value 0 is "none" (or, for the distances, "unknown").
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum Group {
    /// Captures.
    Capture = 0,
    /// Escapes from atari.
    Escape = 1,
    /// Self-atari.
    SelfAtari = 2,
    /// Atari.
    Atari = 3,
    /// Distance to the last move.
    DistLast = 4,
    /// Distance to the move before the last.
    DistBefore = 5,
    /// Lines from the edges.
    Edge = 6,
}

/// Number of [`Group`]s.
pub const GROUPS: usize = 7;

/// Every group, in order.
pub const ALL_GROUPS: [Group; GROUPS] = [
    Group::Capture,
    Group::Escape,
    Group::SelfAtari,
    Group::Atari,
    Group::DistLast,
    Group::DistBefore,
    Group::Edge,
];

/// Number of values of each group (value 0 included).
pub const GROUP_VALUES: [u8; GROUPS] = [10, 5, 3, 3, 18, 18, EDGE_VALUES];

/// Lines from the nearest edge counted (0-based; farther is the last).
const EDGE_NEAR: u8 = 6;
/// Lines from the second edge counted.
const EDGE_FAR: u8 = 9;
const EDGE_VALUES: u8 = edge_values();

const fn edge_values() -> u8 {
    // Pairs (a, b) with a <= b, a <= EDGE_NEAR, b <= EDGE_FAR.
    let mut n = 0;
    let mut a = 0;
    while a <= EDGE_NEAR {
        n += EDGE_FAR - a + 1;
        a += 1;
    }
    n
}

/// The edge value of a point on a board of `size`.
fn edge_value(p: Point, size: Size) -> u8 {
    let lx = p.x.min(size.width().saturating_sub(1).saturating_sub(p.x));
    let ly = p.y.min(size.height().saturating_sub(1).saturating_sub(p.y));
    let (a, b) = if lx <= ly { (lx, ly) } else { (ly, lx) };
    let a = a.min(EDGE_NEAR);
    let b = b.min(EDGE_FAR);
    // Values before row a: sum over a' < a of (EDGE_FAR - a' + 1).
    let mut v = 0u8;
    let mut i = 0;
    while i < a {
        v += EDGE_FAR - i + 1;
        i += 1;
    }
    v + (b - a)
}

/// The distance value of `p` from a move: 0 unknown, 1 a pass, else the distance capped
/// at 17.
fn dist_value(p: Point, mv: Option<Move>) -> u8 {
    match mv {
        None => 0,
        Some(Move::Pass) => 1,
        Some(Move::Play(q)) => {
            let d = distance(p.x as i32 - q.x as i32, p.y as i32 - q.y as i32);
            d.clamp(2, 17) as u8
        }
    }
}

/// The features of one candidate point (see the module documentation).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Features {
    /// Whether the player to move may play there (empty, not the ko point, not suicide).
    pub legal: bool,
    /// The value of each [`Group`] (index `Group as usize`).
    pub values: [u8; GROUPS],
}

/// A position seen by the player to move (see the module documentation).
#[derive(Clone, Debug)]
pub struct Analysis {
    size: Size,
    to_move: Color,
    grid: [u8; GRID * GRID],
    /// Group id of each point index `y * 19 + x`, [`NO_GROUP`] for an empty point.
    group_of: [u16; MAX_POINTS],
    /// Liberties of each group.
    libs: [u16; MAX_POINTS],
    /// Stones of each group.
    stones: [u16; MAX_POINTS],
    /// Whether each group is the player to move's.
    own: [bool; MAX_POINTS],
    ko: Option<Point>,
    history: History,
}

#[inline]
fn grid_index(p: Point) -> usize {
    (p.y as usize + PAD) * GRID + p.x as usize + PAD
}

impl Analysis {
    /// Looks at `board` for `to_move`, the last moves as far as `history` knows them.
    pub fn new<T: Tracking>(board: &Board<T>, to_move: Color, history: History) -> Analysis {
        let mut a = Analysis::empty();
        a.reset(board, to_move, history);
        a
    }

    /// An analysis of nothing (an empty 19x19 board, Black to move), to [`Analysis::reset`]
    /// in place.
    pub const fn empty() -> Analysis {
        Analysis {
            size: Size::STANDARD,
            to_move: Color::Black,
            grid: [Cell::Off as u8; GRID * GRID],
            group_of: [NO_GROUP; MAX_POINTS],
            libs: [0; MAX_POINTS],
            stones: [0; MAX_POINTS],
            own: [false; MAX_POINTS],
            ko: None,
            history: History {
                last: None,
                before: None,
            },
        }
    }

    /// [`Analysis::new`] in place (no second copy of the 3.7 KiB on a small stack).
    pub fn reset<T: Tracking>(&mut self, board: &Board<T>, to_move: Color, history: History) {
        let size = board.size();
        self.size = size;
        self.to_move = to_move;
        self.history = history;
        self.ko = board
            .ko()
            .and_then(|(p, c)| if c == to_move { Some(p) } else { None });
        self.grid.fill(Cell::Off as u8);
        self.group_of.fill(NO_GROUP);
        for y in 0..size.height() {
            for x in 0..size.width() {
                if let Some(c) = self.grid.get_mut(grid_index(Point::new(x, y))) {
                    *c = Cell::Empty as u8;
                }
            }
        }
        for (id, g) in board.groups().enumerate() {
            let libs = g.liberties.len() as u16;
            let own = g.color == to_move;
            if let (Some(l), Some(s), Some(o)) = (
                self.libs.get_mut(id),
                self.stones.get_mut(id),
                self.own.get_mut(id),
            ) {
                *l = libs;
                *s = g.stones.len() as u16;
                *o = own;
            }
            let cell = Cell::stone(own, libs) as u8;
            for p in g.stones.iter() {
                if let Some(slot) = self.group_of.get_mut(p.index19() as usize) {
                    *slot = id as u16;
                }
                if let Some(c) = self.grid.get_mut(grid_index(p)) {
                    *c = cell;
                }
            }
        }
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The player to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The history given.
    pub fn history(&self) -> History {
        self.history
    }

    /// The cell at `p` (off the board included).
    #[inline]
    fn cell_at(&self, p: Point) -> Cell {
        Cell::from_u8(self.grid.get(grid_index(p)).copied().unwrap_or(1))
    }

    /// The group at `p` (a point of the board), if a stone is there.
    #[inline]
    fn group_at(&self, p: Point) -> Option<usize> {
        match self.group_of.get(p.index19() as usize) {
            Some(&g) if g != NO_GROUP => Some(g as usize),
            _ => None,
        }
    }

    /// Whether group `g` is the player to move's.
    fn is_own_group(&self, g: usize) -> bool {
        self.own.get(g).copied().unwrap_or(false)
    }

    fn libs_of(&self, g: usize) -> u16 {
        self.libs.get(g).copied().unwrap_or(0)
    }

    fn stones_of(&self, g: usize) -> u16 {
        self.stones.get(g).copied().unwrap_or(0)
    }

    /// The canonical keys of the patterns around `p`, smallest size first: `f(size, key)`
    /// is called after each size and the computation stops when it returns `false` (a
    /// table that lacks a size lacks every larger one). The cells are read as the player
    /// to move sees them; `p` itself is not part of the pattern.
    pub fn pattern_keys(&self, p: Point, mut f: impl FnMut(usize, u64) -> bool) {
        let centre = grid_index(p) as isize;
        let cell_at = |d: i16| {
            let raw = self
                .grid
                .get((centre + d as isize) as usize)
                .copied()
                .unwrap_or(Cell::Off as u8);
            Cell::from_u8(raw)
        };
        // The 8 transforms' hashes; a cell at offset `i` adds `ZOBRIST[PERM[t][i]][state]`
        // to the hash of transform `t` (`PERM_BY_OFFSET[i]`: the 8 images side by side).
        let mut h = [0u64; 8];
        for (d, perm) in DELTA.iter().zip(&PERM_BY_OFFSET).take(INNER) {
            add(&mut h, perm, cell_at(*d));
        }
        if !f(0, canonical_key(min8(&h), 0)) {
            return;
        }
        let mut start = INNER;
        for (s, &end) in SIZE_END.iter().enumerate().take(SIZES).skip(1) {
            let deltas = DELTA.get(start..end).unwrap_or(&[]);
            let perms = PERM_BY_OFFSET.get(start..end).unwrap_or(&[]);
            for (d, perm) in deltas.iter().zip(perms) {
                add(&mut h, perm, cell_at(*d).outer());
            }
            start = end;
            if !f(s, canonical_key(min8(&h), s)) {
                return;
            }
        }
    }

    /// The features of the point `p` (on the board).
    pub fn features(&self, p: Point) -> Features {
        let mut out = Features::default();
        if !self.size.contains(p) || self.cell_at(p) != Cell::Empty || self.ko == Some(p) {
            return out;
        }
        let (w, h) = (self.size.width(), self.size.height());
        let mut nbrs: [Option<Point>; 4] = [None; 4];
        if p.x > 0 {
            nbrs[0] = Some(Point::new(p.x - 1, p.y));
        }
        if p.x + 1 < w {
            nbrs[1] = Some(Point::new(p.x + 1, p.y));
        }
        if p.y > 0 {
            nbrs[2] = Some(Point::new(p.x, p.y - 1));
        }
        if p.y + 1 < h {
            nbrs[3] = Some(Point::new(p.x, p.y + 1));
        }
        let last = match self.history.last {
            Some(Move::Play(q)) => self.group_at(q),
            _ => None,
        };
        let last_point = match self.history.last {
            Some(Move::Play(q)) => Some(q),
            _ => None,
        };
        // Distinct neighbouring groups.
        let mut seen: [u16; 4] = [NO_GROUP; 4];
        let mut empties = 0u8;
        let mut captured = 0u16;
        let mut takes_last = false;
        let mut own_libs_ok = false; // an own neighbour group keeps a liberty besides p
        let mut own_in_atari: [u16; 4] = [NO_GROUP; 4];
        let mut atari_stones = 0u16;
        let mut capture_groups: [u16; 4] = [NO_GROUP; 4];
        for (k, q) in nbrs.iter().enumerate() {
            let Some(q) = *q else { continue };
            let Some(g) = self.group_at(q) else {
                empties += 1;
                continue;
            };
            if seen.contains(&(g as u16)) {
                continue;
            }
            if let Some(s) = seen.get_mut(k) {
                *s = g as u16;
            }
            let libs = self.libs_of(g);
            let own = matches!(self.cell_at(q), Cell::Own1 | Cell::Own2 | Cell::Own3);
            if own {
                if libs >= 2 {
                    own_libs_ok = true;
                } else if let Some(s) = own_in_atari.get_mut(k) {
                    *s = g as u16;
                }
            } else if libs == 1 {
                captured += self.stones_of(g);
                if last == Some(g) {
                    takes_last = true;
                }
                if let Some(s) = capture_groups.get_mut(k) {
                    *s = g as u16;
                }
            } else if libs == 2 {
                atari_stones = atari_stones.max(self.stones_of(g));
            }
        }
        if empties == 0 && captured == 0 && !own_libs_ok {
            return out; // suicide
        }
        out.legal = true;

        // Liberties of the new group, exactly when they matter (few empty neighbours, or
        // an own group in atari to rescue).
        let rescue = own_in_atari.iter().any(|&g| g != NO_GROUP);
        // A lower bound first: the empty neighbours, and an own neighbour group's
        // liberties but `p`.
        let mut bound = empties as u16;
        for g in seen.iter().filter(|&&g| g != NO_GROUP) {
            let g = *g as usize;
            if self.is_own_group(g) {
                bound = bound.max(self.libs_of(g).saturating_sub(1));
            }
        }
        let new_libs = if bound >= 3 {
            3
        } else {
            self.libs_after(p, &nbrs)
        };

        let v = &mut out.values;
        if captured > 0 {
            let size_class = match captured {
                1 => 0,
                2 | 3 => 1,
                _ => 2,
            };
            let saves = capture_groups
                .iter()
                .any(|&g| g != NO_GROUP && self.touches_own_atari(g as usize));
            let kind = if takes_last {
                1
            } else if saves {
                2
            } else {
                0
            };
            v[Group::Capture as usize] = 1 + size_class + 3 * kind;
        }
        if rescue && new_libs >= 2 {
            let from_last = last_point.is_some_and(|lp| {
                own_in_atari
                    .iter()
                    .any(|&g| g != NO_GROUP && self.group_adjacent(g as usize, lp))
            });
            v[Group::Escape as usize] = 1 + (new_libs >= 3) as u8 + 2 * from_last as u8;
        }
        if new_libs == 1 {
            // The new group: the point and its own neighbour groups.
            let mut stones = 1u16;
            let mut counted: [u16; 4] = [NO_GROUP; 4];
            for (k, q) in nbrs.iter().enumerate() {
                if let Some(g) = q.and_then(|q| {
                    if matches!(self.cell_at(q), Cell::Own1 | Cell::Own2 | Cell::Own3) {
                        self.group_at(q)
                    } else {
                        None
                    }
                }) {
                    if !counted.contains(&(g as u16)) {
                        stones += self.stones_of(g);
                        if let Some(c) = counted.get_mut(k) {
                            *c = g as u16;
                        }
                    }
                }
            }
            v[Group::SelfAtari as usize] = if stones == 1 { 1 } else { 2 };
        }
        if atari_stones > 0 && new_libs >= 2 {
            v[Group::Atari as usize] = if atari_stones == 1 { 1 } else { 2 };
        }
        v[Group::DistLast as usize] = dist_value(p, self.history.last);
        v[Group::DistBefore as usize] = dist_value(p, self.history.before);
        v[Group::Edge as usize] = edge_value(p, self.size);
        out
    }

    /// Whether the (opponent) group `g` touches an own group in atari.
    fn touches_own_atari(&self, g: usize) -> bool {
        self.group_points(g).any(|q| {
            self.neighbours(q).any(|n| {
                matches!(self.cell_at(n), Cell::Own1)
                    && self.group_at(n).is_some_and(|h| self.libs_of(h) == 1)
            })
        })
    }

    /// Whether `p` is a stone of group `g` or next to one.
    fn group_adjacent(&self, g: usize, p: Point) -> bool {
        self.group_at(p) == Some(g) || self.neighbours(p).any(|n| self.group_at(n) == Some(g))
    }

    /// The points of group `g`.
    fn group_points(&self, g: usize) -> impl Iterator<Item = Point> + '_ {
        let w = self.size.width() as u16;
        let h = self.size.height() as u16;
        (0..w * h).filter_map(move |i| {
            let p = Point::new((i % w) as u8, (i / w) as u8);
            (self.group_at(p) == Some(g)).then_some(p)
        })
    }

    /// The neighbours of `p` on the board.
    fn neighbours(&self, p: Point) -> impl Iterator<Item = Point> {
        let (w, h) = (self.size.width(), self.size.height());
        [
            (p.x > 0).then(|| Point::new(p.x.wrapping_sub(1), p.y)),
            (p.x + 1 < w).then(|| Point::new(p.x + 1, p.y)),
            (p.y > 0).then(|| Point::new(p.x, p.y.wrapping_sub(1))),
            (p.y + 1 < h).then(|| Point::new(p.x, p.y + 1)),
        ]
        .into_iter()
        .flatten()
    }

    /// The liberties (capped at 3) of the group a stone of the player to move at `p` would
    /// form, its captures made.
    fn libs_after(&self, p: Point, nbrs: &[Option<Point>; 4]) -> u16 {
        // The new group's stones: p and its own neighbour groups; its liberties: their
        // empty neighbours, and the stones of captured groups next to them.
        let mut libs: heapless::Vec<u16, 4> = heapless::Vec::new();
        let mut own_groups: [u16; 4] = [NO_GROUP; 4];
        let mut captured_groups: [u16; 4] = [NO_GROUP; 4];
        for (k, q) in nbrs.iter().enumerate() {
            let Some(q) = *q else { continue };
            match self.group_at(q) {
                Some(g) if matches!(self.cell_at(q), Cell::Own1 | Cell::Own2 | Cell::Own3) => {
                    if let Some(s) = own_groups.get_mut(k) {
                        *s = g as u16;
                    }
                }
                Some(g) if self.libs_of(g) == 1 => {
                    if let Some(s) = captured_groups.get_mut(k) {
                        *s = g as u16;
                    }
                }
                _ => {}
            }
        }
        let is_member = |q: Point| {
            q == p
                || self
                    .group_at(q)
                    .is_some_and(|g| own_groups.contains(&(g as u16)))
        };
        let is_liberty = |q: Point| {
            q != p
                && match self.group_at(q) {
                    None => true,
                    Some(g) => captured_groups.contains(&(g as u16)),
                }
        };
        let add = |q: Point, libs: &mut heapless::Vec<u16, 4>| {
            let code = q.index19();
            if !libs.contains(&code) {
                let _ = libs.push(code);
            }
            libs.len() >= 3
        };
        // The stones of the new group: p, then the members of its own neighbour groups.
        for n in self.neighbours(p) {
            if is_liberty(n) && add(n, &mut libs) {
                return 3;
            }
        }
        for &g in own_groups.iter().filter(|&&g| g != NO_GROUP) {
            for q in self.group_points(g as usize) {
                for n in self.neighbours(q) {
                    if !is_member(n) && is_liberty(n) && add(n, &mut libs) {
                        return 3;
                    }
                }
            }
        }
        libs.len() as u16
    }
}

/// The side to move of a board snapshot (`docs/CONTRACTS.md`, "The hint protocol"): Black when both
/// colours have as many stones, else White.
pub fn default_to_move<T: Tracking>(board: &Board<T>) -> Color {
    if board.stones(Color::Black).len() == board.stones(Color::White).len() {
        Color::Black
    } else {
        Color::White
    }
}

/// The stone of a colour as seen by `to_move`: own or opponent (for tests and tools).
pub fn relative(stone: Stone, to_move: Color) -> Option<bool> {
    stone.color().map(|c| c == to_move)
}
