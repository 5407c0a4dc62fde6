//! The reader of pattern search's stored data ([`PatternIndex`]): the sections opened and
//! checked, and what is stored of each game read back (its summary, its removals). The
//! search of a block with it is `super::super::search`'s.
//!
//! Removals: every stone a move removed, packed [`super::header::REMOVAL_BITS`]-bit records
//! (bits 0-8 the point code, 9-24 the 1-based move number), each game's in move order,
//! games in id order, so that a game is replayed without capture logic (a bit set per
//! move); the removal starts (one more than the games) say where each game's records start.

use core::ops::Range;

use crate::format::{FormatError, Packed};
use crate::index::Index;
use crate::point::{Color, Point, MAX_POINTS};
use crate::pointset::PointSet;
use crate::stored::StoredGame;

use super::block::*;
use super::block_games::{block_count, block_of, game_id, BLOCK_GAMES};
use super::corner::{CornerBlock, CORNER_BLOCK_BYTES};
use super::first::{FirstStones, UnsettledRow, FIRST_NEVER, UNSETTLED_ROW_BYTES};
use super::header::{PatternHeader, CORNER_BLOCK_WORDS, PATTERN_DATA_VERSION, REMOVAL_BITS};
use super::summary::{pack_set, unpack_set, GameSummary, PackedSummary, RemovalRecord};

/// The acceleration data of an index, validated.
#[derive(Copy, Clone, Debug)]
pub struct PatternIndex<'a> {
    games: u32,
    blocks: &'a [u8],
    removals: Packed<'a>,
    starts: Packed<'a>,
    corners: &'a [u8],
}

