//! Running a pattern search over every game of an index: blocks of 64 games in parallel
//! (rayon), each searched by the core (`PatternIndex::scan_block`), aggregated into
//! counts that do not grow with the number of hits; or the hits themselves, streamed in
//! game order.

use std::collections::BTreeMap;
use std::ops::Range;

use kifudex_core::columns::GameColumns;
use kifudex_core::index::Index;
use kifudex_core::index_file::IndexFileHeader;
use kifudex_core::pattern::stored::block_games::{block_of, game_id, games_of, BLOCK_GAMES};
use kifudex_core::pattern::{
    Area, BlockLines, ContinuationStats, Hit, Pattern, PatternIndex, PatternQuery, ScanPlan,
};
use kifudex_core::{Color, Point};
use rayon::prelude::*;

use crate::games::{GameFilter, Page, Selection};
use crate::mapped;

/// What to search for, and in which games. Equal requests ask the same question (the
/// pattern and area are parsed, so normalised): a cache of scans keys on the request.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PatternRequest {
    /// The pattern.
    pub pattern: Pattern,
    /// The allowed placements.
    pub area: Area,
    /// Search the colours only as given.
    pub fixed_color: bool,
    /// Only games that pass this filter (its limit and offset are not used here).
    pub filter: GameFilter,
    /// Also count hits and continuations by year.
    pub by_year: bool,
}

impl PatternRequest {
    /// A request for `pattern` in every game, every placement, colours exchanged too.
    pub fn new(pattern: Pattern) -> PatternRequest {
        PatternRequest {
            pattern,
            area: Area::ALL,
            fixed_color: false,
            filter: GameFilter::default(),
            by_year: false,
        }
    }

    /// The compiled query.
    pub fn query(&self) -> PatternQuery {
        PatternQuery::new(&self.pattern, self.area, self.fixed_color)
    }
}

/// Hits and continuations of one year (by the games' dates; year 0: unknown).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct YearCounts {
    /// Games with a hit.
    pub games: u64,
    /// Hits.
    pub hits: u64,
    /// Continuations by class: (colour, shown cell) to count.
    pub classes: BTreeMap<(Color, Point), u64>,
}

/// The result of a search: counts only (bounded whatever the number of hits).
#[derive(Clone, Debug)]
pub struct PatternReport {
    /// Games with at least one hit.
    pub games: u64,
    /// All hits.
    pub hits: u64,
    /// Continuations by class.
    pub stats: Box<ContinuationStats>,
    /// By year, when the request asked for it.
    pub years: BTreeMap<u16, YearCounts>,
}

impl PatternReport {
    fn new(q: &PatternQuery) -> PatternReport {
        PatternReport {
            games: 0,
            hits: 0,
            stats: Box::new(ContinuationStats::new(q)),
            years: BTreeMap::new(),
        }
    }

    /// The counts of both reports (of disjoint sets of games, e.g. two slices of blocks of
    /// one [`BlockSearch`]).
    pub fn merge(mut self, o: PatternReport) -> PatternReport {
        self.games += o.games;
        self.hits += o.hits;
        self.stats.merge(&o.stats);
        for (y, c) in o.years {
            let mine = self.years.entry(y).or_default();
            mine.games += c.games;
            mine.hits += c.hits;
            for (k, n) in c.classes {
                *mine.classes.entry(k).or_default() += n;
            }
        }
        self
    }
}

/// Whether the filter selects anything less than every game.
fn filters(f: &GameFilter) -> bool {
    !f.keeps_all()
}

/// The filter compiled once over the index's game columns ([`Selection`]); `None` when it
/// keeps every game, or when the columns cannot be opened (the rows are read then).
fn selection<'a>(index: &Index<'a>, filter: &GameFilter) -> Option<Selection<'a>> {
    if !filters(filter) {
        return None;
    }
    let c = index.container();
    let h: IndexFileHeader = c.header().ok()?;
    let columns = GameColumns::open(&h.columns, c.body, index.game_count()).ok()?;
    Some(Selection::new(filter, &columns))
}

