//! The geometry of the predictor's local patterns: the points around a candidate move in
//! rings of growing distance, how the 8 symmetries permute them, and the Zobrist values that
//! hash a pattern.
//!
//! **Distance.** As Stern, Herbrich and Graepel (2006) and Coulom (2007) measure it, the
//! distance of an offset `(dx, dy)` from the centre is `|dx| + |dy| + max(|dx|, |dy|)`:
//! 2 for the 4 neighbours, 3 for the diagonals, 4 two points away in a straight line, ...
//! A pattern of size `s` holds every offset at distance at most [`SIZE_DISTANCE`]`[s]`,
//! so size 0 is the 3x3 square (distance 3), size 1 the diamond of 13 points
//! (distance 4), and each larger size adds a ring. Offsets are listed ring by ring
//! ([`OFFSETS`]): size `s` is the first [`SIZE_END`]`[s]` of them.
//!
//! **Cells.** A cell is one of [`CELL_STATES`] states, with colours relative to the player
//! to move (so a pattern and its colour exchange for the other player are one pattern):
//! empty, off the board, or a stone of the player to move or of the opponent, the stones of
//! the 3x3 square with the liberties of their group (1, 2, 3 or more), the stones of the
//! outer rings without.
//!
//! **Hash.** A pattern's hash under transform `t` is the XOR, over its non-empty cells at
//! offset `i`, of `ZOBRIST[PERM[t][i]][state]`: the hash of the pattern turned by `t`. Its
//! canonical key is the smallest of the 8, XORed with the size's salt ([`SIZE_SALT`]) and
//! rotated by 32 bits ([`super::features::canonical_key`]): equal for a pattern in every
//! orientation and never equal across sizes (but by a 64-bit collision). Empty cells add
//! nothing, so a mostly empty neighbourhood costs little.

/// The largest distance of a pattern ring.
pub const MAX_DISTANCE: u8 = 12;

/// The largest `|dx|` or `|dy|` of an offset within [`MAX_DISTANCE`]: how far a board must
/// be padded for the largest pattern.
pub const MAX_REACH: u8 = MAX_DISTANCE / 2;

/// Number of pattern sizes.
pub const SIZES: usize = (MAX_DISTANCE - 2) as usize;

/// The largest distance of each pattern size: 3, 4, ..., [`MAX_DISTANCE`].
pub const SIZE_DISTANCE: [u8; SIZES] = size_distances();

/// The distance of an offset (see the module documentation).
#[inline]
pub const fn distance(dx: i32, dy: i32) -> u32 {
    let (a, b) = (dx.unsigned_abs(), dy.unsigned_abs());
    a + b + if a > b { a } else { b }
}

const fn size_distances() -> [u8; SIZES] {
    let mut d = [0u8; SIZES];
    let mut s = 0;
    while s < SIZES {
        d[s] = s as u8 + 3;
        s += 1;
    }
    d
}

/// Number of offsets within [`MAX_DISTANCE`] (the centre excluded).
pub const OFFSET_COUNT: usize = count_offsets();

