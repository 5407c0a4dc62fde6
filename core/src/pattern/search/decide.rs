//! Deciding one placement of a corner or side pattern in one game from the game's first
//! stones ([`crate::pattern::stored::first`]), without reading its moves.
//!
//! While no point of a region has changed a second time, each of its cells is empty up to
//! the cell's first stone and holds that stone from then on. So the region matches
//! exactly from `a`, the position of the last first stone it needs (an `X` or `O` cell),
//! up to `b`, the position of the first stone one of its cells rejects: a hit at `a` when
//! `a < b`, and none after (a rejected stone that no later change removes keeps the
//! region from matching for the rest of the game). Its continuation is the first stone
//! put in the region after `a`. When a point of the region changes again (a capture in
//! it, or a setup after the start), that holds up to the first such change `t2`; the
//! placement is still decided when a rejected stone that stays for good comes no later
//! than `t2`. Otherwise, and where a position is past what a first-stone byte tells
//! (254 and later), the placement is left *open*: the scan replays the game.
//!
//! A variant's cells are listed once per query ([`VariantCells`]): the cells that need a
//! stone, then the cells that reject some stone, in the order that rules placements out
//! soonest in practice (the third and fourth lines, where games start, first), then the
//! others. Most placements are ruled out by one of the first few: a stone the region
//! rejects, there before the last stone it needs.

use crate::point::{Point, MAX_POINTS};

use crate::pattern::cells::Rect;
use crate::pattern::query::{Variant, MAX_VARIANTS};
use crate::pattern::stored::first::{FIRST_LATE, FIRST_NEVER};

/// A cell needs a black stone.
const NEED_BLACK: u8 = 1;
/// A cell needs a white stone.
const NEED_WHITE: u8 = 2;
/// A cell rejects a black stone.
const REJECT_BLACK: u8 = 4;
/// A cell rejects a white stone.
const REJECT_WHITE: u8 = 8;

/// One cell of a variant: its place in the region (`dx`, `dy`), its offset from the
/// placement's point code (`dy * 19 + dx`) and what it needs and rejects.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CellCheck {
    offset: u16,
    dx: u8,
    dy: u8,
    kind: u8,
}

impl CellCheck {
    /// Whether the cell is an empty cell (`.`): it rejects a stone of either colour and
    /// needs none.
    #[inline]
    fn is_empty_cell(&self) -> bool {
        self.kind == REJECT_BLACK | REJECT_WHITE
    }
}

/// The cells of every variant of a query as [`decide`] reads them: per variant, those that
/// need a stone, then those that reject one (the third and fourth lines first), then the
/// others.
#[derive(Clone, Debug)]
pub struct QueryCells {
    cells: heapless::Vec<CellCheck, { MAX_VARIANTS * MAX_POINTS }>,
    /// Per variant: where its cells start, end of its stones, end of its rejecting cells,
    /// end.
    spans: [[u16; 4]; MAX_VARIANTS],
}

/// The cells of one variant ([`QueryCells::variant`]).
#[derive(Copy, Clone, Debug)]
pub struct VariantCells<'c> {
    stones: &'c [CellCheck],
    rejecting: &'c [CellCheck],
    all: &'c [CellCheck],
}

impl Default for QueryCells {
    /// No cells, made where it is stored (the constant [`QueryCells::EMPTY`] is copied
    /// whole, its unused cells too).
    #[inline]
    fn default() -> QueryCells {
        QueryCells {
            cells: heapless::Vec::new(),
            spans: [[0; 4]; MAX_VARIANTS],
        }
    }
}

impl QueryCells {
    /// No cells.
    pub const EMPTY: QueryCells = QueryCells {
        cells: heapless::Vec::new(),
        spans: [[0; 4]; MAX_VARIANTS],
    };