impl<'a> PatternIndex<'a> {
    /// Reads and validates the data described by `header` in `body`, for `index`: sizes
    /// and counts agree, every record is well formed.
    pub fn open(
        header: &PatternHeader,
        body: &'a [u8],
        index: &Index<'_>,
    ) -> Result<PatternIndex<'a>, FormatError> {
        PatternIndex::open_for(header, body, index.game_count(), |g| {
            index.stored_game(g).map(|sg| sg.move_count())
        })
    }

    /// [`PatternIndex::open`] for `games` games whose move counts `move_count` gives.
    pub fn open_for(
        header: &PatternHeader,
        body: &'a [u8],
        games: u32,
        move_count: impl Fn(u32) -> Option<u32>,
    ) -> Result<PatternIndex<'a>, FormatError> {
        let pi = PatternIndex::open_structure(header, body, games)?;
        pi.validate(move_count)?;
        Ok(pi)
    }

    /// Reads the data described by `header` in `body` for `games` games, checking in
    /// constant time what a read relies on: the version, every section's bounds, width and
    /// record count, and the ends of the removals' offset column. Every read is clamped
    /// to its section, so a damaged record gives wrong answers, never a panic;
    /// [`PatternIndex::validate`] checks the records.
    pub fn open_structure(
        header: &PatternHeader,
        body: &'a [u8],
        games: u32,
    ) -> Result<PatternIndex<'a>, FormatError> {
        if header.version != PATTERN_DATA_VERSION {
            return Err(FormatError::UnsupportedVersion);
        }
        let n_blocks = block_count(games);
        if games != header.games
            || header.blocks.width_bits != 64
            || header.blocks.count != (n_blocks * BLOCK_WORDS) as u64
            || header.removals.width_bits != REMOVAL_BITS
            || header.removal_starts.count != games as u64 + 1
            || header.removal_starts.width_bits == 0
            || header.corner_boxes.width_bits != 64
            || header.corner_boxes.count != (n_blocks * CORNER_BLOCK_WORDS) as u64
        {
            return Err(FormatError::BadHeader);
        }
        let blocks = header
            .blocks
            .slice(body)?
            .get(..n_blocks * BLOCK_BYTES)
            .ok_or(FormatError::BadSection)?;
        let corners = header
            .corner_boxes
            .slice(body)?
            .get(..n_blocks * CORNER_BLOCK_BYTES)
            .ok_or(FormatError::BadSection)?;
        let pi = PatternIndex {
            games,
            blocks,
            removals: header.removals.packed(body)?,
            starts: header.removal_starts.packed(body)?,
            corners,
        };
        if pi.starts.at(0) != 0 || pi.starts.at(games as usize) != pi.removals.len() as u64 {
            return Err(FormatError::BadRecord);
        }
        Ok(pi)
    }

    /// Checks every record: games past the last hold nothing (first-stone bytes
    /// [`FIRST_NEVER`], no bits, the row of a game without stones), a game not searched
    /// notes nothing, every point with a first stone was ever black or white (its colour
    /// the first one's), every unsettled row is well formed and its bits are the unsettled
    /// words', the removal starts never decrease, every removal names a point and a move
    /// of its game (`move_count`), in move order.
    pub fn validate(&self, move_count: impl Fn(u32) -> Option<u32>) -> Result<(), FormatError> {
        let bad = Err(FormatError::BadRecord);
        for b in 0..self.block_count() {
            for g in 0..BLOCK_GAMES {
                let exists = game_id(b, g) < self.games;
                let live = exists && self.word(b, WORD_SEARCHED) >> g & 1 == 1;
                let both_won =
                    (self.word(b, WORD_BLACK_WON) & self.word(b, WORD_WHITE_WON)) >> g & 1;
                if (!exists && self.game_bits(b, g) != 0)
                    || both_won != 0
                    || !self.game_records_valid(b, g, live)
                {
                    return bad;
                }
            }
            if !self.corner_block(b).valid(self.searched(b)) {
                return bad;
            }
        }
        if self.starts.at(0) != 0
            || self.starts.at(self.games as usize) != self.removals.len() as u64
        {
            return bad;
        }
        for g in 0..self.games {
            let (s, e) = (self.starts.at(g as usize), self.starts.at(g as usize + 1));
            if e < s || e > self.removals.len() as u64 {
                return bad;
            }
            let moves = move_count(g).unwrap_or(0) as u64;
            let mut prev = 1;
            for i in s as usize..e as usize {
                let v = self.removals.at(i);
                let r = RemovalRecord::decode(v);
                let (p, n) = (r.code as usize, r.move_number as u64);
                if p >= MAX_POINTS || n < prev || n > moves {
                    return bad;
                }
                prev = n;
            }
        }
        Ok(())
    }

    /// The words' bits of game `g` of block `b` (ORed; 0 when it has none).
    fn game_bits(&self, b: usize, g: usize) -> u64 {
        (0..WORDS).fold(0, |acc, i| acc | (self.word(b, i) >> g & 1))
    }

    /// Whether game `g` of block `b` has consistent records: when `live` (a searched game)
    /// first stones only where a stone ever stood (white ones only where a white stone
    /// stood) and a well-formed unsettled row; otherwise no first stone, no bit but the
    /// game's result, the row of a game without stones.
    fn game_records_valid(&self, b: usize, g: usize, live: bool) -> bool {
        let Some(row) = self.row(b, g) else {
            return false;
        };
        if !live {
            let quiet = (0..MAX_POINTS).all(|i| {
                self.first_at(b, i, g) == FIRST_NEVER
                    && [WORD_BLACK, WORD_WHITE, WORD_FIRST_WHITE, WORD_UNSETTLED]
                        .iter()
                        .all(|&w| self.word(b, w + i) >> g & 1 == 0)
            });
            return quiet && *row == UnsettledRow::default().encode();
        }
        if UnsettledRow::decode(row).is_none() {
            return false;
        }
        (0..MAX_POINTS).all(|i| {
            let bit = |w: usize| self.word(b, w + i) >> g & 1 == 1;
            let has = self.first_at(b, i, g) != FIRST_NEVER;
            let white = bit(WORD_FIRST_WHITE);
            let ever = if white {
                bit(WORD_WHITE)
            } else {
                bit(WORD_BLACK)
            };
            (!white || has) && (!has || ever) && bit(WORD_UNSETTLED) == unsettled_bit(row, i)
        })
    }

    /// Number of games.
    pub fn game_count(&self) -> u32 {
        self.games
    }

    /// Number of blocks.
    pub fn block_count(&self) -> usize {
        block_count(self.games)
    }

    /// Word `i` (after the tile) of block `block` (0 past the section).
    #[inline]
    pub fn word(&self, block: usize, i: usize) -> u64 {
        let at = block * BLOCK_BYTES + TILE_BYTES + i * 8;
        match self.blocks.get(at..at + 8) {
            Some(b) => {
                let mut a = [0u8; 8];
                a.copy_from_slice(b);
                u64::from_le_bytes(a)
            }
            None => 0,
        }
    }

    /// The first-stone byte of point `i` in game `g` of `block`.
    #[inline]
    fn first_at(&self, block: usize, i: usize, g: usize) -> u8 {
        self.blocks
            .get(block * BLOCK_BYTES + i * BLOCK_GAMES + g)
            .copied()
            .unwrap_or(FIRST_NEVER)
    }

    /// Game `g`'s unsettled row in `block`, as stored.
    #[inline]
    fn row(&self, block: usize, g: usize) -> Option<&'a [u8; UNSETTLED_ROW_BYTES]> {
        let at = block * BLOCK_BYTES + ROWS_AT + g * UNSETTLED_ROW_BYTES;
        self.blocks
            .get(at..at + UNSETTLED_ROW_BYTES)?
            .try_into()
            .ok()
    }

    /// The bytes of block `b` (empty past the last block).
    pub fn block(&self, b: usize) -> &'a [u8] {
        let at = b.saturating_mul(BLOCK_BYTES);
        self.blocks
            .get(at..at.saturating_add(BLOCK_BYTES))
            .unwrap_or(&[])
    }

    /// The corner boxes of block `b` (empty past the last block).
    #[inline]
    pub fn corner_block(&self, b: usize) -> CornerBlock<'a> {
        let at = b.saturating_mul(CORNER_BLOCK_BYTES);
        CornerBlock(
            self.corners
                .get(at..at.saturating_add(CORNER_BLOCK_BYTES))
                .unwrap_or(&[]),
        )
    }

    /// The games of `block` that are searched (bit `g`: game `64 * block + g`).
    pub fn searched(&self, block: usize) -> u64 {
        self.word(block, WORD_SEARCHED)
    }

    /// Game `id`'s summary, read back from its block.
    pub fn summary(&self, id: u32) -> GameSummary {
        let s = self.packed_summary(id);
        let row = UnsettledRow::decode(&s.unsettled).unwrap_or_default();
        GameSummary {
            searched: s.searched,
            winner: s.winner,
            ever_black: unpack_set(&s.ever_black),
            ever_white: unpack_set(&s.ever_white),
            first: FirstStones {
                first: s.first,
                first_white: unpack_set(&s.first_white),
                unsettled: row.unsettled,
                row_unsettling: row.row_unsettling,
                late_setup: row.late_setup,
            },
            corners: s.corners,
        }
    }

    /// Game `id`'s summary as stored: its bits in the block's words, its first-stone bytes,
    /// its unsettled row (all zero, bytes [`FIRST_NEVER`], past the section).
    pub fn packed_summary(&self, id: u32) -> PackedSummary {
        let (b, g) = block_of(id);
        let bit = |i: usize| self.word(b, i) >> g & 1 == 1;
        let set = |first: usize| {
            let mut s = PointSet::EMPTY;
            for i in 0..MAX_POINTS {
                if let (true, Some(p)) = (bit(first + i), Point::from_index19(i as u16)) {
                    s.insert(p);
                }
            }
            pack_set(&s)
        };
        let mut first = [FIRST_NEVER; MAX_POINTS];
        for (i, f) in first.iter_mut().enumerate() {
            *f = self.first_at(b, i, g);
        }
        PackedSummary {
            searched: bit(WORD_SEARCHED),
            winner: if bit(WORD_BLACK_WON) {
                Some(Color::Black)
            } else if bit(WORD_WHITE_WON) {
                Some(Color::White)
            } else {
                None
            },
            ever_black: set(WORD_BLACK),
            ever_white: set(WORD_WHITE),
            first_white: set(WORD_FIRST_WHITE),
            first,
            unsettled: self.row(b, g).copied().unwrap_or([0; UNSETTLED_ROW_BYTES]),
            corners: self.corner_block(b).get(g),
        }
    }

    /// Game `id`'s removed stones: (move number, point), in order.
    pub fn removals_of(&self, id: u32) -> impl Iterator<Item = (u32, Point)> + '_ {
        self.removal_range(id).map(move |i| {
            let v = self.removals.at(i);
            let r = RemovalRecord::decode(v);
            (r.move_number, r.point().unwrap_or(Point::new(0, 0)))
        })
    }

    /// The indexes of game `id`'s records in [`PatternIndex::removal_records`] (clamped
    /// to the section).
    pub fn removal_range(&self, id: u32) -> Range<usize> {
        // Clamped to the section: damaged starts give wrong removals, never a long loop.
        let n = self.removals.len() as u64;
        let s = self.starts.at(id as usize).min(n) as usize;
        let e = self.starts.at(id as usize + 1).min(n) as usize;
        s..e.max(s)
    }

    /// The removal records of every game (see [`PatternIndex::removal_range`]).
    pub fn removal_records(&self) -> Packed<'a> {
        self.removals
    }
}