const fn count_offsets() -> usize {
    let r = MAX_REACH as i32;
    let mut n = 0;
    let mut dy = -r;
    while dy <= r {
        let mut dx = -r;
        while dx <= r {
            let d = distance(dx, dy);
            if d > 0 && d <= MAX_DISTANCE as u32 {
                n += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    n
}

/// The offsets `(dx, dy)` around the centre, ordered by distance, then by `dy`, then by `dx`.
pub const OFFSETS: [(i8, i8); OFFSET_COUNT] = offsets();

const fn offsets() -> [(i8, i8); OFFSET_COUNT] {
    let mut out = [(0i8, 0i8); OFFSET_COUNT];
    let r = MAX_REACH as i32;
    let mut n = 0;
    let mut d = 1;
    while d <= MAX_DISTANCE as u32 {
        let mut dy = -r;
        while dy <= r {
            let mut dx = -r;
            while dx <= r {
                if distance(dx, dy) == d {
                    out[n] = (dx as i8, dy as i8);
                    n += 1;
                }
                dx += 1;
            }
            dy += 1;
        }
        d += 1;
    }
    out
}

/// `SIZE_END[s]`: the offsets of size `s` are `OFFSETS[..SIZE_END[s]]`.
pub const SIZE_END: [usize; SIZES] = size_ends();

const fn size_ends() -> [usize; SIZES] {
    let mut ends = [0usize; SIZES];
    let mut s = 0;
    while s < SIZES {
        let mut n = 0;
        while n < OFFSET_COUNT
            && distance(OFFSETS[n].0 as i32, OFFSETS[n].1 as i32) <= SIZE_DISTANCE[s] as u32
        {
            n += 1;
        }
        ends[s] = n;
        s += 1;
    }
    ends
}

/// Offsets of the 3x3 square (size 0), whose stones carry their liberties.
pub const INNER: usize = SIZE_END[0];

/// The image of an offset under transform `t` (bGo's numbering, as
/// [`crate::transform::Transform`]: optionally swap the axes, then mirror x and/or y).
pub const fn transform_offset(t: usize, dx: i8, dy: i8) -> (i8, i8) {
    // (swap axes, mirror x, mirror y) of each transform, as in `transform.rs`.
    const PARTS: [(bool, bool, bool); 8] = [
        (false, false, false),
        (false, true, false),
        (false, false, true),
        (true, false, true),
        (false, true, true),
        (true, true, false),
        (true, false, false),
        (true, true, true),
    ];
    let (swap, mx, my) = PARTS[t & 7];
    let (mut a, mut b) = if swap { (dy, dx) } else { (dx, dy) };
    if mx {
        a = -a;
    }
    if my {
        b = -b;
    }
    (a, b)
}

/// `PERM[t][i]`: the index in [`OFFSETS`] of the image of offset `i` under transform `t`
/// (in the same ring: the transforms keep distances).
pub const PERM: [[u8; OFFSET_COUNT]; 8] = perms();

const fn perms() -> [[u8; OFFSET_COUNT]; 8] {
    let mut out = [[0u8; OFFSET_COUNT]; 8];
    let mut t = 0;
    while t < 8 {
        let mut i = 0;
        while i < OFFSET_COUNT {
            let (a, b) = transform_offset(t, OFFSETS[i].0, OFFSETS[i].1);
            let mut j = 0;
            while j < OFFSET_COUNT {
                if OFFSETS[j].0 == a && OFFSETS[j].1 == b {
                    out[t][i] = j as u8;
                }
                j += 1;
            }
            i += 1;
        }
        t += 1;
    }
    out
}

/// `PERM_BY_OFFSET[i][t]` = `PERM[t][i]`: the 8 images of offset `i` side by side, as
/// hashing a cell under the 8 transforms reads them.
pub const PERM_BY_OFFSET: [[u8; 8]; OFFSET_COUNT] = perms_by_offset();

const fn perms_by_offset() -> [[u8; 8]; OFFSET_COUNT] {
    let mut out = [[0u8; 8]; OFFSET_COUNT];
    let mut i = 0;
    while i < OFFSET_COUNT {
        let mut t = 0;
        while t < 8 {
            out[i][t] = PERM[t][i];
            t += 1;
        }
        i += 1;
    }
    out
}

/// Number of cell states (see [`Cell`]).
pub const CELL_STATES: usize = 8;

/// A cell of a pattern, relative to the player to move (its `u8` value is the state).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum Cell {
    /// An empty point.
    Empty = 0,
    /// Off the board.
    Off = 1,
    /// A stone of the player to move whose group has 1 liberty.
    Own1 = 2,
    /// ... 2 liberties.
    Own2 = 3,
    /// ... 3 or more liberties (also: a stone of an outer ring, liberties not counted).
    Own3 = 4,
    /// A stone of the opponent whose group has 1 liberty.
    Opp1 = 5,
    /// ... 2 liberties.
    Opp2 = 6,
    /// ... 3 or more liberties (also: a stone of an outer ring).
    Opp3 = 7,
}

impl Cell {
    /// The cell of a stone of the player to move (`own`) or of the opponent whose group
    /// has `liberties`.
    #[inline]
    pub const fn stone(own: bool, liberties: u16) -> Cell {
        match (own, liberties) {
            (true, 0 | 1) => Cell::Own1,
            (true, 2) => Cell::Own2,
            (true, _) => Cell::Own3,
            (false, 0 | 1) => Cell::Opp1,
            (false, 2) => Cell::Opp2,
            (false, _) => Cell::Opp3,
        }
    }

    /// The cell as an outer ring sees it: stones without their liberties.
    #[inline]
    pub const fn outer(self) -> Cell {
        match self {
            Cell::Own1 | Cell::Own2 | Cell::Own3 => Cell::Own3,
            Cell::Opp1 | Cell::Opp2 | Cell::Opp3 => Cell::Opp3,
            other => other,
        }
    }

    /// The cell with state `v` (`v & 7`).
    #[inline]
    pub const fn from_u8(v: u8) -> Cell {
        match v & 7 {
            0 => Cell::Empty,
            1 => Cell::Off,
            2 => Cell::Own1,
            3 => Cell::Own2,
            4 => Cell::Own3,
            5 => Cell::Opp1,
            6 => Cell::Opp2,
            _ => Cell::Opp3,
        }
    }
}

/// SplitMix64, the generator of the Zobrist values (fixed seeds: the values are part of the
/// book format).
const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `ZOBRIST[i][state]`: the value of offset `i` holding a cell of that state (0 for empty).
pub const ZOBRIST: [[u64; CELL_STATES]; OFFSET_COUNT] = zobrist();

const fn zobrist() -> [[u64; CELL_STATES]; OFFSET_COUNT] {
    let mut z = [[0u64; CELL_STATES]; OFFSET_COUNT];
    let mut i = 0;
    while i < OFFSET_COUNT {
        let mut s = 1;
        while s < CELL_STATES {
            z[i][s] = splitmix64(0x6b69_6664_6578_0000 ^ ((i as u64) << 8) ^ s as u64);
            s += 1;
        }
        i += 1;
    }
    z
}

/// `SIZE_SALT[s]`, XORed into the canonical key of a size-`s` pattern.
pub const SIZE_SALT: [u64; SIZES] = salts();

const fn salts() -> [u64; SIZES] {
    let mut z = [0u64; SIZES];
    let mut s = 0;
    while s < SIZES {
        z[s] = splitmix64(0x7061_7474_6572_6e00 ^ s as u64);
        s += 1;
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_grow_as_published() {
        // 3x3, the 13-point diamond, then Stern et al.'s circular sizes.
        assert_eq!(
            SIZE_END,
            [8, 12, 20, 28, 36, 48, 60, 72, 88, 104],
            "offsets per size"
        );
        assert_eq!(OFFSET_COUNT, 104);
        for (i, &(dx, dy)) in OFFSETS.iter().enumerate().take(INNER) {
            assert!(dx.abs() <= 1 && dy.abs() <= 1, "offset {i}");
        }
        // Ordered by distance.
        for w in OFFSETS.windows(2) {
            assert!(
                distance(w[0].0 as i32, w[0].1 as i32) <= distance(w[1].0 as i32, w[1].1 as i32)
            );
        }
    }

    #[test]
    fn perms_are_the_board_transforms() {
        use crate::point::{Point, Size};
        use crate::transform::Transform;
        let size = Size::STANDARD;
        let c = Point::new(9, 9);
        for t in Transform::ALL {
            let mut seen = [false; OFFSET_COUNT];
            for (i, &(dx, dy)) in OFFSETS.iter().enumerate() {
                let p = Point::new((9 + dx) as u8, (9 + dy) as u8);
                let q = t.apply(p, size).unwrap();
                let j = PERM[t.index()][i] as usize;
                let (ex, ey) = OFFSETS[j];
                // The centre is fixed by every transform on a 19x19 board.
                assert_eq!(t.apply(c, size), Some(c));
                assert_eq!(
                    (q.x as i8 - 9, q.y as i8 - 9),
                    (ex, ey),
                    "t {t:?} offset {i}"
                );
                seen[j] = true;
            }
            assert!(seen.iter().all(|&s| s), "t {t:?} is a permutation");
        }
    }

    #[test]
    fn perm_by_offset_is_perm_transposed() {
        for (i, by_t) in PERM_BY_OFFSET.iter().enumerate() {
            for (t, &j) in by_t.iter().enumerate() {
                assert_eq!(j, PERM[t][i]);
            }
        }
    }

    #[test]
    fn zobrist_values_are_distinct() {
        let mut all: [u64; OFFSET_COUNT * (CELL_STATES - 1) + SIZES] =
            [0; OFFSET_COUNT * (CELL_STATES - 1) + SIZES];
        let mut n = 0;
        for row in &ZOBRIST {
            assert_eq!(row[0], 0);
            for &v in &row[1..] {
                all[n] = v;
                n += 1;
            }
        }
        for &s in &SIZE_SALT {
            all[n] = s;
            n += 1;
        }
        all.sort_unstable();
        assert!(all.windows(2).all(|w| w[0] != w[1]));
    }
}