    /// Adds the cells of variant `vi` (`v`), ordered for its placement `first` (the
    /// rejecting cells by their line there: the third and fourth first, then the fifth and
    /// second, ...). Variants are added in order.
    pub fn add(&mut self, vi: usize, v: &Variant, first: Point) {
        let start = self.cells.len();
        // (A needed stone's cell rejects the other colour.)
        let kind_of = |c: Point| {
            let mut k = 0;
            if v.need_black.contains(c) {
                k |= NEED_BLACK | REJECT_WHITE;
            }
            if v.need_white.contains(c) {
                k |= NEED_WHITE | REJECT_BLACK;
            }
            if v.care_black.contains(c) && !v.need_black.contains(c) {
                k |= REJECT_BLACK;
            }
            if v.care_white.contains(c) && !v.need_white.contains(c) {
                k |= REJECT_WHITE;
            }
            k
        };
        // Lines 0-based from the nearest edge: 2 and 3 score 1, 1 and 4 score 3, ...
        let score = |c: &CellCheck| {
            let (x, y) = (first.x + c.dx, first.y + c.dy);
            let line = x
                .min(y)
                .min(18u8.saturating_sub(x))
                .min(18u8.saturating_sub(y));
            (2 * line as i16 - 5).unsigned_abs()
        };
        let mut ends = [start as u16; 3];
        for (pass, end) in ends.iter_mut().enumerate() {
            let from = self.cells.len();
            for cy in 0..v.height {
                for cx in 0..v.width {
                    let k = kind_of(Point::new(cx, cy));
                    let stone = k & (NEED_BLACK | NEED_WHITE) != 0;
                    let here = match pass {
                        0 => stone,
                        1 => !stone && k != 0,
                        _ => k == 0,
                    };
                    if here {
                        let _ = self.cells.push(CellCheck {
                            offset: cy as u16 * 19 + cx as u16,
                            dx: cx,
                            dy: cy,
                            kind: k,
                        });
                    }
                }
            }
            if pass == 1 {
                // Keys computed once (a sort asks for them many times).
                let mut keyed: heapless::Vec<(u16, CellCheck), MAX_POINTS> = heapless::Vec::new();
                for c in self.cells.get(from..).unwrap_or(&[]) {
                    let _ = keyed.push((score(c) << 9 | c.offset, *c));
                }
                keyed.sort_unstable_by_key(|&(k, _)| k);
                for (slot, (_, c)) in self
                    .cells
                    .get_mut(from..)
                    .unwrap_or(&mut [])
                    .iter_mut()
                    .zip(keyed)
                {
                    *slot = c;
                }
            }
            *end = self.cells.len() as u16;
        }
        if let Some(span) = self.spans.get_mut(vi) {
            *span = [start as u16, ends[0], ends[1], ends[2]];
        }
    }

    /// Whether [`VariantCells::rule_out`] rules variants `vi` and `vj` out in the same
    /// games at the same placement: the same cells need a stone, the same empty cells in
    /// the same order.
    pub fn same_rule_out(&self, vi: usize, vj: usize) -> bool {
        let (a, b) = (self.variant(vi), self.variant(vj));
        let empty = |c: &&CellCheck| c.is_empty_cell();
        a.stones
            .iter()
            .map(|c| c.offset)
            .eq(b.stones.iter().map(|c| c.offset))
            && a.rejecting.iter().filter(empty).map(|c| c.offset).eq(b
                .rejecting
                .iter()
                .filter(empty)
                .map(|c| c.offset))
    }

    /// The cells of variant `vi`.
    #[inline]
    pub fn variant(&self, vi: usize) -> VariantCells<'_> {
        let [s, e0, e1, e2] = self.spans.get(vi).copied().unwrap_or([0; 4]);
        let part = |a: u16, b: u16| self.cells.get(a as usize..b as usize).unwrap_or(&[]);
        VariantCells {
            stones: part(s, e0),
            rejecting: part(e0, e1),
            all: part(s, e2),
        }
    }
}

/// A game's first stones as [`decide`] reads them (in place from the pattern data, or from
/// a [`crate::pattern::stored::first::FirstStones`]).
pub trait FirstStoneSource {
    /// The first-stone byte of the point of code `c` (`y * 19 + x`).
    fn first(&self, c: u16) -> u8;
    /// Whether the first stone on the point of code `c` is white.
    fn first_white(&self, c: u16) -> bool;
    /// The unsettled points of board row `y` (bit `x`; 0 past the board).
    fn unsettled_row(&self, y: u8) -> u32;
    /// The first position where a point of board row `y` changes after its first stone,
    /// as a first-stone byte ([`FIRST_NEVER`]: none).
    fn row_unsettling(&self, y: u8) -> u8;
    /// The same for the whole board.
    fn first_unsettling(&self) -> u8;
}

impl FirstStoneSource for crate::pattern::stored::first::FirstStones {
    fn first(&self, c: u16) -> u8 {
        self.first.get(c as usize).copied().unwrap_or(FIRST_NEVER)
    }
    fn first_white(&self, c: u16) -> bool {
        Point::from_index19(c).is_some_and(|p| self.first_white.contains(p))
    }
    fn unsettled_row(&self, y: u8) -> u32 {
        self.unsettled.row(y)
    }
    fn row_unsettling(&self, y: u8) -> u8 {
        self.row_unsettling
            .get(y as usize)
            .copied()
            .unwrap_or(FIRST_NEVER)
    }
    fn first_unsettling(&self) -> u8 {
        self.row_unsettling
            .iter()
            .copied()
            .min()
            .unwrap_or(FIRST_NEVER)
    }
}

/// What follows a hit decided from first stones.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// The continuation: its move number, its point and whether it is White's.
    Move(u32, Point, bool),
    /// No later move in the region.
    Nothing,
    /// The first move in the region after this position (read from the game's moves).
    After(u32),
}

