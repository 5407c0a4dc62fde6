//! Named whole-board openings (`docs/OPENINGS.md`): the project's own table of the formations
//! one player's first stones make (Sanrensei, Nirensei, the Chinese openings, Shusaku's
//! 1-3-5, ...), each by the points that define it, and the name of a position's opening.
//!
//! The rule: a position is named after an opening when the stones of one colour are
//! exactly the opening's defining stones, in one of the 8 orientations of the board; the
//! other colour's stones may be anywhere. Black's stones are looked at first, then White's
//! (the colour-exchanged opening has the same name). A defining stone missing, or one stone
//! more of that colour, and the position is not named so. Only 19x19 boards have named
//! openings.
//!
//! No allocation: the table is a constant, the test reads a board's stones of each colour
//! ([`PointSet`]) against at most 6 openings in 8 orientations, and only when that colour
//! has as many stones as an opening defines (at most 3), so a middle-game position costs
//! two counts.

use crate::board::Board;
use crate::point::{Color, Point, Size};
use crate::pointset::PointSet;
use crate::transform::Transform;

/// A named opening: its name and the stones of the player who forms it, in the table's
/// orientation (the first player's stones in the upper right and along the right side, or
/// as the classic diagrams show them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The name shown to users (`Sanrensei`, `Chinese (low)`, ...).
    pub name: &'static str,
    /// The defining stones, all of one colour, `(x, y)` from the top left.
    pub stones: &'static [Point],
}

const fn p(x: u8, y: u8) -> Point {
    Point::new(x, y)
}

/// The table, most stones first within a family. Points are `(x, y)` from the top left;
/// `Q16` is `(15, 3)`, `Q4` `(15, 15)`, `Q10` `(15, 9)`.
pub const OPENINGS: [Opening; 6] = [
    // Three star points on one side: Q16, Q10, Q4.
    Opening {
        name: "Sanrensei",
        stones: &[p(15, 3), p(15, 9), p(15, 15)],
    },
    // Two star points on one side: Q16, Q4.
    Opening {
        name: "Nirensei",
        stones: &[p(15, 3), p(15, 15)],
    },
    // A star point (Q16), the 3-4 point of the next corner on that side (Q3), and a stone
    // between them on the fourth line (Q9).
    Opening {
        name: "Chinese (high)",
        stones: &[p(15, 3), p(15, 16), p(15, 10)],
    },
    // The same with the stone between on the third line (R9).
    Opening {
        name: "Chinese (low)",
        stones: &[p(15, 3), p(15, 16), p(16, 10)],
    },
    // A 3-4 point (R4), an approach to the opponent's star point of the next corner from
    // the side between them (F3), and a stone on the third line between the two (M3).
    Opening {
        name: "Mini-Chinese",
        stones: &[p(16, 15), p(5, 16), p(11, 16)],
    },
    // Shusaku's 1-3-5: 3-4 points in three corners, R16, Q3 and C4.
    Opening {
        name: "Shusaku",
        stones: &[p(16, 3), p(15, 16), p(2, 15)],
    },
];

/// The most stones an opening of the table defines.
const MAX_STONES: usize = 3;

/// An opening found on a board: which, formed by which colour, in which orientation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Named {
    /// The opening.
    pub opening: &'static Opening,
    /// The colour whose stones form it.
    pub color: Color,
    /// The transform that takes the table's stones onto the board's.
    pub transform: Transform,
}

/// The opening the stones of one colour form, if any: those stones are exactly an
/// opening's stones in some orientation.
pub fn formed_by(stones: &PointSet, size: Size) -> Option<(&'static Opening, Transform)> {
    if size != Size::STANDARD {
        return None;
    }
    let n = stones.len();
    if n == 0 || n > MAX_STONES {
        return None;
    }
    for opening in OPENINGS.iter().filter(|o| o.stones.len() == n) {
        for t in Transform::ALL {
            let all = opening
                .stones
                .iter()
                .all(|&q| t.apply(q, size).is_some_and(|q| stones.contains(q)));
            if all {
                return Some((opening, t));
            }
        }
    }
    None
}

/// The opening of a position: Black's stones first, then White's (see the module's rule).
pub fn named(black: &PointSet, white: &PointSet, size: Size) -> Option<Named> {
    [(Color::Black, black), (Color::White, white)]
        .into_iter()
        .find_map(|(color, stones)| {
            formed_by(stones, size).map(|(opening, transform)| Named {
                opening,
                color,
                transform,
            })
        })
}

