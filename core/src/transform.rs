//! The 8 symmetries of a square board in bGo's numbering, the 4 of a rectangular one,
//! their inverse and composition tables, and colour swap.
//!
//! | # | maps (x, y) to | name |
//! |---|---|---|
//! | 0 | (x, y) | identity |
//! | 1 | (W-x, y) | flip left-right |
//! | 2 | (x, H-y) | flip top-bottom |
//! | 3 | (y, W-x) | rotate 90 CCW |
//! | 4 | (W-x, H-y) | rotate 180 |
//! | 5 | (H-y, x) | rotate 270 CCW |
//! | 6 | (y, x) | transpose |
//! | 7 | (H-y, W-x) | anti-transpose |
//!
//! with `W = width - 1` and `H = height - 1`. Transforms 3, 5, 6 and 7 swap the axes and
//! exist only on square boards.

use crate::point::{Point, Size, Stone};

/// One of the 8 board symmetries, numbered as bGo numbers them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Transform(u8);

/// `INVERSE[t]` undoes `t`.
const INVERSE: [u8; 8] = [0, 1, 2, 5, 4, 3, 6, 7];

/// Each transform as `(swap axes, mirror x, mirror y)`, applied as: optionally swap x and y,
/// then mirror the resulting x and/or y.
const PARTS: [(bool, bool, bool); 8] = [
    (false, false, false), // 0 (x, y)
    (false, true, false),  // 1 (W-x, y)
    (false, false, true),  // 2 (x, H-y)
    (true, false, true),   // 3 (y, W-x)
    (false, true, true),   // 4 (W-x, H-y)
    (true, true, false),   // 5 (H-y, x)
    (true, false, false),  // 6 (y, x)
    (true, true, true),    // 7 (H-y, W-x)
];

/// `COMPOSE[a][b]` is the transform "first `a`, then `b`".
const COMPOSE: [[u8; 8]; 8] = compose_table();

const fn apply_parts(t: usize, x: i32, y: i32) -> (i32, i32) {
    // Symbolic application on a board whose coordinates run -1..=1 (a 3x3 board centred
    // on 0), used only to build the composition table at compile time.
    let (swap, mx, my) = PARTS[t];
    let (mut a, mut b) = if swap { (y, x) } else { (x, y) };
    if mx {
        a = -a;
    }
    if my {
        b = -b;
    }
    (a, b)
}