/// The games of `block` that pass the filter (bit `g`: game `64 * block + g`): read from
/// the game columns with `selection`, else from the rows.
fn block_mask(
    index: &Index<'_>,
    filter: &GameFilter,
    selection: Option<&Selection<'_>>,
    block: usize,
) -> u64 {
    if !filters(filter) {
        return !0;
    }
    let first = game_id(block, 0);
    let mut mask = 0u64;
    for g in 0..BLOCK_GAMES as u32 {
        let id = first + g;
        let kept = match selection {
            Some(s) => id < index.game_count() && s.keeps(id),
            None => index.game(id).is_some_and(|game| filter.accepts(&game)),
        };
        if kept {
            mask |= 1 << g;
        }
    }
    mask
}

/// A search prepared once (the query's plan), whose blocks of [`BLOCK_GAMES`] games can be
/// searched in slices: for progress, for stopping between slices, for partial answers.
///
/// - [`BlockSearch::report`] of each slice of `0..block_count()`, merged with
///   [`PatternReport::merge`] in any order, is exactly [`search`]'s report (a game lies in
///   one block, and every count is a sum);
/// - [`BlockSearch::hits`] of consecutive slices, concatenated in order, is exactly the
///   list [`for_each_hit`] passes on.
///
/// ```no_run
/// # use kifudex_explore::pattern::search::{BlockSearch, PatternRequest};
/// # fn f(file: &kifudex_core::index_file::IndexFile<'_>, req: &PatternRequest) {
/// let q = req.query();
/// let s = BlockSearch::new(&file.index, &file.pattern, req, &q);
/// let mut report = s.empty_report();
/// for start in (0..s.block_count()).step_by(256) {
///     let end = (start + 256).min(s.block_count());
///     report = report.merge(s.report(start..end));
///     // games searched so far: s.games_before(end); stop here to cancel
/// }
/// # }
/// ```
///
/// Each slice runs on the blocks in parallel (rayon's current pool), or on the calling
/// thread alone when the pool has one thread (no hand-over to a worker, which costs as much
/// as a small corner search).
pub struct BlockSearch<'a, 'q> {
    index: &'a Index<'a>,
    data: &'a PatternIndex<'a>,
    req: &'a PatternRequest,
    q: &'q PatternQuery,
    /// The plan, built in place on the heap (a plan is large: moved, it is copied); always
    /// `Some` once [`BlockSearch::new`] returns.
    plan: Box<Option<ScanPlan<'q>>>,
    /// The filter compiled over the game columns, once.
    selection: Option<Selection<'a>>,
}

impl<'a, 'q> BlockSearch<'a, 'q> {
    /// The search of `req` (compiled as `q`, [`PatternRequest::query`]) over `index` and
    /// its pattern data.
    pub fn new(
        index: &'a Index<'a>,
        data: &'a PatternIndex<'a>,
        req: &'a PatternRequest,
        q: &'q PatternQuery,
    ) -> BlockSearch<'a, 'q> {
        let mut plan = Box::new(None);
        ScanPlan::new_in(&mut plan, q);
        BlockSearch {
            index,
            data,
            req,
            q,
            plan,
            selection: selection(index, &req.filter),
        }
    }

    /// Number of blocks.
    pub fn block_count(&self) -> usize {
        self.data.block_count()
    }

    /// Number of games in the blocks before `block` (for progress: games searched).
    pub fn games_before(&self, block: usize) -> u64 {
        games_of(block, self.data.game_count()).start as u64
    }

    /// A report with nothing counted (what [`PatternReport::merge`] starts from).
    pub fn empty_report(&self) -> PatternReport {
        PatternReport::new(self.q)
    }

    /// The counts of the blocks `blocks`.
    pub fn report(&self, blocks: Range<usize>) -> PatternReport {
        self.report_and_list(blocks, false).0
    }

