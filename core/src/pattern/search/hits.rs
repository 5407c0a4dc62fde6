//! Finding the hits of a pattern in one game: the positions where a match newly appears,
//! each with its region and its continuation.
//!
//! The game is read as setup stones, moves and the stones each move removed (a
//! [`GameSource`]): the scan needs no capture logic of its own, so a move costs a bit set
//! and a bit test. A match can only *appear* where a point changed, and only through a
//! cell that accepts the new content but not the old one (its [`Variant::triggers`]); the
//! scan therefore checks only the placements that such a change reaches, and knows that
//! any match found there is new. After the setup (position 0) every match is a hit; they
//! are found bit-parallel over all placements.
//!
//! Hits are counted once per region: among the variants that newly match on the same
//! region (same top-left, same shape), the first in preference order (smallest transform,
//! as-is before colour-exchanged) is the hit's match.

use crate::point::{Color, Point, Stone, MAX_POINTS};
use crate::pointset::PointSet;
use crate::stored::{move_record_code, move_record_white};

use crate::pattern::cells::Rect;
use crate::pattern::query::{Change, PatternQuery, Variant, MAX_VARIANTS};

/// A stored game as the scan reads it. Implemented for the index's stored games and for
/// plain slices ([`SliceGame`]).
pub trait GameSource {
    /// Number of moves of the main line.
    fn move_count(&self) -> usize;
    /// Move `i` (0-based): `code | colour << 9`, code `y * 19 + x` (361 a pass), colour
    /// bit 1 for White (the index's move record).
    fn move_code(&self, i: usize) -> u16;
    /// Writes the codes of the moves from `start` (0-based) on into `out`, as many as fit
    /// or are left, and returns how many (a source with a faster sequential read
    /// overrides this).
    fn moves_into(&self, start: usize, out: &mut [u16]) -> usize {
        let n = self.move_count().saturating_sub(start).min(out.len());
        for (k, slot) in out.iter_mut().take(n).enumerate() {
            *slot = self.move_code(start + k);
        }
        n
    }

    /// Calls `f(i, code)` for the moves `i` from `start` on until it returns `false`.
    fn for_each_move(&self, start: usize, f: impl FnMut(usize, u16) -> bool) {
        moves_buffered(self, start, f);
    }
    /// Number of setup stones.
    fn setup_count(&self) -> usize;
    /// Setup stone `j`: the number of moves played before it, its point and what is put
    /// there. Sorted by the number of moves.
    fn setup(&self, j: usize) -> (u32, Point, Stone);
    /// Number of removed stones.
    fn removal_count(&self) -> usize;
    /// Removed stone `j`: the (1-based) number of the move that removed it and its point.
    /// Sorted by move number.
    fn removal(&self, j: usize) -> (u32, Point);
    /// Calls `f(move_number, code)` for every removed stone in order, `code` its point's
    /// `y * 19 + x` (a source with a faster sequential read overrides this).
    fn for_each_removal(&self, mut f: impl FnMut(u32, u16)) {
        for j in 0..self.removal_count() {
            let (n, p) = self.removal(j);
            f(n, p.index19());
        }
    }
}

/// Calls `f(i, code)` for the moves `i` of `game` from `start` on until it returns
/// `false`, read 64 at a time into a buffer ([`GameSource::moves_into`]). The scans that
/// read whole games loop this way: a tight loop over the buffer, rather than their work
/// inside the decoder's loop (the index's own `for_each_move`), cost the local scan 30
/// instructions a move less.
#[inline(always)]
pub(crate) fn moves_buffered<G: GameSource + ?Sized>(
    game: &G,
    start: usize,
    mut f: impl FnMut(usize, u16) -> bool,
) {
    let mut buf = [0u16; 64];
    let mut next = start;
    loop {
        let k = game.moves_into(next, &mut buf);
        if k == 0 {
            return;
        }
        for (j, &code) in buf.iter().take(k).enumerate() {
            if !f(next + j, code) {
                return;
            }
        }
        next += k;
    }
}