const fn compose_table() -> [[u8; 8]; 8] {
    let mut table = [[0u8; 8]; 8];
    let mut a = 0;
    while a < 8 {
        let mut b = 0;
        while b < 8 {
            // Find c with c(p) == b(a(p)) on two probe points that fix a symmetry uniquely.
            let (p1x, p1y) = apply_parts(a, 1, 0);
            let (q1x, q1y) = apply_parts(b, p1x, p1y);
            let (p2x, p2y) = apply_parts(a, 0, 1);
            let (q2x, q2y) = apply_parts(b, p2x, p2y);
            let mut c = 0;
            while c < 8 {
                let (r1x, r1y) = apply_parts(c, 1, 0);
                let (r2x, r2y) = apply_parts(c, 0, 1);
                if r1x == q1x && r1y == q1y && r2x == q2x && r2y == q2y {
                    table[a][b] = c as u8;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    table
}

impl Transform {
    /// The identity, transform 0.
    pub const IDENTITY: Transform = Transform(0);
    /// All 8 transforms in bGo's order.
    pub const ALL: [Transform; 8] = [
        Transform(0),
        Transform(1),
        Transform(2),
        Transform(3),
        Transform(4),
        Transform(5),
        Transform(6),
        Transform(7),
    ];
    /// The 4 transforms a rectangular board has: 0, 1, 2 and 4.
    pub const RECTANGULAR: [Transform; 4] =
        [Transform(0), Transform(1), Transform(2), Transform(4)];

    /// Transform number `n` (0..=7), `None` otherwise.
    #[inline]
    pub const fn new(n: u8) -> Option<Transform> {
        if n < 8 {
            Some(Transform(n))
        } else {
            None
        }
    }

    /// bGo's number of this transform.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The transform that undoes this one.
    #[inline]
    pub const fn inverse(self) -> Transform {
        Transform(INVERSE[self.0 as usize & 7])
    }

    /// "First `self`, then `then`" as one transform.
    #[inline]
    pub const fn then(self, then: Transform) -> Transform {
        Transform(COMPOSE[self.0 as usize & 7][then.0 as usize & 7])
    }

    /// Whether this transform swaps the axes (3, 5, 6, 7): only valid on square boards.
    #[inline]
    pub const fn swaps_axes(self) -> bool {
        PARTS[self.0 as usize & 7].0
    }

    /// Whether this transform maps a board of `size` onto itself.
    #[inline]
    pub const fn valid_for(self, size: Size) -> bool {
        size.is_square() || !self.swaps_axes()
    }

    /// The image of `p` on a board of `size`. `None` if `p` is off the board or the
    /// transform swaps the axes of a rectangular board.
    #[inline]
    pub const fn apply(self, p: Point, size: Size) -> Option<Point> {
        if !size.contains(p) || !self.valid_for(size) {
            return None;
        }
        Some(self.apply_unchecked(p, size))
    }

    /// The image of a point known to be on the board, for a transform known to be valid
    /// for it (the hot path of the hashes). Out-of-range input gives a meaningless point,
    /// never a panic.
    #[inline(always)]
    pub const fn apply_unchecked(self, p: Point, size: Size) -> Point {
        let (swap, mx, my) = PARTS[self.0 as usize & 7];
        let (x, y) = if swap { (p.y, p.x) } else { (p.x, p.y) };
        // After a swap on a square board both sides are equal; otherwise the sides keep
        // their axes.
        let (w, h) = (size.width(), size.height());
        let x = if mx {
            w.wrapping_sub(1).wrapping_sub(x)
        } else {
            x
        };
        let y = if my {
            h.wrapping_sub(1).wrapping_sub(y)
        } else {
            y
        };
        Point { x, y }
    }

    /// The transforms valid on a board of `size`: all 8 on a square board, else 0, 1, 2, 4.
    #[inline]
    pub fn all_for(size: Size) -> &'static [Transform] {
        if size.is_square() {
            &Transform::ALL
        } else {
            &Transform::RECTANGULAR
        }
    }
}

/// A set of transforms, as a bit mask (bit `t` for transform `t`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TransformSet(pub u8);

impl TransformSet {
    /// The set holding only the identity.
    pub const IDENTITY: TransformSet = TransformSet(1);

    /// The transforms valid on a board of `size` ([`Transform::all_for`]) as a set: the
    /// symmetries of its empty board.
    #[inline]
    pub const fn valid_for(size: Size) -> TransformSet {
        if size.is_square() {
            TransformSet(0xff)
        } else {
            // 0, 1, 2 and 4: the transforms that keep the axes.
            TransformSet(0b1_0111)
        }
    }

    /// Whether `t` is in the set.
    #[inline]
    pub const fn contains(self, t: Transform) -> bool {
        self.0 & (1 << t.0) != 0
    }

    /// The set with `t` added.
    #[inline]
    pub const fn with(self, t: Transform) -> TransformSet {
        TransformSet(self.0 | (1 << t.0))
    }

    /// Number of transforms in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The transforms in the set, in bGo's order.
    pub fn iter(self) -> impl Iterator<Item = Transform> {
        Transform::ALL
            .into_iter()
            .filter(move |t| self.contains(*t))
    }
}

/// Applies `t` to a whole board given as cells in row-major order (`y * width + x`),
/// writing the transformed board into `out` (same layout). Returns `false` (and leaves
/// `out` untouched) if the slices are not `size.points()` long or `t` is invalid for `size`.
pub fn transform_cells(t: Transform, size: Size, cells: &[Stone], out: &mut [Stone]) -> bool {
    let n = size.points();
    if cells.len() != n || out.len() != n || !t.valid_for(size) {
        return false;
    }
    let w = size.width() as usize;
    for (i, &s) in cells.iter().enumerate() {
        let p = Point::new((i % w) as u8, (i / w) as u8);
        let q = t.apply_unchecked(p, size);
        if let Some(slot) = out.get_mut(q.y as usize * w + q.x as usize) {
            *slot = s;
        }
    }
    true
}

/// Exchanges black and white in a row-major cell array.
pub fn swap_colors(cells: &mut [Stone]) {
    for c in cells {
        *c = c.swapped();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s19() -> Size {
        Size::STANDARD
    }

    #[test]
    fn valid_sets_hold_the_valid_transforms() {
        for (w, h) in [(19, 19), (9, 9), (1, 1), (13, 19), (19, 2)] {
            let size = Size::new(w, h).unwrap();
            let set = TransformSet::valid_for(size);
            assert!(set.iter().eq(Transform::all_for(size).iter().copied()));
        }
    }

    #[test]
    fn matches_bgo_table_on_19x19() {
        // (x, y) = (2, 5): apply each formula from the reference table.
        let p = Point::new(2, 5);
        let expect = [
            (2, 5),
            (16, 5),
            (2, 13),
            (5, 16),
            (16, 13),
            (13, 2),
            (5, 2),
            (13, 16),
        ];
        for (t, e) in Transform::ALL.iter().zip(expect) {
            assert_eq!(
                t.apply(p, s19()),
                Some(Point::new(e.0, e.1)),
                "transform {}",
                t.0
            );
        }
    }

    #[test]
    fn inverse_and_composition_tables() {
        for size in [s19(), Size::square(9).unwrap(), Size::square(1).unwrap()] {
            for &a in &Transform::ALL {
                for y in 0..size.height() {
                    for x in 0..size.width() {
                        let p = Point::new(x, y);
                        let q = a.apply(p, size).unwrap();
                        assert_eq!(a.inverse().apply(q, size), Some(p));
                        for &b in &Transform::ALL {
                            let r = b.apply(q, size).unwrap();
                            assert_eq!(a.then(b).apply(p, size), Some(r));
                        }
                    }
                }
            }
        }
        assert_eq!(Transform(3).inverse(), Transform(5));
    }

    #[test]
    fn rectangular_boards_have_four() {
        let size = Size::new(13, 7).unwrap();
        for &t in &Transform::ALL {
            let ok = t.apply(Point::new(12, 6), size);
            assert_eq!(ok.is_some(), Transform::RECTANGULAR.contains(&t));
        }
        assert_eq!(
            Transform(1).apply(Point::new(0, 2), size),
            Some(Point::new(12, 2))
        );
        assert_eq!(
            Transform(4).apply(Point::new(0, 0), size),
            Some(Point::new(12, 6))
        );
        assert_eq!(Transform::new(8), None);
    }
}