/// What the first stones tell of one placement in one game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// No hit.
    None,
    /// One hit, at this position, and what follows it.
    Hit(u32, Next),
    /// Not decided: the game is to be scanned for this placement.
    Open,
}

/// Whether the first stone `t` (a first-stone byte) surely comes no later than `a`.
#[inline(always)]
fn no_later(t: u8, a: u8) -> bool {
    t < FIRST_LATE && t <= a
}

/// Whether the stone of cell `c` at the placement of point code `base` is one the cell
/// rejects (a needed cell's stone of the other colour). Without a branch on the cell's
/// kind: as a match, it compiled to a jump table, an indirect jump per cell that the
/// processor mispredicts (4x4 NW on fox_pro 1.16 -> 1.09 ms).
#[inline(always)]
fn rejects<S: FirstStoneSource>(s: &S, base: u16, c: &CellCheck) -> bool {
    c.kind & (REJECT_BLACK << s.first_white(base.wrapping_add(c.offset)) as u8) != 0
}

/// Whether the point of cell `c` of `region` never changes after its first stone.
#[inline(always)]
fn settled<S: FirstStoneSource>(s: &S, region: &Rect, c: &CellCheck) -> bool {
    let (x, y) = (
        region.left.wrapping_add(c.dx),
        region.top.wrapping_add(c.dy),
    );
    s.unsettled_row(y) >> x & 1 == 0
}

/// What is known of where a region's points change again (filled as needed).
struct RegionChanges<F> {
    /// Whether a point of the region is unsettled, and a lower bound of the first position
    /// where one changes again (the first of its board rows', a first-stone byte).
    rows: Option<(bool, u8)>,
    /// That position exactly (`u32::MAX`: none), read from the game's records.
    exact: Option<u32>,
    read: Option<F>,
}

impl<F: FnOnce() -> u32> RegionChanges<F> {
    fn rows<S: FirstStoneSource>(&mut self, s: &S, r: &Rect) -> (bool, u8) {
        *self.rows.get_or_insert_with(|| {
            let width = (r.right as u32 + 1).saturating_sub(r.left as u32).min(19);
            let m = ((1u64 << width) - 1) as u32;
            let (mut any, mut first) = (false, FIRST_NEVER);
            for y in r.top..=r.bottom {
                if (s.unsettled_row(y) >> r.left) & m != 0 {
                    any = true;
                    first = first.min(s.row_unsettling(y));
                }
            }
            (any, first)
        })
    }

    fn exact(&mut self) -> u32 {
        *self
            .exact
            .get_or_insert_with(|| self.read.take().map_or(0, |f| f()))
    }

    /// Whether no point of the region changes again before position `t` (`t <= t2`; `t` a
    /// first-stone byte below [`FIRST_LATE`]).
    fn settled_through<S: FirstStoneSource>(&mut self, s: &S, r: &Rect, t: u8) -> bool {
        let (any, first) = self.rows(s, r);
        !any || t <= first || t as u32 <= self.exact()
    }

    /// Whether no point of the region changes again up to position `t` (`t < t2`).
    fn settled_before<S: FirstStoneSource>(&mut self, s: &S, r: &Rect, t: u8) -> bool {
        let (any, first) = self.rows(s, r);
        !any || t < first || (t as u32) < self.exact()
    }
}

/// The hits of variant `cells` at `placement` (region `region`) in the game of `s`: at most
/// one, decided from its first stones, or [`Decision::Open`]. `region_unsettling` gives the
/// first position where a point of the region changes after its first stone (read from the
/// game's records; asked only when needed; `u32::MAX`: none).
#[inline]
pub fn decide<S: FirstStoneSource>(
    cells: VariantCells<'_>,
    placement: Point,
    region: &Rect,
    s: &S,
    region_unsettling: impl FnOnce() -> u32,
) -> Decision {
    let base = placement.index19();
    let code = |c: &CellCheck| base.wrapping_add(c.offset);
    // a: when the last needed stone comes.
    let mut a = 0u8;
    for c in cells.stones {
        let t = s.first(code(c));
        if t == FIRST_NEVER {
            // Never a stone there: never a match.
            return Decision::None;
        }
        a = a.max(t);
    }
    let rejected = |c: &CellCheck| rejects(s, base, c);
    let settled = |c: &CellCheck| settled(s, region, c);
    let none_unsettled = s.first_unsettling() == FIRST_NEVER;
    // Most placements end here: a stone the region rejects, there no later than `a` and
    // for good (its point never changes again): no match before `a` (a needed cell is
    // still empty), none from it on. The same pass finds the first stone after `a` (the
    // first in cell order among the earliest), the continuation's candidate.
    let mut unordered = false;
    let (mut best, mut best_at) = (FIRST_NEVER, 0u16);
    for c in cells.all {
        let at = code(c);
        let t = s.first(at);
        // (Never a stone: 255, past every `a`.) Without a branch: which way it goes
        // depends on the game.
        let later = t > a;
        let take = later & (t < best);
        best = if take { t } else { best };
        best_at = if take { at } else { best_at };
        if later || c.kind & (REJECT_BLACK | REJECT_WHITE) == 0 || !rejected(c) {
            continue;
        }
        if t >= FIRST_LATE {
            // Both at 254 or later: their order is not known.
            unordered = true;
            continue;
        }
        if none_unsettled || settled(c) {
            return Decision::None;
        }
    }
    let after = (best != FIRST_NEVER).then_some((best, best_at));
    let mut changes = RegionChanges {
        rows: none_unsettled.then_some((false, FIRST_NEVER)),
        exact: None,
        read: Some(region_unsettling),
    };
    let (any, _) = changes.rows(s, region);
    if !any {
        // It matches from `a` on, until a stone it rejects comes: none came before.
        if unordered || a >= FIRST_LATE {
            return Decision::Open;
        }
        let next = match after {
            None => Next::Nothing,
            Some((t, _)) if t >= FIRST_LATE => Next::After(a as u32),
            Some((t, c)) => match Point::from_index19(c) {
                Some(p) => Next::Move(t as u32, p, s.first_white(c)),
                None => Next::After(a as u32),
            },
        };
        return Decision::Hit(a as u32, next);
    }
    decide_changed(cells, base, region, s, a, after, &mut changes)
}

