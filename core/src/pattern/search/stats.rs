//! Continuation statistics: continuations counted by class (colour and the cell shown for
//! the class), with immediate and tenuki counts and the results of their games, ordered as
//! `docs/CONTRACTS.md` orders `search`'s next moves.

use crate::point::{Color, Point, MAX_POINTS};

use super::hits::Continuation;
use crate::pattern::query::PatternQuery;

/// The counts of one continuation class.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ClassCounts {
    /// Continuations of the class.
    pub count: u64,
    /// Of those, played right after the hit's position.
    pub immediate: u64,
    /// Of those, played later (after moves elsewhere).
    pub tenuki: u64,
    /// Of those, from games Black won (by the record's `RE[]`).
    pub black_wins: u64,
    /// Of those, from games White won.
    pub white_wins: u64,
}

impl ClassCounts {
    fn add(&mut self, o: &ClassCounts) {
        self.count += o.count;
        self.immediate += o.immediate;
        self.tenuki += o.tenuki;
        self.black_wins += o.black_wins;
        self.white_wins += o.white_wins;
    }
}

/// One class of continuations.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ContinuationClass {
    /// The colour of the continuation (as the pattern sees it).
    pub color: Color,
    /// The cell shown for the class (pattern coordinates).
    pub cell: Point,
    /// Its counts.
    pub counts: ClassCounts,
}

/// Continuations counted by class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContinuationStats {
    width: u8,
    cells: [[ClassCounts; MAX_POINTS]; 2],
}

impl ContinuationStats {
    /// Empty statistics for `q`'s pattern.
    pub fn new(q: &PatternQuery) -> ContinuationStats {
        ContinuationStats {
            width: q.pattern().width(),
            cells: [[ClassCounts::default(); MAX_POINTS]; 2],
        }
    }

    /// Counts a continuation from a game won by `winner`.
    pub fn add(&mut self, q: &PatternQuery, c: &Continuation, winner: Option<Color>) {
        let shown = q.class_of(c.cell);
        let i = shown.y as usize * self.width as usize + shown.x as usize;
        if let Some(k) = self
            .cells
            .get_mut(c.color.index())
            .and_then(|row| row.get_mut(i))
        {
            k.count += 1;
            k.immediate += c.immediate as u64;
            k.tenuki += !c.immediate as u64;
            k.black_wins += (winner == Some(Color::Black)) as u64;
            k.white_wins += (winner == Some(Color::White)) as u64;
        }
    }

    /// Adds another accumulator's counts (of the same query).
    pub fn merge(&mut self, other: &ContinuationStats) {
        for (a, b) in self.cells.iter_mut().zip(&other.cells) {
            for (x, y) in a.iter_mut().zip(b) {
                x.add(y);
            }
        }
    }

    /// The sum of all counts.
    pub fn total(&self) -> u64 {
        self.cells.iter().flatten().map(|c| c.count).sum()
    }

    /// The classes seen, in the contract's order: by count, highest first; then Black first;
    /// then by `y * width + x` of the shown cell.
    pub fn classes(&self) -> heapless::Vec<ContinuationClass, { 2 * MAX_POINTS }> {
        let mut out: heapless::Vec<ContinuationClass, { 2 * MAX_POINTS }> = heapless::Vec::new();
        let w = self.width.max(1) as usize;
        for (ci, row) in self.cells.iter().enumerate() {
            let color = if ci == 0 { Color::Black } else { Color::White };
            for (i, k) in row.iter().enumerate() {
                if k.count > 0 {
                    let _ = out.push(ContinuationClass {
                        color,
                        cell: Point::new((i % w) as u8, (i / w) as u8),
                        counts: *k,
                    });
                }
            }
        }
        out.sort_unstable_by(|a, b| {
            b.counts
                .count
                .cmp(&a.counts.count)
                .then(a.color.cmp(&b.color))
                .then((a.cell.y, a.cell.x).cmp(&(b.cell.y, b.cell.x)))
        });
        out
    }
}