/// A move record as a [`GameSource`] gives it: the index's move record (its codec is
/// [`crate::stored`]'s).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord(pub u16);

impl MoveRecord {
    /// The move code: `y * 19 + x`, 361 a pass (up to 511 in a damaged record).
    #[inline(always)]
    pub const fn code(self) -> u16 {
        move_record_code(self.0 as u64)
    }

    /// Whether it is White's move.
    #[inline(always)]
    pub const fn white(self) -> bool {
        move_record_white(self.0 as u64)
    }

    /// The point, `(0, 19)` (off every board row) for a pass and the codes past the board.
    #[inline(always)]
    pub const fn xy(self) -> (u8, u8) {
        POINT_OF_CODE[self.code() as usize & 511]
    }
}

/// The point of each move code (`y * 19 + x`), `(0, 19)` (off every board row) for a pass
/// and the codes past the board.
pub(crate) const POINT_OF_CODE: [(u8, u8); 512] = {
    let mut t = [(0u8, 19u8); 512];
    let mut c = 0;
    while c < MAX_POINTS {
        t[c] = ((c % 19) as u8, (c / 19) as u8);
        c += 1;
    }
    t
};

/// A game held in slices (tests, hand-made records).
#[derive(Copy, Clone, Debug, Default)]
pub struct SliceGame<'a> {
    /// Moves as [`GameSource::move_code`] gives them.
    pub moves: &'a [u16],
    /// Setup stones as [`GameSource::setup`] gives them.
    pub setup: &'a [(u32, Point, Stone)],
    /// Removed stones as [`GameSource::removal`] gives them.
    pub removals: &'a [(u32, Point)],
}

impl GameSource for SliceGame<'_> {
    fn move_count(&self) -> usize {
        self.moves.len()
    }
    fn move_code(&self, i: usize) -> u16 {
        self.moves.get(i).copied().unwrap_or(MAX_POINTS as u16)
    }
    fn setup_count(&self) -> usize {
        self.setup.len()
    }
    fn setup(&self, j: usize) -> (u32, Point, Stone) {
        self.setup
            .get(j)
            .copied()
            .unwrap_or((u32::MAX, Point::new(0, 0), Stone::Empty))
    }
    fn removal_count(&self) -> usize {
        self.removals.len()
    }
    fn removal(&self, j: usize) -> (u32, Point) {
        self.removals
            .get(j)
            .copied()
            .unwrap_or((u32::MAX, Point::new(0, 0)))
    }
}

/// The placements of each variant worth checking in one game, and the board points where
/// a black or a white move can make one of them match.
#[derive(Clone, Debug)]
pub struct Candidates {
    /// Per variant (in [`PatternQuery::variants`] order), the placements to check.
    pub placements: [PointSet; MAX_VARIANTS],
    /// Points where a black stone can complete a candidate placement.
    pub black_triggers: PointSet,
    /// Points where a white stone can complete a candidate placement.
    pub white_triggers: PointSet,
    /// The points of every candidate region: a change elsewhere makes no match appear.
    pub regions: PointSet,
    /// The variants with a candidate placement (bit `i` for variant `i`).
    pub active: u16,
}

impl Candidates {
    /// No placement.
    pub const NONE: Candidates = Candidates {
        placements: [PointSet::EMPTY; MAX_VARIANTS],
        black_triggers: PointSet::EMPTY,
        white_triggers: PointSet::EMPTY,
        regions: PointSet::EMPTY,
        active: 0,
    };

    /// Every allowed placement of every variant.
    pub fn all(q: &PatternQuery) -> Candidates {
        let mut c = Candidates::NONE;
        for (slot, v) in c.placements.iter_mut().zip(q.variants()) {
            *slot = v.allowed;
        }
        c.finish(q);
        c
    }

