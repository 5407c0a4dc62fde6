//! A pattern compiled for searching: one [`Variant`] per (transform, colour choice) that
//! can match, each written in the board's own frame as bit masks, with its allowed
//! placements; the pattern's own symmetry and the classes of continuation cells.
//!
//! **Board frame.** The contract (`docs/CONTRACTS.md`) defines a match on the
//! *transformed* board: transform `t` applied to the board, the pattern placed at an allowed rectangle `R`. Undoing `t`
//! turns that into a condition on the real board: the region `t⁻¹(R)` must hold the
//! pattern transformed back. So each variant is the pattern seen in the board's frame
//! (`width x height`, axes swapped for transforms 3, 5, 6, 7), and its placements are the
//! top-left points of the regions `t⁻¹(R)` of the allowed `R`. A placement of a variant is
//! one match candidate; its region is `Rect::at(placement, width, height)`.
//!
//! **Order and duplicates.** Variants are kept in the contract's preference order: smaller
//! transform first, as-is before colour-exchanged. A later variant whose masks equal an
//! earlier one's holds on a region exactly when the earlier one does, and the earlier one
//! is the hit's match there: its placements shared with the earlier variant are dropped
//! (a symmetric pattern searches each region once).
//!
//! **Masks.** For each row of a variant, bit `x` of `need_black` says the cell must be
//! black, of `care_black` that the cell's blackness matters (`X` must be black; `.`, `O`,
//! `o` must not be); likewise for white. A region matches when, row by row,
//! `black & care_black == need_black` and `white & care_white == need_white`.

use crate::point::{Point, Size, Stone, MAX_SIDE};
use crate::pointset::PointSet;
use crate::search::{equivalent, representative};
use crate::transform::{Transform, TransformSet};
use crate::{Move, Stone as S};

use super::cells::{Area, Cell, Pattern, Rect};

/// The most variants a pattern has: 8 transforms, 2 colour choices.
pub const MAX_VARIANTS: usize = 16;

/// How a board point changed between two positions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum Change {
    /// Empty to black (a black move or setup stone).
    EmptyToBlack = 0,
    /// Empty to white.
    EmptyToWhite = 1,
    /// Black to empty (a capture or `AE`).
    BlackToEmpty = 2,
    /// White to empty.
    WhiteToEmpty = 3,
    /// Black to white (setup only).
    BlackToWhite = 4,
    /// White to black (setup only).
    WhiteToBlack = 5,
}

impl Change {
    /// All kinds, in their numeric order.
    pub const ALL: [Change; 6] = [
        Change::EmptyToBlack,
        Change::EmptyToWhite,
        Change::BlackToEmpty,
        Change::WhiteToEmpty,
        Change::BlackToWhite,
        Change::WhiteToBlack,
    ];

    /// The change from `old` to `new`, `None` if they are equal.
    pub const fn of(old: Stone, new: Stone) -> Option<Change> {
        match (old, new) {
            (S::Empty, S::Black) => Some(Change::EmptyToBlack),
            (S::Empty, S::White) => Some(Change::EmptyToWhite),
            (S::Black, S::Empty) => Some(Change::BlackToEmpty),
            (S::White, S::Empty) => Some(Change::WhiteToEmpty),
            (S::Black, S::White) => Some(Change::BlackToWhite),
            (S::White, S::Black) => Some(Change::WhiteToBlack),
            _ => None,
        }
    }

    /// The contents before and after.
    pub const fn stones(self) -> (Stone, Stone) {
        match self {
            Change::EmptyToBlack => (S::Empty, S::Black),
            Change::EmptyToWhite => (S::Empty, S::White),
            Change::BlackToEmpty => (S::Black, S::Empty),
            Change::WhiteToEmpty => (S::White, S::Empty),
            Change::BlackToWhite => (S::Black, S::White),
            Change::WhiteToBlack => (S::White, S::Black),
        }
    }
}