    /// The counts of the blocks `blocks` and, from the same scan, their games with hits in
    /// id order (as [`games_with_hits`] lists them).
    pub fn report_and_games(&self, blocks: Range<usize>) -> (PatternReport, Vec<GameHits>) {
        self.report_and_list(blocks, true)
    }

    fn report_and_list(&self, blocks: Range<usize>, list: bool) -> (PatternReport, Vec<GameHits>) {
        match self.plan.as_ref() {
            Some(plan) => report_blocks(
                self.index,
                self.data,
                self.req,
                plan,
                self.selection.as_ref(),
                blocks,
                list,
            ),
            None => (self.empty_report(), Vec::new()),
        }
    }

    /// The hits of the blocks `blocks` with their games' ids, in order of game, position
    /// and region.
    pub fn hits(&self, blocks: Range<usize>) -> Vec<(u32, Hit)> {
        match self.plan.as_ref() {
            Some(plan) => hits_of_blocks(
                self.index,
                self.data,
                self.req,
                plan,
                self.selection.as_ref(),
                blocks,
            ),
            None => Vec::new(),
        }
    }
}

/// Blocks from which a search asks for the next block's lines ahead of time (42 MB of
/// pattern data: past a last-level cache, where the search waits for memory; below, the
/// lines are in the caches already and asking costs more than it saves: on fox_pro's 162
/// blocks, 7x7 NW 0.151 -> 0.176 ms).
const READ_AHEAD_BLOCKS: usize = 1024;

/// The lines of each block that a search over `data` asks for ahead of time: those `plan`
/// reads, on a large index only.
fn read_ahead_lines(data: &PatternIndex<'_>, plan: &ScanPlan<'_>) -> BlockLines {
    if data.block_count() < read_ahead_blocks() {
        return BlockLines::default();
    }
    BlockLines::read_by(plan)
}

/// [`READ_AHEAD_BLOCKS`] (a test on a small index sets its own on its thread).
fn read_ahead_blocks() -> usize {
    #[cfg(test)]
    if let Some(n) = tests::READ_AHEAD_FROM.with(|c| c.get()) {
        return n;
    }
    READ_AHEAD_BLOCKS
}

/// Asks for `lines` of block `b` ahead of time.
#[inline]
fn read_ahead(data: &PatternIndex<'_>, lines: &BlockLines, b: usize) {
    if lines.is_empty() {
        return;
    }
    let block = data.block(b);
    for at in lines.offsets() {
        mapped::prefetch(block, at);
    }
    let corners = data.corner_block(b).0;
    for at in lines.corner_offsets() {
        mapped::prefetch(corners, at);
    }
}

