//! Fixed-array Go boards of any size from 1x1 to 19x19 (rectangular included), with
//! groups, liberties, captures, suicide, ko, and bGo's hashes and kifudex's Zobrist keys
//! under all 8 transforms kept up to date incrementally.
//!
//! # Representation
//!
//! A [`Board`] is two bitboards (one [`PointSet`] per colour: 19 rows of `u32`, bit `x` of
//! row `y`), the 8 bGo hashes, the 8 Zobrist keys, the ko point, the pass count and the
//! stone count: 368 bytes, `Clone`, no allocation. Looking up a point is two bit tests.
//! Most moves are decided from five rows of bit masks (no neighbour in atari, an empty
//! neighbour for the new stone); otherwise groups and liberties are found by bitboard flood
//! fill (row-wise sweeps).
//!
//! Placing or removing a stone updates the 8 hashes and 8 keys in O(8), so a capture of `n`
//! stones costs O(8n). What a board keeps besides its stones is its [`Tracking`] parameter:
//! a `Board<StonesOnly>` (164 bytes) keeps nothing more, for a query whose one final
//! position is keyed once ([`Board::position_key`]): a microcontroller answering a hint
//! request plays 30 moves in about a third of the instructions.
//!
//! # Ko and superko
//!
//! A board alone keeps no history: under [`KoRule::Simple`] and [`KoRule::PositionalSuperko`]
//! it forbids the immediate recapture of a single-stone ko ([`MoveError::Ko`]). Positional
//! superko needs the game's history: [`crate::replay::Replay`] enforces it exactly against
//! every position it holds ([`MoveError::Superko`]).

mod rules;
mod tracking;

pub use rules::{Captures, Group, KoRule, MoveError, Rules};
pub use tracking::{Hashed, StonesOnly, Tracking};

use crate::hash::{BgoHashes, Keys, PositionKey};
use crate::point::{Color, Move, Point, Size, Stone, MAX_POINTS};
use crate::pointset::{row_mask, PointSet};
use crate::transform::{Transform, TransformSet};

const ROWS: usize = 19;

/// The most consecutive passes a board counts (the counter saturates there).
pub const MAX_PASSES: u8 = 63;

/// A Go board (see the module documentation). `T` says what it keeps up to date besides
/// the stones: by default the hashes and keys of all 8 orientations ([`Hashed`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board<T: Tracking = Hashed> {
    size: Size,
    rules: Rules,
    /// Stones by colour index (black 0, white 1).
    stones: [PointSet; 2],
    tracked: T,
    /// The ko point and the colour forbidden to play there.
    ko: Option<(Point, Color)>,
    passes: u8,
    count: u16,
}

impl Board {
    /// An empty board with the default rules (no suicide, simple ko).
    pub fn new(size: Size) -> Board {
        Board::with_rules(size, Rules::default())
    }

    /// An empty board with the given rules.
    pub fn with_rules(size: Size, rules: Rules) -> Board {
        Board::empty(size, rules)
    }

    /// A board holding the given row-major cells (`y * width + x`), with default rules,
    /// hashes and keys computed. `None` unless `cells` has exactly `size.points()` cells.
    /// The position is taken as it is (groups without liberties are kept).
    pub fn from_cells(size: Size, cells: &[Stone]) -> Option<Board> {
        if cells.len() != size.points() {
            return None;
        }
        let mut b = Board::new(size);
        let w = size.width() as usize;
        for (i, &s) in cells.iter().enumerate() {
            if s != Stone::Empty {
                b.set_stone(Point::new((i % w) as u8, (i / w) as u8), s)
                    .ok()?;
            }
        }
        Some(b)
    }

    /// bGo's hashes of the position under the 8 transforms.
    #[inline]
    pub fn bgo_hashes(&self) -> &BgoHashes {
        &self.tracked.bgo
    }

    /// The Zobrist keys of the position under the 8 transforms.
    #[inline]
    pub fn keys(&self) -> &Keys {
        &self.tracked.keys
    }
}

