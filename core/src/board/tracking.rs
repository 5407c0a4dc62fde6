//! What a board keeps up to date besides its stones ([`Tracking`]): the hashes and keys of
//! all 8 orientations ([`Hashed`]), or nothing ([`StonesOnly`]).

use crate::hash::{BgoHashes, Keys, BGO_TABLE, ZOBRIST};
use crate::point::{Color, Size};
use crate::transform::Transform;

/// What a board keeps up to date as stones come and go, besides the stones themselves.
///
/// [`Hashed`] (the default) keeps the 8 bGo hashes and the 8 Zobrist keys: what replaying
/// games for an index needs, position after position. [`StonesOnly`] keeps nothing more:
/// a query that needs the keys of one final position computes them once at the end
/// ([`Board::position_key`](super::Board::position_key)), which on a microcontroller costs a fraction of
/// keeping 16 values per stone up to date.
pub trait Tracking: Clone + core::fmt::Debug + PartialEq + Eq + Default {
    /// A stone of `color` at `(x, y)` was added (`add`) or removed on a board of `size`.
    fn toggle(&mut self, size: Size, color: Color, x: u32, y: u32, add: bool);

    /// Whether `t` may map the position onto itself: `false` only when that is certain
    /// (the keys differ); the board then compares the stones.
    fn may_be_symmetric_under(&self, t: Transform) -> bool;
}

/// The 8 bGo hashes and the 8 Zobrist keys, one per transform, kept incrementally.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Hashed {
    pub(super) bgo: BgoHashes,
    pub(super) keys: Keys,
}

impl Tracking for Hashed {
    #[inline(always)]
    fn toggle(&mut self, size: Size, color: Color, x: u32, y: u32, add: bool) {
        let wm = (size.width() as u32).wrapping_sub(1);
        let hm = (size.height() as u32).wrapping_sub(1);
        let rx = wm.wrapping_sub(x);
        let ry = hm.wrapping_sub(y);
        let negate = add != (color == Color::Black);
        let z = &ZOBRIST[color.index()];
        // One step per transform, written out (no index array, no mask, no loop): on a
        // Cortex-M this is about half the instructions of a loop over the 8 transforms.
        let mut step = |t: usize, i: u32| {
            let i = i as usize;
            if let (Some(&v), Some(&k), Some(h), Some(key)) = (
                BGO_TABLE.get(i),
                z.get(i),
                self.bgo.0.get_mut(t),
                self.keys.0.get_mut(t),
            ) {
                let v = v as i64;
                *h += if negate { -v } else { v };
                *key ^= k;
            }
        };
        step(0, y * 19 + x);
        step(1, y * 19 + rx);
        step(2, ry * 19 + x);
        step(4, ry * 19 + rx);
        // Transforms 3, 5, 6 and 7 swap the axes: only for square boards.
        if size.is_square() {
            step(3, rx * 19 + y);
            step(5, x * 19 + ry);
            step(6, x * 19 + y);
            step(7, rx * 19 + ry);
        }
    }

    #[inline]
    fn may_be_symmetric_under(&self, t: Transform) -> bool {
        self.keys.0.get(t.index()) == Some(&self.keys.0[0])
    }
}

/// Nothing but the stones: for a board whose keys are computed once, at the end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct StonesOnly;

impl Tracking for StonesOnly {
    #[inline(always)]
    fn toggle(&mut self, _size: Size, _color: Color, _x: u32, _y: u32, _add: bool) {}

    #[inline]
    fn may_be_symmetric_under(&self, _t: Transform) -> bool {
        true
    }
}