/// [`BlockSearch::report`] over a plan of the caller's (a plan is large: [`search`] keeps
/// its own on its stack rather than moving it into a [`BlockSearch`]); with `list_games`,
/// also the games with hits, in id order.
fn report_blocks(
    index: &Index<'_>,
    data: &PatternIndex<'_>,
    req: &PatternRequest,
    plan: &ScanPlan<'_>,
    selection: Option<&Selection<'_>>,
    blocks: Range<usize>,
    list_games: bool,
) -> (PatternReport, Vec<GameHits>) {
    let q = plan.query();
    let blocks = blocks.start..blocks.end.min(data.block_count());
    let lines = read_ahead_lines(data, plan);
    let scan = |(mut acc, mut listed): (PatternReport, Vec<GameHits>), b: usize| {
        read_ahead(data, &lines, b + 1);
        let mask = block_mask(index, &req.filter, selection, b);
        let mut last = u32::MAX;
        let mut year = 0u16;
        // The block's games with hits: (first hit's move number, hits), by game.
        let mut per_game = [(u32::MAX, 0u32); BLOCK_GAMES];
        data.scan_block(index, plan, b, mask, &mut |id, winner, hit: &Hit| {
            if list_games {
                let g = &mut per_game[block_of(id).1];
                g.0 = g.0.min(hit.move_number);
                g.1 += 1;
            }
            acc.hits += 1;
            let new_game = id != last;
            if new_game {
                acc.games += 1;
                last = id;
                if req.by_year {
                    year = index.game(id).and_then(|g| g.year()).unwrap_or(0);
                }
            }
            if let Some(c) = &hit.continuation {
                acc.stats.add(q, c, winner);
            }
            if req.by_year {
                let y = acc.years.entry(year).or_default();
                y.hits += 1;
                y.games += new_game as u64;
                if let Some(c) = &hit.continuation {
                    *y.classes.entry((c.color, q.class_of(c.cell))).or_default() += 1;
                }
            }
        });
        let first = game_id(b, 0);
        for (g, &(first_move_number, hits)) in per_game.iter().enumerate() {
            if list_games && hits > 0 {
                listed.push(GameHits {
                    game: first + g as u32,
                    first_move_number,
                    hits,
                });
            }
        }
        (acc, listed)
    };
    let empty = || (PatternReport::new(q), Vec::new());
    // Blocks a thread takes at least: a block whose placements its corner boxes look up
    // costs a fraction of a microsecond, and handing fewer than about a thousand of them
    // to another thread costs more than it saves (7x7 on fox_pro, 162 blocks: 0.062 ms on
    // two threads in pieces of 16 blocks, 0.048 ms on one).
    let min_len = if plan.looked_up() { 1024 } else { 16 };
    let (report, mut listed) = if rayon::current_num_threads() <= 1 || blocks.len() <= min_len {
        blocks.fold(empty(), scan)
    } else {
        blocks
            .into_par_iter()
            .with_min_len(min_len)
            .fold(empty, scan)
            .reduce(empty, |(a, mut ga), (b, gb)| {
                ga.extend(gb);
                (a.merge(b), ga)
            })
    };
    // In order already (rayon reduces in order); sorted to be sure, at no cost then.
    listed.sort_unstable_by_key(|g| g.game);
    (report, listed)
}

/// [`BlockSearch::hits`] over a plan of the caller's.
fn hits_of_blocks(
    index: &Index<'_>,
    data: &PatternIndex<'_>,
    req: &PatternRequest,
    plan: &ScanPlan<'_>,
    selection: Option<&Selection<'_>>,
    blocks: Range<usize>,
) -> Vec<(u32, Hit)> {
    let blocks = blocks.start..blocks.end.min(data.block_count());
    let lines = read_ahead_lines(data, plan);
    let block_hits = |b: usize| {
        read_ahead(data, &lines, b + 1);
        let mask = block_mask(index, &req.filter, selection, b);
        let mut hits = Vec::new();
        data.scan_block(index, plan, b, mask, &mut |id, _, h: &Hit| {
            hits.push((id, *h))
        });
        // By game, position, then region (top, left).
        hits.sort_by_key(|(id, h)| {
            let r = h.region;
            (
                *id,
                h.move_number,
                r.top,
                r.left,
                r.bottom,
                r.right,
                h.variant,
            )
        });
        hits
    };
    let found: Vec<Vec<(u32, Hit)>> = if rayon::current_num_threads() <= 1 {
        blocks.map(block_hits).collect()
    } else {
        blocks.into_par_iter().map(block_hits).collect()
    };
    found.into_iter().flatten().collect()
}

/// Counts the hits, games and continuations of `req` in every game ([`BlockSearch`] over
/// all blocks at once). Never inlined: `scripts/callgrind-pattern.sh` counts the
/// instructions from its entry.
#[inline(never)]
pub fn search(index: &Index<'_>, data: &PatternIndex<'_>, req: &PatternRequest) -> PatternReport {
    let q = req.query();
    let mut slot = None;
    let plan = ScanPlan::new_in(&mut slot, &q);
    let selection = selection(index, &req.filter);
    report_blocks(
        index,
        data,
        req,
        plan,
        selection.as_ref(),
        0..data.block_count(),
        false,
    )
    .0
}

/// Blocks searched at once when hits are streamed in order.
const STREAM_BLOCKS: usize = 32;

