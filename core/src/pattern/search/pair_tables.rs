//! The tables of a pair plan ([`PairTables`]): per board point, which candidate placements
//! (pairs, bit `i` of a `u128`) its region holds, which a black or a white stone put there
//! can complete, and which such a stone rules out. Made by the plan, read by the pair scan
//! (`super::pairscan`).

use crate::pattern::query::{Change, Variant};
use crate::point::{Point, MAX_SIDE};

/// Entries of a table: one per move code (`y * 19 + x`, then the pass and the codes past
/// the board, all without a pair), so that a move's code indexes it directly.
pub const CODES: usize = 512;

/// Per board point (`y * 19 + x`), masks over a plan's pairs (bit `i`: pair `i`).
#[derive(Clone, Debug)]
pub struct PairTables {
    /// The pairs whose region holds the point.
    pub region: [u128; CODES],
    /// The pairs a black (`[0]`) or white (`[1]`) stone put on the empty point can
    /// complete: the point is under a trigger cell of the change.
    pub trigger: [[u128; CODES]; 2],
    /// The pairs a black (`[0]`) or white (`[1]`) stone on the point rules out while it
    /// stays: the cell there rejects it.
    pub reject: [[u128; CODES]; 2],
    /// The pairs whose variant needs no stone (an empty board matches them).
    pub stoneless: u128,
}

impl PairTables {
    /// No pair anywhere.
    pub const EMPTY: PairTables = PairTables {
        region: [0; CODES],
        trigger: [[0; CODES]; 2],
        reject: [[0; CODES]; 2],
        stoneless: 0,
    };

    /// Adds pair `i`: variant `v` at placement `p`.
    pub fn add(&mut self, i: usize, v: &Variant, p: Point) {
        let Some(bit) = 1u128.checked_shl(i as u32) else {
            return;
        };
        if v.need_black.is_empty() && v.need_white.is_empty() {
            self.stoneless |= bit;
        }
        let width = u32::MAX.checked_shl(v.width as u32).map_or(0, |m| !m);
        let black = &v.triggers[Change::EmptyToBlack as usize];
        let white = &v.triggers[Change::EmptyToWhite as usize];
        let [trigger_black, trigger_white] = &mut self.trigger;
        let [reject_black, reject_white] = &mut self.reject;
        for cy in 0..v.height.min(MAX_SIDE) {
            // The code of the row's first cell on the board.
            let at = Point::new(p.x, p.y.wrapping_add(cy)).index19() as usize;
            let (nb, nw) = (v.need_black.row(cy), v.need_white.row(cy));
            for (table, cells) in [
                (&mut self.region, width),
                (&mut *trigger_black, black.row(cy) & width),
                (&mut *trigger_white, white.row(cy) & width),
                (&mut *reject_black, v.care_black.row(cy) & !nb & width),
                (&mut *reject_white, v.care_white.row(cy) & !nw & width),
            ] {
                mark(table, at, cells, bit);
            }
        }
    }
}

/// Sets `bit` in the entries `at + x` of `table` for the bits `x` of `cells`.
#[inline]
fn mark(table: &mut [u128; CODES], at: usize, mut cells: u32, bit: u128) {
    while cells != 0 {
        let x = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        if let Some(e) = table.get_mut(at + x) {
            *e |= bit;
        }
    }
}
