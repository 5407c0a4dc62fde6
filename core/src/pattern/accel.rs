//! The acceleration data of pattern search (the reader), and the search of one block of
//! 64 games with it.
//!
//! Sections, all computed per game by [`super::summary::summarize`]:
//!
//! - **blocks** of 64 games, [`BLOCK_BYTES`] each (little-endian `u64` words):
//!   - the **first-stone tile**: for every point `i = y * 19 + x`, 64 bytes, byte `g` the
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
//! - **removals**: every stone a move removed, packed [`REMOVAL_BITS`]-bit records (bits
//!   0-8 the point code, 9-24 the 1-based move number), each game's in move order, games in
//!   id order, so that a game is replayed without capture logic (a bit set per move);
//!   **removal_starts** (one more than the games) says where each game's records start.
//!
//! Size on the real corpus: see `docs/FORMAT.md`.

use core::ops::Range;

use serde::{Deserialize, Serialize};

use crate::format::{FormatError, Packed, Section};
use crate::index::{Index, IndexGame};
use crate::point::{Color, Point, Stone, MAX_POINTS};
use crate::pointset::PointSet;
use crate::stored::StoredGame;

use super::cells::Rect;
use super::corner::{CornerBlock, CORNER_BLOCK_BYTES};
use super::decide::{decide, Decision, FirstStoneSource, LaneDecisions, Next};
use super::first::{FirstStones, UnsettledRow, FIRST_NEVER, UNSETTLED_ROW_BYTES};
use super::local::LocalScanner;
use super::pairscan::{bits128, scan_pairs};
use super::plan::{Pair, ScanPlan, Strategy, MAX_PAIRS};
use super::query::PatternQuery;
use super::scan::{scan_game, Candidates, Continuation, GameSource, Hit, MoveRecord};
use super::summary::{
    pack_set, packed_contains, unpack_set, GameSummary, PackedSummary, RemovalRecord,
};

/// Games per block.
pub const BLOCK_GAMES: usize = 64;
/// Bytes of a block's first-stone tile (64 per point).
pub const TILE_BYTES: usize = MAX_POINTS * BLOCK_GAMES;
const WORD_BLACK: usize = 0;
const WORD_WHITE: usize = MAX_POINTS;
const WORD_SEARCHED: usize = 2 * MAX_POINTS;
const WORD_BLACK_WON: usize = 2 * MAX_POINTS + 1;
const WORD_WHITE_WON: usize = 2 * MAX_POINTS + 2;
const WORD_FIRST_WHITE: usize = 2 * MAX_POINTS + 3;
const WORD_UNSETTLED: usize = 3 * MAX_POINTS + 3;
/// Words of a block after its tile.
const WORDS: usize = 4 * MAX_POINTS + 3;
/// Where a block's unsettled rows start (bytes from the block's start).
pub const ROWS_AT: usize = TILE_BYTES + WORDS * 8;
/// Bytes per block: the tile, the words, the unsettled rows.
pub const BLOCK_BYTES: usize = ROWS_AT + BLOCK_GAMES * UNSETTLED_ROW_BYTES;
/// `u64` words per block.
pub const BLOCK_WORDS: usize = BLOCK_BYTES / 8;
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

/// Width of a removal record.
pub const REMOVAL_BITS: u32 = RemovalRecord::BITS;
/// Version of this layout.
pub const PATTERN_DATA_VERSION: u32 = 3;

/// Where the acceleration data lies (postcard-encoded beside the index header).
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PatternHeader {
    /// [`PATTERN_DATA_VERSION`].
    pub version: u32,
    /// Number of games (the index's).
    pub games: u32,
    /// The blocks: `u64` words, [`BLOCK_WORDS`] per block.
    pub blocks: Section,
    /// The removals.
    pub removals: Section,
    /// Where each game's removals start (one more than the games).
    pub removal_starts: Section,
    /// The corner boxes: `u64` words, [`CORNER_BLOCK_WORDS`] per block.
    pub corner_boxes: Section,
}

/// Words of one block's corner boxes.
pub const CORNER_BLOCK_WORDS: usize = CORNER_BLOCK_BYTES / 8;

