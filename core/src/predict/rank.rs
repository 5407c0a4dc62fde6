//! Ranking candidate moves by a model's weights: the sum of the log-strengths of a
//! candidate's features, in integers, the largest known pattern first.

use crate::point::{Point, Size};
use crate::search::representative;
use crate::transform::TransformSet;

use super::features::{Analysis, Group, GROUPS};

/// The most moves a guess names.
pub const MAX_GUESSES: usize = 5;

/// A model's log-strengths (any fixed scale), as the ranker reads them.
pub trait Weights {
    /// The log-strength of the pattern with canonical key `key` of size `size`, `None` if
    /// the model does not know it.
    fn pattern(&self, size: usize, key: u64) -> Option<i32>;
    /// The log-strength of a candidate none of whose patterns the model knows.
    fn unknown_pattern(&self) -> i32;
    /// The log-strength of value `value` of group `group` (0 for value 0).
    fn group(&self, group: Group, value: u8) -> i32;
}

/// The log-strength of the point `p` for the player to move, `None` if the move is not
/// legal: the largest known pattern's weight plus every group's.
pub fn score<W: Weights + ?Sized>(a: &Analysis, w: &W, p: Point) -> Option<i32> {
    let f = a.features(p);
    if !f.legal {
        return None;
    }
    let mut total = w.unknown_pattern();
    a.pattern_keys(p, |size, key| match w.pattern(size, key) {
        Some(v) => {
            total = v;
            true
        }
        None => false,
    });
    for (g, &v) in super::features::ALL_GROUPS
        .iter()
        .zip(f.values.iter())
        .take(GROUPS)
    {
        total = total.saturating_add(w.group(*g, v));
    }
    Some(total)
}

/// One guessed move and its log-strength.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Guess {
    /// The point.
    pub point: Point,
    /// Its log-strength (the model's scale).
    pub score: i32,
}

/// Whether `a` ranks before `b`: the higher score, then the smaller `y * 19 + x`.
#[inline]
pub fn before(a: &Guess, b: &Guess) -> bool {
    a.score > b.score || (a.score == b.score && a.point.index19() < b.point.index19())
}

/// The best [`MAX_GUESSES`] legal moves of the player to move, best first (fewer if fewer
/// are legal, none if none is). Moves that the position's symmetry `sym` makes equivalent
/// are one guess, shown as [`crate::search`] shows a class
/// ([`representative`]), scored by its best member.
pub fn best<W: Weights + ?Sized>(
    a: &Analysis,
    w: &W,
    sym: TransformSet,
) -> heapless::Vec<Guess, MAX_GUESSES> {
    let mut out: heapless::Vec<Guess, MAX_GUESSES> = heapless::Vec::new();
    let size: Size = a.size();
    let symmetric = sym != TransformSet::IDENTITY;
    for y in 0..size.height() {
        for x in 0..size.width() {
            let p = Point::new(x, y);
            let s = if symmetric {
                if representative(p, sym, size) != p {
                    continue;
                }
                sym.iter()
                    .filter_map(|t| t.apply(p, size))
                    .filter_map(|q| score(a, w, q))
                    .max()
            } else {
                score(a, w, p)
            };
            if let Some(score) = s {
                insert(&mut out, Guess { point: p, score });
            }
        }
    }
    out
}

/// Inserts `g` into the sorted list `out`, dropping the last if it overflows.
fn insert(out: &mut heapless::Vec<Guess, MAX_GUESSES>, g: Guess) {
    let pos = out.iter().position(|o| before(&g, o)).unwrap_or(out.len());
    if pos >= MAX_GUESSES {
        return;
    }
    if out.is_full() {
        out.pop();
    }
    let _ = out.insert(pos, g);
}