impl<T: Tracking> Board<T> {
    /// An empty board with the given rules, keeping what `T` tracks
    /// (`Board::<StonesOnly>::empty` for a board of stones only).
    #[inline]
    pub fn empty(size: Size, rules: Rules) -> Self {
        Board {
            size,
            rules,
            stones: [PointSet::EMPTY; 2],
            tracked: T::default(),
            ko: None,
            passes: 0,
            count: 0,
        }
    }

    /// Writes the cells row-major (`y * width + x`) into `out`. Returns `false` (writing
    /// nothing) unless `out` has exactly `size.points()` cells.
    pub fn to_cells(&self, out: &mut [Stone]) -> bool {
        if out.len() != self.size.points() {
            return false;
        }
        let w = self.size.width() as usize;
        for (i, c) in out.iter_mut().enumerate() {
            *c = self.get(Point::new((i % w) as u8, (i / w) as u8));
        }
        true
    }

    /// The board size.
    #[inline]
    pub fn size(&self) -> Size {
        self.size
    }

    /// The rules.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes the rules (the position is kept).
    #[inline]
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// The stone at `p` (`Empty` off the board).
    #[inline]
    pub fn get(&self, p: Point) -> Stone {
        if !self.size.contains(p) {
            return Stone::Empty;
        }
        let y = p.y as usize;
        let bit = 1u32 << (p.x & 31);
        if self.stones[0].bits(y) & bit != 0 {
            Stone::Black
        } else if self.stones[1].bits(y) & bit != 0 {
            Stone::White
        } else {
            Stone::Empty
        }
    }

    /// The stones of a colour.
    #[inline]
    pub fn stones(&self, color: Color) -> &PointSet {
        &self.stones[color.index()]
    }

    /// The empty points of the board.
    #[inline]
    pub fn empty_points(&self) -> PointSet {
        PointSet::vacant(&self.stones[0], &self.stones[1], self.size)
    }

    /// Number of stones on the board.
    #[inline]
    pub fn stone_count(&self) -> u16 {
        self.count
    }

    /// The point the next player may not play because of ko, if any.
    #[inline]
    pub fn ko_point(&self) -> Option<Point> {
        self.ko.map(|(p, _)| p)
    }

    /// The ko point and the colour forbidden to play there.
    #[inline]
    pub fn ko(&self) -> Option<(Point, Color)> {
        self.ko
    }