/// The pattern as seen in the board's frame for one transform and colour choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The transform of the match (bGo numbering).
    pub transform: Transform,
    /// Whether the match exchanges black and white.
    pub swapped: bool,
    /// Width in the board's frame.
    pub width: u8,
    /// Height in the board's frame.
    pub height: u8,
    /// `0` if the variant has the pattern's own width and height, `1` if they are
    /// exchanged: regions of different groups never coincide.
    pub group: u8,
    /// Allowed top-left points of its regions (after dropping those an earlier equal
    /// variant covers).
    pub allowed: PointSet,
    /// Cells that must be black (rows of the variant's grid).
    pub need_black: PointSet,
    /// Cells whose blackness matters.
    pub care_black: PointSet,
    /// Cells that must be white.
    pub need_white: PointSet,
    /// Cells whose whiteness matters.
    pub care_white: PointSet,
    /// For each [`Change`], the cells that accept the new content but not the old: only a
    /// change of such a cell can make a match appear.
    pub triggers: [PointSet; 6],
    /// Bits `0..width` of a row.
    row_mask: u32,
}

impl Variant {
    /// Whether the region with top-left `p` matches the board given by its black and
    /// white stones. `p` must be a placement of the variant (the region on the board).
    #[inline]
    pub fn matches(&self, p: Point, black: &PointSet, white: &PointSet) -> bool {
        let (px, py) = (p.x as u32, p.y as usize);
        let m = self.row_mask;
        for r in 0..self.height as usize {
            let y = py + r;
            let b = (black.rows().get(y).copied().unwrap_or(0) >> px) & m;
            let w = (white.rows().get(y).copied().unwrap_or(0) >> px) & m;
            let (cb, nb) = (self.care_black.rows()[r], self.need_black.rows()[r]);
            let (cw, nw) = (self.care_white.rows()[r], self.need_white.rows()[r]);
            if b & cb != nb || w & cw != nw {
                return false;
            }
        }
        true
    }

    /// The placements among `candidates` whose region matches the board, all at once
    /// (bit-parallel over the placements, one pass per constrained cell).
    pub fn matches_all(
        &self,
        candidates: &PointSet,
        black: &PointSet,
        white: &PointSet,
    ) -> PointSet {
        let mut m = *candidates;
        if m.is_empty() {
            return m;
        }
        // Stones first: on a sparse board they leave few placements early.
        let passes: [(PointSet, &PointSet, bool); 4] = [
            (self.need_black, black, true),
            (self.need_white, white, true),
            (self.care_black - self.need_black, black, false),
            (self.care_white - self.need_white, white, false),
        ];
        let mut rows = *m.rows();
        for (cells, stones, want) in passes {
            for c in cells.iter() {
                let mut any = 0;
                for (y, row) in rows.iter_mut().enumerate() {
                    if *row == 0 {
                        continue;
                    }
                    let s = stones.row((y + c.y as usize) as u8) >> c.x;
                    *row &= if want { s } else { !s };
                    any |= *row;
                }
                if any == 0 {
                    return PointSet::EMPTY;
                }
            }
        }
        m = PointSet::from_rows(&rows);
        m
    }

    /// The region of the placement `p`.
    #[inline]
    pub fn region(&self, p: Point) -> Rect {
        Rect::at(p, self.width, self.height)
    }
}

/// A pattern ready to search: its variants, its symmetry and its continuation classes.
#[derive(Clone, Debug)]
pub struct PatternQuery {
    pattern: Pattern,
    area: Area,
    fixed_color: bool,
    variants: heapless::Vec<Variant, MAX_VARIANTS>,
    symmetry: TransformSet,
    has_stones: bool,
    /// The shown cell of each cell's class, by `y * width + x`.
    class_table: [Point; crate::point::MAX_POINTS],
}

const BOARD: Size = Size::STANDARD;

impl PatternQuery {
    /// Compiles `pattern` for the placements of `area`; with `fixed_color` only the
    /// colours as given are searched.
    pub fn new(pattern: &Pattern, area: Area, fixed_color: bool) -> PatternQuery {
        let (w, h) = (pattern.width(), pattern.height());
        let origins = area.placements(w, h);
        let mut variants: heapless::Vec<Variant, MAX_VARIANTS> = heapless::Vec::new();
        for &t in &Transform::ALL {
            for swapped in [false, true] {
                if swapped && fixed_color {
                    continue;
                }
                let mut v = variant(pattern, &origins, t, swapped);
                for u in variants.iter() {
                    if u.width == v.width && u.height == v.height && same_masks(u, &v) {
                        v.allowed = v.allowed - u.allowed;
                    }
                }
                if !v.allowed.is_empty() {
                    let _ = variants.push(v);
                }
            }
        }
        let sym = symmetry(pattern, &origins);
        let mut class_table = [Point::new(0, 0); crate::point::MAX_POINTS];
        for y in 0..h {
            for x in 0..w {
                if let Some(slot) = class_table.get_mut(y as usize * w as usize + x as usize) {
                    *slot = representative(Point::new(x, y), sym, pattern.size());
                }
            }
        }
        PatternQuery {
            class_table,
            symmetry: sym,
            has_stones: pattern
                .cells()
                .iter()
                .any(|c| matches!(c, Cell::Black | Cell::White)),
            pattern: pattern.clone(),
            area,
            fixed_color,
            variants,
        }
    }

