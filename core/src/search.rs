//! Next-move statistics for a query position: moves stored in a position's canonical
//! orientation are mapped back onto the query's orientation, and moves that the query
//! position's own symmetry makes equal are merged into one class.
//!
//! One aggregation for every store ([`next_moves_into`]): find the query's position
//! ([`NextMoveSource::find_position`]), map each of its stored next moves onto the query
//! ([`NextMoveSource::for_each_next_move`]), merge them by symmetry and sort them
//! ([`NextMoves`]). The index, an index filtered by game, and the book are sources; the
//! command line, the shell and the hint handler all search through it.
//!
//! Classes are ordered as `docs/JSON.md` says (search order): by count, highest first; ties by colour (Black
//! first), then by `y * 19 + x` of the shown move, a pass last.
//!
//! **The shown move of a class.** For a position without symmetry a class is one point.
//! For a symmetric position the class is an orbit of points; the one shown is the point
//! of the orbit nearest the upper-right corner by the players' convention: first the
//! points in the upper-right octant (right half, top half, no farther from the right edge
//! than from the top edge), then the smallest `y * 19 + x`. On the empty board this shows
//! the 4-4 point as `pd`, the 3-4 point as `qd` and the 3-5 point as `qe`, as bGo does.

use crate::board::{Board, Hashed, Tracking};
use crate::hash::{Key, PositionKey};
use crate::point::{Color, Move, Point, Size};
use crate::transform::{Transform, TransformSet};

/// The most classes a position can have: every point and a pass, for both colours.
pub const MAX_CLASSES: usize = 2 * 362;

/// A next move with its counts: as a file stores it for a position (in the position's
/// canonical orientation, one move), and as a search shows it (a class of moves that the
/// query's symmetry makes equal, in the query's orientation, shown as one move: see the
/// module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct NextMove {
    /// Colour of the player who moved.
    pub color: Color,
    /// The move (for a class, the one shown on the board).
    pub mv: Move,
    /// Occurrences followed by this move (or a move of this class).
    pub count: u32,
    /// Of those, occurrences from games Black won.
    pub black_wins: u32,
    /// Of those, occurrences from games White won.
    pub white_wins: u32,
}

/// Whether `p` lies in the upper-right octant of a board of `size`.
fn in_upper_right_octant(p: Point, size: Size) -> bool {
    let right = size.width().saturating_sub(1).saturating_sub(p.x);
    let top = p.y;
    let right_half = p.x as u16 * 2 >= size.width().saturating_sub(1) as u16;
    let top_half = p.y as u16 * 2 <= size.height().saturating_sub(1) as u16;
    right_half && top_half && right <= top
}

/// The point shown for the orbit of `p` under `sym` on a board (or pattern grid) of
/// `size` (see the module documentation): what a class of equivalent moves shows.
pub fn representative(p: Point, sym: TransformSet, size: Size) -> Point {
    if sym.0 == 0xff && size.is_square() && size.contains(p) {
        return representative_all(p, size);
    }
    representative_by_search(p, sym, size)
}

/// [`representative`] under all 8 transforms of a square board (the empty board's group,
/// the most common query): the orbit meets the closed upper-right octant in exactly one
/// point, reached by mirroring into the right half, the top half, then across the
/// anti-diagonal. Equal to [`representative_by_search`] (tested on every point of every
/// size).
fn representative_all(p: Point, size: Size) -> Point {
    let m = size.width().saturating_sub(1);
    let x = p.x.max(m.saturating_sub(p.x));
    let y = p.y.min(m.saturating_sub(p.y));
    if m.saturating_sub(x) <= y {
        Point::new(x, y)
    } else {
        Point::new(m.saturating_sub(y), m.saturating_sub(x))
    }
}

/// [`representative`] by trying every transform of `sym`.
fn representative_by_search(p: Point, sym: TransformSet, size: Size) -> Point {
    let rank = |q: Point| (!in_upper_right_octant(q, size), q.index19());
    let (mut best, mut best_rank) = (p, rank(p));
    for t in sym.iter() {
        if let Some(q) = t.apply(p, size) {
            let r = rank(q);
            if r < best_rank {
                (best, best_rank) = (q, r);
            }
        }
    }
    best
}

/// The points equivalent to `mv` under `sym`, sorted by `y * 19 + x`, without
/// repetition (a pass is alone in its class).
pub fn equivalent(mv: Move, sym: TransformSet, size: Size) -> heapless::Vec<Move, 8> {
    let mut out: heapless::Vec<Move, 8> = heapless::Vec::new();
    match mv {
        Move::Pass => {
            let _ = out.push(Move::Pass);
        }
        Move::Play(p) => {
            for t in sym.iter() {
                if let Some(q) = t.apply(p, size) {
                    if !out.contains(&Move::Play(q)) {
                        let _ = out.push(Move::Play(q));
                    }
                }
            }
            out.sort_unstable_by_key(|m| m.code());
        }
    }
    out
}