    /// Number of consecutive passes that ended the move sequence (0 after a stone is
    /// played; saturates at [`MAX_PASSES`]).
    #[inline]
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// Whether the last two moves were passes.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.passes >= 2
    }

    /// Adds (`add`) or removes a stone's contribution to what the board tracks.
    #[inline(always)]
    fn toggle_hashes(&mut self, color: Color, x: u32, y: u32, add: bool) {
        self.tracked.toggle(self.size, color, x, y, add);
    }

    /// [`Board::toggle_hashes`] out of line, for the cold paths (setup, undo): keeps the
    /// code small on microcontrollers.
    #[inline(never)]
    fn toggle_hashes_cold(&mut self, color: Color, x: u32, y: u32, add: bool) {
        self.toggle_hashes(color, x, y, add);
    }

    /// Removes every stone of `set` (all of colour `color`) with their hashes.
    fn remove_set(&mut self, color: Color, set: &PointSet) {
        let c = color.index();
        let mut n = 0u16;
        for (y, &row) in set.rows().iter().enumerate() {
            let mut r = row;
            self.stones[c].clear_bits(y, r);
            while r != 0 {
                let x = r.trailing_zeros();
                r &= r - 1;
                n += 1;
                self.toggle_hashes(color, x, y as u32, false);
            }
        }
        self.count = self.count.wrapping_sub(n);
    }

    /// Adds a stone of `color` on every point of `set` (all empty) with their hashes.
    fn add_set(&mut self, color: Color, set: &PointSet) {
        let c = color.index();
        let mut n = 0u16;
        for (y, &row) in set.rows().iter().enumerate() {
            let mut r = row;
            self.stones[c].set_bits(y, r);
            while r != 0 {
                let x = r.trailing_zeros();
                r &= r - 1;
                n += 1;
                self.toggle_hashes_cold(color, x, y as u32, true);
            }
        }
        self.count = self.count.wrapping_add(n);
    }

    /// Puts `s` on `p` (SGF setup `AB`/`AW`/`AE`): no captures, no rule checks, hashes and
    /// keys updated. The ko point is cleared; the pass count is kept. Fails only for a
    /// point off the board.
    pub fn set_stone(&mut self, p: Point, s: Stone) -> Result<(), MoveError> {
        if !self.size.contains(p) {
            return Err(MoveError::OffBoard);
        }
        let (x, y) = (p.x as u32, p.y as usize);
        let bit = 1u32 << (x & 31);
        let old = self.get(p);
        self.ko = None;
        if old == s {
            return Ok(());
        }
        if let Some(c) = old.color() {
            self.stones[c.index()].clear_bits(y, bit);
            self.toggle_hashes_cold(c, x, y as u32, false);
            self.count = self.count.wrapping_sub(1);
        }
        if let Some(c) = s.color() {
            self.stones[c.index()].set_bits(y, bit);
            self.toggle_hashes_cold(c, x, y as u32, true);
            self.count = self.count.wrapping_add(1);
        }
        Ok(())
    }

    /// Plays a move of `color`: a stone with its captures, or a pass. On an error the
    /// board is unchanged. A pass counts towards [`Board::is_game_over`] and clears the ko
    /// point; a stone resets the pass count.
    #[inline]
    pub fn play(&mut self, color: Color, mv: Move) -> Result<Captures, MoveError> {
        match mv {
            Move::Pass => {
                self.passes = self.passes.saturating_add(1).min(MAX_PASSES);
                self.ko = None;
                Ok(Captures::NONE)
            }
            Move::Play(p) => self.play_at(color, p),
        }
    }

    /// [`Board::play`] without reporting the captured stones: the same board, the same
    /// errors, for a caller that only needs the position (a query on a microcontroller,
    /// where writing out the 80-byte [`Captures`] is a tenth of a move's cost).
    #[inline]
    pub fn place(&mut self, color: Color, mv: Move) -> Result<(), MoveError> {
        match mv {
            Move::Pass => {
                self.passes = self.passes.saturating_add(1).min(MAX_PASSES);
                self.ko = None;
                Ok(())
            }
            Move::Play(p) => self.place_at(color, p),
        }
    }

    /// [`Board::play_stone`] with the captures dropped (the compiler removes their
    /// bookkeeping from this copy).
    #[inline(never)]
    fn place_at(&mut self, color: Color, p: Point) -> Result<(), MoveError> {
        self.play_stone(color, p).map(|_| ())
    }

    /// [`Board::play_stone`], out of line.
    #[inline(never)]
    fn play_at(&mut self, color: Color, p: Point) -> Result<Captures, MoveError> {
        self.play_stone(color, p)
    }

    /// What [`Board::play`] would return, leaving the board untouched.
    pub fn try_play(&self, color: Color, mv: Move) -> Result<Captures, MoveError> {
        self.clone().play(color, mv)
    }

    /// Whether [`Board::play`] would accept the move.
    pub fn is_legal(&self, color: Color, mv: Move) -> bool {
        self.try_play(color, mv).is_ok()
    }

    /// Whether `(x, y)` (on the board) has an empty neighbour.
    #[inline(always)]
    fn has_empty_neighbour(&self, x: u32, y: usize) -> bool {
        let occ = |yy: usize| self.stones[0].bits(yy) | self.stones[1].bits(yy);
        let mask = row_mask(self.size);
        let h = self.size.height() as usize;
        let bit = 1u32 << (x & 31);
        let side = ((bit << 1) | (bit >> 1)) & mask & !occ(y);
        if side != 0 {
            return true;
        }
        if y > 0 && occ(y - 1) & bit == 0 {
            return true;
        }
        y + 1 < h && occ(y + 1) & bit == 0
    }

    /// Whether the group `g` (rows `lo..=hi`) has a liberty.
    #[inline]
    fn group_has_liberty(&self, g: &PointSet, lo: usize, hi: usize) -> bool {
        // The empty points of the rows around the group only.
        let mask = row_mask(self.size);
        let h = self.size.height() as usize;
        g.touches_rows(lo, hi, |y| {
            if y < h {
                mask & !(self.stones[0].bits(y) | self.stones[1].bits(y))
            } else {
                0
            }
        })
    }

    /// A stone of `color` at `p`, with its captures (inlined into [`Board::play_at`] and
    /// [`Board::place_at`]).
    #[inline(always)]
    fn play_stone(&mut self, color: Color, p: Point) -> Result<Captures, MoveError> {
        if !self.size.contains(p) {
            return Err(MoveError::OffBoard);
        }
        let (x, y) = (p.x as u32, p.y as usize);
        let bit = 1u32 << (x & 31);
        let me = color.index();
        let op = color.opponent();
        if (self.stones[0].bits(y) | self.stones[1].bits(y)) & bit != 0 {
            return Err(MoveError::Occupied);
        }
        if self.rules.ko != KoRule::None && self.ko == Some((p, color)) {
            return Err(MoveError::Ko);
        }
        self.stones[me].set_bits(y, bit);
        let h = self.size.height() as usize;

        // The common case in a few row operations: no adjacent opponent stone is left
        // without an empty neighbour (so nothing can be captured) and the new stone has an
        // empty neighbour (so it is not suicide).
        {
            let mask = row_mask(self.size);
            let empty = |i: usize| {
                if i < h {
                    !(self.stones[0].bits(i) | self.stones[1].bits(i)) & mask
                } else {
                    0
                }
            };
            let (e2, e1, e0, d1, d2) = (
                empty(y.wrapping_sub(2)),
                empty(y.wrapping_sub(1)),
                empty(y),
                empty(y + 1),
                empty(y + 2),
            );
            // Points of rows y-1, y and y+1 with an empty neighbour.
            let lib_up = (e1 << 1) | (e1 >> 1) | e2 | e0;
            let lib_mid = (e0 << 1) | (e0 >> 1) | e1 | d1;
            let lib_down = (d1 << 1) | (d1 >> 1) | e0 | d2;
            let ops = &self.stones[op.index()];
            let threatened = (((bit << 1) | (bit >> 1)) & ops.bits(y) & !lib_mid)
                | (bit & ops.bits(y.wrapping_sub(1)) & !lib_up)
                | (bit & ops.bits(y + 1) & !lib_down);
            if threatened == 0 && lib_mid & bit != 0 {
                self.toggle_hashes(color, x, y as u32, true);
                self.count = self.count.wrapping_add(1);
                self.passes = 0;
                self.ko = None;
                return Ok(Captures::NONE);
            }
        }

        let w = self.size.width() as u32;
        let mut nbrs = [(0u32, 0usize); 4];
        let mut nn = 0;
        for (ok, q) in [
            (x > 0, (x.wrapping_sub(1), y)),
            (x + 1 < w, (x + 1, y)),
            (y > 0, (x, y.wrapping_sub(1))),
            (y + 1 < h, (x, y + 1)),
        ] {
            if ok {
                if let Some(slot) = nbrs.get_mut(nn) {
                    *slot = q;
                    nn += 1;
                }
            }
        }
        let nbrs = nbrs.get(..nn).unwrap_or(&[]);

        // The captured stones; `None` (nothing to clear) on the common path without capture.
        let mut captured: Option<PointSet> = None;
        for &(nx, ny) in nbrs {
            let nb = 1u32 << (nx & 31);
            if self.stones[op.index()].bits(ny) & nb == 0
                || captured.as_ref().is_some_and(|c| c.bits(ny) & nb != 0)
            {
                continue;
            }
            if self.has_empty_neighbour(nx, ny) {
                continue;
            }
            let (g, lo, hi) = self.stones[op.index()].flood(nx, ny);
            if !self.group_has_liberty(&g, lo, hi) {
                match captured.as_mut() {
                    Some(captured) => *captured |= g,
                    None => captured = Some(g),
                }
            }
        }

        if let Some(points) = captured {
            self.remove_set(op, &points);
            self.toggle_hashes(color, x, y as u32, true);
            self.count = self.count.wrapping_add(1);
            self.passes = 0;
            let count = points.len() as u16;
            // A single stone that took a single stone and has that point as its only
            // liberty makes a ko.
            self.ko = None;
            if count == 1 {
                let mine = &self.stones[me];
                let friendly = nbrs
                    .iter()
                    .any(|&(nx, ny)| mine.bits(ny) & (1u32 << (nx & 31)) != 0);
                let empties = nbrs
                    .iter()
                    .filter(|&&(nx, ny)| {
                        (self.stones[0].bits(ny) | self.stones[1].bits(ny)) & (1u32 << (nx & 31))
                            == 0
                    })
                    .count();
                if !friendly && empties == 1 {
                    if let Some(k) = points.first() {
                        self.ko = Some((k, op));
                    }
                }
            }
            return Ok(Captures {
                count,
                points,
                own: false,
            });
        }

        // No capture: is it suicide?
        let mut alive = self.has_empty_neighbour(x, y);
        if !alive {
            let mine = &self.stones[me];
            alive = nbrs.iter().any(|&(nx, ny)| {
                mine.bits(ny) & (1u32 << (nx & 31)) != 0 && self.has_empty_neighbour(nx, ny)
            });
        }
        if !alive {
            let (points, lo, hi) = self.stones[me].flood(x, y);
            if !self.group_has_liberty(&points, lo, hi) {
                if !self.rules.suicide_allowed {
                    self.stones[me].clear_bits(y, bit);
                    return Err(MoveError::Suicide);
                }
                // The played stone was never hashed: hash it, then remove the group.
                self.toggle_hashes(color, x, y as u32, true);
                self.count = self.count.wrapping_add(1);
                self.remove_set(color, &points);
                self.passes = 0;
                self.ko = None;
                return Ok(Captures {
                    count: points.len() as u16,
                    points,
                    own: true,
                });
            }
        }
        self.toggle_hashes(color, x, y as u32, true);
        self.count = self.count.wrapping_add(1);
        self.passes = 0;
        self.ko = None;
        Ok(Captures::NONE)
    }

    /// The stones of the group at `p` (empty if there is no stone).
    pub fn group(&self, p: Point) -> PointSet {
        match self.get(p).color() {
            None => PointSet::EMPTY,
            Some(c) => self.stones[c.index()].component(p),
        }
    }

    /// The liberties of the group at `p` (empty if there is no stone).
    pub fn liberties(&self, p: Point) -> PointSet {
        let g = self.group(p);
        if g.is_empty() {
            return g;
        }
        g.neighbours(self.size) & self.empty_points()
    }

    /// The number of liberties of the group at `p` (0 if there is no stone).
    pub fn liberty_count(&self, p: Point) -> u16 {
        self.liberties(p).len() as u16
    }

    /// Every group on the board, in the order of their first stone (`y * 19 + x`).
    pub fn groups(&self) -> Groups<'_, T> {
        Groups {
            board: self,
            left: self.stones[0] | self.stones[1],
            empty: self.empty_points(),
        }
    }

    /// Writes, for every point index `y * 19 + x`, the liberty count of the group there
    /// (0 for empty points and points off the board).
    pub fn liberty_counts(&self, out: &mut [u16; MAX_POINTS]) {
        out.fill(0);
        for g in self.groups() {
            let n = g.liberties.len() as u16;
            for p in g.stones {
                if let Some(o) = out.get_mut(p.index19() as usize) {
                    *o = n;
                }
            }
        }
    }

    /// bGo's hash (identity) and the canonical key of the position, computed from the
    /// stones ([`PositionKey::of_stones`]): what a board of [`StonesOnly`] uses for a
    /// lookup.
    pub fn position_key(&self) -> PositionKey {
        PositionKey::of_stones(&self.stones[0], &self.stones[1], self.size)
    }

    /// The transforms valid for the board's size that leave the position unchanged
    /// (compared stone by stone; the keys only pre-filter).
    pub fn symmetries(&self) -> TransformSet {
        self.symmetries_among(TransformSet(0xff))
    }

    /// [`Board::symmetries`] among `candidates` only, for a caller that already knows the
    /// other transforms change the position (its keys under them differ). The identity
    /// is always in the result.
    pub fn symmetries_among(&self, candidates: TransformSet) -> TransformSet {
        let mut set = TransformSet::IDENTITY;
        let empty = self.stones[0].is_empty() && self.stones[1].is_empty();
        for &t in Transform::all_for(self.size) {
            if empty {
                // The empty board is symmetric under every transform of its size.
                set = set.with(t);
                continue;
            }
            if t == Transform::IDENTITY
                || !candidates.contains(t)
                || !self.tracked.may_be_symmetric_under(t)
            {
                continue;
            }
            let same = (0..2).all(|c| {
                let s = &self.stones[c];
                s.iter()
                    .all(|p| s.contains(t.apply_unchecked(p, self.size)))
            });
            if same {
                set = set.with(t);
            }
        }
        set
    }

    /// The area score `(black, white)`: each colour's stones plus the empty regions
    /// bordered by that colour only.
    pub fn area_score(&self) -> (u16, u16) {
        let mut score = [self.stones[0].len() as u16, self.stones[1].len() as u16];
        let mut left = self.empty_points();
        while let Some(p) = left.first() {
            let region = left.component(p);
            left = left - region;
            let border = region.neighbours(self.size);
            let b = border.intersects(&self.stones[0]);
            let w = border.intersects(&self.stones[1]);
            let n = region.len() as u16;
            match (b, w) {
                (true, false) => score[0] += n,
                (false, true) => score[1] += n,
                _ => {}
            }
        }
        (score[0], score[1])
    }

    // ---- undo support for `Replay` ----

    /// Restores the consecutive-pass count and ko state (undo).
    pub(crate) fn restore_state(&mut self, passes: u8, ko: Option<(Point, Color)>) {
        self.passes = passes;
        self.ko = ko;
    }

    /// Takes back a stone play of `color` at `p` (on the board right after it): `dirs`
    /// (bit 0 left, 1 right, 2 up, 3 down) names the neighbours whose groups it captured,
    /// `suicide` says its own group was removed.
    pub(crate) fn unplay(&mut self, color: Color, p: Point, dirs: u8, suicide: bool) {
        let (x, y) = (p.x as u32, p.y as usize);
        let bit = 1u32 << (x & 31);
        if suicide {
            let (g, _, _) = self.empty_points().flood(x, y);
            self.add_set(color, &g);
        } else {
            let op = color.opponent();
            let cand = [
                (x.wrapping_sub(1), y),
                (x + 1, y),
                (x, y.wrapping_sub(1)),
                (x, y + 1),
            ];
            for (d, &(nx, ny)) in cand.iter().enumerate() {
                if dirs & (1 << d) == 0 || nx >= 19 || ny >= ROWS {
                    continue;
                }
                let (g, _, _) = self.empty_points().flood(nx, ny);
                self.add_set(op, &g);
            }
        }
        self.stones[color.index()].clear_bits(y, bit);
        self.toggle_hashes_cold(color, x, y as u32, false);
        self.count = self.count.wrapping_sub(1);
    }
}

/// The iterator of [`Board::groups`].
#[derive(Clone, Debug)]
pub struct Groups<'a, T: Tracking = Hashed> {
    board: &'a Board<T>,
    left: PointSet,
    empty: PointSet,
}

impl<T: Tracking> Iterator for Groups<'_, T> {
    type Item = Group;

    fn next(&mut self) -> Option<Group> {
        let p = self.left.first()?;
        let color = self.board.get(p).color()?;
        let stones = self.board.stones[color.index()].component(p);
        self.left = self.left - stones;
        Some(Group {
            color,
            stones,
            liberties: stones.neighbours(self.board.size) & self.empty,
        })
    }
}

#[cfg(test)]
mod tests;