    /// The placements that can ever match in a game whose points ever held a black
    /// stone (`ever_black`) or a white one (`ever_white`): every `X` cell over an
    /// ever-black point, every `O` cell over an ever-white one.
    pub fn from_ever(q: &PatternQuery, ever_black: &PointSet, ever_white: &PointSet) -> Self {
        let mut c = Candidates::NONE;
        for (slot, v) in c.placements.iter_mut().zip(q.variants()) {
            let mut m = v.allowed;
            for (cells, ever) in [(&v.need_black, ever_black), (&v.need_white, ever_white)] {
                for cell in cells.iter() {
                    and_shifted_back(&mut m, ever, cell);
                }
            }
            *slot = m;
        }
        c.finish(q);
        c
    }

    /// Computes the trigger points, the regions and the active variants from the
    /// placements (call after setting them).
    pub fn finish(&mut self, q: &PatternQuery) {
        self.black_triggers = PointSet::EMPTY;
        self.white_triggers = PointSet::EMPTY;
        self.regions = PointSet::EMPTY;
        self.active = 0;
        for (i, (m, v)) in self.placements.iter().zip(q.variants()).enumerate() {
            if m.is_empty() {
                continue;
            }
            self.active |= 1 << i;
            // A few placements (corner and side patterns) point by point, many by rows.
            let few: heapless::Vec<Point, 4> = if m.len() <= 4 {
                m.iter().collect()
            } else {
                heapless::Vec::new()
            };
            add_regions(&mut self.regions, m, &few, v.width, v.height);
            for (out, k) in [
                (&mut self.black_triggers, Change::EmptyToBlack),
                (&mut self.white_triggers, Change::EmptyToWhite),
            ] {
                let trig = &v.triggers[k as usize];
                for cy in 0..v.height {
                    let mut row = trig.row(cy);
                    while row != 0 {
                        let cell = Point::new(row.trailing_zeros() as u8, cy);
                        row &= row - 1;
                        if few.is_empty() {
                            or_shifted(out, m, cell);
                        } else {
                            for p in &few {
                                out.insert(Point::new(p.x + cell.x, p.y + cell.y));
                            }
                        }
                    }
                }
            }
        }
    }

    /// Whether no placement is left.
    pub fn is_empty(&self) -> bool {
        self.placements.iter().all(|p| p.is_empty())
    }
}

/// Adds to `out` the points of the `width` x `height` regions at the placements `m`
/// (also given as the list `few` when they are few).
fn add_regions(out: &mut PointSet, m: &PointSet, few: &[Point], width: u8, height: u8) {
    let row = ((1u64 << width) - 1) as u32;
    if !few.is_empty() {
        for p in few {
            for y in p.y as usize..(p.y + height) as usize {
                out.set_bits(y, (row << p.x) & ((1 << 19) - 1));
            }
        }
        return;
    }
    for (y, &r) in m.rows().iter().enumerate() {
        if r == 0 {
            continue;
        }
        let mut wide = 0u32;
        for dx in 0..width {
            wide |= r << dx;
        }
        for yy in y..y + height as usize {
            out.set_bits(yy, wide & ((1 << 19) - 1));
        }
    }
}

/// `m[y] &= s[y + c.y] >> c.x`: keeps the placements whose cell `c` lies on `s`.
#[inline]
pub(crate) fn and_shifted_back(m: &mut PointSet, s: &PointSet, c: Point) {
    let mut rows = *m.rows();
    for (y, row) in rows.iter_mut().enumerate() {
        *row &= s.row((y + c.y as usize) as u8) >> c.x;
    }
    *m = PointSet::from_rows(&rows);
}

/// `out[y + c.y] |= m[y] << c.x`: the points under cell `c` of the placements `m`.
#[inline]
fn or_shifted(out: &mut PointSet, m: &PointSet, c: Point) {
    for (y, &row) in m.rows().iter().enumerate() {
        out.set_bits(y + c.y as usize, (row << c.x) & ((1 << 19) - 1));
    }
}

