//! The lines of a block a search reads ([`BlockLines`]), so that a caller can ask for the
//! next block's lines ahead of time.

use crate::pattern::stored::block::*;
use crate::pattern::stored::block_games::BLOCK_GAMES;
use crate::pattern::stored::corner::CORNER_BLOCK_BYTES;

use super::plan::{ScanPlan, Strategy};

/// Words of a [`BlockLines`] set (one bit per 64-byte line of a block).
const LINE_WORDS: usize = BLOCK_BYTES.div_ceil(64 * 64);

/// A set of 64-byte lines of a block, by their offset from the block's start: the lines a
/// search reads of every block it looks at ([`BlockLines::read_by`]), so that a caller
/// can ask for the next block's lines ahead of time (on a collection larger than the
/// processor's caches, a search otherwise waits for memory at each block).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockLines {
    bits: [u64; LINE_WORDS],
    /// The same for the block's corner boxes ([`PatternIndex::corner_block`]).
    corner_bits: [u64; CORNER_LINE_WORDS],
}

/// Words of the corner boxes' line set.
const CORNER_LINE_WORDS: usize = CORNER_BLOCK_BYTES.div_ceil(64 * 64);

impl BlockLines {
    /// The lines that `plan`'s search may read of a block: for the pair strategy, the
    /// block words of its pairs, the first-stone lines of every cell of their regions with
    /// those cells' first-colour and unsettled words, the games' flags and results, and
    /// the unsettled rows; nothing for the other strategies (they read every game).
    pub fn read_by(plan: &ScanPlan<'_>) -> BlockLines {
        let mut lines = BlockLines::default();
        if plan.strategy != Strategy::Pairs {
            return lines;
        }
        lines.add(TILE_BYTES + WORD_SEARCHED * 8);
        lines.add(TILE_BYTES + WORD_BLACK_WON * 8);
        lines.add(TILE_BYTES + WORD_WHITE_WON * 8);
        for pair in plan.pairs() {
            for &w in &pair.words {
                lines.add(TILE_BYTES + w as usize * 8);
            }
            for at in pair.corner.iter().flat_map(|k| k.reads()) {
                add_line(&mut lines.corner_bits, at);
            }
            let Some(cells) = plan.variant_cells(pair.variant as usize) else {
                continue;
            };
            for off in cells.offsets() {
                let code = pair.placement.index19() as usize + off as usize;
                lines.add(code * BLOCK_GAMES);
                lines.add(TILE_BYTES + (WORD_FIRST_WHITE + code) * 8);
                lines.add(TILE_BYTES + (WORD_UNSETTLED + code) * 8);
            }
        }
        for line in ROWS_AT / 64..=(BLOCK_BYTES - 1) / 64 {
            lines.add(line * 64);
        }
        lines
    }

    /// Adds the line of byte `at` of a block.
    fn add(&mut self, at: usize) {
        add_line(&mut self.bits, at);
    }

    /// Number of lines (of the block, without its corner boxes').
    pub fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty (both parts).
    pub fn is_empty(&self) -> bool {
        self.bits.iter().chain(&self.corner_bits).all(|&w| w == 0)
    }

    /// The lines' offsets from the block's start, in order.
    pub fn offsets(&self) -> impl Iterator<Item = usize> + '_ {
        line_offsets(&self.bits)
    }

    /// The lines of the block's corner boxes, as offsets from their start, in order.
    pub fn corner_offsets(&self) -> impl Iterator<Item = usize> + '_ {
        line_offsets(&self.corner_bits)
    }
}

/// Adds the line of byte `at` to a line set.
fn add_line(bits: &mut [u64], at: usize) {
    let l = at / 64;
    if let Some(w) = bits.get_mut(l / 64) {
        *w |= 1 << (l % 64);
    }
}

/// The offsets of the lines of a line set.
fn line_offsets(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(k, &w)| {
        let mut w = w;
        core::iter::from_fn(move || {
            (w != 0).then(|| {
                let l = k * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                l * 64
            })
        })
    })
}