impl PatternHeader {
    /// The sections with their names (for `kifudex info`).
    pub fn sections(&self) -> [(&'static str, &Section); 4] {
        [
            ("pattern blocks", &self.blocks),
            ("removals", &self.removals),
            ("removal starts", &self.removal_starts),
            ("corner boxes", &self.corner_boxes),
        ]
    }

    /// Bytes of all sections.
    pub fn bytes(&self) -> u64 {
        self.sections().iter().map(|(_, s)| s.len).sum()
    }
}

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
        let n_blocks = (games as usize).div_ceil(BLOCK_GAMES);
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
                let exists = b * BLOCK_GAMES + g < self.games as usize;
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
        (self.games as usize).div_ceil(BLOCK_GAMES)
    }

    #[inline]
    fn word(&self, block: usize, i: usize) -> u64 {
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
        let (b, g) = (id as usize / BLOCK_GAMES, id as usize % BLOCK_GAMES);
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

    fn removal_range(&self, id: u32) -> Range<usize> {
        // Clamped to the section: damaged starts give wrong removals, never a long loop.
        let n = self.removals.len() as u64;
        let s = self.starts.at(id as usize).min(n) as usize;
        let e = self.starts.at(id as usize + 1).min(n) as usize;
        s..e.max(s)
    }

    /// Game `id` as the pattern scan reads it: its stored game and its removals.
    pub fn game(&self, index: &Index<'a>, id: u32) -> Option<IndexedGame<'a>> {
        Some(IndexedGame {
            game: index.stored_game(id)?,
            removals: self.removals,
            removal_range: self.removal_range(id),
        })
    }

    /// The first position where a removal or a setup after the start (`late_setup`: the
    /// game has one) changes a point of `region` in game `id` (`u32::MAX`: none).
    fn region_unsettling(
        &self,
        index: &Index<'a>,
        id: u32,
        region: &Rect,
        late_setup: bool,
    ) -> u32 {
        let mut first = u32::MAX;
        self.removals.for_each_in(self.removal_range(id), |_, v| {
            let r = RemovalRecord::decode(v);
            match r.point() {
                Some(p) if region.contains(p) => {
                    first = r.move_number;
                    false
                }
                _ => true,
            }
        });
        if let Some(game) = late_setup.then(|| index.stored_game(id)).flatten() {
            for j in 0..game.setup_count() {
                match game.setup_at(j) {
                    Some(s) if s.before as u32 >= first => break,
                    Some(s) if s.before > 0 && region.contains(s.point) => {
                        first = s.before as u32;
                        break;
                    }
                    _ => {}
                }
            }
        }
        first
    }

    /// Searches the games of `block` that `mask` selects (bit `g`: game `64 * block + g`;
    /// games not searched are left out anyway), passing each hit to `on_hit` with its
    /// game's id and winner, game by game in id order.
    ///
    /// Never inlined (one call per 64 games): instruction counts of searches
    /// (`scripts/callgrind-pattern.sh`) collect from its entry.
    #[inline(never)]
    pub fn scan_block(
        &self,
        index: &Index<'a>,
        plan: &ScanPlan<'_>,
        block: usize,
        mask: u64,
        on_hit: &mut impl FnMut(u32, Option<Color>, &Hit),
    ) {
        let q = plan.query();
        let black_won = self.word(block, WORD_BLACK_WON);
        let white_won = self.word(block, WORD_WHITE_WON);
        // The local scan's state, made once for the block's games.
        let mut local: Option<LocalScanner> = None;
        self.block_work(index, plan, block, mask, &mut |id, work| {
            let g = id as usize % BLOCK_GAMES;
            // (A table, not branches: who won is a coin toss to the branch predictor.)
            const WINNERS: [Option<Color>; 4] = [
                None,
                Some(Color::Black),
                Some(Color::White),
                Some(Color::Black),
            ];
            let won = (black_won >> g & 1) | (white_won >> g & 1) << 1;
            let winner = WINNERS[won as usize & 3];
            if let GameWork::Decided(hits, 0) = work {
                // Decided by its first stones: the game's moves are read only for a
                // continuation past what they tell.
                for dh in hits {
                    let h = decided_hit(q, dh, |region, after| {
                        first_move_in(&self.game(index, id)?, region, after)
                    });
                    on_hit(id, winner, &h);
                }
                return;
            }
            let Some(game) = self.game(index, id) else {
                return;
            };
            match work {
                GameWork::Scan(cand) => scan_game(q, &game, cand, &mut |h| on_hit(id, winner, h)),
                GameWork::Local => {
                    if let Some(t) = plan.local_table() {
                        local
                            .get_or_insert_with(LocalScanner::new)
                            .scan(q, t, &game, &mut |h| on_hit(id, winner, h))
                    }
                }
                GameWork::Pairs(pairs) => {
                    scan_pairs(plan, &game, pairs, &mut |h| on_hit(id, winner, h))
                }
                GameWork::Decided(hits, open) => {
                    for dh in hits {
                        let h =
                            decided_hit(q, dh, |region, after| first_move_in(&game, region, after));
                        on_hit(id, winner, &h);
                    }
                    scan_pairs(plan, &game, open, &mut |h| on_hit(id, winner, h));
                }
            }
        });
    }

    /// How far the first stones decide a pair plan's search of `block` (games `mask`
    /// selects): the games whose hits they decide whole, and the games still to be
    /// scanned (for some placements or all). Other plans: every game that may hold a hit
    /// is scanned. For tests and measurements: the search itself does the same work.
    pub fn decided_games(
        &self,
        index: &Index<'a>,
        plan: &ScanPlan<'_>,
        block: usize,
        mask: u64,
    ) -> DecidedGames {
        let (mut candidates, mut scanned) = (0, 0);
        // The games the block words leave, then those the first stones leave to a scan
        // (a game they decide has work only when it has hits).
        self.block_work_with(None, plan, block, mask, &mut |_, _| candidates += 1);
        self.block_work(index, plan, block, mask, &mut |_, work| {
            if !matches!(work, GameWork::Decided(_, 0)) {
                scanned += 1;
            }
        });
        DecidedGames {
            decided: candidates - scanned.min(candidates),
            scanned,
        }
    }

    /// The games of `block` that `mask` selects and that may hold a hit, with their
    /// candidate placements, in id order (without the first stones: every game returned
    /// is to be scanned).
    pub fn candidates(
        &self,
        plan: &ScanPlan<'_>,
        block: usize,
        mask: u64,
        f: &mut impl FnMut(u32, &Candidates),
    ) {
        self.block_work_with(None, plan, block, mask, &mut |id, work| match work {
            GameWork::Scan(cand) => f(id, cand),
            GameWork::Local => f(id, &Candidates::all(plan.query())),
            GameWork::Pairs(pairs) => {
                let mut cand = Candidates::NONE;
                for pair in pairs_of(plan, pairs) {
                    if let Some(s) = cand.placements.get_mut(pair.variant as usize) {
                        s.insert(pair.placement);
                    }
                }
                cand.finish(plan.query());
                f(id, &cand);
            }
            GameWork::Decided(..) => {}
        });
    }

    fn block_work(
        &self,
        index: &Index<'a>,
        plan: &ScanPlan<'_>,
        block: usize,
        mask: u64,
        f: &mut impl FnMut(u32, GameWork<'_>),
    ) {
        let index = plan.use_first_stones.then_some(index);
        self.block_work_with(index, plan, block, mask, f)
    }

    /// The work on each game of `block` that may hold a hit: its hits decided from its
    /// first stones (with `index`, whose records tell where a region changes again), or
    /// its candidate placements to scan.
    fn block_work_with(
        &self,
        index: Option<&Index<'a>>,
        plan: &ScanPlan<'_>,
        block: usize,
        mask: u64,
        f: &mut impl FnMut(u32, GameWork<'_>),
    ) {
        let base = mask & self.searched(block);
        if base == 0 {
            return;
        }
        let q = plan.query();
        let first_id = (block * BLOCK_GAMES) as u32;
        match plan.strategy {
            Strategy::All => {
                for g in bits(base) {
                    f(first_id + g, GameWork::Scan(&plan.all));
                }
            }
            Strategy::Local => {
                for g in bits(base) {
                    f(first_id + g, GameWork::Local);
                }
            }
            Strategy::Pairs => {
                // Bit `i` of `game_pairs[g]`: pair `i` is left for game `g`.
                let mut game_pairs = [0u128; BLOCK_GAMES];
                let mut any = 0u64;
                let corners = self.corner_block(block);
                let parts = BlockParts::of(self.block(block), corners);
                // The games each pair's block words keep.
                let mut kept = [0u64; MAX_PAIRS];
                // The games of each pair the first stones are to rule out: all it keeps,
                // but for a pair with a corner key only the games its box leaves open.
                let mut unsure = [0u64; MAX_PAIRS];
                for ((k, u), pair) in kept.iter_mut().zip(unsure.iter_mut()).zip(&plan.pairs) {
                    // A pair with a corner key keeps the games whose box holds its
                    // stones (reading a few lines of the block's corner boxes, where its
                    // stones' words are a line each), and the games whose box is not
                    // decided that far, for the words and the first stones to narrow.
                    let (mut w, sure) = match pair.corner {
                        Some(key) => {
                            let open = key.open(&corners) & base;
                            (open, key.same(&corners) & base & !open)
                        }
                        None => (base, 0),
                    };
                    if w != 0 {
                        for &at in &pair.words {
                            w &= self.word(block, at as usize);
                            if w == 0 {
                                break;
                            }
                        }
                    }
                    *k = sure | w;
                    *u = w;
                }
                // The pairs with games left decided for the block's 64 games at once
                // (where their regions never change again): the games without a hit are
                // dropped here, the hits read off by `decide_game`.
                let mut lanes = BlockLanes::new();
                if index.is_some() {
                    // The first stones rule most of the games left out, 64 at once, once
                    // for a pair and its twins.
                    for (i, pair) in plan.pairs.iter().enumerate() {
                        if pair.led {
                            continue;
                        }
                        let mut union = 0u64;
                        let mut j = i;
                        while let Some(p) = plan.pairs.get(j) {
                            union |= unsure.get(j).copied().unwrap_or(0);
                            j = p.twin as usize;
                        }
                        if union == 0 {
                            continue;
                        }
                        let Some(cells) = plan.variant_cells(pair.variant as usize) else {
                            continue;
                        };
                        let alive =
                            cells.rule_out(pair.placement, parts.tile, parts.unsettled, union);
                        let mut j = i;
                        while let Some(p) = plan.pairs.get(j) {
                            if let (Some(k), Some(u)) = (kept.get_mut(j), unsure.get(j)) {
                                *k &= alive | !u;
                                // (At least two games: one test here, in line.)
                                if *k & k.wrapping_sub(1) != 0 {
                                    lanes.decide(plan, &parts, j, k);
                                }
                            }
                            j = p.twin as usize;
                        }
                    }
                }
                for (i, &w) in kept.iter().enumerate().take(plan.pairs.len()) {
                    for g in bits(w) {
                        if let Some(p) = game_pairs.get_mut(g as usize) {
                            *p |= 1 << i;
                        }
                    }
                    any |= w;
                }
                let mut decided: heapless::Vec<DecidedHit, MAX_DECIDED> = heapless::Vec::new();
                // (A plan without corner keys gets the decisions' code without the box's
                // test: 5% fewer instructions for the 4x4.)
                let decide_game = if plan.pairs.iter().any(|p| p.corner.is_some()) {
                    Self::decide_game::<true>
                } else {
                    Self::decide_game::<false>
                };
                for g in bits(any) {
                    let id = first_id + g;
                    let pairs = game_pairs.get(g as usize).copied().unwrap_or(0);
                    let open = match index {
                        Some(index) => decide_game(
                            self,
                            index,
                            plan,
                            &parts,
                            &lanes,
                            id,
                            g as usize,
                            pairs,
                            &mut decided,
                        ),
                        None => pairs,
                    };
                    if open == pairs {
                        f(id, GameWork::Pairs(pairs));
                    } else if !decided.is_empty() || open != 0 {
                        f(id, GameWork::Decided(&decided, open));
                    }
                }
            }
            Strategy::PerGame => {
                let mut ever = [[PointSet::EMPTY; 2]; BLOCK_GAMES];
                for (c, first) in [(0, WORD_BLACK), (1, WORD_WHITE)] {
                    for i in 0..MAX_POINTS {
                        let w = self.word(block, first + i) & base;
                        if w == 0 {
                            continue;
                        }
                        let p = Point::new((i % 19) as u8, (i / 19) as u8);
                        for g in bits(w) {
                            if let Some(e) = ever.get_mut(g as usize) {
                                e[c].insert(p);
                            }
                        }
                    }
                }
                for g in bits(base) {
                    let e = &ever[g as usize];
                    let cand = Candidates::from_ever(q, &e[0], &e[1]);
                    if !cand.is_empty() {
                        f(first_id + g, GameWork::Scan(&cand));
                    }
                }
            }
        }
    }

    /// Decides the pairs `pairs` of game `g` of a block (`block`) from its first stones:
    /// their hits into `hits` (among pairs newly matching the same region at the same
    /// position, the first variant's), and returns the pairs left to scan (with the others
    /// of their regions).
    #[allow(clippy::too_many_arguments)]
    fn decide_game<const BOXED: bool>(
        &self,
        index: &Index<'a>,
        plan: &ScanPlan<'_>,
        block: &BlockParts<'a>,
        lanes: &BlockLanes,
        id: u32,
        g: usize,
        pairs: u128,
        hits: &mut heapless::Vec<DecidedHit, MAX_DECIDED>,
    ) -> u128 {
        hits.clear();
        let Some(row) = block.row(g) else {
            return pairs;
        };
        let lane = Lane {
            tile: block.tile,
            first_white: block.first_white,
            g,
            row,
        };
        let mut open = 0u128;
        for i in bits128(pairs) {
            let Some(pair) = plan.pairs.get(i) else {
                return pairs;
            };
            let region = &pair.region;
            let boxed = match pair.corner {
                Some(key) if BOXED => key.decide(&block.corners, g),
                _ => None,
            };
            let d = match boxed {
                Some(d) => d,
                // (A variant whose box decides its games has no cells: the games its box
                // does not decide are scanned.)
                None => match plan.variant_cells(pair.variant as usize) {
                    Some(cells) => match lanes.get(i).and_then(|d| {
                        d.decision(cells, pair.placement, region, g, &lane, || {
                            self.region_unsettling(
                                index,
                                id,
                                region,
                                UnsettledRow::late_setup_of(row),
                            )
                        })
                    }) {
                        Some(d) => d,
                        // (The same reader twice: one closure for both calls cost the 4x4
                        // 5% more instructions, the compiler's code for this loop moving.)
                        None => decide(cells, pair.placement, region, &lane, || {
                            self.region_unsettling(
                                index,
                                id,
                                region,
                                UnsettledRow::late_setup_of(row),
                            )
                        }),
                    },
                    None => Decision::Open,
                },
            };
            match d {
                Decision::None => {}
                Decision::Open => open |= 1 << i,
                Decision::Hit(n, next) => {
                    let h = DecidedHit {
                        pair: i as u8,
                        variant: pair.variant,
                        placement: pair.placement,
                        group: pair.group,
                        move_number: n,
                        next,
                    };
                    if hits.push(h).is_err() {
                        return pairs;
                    }
                }
            }
        }
        if open != 0 {
            // The other pairs of an open pair's region are scanned with it (the scan
            // decides which variant's hit a region's is).
            for i in bits128(pairs & !open) {
                let key = |j: usize| plan.pairs.get(j).map(|p| (p.placement, p.group));
                if bits128(open).any(|j| key(j) == key(i)) {
                    open |= 1 << i;
                }
            }
            hits.retain(|h| open >> h.pair & 1 == 0);
        }
        if hits.len() > 1 {
            // A region's hit at a position is its first variant's.
            // (One integer a key: the tuple's comparisons took 3.5% of the 4x4's time.)
            let key = |h: &DecidedHit| {
                (h.move_number as u64) << 32
                    | (h.placement.y as u64) << 24
                    | (h.placement.x as u64) << 16
                    | (h.group as u64) << 8
                    | h.variant as u64
            };
            if !hits.is_sorted_by_key(key) {
                hits.sort_unstable_by_key(key);
            }
            let mut kept = 0;
            for k in 0..hits.len() {
                let h = hits[k];
                let same = kept > 0 && {
                    let p = hits[kept - 1];
                    (p.move_number, p.placement, p.group) == (h.move_number, h.placement, h.group)
                };
                if !same {
                    hits[kept] = h;
                    kept += 1;
                }
            }
            hits.truncate(kept);
        }
        open
    }
}

/// Whether the unsettled row `row` holds point code `i` (`y * 19 + x`).
fn unsettled_bit(row: &[u8; UNSETTLED_ROW_BYTES], i: usize) -> bool {
    UnsettledRow::row_bits(row, i / 19) >> (i % 19) & 1 == 1
}

/// The parts of one block that [`decide`] reads, found once per block.
struct BlockParts<'a> {
    /// The first-stone tile.
    tile: &'a [u8],
    /// The first-stone-white words.
    first_white: &'a [u8],
    /// The unsettled words.
    unsettled: &'a [u8],
    /// The unsettled rows.
    rows: &'a [u8],
    /// The block's corner boxes.
    corners: CornerBlock<'a>,
}

impl<'a> BlockParts<'a> {
    /// The parts of `block`, a block's bytes ([`PatternIndex::block`]), and its corner
    /// boxes.
    fn of(block: &'a [u8], corners: CornerBlock<'a>) -> BlockParts<'a> {
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

    #[inline]
    fn row(&self, g: usize) -> Option<&'a [u8; UNSETTLED_ROW_BYTES]> {
        let at = g * UNSETTLED_ROW_BYTES;
        self.rows.get(at..at + UNSETTLED_ROW_BYTES)?.try_into().ok()
    }
}

/// The fewest games a pair must have left in a block to be decided for all 64 at once
/// ([`LaneDecisions`]; below, game by game).
const LANE_GAMES: u32 = 4;

/// The most pairs of a block decided 64 games at once.
const LANE_PAIRS: usize = 16;

/// The pairs of one block decided for its 64 games at once.
struct BlockLanes {
    /// The decisions, with their pairs' indexes.
    decisions: heapless::Vec<(u8, LaneDecisions), LANE_PAIRS>,
    /// Per pair: its index in `decisions`, or `u8::MAX`.
    of_pair: [u8; MAX_PAIRS],
}

impl BlockLanes {
    fn new() -> BlockLanes {
        BlockLanes {
            decisions: heapless::Vec::new(),
            of_pair: [u8::MAX; MAX_PAIRS],
        }
    }

    /// Keeps `d` as pair `i`'s decisions (while there is room).
    fn insert(&mut self, i: usize, d: LaneDecisions) {
        let at = self.decisions.len();
        if let (Some(slot), Ok(())) = (self.of_pair.get_mut(i), self.decisions.push((i as u8, d))) {
            *slot = at as u8;
        }
    }

    /// Decides pair `j` of `plan` for the 64 games of the block of `parts` when `kept`
    /// (its games left) holds enough of them, and drops from `kept` the games without a
    /// hit. A pair at the same placement whose variant differs only in colours shares all
    /// but the colours' part.
    fn decide(&mut self, plan: &ScanPlan<'_>, parts: &BlockParts<'_>, j: usize, kept: &mut u64) {
        let k = *kept;
        if k.count_ones() < LANE_GAMES || self.decisions.is_full() {
            return;
        }
        let Some(pair) = plan.pairs.get(j) else {
            return;
        };
        let Some(cells) = plan.variant_cells(pair.variant as usize) else {
            return;
        };
        let shared = self.pairs().find_map(|(i, d)| {
            let p = plan.pairs.get(i)?;
            if p.placement != pair.placement {
                return None;
            }
            let other = plan.variant_cells(p.variant as usize)?;
            cells.lanes_as(other, d, pair.placement, parts.tile, parts.first_white)
        });
        let Some(d) = shared.or_else(|| {
            cells.lanes(
                pair.placement,
                parts.tile,
                parts.first_white,
                parts.unsettled,
            )
        }) else {
            return;
        };
        *kept &= !d.ruled_out(k);
        self.insert(j, d);
    }

    /// The pairs decided so far, with their decisions.
    fn pairs(&self) -> impl Iterator<Item = (usize, &LaneDecisions)> {
        self.decisions.iter().map(|(i, d)| (*i as usize, d))
    }

    #[inline]
    fn get(&self, i: usize) -> Option<&LaneDecisions> {
        let at = *self.of_pair.get(i)?;
        self.decisions.get(at as usize).map(|(_, d)| d)
    }
}

/// One game of a block as [`decide`] reads it.
struct Lane<'a> {
    /// The block's first-stone tile.
    tile: &'a [u8],
    /// The block's first-stone-white words.
    first_white: &'a [u8],
    g: usize,
    row: &'a [u8; UNSETTLED_ROW_BYTES],
}

