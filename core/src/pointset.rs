//! [`PointSet`]: a set of points of a board up to 19x19, as one `u32` bit row per board row
//! (bit `x` of row `y` is the point `(x, y)`), with set operations, neighbourhoods,
//! regions (connected parts by flood fill, [`PointSet::component`]) and iteration in
//! `y * 19 + x` order. The board's groups, liberties and captures are these operations.

use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};

use crate::point::{Point, Size, MAX_SIDE};

const ROWS: usize = MAX_SIDE as usize;
/// Bits `0..19` of a row.
const ROW_BITS: u32 = (1 << MAX_SIDE) - 1;

/// A set of points of a board up to 19x19 (76 bytes, `Copy`).
///
/// Row `y` holds bit `x` for the point `(x, y)`. Only bits `0..19` of the 19 rows are ever
/// set; every operation keeps it so.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PointSet {
    rows: [u32; ROWS],
}

impl PointSet {
    /// The empty set.
    pub const EMPTY: PointSet = PointSet { rows: [0; ROWS] };

    /// The empty set.
    #[inline]
    pub const fn new() -> PointSet {
        PointSet::EMPTY
    }

    /// Every point of a board of `size`.
    pub const fn full(size: Size) -> PointSet {
        let mut rows = [0u32; ROWS];
        let mask = row_mask(size);
        let mut y = 0;
        while y < size.height() as usize && y < ROWS {
            rows[y] = mask;
            y += 1;
        }
        PointSet { rows }
    }

    /// The set with the given bit rows (bits above 18 and rows past 19 are ignored).
    pub fn from_rows(rows: &[u32]) -> PointSet {
        let mut s = PointSet::EMPTY;
        for (d, r) in s.rows.iter_mut().zip(rows) {
            *d = r & ROW_BITS;
        }
        s
    }

    /// The 19 bit rows (bit `x` of row `y` for the point `(x, y)`).
    #[inline]
    pub const fn rows(&self) -> &[u32; ROWS] {
        &self.rows
    }

    /// Row `y` as bits (0 for `y >= 19`).
    #[inline]
    pub fn row(&self, y: u8) -> u32 {
        self.rows.get(y as usize).copied().unwrap_or(0)
    }

    /// The set holding only `p` (empty if `p` is off a 19x19 board).
    #[inline]
    pub fn single(p: Point) -> PointSet {
        let mut s = PointSet::EMPTY;
        s.insert(p);
        s
    }