/// The opening of a board's position.
pub fn of_board(board: &Board) -> Option<Named> {
    named(
        board.stones(Color::Black),
        board.stones(Color::White),
        board.size(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn set(points: impl IntoIterator<Item = Point>) -> PointSet {
        let mut s = PointSet::new();
        for q in points {
            s.insert(q);
        }
        s
    }

    fn placed(o: &Opening, t: Transform) -> PointSet {
        set(o
            .stones
            .iter()
            .map(|&q| t.apply(q, Size::STANDARD).unwrap()))
    }

    /// The table's openings are distinct under the symmetries (no two could name one
    /// position) and lie on the board.
    #[test]
    fn the_table_is_sound() {
        for (i, a) in OPENINGS.iter().enumerate() {
            assert!(a.stones.len() <= MAX_STONES && !a.stones.is_empty());
            assert_eq!(
                set(a.stones.iter().copied()).len(),
                a.stones.len(),
                "{}",
                a.name
            );
            for b in &OPENINGS[i + 1..] {
                for t in Transform::ALL {
                    assert_ne!(
                        placed(a, Transform::IDENTITY),
                        placed(b, t),
                        "{} {}",
                        a.name,
                        b.name
                    );
                }
            }
        }
    }

    /// Each opening is named from all 16 choices of orientation and colour, whatever
    /// stones of the other colour stand elsewhere.
    #[test]
    fn every_orientation_and_colour() {
        let others = set([p(3, 3), p(3, 15), p(9, 9)]);
        for o in &OPENINGS {
            for t in Transform::ALL {
                for color in [Color::Black, Color::White] {
                    let mine = placed(o, t);
                    let theirs = others & !mine;
                    let (b, w) = match color {
                        Color::Black => (mine, theirs),
                        Color::White => (theirs, mine),
                    };
                    let mut named_here = named(&b, &w, Size::STANDARD).unwrap();
                    if named_here.color != color {
                        // The other colour's three stones could form an opening too.
                        named_here = named(&b, &PointSet::new(), Size::STANDARD)
                            .or_else(|| named(&PointSet::new(), &w, Size::STANDARD))
                            .unwrap();
                    }
                    assert_eq!(named_here.opening.name, o.name, "{t:?} {color:?}");
                    assert_eq!(named_here.color, color);
                    assert_eq!(placed(o, named_here.transform), mine);
                    let (b, w) = match color {
                        Color::Black => (mine, PointSet::new()),
                        Color::White => (PointSet::new(), mine),
                    };
                    let n = named(&b, &w, Size::STANDARD).unwrap();
                    assert_eq!((n.opening.name, n.color), (o.name, color));
                }
            }
        }
        assert_eq!(
            named(&PointSet::new(), &PointSet::new(), Size::STANDARD),
            None
        );
        let nine = Size::square(9).unwrap();
        assert_eq!(formed_by(&set([p(2, 2), p(6, 6)]), nine), None);
    }

    proptest! {
        /// Never named when a defining stone is missing, or when that colour has a stone
        /// more: a colour's stones name an opening only when they are exactly its stones.
        #[test]
        fn never_named_without_every_stone(
            which in 0usize..OPENINGS.len(),
            t in 0usize..8,
            drop in 0usize..MAX_STONES,
            extra in 0u16..361,
            others in proptest::collection::vec(0u16..361, 0..6),
        ) {
            let o = &OPENINGS[which];
            let t = Transform::ALL[t];
            let full = placed(o, t);
            let mut missing = full;
            let gone = t.apply(o.stones[drop % o.stones.len()], Size::STANDARD).unwrap();
            missing.remove(gone);
            let theirs = set(others.iter().filter_map(|&i| Point::from_index19(i))) & !full;
            let found = formed_by(&missing, Size::STANDARD);
            // What is left may be another (smaller) opening, never this one.
            prop_assert!(found.is_none_or(|(f, _)| f.name != o.name));
            let n = named(&missing, &theirs, Size::STANDARD);
            prop_assert!(n.is_none_or(|n| n.opening.name != o.name || n.color == Color::White));
            let q = Point::from_index19(extra).unwrap();
            if !full.contains(q) {
                let mut more = full;
                more.insert(q);
                prop_assert!(formed_by(&more, Size::STANDARD).is_none_or(|(f, _)| f.name != o.name));
            }
            // And with every stone there, it is named whatever the other colour holds.
            let n = named(&full, &theirs, Size::STANDARD).unwrap();
            prop_assert_eq!(n.opening.name, o.name);
        }
    }
}