/// [`decide`] for a region where a point changes after its first stone, given `a` (below
/// [`FIRST_NEVER`]) and the first stone after it (its position and point code).
#[inline]
fn decide_changed<S: FirstStoneSource, F: FnOnce() -> u32>(
    cells: VariantCells<'_>,
    base: u16,
    region: &Rect,
    s: &S,
    a: u8,
    after: Option<(u8, u16)>,
    changes: &mut RegionChanges<F>,
) -> Decision {
    let code = |c: &CellCheck| base.wrapping_add(c.offset);
    let rejected = |c: &CellCheck| rejects(s, base, c);
    let settled = |c: &CellCheck| settled(s, region, c);
    // A point of the region changes again, first at `t2`. `b`: the first rejected stone;
    // `d`: the first that stays for good.
    let mut b = FIRST_NEVER;
    let mut d = FIRST_NEVER;
    // (The stones' and the rejecting cells as one slice, and no branch on what a game
    // holds: those branches were mispredicted, 4x4 NW on fox_pro 1.04 -> 0.91 ms.)
    let rejecting = cells.stones.len() + cells.rejecting.len();
    for c in cells.all.get(..rejecting).unwrap_or(&[]) {
        let t = s.first(code(c));
        let t = if rejected(c) { t } else { FIRST_NEVER };
        b = b.min(t);
        d = d.min(if settled(c) { t } else { FIRST_NEVER });
    }
    // A rejected stone that stays, there no later than `a`: no match before `a` (a needed
    // cell is still empty), none from it on.
    if no_later(d, a) {
        return Decision::None;
    }
    // Decided when the first rejected stone that stays comes no later than t2; then hits
    // come before t2 (b <= d <= t2): at `a` if `a < b`.
    if d >= FIRST_LATE || !changes.settled_through(s, region, d) {
        return Decision::Open;
    }
    if no_later(b, a) {
        return Decision::None;
    }
    if a >= FIRST_LATE {
        return Decision::Open;
    }
    // The continuation is the first stone after `a` if it comes before t2 (later, a stone
    // may come back where one was removed).
    let next = match after {
        Some((t, c)) if t < FIRST_LATE && changes.settled_before(s, region, t) => {
            match Point::from_index19(c) {
                Some(p) => Next::Move(t as u32, p, s.first_white(c)),
                None => Next::After(a as u32),
            }
        }
        _ => Next::After(a as u32),
    };
    Decision::Hit(a as u32, next)
}

/// Games side by side in a block's first-stone tile (one byte each, per point).
pub const LANES: usize = 64;

/// The most empty cells [`VariantCells::rule_out`] reads before it looks which games are
/// left (the first batches are smaller: most games are ruled out by one of the first few
/// cells).
const BATCH: usize = 8;

