//! Named whole-board openings (`docs/OPENINGS.md`): the project's own table of the formations
//! that open a game (Sanrensei, Nirensei, the Chinese openings, Kobayashi's, Shusaku's
//! 1-3-5, ...), each by the stones that define it (of the player who forms it, and of the
//! opponent where the formation is defined against the opponent's stones), and the name of
//! a position's opening.
//!
//! The rule: a position is named after an opening when **all its defining stones are on the
//! board**, in one of the 8 orientations of the board and with the colours as defined or
//! exchanged (16 choices); other stones may stand anywhere. When several openings are on
//! the board, the most specific (the most defining stones) wins, and among equally
//! specific ones the first of the table. Only positions of the opening are named: 19x19
//! boards with at most [`OPENING_STONES`] stones. A position where a defining stone is
//! missing (or of the other colour) is never named after that opening.
//!
//! No allocation and no panic: the table is a constant, the test reads the board's stones
//! of each colour ([`PointSet`]) against at most 11 openings in 16 orientations and colour
//! choices, a few bit tests each; a middle-game position costs one count.

use crate::board::Board;
use crate::point::{Color, Point, Size};
use crate::pointset::PointSet;
use crate::transform::Transform;

/// A named opening: its name and its defining stones, in the table's orientation (the
/// player who forms it, "mine", holds the upper right and the right side, or the lower
/// right and the lower side, as the classic diagrams show them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The name shown to users (`Sanrensei`, `Chinese (low)`, ...).
    pub name: &'static str,
    /// The defining stones of the player who forms it, `(x, y)` from the top left.
    pub stones: &'static [Point],
    /// The defining stones of the opponent (often none).
    pub theirs: &'static [Point],
}

impl Opening {
    /// How many stones define it (both colours): the larger, the more specific.
    pub const fn defining(&self) -> usize {
        self.stones.len() + self.theirs.len()
    }
}

const fn p(x: u8, y: u8) -> Point {
    Point::new(x, y)
}

/// The most stones a position of the opening holds: past this, no position is named (the
/// formations of the table are made in the first moves).
pub const OPENING_STONES: u16 = 30;

/// The table. Points are `(x, y)` from the top left: `Q16` is `(15, 3)`, `Q4` `(15, 15)`,
/// `Q10` `(15, 9)`, `K10` (tengen) `(9, 9)`, `D4` `(3, 15)`.
pub const OPENINGS: [Opening; 11] = [
    // Three star points on one side: Q16, Q10, Q4.
    Opening {
        name: "Sanrensei",
        stones: &[p(15, 3), p(15, 9), p(15, 15)],
        theirs: &[],
    },
    // Sanrensei and tengen, K10 (Takemiya's "cosmic" style).
    Opening {
        name: "Cosmic style",
        stones: &[p(15, 3), p(15, 9), p(15, 15), p(9, 9)],
        theirs: &[],
    },
    // Two star points on one side: Q16, Q4.
    Opening {
        name: "Nirensei",
        stones: &[p(15, 3), p(15, 15)],
        theirs: &[],
    },
    // A star point (Q16), the 3-4 point of the next corner on that side turned towards the
    // side (Q3), and a stone between them on the fourth line (Q9).
    Opening {
        name: "Chinese (high)",
        stones: &[p(15, 3), p(15, 16), p(15, 10)],
        theirs: &[],
    },
    // The same with the stone between on the third line (R9).
    Opening {
        name: "Chinese (low)",
        stones: &[p(15, 3), p(15, 16), p(16, 10)],
        theirs: &[],
    },
    // A 3-4 point turned towards the lower side (R4), the low approach (F3) to the
    // opponent's star point of the next corner on that side (D4), and a stone on the third
    // line between them (M3).
    Opening {
        name: "Mini-Chinese",
        stones: &[p(16, 15), p(5, 16), p(11, 16)],
        theirs: &[p(3, 15)],
    },
    // The same with the stone between one line closer to the 3-4 point (N3).
    Opening {
        name: "Micro-Chinese",
        stones: &[p(16, 15), p(5, 16), p(12, 16)],
        theirs: &[p(3, 15)],
    },
    // The same with the stone between on the fourth line, in the middle of the side (K4).
    Opening {
        name: "Kobayashi",
        stones: &[p(16, 15), p(5, 16), p(9, 15)],
        theirs: &[],
    },
    // Shusaku's 1-3-5: 3-4 points in three corners, R16, Q3 and C4.
    Opening {
        name: "Shusaku",
        stones: &[p(16, 3), p(15, 16), p(2, 15)],
        theirs: &[],
    },
    // A 3-4 point (R16) and its small-knight enclosure (P17): the orthodox opening's corner.
    Opening {
        name: "Orthodox (komoku and shimari)",
        stones: &[p(16, 3), p(14, 2)],
        theirs: &[],
    },
    // The new fuseki of the 1930s: the 3-3 point (R17), the opposite star point (D4) and
    // tengen (K10), as Go Seigen opened against Honinbo Shusai.
    Opening {
        name: "New fuseki (san-san, star, tengen)",
        stones: &[p(16, 2), p(3, 15), p(9, 9)],
        theirs: &[],
    },
];