    /// Whether `p` is in the set.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        p.x < MAX_SIDE && (self.row(p.y) >> p.x) & 1 != 0
    }

    /// Adds `p`; returns whether it was newly added (`false` also for a point off 19x19).
    #[inline]
    pub fn insert(&mut self, p: Point) -> bool {
        if p.x >= MAX_SIDE {
            return false;
        }
        match self.rows.get_mut(p.y as usize) {
            Some(r) => {
                let bit = 1u32 << p.x;
                let new = *r & bit == 0;
                *r |= bit;
                new
            }
            None => false,
        }
    }

    /// Removes `p`; returns whether it was there.
    #[inline]
    pub fn remove(&mut self, p: Point) -> bool {
        if p.x >= MAX_SIDE {
            return false;
        }
        match self.rows.get_mut(p.y as usize) {
            Some(r) => {
                let bit = 1u32 << p.x;
                let had = *r & bit != 0;
                *r &= !bit;
                had
            }
            None => false,
        }
    }

    /// Number of points in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.rows.iter().map(|r| r.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }

    /// The first point in `y * 19 + x` order.
    #[inline]
    pub fn first(&self) -> Option<Point> {
        for (y, &r) in self.rows.iter().enumerate() {
            if r != 0 {
                return Some(Point::new(r.trailing_zeros() as u8, y as u8));
            }
        }
        None
    }

    /// Whether the two sets share a point.
    #[inline]
    pub fn intersects(&self, other: &PointSet) -> bool {
        self.rows.iter().zip(&other.rows).any(|(a, b)| a & b != 0)
    }

    /// Whether every point of `self` is in `other`.
    #[inline]
    pub fn is_subset(&self, other: &PointSet) -> bool {
        self.rows.iter().zip(&other.rows).all(|(a, b)| a & !b == 0)
    }

    /// The points of a board of `size` that are adjacent (up, down, left, right) to a point
    /// of the set, including points of the set itself that have a neighbour in it, but not
    /// the set's isolated points: `(self shifted in the four directions) & board`.
    /// Use `neighbours(size) - self` for the outer boundary.
    pub fn neighbours(&self, size: Size) -> PointSet {
        let mask = row_mask(size);
        let h = size.height() as usize;
        let mut out = PointSet::EMPTY;
        let mut prev = 0u32;
        for y in 0..ROWS {
            let cur = self.rows[y];
            let next = if y + 1 < ROWS { self.rows[y + 1] } else { 0 };
            if y < h {
                out.rows[y] = ((cur << 1) | (cur >> 1) | prev | next) & mask;
            }
            prev = cur;
        }
        out
    }

    /// The set grown by one step: the set plus its neighbours on a board of `size`.
    #[inline]
    pub fn dilate(&self, size: Size) -> PointSet {
        let mut n = self.neighbours(size);
        n |= *self;
        n
    }

    /// The points in `y * 19 + x` order.
    #[inline]
    pub fn iter(&self) -> Iter {
        Iter { set: *self, y: 0 }
    }

    /// The connected part of the set (points joined up, down, left or right) that holds
    /// `p`: a group of stones, an empty region. Empty if `p` is not in the set.
    pub fn component(&self, p: Point) -> PointSet {
        if p.x >= MAX_SIDE {
            return PointSet::EMPTY;
        }
        self.flood(p.x as u32, p.y as usize).0
    }

    /// Whether a point of `other` is adjacent (up, down, left, right) to a point of the set:
    /// a group with a liberty, a region that touches a colour.
    pub fn touches(&self, other: &PointSet) -> bool {
        self.touches_rows(0, ROWS - 1, |y| other.bits(y))
    }

    /// The points of a board of `size` that are in neither `a` nor `b` (the empty points of
    /// a board whose stones they are).
    #[inline(always)]
    pub fn vacant(a: &PointSet, b: &PointSet, size: Size) -> PointSet {
        let mask = row_mask(size);
        let h = size.height() as usize;
        let mut out = PointSet::EMPTY;
        for (y, (o, (a, b))) in out
            .rows
            .iter_mut()
            .zip(a.rows.iter().zip(&b.rows))
            .enumerate()
        {
            *o = if y < h { mask & !(a | b) } else { 0 };
        }
        out
    }

    // ---- row-level operations for the board's hot paths ----

    /// Row `y` as bits, 0 past the last row.
    #[inline(always)]
    pub(crate) fn bits(&self, y: usize) -> u32 {
        self.rows.get(y).copied().unwrap_or(0)
    }

    /// Adds the points `bits` of row `y` (nothing past the last row).
    #[inline(always)]
    pub(crate) fn set_bits(&mut self, y: usize, bits: u32) {
        if let Some(r) = self.rows.get_mut(y) {
            *r |= bits;
        }
    }

    /// Removes the points `bits` of row `y`.
    #[inline(always)]
    pub(crate) fn clear_bits(&mut self, y: usize, bits: u32) {
        if let Some(r) = self.rows.get_mut(y) {
            *r &= !bits;
        }
    }

    /// Whether a point of another set, given row by row by `other(y)`, is adjacent to a point
    /// of this set, which has points in rows `lo..=hi` only (only the rows around those
    /// are asked for).
    #[inline(always)]
    pub(crate) fn touches_rows(&self, lo: usize, hi: usize, other: impl Fn(usize) -> u32) -> bool {
        let mut y = lo.saturating_sub(1);
        while y <= hi + 1 && y < ROWS {
            let r = self.bits(y);
            let adj = (r << 1) | (r >> 1) | self.bits(y.wrapping_sub(1)) | self.bits(y + 1);
            if adj & other(y) != 0 {
                return true;
            }
            y += 1;
        }
        false
    }

    /// The connected part of the set containing `(x, y)` (empty if that point is not in the
    /// set), with the lowest and highest rows it touches: a flood fill by row-wise sweeps.
    pub(crate) fn flood(&self, x: u32, y: usize) -> (PointSet, usize, usize) {
        let mut g = PointSet::EMPTY;
        let seed = (1u32 << (x & 31)) & self.bits(y);
        if seed == 0 {
            return (g, y, y);
        }
        let (mut lo, mut hi) = (y, y);
        let row0 = fill_row(seed, self.bits(y));
        if let Some(r) = g.rows.get_mut(y) {
            *r = row0;
        }
        loop {
            let mut changed = false;
            // Downward sweep.
            let end = if hi + 1 < ROWS { hi + 1 } else { hi };
            let mut yy = lo.saturating_sub(1);
            while yy <= end {
                if g.grow_row(self, yy) {
                    changed = true;
                    lo = lo.min(yy);
                    hi = hi.max(yy);
                }
                yy += 1;
            }
            // Upward sweep.
            let start = if hi + 1 < ROWS { hi + 1 } else { hi };
            let stop = lo.saturating_sub(1);
            let mut yy = start;
            loop {
                if g.grow_row(self, yy) {
                    changed = true;
                    lo = lo.min(yy);
                    hi = hi.max(yy);
                }
                if yy <= stop {
                    break;
                }
                yy -= 1;
            }
            if !changed {
                return (g, lo, hi);
            }
        }
    }

    /// Grows row `y` of this fill inside `s` from its vertical neighbours and along the
    /// row. Returns whether it changed.
    #[inline(always)]
    fn grow_row(&mut self, s: &PointSet, y: usize) -> bool {
        let old = self.bits(y);
        let srow = s.bits(y);
        let vert = (self.bits(y.wrapping_sub(1)) | self.bits(y + 1)) & srow;
        if vert & !old == 0 {
            return false;
        }
        let new = fill_row(old | vert, srow);
        if let Some(r) = self.rows.get_mut(y) {
            *r = new;
        }
        true
    }
}