impl VariantCells<'_> {
    /// The offsets of the variant's cells from a placement's point code (`dy * 19 + dx`).
    pub fn offsets(&self) -> impl Iterator<Item = u16> + '_ {
        self.all.iter().map(|c| c.offset)
    }

    /// The games of `keep` (bit `g`: lane `g` of `tile`, a block's first-stone tile of
    /// [`LANES`] games per point) that [`decide`] may not rule out for this variant at
    /// `placement`: 64 games at once, a bytewise maximum over the cells that need a stone
    /// and a bytewise minimum over batches of empty cells (`.`). `unsettled` holds, by
    /// point code (`y * 19 + x`), a little-endian word of the games in which the point
    /// changes after its first stone. A game is left out only when an empty cell's stone stays for good from a
    /// position no later than the last stone the variant needs (below [`FIRST_LATE`]):
    /// exactly where [`decide`] answers [`Decision::None`] from such a cell, so the games
    /// kept are a superset of those it decides otherwise. The cells that reject only one
    /// colour, and a needed cell's stone of the wrong colour, are left to [`decide`].
    pub fn rule_out(&self, placement: Point, tile: &[u8], unsettled: &[u8], keep: u64) -> u64 {
        let base = placement.index19() as usize;
        let lanes = |c: &CellCheck| -> Option<(&[u8; LANES], u64)> {
            let word = point_word(unsettled, base, c)?;
            Some((tile_lanes(tile, base, c)?, word))
        };
        // The last needed stone's position, no later than FIRST_LATE - 1 (a stone at
        // FIRST_LATE or later is not ordered).
        let mut limit = [0u8; LANES];
        for c in self.stones {
            let Some((t, _)) = lanes(c) else {
                return keep;
            };
            for i in 0..LANES {
                limit[i] = limit[i].max(t[i]);
            }
        }
        for l in limit.iter_mut() {
            *l = (*l).min(FIRST_LATE - 1);
        }
        let mut alive = keep;
        let mut cells = self.rejecting.iter().filter(|c| c.is_empty_cell());
        let mut round = 0;
        while alive != 0 {
            if round >= 4 && alive.count_ones() <= 1 {
                break;
            }
            // This batch's least first stones, and the games where one of its cells is
            // unsettled.
            let size = [2, 4].get(round).copied().unwrap_or(BATCH);
            round += 1;
            let mut n = 0;
            let mut low = [FIRST_NEVER; LANES];
            let mut moved = 0u64;
            let batch = cells.clone();
            // (Bounded by an array's length, the loop compiles tighter than with `take`
            // alone: 7x7 NW on fox_pro 3.13 M instructions against 3.25 M.)
            for (_, c) in [(); BATCH].iter().take(size).zip(cells.by_ref()) {
                let Some((t, u)) = lanes(c) else {
                    return alive;
                };
                for i in 0..LANES {
                    low[i] = low[i].min(t[i]);
                }
                moved |= u;
                n += 1;
            }
            if n == 0 {
                break;
            }
            let ruled = at_most(&low, &limit) & alive;
            // Where no cell of the batch changes again, the stone that rules is there for
            // good.
            alive &= !(ruled & !moved);
            // Elsewhere, a cell that stays rules: looked for game by game from this batch on
            // (no earlier cell rules a game still alive: it would have been ruled out
            // then).
            let mut ask = ruled & moved;
            while ask != 0 {
                let g = ask.trailing_zeros() as usize;
                ask &= ask - 1;
                let lim = limit.get(g).copied().unwrap_or(0);
                let out = batch.clone().any(|c| {
                    lanes(c).is_some_and(|(t, u)| {
                        t.get(g).is_some_and(|&t| t <= lim) && u >> g & 1 == 0
                    })
                });
                if out {
                    alive &= !(1u64 << g);
                }
            }
        }
        alive
    }
}

/// The most cells [`VariantCells::lanes`] decides for (a cell's index is kept in a byte).
const MAX_LANE_CELLS: usize = 255;

/// What the first stones decide of one placement of one variant for the 64 games of a
/// block at once ([`VariantCells::lanes`]): for the games whose region never changes after
/// its first stones, [`decide`]'s answer, computed lane by lane with no branch; for those
/// whose region changes again, `a` and the continuation's candidate, from which
/// [`LaneDecisions::decision`] finishes as [`decide`] does. A game whose last needed stone
/// comes at 254 or later is left to [`decide`].
#[derive(Clone, Debug)]
pub struct LaneDecisions {
    /// Per game: the last needed stone's position (`a`; [`FIRST_NEVER`] when a needed
    /// cell never holds a stone).
    at: [u8; LANES],
    /// Per game: the position of the first stone after `a` in the region
    /// ([`FIRST_NEVER`]: none)...
    next: [u8; LANES],
    /// ... and its cell (an index into the variant's cells, the first in their order
    /// among the earliest, as [`decide`] takes it).
    next_cell: [u8; LANES],
    /// The games decided one by one: a point of the region changes again, or `a` is 254 or
    /// later.
    alone: u64,
    /// The games without a hit whatever the colours of the variant's cells: a needed
    /// cell never holds a stone, or an empty cell holds one from no later than `a`.
    shared_none: u64,
    /// The games it decides without a hit: a needed cell never holds a stone, or a stone
    /// the variant rejects is there no later than `a`.
    none: u64,
}

impl LaneDecisions {
    /// The games of `keep` it decides without a hit.
    #[inline]
    pub fn ruled_out(&self, keep: u64) -> u64 {
        keep & self.none
    }