/// The first move inside a hit's region after the hit's position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Continuation {
    /// Its move number (1-based).
    pub move_number: u32,
    /// Its colour as the pattern sees it (exchanged back for a colour-exchanged match).
    pub color: Color,
    /// Its cell in pattern coordinates (`(0, 0)` is the pattern's top-left cell).
    pub cell: Point,
    /// Whether it is the move right after the hit's position.
    pub immediate: bool,
}

/// A position where the pattern newly matches on a region.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Hit {
    /// Moves played before the position (0: the setup).
    pub move_number: u32,
    /// The match's variant (index into [`PatternQuery::variants`]).
    pub variant: u8,
    /// The region on the real board.
    pub region: Rect,
    /// The continuation, if the game has a later move inside the region.
    pub continuation: Option<Continuation>,
}

/// The most candidate placements whose death a scan watches (see [`scan_game`]).
const MAX_WATCH: usize = 8;

/// A candidate placement the scan watches, to stop once none can match any more.
#[derive(Copy, Clone, Debug)]
struct Watch {
    variant: u8,
    placement: Point,
    alive: bool,
}

/// The hits of `game` among the candidate placements `cand`, in order of position,
/// passed to `on_hit`.
///
/// When a game has few candidate placements, the scan stops as soon as each of them is
/// *dead*: a cell of its region holds a stone that the cell rejects and that stays there
/// for the rest of the game (no later removal or setup on that point). A corner pattern is
/// usually dead once its corner is played out, long before the game ends.
pub fn scan_game<G: GameSource>(
    q: &PatternQuery,
    game: &G,
    cand: &Candidates,
    on_hit: &mut impl FnMut(&Hit),
) {
    let mut s = Scan {
        q,
        game,
        cand,
        black: PointSet::EMPTY,
        white: PointSet::EMPTY,
        watches: heapless::Vec::new(),
        watched: PointSet::EMPTY,
        changes: LastChange::default(),
    };
    s.run(on_hit);
}

struct Scan<'a, G> {
    q: &'a PatternQuery,
    game: &'a G,
    cand: &'a Candidates,
    black: PointSet,
    white: PointSet,
    watches: heapless::Vec<Watch, MAX_WATCH>,
    /// The points of the watched regions.
    watched: PointSet,
    /// When each point last changes.
    changes: LastChange,
}