    /// The pattern.
    pub fn pattern(&self) -> &Pattern {
        &self.pattern
    }

    /// The area.
    pub fn area(&self) -> Area {
        self.area
    }

    /// Whether colours are searched only as given.
    pub fn fixed_color(&self) -> bool {
        self.fixed_color
    }

    /// Whether the pattern has a cell that must hold a stone (`X` or `O`).
    pub fn has_stones(&self) -> bool {
        self.has_stones
    }

    /// The variants, in preference order.
    pub fn variants(&self) -> &[Variant] {
        &self.variants
    }

    /// The pattern's symmetry group: the grid transforms that map the pattern and the set
    /// of allowed placements onto themselves.
    pub fn symmetries(&self) -> TransformSet {
        self.symmetry
    }

    /// The pattern cell shown for the class of `cell` (as `search` shows a class).
    #[inline]
    pub fn class_of(&self, cell: Point) -> Point {
        let i = cell.y as usize * self.pattern.width() as usize + cell.x as usize;
        match self.class_table.get(i) {
            Some(&c) if cell.x < self.pattern.width() => c,
            _ => representative(cell, self.symmetry, self.pattern.size()),
        }
    }

    /// The cells of the class of `cell`, sorted by `y * width + x`.
    pub fn equivalent(&self, cell: Point) -> heapless::Vec<Point, 8> {
        equivalent(Move::Play(cell), self.symmetry, self.pattern.size())
            .iter()
            .filter_map(|m| m.point())
            .collect()
    }

    /// The pattern cell under board point `q` for a match of variant `v` at placement `p`
    /// (`q` inside the region): the transformed point relative to the transformed region.
    #[inline]
    pub fn pattern_cell(&self, v: &Variant, p: Point, q: Point) -> Point {
        // The region is a board of the pattern's size seen through the transform: the
        // point's place in it transformed there (one transform, not three on the board).
        let d = Point::new(q.x.wrapping_sub(p.x), q.y.wrapping_sub(p.y));
        v.transform.apply_unchecked(d, self.pattern.size())
    }
}

fn same_masks(a: &Variant, b: &Variant) -> bool {
    a.need_black == b.need_black
        && a.care_black == b.care_black
        && a.need_white == b.need_white
        && a.care_white == b.care_white
}

/// Variant `(t, swapped)` of `pattern`, with the board-frame placements whose transformed
/// region has an allowed top-left in `origins`.
fn variant(pattern: &Pattern, origins: &PointSet, t: Transform, swapped: bool) -> Variant {
    let (w, h) = (pattern.width(), pattern.height());
    let (vw, vh) = if t.swaps_axes() { (h, w) } else { (w, h) };
    let mut v = Variant {
        transform: t,
        swapped,
        width: vw,
        height: vh,
        group: (t.swaps_axes() && w != h) as u8,
        allowed: PointSet::EMPTY,
        need_black: PointSet::EMPTY,
        care_black: PointSet::EMPTY,
        need_white: PointSet::EMPTY,
        care_white: PointSet::EMPTY,
        triggers: [PointSet::EMPTY; 6],
        row_mask: ((1u64 << vw) - 1) as u32,
    };
    // The cells: board-frame cell c of the region at (0, 0) shows the pattern cell
    // t(c) - origin, origin the top-left of the transformed region.
    let origin0 = Rect::at(Point::new(0, 0), vw, vh)
        .transformed(t, BOARD)
        .top_left();
    for y in 0..vh {
        for x in 0..vw {
            let c = Point::new(x, y);
            let tc = t.apply_unchecked(c, BOARD);
            let pc = Point::new(tc.x - origin0.x, tc.y - origin0.y);
            let mut cell = pattern.cell(pc);
            if swapped {
                cell = cell.swapped();
            }
            match cell {
                Cell::Empty => {
                    v.care_black.insert(c);
                    v.care_white.insert(c);
                }
                Cell::Black => {
                    v.care_black.insert(c);
                    v.need_black.insert(c);
                }
                Cell::White => {
                    v.care_white.insert(c);
                    v.need_white.insert(c);
                }
                Cell::BlackOrEmpty => {
                    v.care_white.insert(c);
                }
                Cell::WhiteOrEmpty => {
                    v.care_black.insert(c);
                }
                Cell::Any => {}
            }
            for k in Change::ALL {
                let (old, new) = k.stones();
                if cell.accepts(new) && !cell.accepts(old) {
                    v.triggers[k as usize].insert(c);
                }
            }
        }
    }
    // The placement of each allowed origin: the top-left of its region transformed back
    // (the transform is a bijection of the board's rectangles).
    let back = t.inverse();
    for o in origins.iter() {
        if o.x > MAX_SIDE - w || o.y > MAX_SIDE - h {
            continue;
        }
        let p = Rect::at(o, w, h).transformed(back, BOARD).top_left();
        if p.x <= MAX_SIDE - vw && p.y <= MAX_SIDE - vh {
            v.allowed.insert(p);
        }
    }
    v
}

