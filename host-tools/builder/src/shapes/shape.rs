//! Exact local patterns: the 3x3 square, the 13-point diamond and the 5x5 square around a
//! point, as codes that hold every cell, folded onto one canonical code under the 8
//! symmetries.
//!
//! **Cells**, relative to the player to move (so the colour exchange that makes every
//! mover the same colour folds a pattern for Black and its colour-exchanged twin for
//! White into one): 0 empty, 1 a stone of the player to move, 2 an opponent's stone,
//! 3 off the board (so edges and corners are part of the pattern).
//!
//! **Code.** The 25 cells of the 5x5 square around the point, row by row from the top-left,
//! cell `i` in bits `2i..2i+2`; the smaller shapes are the same code with the cells outside
//! them zero. The canonical code of a pattern is the smallest code among its 8 transforms
//! (transform `t` moves the cell at offset `(dx, dy)` to the offset that bGo's transform `t`
//! maps it to, as [`kifudex_core::Transform`] maps points).
//!
//! [`Window`] reads a position once into rows of 2-bit cells, padded by two off-board cells
//! on every side, so the 5x5 code of any point is five shifts and masks.

use kifudex_core::board::{Board, Tracking};
use kifudex_core::{Color, Point};

/// A local shape.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shape {
    /// The 3x3 square.
    Square3,
    /// The 13 points within two steps (`|dx| + |dy| <= 2`).
    Diamond,
    /// The 5x5 square.
    Square5,
}

impl Shape {
    /// Every shape, smallest first.
    pub const ALL: [Shape; 3] = [Shape::Square3, Shape::Diamond, Shape::Square5];

    /// The shape's name in outputs: `3x3`, `diamond`, `5x5`.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Square3 => "3x3",
            Shape::Diamond => "diamond",
            Shape::Square5 => "5x5",
        }
    }

    /// Whether the offset `(dx, dy)` (each within -2..=2) belongs to the shape.
    pub const fn contains(self, dx: i32, dy: i32) -> bool {
        match self {
            Shape::Square3 => dx.abs() <= 1 && dy.abs() <= 1,
            Shape::Diamond => dx.abs() + dy.abs() <= 2,
            Shape::Square5 => dx.abs() <= 2 && dy.abs() <= 2,
        }
    }

    const fn compute_mask(self) -> u64 {
        let mut m = 0;
        let mut i = 0;
        while i < 25 {
            if self.contains(i % 5 - 2, i / 5 - 2) {
                m |= 3u64 << (2 * i);
            }
            i += 1;
        }
        m
    }

    /// The bits of the 5x5 code that belong to the shape.
    #[inline]
    pub const fn mask(self) -> u64 {
        const MASKS: [u64; 3] = [
            Shape::Square3.compute_mask(),
            Shape::Diamond.compute_mask(),
            Shape::Square5.compute_mask(),
        ];
        MASKS[self as usize]
    }

    /// The number of cells of the shape, the centre included.
    pub fn cells(self) -> usize {
        (self.mask().count_ones() / 2) as usize
    }
}

/// Cell index (0..25) of each offset's image under each transform.
const PERM: [[usize; 25]; 8] = perm();

const fn perm() -> [[usize; 25]; 8] {
    let mut out = [[0usize; 25]; 8];
    let mut t = 0;
    while t < 8 {
        let mut i = 0;
        while i < 25 {
            let (dx, dy) = ((i % 5) as i8 - 2, (i / 5) as i8 - 2);
            let (a, b) = kifudex_core::predict::shape::transform_offset(t, dx, dy);
            out[t][i] = (b as i32 + 2) as usize * 5 + (a as i32 + 2) as usize;
            i += 1;
        }
        t += 1;
    }
    out
}

/// The code of `code`'s pattern turned by transform `t`.
pub fn transformed(code: u64, t: usize) -> u64 {
    let mut out = 0;
    for (i, &j) in PERM[t & 7].iter().enumerate() {
        out |= ((code >> (2 * i)) & 3) << (2 * j);
    }
    out
}

/// The canonical code of a (masked) code: the smallest of its 8 transforms.
pub fn canonical(code: u64) -> u64 {
    (0..8).map(|t| transformed(code, t)).min().unwrap_or(code)
}

/// Every distinct transform of a code (1 to 8 of them).
pub fn variants(code: u64) -> Vec<u64> {
    let mut v: Vec<u64> = (0..8).map(|t| transformed(code, t)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The pattern of a code as text rows: `X` a stone of the player to move, `O` an
/// opponent's, `.` empty, `#` off the board, `*` the point played; cells outside the shape
/// are blank.
pub fn rows(code: u64, shape: Shape) -> Vec<String> {
    let (lo, hi) = if shape == Shape::Square3 {
        (1, 3)
    } else {
        (0, 4)
    };
    (lo..=hi)
        .map(|y| {
            (lo..=hi)
                .map(|x| {
                    let i = y * 5 + x;
                    if i == 12 {
                        '*'
                    } else if !shape.contains(x - 2, y - 2) {
                        ' '
                    } else {
                        match (code >> (2 * i)) & 3 {
                            0 => '.',
                            1 => 'X',
                            2 => 'O',
                            _ => '#',
                        }
                    }
                })
                .collect()
        })
        .collect()
}

/// The stones in a code.
pub fn stones(code: u64) -> u32 {
    (0..25)
        .filter(|i| matches!((code >> (2 * i)) & 3, 1 | 2))
        .count() as u32
}

/// A position read for local codes (see the module documentation).
pub struct Window {
    /// Row `y + 2` holds row `y`'s cells, cell `x` in bits `2(x + 2)..`.
    rows: [u64; 23],
}

impl Window {
    /// Reads `board` as `to_move` sees it.
    pub fn new<T: Tracking>(board: &Board<T>, to_move: Color) -> Window {
        let size = board.size();
        let off_row = (1u64 << 46) - 1; // 23 cells of 3
        let mut rows = [off_row; 23];
        let own = board.stones(to_move).rows();
        let opp = board.stones(to_move.opponent()).rows();
        for y in 0..size.height() as usize {
            let mut r = off_row;
            for x in 0..size.width() as usize {
                let bit = 1u32 << x;
                let cell = if own[y] & bit != 0 {
                    1
                } else if opp[y] & bit != 0 {
                    2
                } else {
                    0
                };
                r &= !(3u64 << (2 * (x + 2)));
                r |= cell << (2 * (x + 2));
            }
            rows[y + 2] = r;
        }
        Window { rows }
    }

    /// The 5x5 code around `p` (a point of the board).
    #[inline]
    pub fn code5(&self, p: Point) -> u64 {
        let (x, y) = (p.x as usize, p.y as usize);
        let mut code = 0;
        for dy in 0..5 {
            let row = self.rows.get(y + dy).copied().unwrap_or(u64::MAX);
            code |= ((row >> (2 * x)) & 0x3ff) << (10 * dy);
        }
        code
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_have_their_cells() {
        assert_eq!(Shape::Square3.cells(), 9);
        assert_eq!(Shape::Diamond.cells(), 13);
        assert_eq!(Shape::Square5.cells(), 25);
    }

    #[test]
    fn the_transforms_form_the_symmetry_group() {
        let code: u64 = 0x0123_4567_89ab_cdef & ((1 << 50) - 1) & !(3 << 24);
        assert_eq!(transformed(code, 0), code);
        // Each transform is a bijection of cells and the 8 images of an asymmetric
        // pattern are distinct.
        assert_eq!(variants(code).len(), 8);
        for t in 0..8 {
            assert_eq!(canonical(transformed(code, t)), canonical(code));
        }
    }
}