impl FirstStoneSource for Lane<'_> {
    #[inline(always)]
    fn first(&self, c: u16) -> u8 {
        self.tile
            .get(c as usize * BLOCK_GAMES + self.g)
            .copied()
            .unwrap_or(FIRST_NEVER)
    }

    #[inline(always)]
    fn first_white(&self, c: u16) -> bool {
        // Byte g / 8 of the point's little-endian word holds game g's bit.
        self.first_white
            .get(c as usize * 8 + self.g / 8)
            .is_some_and(|b| b >> (self.g % 8) & 1 == 1)
    }

    #[inline(always)]
    fn unsettled_row(&self, y: u8) -> u32 {
        UnsettledRow::row_bits(self.row, y as usize)
    }

    #[inline(always)]
    fn row_unsettling(&self, y: u8) -> u8 {
        UnsettledRow::row_unsettling_of(self.row, y as usize)
    }

    #[inline(always)]
    fn first_unsettling(&self) -> u8 {
        UnsettledRow::first_unsettling_of(self.row)
    }
}

/// What [`PatternIndex::decided_games`] counts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct DecidedGames {
    /// Games whose hits (if any) the first stones decide, without a scan.
    pub decided: u32,
    /// Games to be scanned.
    pub scanned: u32,
}

/// The most hits of one game decided from first stones (more: the game is scanned).
const MAX_DECIDED: usize = 128;

