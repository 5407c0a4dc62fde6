//! The pattern itself: a rectangle of [`Cell`]s (`. X O x o *`), 1 to 19 cells on each side,
//! parsed from the contract's `ROWS` notation (`..X/.O./...`, rows top to bottom), and the
//! search [`Area`]: the rectangle of allowed top-left corners (`--area L,T,R,B`).

use core::fmt;

use crate::point::{Point, Size, Stone, MAX_POINTS, MAX_SIDE};
use crate::pointset::PointSet;
use crate::transform::Transform;

/// One cell of a pattern: what the board point under it must hold.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Cell {
    /// `.`: empty.
    #[default]
    Empty,
    /// `X`: a black stone.
    Black,
    /// `O`: a white stone.
    White,
    /// `x`: black or empty.
    BlackOrEmpty,
    /// `o`: white or empty.
    WhiteOrEmpty,
    /// `*`: anything.
    Any,
}

impl Cell {
    /// The cell written as `c` (`. X O x o *`), `None` for any other character.
    pub const fn from_char(c: u8) -> Option<Cell> {
        match c {
            b'.' => Some(Cell::Empty),
            b'X' => Some(Cell::Black),
            b'O' => Some(Cell::White),
            b'x' => Some(Cell::BlackOrEmpty),
            b'o' => Some(Cell::WhiteOrEmpty),
            b'*' => Some(Cell::Any),
            _ => None,
        }
    }

    /// The character of the cell.
    pub const fn to_char(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Black => 'X',
            Cell::White => 'O',
            Cell::BlackOrEmpty => 'x',
            Cell::WhiteOrEmpty => 'o',
            Cell::Any => '*',
        }
    }

    /// Whether a board point holding `s` agrees with the cell.
    #[inline]
    pub const fn accepts(self, s: Stone) -> bool {
        matches!(
            (self, s),
            (Cell::Any, _)
                | (Cell::Empty, Stone::Empty)
                | (Cell::Black, Stone::Black)
                | (Cell::White, Stone::White)
                | (Cell::BlackOrEmpty, Stone::Black | Stone::Empty)
                | (Cell::WhiteOrEmpty, Stone::White | Stone::Empty)
        )
    }

    /// The cell with black and white exchanged.
    #[inline]
    pub const fn swapped(self) -> Cell {
        match self {
            Cell::Black => Cell::White,
            Cell::White => Cell::Black,
            Cell::BlackOrEmpty => Cell::WhiteOrEmpty,
            Cell::WhiteOrEmpty => Cell::BlackOrEmpty,
            c => c,
        }
    }

    /// The cell of a stone as it stands (`.`, `X` or `O`).
    #[inline]
    pub const fn of_stone(s: Stone) -> Cell {
        match s {
            Stone::Empty => Cell::Empty,
            Stone::Black => Cell::Black,
            Stone::White => Cell::White,
        }
    }
}

/// Why a pattern could not be read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PatternError {
    /// No cells at all (an empty string or an empty row).
    Empty {
        /// The 1-based row that is empty.
        row: usize,
    },
    /// A character that is not one of `. X O x o *`.
    BadCell {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        column: usize,
        /// The character found.
        found: char,
    },
    /// A row whose width differs from the first row's.
    Ragged {
        /// 1-based row.
        row: usize,
        /// Its width.
        width: usize,
        /// The first row's width.
        expected: usize,
    },
    /// More than 19 cells in a row.
    TooWide {
        /// The width found.
        width: usize,
    },
    /// More than 19 rows.
    TooTall {
        /// The number of rows found.
        height: usize,
    },
    /// A region or cell array that does not describe a pattern of 1 to 19 cells a side.
    BadSize,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PatternError::Empty { row } => write!(f, "row {row} is empty"),
            PatternError::BadCell { row, column, found } => write!(
                f,
                "row {row}, column {column}: {found:?} is not a pattern cell (use . X O x o *)"
            ),
            PatternError::Ragged {
                row,
                width,
                expected,
            } => write!(
                f,
                "row {row} has {width} cells, the first row has {expected}"
            ),
            PatternError::TooWide { width } => {
                write!(f, "{width} cells in a row: at most 19")
            }
            PatternError::TooTall { height } => write!(f, "{height} rows: at most 19"),
            PatternError::BadSize => f.write_str("a pattern has 1 to 19 cells on each side"),
        }
    }
}