    /// The games without a hit for a variant whose colour-dependent cells reject a stone
    /// in the games `colour_rejected` (the others as [`LaneDecisions::shared_none`]).
    fn none_with(&self, colour_rejected: u64) -> u64 {
        (self.shared_none | colour_rejected) & !self.alone
    }

    /// [`decide`]'s answer for game `g` (lane `g`; `s` its first stones, `region` the
    /// placement's and `region_unsettling` as [`decide`] takes them, for a region that
    /// changes again and the continuation's colour), or `None` when the game is left to
    /// [`decide`] (`a` at 254 or later). `cells` and `placement` are those the decisions
    /// were made for.
    #[inline]
    pub fn decision<S: FirstStoneSource>(
        &self,
        cells: VariantCells<'_>,
        placement: Point,
        region: &Rect,
        g: usize,
        s: &S,
        region_unsettling: impl FnOnce() -> u32,
    ) -> Option<Decision> {
        let a = self.at.get(g).copied()?;
        let t = self.next.get(g).copied()?;
        let base = placement.index19();
        let next_code = || {
            let cell = cells.all.get(self.next_cell.get(g).copied()? as usize)?;
            Some(base.wrapping_add(cell.offset))
        };
        if (self.alone >> g) & 1 == 1 {
            // A point of the region changes again (or `a` is 254 or later: left to
            // `decide`).
            if a >= FIRST_LATE {
                return None;
            }
            let after = if t == FIRST_NEVER {
                None
            } else {
                Some((t, next_code()?))
            };
            let mut changes = RegionChanges {
                rows: None,
                exact: None,
                read: Some(region_unsettling),
            };
            return Some(decide_changed(
                cells,
                base,
                region,
                s,
                a,
                after,
                &mut changes,
            ));
        }
        if (self.none >> g) & 1 == 1 {
            return Some(Decision::None);
        }
        let a = a as u32;
        let next = if t == FIRST_NEVER {
            Next::Nothing
        } else if t >= FIRST_LATE {
            Next::After(a)
        } else {
            let code = next_code()?;
            match Point::from_index19(code) {
                Some(p) => Next::Move(t as u32, p, s.first_white(code)),
                None => Next::After(a),
            }
        };
        Some(Decision::Hit(a, next))
    }
}

impl VariantCells<'_> {
    /// [`decide`]'s answers at `placement` for the 64 games of a block at once
    /// ([`LaneDecisions`]): `tile` is the block's first-stone tile, `first_white` and
    /// `unsettled` its little-endian words by point code (the games whose first stone there
    /// is white, the games in which the point changes after its first stone). `None` when
    /// the variant has more than 255 cells or a cell is past the block's data.
    ///
    /// Where no point of the region changes again and `a < 254`, [`decide`] answers
    /// [`Decision::None`] exactly when a needed cell never holds a stone or a cell holds
    /// a stone it rejects from a position no later than `a`, and otherwise a hit at `a`
    /// whose continuation is the first stone after `a` (the first cell in order among the
    /// earliest): these are computed here with bytewise maxima, minima and selections over
    /// the 64 games of a point (a few vector instructions per 16 games), one pass over the
    /// cells.
    pub fn lanes(
        &self,
        placement: Point,
        tile: &[u8],
        first_white: &[u8],
        unsettled: &[u8],
    ) -> Option<LaneDecisions> {
        if self.all.len() > MAX_LANE_CELLS {
            return None;
        }
        let base = placement.index19() as usize;
        // (Local arrays, the tile's lanes copied: with the result's fields and the tile
        // possibly overlapping, the compiler left the loops scalar.)
        let mut at = [0u8; LANES];
        for c in self.stones {
            let t: [u8; LANES] = *tile_lanes(tile, base, c)?;
            for i in 0..LANES {
                at[i] = at[i].max(t[i]);
            }
        }
        let mut next = [FIRST_NEVER; LANES];
        let mut next_cell = [0u8; LANES];
        let mut moved = 0u64;
        // Per game, 0x80 where an empty cell holds a stone from no later than `a` (read
        // as bits once, after the loop).
        let mut early = [0u8; LANES];
        for (k, c) in self.all.iter().enumerate() {
            let t: [u8; LANES] = *tile_lanes(tile, base, c)?;
            moved |= point_word(unsettled, base, c)?;
            let k = k as u8;
            for i in 0..LANES {
                // The stone if it comes after `a`, then the earliest: a strictly earlier
                // one takes the cell.
                let later = if t[i] > at[i] { t[i] } else { FIRST_NEVER };
                let take = later < next[i];
                next[i] = next[i].min(later);
                next_cell[i] = if take { k } else { next_cell[i] };
            }
            if c.is_empty_cell() {
                for i in 0..LANES {
                    early[i] |= if t[i] <= at[i] { 0x80 } else { 0 };
                }
            }
        }
        let never = equal_to(&at, FIRST_NEVER);
        let alone = (moved | equal_to(&at, FIRST_LATE)) & !never;
        let mut d = LaneDecisions {
            at,
            next,
            next_cell,
            alone,
            shared_none: never | high_bits(&early),
            none: 0,
        };
        d.none = d.none_with(self.colour_rejected(&d, placement, tile, first_white)?);
        Some(d)
    }

    /// [`VariantCells::lanes`] for this variant from `d`, another variant's decisions at
    /// the same placement, when the two differ only in colours (`other`'s cells are the
    /// same cells in the same order, the same of them empty): only which stones each
    /// rejects by colour is read again. `None` when they differ otherwise.
    pub fn lanes_as(
        &self,
        other: VariantCells<'_>,
        d: &LaneDecisions,
        placement: Point,
        tile: &[u8],
        first_white: &[u8],
    ) -> Option<LaneDecisions> {
        let same = self.stones.len() == other.stones.len()
            && self.all.len() == other.all.len()
            && self
                .all
                .iter()
                .zip(other.all)
                .all(|(a, b)| a.offset == b.offset && a.is_empty_cell() == b.is_empty_cell());
        if !same {
            return None;
        }
        let mut mine = d.clone();
        mine.none = d.none_with(self.colour_rejected(d, placement, tile, first_white)?);
        Some(mine)
    }

    /// The games where a cell that rejects stones of one colour (a needed cell's stone
    /// of the other colour, an `x` or `o` cell's) holds one from no later than `a`.
    fn colour_rejected(
        &self,
        d: &LaneDecisions,
        placement: Point,
        tile: &[u8],
        first_white: &[u8],
    ) -> Option<u64> {
        let base = placement.index19() as usize;
        let mut rejected = 0u64;
        for (k, c) in self.all.iter().enumerate() {
            let rejects = (c.kind & REJECT_BLACK != 0, c.kind & REJECT_WHITE != 0);
            if rejects.0 == rejects.1 {
                continue;
            }
            let white = point_word(first_white, base, c)?;
            let colour = if rejects.1 { white } else { !white };
            // (A needed cell's stone is there by `a`, or `a` is "never".)
            rejected |= if k < self.stones.len() {
                colour
            } else {
                at_most(tile_lanes(tile, base, c)?, &d.at) & colour
            };
        }
        Some(rejected)
    }
}