/// Why a search could not be completed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SearchError {
    /// More classes than the accumulator holds.
    TooManyClasses,
}

/// Accumulates stored next moves into classes for one query position.
#[derive(Clone, Debug)]
pub struct NextMoves<const N: usize = MAX_CLASSES> {
    size: Size,
    sym: TransformSet,
    classes: heapless::Vec<NextMove, N>,
    total: u64,
}

impl<const N: usize> NextMoves<N> {
    /// An empty accumulator for a query on a board of `size` whose symmetry group is `sym`.
    pub fn new(size: Size, sym: TransformSet) -> Self {
        NextMoves {
            size,
            sym,
            classes: heapless::Vec::new(),
            total: 0,
        }
    }

    /// Empties the accumulator for a new query, in place (a large `N` is not copied).
    pub fn reset(&mut self, size: Size, sym: TransformSet) {
        self.size = size;
        self.sym = sym;
        self.classes.clear();
        self.total = 0;
    }

    /// The board size of the query.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The query position's symmetry group.
    pub fn symmetries(&self) -> TransformSet {
        self.sym
    }

    /// Adds a stored move. `to_query` maps the stored (canonical) orientation onto the
    /// query's; `swap` exchanges the colours (a move found for the colour-swapped position).
    pub fn add(&mut self, s: NextMove, to_query: Transform, swap: bool) -> Result<(), SearchError> {
        let mv = match s.mv {
            Move::Pass => Move::Pass,
            Move::Play(p) => match to_query.apply(p, self.size) {
                Some(q) => Move::Play(representative(q, self.sym, self.size)),
                // A stored point off this board cannot come from a valid file; ignore it.
                None => return Ok(()),
            },
        };
        let (color, bw, ww) = if swap {
            (s.color.opponent(), s.white_wins, s.black_wins)
        } else {
            (s.color, s.black_wins, s.white_wins)
        };
        self.total += s.count as u64;
        if let Some(c) = self
            .classes
            .iter_mut()
            .find(|c| c.color == color && c.mv == mv)
        {
            c.count = c.count.saturating_add(s.count);
            c.black_wins = c.black_wins.saturating_add(bw);
            c.white_wins = c.white_wins.saturating_add(ww);
            return Ok(());
        }
        self.classes
            .push(NextMove {
                color,
                mv,
                count: s.count,
                black_wins: bw,
                white_wins: ww,
            })
            .map_err(|_| SearchError::TooManyClasses)
    }

    /// Sorts the classes in search order. Call once after the last [`NextMoves::add`].
    pub fn finish(&mut self) {
        self.classes.sort_unstable_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then(a.color.cmp(&b.color))
                .then(a.mv.code().cmp(&b.mv.code()))
        });
    }

    /// The classes (in search order once [`NextMoves::finish`] was called).
    pub fn classes(&self) -> &[NextMove] {
        &self.classes
    }

    /// The sum of all counts.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The moves equivalent to a class's shown move under the query's symmetry.
    pub fn equivalent(&self, class: &NextMove) -> heapless::Vec<Move, 8> {
        equivalent(class.mv, self.sym, self.size)
    }
}

/// A query position as a lookup needs it: the board, its canonical key with the transform
/// onto the canonical orientation, and its symmetries.
#[derive(Copy, Clone, Debug)]
pub struct Lookup<'b, T: Tracking = Hashed> {
    /// The position asked for.
    pub board: &'b Board<T>,
    /// Its canonical key.
    pub key: Key,
    /// The transform from its orientation onto the canonical one.
    pub to_canonical: Transform,
    /// The transforms that leave it unchanged (classes merge by them).
    pub symmetries: TransformSet,
}

impl<'b> Lookup<'b, Hashed> {
    /// The lookup of a board that keeps its keys ([`crate::hash::Keys::canonical`]).
    pub fn new(board: &'b Board) -> Self {
        Lookup::with_symmetries(board, board.symmetries())
    }

    /// [`Lookup::new`] with the symmetries already known (the colour-swapped position has
    /// those of the position).
    pub fn with_symmetries(board: &'b Board, symmetries: TransformSet) -> Self {
        let (key, to_canonical) = board.keys().canonical(board.size());
        Lookup {
            board,
            key,
            to_canonical,
            symmetries,
        }
    }
}

impl<'b, T: Tracking> Lookup<'b, T> {
    /// The lookup of a board whose key was computed once from its stones
    /// ([`Board::position_key`]).
    pub fn of_position_key(board: &'b Board<T>, key: &PositionKey) -> Self {
        Lookup {
            board,
            key: key.key,
            to_canonical: key.to_canonical,
            symmetries: board.symmetries_among(key.maybe_symmetric),
        }
    }
}