/// A rectangle of cells, 1 to 19 on each side (row-major, `y * width + x`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Pattern {
    width: u8,
    height: u8,
    cells: [Cell; MAX_POINTS],
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pattern({self})")
    }
}

impl Pattern {
    /// Reads the contract's `ROWS` (`docs/CONTRACTS.md`): rows top to bottom separated by
    /// `/`, all of one width.
    pub fn parse(rows: &str) -> Result<Pattern, PatternError> {
        let mut p = Pattern {
            width: 0,
            height: 0,
            cells: [Cell::Empty; MAX_POINTS],
        };
        let mut expected = 0usize;
        for (r, row) in rows.split('/').enumerate() {
            let n = row.chars().count();
            if n == 0 {
                return Err(PatternError::Empty { row: r + 1 });
            }
            if r == 0 {
                if n > MAX_SIDE as usize {
                    return Err(PatternError::TooWide { width: n });
                }
                expected = n;
            } else if n != expected {
                return Err(PatternError::Ragged {
                    row: r + 1,
                    width: n,
                    expected,
                });
            }
            if r >= MAX_SIDE as usize {
                return Err(PatternError::TooTall {
                    height: rows.split('/').count(),
                });
            }
            for (c, ch) in row.chars().enumerate() {
                let cell = u8::try_from(ch).ok().and_then(Cell::from_char).ok_or(
                    PatternError::BadCell {
                        row: r + 1,
                        column: c + 1,
                        found: ch,
                    },
                )?;
                if let Some(slot) = p.cells.get_mut(r * n + c) {
                    *slot = cell;
                }
            }
            p.height = (r + 1) as u8;
        }
        p.width = expected as u8;
        Ok(p)
    }

    /// A pattern from row-major cells (`cells.len()` must be `width * height`).
    pub fn from_cells(width: u8, height: u8, cells: &[Cell]) -> Result<Pattern, PatternError> {
        if Size::new(width, height).is_none() || cells.len() != width as usize * height as usize {
            return Err(PatternError::BadSize);
        }
        let mut p = Pattern {
            width,
            height,
            cells: [Cell::Empty; MAX_POINTS],
        };
        p.cells[..cells.len()].copy_from_slice(cells);
        Ok(p)
    }

    /// Number of columns.
    #[inline]
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Number of rows.
    #[inline]
    pub fn height(&self) -> u8 {
        self.height
    }

    /// The pattern's grid as a board size (`width` x `height`).
    pub fn size(&self) -> Size {
        Size::new(self.width, self.height).unwrap_or(Size::STANDARD)
    }

    /// The cell at `(x, y)` of the grid (`Any` outside it).
    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        if p.x >= self.width || p.y >= self.height {
            return Cell::Any;
        }
        self.cells
            .get(p.y as usize * self.width as usize + p.x as usize)
            .copied()
            .unwrap_or(Cell::Any)
    }

    /// The cells, row-major.
    pub fn cells(&self) -> &[Cell] {
        self.cells
            .get(..self.width as usize * self.height as usize)
            .unwrap_or(&[])
    }

    /// The grid points whose cell is `cell`.
    pub fn points_of(&self, cell: Cell) -> PointSet {
        let mut s = PointSet::EMPTY;
        for y in 0..self.height {
            for x in 0..self.width {
                let p = Point::new(x, y);
                if self.cell(p) == cell {
                    s.insert(p);
                }
            }
        }
        s
    }

    /// Whether the grid transform `u` (valid for the grid's size) maps the pattern onto
    /// itself.
    pub fn is_symmetric_under(&self, u: Transform) -> bool {
        let size = self.size();
        if !u.valid_for(size) {
            return false;
        }
        (0..self.height).all(|y| {
            (0..self.width).all(|x| {
                let p = Point::new(x, y);
                self.cell(u.apply_unchecked(p, size)) == self.cell(p)
            })
        })
    }
}

