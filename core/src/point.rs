//! Points, colours, moves and board sizes.
//!
//! A point is `(x, y)`, 0-based, `x` the column from the left and `y` the row from the top,
//! exactly as SGF writes it (`pd` is x 15, y 3). Boards are at most 19x19 and may be
//! rectangular. Every point also has an index `y * 19 + x` (its place in bGo's hash table),
//! used whatever the board size.

/// The largest board side kifudex handles.
pub const MAX_SIDE: u8 = 19;
/// Number of point indices (`y * 19 + x`) of the largest board.
pub const MAX_POINTS: usize = 361;

/// A player's colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Color {
    /// Black, who moves first in an even game.
    Black,
    /// White.
    White,
}

impl Color {
    /// The other colour.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `0` for Black, `1` for White.
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    /// The SGF property letter: `'B'` or `'W'`.
    #[inline]
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// Parses `B`/`b` or `W`/`w`.
    pub const fn from_letter(c: u8) -> Option<Color> {
        match c {
            b'B' | b'b' => Some(Color::Black),
            b'W' | b'w' => Some(Color::White),
            _ => None,
        }
    }
}

/// The content of one intersection.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum Stone {
    /// No stone.
    #[default]
    Empty = 0,
    /// A black stone.
    Black = 1,
    /// A white stone.
    White = 2,
}

impl Stone {
    /// The colour of the stone, `None` for an empty point.
    #[inline]
    pub const fn color(self) -> Option<Color> {
        match self {
            Stone::Empty => None,
            Stone::Black => Some(Color::Black),
            Stone::White => Some(Color::White),
        }
    }

    /// The stone of a colour.
    #[inline]
    pub const fn of(color: Color) -> Stone {
        match color {
            Color::Black => Stone::Black,
            Color::White => Stone::White,
        }
    }

    /// The stone's code in kifudex's compact encodings (setup records, the winner of a
    /// game row): its `repr(u8)` value, 0 empty, 1 black, 2 white.
    #[inline]
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The stone with code [`Stone::code`]; `None` for a code above 2.
    #[inline]
    pub const fn from_code(code: u8) -> Option<Stone> {
        match code {
            0 => Some(Stone::Empty),
            1 => Some(Stone::Black),
            2 => Some(Stone::White),
            _ => None,
        }
    }

    /// The stone of a colour, or [`Stone::Empty`] for none (a game without a winner...).
    #[inline]
    pub const fn of_option(color: Option<Color>) -> Stone {
        match color {
            Some(c) => Stone::of(c),
            None => Stone::Empty,
        }
    }

    /// The same stone with colours exchanged (empty stays empty).
    #[inline]
    pub const fn swapped(self) -> Stone {
        match self {
            Stone::Empty => Stone::Empty,
            Stone::Black => Stone::White,
            Stone::White => Stone::Black,
        }
    }
}

/// An intersection `(x, y)`: column from the left, row from the top, both 0-based.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Point {
    /// Column, 0 at the left.
    pub x: u8,
    /// Row, 0 at the top.
    pub y: u8,
}

impl Point {
    /// A point; no check against any board.
    #[inline]
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// The point's index in bGo's hash table: `y * 19 + x` (for every board size).
    /// Only meaningful for points with `x, y < 19`.
    #[inline]
    pub const fn index19(self) -> u16 {
        self.y as u16 * MAX_SIDE as u16 + self.x as u16
    }

    /// The point with index `y * 19 + x`, or `None` past the 19x19 board.
    #[inline]
    pub const fn from_index19(index: u16) -> Option<Point> {
        if index as usize >= MAX_POINTS {
            None
        } else {
            Some(Point {
                x: (index % MAX_SIDE as u16) as u8,
                y: (index / MAX_SIDE as u16) as u8,
            })
        }
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Move {
    /// A stone played on this point.
    Play(Point),
    /// A pass.
    Pass,
}

impl Move {
    /// The code used by kifudex's compact encodings: `y * 19 + x` for a point, 361 for a pass.
    #[inline]
    pub const fn code(self) -> u16 {
        match self {
            Move::Play(p) => p.index19(),
            Move::Pass => MAX_POINTS as u16,
        }
    }

    /// The move with code [`Move::code`]; `None` for a code above 361.
    #[inline]
    pub const fn from_code(code: u16) -> Option<Move> {
        if code as usize == MAX_POINTS {
            Some(Move::Pass)
        } else {
            match Point::from_index19(code) {
                Some(p) => Some(Move::Play(p)),
                None => None,
            }
        }
    }

    /// The point played, `None` for a pass.
    #[inline]
    pub const fn point(self) -> Option<Point> {
        match self {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        }
    }
}

/// A board size: width (columns) by height (rows), each 1 to 19.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Size {
    w: u8,
    h: u8,
}

impl Size {
    /// The standard 19x19 board.
    pub const STANDARD: Size = Size { w: 19, h: 19 };

    /// A `w` x `h` board, `None` unless both are within 1..=19.
    #[inline]
    pub const fn new(w: u8, h: u8) -> Option<Size> {
        if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
            None
        } else {
            Some(Size { w, h })
        }
    }

    /// A square `n` x `n` board, `None` unless `n` is within 1..=19.
    #[inline]
    pub const fn square(n: u8) -> Option<Size> {
        Size::new(n, n)
    }

    /// Number of columns.
    #[inline]
    pub const fn width(self) -> u8 {
        self.w
    }

    /// Number of rows.
    #[inline]
    pub const fn height(self) -> u8 {
        self.h
    }

    /// Whether the board is square (and so has all 8 symmetries).
    #[inline]
    pub const fn is_square(self) -> bool {
        self.w == self.h
    }

    /// Whether `p` lies on this board.
    #[inline]
    pub const fn contains(self, p: Point) -> bool {
        p.x < self.w && p.y < self.h
    }

    /// Number of intersections.
    #[inline]
    pub const fn points(self) -> usize {
        self.w as usize * self.h as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stone_codes_round_trip() {
        for (s, code) in [(Stone::Empty, 0), (Stone::Black, 1), (Stone::White, 2)] {
            assert_eq!(s.code(), code);
            assert_eq!(Stone::from_code(code), Some(s));
            assert_eq!(Stone::of_option(s.color()), s);
        }
        assert!((3..=255).all(|c| Stone::from_code(c).is_none()));
    }

    #[test]
    fn move_codes_round_trip() {
        for code in 0..=361u16 {
            assert_eq!(Move::from_code(code).map(Move::code), Some(code));
        }
        assert_eq!(Move::from_code(362), None);
    }
}
