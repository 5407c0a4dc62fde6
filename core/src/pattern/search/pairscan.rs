//! The scan of one game for a plan with few placements (corner and side patterns): each
//! candidate placement (a *pair* of [`ScanPlan::pairs`]) is one bit of a `u128`, and
//! [`PairTables`] say, for every board point, which pairs its region holds, which a black
//! or a white stone there can complete, and which such a stone rules out.
//!
//! A move then costs a table read and an AND: outside every live region it changes
//! nothing the scan looks at; on a trigger point it checks just the pairs it can
//! complete; on a rejecting point that no later removal or setup empties, it drops the
//! pairs it rules out for good, and the scan stops once none is left. Moves with removals
//! or setup are compared point by point, as [`super::hits`] does. The hits are the same
//! as [`super::hits::scan_game`]'s for the same placements (the tests compare them
//! on every plan).

use crate::point::{Point, Stone};
use crate::pointset::PointSet;

use crate::pattern::query::{Change, Variant};

use super::hits::{
    emit_hit, move_stone, moves_buffered, set_stone, start_position, stone_at, stuck, GameSource,
    Hit, LastChange, MoveRecord, Records, POINT_OF_CODE,
};
use super::pair_tables::{PairTables, CODES};
use super::plan::ScanPlan;

/// The bits of `set`, lowest first.
#[inline]
pub(crate) fn bits128(mut set: u128) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(i)
    })
}

/// The hits of `game` for the pairs `live` of `plan` (a pair plan), in order of position,
/// passed to `on_hit`, from the setup on (whose matches are all hits).
pub fn scan_pairs<G: GameSource>(
    plan: &ScanPlan<'_>,
    game: &G,
    live: u128,
    on_hit: &mut impl FnMut(&Hit),
) {
    let mut s = PairScan {
        plan,
        t: plan.tables(),
        game,
        live,
        black: PointSet::EMPTY,
        white: PointSet::EMPTY,
        changes: LastChange::default(),
    };
    s.run(on_hit);
}

struct PairScan<'a, 'q, G> {
    plan: &'a ScanPlan<'q>,
    t: &'a PairTables,
    game: &'a G,
    /// The pairs that can still match.
    live: u128,
    black: PointSet,
    white: PointSet,
    /// When each point last changes.
    changes: LastChange,
}