/// Passes every hit of `req` to `f` with its game's id, in order of game and position
/// (blocks are searched in parallel, a few at a time, so memory holds only their hits).
/// `f` returns `false` to stop.
pub fn for_each_hit(
    index: &Index<'_>,
    data: &PatternIndex<'_>,
    req: &PatternRequest,
    mut f: impl FnMut(u32, &Hit) -> bool,
) {
    let q = req.query();
    let mut slot = None;
    let plan = ScanPlan::new_in(&mut slot, &q);
    let selection = selection(index, &req.filter);
    let n = data.block_count();
    let mut start = 0;
    while start < n {
        let end = (start + STREAM_BLOCKS).min(n);
        for (id, h) in hits_of_blocks(index, data, req, plan, selection.as_ref(), start..end) {
            if !f(id, &h) {
                return;
            }
        }
        start = end;
    }
}

/// A page of the hits of `req` in order of game and position: `page.offset` skipped, at
/// most `page.limit` kept (the search stops there).
pub fn hits_page(
    index: &Index<'_>,
    data: &PatternIndex<'_>,
    req: &PatternRequest,
    page: Page,
) -> Vec<(u32, Hit)> {
    let mut out = Vec::new();
    let mut seen = 0usize;
    if page.limit == 0 {
        return out;
    }
    for_each_hit(index, data, req, |game, h| {
        if seen >= page.offset {
            out.push((game, *h));
        }
        seen += 1;
        out.len() < page.limit
    });
    out
}

/// One game with hits: its id, the position of its first hit and its number of hits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameHits {
    /// The game's id.
    pub game: u32,
    /// Moves played before its first hit's position.
    pub first_move_number: u32,
    /// Its hits.
    pub hits: u32,
}

/// The games with hits, newest first (id order), after `offset`, at most `limit`, and how
/// many games have hits in all.
pub fn games_with_hits(
    index: &Index<'_>,
    data: &PatternIndex<'_>,
    req: &PatternRequest,
    offset: usize,
    limit: usize,
) -> (Vec<GameHits>, usize) {
    let mut out: Vec<GameHits> = Vec::new();
    let mut matching = 0usize;
    let mut current: Option<GameHits> = None;
    let flush = |g: GameHits, out: &mut Vec<GameHits>, matching: &mut usize| {
        if *matching >= offset && out.len() < limit {
            out.push(g);
        }
        *matching += 1;
    };
    for_each_hit(index, data, req, |id, h| {
        match &mut current {
            Some(c) if c.game == id => c.hits += 1,
            _ => {
                if let Some(c) = current.take() {
                    flush(c, &mut out, &mut matching);
                }
                current = Some(GameHits {
                    game: id,
                    first_move_number: h.move_number,
                    hits: 1,
                });
            }
        }
        true
    });
    if let Some(c) = current {
        flush(c, &mut out, &mut matching);
    }
    (out, matching)
}

#[cfg(test)]
mod tests {
    use super::*;
    // The answer a report gives (the explorer's, as printed).
    use crate::explore::pattern::answer;
    use crate::sample::sample_index;

    thread_local! {
        /// The searches of this thread read ahead from this many blocks on.
        pub(super) static READ_AHEAD_FROM: std::cell::Cell<Option<usize>> =
            const { std::cell::Cell::new(None) };
    }

    /// Every hit of `req`, as [`for_each_hit`] gives them.
    fn all_hits(
        index: &Index<'_>,
        data: &PatternIndex<'_>,
        req: &PatternRequest,
    ) -> Vec<(u32, Hit)> {
        let mut list = Vec::new();
        for_each_hit(index, data, req, |id, h| {
            list.push((id, *h));
            true
        });
        list
    }