impl<G: GameSource> Scan<'_, G> {
    fn set(&mut self, p: Point, s: Stone) {
        set_stone(&mut self.black, &mut self.white, p, s);
    }

    fn run(&mut self, on_hit: &mut impl FnMut(&Hit)) {
        let g = self.game;
        let si = start_position(g, &mut self.black, &mut self.white);
        self.initial_hits(on_hit);
        if self.start_watching() && !self.any_alive(0) {
            return;
        }
        let mut records = Records::new(g, si, 0);
        let mut next_event = records.next();
        let trig = [self.cand.black_triggers, self.cand.white_triggers];
        let watching = !self.watches.is_empty();
        moves_buffered(g, 0, |i, code| {
            let n = i as u32 + 1;
            let rec = MoveRecord(code);
            let white = rec.white() as usize;
            let (px, py) = rec.xy();
            let on_board = py < 19;
            let (x, y) = (px as u32, py as usize);
            let bit = 1u32 << x;
            let p = Point::new(px, py);
            if n < next_event {
                // The common move: one stone on an empty point, nothing removed. The
                // board is only ever read inside the candidate regions: a move outside
                // them changes nothing the scan looks at.
                if !on_board || self.cand.regions.bits(y) & bit == 0 {
                    return true;
                }
                let occupied = (self.black.bits(y) | self.white.bits(y)) & bit;
                if occupied == 0 {
                    let stones = if white == 1 {
                        &mut self.white
                    } else {
                        &mut self.black
                    };
                    stones.set_bits(y, bit);
                    if trig[white].bits(y) & bit != 0 {
                        let k = if white == 1 {
                            Change::EmptyToWhite
                        } else {
                            Change::EmptyToBlack
                        };
                        self.new_matches(&[(p, k)], n, on_hit);
                    }
                    if watching && !self.alive_after_stone(p, white == 1, n) {
                        return false;
                    }
                    return true;
                }
            }
            // A move with removals or setup (or onto a stone, which only a damaged file
            // holds). Only changes inside a candidate region can make a match appear:
            // look at them first, and compare whole boards only then.
            let regions = &self.cand.regions;
            let relevant =
                (on_board && regions.contains(p)) || records.touch(g, n, |q| regions.contains(q));
            let (ob, ow) = if relevant {
                (self.black, self.white)
            } else {
                (PointSet::EMPTY, PointSet::EMPTY)
            };
            if on_board {
                self.set(p, move_stone(white == 1));
            }
            records.apply(g, n, &mut self.black, &mut self.white);
            next_event = records.next();
            if !relevant {
                return true;
            }
            let (b, w) = (self.black, self.white);
            let changed = ((b ^ ob) | (w ^ ow)) & *regions;
            if changed.is_empty() {
                return true;
            }
            let mut list = [(Point::new(0, 0), Change::EmptyToBlack); MAX_POINTS];
            let mut len = 0;
            for q in changed.iter() {
                let old = stone_at(&ob, &ow, q);
                let new = stone_at(&b, &w, q);
                if let (Some(k), Some(slot)) = (Change::of(old, new), list.get_mut(len)) {
                    *slot = (q, k);
                    len += 1;
                }
            }
            self.new_matches(list.get(..len).unwrap_or(&[]), n, on_hit);
            !(watching && changed.intersects(&self.watched) && !self.any_alive(n))
        });
    }

    /// Sets up the watches when the game has few candidate placements; returns whether
    /// it did.
    fn start_watching(&mut self) -> bool {
        if self.cand.active.count_ones() as usize > MAX_WATCH {
            return false;
        }
        let mut active = self.cand.active;
        while active != 0 {
            let vi = active.trailing_zeros() as usize;
            active &= active - 1;
            let (Some(m), Some(v)) = (self.cand.placements.get(vi), self.q.variants().get(vi))
            else {
                continue;
            };
            for p in m.iter() {
                if self
                    .watches
                    .push(Watch {
                        variant: vi as u8,
                        placement: p,
                        alive: true,
                    })
                    .is_err()
                {
                    self.watches.clear();
                    return false;
                }
                let r = v.region(p);
                let row = ((1u64 << v.width) - 1) as u32;
                for y in r.top..=r.bottom {
                    self.watched.set_bits(y as usize, row << r.left);
                }
            }
        }
        true
    }

    /// Updates the watches after a stone (white if `white`) was put on `q` alone by move
    /// `n`; returns whether one is still alive.
    fn alive_after_stone(&mut self, q: Point, white: bool, n: u32) -> bool {
        let mut permanent = None;
        let mut alive = false;
        for i in 0..self.watches.len() {
            let Some(&w) = self.watches.get(i) else {
                continue;
            };
            if !w.alive {
                continue;
            }
            let Some(v) = self.q.variants().get(w.variant as usize) else {
                continue;
            };
            let p = w.placement;
            if v.region(p).contains(q) {
                let c = Point::new(q.x - p.x, q.y - p.y);
                let rejects = if white {
                    v.care_white.contains(c) && !v.need_white.contains(c)
                } else {
                    v.care_black.contains(c) && !v.need_black.contains(c)
                };
                if rejects
                    && *permanent.get_or_insert_with(|| self.changes.fixed_after(self.game, q, n))
                {
                    if let Some(w) = self.watches.get_mut(i) {
                        w.alive = false;
                    }
                    continue;
                }
            }
            alive = true;
        }
        alive
    }

    /// Updates the watches after position `n`; returns whether one is still alive.
    fn any_alive(&mut self, n: u32) -> bool {
        let mut alive = false;
        for i in 0..self.watches.len() {
            let Some(w) = self.watches.get(i).copied() else {
                continue;
            };
            if w.alive && self.is_stuck(&w, n) {
                if let Some(w) = self.watches.get_mut(i) {
                    w.alive = false;
                }
            }
            alive |= self.watches.get(i).is_some_and(|w| w.alive);
        }
        alive
    }

    /// Whether a cell of `w`'s region holds a stone it rejects for the rest of the game
    /// (after position `n`).
    fn is_stuck(&mut self, w: &Watch, n: u32) -> bool {
        let Some(v) = self.q.variants().get(w.variant as usize) else {
            return true;
        };
        let (g, changes) = (self.game, &mut self.changes);
        stuck(v, w.placement, &self.black, &self.white, |q| {
            changes.fixed_after(g, q, n)
        })
    }

    /// Every match of the setup position is a hit.
    fn initial_hits(&mut self, on_hit: &mut impl FnMut(&Hit)) {
        let empty = self.black.is_empty() && self.white.is_empty();
        let mut claimed = [PointSet::EMPTY; 2];
        let mut active = self.cand.active;
        while active != 0 {
            let vi = active.trailing_zeros() as usize;
            active &= active - 1;
            let (Some(v), Some(cand)) = (self.q.variants().get(vi), self.cand.placements.get(vi))
            else {
                continue;
            };
            if empty && !(v.need_black.is_empty() && v.need_white.is_empty()) {
                continue;
            }
            let Some(cl) = claimed.get_mut(v.group as usize) else {
                continue;
            };
            let m = v.matches_all(cand, &self.black, &self.white) - *cl;
            *cl |= m;
            for p in m.iter() {
                self.emit(vi, v, p, 0, on_hit);
            }
        }
    }

    /// The matches that the changes (into position `n`) make appear.
    fn new_matches(&self, changes: &[(Point, Change)], n: u32, on_hit: &mut impl FnMut(&Hit)) {
        let several = changes.len() > 1;
        let mut active = self.cand.active;
        while active != 0 {
            let vi = active.trailing_zeros() as usize;
            active &= active - 1;
            let (Some(v), Some(cand)) = (self.q.variants().get(vi), self.cand.placements.get(vi))
            else {
                continue;
            };
            // (Only used for several changes: one change never reaches a placement twice.)
            let mut seen = PointSet::EMPTY;
            for &(q, k) in changes {
                let trig = &v.triggers[k as usize];
                let below = ((2u64 << q.x) - 1) as u32;
                for cy in 0..(v.height as usize).min(q.y as usize + 1) {
                    let mut row = trig.bits(cy) & below;
                    while row != 0 {
                        let cx = row.trailing_zeros() as u8;
                        row &= row - 1;
                        let p = Point::new(q.x - cx, q.y - cy as u8);
                        if !cand.contains(p) || (several && !seen.insert(p)) {
                            continue;
                        }
                        if v.matches(p, &self.black, &self.white)
                            && !self.earlier_variant_new(vi, v, p, changes)
                        {
                            self.emit(vi, v, p, n, on_hit);
                        }
                    }
                }
            }
        }
    }

    /// Whether a variant before `vi` with the same region also newly matches at `p` (then
    /// that one is the hit's match, reported when it was examined).
    fn earlier_variant_new(
        &self,
        vi: usize,
        v: &Variant,
        p: Point,
        changes: &[(Point, Change)],
    ) -> bool {
        let region = v.region(p);
        self.q
            .variants()
            .iter()
            .enumerate()
            .take(vi)
            .any(|(ui, u)| {
                u.group == v.group
                    && self.cand.placements.get(ui).is_some_and(|c| c.contains(p))
                    && u.matches(p, &self.black, &self.white)
                    && changes.iter().any(|&(q, k)| {
                        region.contains(q)
                            && u.triggers[k as usize].contains(Point::new(q.x - p.x, q.y - p.y))
                    })
            })
    }

    fn emit(&self, vi: usize, v: &Variant, p: Point, n: u32, on_hit: &mut impl FnMut(&Hit)) {
        emit_hit(self.q, self.game, vi, v, p, n, on_hit);
    }
}