/// An opening found on a board: which, formed by which colour, in which orientation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Named {
    /// The opening.
    pub opening: &'static Opening,
    /// The colour whose stones are the opening's "mine" stones.
    pub color: Color,
    /// The transform that takes the table's stones onto the board's.
    pub transform: Transform,
}

/// Whether every point of `points`, moved by `t`, is in `set`.
fn all_on(points: &[Point], t: Transform, set: &PointSet, size: Size) -> bool {
    points
        .iter()
        .all(|&q| t.apply(q, size).is_some_and(|q| set.contains(q)))
}

/// Where `opening` stands on a board with these stones, if it does: the colour whose
/// stones are its "mine" stones and the orientation (Black first, then the transforms in
/// order).
pub fn placed_on(
    opening: &'static Opening,
    black: &PointSet,
    white: &PointSet,
    size: Size,
) -> Option<Named> {
    if size != Size::STANDARD {
        return None;
    }
    for (color, mine, theirs) in [(Color::Black, black, white), (Color::White, white, black)] {
        if mine.len() < opening.stones.len() || theirs.len() < opening.theirs.len() {
            continue;
        }
        for t in Transform::ALL {
            if all_on(opening.stones, t, mine, size) && all_on(opening.theirs, t, theirs, size) {
                return Some(Named {
                    opening,
                    color,
                    transform: t,
                });
            }
        }
    }
    None
}

/// The opening of a position given by its stones (see the module's rule): the most
/// specific opening of the table whose defining stones are all on the board.
pub fn named(black: &PointSet, white: &PointSet, size: Size) -> Option<Named> {
    if size != Size::STANDARD
        || black.len() + white.len() > OPENING_STONES as usize
        || black.is_empty() && white.is_empty()
    {
        return None;
    }
    let mut best: Option<Named> = None;
    for opening in &OPENINGS {
        if best.is_some_and(|b| b.opening.defining() >= opening.defining()) {
            continue;
        }
        if let Some(n) = placed_on(opening, black, white, size) {
            best = Some(n);
        }
    }
    best
}