    /// Reading ahead (forced on the small sample, every block, up to the last's next)
    /// changes no answer.
    #[test]
    fn reading_ahead_changes_no_answer() {
        let bytes = sample_index().unwrap();
        let file = kifudex_core::index_file::IndexFile::open(&bytes).unwrap();
        let (index, data) = (file.index.clone(), &file.pattern);
        for (rows, area) in [
            (
                "......./......./...X.../..X..../..O..../......./.......",
                Some("0,0,0,0"),
            ),
            ("..../..../..X*/..*O", Some("0,0,0,0")),
            ("...../...../X.O.X/...../.....", Some("1,0,13,0")),
            ("XX./X../...", None),
        ] {
            let mut req = PatternRequest::parse(rows, area, false).unwrap();
            req.by_year = true;
            let q = req.query();
            let plain = answer(&req, &search(&index, data, &req));
            let plain_games = games_with_hits(&index, data, &req, 0, usize::MAX);
            let plain_hits = all_hits(&index, data, &req);
            READ_AHEAD_FROM.with(|c| c.set(Some(0)));
            let mut slot = None;
            let plan = ScanPlan::new_in(&mut slot, &q);
            let lines = read_ahead_lines(data, plan);
            let pairs = plan.strategy() == kifudex_core::pattern::Strategy::Pairs;
            assert_eq!(lines.is_empty(), !pairs, "{rows}: {} lines", lines.len());
            let ahead = answer(&req, &search(&index, data, &req));
            let ahead_games = games_with_hits(&index, data, &req, 0, usize::MAX);
            let ahead_hits = all_hits(&index, data, &req);
            READ_AHEAD_FROM.with(|c| c.set(None));
            assert!(!plain_hits.is_empty(), "{rows}");
            assert_eq!(ahead_hits, plain_hits, "{rows}");
            assert_eq!(ahead, plain, "{rows}");
            assert_eq!(ahead_games, plain_games, "{rows}");
        }
    }

    /// Slices of blocks, merged in any order, give the whole search's counts; their hits,
    /// in order, the whole list.
    #[test]
    fn slices_of_blocks_give_the_whole_answer() {
        let bytes = sample_index().unwrap();
        let file = kifudex_core::index_file::IndexFile::open(&bytes).unwrap();
        let (index, data) = (file.index.clone(), &file.pattern);
        assert!(data.block_count() >= 4, "{} blocks", data.block_count());
        for (rows, area) in [
            ("XX./X../...", None),
            ("..../..../..X*/..*O", Some("0,0,0,0")),
            ("...../...../X.O.X/...../.....", Some("1,0,13,0")),
            (".", None),
        ] {
            let mut req = PatternRequest::parse(rows, area, false).unwrap();
            req.by_year = true;
            let q = req.query();
            let whole = answer(&req, &search(&index, data, &req));
            let list = all_hits(&index, data, &req);
            assert!(!list.is_empty(), "{rows}");
            let s = BlockSearch::new(&index, data, &req, &q);
            let n = s.block_count();
            for size in [1, 2, 3] {
                let slices: Vec<Range<usize>> =
                    (0..n).step_by(size).map(|a| a..(a + size).min(n)).collect();
                // Merged last slice first.
                let merged = slices
                    .iter()
                    .rev()
                    .fold(s.empty_report(), |r, b| r.merge(s.report(b.clone())));
                assert_eq!(answer(&req, &merged), whole, "{rows} by {size}");
                let hits: Vec<(u32, Hit)> = slices.iter().flat_map(|b| s.hits(b.clone())).collect();
                assert_eq!(hits, list, "{rows} by {size}");
                // The counts and the game list of one scan, slice by slice.
                let (mut counted, mut listed) = (s.empty_report(), Vec::new());
                for b in &slices {
                    let (r, g) = s.report_and_games(b.clone());
                    counted = counted.merge(r);
                    listed.extend(g);
                }
                assert_eq!(answer(&req, &counted), whole, "{rows} by {size}");
                let (games, matching) = games_with_hits(&index, data, &req, 0, usize::MAX);
                assert_eq!(
                    (listed.len(), listed),
                    (matching, games),
                    "{rows} by {size}"
                );
            }
            assert_eq!(s.games_before(n), index.game_count() as u64);
        }
    }
}
