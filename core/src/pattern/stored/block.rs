//! The layout of a block of 64 games in pattern search's stored data, its encoder
//! ([`encode_block`]) and the parts a search reads of it ([`BlockParts`]).
//!
//! A block is [`BLOCK_BYTES`] bytes (little-endian `u64` words):
//!     first-stone byte ([`super::first::first_byte`]) of point `i` in game `64 * block + g`:
//!     the 64 games of a point lie in one line of bytes, so that the placements of a query
//!     read the few points they cover;
//!   - **words**, bit `g` for game `64 * block + g`: for every point, whether the game ever
//!     had a black stone there (words `0..361`), a white stone (words `361..722`); the games
//!     that are searched (19x19), that Black won, that White won; for every point, whether
//!     its first stone is white (words `725..1086`); for every point, the games in which it
//!     is unsettled (words `1086..1447`, the unsettled rows' bits laid out by point). A
//!     pattern's `X` cell can only match over an ever-black point and its `O` cell over an
//!     ever-white one: Kombilo's final-position bitmaps, laid out by point so that a corner
//!     pattern reads a handful of words per 64 games;
//!   - each game's **unsettled row** ([`super::first::UnsettledRow`]);
//!
//! The data as a whole (blocks, removals, corner boxes) is described by
//! [`super::header::PatternHeader`] and read by [`super::reader::PatternIndex`].

use crate::point::{Color, MAX_POINTS};

use super::block_games::BLOCK_GAMES;
use super::corner::CornerBlock;
use super::first::{UnsettledRow, FIRST_NEVER, UNSETTLED_ROW_BYTES};
use super::summary::{packed_contains, PackedSummary};

/// Bytes of a block's first-stone tile (64 per point).
pub const TILE_BYTES: usize = MAX_POINTS * BLOCK_GAMES;
/// Word (after the tile) where the points ever black start (one word per point).
pub const WORD_BLACK: usize = 0;
/// Word where the points ever white start.
pub const WORD_WHITE: usize = MAX_POINTS;
/// Word of the games that are searched (19x19).
pub const WORD_SEARCHED: usize = 2 * MAX_POINTS;
/// Word of the games Black won.
pub const WORD_BLACK_WON: usize = 2 * MAX_POINTS + 1;
/// Word of the games White won.
pub const WORD_WHITE_WON: usize = 2 * MAX_POINTS + 2;
/// Word where the points whose first stone is white start.
pub const WORD_FIRST_WHITE: usize = 2 * MAX_POINTS + 3;
/// Word where the points that are unsettled start (the unsettled rows by point).
pub const WORD_UNSETTLED: usize = 3 * MAX_POINTS + 3;
/// Words of a block after its tile.
pub const WORDS: usize = 4 * MAX_POINTS + 3;
/// Where a block's unsettled rows start (bytes from the block's start).
pub const ROWS_AT: usize = TILE_BYTES + WORDS * 8;
/// Bytes per block: the tile, the words, the unsettled rows.
pub const BLOCK_BYTES: usize = ROWS_AT + BLOCK_GAMES * UNSETTLED_ROW_BYTES;
/// `u64` words per block.
pub const BLOCK_WORDS: usize = BLOCK_BYTES / 8;

/// Writes the block of `games` (at most [`BLOCK_GAMES`]) into `out` ([`BLOCK_BYTES`]
/// bytes). Returns `false` (writing nothing) for other lengths.
pub fn encode_block(games: &[PackedSummary], out: &mut [u8]) -> bool {
    if games.len() > BLOCK_GAMES || out.len() != BLOCK_BYTES {
        return false;
    }
    let (tile, rest) = out.split_at_mut(TILE_BYTES);
    let (word_bytes, rows) = rest.split_at_mut(WORDS * 8);
    tile.fill(FIRST_NEVER);
    let quiet = UnsettledRow::default().encode();
    for row in rows.chunks_exact_mut(UNSETTLED_ROW_BYTES) {
        row.copy_from_slice(&quiet);
    }
    let mut words = [0u64; WORDS];
    for (g, s) in games.iter().enumerate() {
        let bit = 1u64 << g;
        for i in 0..MAX_POINTS {
            if let Some(b) = tile.get_mut(i * BLOCK_GAMES + g) {
                *b = s.first.get(i).copied().unwrap_or(FIRST_NEVER);
            }
            for (first, set) in [
                (WORD_BLACK, &s.ever_black),
                (WORD_WHITE, &s.ever_white),
                (WORD_FIRST_WHITE, &s.first_white),
            ] {
                if packed_contains(set, i) {
                    words[first + i] |= bit;
                }
            }
            if unsettled_bit(&s.unsettled, i) {
                words[WORD_UNSETTLED + i] |= bit;
            }
        }
        if s.searched {
            words[WORD_SEARCHED] |= bit;
        }
        match s.winner {
            Some(Color::Black) => words[WORD_BLACK_WON] |= bit,
            Some(Color::White) => words[WORD_WHITE_WON] |= bit,
            None => {}
        }
        if let Some(row) = rows.get_mut(g * UNSETTLED_ROW_BYTES..(g + 1) * UNSETTLED_ROW_BYTES) {
            row.copy_from_slice(&s.unsettled);
        }
    }
    for (chunk, w) in word_bytes.chunks_exact_mut(8).zip(words) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    true
}

/// Whether the unsettled row `row` holds point code `i` (`y * 19 + x`).
pub fn unsettled_bit(row: &[u8; UNSETTLED_ROW_BYTES], i: usize) -> bool {
    UnsettledRow::row_bits(row, i / 19) >> (i % 19) & 1 == 1
}

/// The parts of one block that the decisions from first stones read
/// (`crate::pattern::search::decide`), found once per block.
pub struct BlockParts<'a> {
    /// The first-stone tile.
    pub tile: &'a [u8],
    /// The first-stone-white words.
    pub first_white: &'a [u8],
    /// The unsettled words.
    pub unsettled: &'a [u8],
    /// The unsettled rows.
    pub rows: &'a [u8],
    /// The block's corner boxes.
    pub corners: CornerBlock<'a>,
}

impl<'a> BlockParts<'a> {
    /// The parts of `block`, a block's bytes ([`super::reader::PatternIndex::block`]), and its corner
    /// boxes.
    pub fn of(block: &'a [u8], corners: CornerBlock<'a>) -> BlockParts<'a> {
        let part = |a: usize, b: usize| block.get(a..b).unwrap_or(&[]);
        BlockParts {
            tile: part(0, TILE_BYTES),
            first_white: part(
                TILE_BYTES + WORD_FIRST_WHITE * 8,
                TILE_BYTES + (WORD_FIRST_WHITE + MAX_POINTS) * 8,
            ),
            unsettled: part(
                TILE_BYTES + WORD_UNSETTLED * 8,
                TILE_BYTES + (WORD_UNSETTLED + MAX_POINTS) * 8,
            ),
            rows: part(ROWS_AT, BLOCK_BYTES),
            corners,
        }
    }

    /// Game `g`'s unsettled row, as stored.
    #[inline]
    pub fn row(&self, g: usize) -> Option<&'a [u8; UNSETTLED_ROW_BYTES]> {
        let at = g * UNSETTLED_ROW_BYTES;
        self.rows.get(at..at + UNSETTLED_ROW_BYTES)?.try_into().ok()
    }
}