/// Passes to `on_hit` the hit of variant `vi` (`v`) at placement `p` in position `n` of
/// `game`, with its continuation: the first later move inside the region.
pub(crate) fn emit_hit<G: GameSource>(
    q: &PatternQuery,
    game: &G,
    vi: usize,
    v: &Variant,
    p: Point,
    n: u32,
    on_hit: &mut impl FnMut(&Hit),
) {
    let region = v.region(p);
    let mut continuation = None;
    game.for_each_move(n as usize, |j, code| {
        let rec = MoveRecord(code);
        let (qx, qy) = rec.xy();
        let pt = Point::new(qx, qy);
        if !region.contains(pt) {
            return true;
        }
        let color = if rec.white() {
            Color::White
        } else {
            Color::Black
        };
        continuation = Some(Continuation {
            move_number: j as u32 + 1,
            color: if v.swapped { color.opponent() } else { color },
            cell: q.pattern_cell(v, p, pt),
            immediate: j as u32 == n,
        });
        false
    });
    on_hit(&Hit {
        move_number: n,
        variant: vi as u8,
        region,
        continuation,
    });
}

/// Whether a cell of variant `v`'s region at placement `p` holds a stone it rejects that
/// stays (`fixed` says whether a point's stone stays for the rest of the game).
#[inline]
pub(crate) fn stuck(
    v: &Variant,
    p: Point,
    black: &PointSet,
    white: &PointSet,
    mut fixed: impl FnMut(Point) -> bool,
) -> bool {
    let m = ((1u64 << v.width) - 1) as u32;
    for r in 0..v.height as usize {
        let y = p.y as usize + r;
        let b = (black.bits(y) >> p.x) & m;
        let w = (white.bits(y) >> p.x) & m;
        let mut bad = (b & v.care_black.bits(r) & !v.need_black.bits(r))
            | (w & v.care_white.bits(r) & !v.need_white.bits(r));
        while bad != 0 {
            let cx = bad.trailing_zeros();
            bad &= bad - 1;
            if fixed(Point::new(p.x + cx as u8, y as u8)) {
                return true;
            }
        }
    }
    false
}