impl fmt::Display for Pattern {
    /// The `ROWS` notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.height {
            if y > 0 {
                f.write_str("/")?;
            }
            for x in 0..self.width {
                write!(f, "{}", self.cell(Point::new(x, y)).to_char())?;
            }
        }
        Ok(())
    }
}

/// A rectangle of board points, corners included.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Rect {
    /// Top row.
    pub top: u8,
    /// Left column.
    pub left: u8,
    /// Bottom row (inclusive).
    pub bottom: u8,
    /// Right column (inclusive).
    pub right: u8,
}

impl Rect {
    /// The `width` x `height` rectangle whose top-left point is `p`.
    #[inline]
    pub const fn at(p: Point, width: u8, height: u8) -> Rect {
        Rect {
            left: p.x,
            top: p.y,
            right: p.x + width - 1,
            bottom: p.y + height - 1,
        }
    }

    /// The top-left point.
    #[inline]
    pub const fn top_left(&self) -> Point {
        Point::new(self.left, self.top)
    }

    /// Whether `p` lies inside.
    #[inline]
    pub const fn contains(&self, p: Point) -> bool {
        p.x >= self.left && p.x <= self.right && p.y >= self.top && p.y <= self.bottom
    }

    /// The image of the rectangle under a board transform of `size`.
    pub fn transformed(&self, t: Transform, size: Size) -> Rect {
        let a = t.apply_unchecked(Point::new(self.left, self.top), size);
        let b = t.apply_unchecked(Point::new(self.right, self.bottom), size);
        Rect {
            left: a.x.min(b.x),
            top: a.y.min(b.y),
            right: a.x.max(b.x),
            bottom: a.y.max(b.y),
        }
    }
}

/// The allowed placements: a pattern's top-left cell may lie at `(x, y)` with
/// `left <= x <= right` and `top <= y <= bottom` (0-based, inclusive), as long as the
/// whole pattern lies on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Area {
    /// Leftmost column of the top-left cell.
    pub left: u8,
    /// Topmost row of the top-left cell.
    pub top: u8,
    /// Rightmost column of the top-left cell.
    pub right: u8,
    /// Lowest row of the top-left cell.
    pub bottom: u8,
}

/// Why an area could not be read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum AreaError {
    /// Not four comma-separated numbers.
    Syntax,
}

impl fmt::Display for AreaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected four numbers L,T,R,B (0-based columns and rows)")
    }
}

impl Default for Area {
    fn default() -> Area {
        Area::ALL
    }
}

impl Area {
    /// Every placement on the board.
    pub const ALL: Area = Area {
        left: 0,
        top: 0,
        right: MAX_SIDE - 1,
        bottom: MAX_SIDE - 1,
    };

    /// Reads `L,T,R,B` (numbers past the board are kept as "past the board").
    pub fn parse(s: &str) -> Result<Area, AreaError> {
        let mut v = [0u8; 4];
        let mut parts = s.split(',');
        for slot in v.iter_mut() {
            let part = parts.next().ok_or(AreaError::Syntax)?.trim();
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(AreaError::Syntax);
            }
            // Any number past the board means the same as 255: no placement there.
            *slot = part.parse::<u32>().map_or(u8::MAX, |n| n.min(255) as u8);
        }
        if parts.next().is_some() {
            return Err(AreaError::Syntax);
        }
        Ok(Area {
            left: v[0],
            top: v[1],
            right: v[2],
            bottom: v[3],
        })
    }

    /// The allowed top-left points of a `width` x `height` pattern on the 19x19 board.
    pub fn placements(&self, width: u8, height: u8) -> PointSet {
        let mut s = PointSet::EMPTY;
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return s;
        }
        let (xmax, ymax) = (MAX_SIDE - width, MAX_SIDE - height);
        for y in self.top..=self.bottom.min(ymax) {
            for x in self.left..=self.right.min(xmax) {
                s.insert(Point::new(x, y));
            }
        }
        s
    }
}

