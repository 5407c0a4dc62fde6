//! What a corner or side placement of a pattern asks of one corner box ([`CornerKey`]),
//! and the hits it decides from the box (`crate::pattern::stored::corner` holds the boxes).

use crate::pattern::cells::Rect;
use crate::pattern::stored::corner::*;
use crate::pattern::stored::first::FIRST_LATE;
use crate::point::{Point, Stone};

use super::decide::{Decision, Next};

/// What a placement of a pattern asks of one corner box: exactly `stones` stones (1 to 8)
/// whose hash is `hash`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CornerKey {
    /// The corner (0 to 3).
    pub corner: u8,
    /// The stones the pattern puts in the box.
    pub stones: u8,
    /// Their hash.
    pub hash: u16,
    /// Whether the region is the box itself (its hits are then read from the box).
    pub whole: bool,
    /// The stones, bit `cell * 2 + white` each.
    pub set: u128,
}

impl CornerKey {
    /// The key of a region `region` whose content on board point `p` must be `stone(p)`
    /// (`None`: a wildcard): for the first corner whose box lies in the region, when the
    /// region asks for 1 to 8 stones there and has no wildcard in it.
    pub fn of(region: &Rect, stone: impl Fn(Point) -> Option<Stone>) -> Option<CornerKey> {
        let far = SIDE - BOX;
        (0..CORNERS).find_map(|c| {
            let (left, top) = (
                if c & 1 == 0 { 0 } else { far },
                if c & 2 == 0 { 0 } else { far },
            );
            let inside = region.left <= left
                && region.top <= top
                && region.right >= left + BOX - 1
                && region.bottom >= top + BOX - 1;
            if !inside {
                return None;
            }
            let (stones, hash, set) = pattern_key(c, &stone)?;
            let whole = region.left == left
                && region.top == top
                && region.right == left + BOX - 1
                && region.bottom == top + BOX - 1;
            (1..=BOX_STONES as u8)
                .contains(&stones)
                .then_some(CornerKey {
                    corner: c as u8,
                    stones,
                    hash,
                    whole,
                    set,
                })
        })
    }

    /// The hit of a pair whose region is the box ([`CornerKey::whole`]) in game `g` of
    /// `block`, when the box decides it: its box decided for the pattern's stones, the
    /// first of them exactly the pattern's ([`Decision::None`] otherwise), the position
    /// where the last of them came (known, and not shared with the next, as setup stones
    /// come together) and what follows: the next stone into the box (its move), nothing,
    /// or a stone that leaves first (the continuation read from the moves). `None`: not
    /// decided here (the first stones decide).
    #[inline]
    pub fn decide(&self, block: &CornerBlock<'_>, g: usize) -> Option<Decision> {
        let (c, k) = (self.corner as usize, self.stones as usize);
        if !self.whole || block.open(c, k) >> g & 1 == 1 {
            return None;
        }
        let mut set = 0u128;
        for i in 1..=k {
            let s = block.stone(c, i, g);
            if s as usize >= CELLS * 2 {
                return None;
            }
            set |= 1 << s;
        }
        if set != self.set {
            return Some(Decision::None);
        }
        let t = block.time(c, k, g);
        let (t2, s2) = (block.time(c, k + 1, g), block.stone(c, k + 1, g));
        if t >= FIRST_LATE || t2 == t {
            return None;
        }
        let next = match s2 {
            NO_STONE => Next::Nothing,
            LEFT_FIRST => Next::After(t as u32),
            _ if t2 >= FIRST_LATE => Next::After(t as u32),
            s => match cell_point(c, s / 2) {
                Some(p) => Next::Move(t2 as u32, p, s & 1 == 1),
                None => return None,
            },
        };
        Some(Decision::Hit(t as u32, next))
    }

    /// The games of `block` whose box has these stones' hash (decided or not).
    #[inline]
    pub fn same(&self, block: &CornerBlock<'_>) -> u64 {
        block.same(self.corner as usize, self.stones as usize, self.hash)
    }

    /// The bytes of a block's corner boxes that a search with this key reads (one of
    /// each line): the hash column, the word of undecided games, and for a whole region
    /// the times and stones of the `k`-th and next placements.
    pub fn reads(&self) -> impl Iterator<Item = usize> {
        CornerBlock::lines_read(self.corner as usize, self.stones as usize, self.whole)
    }

    /// The games of `block` whose box is not decided for these stones.
    #[inline]
    pub fn open(&self, block: &CornerBlock<'_>) -> u64 {
        block.open(self.corner as usize, self.stones as usize)
    }
}