/// When each point of a game last changes by a removal or a setup record (read at the
/// first question, one pass over the records).
#[derive(Clone, Debug, Default)]
pub(crate) struct LastChange {
    last: Option<[u16; MAX_POINTS]>,
}

impl LastChange {
    /// Whether no removal or setup record of `game` after position `n` changes `q` (a
    /// stone there stays).
    pub(crate) fn fixed_after<G: GameSource>(&mut self, game: &G, q: Point, n: u32) -> bool {
        let last = self.last.get_or_insert_with(|| {
            let mut last = [0u16; MAX_POINTS];
            let mut note = |code: u16, at: u32| {
                if let Some(l) = last.get_mut(code as usize) {
                    *l = (*l).max(at.min(u16::MAX as u32) as u16);
                }
            };
            game.for_each_removal(|m, code| note(code, m));
            // Setup records are sorted by position: those of the start (0) change
            // nothing after any position, so they are read from the last one back.
            for j in (0..game.setup_count()).rev() {
                let (before, p, _) = game.setup(j);
                if before == 0 {
                    break;
                }
                note(p.index19(), before);
            }
            last
        });
        last.get(q.index19() as usize)
            .is_none_or(|&l| l as u32 <= n)
    }
}

/// The removal and setup records of a game that a scan has not applied yet.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Records {
    /// The first setup record not applied.
    pub(crate) setup: usize,
    /// The first removal record not applied.
    pub(crate) removal: usize,
    next_setup: u32,
    next_removal: u32,
}

impl Records {
    /// The records of `game` from setup record `setup` and removal record `removal` on.
    pub(crate) fn new<G: GameSource>(game: &G, setup: usize, removal: usize) -> Records {
        Records {
            setup,
            removal,
            next_setup: setup_at(game, setup),
            next_removal: removal_at(game, removal),
        }
    }