/// The 64 games' first-stone bytes of cell `c` at the placement of point code `base`.
#[inline(always)]
fn tile_lanes<'t>(tile: &'t [u8], base: usize, c: &CellCheck) -> Option<&'t [u8; LANES]> {
    let at = (base + c.offset as usize) * LANES;
    tile.get(at..at + LANES)?.try_into().ok()
}

/// The block word (little-endian) of cell `c` at the placement of point code `base`, in
/// `words` (one word per point code).
#[inline(always)]
fn point_word(words: &[u8], base: usize, c: &CellCheck) -> Option<u64> {
    let at = (base + c.offset as usize) * 8;
    Some(u64::from_le_bytes(words.get(at..at + 8)?.try_into().ok()?))
}

/// The lanes of `t` equal to `v`, as bits (lane `g`: bit `g`).
#[inline(always)]
fn equal_to(t: &[u8; LANES], v: u8) -> u64 {
    let mut high = [0u8; LANES];
    for i in 0..LANES {
        high[i] = if t[i] == v { 0x80 } else { 0 };
    }
    high_bits(&high)
}

/// The lanes where `t <= limit`, as bits (lane `g`: bit `g`); written so that it compiles
/// to a few vector instructions per 16 lanes.
#[inline(always)]
fn at_most(t: &[u8; LANES], limit: &[u8; LANES]) -> u64 {
    let mut high = [0u8; LANES];
    for i in 0..LANES {
        high[i] = if t[i] <= limit[i] { 0x80 } else { 0 };
    }
    high_bits(&high)
}