/// The runs of `s` that contain a bit of `r` (`r` within `s`).
#[inline(always)]
fn fill_row(mut r: u32, s: u32) -> u32 {
    loop {
        let n = (r | (r << 1) | (r >> 1)) & s;
        if n == r {
            return r;
        }
        r = n;
    }
}

/// The bits `0..width` of a row of a board of `size`.
#[inline]
pub(crate) const fn row_mask(size: Size) -> u32 {
    ((1u64 << size.width()) - 1) as u32 & ROW_BITS
}

/// An iterator over the points of a [`PointSet`], in `y * 19 + x` order.
#[derive(Clone, Debug)]
pub struct Iter {
    set: PointSet,
    y: usize,
}

impl Iterator for Iter {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        while let Some(r) = self.set.rows.get_mut(self.y) {
            if *r != 0 {
                let x = r.trailing_zeros();
                *r &= *r - 1;
                return Some(Point::new(x as u8, self.y as u8));
            }
            self.y += 1;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.set.len();
        (n, Some(n))
    }
}

impl ExactSizeIterator for Iter {}

impl IntoIterator for PointSet {
    type Item = Point;
    type IntoIter = Iter;
    #[inline]
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

impl IntoIterator for &PointSet {
    type Item = Point;
    type IntoIter = Iter;
    #[inline]
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

impl FromIterator<Point> for PointSet {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> PointSet {
        let mut s = PointSet::EMPTY;
        for p in iter {
            s.insert(p);
        }
        s
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for PointSet {
            type Output = PointSet;
            #[inline]
            fn $f(mut self, rhs: PointSet) -> PointSet {
                for (a, b) in self.rows.iter_mut().zip(rhs.rows) {
                    *a $op b;
                }
                self
            }
        }
        impl $atr for PointSet {
            #[inline]
            fn $af(&mut self, rhs: PointSet) {
                for (a, b) in self.rows.iter_mut().zip(rhs.rows) {
                    *a $op b;
                }
            }
        }
    };
}
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);

impl BitXor for PointSet {
    type Output = PointSet;
    #[inline]
    fn bitxor(mut self, rhs: PointSet) -> PointSet {
        for (a, b) in self.rows.iter_mut().zip(rhs.rows) {
            *a ^= b;
        }
        self
    }
}

impl Sub for PointSet {
    type Output = PointSet;
    /// Set difference.
    #[inline]
    fn sub(mut self, rhs: PointSet) -> PointSet {
        for (a, b) in self.rows.iter_mut().zip(rhs.rows) {
            *a &= !b;
        }
        self
    }
}

impl Not for PointSet {
    type Output = PointSet;
    /// Complement within the 19x19 board (intersect with [`PointSet::full`] for a smaller one).
    #[inline]
    fn not(mut self) -> PointSet {
        for a in self.rows.iter_mut() {
            *a = !*a & ROW_BITS;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basics() {
        let mut s = PointSet::new();
        assert!(s.is_empty());
        assert!(s.insert(Point::new(3, 4)));
        assert!(!s.insert(Point::new(3, 4)));
        assert!(s.insert(Point::new(18, 18)));
        assert!(s.insert(Point::new(0, 0)));
        assert!(!s.insert(Point::new(19, 0)));
        assert!(!s.insert(Point::new(0, 19)));
        assert_eq!(s.len(), 3);
        let v: heapless::Vec<Point, 8> = s.iter().collect();
        assert_eq!(
            &v[..],
            &[Point::new(0, 0), Point::new(3, 4), Point::new(18, 18)]
        );
        assert!(s.remove(Point::new(3, 4)));
        assert!(!s.contains(Point::new(3, 4)));
        assert_eq!(s.first(), Some(Point::new(0, 0)));
        let full = PointSet::full(Size::new(5, 3).unwrap());
        assert_eq!(full.len(), 15);
        assert_eq!((!PointSet::EMPTY).len(), 361);
        let n = PointSet::single(Point::new(0, 0)).neighbours(Size::new(5, 3).unwrap());
        assert_eq!(n.len(), 2);
        let n = PointSet::single(Point::new(4, 2)).dilate(Size::new(5, 3).unwrap());
        assert_eq!(n.len(), 3);
    }

    #[test]
    fn regions() {
        // Two regions: an L in the top left and a single point; (2, 2) touches the L only
        // diagonally.
        let s: PointSet = [(0, 0), (1, 0), (0, 1), (0, 2), (2, 2), (5, 5)]
            .iter()
            .map(|&(x, y)| Point::new(x, y))
            .collect();
        let l = s.component(Point::new(0, 2));
        assert_eq!(l.len(), 4);
        assert!(l.contains(Point::new(1, 0)) && !l.contains(Point::new(2, 2)));
        assert_eq!(s.component(Point::new(2, 2)).len(), 1);
        assert_eq!(s.component(Point::new(3, 3)), PointSet::EMPTY);
        assert_eq!(s.component(Point::new(30, 0)), PointSet::EMPTY);
        assert!(l.touches(&PointSet::single(Point::new(1, 1))));
        assert!(!l.touches(&PointSet::single(Point::new(2, 2))));
        // A spiral needs sweeps both ways.
        let spiral: PointSet = (0..19u8)
            .map(|x| Point::new(x, 0))
            .chain((0..19u8).map(|y| Point::new(18, y)))
            .chain((2..19u8).map(|x| Point::new(x, 18)))
            .chain((2..19u8).map(|y| Point::new(2, y)))
            .chain((2..17u8).map(|x| Point::new(x, 2)))
            .collect();
        assert_eq!(spiral.component(Point::new(2, 2)), spiral);
        let size = Size::new(5, 3).unwrap();
        let black = PointSet::single(Point::new(0, 0));
        let white = PointSet::single(Point::new(4, 2));
        assert_eq!(PointSet::vacant(&black, &white, size).len(), 13);
    }
}