    /// The first position with a record left (`u32::MAX`: none).
    #[inline]
    pub(crate) fn next(&self) -> u32 {
        self.next_setup.min(self.next_removal)
    }

    /// Whether a record of a position up to `n` changes a point that `inside` accepts.
    pub(crate) fn touch<G: GameSource>(
        &self,
        game: &G,
        n: u32,
        inside: impl Fn(Point) -> bool,
    ) -> bool {
        let mut j = self.removal;
        while j < game.removal_count() {
            let (m, q) = game.removal(j);
            if m > n {
                break;
            }
            if inside(q) {
                return true;
            }
            j += 1;
        }
        let mut j = self.setup;
        while j < game.setup_count() {
            let (before, q, _) = game.setup(j);
            if before > n {
                break;
            }
            if inside(q) {
                return true;
            }
            j += 1;
        }
        false
    }

    /// Applies the records of the positions up to `n` to the board (`black`, `white`).
    pub(crate) fn apply<G: GameSource>(
        &mut self,
        game: &G,
        n: u32,
        black: &mut PointSet,
        white: &mut PointSet,
    ) {
        while self.next_removal <= n {
            let (_, q) = game.removal(self.removal);
            set_stone(black, white, q, Stone::Empty);
            self.removal += 1;
            self.next_removal = removal_at(game, self.removal);
        }
        while self.next_setup <= n {
            let (_, q, st) = game.setup(self.setup);
            set_stone(black, white, q, st);
            self.setup += 1;
            self.next_setup = setup_at(game, self.setup);
        }
    }

    /// Passes over the records of the positions up to `n` without applying them.
    pub(crate) fn skip<G: GameSource>(&mut self, game: &G, n: u32) {
        while self.next_removal <= n {
            self.removal += 1;
            self.next_removal = removal_at(game, self.removal);
        }
        while self.next_setup <= n {
            self.setup += 1;
            self.next_setup = setup_at(game, self.setup);
        }
    }
}

/// The position of setup record `j` (`u32::MAX` past the last).
fn setup_at<G: GameSource>(game: &G, j: usize) -> u32 {
    if j < game.setup_count() {
        game.setup(j).0
    } else {
        u32::MAX
    }
}

/// The move number of removal record `j` (`u32::MAX` past the last).
fn removal_at<G: GameSource>(game: &G, j: usize) -> u32 {
    if j < game.removal_count() {
        game.removal(j).0
    } else {
        u32::MAX
    }
}

/// The stone a move puts down (White's if `white`).
#[inline]
pub(crate) fn move_stone(white: bool) -> Stone {
    if white {
        Stone::White
    } else {
        Stone::Black
    }
}

/// Puts `s` on `p` of the board given by its black and white stones.
#[inline]
pub(crate) fn set_stone(black: &mut PointSet, white: &mut PointSet, p: Point, s: Stone) {
    black.remove(p);
    white.remove(p);
    match s {
        Stone::Black => black.insert(p),
        Stone::White => white.insert(p),
        Stone::Empty => false,
    };
}

/// Sets up the board (`black`, `white`) a scan of `game` starts from: the setup of the
/// start (position 0). Returns the first setup record not applied yet.
pub(crate) fn start_position<G: GameSource>(
    game: &G,
    black: &mut PointSet,
    white: &mut PointSet,
) -> usize {
    let n_setup = game.setup_count();
    let mut si = 0usize;
    while si < n_setup {
        let (before, p, st) = game.setup(si);
        if before != 0 {
            break;
        }
        set_stone(black, white, p, st);
        si += 1;
    }
    si
}

/// What the board given by its black and white stones holds at `p`.
#[inline]
pub(crate) fn stone_at(black: &PointSet, white: &PointSet, p: Point) -> Stone {
    if black.contains(p) {
        Stone::Black
    } else if white.contains(p) {
        Stone::White
    } else {
        Stone::Empty
    }
}