/// The grid transforms that map the pattern onto itself and the allowed placements onto
/// themselves (as board transforms of the placed rectangles).
fn symmetry(pattern: &Pattern, origins: &PointSet) -> TransformSet {
    let (w, h) = (pattern.width(), pattern.height());
    let mut set = TransformSet::IDENTITY;
    for &u in Transform::all_for(pattern.size()) {
        if u == Transform::IDENTITY || !pattern.is_symmetric_under(u) {
            continue;
        }
        // u keeps the grid's shape (square, or no axis swap), so each placed rectangle
        // maps to a w x h rectangle; its top-left must be allowed.
        let maps_onto = origins
            .iter()
            .all(|o| origins.contains(Rect::at(o, w, h).transformed(u, BOARD).top_left()));
        if maps_onto {
            set = set.with(u);
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_cells_are_the_board_transform_relative_to_the_transformed_region() {
        // The region and the point transformed on the board, the point taken from the
        // transformed region's top-left corner: what `pattern_cell` computes in one step.
        for (rows, area) in [
            ("..../..../..X*/..*O", "0,0,0,0"),
            ("...../X.O.X", "1,0,13,0"),
            ("XO./.X.", ""),
            ("X.O", "2,3,16,5"),
        ] {
            let query = q(rows, area, false);
            for v in query.variants() {
                for p in v.allowed.iter() {
                    let r = v.region(p);
                    let origin = r.transformed(v.transform, BOARD).top_left();
                    for y in r.top..=r.bottom {
                        for x in r.left..=r.right {
                            let cell = Point::new(x, y);
                            let tq = v.transform.apply_unchecked(cell, BOARD);
                            let want = Point::new(tq.x - origin.x, tq.y - origin.y);
                            assert_eq!(query.pattern_cell(v, p, cell), want, "{rows} {p:?}");
                            assert!(want.x < query.pattern().width());
                            assert!(want.y < query.pattern().height());
                        }
                    }
                }
            }
        }
    }

    fn q(rows: &str, area: &str, fixed: bool) -> PatternQuery {
        let area = if area.is_empty() {
            Area::ALL
        } else {
            Area::parse(area).unwrap()
        };
        PatternQuery::new(&Pattern::parse(rows).unwrap(), area, fixed)
    }

    fn board(black: &[(u8, u8)], white: &[(u8, u8)]) -> (PointSet, PointSet) {
        let b = black.iter().map(|&(x, y)| Point::new(x, y)).collect();
        let w = white.iter().map(|&(x, y)| Point::new(x, y)).collect();
        (b, w)
    }

    #[test]
    fn corner_variants_cover_the_four_corners() {
        let q = q("..../..../..X*/..*O", "0,0,0,0", false);
        // 8 transforms x 2 colours; the pattern is symmetric under transpose (6), so the
        // transposed variants repeat the others on the same corners.
        assert_eq!(q.variants().len(), 8);
        let tops: heapless::Vec<Point, 16> = q
            .variants()
            .iter()
            .map(|v| v.allowed.first().unwrap())
            .collect();
        for c in [(0, 0), (15, 0), (0, 15), (15, 15)] {
            assert!(tops.contains(&Point::new(c.0, c.1)), "{c:?}");
        }
        assert_eq!(q.symmetries(), TransformSet(0b0100_0001));
        // Transform 0 as is: X at (2,2), O at (3,3) in the top-left corner.
        let v = &q.variants()[0];
        let (b, w) = board(&[(2, 2)], &[(3, 3)]);
        assert!(v.matches(Point::new(0, 0), &b, &w));
        let (b2, w2) = board(&[(2, 2), (0, 0)], &[(3, 3)]);
        assert!(!v.matches(Point::new(0, 0), &b2, &w2));
        // Colour exchanged variant matches the swapped board.
        let vs = q.variants().iter().find(|v| v.swapped).unwrap();
        assert_eq!(vs.transform, Transform::IDENTITY);
        assert!(vs.matches(Point::new(0, 0), &w, &b));
    }

    #[test]
    fn rectangular_pattern_variants() {
        // 3 wide, 1 high: transforms swapping the axes stand it upright.
        let q = q("XO.", "", true);
        let v3 = q
            .variants()
            .iter()
            .find(|v| v.transform == Transform::ALL[3])
            .unwrap();
        assert_eq!((v3.width, v3.height, v3.group), (1, 3, 1));
        // Transform 3 maps (x, y) to (y, 18 - x): board (5,5), (5,6), (5,7) become
        // (5,13), (6,13), (7,13), the pattern's cells 0, 1, 2.
        let p = Point::new(5, 5);
        assert_eq!(q.pattern_cell(v3, p, Point::new(5, 5)), Point::new(0, 0));
        assert_eq!(q.pattern_cell(v3, p, Point::new(5, 7)), Point::new(2, 0));
        let (b, w) = board(&[(5, 5)], &[(5, 6)]);
        assert!(v3.matches(p, &b, &w));
        assert_eq!(v3.allowed.len(), 17 * 19);
    }

    #[test]
    fn all_placements_at_once_agree_with_one_by_one() {
        let (b, w) = board(
            &[(3, 3), (4, 3), (3, 4), (10, 10), (11, 10), (10, 11)],
            &[(15, 15), (16, 15)],
        );
        for rows in ["XX./X../...", "x*o/.X.", "...", "X", "o", "*"] {
            let q = q(rows, "", false);
            for v in q.variants() {
                let all = v.matches_all(&v.allowed, &b, &w);
                for p in v.allowed.iter() {
                    assert_eq!(all.contains(p), v.matches(p, &b, &w), "{rows} {p:?}");
                }
            }
        }
    }

    #[test]
    fn symmetry_respects_the_area() {
        let s = q("...../...../X.O.X/...../.....", "1,0,13,0", false).symmetries();
        assert_eq!(s, TransformSet(0b11));
        let all = q("...../...../X.O.X/...../.....", "", false).symmetries();
        assert_eq!(all, TransformSet(0b1_0111));
        let c = q("XX./X../...", "1,1,15,15", false);
        assert_eq!(c.symmetries(), TransformSet(0b0100_0001));
        assert_eq!(c.class_of(Point::new(2, 1)), Point::new(2, 1));
        assert_eq!(c.class_of(Point::new(1, 2)), Point::new(2, 1));
        assert_eq!(
            &c.equivalent(Point::new(1, 2))[..],
            &[Point::new(2, 1), Point::new(1, 2)]
        );
        // A shifted area breaks the left-right symmetry.
        assert_eq!(q("X.X", "0,0,3,0", false).symmetries(), TransformSet(1));
    }

    #[test]
    fn triggers() {
        let q = q("x.O*", "", true);
        let v = &q.variants()[0];
        let cells = |k: Change| -> heapless::Vec<u8, 4> {
            v.triggers[k as usize].iter().map(|p| p.x).collect()
        };
        assert_eq!(&cells(Change::EmptyToBlack)[..], &[] as &[u8]);
        assert_eq!(&cells(Change::EmptyToWhite)[..], &[2]);
        assert_eq!(&cells(Change::BlackToEmpty)[..], &[1]);
        assert_eq!(&cells(Change::WhiteToEmpty)[..], &[0, 1]);
        assert_eq!(&cells(Change::BlackToWhite)[..], &[2]);
        assert_eq!(&cells(Change::WhiteToBlack)[..], &[0]);
    }
}