impl fmt::Display for Area {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{},{},{},{}",
            self.left, self.top, self.right, self.bottom
        )
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use std::string::ToString;

    #[test]
    fn parse_and_show() {
        let p = Pattern::parse("XX./X../...").unwrap();
        assert_eq!((p.width(), p.height()), (3, 3));
        assert_eq!(p.cell(Point::new(1, 0)), Cell::Black);
        assert_eq!(p.cell(Point::new(2, 0)), Cell::Empty);
        assert_eq!(p.to_string(), "XX./X../...");
        let q = Pattern::parse("xo*").unwrap();
        assert_eq!((q.width(), q.height()), (3, 1));
        assert_eq!(q.cell(Point::new(2, 0)), Cell::Any);
        assert_eq!(
            Pattern::parse("..X/.O"),
            Err(PatternError::Ragged {
                row: 2,
                width: 2,
                expected: 3
            })
        );
        assert_eq!(
            Pattern::parse("..Y"),
            Err(PatternError::BadCell {
                row: 1,
                column: 3,
                found: 'Y'
            })
        );
        assert_eq!(Pattern::parse(""), Err(PatternError::Empty { row: 1 }));
        assert_eq!(Pattern::parse("../"), Err(PatternError::Empty { row: 2 }));
        let wide = "....................";
        assert_eq!(
            Pattern::parse(wide),
            Err(PatternError::TooWide { width: 20 })
        );
        let tall = [".."; 20].join("/");
        assert_eq!(
            Pattern::parse(&tall),
            Err(PatternError::TooTall { height: 20 })
        );
        let full = ["..................."; 19].join("/");
        assert_eq!(Pattern::parse(&full).unwrap().cells().len(), 361);
        assert!(Pattern::parse("é").is_err());
    }

    #[test]
    fn cells_accept_and_swap() {
        use Stone::*;
        for (c, ok) in [
            (Cell::Empty, [true, false, false]),
            (Cell::Black, [false, true, false]),
            (Cell::White, [false, false, true]),
            (Cell::BlackOrEmpty, [true, true, false]),
            (Cell::WhiteOrEmpty, [true, false, true]),
            (Cell::Any, [true, true, true]),
        ] {
            for (s, want) in [Empty, Black, White].into_iter().zip(ok) {
                assert_eq!(c.accepts(s), want, "{c:?} {s:?}");
                assert_eq!(c.swapped().accepts(s.swapped()), want);
            }
            assert_eq!(Cell::from_char(c.to_char() as u8), Some(c));
        }
    }

    #[test]
    fn areas() {
        assert_eq!(Area::parse("1,0,13,0").unwrap().placements(5, 5).len(), 13);
        assert_eq!(Area::parse("0,0,0,0").unwrap().placements(7, 7).len(), 1);
        assert_eq!(Area::ALL.placements(3, 3).len(), 17 * 17);
        assert_eq!(Area::ALL.placements(19, 19).len(), 1);
        assert_eq!(
            Area::parse("1,1,15,15").unwrap().placements(3, 3).len(),
            225
        );
        assert_eq!(Area::parse("5,5,2,2").unwrap().placements(1, 1).len(), 0);
        assert_eq!(Area::parse("0,0,99999999999,0").unwrap().right, 255);
        assert!(Area::parse("1,2,3").is_err());
        assert!(Area::parse("1,2,3,4,5").is_err());
        assert!(Area::parse("-1,2,3,4").is_err());
    }

    #[test]
    fn symmetry_of_the_pattern() {
        let p = Pattern::parse("XX./X../...").unwrap();
        let syms: heapless::Vec<usize, 8> = Transform::ALL
            .iter()
            .filter(|&&u| p.is_symmetric_under(u))
            .map(|u| u.index())
            .collect();
        assert_eq!(&syms[..], &[0, 6]);
        let r = Pattern::parse("X.X/...").unwrap();
        assert!(r.is_symmetric_under(Transform::ALL[1]));
        assert!(!r.is_symmetric_under(Transform::ALL[6]));
    }
}