/// A hit decided from first stones, with its pair.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct DecidedHit {
    pair: u8,
    variant: u8,
    placement: Point,
    /// The variant's group (regions of different groups never coincide).
    group: u8,
    move_number: u32,
    next: Next,
}

/// What to do with one game of a block.
enum GameWork<'c> {
    /// Scan it for these candidates.
    Scan(&'c Candidates),
    /// Scan it with local codes (every allowed placement).
    Local,
    /// Scan it for these pairs of the plan (bit `i`: pair `i`).
    Pairs(u128),
    /// Its hits decided from its first stones, and the pairs left to scan.
    Decided(&'c [DecidedHit], u128),
}

/// A hit decided from first stones, made whole (a continuation past what they tell is
/// found in the game's moves).
fn decided_hit(
    q: &PatternQuery,
    dh: &DecidedHit,
    first_move_in: impl FnOnce(&Rect, u32) -> Option<(u32, Point, bool)>,
) -> Hit {
    let n = dh.move_number;
    let variant = q.variants().get(dh.variant as usize);
    let (region, swapped) = match variant {
        Some(v) => (v.region(dh.placement), v.swapped),
        None => (Rect::at(dh.placement, 1, 1), false),
    };
    let found = match dh.next {
        Next::Move(m, at, white) => Some((m, at, white)),
        Next::Nothing => None,
        Next::After(after) => first_move_in(&region, after),
    };
    let continuation = match (found, variant) {
        (Some((m, pt, white)), Some(v)) => {
            let color = if white { Color::White } else { Color::Black };
            Some(Continuation {
                move_number: m,
                color: if swapped { color.opponent() } else { color },
                cell: q.pattern_cell(v, dh.placement, pt),
                immediate: m == n + 1,
            })
        }
        _ => None,
    };
    Hit {
        move_number: n,
        variant: dh.variant,
        region,
        continuation,
    }
}

/// The first move of `game` inside `region` after move number `after`: its number, point
/// and whether it is White's.
fn first_move_in<G: GameSource>(game: &G, region: &Rect, after: u32) -> Option<(u32, Point, bool)> {
    let mut found = None;
    game.for_each_move(after as usize, |j, code| {
        let rec = MoveRecord(code);
        match Point::from_index19(rec.code()) {
            Some(p) if region.contains(p) => {
                found = Some((j as u32 + 1, p, rec.white()));
                false
            }
            _ => true,
        }
    });
    found
}

/// The pairs of `plan` whose bits are set in `set` (bit `i`: pair `i`), in order.
fn pairs_of<'p>(plan: &'p ScanPlan<'_>, set: u128) -> impl Iterator<Item = &'p Pair> + 'p {
    bits128(set).filter_map(|i| plan.pairs.get(i))
}

/// The set bits of a word, lowest first.
fn bits(mut w: u64) -> impl Iterator<Item = u32> {
    core::iter::from_fn(move || {
        if w == 0 {
            return None;
        }
        let g = w.trailing_zeros();
        w &= w - 1;
        Some(g)
    })
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