impl<'q, G: GameSource> PairScan<'_, 'q, G> {
    fn set(&mut self, p: Point, s: Stone) {
        set_stone(&mut self.black, &mut self.white, p, s);
    }

    fn variant(&self, i: usize) -> Option<(&'q Variant, Point)> {
        let pair = self.plan.pairs().get(i)?;
        let v = self.plan.query().variants().get(pair.variant as usize)?;
        Some((v, pair.placement))
    }

    fn run(&mut self, on_hit: &mut impl FnMut(&Hit)) {
        let g = self.game;
        let si = start_position(g, &mut self.black, &mut self.white);
        let stones = !(self.black.is_empty() && self.white.is_empty());
        // Every match of the setup position is a hit (an empty board matches only the
        // variants without stones).
        let initial = if stones {
            self.live
        } else {
            self.live & self.t.stoneless
        };
        if initial != 0 {
            let mut matched = 0u128;
            for i in bits128(initial) {
                if let Some((v, p)) = self.variant(i) {
                    if v.matches(p, &self.black, &self.white) {
                        matched |= 1 << i;
                    }
                }
            }
            self.emit_first(matched, 0, on_hit);
        }
        if stones {
            self.drop_stuck(0);
            if self.live == 0 {
                return;
            }
        }
        let mut records = Records::new(g, si, 0);
        let mut next_event = records.next();
        let t = self.t;
        moves_buffered(g, 0, |i, code| {
            let n = i as u32 + 1;
            let rec = MoveRecord(code);
            let c = rec.code() as usize & (CODES - 1);
            let white = rec.white() as usize;
            if n < next_event {
                // The common move: one stone on an empty point, nothing removed. Outside
                // the live regions it changes nothing the scan looks at.
                if t.region[c] & self.live == 0 {
                    return true;
                }
                let (px, py) = POINT_OF_CODE[c];
                let (bit, y) = (1u32 << px, py as usize);
                if (self.black.bits(y) | self.white.bits(y)) & bit == 0 {
                    if white == 1 {
                        self.white.set_bits(y, bit);
                    } else {
                        self.black.set_bits(y, bit);
                    }
                    let trig = t.trigger[white][c] & self.live;
                    if trig != 0 {
                        let mut matched = 0u128;
                        for i in bits128(trig) {
                            if let Some((v, q)) = self.variant(i) {
                                if v.matches(q, &self.black, &self.white) {
                                    matched |= 1 << i;
                                }
                            }
                        }
                        self.emit_first(matched, n, on_hit);
                    }
                    let rej = t.reject[white][c] & self.live;
                    if rej != 0 && self.fixed_after(Point::new(px, py), n) {
                        self.live &= !rej;
                    }
                    return self.live != 0;
                }
            }
            // A move with removals or setup (or onto a stone, which only a damaged file
            // holds). The board is only read inside the live regions: when nothing there
            // changes, the records are passed over.
            let live = self.live;
            let inside =
                |q: Point| t.region.get(q.index19() as usize).copied().unwrap_or(0) & live != 0;
            if t.region[c] & live == 0 && !records.touch(g, n, inside) {
                records.skip(g, n);
                next_event = records.next();
                return true;
            }
            // Compare the points it changes inside the live regions.
            let (ob, ow) = (self.black, self.white);
            let (px, py) = POINT_OF_CODE[c];
            if py < 19 {
                let p = Point::new(px, py);
                self.set(p, move_stone(white == 1));
            }
            records.apply(g, n, &mut self.black, &mut self.white);
            next_event = records.next();
            let changed = (self.black ^ ob) | (self.white ^ ow);
            let mut matched = 0u128;
            let mut stones = PointSet::EMPTY;
            for q in changed.iter() {
                let at = q.index19() as usize;
                let here = t.region.get(at).copied().unwrap_or(0) & self.live;
                if here == 0 {
                    continue;
                }
                let old = stone_at(&ob, &ow, q);
                let new = stone_at(&self.black, &self.white, q);
                let Some(kind) = Change::of(old, new) else {
                    continue;
                };
                if new != Stone::Empty {
                    stones.insert(q);
                }
                for i in bits128(here & !matched) {
                    let Some((v, pl)) = self.variant(i) else {
                        continue;
                    };
                    let cell = Point::new(q.x - pl.x, q.y - pl.y);
                    if v.triggers[kind as usize].contains(cell)
                        && v.matches(pl, &self.black, &self.white)
                    {
                        matched |= 1 << i;
                    }
                }
            }
            self.emit_first(matched, n, on_hit);
            for q in stones.iter() {
                let at = q.index19() as usize;
                let c = if self.white.contains(q) { 1 } else { 0 };
                let rej = t.reject[c].get(at).copied().unwrap_or(0) & self.live;
                if rej != 0 && self.fixed_after(q, n) {
                    self.live &= !rej;
                }
            }
            self.live != 0
        });
    }

    /// Emits the hits of the newly matching pairs `matched` at position `n`: per region
    /// (placement and group), the first pair's, which is the first variant's (pairs are
    /// ordered by variant).
    fn emit_first(&self, matched: u128, n: u32, on_hit: &mut impl FnMut(&Hit)) {
        if matched == 0 {
            return;
        }
        let mut claimed = [PointSet::EMPTY; 2];
        for i in bits128(matched) {
            let Some(pair) = self.plan.pairs().get(i) else {
                continue;
            };
            let vi = pair.variant as usize;
            let Some(v) = self.plan.query().variants().get(vi) else {
                continue;
            };
            let Some(cl) = claimed.get_mut(v.group as usize) else {
                continue;
            };
            if cl.insert(pair.placement) {
                emit_hit(
                    self.plan.query(),
                    self.game,
                    vi,
                    v,
                    pair.placement,
                    n,
                    on_hit,
                );
            }
        }
    }

    /// Drops the live pairs whose region holds a stone that its cell rejects and that
    /// stays for the rest of the game (after position `n`).
    fn drop_stuck(&mut self, n: u32) {
        for i in bits128(self.live) {
            let Some((v, p)) = self.variant(i) else {
                continue;
            };
            let (g, changes) = (self.game, &mut self.changes);
            if stuck(v, p, &self.black, &self.white, |q| {
                changes.fixed_after(g, q, n)
            }) {
                self.live &= !(1 << i);
            }
        }
    }

    /// Whether no removal or setup after position `n` changes `q` (a stone there stays).
    fn fixed_after(&mut self, q: Point, n: u32) -> bool {
        self.changes.fixed_after(self.game, q, n)
    }
}
