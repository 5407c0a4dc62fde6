//! The acceleration data of pattern search (the reader), and the search of one block of
//! 64 games with it.
//!
//! Sections, all computed per game by [`super::summary::summarize`]:
//!
//! - **blocks** of 64 games, [`BLOCK_WORDS`] little-endian `u64` words each: for every
//!   point `i = y * 19 + x`, a word whose bit `g` says that game `64 * block + g` ever had a
//!   black stone there (words `0..361`), a white stone (words `361..722`); then the words of
//!   the games that are searched (19x19), that Black won, that White won. A pattern's `X`
//!   cell can only match over an ever-black point and its `O` cell over an ever-white one:
//!   Kombilo's final-position bitmaps, laid out by point so that a corner pattern reads a
//!   handful of words per 64 games;
//! - **corners**: [`GAME_CORNER_BYTES`] per game, its four [`CornerLog`]s;
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
use super::corner::{
    box_point, CornerLog, LogContinuation, LogHit, CORNER_BYTES, GAME_CORNER_BYTES,
};
use super::local::LocalScanner;
use super::pairscan::{bits128, scan_pairs};
use super::plan::{Pair, ScanPlan, Strategy};
use super::query::PatternQuery;
use super::scan::{scan_game, Candidates, Continuation, GameSource, Hit, MoveRecord, Resume};
use super::summary::{GameSummary, PackedSummary, RemovalRecord};

/// Games per block.
pub const BLOCK_GAMES: usize = 64;
/// Words per block.
pub const BLOCK_WORDS: usize = 725;
/// Bytes per block.
pub const BLOCK_BYTES: usize = BLOCK_WORDS * 8;
const WORD_BLACK: usize = 0;
const WORD_WHITE: usize = MAX_POINTS;
const WORD_SEARCHED: usize = 2 * MAX_POINTS;
const WORD_BLACK_WON: usize = 2 * MAX_POINTS + 1;
const WORD_WHITE_WON: usize = 2 * MAX_POINTS + 2;
/// Width of a removal record.
pub const REMOVAL_BITS: u32 = RemovalRecord::BITS;
/// Version of this layout.
pub const PATTERN_DATA_VERSION: u32 = 1;

/// Where the acceleration data lies (postcard-encoded beside the index header).
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PatternHeader {
    /// [`PATTERN_DATA_VERSION`].
    pub version: u32,
    /// Number of games (the index's).
    pub games: u32,
    /// The blocks: `u64` words.
    pub blocks: Section,
    /// The corner logs: [`GAME_CORNER_BYTES`]-byte rows, one per game.
    pub corners: Section,
    /// The removals.
    pub removals: Section,
    /// Where each game's removals start (one more than the games).
    pub removal_starts: Section,
}

/// Writes the block of `games` (at most [`BLOCK_GAMES`]) into `out` ([`BLOCK_BYTES`]
/// bytes). Returns `false` (writing nothing) for other lengths.
pub fn encode_block(games: &[PackedSummary], out: &mut [u8]) -> bool {
    if games.len() > BLOCK_GAMES || out.len() != BLOCK_BYTES {
        return false;
    }
    let mut words = [0u64; BLOCK_WORDS];
    for (g, s) in games.iter().enumerate() {
        let bit = 1u64 << g;
        for p in s.ever_black.iter() {
            words[WORD_BLACK + p.index19() as usize] |= bit;
        }
        for p in s.ever_white.iter() {
            words[WORD_WHITE + p.index19() as usize] |= bit;
        }
        if s.searched {
            words[WORD_SEARCHED] |= bit;
        }
        match s.winner {
            Some(Color::Black) => words[WORD_BLACK_WON] |= bit,
            Some(Color::White) => words[WORD_WHITE_WON] |= bit,
            None => {}
        }
    }
    for (chunk, w) in out.chunks_exact_mut(8).zip(words) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    true
}

/// The acceleration data of an index, validated.
#[derive(Copy, Clone, Debug)]
pub struct PatternIndex<'a> {
    games: u32,
    blocks: &'a [u8],
    corners: &'a [u8],
    removals: Packed<'a>,
    starts: Packed<'a>,
}

