//! The search of one block of 64 games with the stored data ([`PatternIndex::scan_block`]):
//! the block's words narrow the games and placements, the first stones (and the corner
//! boxes) decide what they can, the rest is scanned game by game.

use crate::index::Index;
use crate::pattern::cells::Rect;
use crate::pattern::query::PatternQuery;
use crate::pattern::stored::block::*;
use crate::pattern::stored::block_games::{block_of, game_id, BLOCK_GAMES};
use crate::pattern::stored::first::{UnsettledRow, FIRST_NEVER, UNSETTLED_ROW_BYTES};
use crate::pattern::stored::reader::PatternIndex;
use crate::pattern::stored::summary::RemovalRecord;
use crate::point::{Color, Point, MAX_POINTS};
use crate::pointset::PointSet;
use crate::stored::StoredGame;

use super::decide::{decide, Decision, FirstStoneSource, LaneDecisions, Next};
use super::hits::{scan_game, Candidates, Continuation, GameSource, Hit, MoveRecord};
use super::local::LocalScanner;
use super::pairscan::{bits128, scan_pairs};
use super::plan::{Pair, ScanPlan, Strategy, MAX_PAIRS};

impl<'a> PatternIndex<'a> {
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
        self.removal_records()
            .for_each_in(self.removal_range(id), |_, v| {
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
            let (_, g) = block_of(id);
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
        let first_id = game_id(block, 0);
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
