//! A stored game as the scan reads it ([`IndexedGame`]): its moves and setup from the
//! index, its removals from pattern search's stored data.

use core::ops::Range;

use crate::format::Packed;
use crate::index::{Index, IndexGame};
use crate::pattern::stored::reader::PatternIndex;
use crate::pattern::stored::summary::RemovalRecord;
use crate::point::{Point, Stone};
use crate::stored::StoredGame;

use super::hits::GameSource;

impl<'a> PatternIndex<'a> {
    /// Game `id` as the pattern scan reads it: its stored game and its removals.
    pub fn game(&self, index: &Index<'a>, id: u32) -> Option<IndexedGame<'a>> {
        Some(IndexedGame {
            game: index.stored_game(id)?,
            removals: self.removal_records(),
            removal_range: self.removal_range(id),
        })
    }
}

/// A stored game read from the index, with its removals.
#[derive(Clone, Debug)]
pub struct IndexedGame<'a> {
    game: IndexGame<'a>,
    removals: Packed<'a>,
    removal_range: Range<usize>,
}

impl GameSource for IndexedGame<'_> {
    #[inline]
    fn move_count(&self) -> usize {
        self.game.move_count() as usize
    }

    #[inline]
    fn move_code(&self, i: usize) -> u16 {
        let (moves, range) = self.game.move_records();
        moves.at(range.start + i) as u16
    }

    #[inline]
    fn for_each_move(&self, start: usize, mut f: impl FnMut(usize, u16) -> bool) {
        let (moves, r) = self.game.move_records();
        let first = r.start.saturating_add(start).min(r.end);
        moves.for_each_in(first..r.end, |i, v| f(i - r.start, v as u16));
    }

    #[inline]
    fn moves_into(&self, start: usize, out: &mut [u16]) -> usize {
        let (moves, r) = self.game.move_records();
        let r = &r;
        let first = r.start.saturating_add(start).min(r.end);
        let end = first.saturating_add(out.len()).min(r.end);
        let mut k = 0;
        moves.for_each_in(first..end, |_, v| {
            if let Some(slot) = out.get_mut(k) {
                *slot = v as u16;
            }
            k += 1;
            true
        });
        k.min(out.len())
    }

    fn setup_count(&self) -> usize {
        self.game.setup_count() as usize
    }

    fn setup(&self, j: usize) -> (u32, Point, Stone) {
        match self.game.setup_at(j as u32) {
            Some(r) => (r.before as u32, r.point, r.stone),
            None => (u32::MAX, Point::new(0, 0), Stone::Empty),
        }
    }

    fn removal_count(&self) -> usize {
        self.removal_range.len()
    }

    #[inline]
    fn for_each_removal(&self, mut f: impl FnMut(u32, u16)) {
        self.removals
            .for_each_in(self.removal_range.clone(), |_, v| {
                let r = RemovalRecord::decode(v);
                f(r.move_number, r.code);
                true
            });
    }

    fn removal(&self, j: usize) -> (u32, Point) {
        let v = self.removals.at(self.removal_range.start + j);
        let r = RemovalRecord::decode(v);
        (r.move_number, r.point().unwrap_or(Point::new(0, 0)))
    }
}