impl<'a> PatternIndex<'a> {
    /// Reads and validates the data described by `header` in `body`, for `index`: sizes
    /// and counts agree, every removal names a point and a move of its game in order.
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
            || header.corners.width_bits != 8 * GAME_CORNER_BYTES as u32
            || header.corners.count != games as u64
            || header.removals.width_bits != REMOVAL_BITS
            || header.removal_starts.count != games as u64 + 1
            || header.removal_starts.width_bits == 0
        {
            return Err(FormatError::BadHeader);
        }
        let blocks = header
            .blocks
            .slice(body)?
            .get(..n_blocks * BLOCK_BYTES)
            .ok_or(FormatError::BadSection)?;
        let corners = header
            .corners
            .slice(body)?
            .get(..games as usize * GAME_CORNER_BYTES)
            .ok_or(FormatError::BadSection)?;
        let pi = PatternIndex {
            games,
            blocks,
            corners,
            removals: header.removals.packed(body)?,
            starts: header.removal_starts.packed(body)?,
        };
        if pi.starts.at(0) != 0 || pi.starts.at(games as usize) != pi.removals.len() as u64 {
            return Err(FormatError::BadRecord);
        }
        Ok(pi)
    }

    /// Checks every record: bits of games past the last are zero, every corner record
    /// reads back, the removal starts never decrease, every removal names a point and a
    /// move of its game (`move_count`), in move order.
    pub fn validate(&self, move_count: impl Fn(u32) -> Option<u32>) -> Result<(), FormatError> {
        let bad = Err(FormatError::BadRecord);
        // Bits of games past the last one are zero.
        let tail = self.games as usize % BLOCK_GAMES;
        if tail != 0 {
            let last = self.block_count() - 1;
            let unused = !0u64 << tail;
            if (0..BLOCK_WORDS).any(|i| self.word(last, i) & unused != 0) {
                return bad;
            }
        }
        if self.starts.at(0) != 0
            || self.starts.at(self.games as usize) != self.removals.len() as u64
        {
            return bad;
        }
        for chunk in self.corners.chunks_exact(CORNER_BYTES) {
            if CornerLog::from_bytes(chunk).is_none() {
                return bad;
            }
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

    /// Game `id`'s corner records, bytes as stored.
    pub fn corner_bytes(&self, id: u32) -> Option<&'a [u8]> {
        let at = id as usize * GAME_CORNER_BYTES;
        self.corners.get(at..at + GAME_CORNER_BYTES)
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
        let at = block * BLOCK_BYTES + i * 8;
        match self.blocks.get(at..at + 8) {
            Some(b) => {
                let mut a = [0u8; 8];
                a.copy_from_slice(b);
                u64::from_le_bytes(a)
            }
            None => 0,
        }
    }

    /// The games of `block` that are searched (bit `g`: game `64 * block + g`).
    pub fn searched(&self, block: usize) -> u64 {
        self.word(block, WORD_SEARCHED)
    }

    /// Game `id`'s summary, read back from its block and its corner records.
    pub fn summary(&self, id: u32) -> GameSummary {
        let mut s = self.block_summary(id);
        for (c, log) in s.corners.iter_mut().enumerate() {
            *log = self.corner(id, c).unwrap_or_default();
        }
        s
    }

    /// Game `id`'s summary as stored: its block bits and its corner records' bytes (all
    /// zero past the section).
    pub fn packed_summary(&self, id: u32) -> PackedSummary {
        let s = self.block_summary(id);
        let mut corners = [0u8; GAME_CORNER_BYTES];
        if let Some(b) = self.corner_bytes(id) {
            corners.copy_from_slice(b);
        }
        PackedSummary {
            searched: s.searched,
            winner: s.winner,
            ever_black: s.ever_black,
            ever_white: s.ever_white,
            corners,
        }
    }

    /// Game `id`'s summary from its block's bits alone (no corner logs).
    fn block_summary(&self, id: u32) -> GameSummary {
        let (b, g) = (id as usize / BLOCK_GAMES, id as usize % BLOCK_GAMES);
        let bit = |i: usize| self.word(b, i) >> g & 1 == 1;
        let mut s = GameSummary {
            searched: bit(WORD_SEARCHED),
            winner: if bit(WORD_BLACK_WON) {
                Some(Color::Black)
            } else if bit(WORD_WHITE_WON) {
                Some(Color::White)
            } else {
                None
            },
            ..GameSummary::default()
        };
        for i in 0..MAX_POINTS {
            if let Some(p) = Point::from_index19(i as u16) {
                if bit(WORD_BLACK + i) {
                    s.ever_black.insert(p);
                }
                if bit(WORD_WHITE + i) {
                    s.ever_white.insert(p);
                }
            }
        }
        s
    }

    /// Game `id`'s log of corner box `c`.
    #[inline]
    pub fn corner(&self, id: u32, c: usize) -> Option<CornerLog> {
        let at = id as usize * GAME_CORNER_BYTES + c * CORNER_BYTES;
        CornerLog::from_bytes(self.corners.get(at..at + CORNER_BYTES)?)
    }

    /// The games of `w` (bits of `block`) whose corner logs allow `pair`.
    fn corner_filter(&self, block: usize, pair: &Pair, mut w: u64) -> u64 {
        for b in pair.boxes.iter().take(pair.box_count as usize) {
            let mut left = w;
            while left != 0 {
                let g = left.trailing_zeros();
                left &= left - 1;
                let at = (block * BLOCK_GAMES + g as usize) * GAME_CORNER_BYTES
                    + b.corner as usize * CORNER_BYTES;
                let rec: Option<&[u8; CORNER_BYTES]> = self
                    .corners
                    .get(at..at + CORNER_BYTES)
                    .and_then(|r| r.try_into().ok());
                if rec.is_some_and(|rec| !CornerLog::may_match_record(rec, &b.masks)) {
                    w &= !(1 << g);
                }
            }
        }
        w
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
        self.block_work(plan, block, mask, &mut |id, work| {
            let g = id as usize % BLOCK_GAMES;
            let winner = if black_won >> g & 1 == 1 {
                Some(Color::Black)
            } else if white_won >> g & 1 == 1 {
                Some(Color::White)
            } else {
                None
            };
            if let GameWork::Logged(hits) = work {
                // Decided by its logs: the game's moves are read only for a continuation
                // past the kept changes.
                for lh in hits {
                    let h = logged_hit(q, lh, |region, after| {
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
                GameWork::Logged(_) => {}
                GameWork::Pairs(pairs) => {
                    scan_pairs(plan, &game, pairs, None, &mut |h| on_hit(id, winner, h))
                }
                GameWork::Resume(hits, pairs, from) => {
                    for lh in hits {
                        let h =
                            logged_hit(q, lh, |region, after| first_move_in(&game, region, after));
                        on_hit(id, winner, &h);
                    }
                    scan_pairs(plan, &game, pairs, Some(from), &mut |h| {
                        on_hit(id, winner, h)
                    });
                }
            }
        });
    }

    /// The games of `block` that `mask` selects and that may hold a hit, with their
    /// candidate placements, in id order (the corner logs are used only to leave games
    /// out, never to answer: every game returned is to be scanned).
    pub fn candidates(
        &self,
        plan: &ScanPlan<'_>,
        block: usize,
        mask: u64,
        f: &mut impl FnMut(u32, &Candidates),
    ) {
        self.block_work_with(plan, block, mask, false, &mut |id, work| match work {
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
            _ => {}
        });
    }

    fn block_work(
        &self,
        plan: &ScanPlan<'_>,
        block: usize,
        mask: u64,
        f: &mut impl FnMut(u32, GameWork<'_>),
    ) {
        self.block_work_with(plan, block, mask, plan.use_corners, f)
    }

    /// The work on each game of `block` that may hold a hit: its hits read from corner
    /// logs (with `read_logs`, when the logs decide every candidate placement), or its
    /// candidate placements to scan.
    fn block_work_with(
        &self,
        plan: &ScanPlan<'_>,
        block: usize,
        mask: u64,
        read_logs: bool,
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
                for (i, pair) in plan.pairs.iter().enumerate() {
                    let mut w = base;
                    for &at in &pair.words {
                        w &= self.word(block, at as usize);
                        if w == 0 {
                            break;
                        }
                    }
                    // (For pairs inside a box, reading the logs would decide what this
                    // filter does, but the filter is cheaper for the many games it
                    // rules out: 7x7 NW on fox_pro 2.6 M instructions with it, 4.0 M
                    // without.)
                    if w != 0 && plan.use_corners {
                        w = self.corner_filter(block, pair, w);
                    }
                    for g in bits(w) {
                        if let Some(p) = game_pairs.get_mut(g as usize) {
                            *p |= 1 << i;
                        }
                    }
                    any |= w;
                }
                let mut logged: heapless::Vec<LoggedHit, MAX_LOGGED> = heapless::Vec::new();
                let mut open = 0u128;
                let mut from = Resume {
                    move_number: 0,
                    black: PointSet::EMPTY,
                    white: PointSet::EMPTY,
                };
                for g in bits(any) {
                    let id = first_id + g;
                    let pairs = game_pairs.get(g as usize).copied().unwrap_or(0);
                    if read_logs {
                        match self.log_work(plan, pairs, id, &mut logged, &mut open, &mut from) {
                            Some(false) => {
                                f(id, GameWork::Logged(&logged));
                                continue;
                            }
                            Some(true) => {
                                f(id, GameWork::Resume(&logged, open, &from));
                                continue;
                            }
                            None => {}
                        }
                    }
                    f(id, GameWork::Pairs(pairs));
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

    /// What game `id`'s corner logs tell, when every candidate pair (bit `i` of `pairs`
    /// for pair `i`) lies inside one box: its hits (into `hits`), and whether a scan is left to
    /// do: then `open_pairs` holds the pairs the logs leave open (and those sharing their
    /// regions) and `from` the position to scan from. Among pairs newly matching the same
    /// region at the same position, the first variant's hit is kept. `None`: scan the
    /// whole game.
    fn log_work(
        &self,
        plan: &ScanPlan<'_>,
        pairs: u128,
        id: u32,
        hits: &mut heapless::Vec<LoggedHit, MAX_LOGGED>,
        open_pairs: &mut u128,
        from: &mut Resume,
    ) -> Option<bool> {
        let q = plan.query();
        hits.clear();
        // Regions (placement, group) the logs leave open, and the last position all of
        // their logs keep.
        let mut open: heapless::Vec<(Point, u8), MAX_LOGGED> = heapless::Vec::new();
        let mut start = u32::MAX;
        for pair in pairs_of(plan, pairs) {
            let b = pair.boxes.first().filter(|_| pair.inside)?;
            let rec = self.corner_record(id, b.corner as usize)?;
            let group = q.variants().get(pair.variant as usize)?.group;
            let mut full = false;
            let r = CornerLog::replay_record(rec, &b.masks, |hit| {
                full |= hits
                    .push(LoggedHit {
                        variant: pair.variant,
                        placement: pair.placement,
                        group,
                        corner: b.corner,
                        hit,
                    })
                    .is_err();
            })?;
            if full {
                return None;
            }
            if !r.decided {
                if CornerLog::record_count(rec) == 0 {
                    // Nothing kept: no known position to resume from.
                    return None;
                }
                start = start.min(r.last);
                if !open.contains(&(pair.placement, group)) {
                    open.push((pair.placement, group)).ok()?;
                }
            }
        }
        if hits.len() <= 1 && open.is_empty() {
            // Decided, with at most one hit (most games of a corner search): nothing to
            // order or merge.
            return Some(false);
        }
        // The scan finds the open regions' hits after `start`.
        hits.retain(|h| h.hit.move_number <= start || !open.contains(&(h.placement, h.group)));
        hits.sort_unstable_by_key(|h| {
            (
                h.hit.move_number,
                h.placement.y,
                h.placement.x,
                h.group,
                h.variant,
            )
        });
        // Sorted: a hit repeating the one before on the same region and position is a
        // later variant's.
        let mut kept = 0;
        for i in 0..hits.len() {
            let h = hits[i];
            let same = kept > 0 && {
                let p = hits[kept - 1];
                (p.hit.move_number, p.placement, p.group)
                    == (h.hit.move_number, h.placement, h.group)
            };
            if !same {
                hits[kept] = h;
                kept += 1;
            }
        }
        hits.truncate(kept);
        if open.is_empty() {
            return Some(false);
        }
        *open_pairs = 0;
        *from = Resume {
            move_number: start,
            black: PointSet::EMPTY,
            white: PointSet::EMPTY,
        };
        let mut boxes_done = 0u8;
        for i in bits128(pairs) {
            let pair = plan.pairs.get(i)?;
            let group = q.variants().get(pair.variant as usize)?.group;
            if !open.contains(&(pair.placement, group)) {
                continue;
            }
            *open_pairs |= 1 << i;
            let c = pair.boxes.first()?.corner;
            if boxes_done & 1 << c == 0 {
                boxes_done |= 1 << c;
                let (b, w) = self.corner_log(id, c as usize)?.state_at(start);
                for (bits, out) in [(b, &mut from.black), (w, &mut from.white)] {
                    let mut left = bits;
                    while left != 0 {
                        let at = left.trailing_zeros() as u8;
                        left &= left - 1;
                        out.insert(box_point(c as usize, at));
                    }
                }
            }
        }
        Some(true)
    }

    /// Game `id`'s record of corner box `c`, as stored (validated at open).
    #[inline]
    fn corner_record(&self, id: u32, c: usize) -> Option<&'a [u8; CORNER_BYTES]> {
        let at = id as usize * GAME_CORNER_BYTES + c * CORNER_BYTES;
        self.corners.get(at..at + CORNER_BYTES)?.try_into().ok()
    }

    /// Game `id`'s log of corner box `c`, as stored (validated at open).
    #[inline]
    fn corner_log(&self, id: u32, c: usize) -> Option<CornerLog> {
        let at = id as usize * GAME_CORNER_BYTES + c * CORNER_BYTES;
        Some(CornerLog::read(
            self.corners.get(at..at + CORNER_BYTES)?.try_into().ok()?,
        ))
    }
}

/// The most hits of one game read from logs (more: the game is scanned).
const MAX_LOGGED: usize = 32;

/// A hit read from a corner log, with its pair.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct LoggedHit {
    variant: u8,
    placement: Point,
    /// The variant's group (regions of different groups never coincide).
    group: u8,
    corner: u8,
    hit: LogHit,
}

/// What to do with one game of a block.
enum GameWork<'c> {
    /// Scan it for these candidates.
    Scan(&'c Candidates),
    /// Scan it with local codes (every allowed placement).
    Local,
    /// Scan it for these pairs of the plan (bit `i`: pair `i`).
    Pairs(u128),
    /// Its hits, read from its corner logs.
    Logged(&'c [LoggedHit]),
    /// Its hits up to a position, read from its corner logs, then a scan from there.
    Resume(&'c [LoggedHit], u128, &'c Resume),
}

/// A hit read from a log, made whole (a continuation past the log is found in the game's
/// moves).
fn logged_hit(
    q: &PatternQuery,
    lh: &LoggedHit,
    first_move_in: impl FnOnce(&Rect, u32) -> Option<(u32, Point, bool)>,
) -> Hit {
    let n = lh.hit.move_number;
    let variant = q.variants().get(lh.variant as usize);
    let (region, swapped) = match variant {
        Some(v) => (v.region(lh.placement), v.swapped),
        None => (Rect::at(lh.placement, 1, 1), false),
    };
    let found = match lh.hit.continuation {
        LogContinuation::Move(m, at, white) => Some((m, box_point(lh.corner as usize, at), white)),
        LogContinuation::None => None,
        LogContinuation::After(after) => first_move_in(&region, after),
    };
    let continuation = match (found, variant) {
        (Some((m, pt, white)), Some(v)) => {
            let color = if white { Color::White } else { Color::Black };
            Some(Continuation {
                move_number: m,
                color: if swapped { color.opponent() } else { color },
                cell: q.pattern_cell(v, lh.placement, pt),
                immediate: m == n + 1,
            })
        }
        _ => None,
    };
    Hit {
        move_number: n,
        variant: lh.variant,
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