/// Bit 7 of each lane of `high` (0x80 or 0), as bits (lane `g`: bit `g`).
#[inline(always)]
fn high_bits(high: &[u8; LANES]) -> u64 {
    let mut bits = 0u64;
    for (k, chunk) in high.chunks_exact(8).enumerate() {
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk);
        // Bit 7 of byte i to bit 56 + i.
        let b = (u64::from_le_bytes(w) & 0x8080_8080_8080_8080).wrapping_mul(0x0002_0408_1020_4081)
            >> 56;
        bits |= b << (8 * k);
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::cells::{Area, Pattern};
    use crate::pattern::query::PatternQuery;

    /// The first stones of a block of 64 made-up games: the block's layout for
    /// [`VariantCells::lanes`], each game's rows for [`decide`].
    struct Block {
        tile: [u8; MAX_POINTS * LANES],
        white: [u8; MAX_POINTS * 8],
        unsettled: [u8; MAX_POINTS * 8],
        rows: [[u32; 19]; LANES],
        row_first: [[u8; 19]; LANES],
    }

    struct Game<'b> {
        block: &'b Block,
        g: usize,
    }

    impl FirstStoneSource for Game<'_> {
        fn first(&self, c: u16) -> u8 {
            self.block.tile[c as usize * LANES + self.g]
        }
        fn first_white(&self, c: u16) -> bool {
            self.block.white[c as usize * 8 + self.g / 8] >> (self.g % 8) & 1 == 1
        }
        fn unsettled_row(&self, y: u8) -> u32 {
            self.block.rows[self.g]
                .get(y as usize)
                .copied()
                .unwrap_or(0)
        }
        fn row_unsettling(&self, y: u8) -> u8 {
            let r = self.block.row_first[self.g];
            r.get(y as usize).copied().unwrap_or(FIRST_NEVER)
        }
        fn first_unsettling(&self) -> u8 {
            self.block.row_first[self.g]
                .iter()
                .copied()
                .min()
                .unwrap_or(FIRST_NEVER)
        }
    }

    /// A block whose games put first stones early and close together (so that needed
    /// stones, rejected ones and continuations interleave and tie), some at 254 or never,
    /// with points that change again in about one game of six.
    fn block(seed: u64) -> Block {
        let mut x = seed;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut b = Block {
            tile: [0; MAX_POINTS * LANES],
            white: [0; MAX_POINTS * 8],
            unsettled: [0; MAX_POINTS * 8],
            rows: [[0; 19]; LANES],
            row_first: [[FIRST_NEVER; 19]; LANES],
        };
        for p in 0..MAX_POINTS {
            for g in 0..LANES {
                let r = next();
                b.tile[p * LANES + g] = match r % 16 {
                    0..=4 => FIRST_NEVER,
                    5 => FIRST_LATE,
                    6 => 253,
                    _ => (r >> 8) as u8 % 24,
                };
                if r >> 20 & 1 == 1 {
                    b.white[p * 8 + g / 8] |= 1 << (g % 8);
                }
                if (r >> 24) % 6 == 0 && b.tile[p * LANES + g] != FIRST_NEVER {
                    b.unsettled[p * 8 + g / 8] |= 1 << (g % 8);
                    let (y, xx) = (p / 19, p % 19);
                    b.rows[g][y] |= 1 << xx;
                    let t = (r >> 32) as u8 % 40;
                    b.row_first[g][y] = b.row_first[g][y].min(t);
                }
            }
        }
        b
    }

    #[test]
    fn lanes_decide_as_decide_does() {
        let patterns = [
            ("..../..../..X*/..*O", "0,0,0,0"),
            ("...../...../X.O.X/...../.....", "1,0,13,0"),
            ("x.o/.X./*O*", "0,0,16,16"),
            (
                "......./......./...X.../..X..../..O..../......./.......",
                "0,0,0,0",
            ),
        ];
        // (lane decisions, of which hits, nones, decided where the region changes again)
        let mut seen = [0u32; 4];
        for (seed, (rows, area)) in patterns.iter().enumerate() {
            let pattern = Pattern::parse(rows).unwrap();
            let q = PatternQuery::new(&pattern, Area::parse(area).unwrap(), false);
            let b = block(0x9e37_79b9_7f4a_7c15 ^ seed as u64);
            for (vi, v) in q.variants().iter().enumerate() {
                for placement in v.allowed.iter() {
                    let mut cells = QueryCells::default();
                    cells.add(vi, v, placement);
                    let cells = cells.variant(vi);
                    let region = v.region(placement);
                    let lanes = cells
                        .lanes(placement, &b.tile, &b.white, &b.unsettled)
                        .unwrap();
                    for g in 0..LANES {
                        let game = Game { block: &b, g };
                        // The exact first change of the region: its rows' first, later.
                        let exact = || {
                            (region.top..=region.bottom)
                                .map(|y| game.row_unsettling(y) as u32 + 3)
                                .min()
                                .unwrap_or(u32::MAX)
                        };
                        let want = decide(cells, placement, &region, &game, exact);
                        let got = lanes.decision(cells, placement, &region, g, &game, exact);
                        if let Some(got) = got {
                            assert_eq!(got, want, "{rows} variant {vi} at {placement:?} game {g}");
                            seen[0] += 1;
                            seen[1] += matches!(got, Decision::Hit(..)) as u32;
                            seen[2] += (got == Decision::None) as u32;
                            seen[3] += (lanes.alone >> g & 1) as u32;
                        }
                        if lanes.ruled_out(1 << g) != 0 {
                            assert_eq!(want, Decision::None);
                        }
                    }
                }
            }
        }
        assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
    }
}