/// A store of positions with their next moves (the index, an index filtered by game, the
/// book): what [`next_moves_into`] searches.
pub trait NextMoveSource {
    /// Where a found position's next moves are.
    type Found;

    /// Finds the position `query`, whose canonical key is `key` and `to_canonical` its
    /// transform onto the canonical orientation.
    fn find_position<T: Tracking>(
        &self,
        query: &Board<T>,
        key: Key,
        to_canonical: Transform,
    ) -> Option<Self::Found>;

    /// Calls `visit` with each stored next move of a found position (a count of 1 for a
    /// move counted occurrence by occurrence) and the transform from the orientation it is
    /// stored in onto the query's; stops at the first error `visit` returns.
    fn for_each_next_move<E>(
        &self,
        found: &Self::Found,
        visit: impl FnMut(NextMove, Transform) -> Result<(), E>,
    ) -> Result<(), E>;
}

/// The one next-move search: finds `query` in `source`, maps every stored next move onto
/// the query's orientation, merges the classes by the query's symmetry and sorts them into
/// `out` (reset first). With `swapped` (the colour-swapped query), its moves are added too,
/// with colours exchanged.
#[inline]
pub fn next_moves_into<S: NextMoveSource, T: Tracking, const N: usize>(
    source: &S,
    query: &Lookup<'_, T>,
    swapped: Option<&Lookup<'_, T>>,
    out: &mut NextMoves<N>,
) -> Result<(), SearchError> {
    out.reset(query.board.size(), query.symmetries);
    if let Some(found) = source.find_position(query.board, query.key, query.to_canonical) {
        source.for_each_next_move(&found, |m, to_query| out.add(m, to_query, false))?;
    }
    if let Some(q) = swapped {
        if let Some(found) = source.find_position(q.board, q.key, q.to_canonical) {
            source.for_each_next_move(&found, |m, to_query| out.add(m, to_query, true))?;
        }
    }
    out.finish();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str) -> Point {
        let b = s.as_bytes();
        Point::new(b[0] - b'a', b[1] - b'a')
    }

    #[test]
    fn empty_board_classes_show_bgo_points() {
        let all = TransformSet(0xff);
        let s = Size::STANDARD;
        assert_eq!(representative(pt("dd"), all, s), pt("pd"));
        assert_eq!(representative(pt("pp"), all, s), pt("pd"));
        assert_eq!(representative(pt("cp"), all, s), pt("qd"));
        assert_eq!(representative(pt("ec"), all, s), pt("qe"));
        assert_eq!(representative(pt("jj"), all, s), pt("jj"));
        let eq = equivalent(Move::Play(pt("dd")), all, s);
        assert_eq!(eq.len(), 4);
        assert_eq!(eq[0], Move::Play(pt("dd")));
    }

    #[test]
    fn representative_of_the_full_group_in_closed_form() {
        let all = TransformSet(0xff);
        for n in 1..=19 {
            let s = Size::square(n).unwrap();
            for y in 0..n {
                for x in 0..n {
                    let p = Point::new(x, y);
                    assert_eq!(
                        representative_all(p, s),
                        representative_by_search(p, all, s),
                        "{n}x{n} {p:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn merge_and_order() {
        let s = Size::STANDARD;
        // Symmetric under flip top-bottom (transform 2) only.
        let sym = TransformSet(0b101);
        let mut nm: NextMoves<16> = NextMoves::new(s, sym);
        let sm = |p: &str, c: Color, n: u32| NextMove {
            color: c,
            mv: Move::Play(pt(p)),
            count: n,
            black_wins: n,
            white_wins: 0,
        };
        nm.add(sm("fq", Color::Black, 2), Transform::IDENTITY, false)
            .unwrap();
        nm.add(sm("fc", Color::Black, 1), Transform::IDENTITY, false)
            .unwrap();
        nm.add(sm("pj", Color::Black, 2), Transform::IDENTITY, false)
            .unwrap();
        nm.add(
            NextMove {
                color: Color::Black,
                mv: Move::Pass,
                count: 2,
                black_wins: 0,
                white_wins: 1,
            },
            Transform::IDENTITY,
            false,
        )
        .unwrap();
        nm.add(sm("cn", Color::White, 3), Transform::ALL[1], true)
            .unwrap();
        nm.finish();
        let c = nm.classes();
        assert_eq!(nm.total(), 10);
        assert_eq!(c.len(), 4);
        assert_eq!((c[0].color, c[0].count), (Color::Black, 3)); // fq + fc merged
        assert_eq!(nm.equivalent(&c[0]).len(), 2);
        // Swapped: a white move becomes black, transform 1 maps cn (2,13) to (16,13).
        assert_eq!(
            (c[1].mv, c[1].count, c[1].white_wins),
            (Move::Play(pt("qf")), 3, 3)
        );
        assert_eq!(c[2].mv, Move::Play(pt("pj")));
        assert_eq!(c[3].mv, Move::Pass);
    }
}