/// The opening of a board's position.
pub fn of_board(board: &Board) -> Option<Named> {
    if board.stone_count() > OPENING_STONES {
        return None;
    }
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

    fn moved(points: &[Point], t: Transform) -> PointSet {
        set(points.iter().map(|&q| t.apply(q, Size::STANDARD).unwrap()))
    }

    /// The board's (black, white) stones of an opening placed by `t`, its "mine" stones of
    /// `color`.
    fn placed(o: &Opening, t: Transform, color: Color) -> (PointSet, PointSet) {
        let (mine, theirs) = (moved(o.stones, t), moved(o.theirs, t));
        match color {
            Color::Black => (mine, theirs),
            Color::White => (theirs, mine),
        }
    }

    /// Whether what `named` found really stands on the board: every defining stone there,
    /// of the colour it says.
    fn stands(n: &Named, black: &PointSet, white: &PointSet) -> bool {
        let (b, w) = placed(n.opening, n.transform, n.color);
        (b & !*black).is_empty() && (w & !*white).is_empty()
    }

    /// The table's openings are distinct under the 16 choices (no two could stand for one
    /// formation), their stones distinct and on the board, and small enough for the
    /// opening phase.
    #[test]
    fn the_table_is_sound() {
        for (i, a) in OPENINGS.iter().enumerate() {
            assert!(!a.stones.is_empty());
            let (b, w) = placed(a, Transform::IDENTITY, Color::Black);
            assert_eq!(b.len() + w.len(), a.defining(), "{}", a.name);
            assert!((b & w).is_empty(), "{}", a.name);
            assert!(a.defining() <= OPENING_STONES as usize);
            for other in &OPENINGS[i + 1..] {
                assert_ne!(a.name, other.name);
                for t in Transform::ALL {
                    for c in [Color::Black, Color::White] {
                        assert_ne!((b, w), placed(other, t, c), "{} {}", a.name, other.name);
                    }
                }
            }
        }
    }

    /// Each opening is named from all 16 choices of orientation and colour, alone and with
    /// stones on points no opening uses (the 1-1 points), and the answer says where.
    #[test]
    fn every_orientation_and_colour() {
        let corners = [p(0, 0), p(18, 0), p(0, 18), p(18, 18)];
        for o in &OPENINGS {
            for t in Transform::ALL {
                for color in [Color::Black, Color::White] {
                    let (b, w) = placed(o, t, color);
                    let n = named(&b, &w, Size::STANDARD).unwrap();
                    assert_eq!((n.opening.name, n.color), (o.name, color), "{t:?}");
                    assert_eq!(placed(o, n.transform, n.color), (b, w));
                    let (b2, w2) = (
                        b | set(corners[..2].iter().copied()),
                        w | set(corners[2..].iter().copied()),
                    );
                    let n = named(&b2, &w2, Size::STANDARD).unwrap();
                    assert_eq!(
                        (n.opening.name, n.color),
                        (o.name, color),
                        "{t:?} with others"
                    );
                    assert_eq!(
                        placed_on(o, &b, &w, Size::STANDARD).map(|n| n.color),
                        Some(color)
                    );
                }
            }
        }
        assert_eq!(
            named(&PointSet::new(), &PointSet::new(), Size::STANDARD),
            None
        );
        let nine = Size::square(9).unwrap();
        assert_eq!(
            named(&set([p(2, 2), p(6, 6)]), &PointSet::new(), nine),
            None
        );
    }

    /// Past the opening phase nothing is named, whatever stands on the board.
    #[test]
    fn only_in_the_opening() {
        let o = &OPENINGS[0];
        let (mut b, w) = placed(o, Transform::IDENTITY, Color::Black);
        let mut x = 0;
        while b.len() + w.len() < OPENING_STONES as usize {
            b.insert(p(x % 19, 18 - x / 19));
            x += 1;
        }
        assert!(named(&b, &w, Size::STANDARD).is_some());
        b.insert(p(x % 19, 18 - x / 19));
        assert_eq!(named(&b, &w, Size::STANDARD), None);
    }

    proptest! {
        /// Never named where its stones are not all on the board: with one defining stone
        /// taken away (or turned to the other colour), and any other stones around, the
        /// opening is never found in that place, and whatever is named has every stone of
        /// its own on the board. With every stone there, an opening at least as specific
        /// is named.
        #[test]
        fn never_named_without_every_stone(
            which in 0usize..OPENINGS.len(),
            t in 0usize..8,
            white in any::<bool>(),
            drop in 0usize..8,
            turn in any::<bool>(),
            others in proptest::collection::vec((0u16..361, any::<bool>()), 0..12),
        ) {
            let o = &OPENINGS[which];
            let t = Transform::ALL[t];
            let color = if white { Color::White } else { Color::Black };
            let (full_b, full_w) = placed(o, t, color);
            let full = full_b | full_w;
            let mut b = full_b;
            let mut w = full_w;
            for &(i, black) in &others {
                let q = Point::from_index19(i).unwrap();
                if !full.contains(q) {
                    if black { b.insert(q); } else { w.insert(q); }
                }
            }
            let n = named(&b, &w, Size::STANDARD).unwrap();
            prop_assert!(n.opening.defining() >= o.defining());
            prop_assert!(stands(&n, &b, &w));
            let all: PointSet = full;
            let gone = all.iter().nth(drop % all.len()).unwrap();
            let was_black = b.contains(gone);
            b.remove(gone);
            w.remove(gone);
            if turn {
                if was_black { w.insert(gone); } else { b.insert(gone); }
            }
            if let Some(n) = named(&b, &w, Size::STANDARD) {
                prop_assert!(stands(&n, &b, &w));
                prop_assert!(
                    !(n.opening.name == o.name && placed(o, n.transform, n.color) == (full_b, full_w)),
                    "{} named without {:?}", o.name, gone
                );
            }
        }
    }
}
