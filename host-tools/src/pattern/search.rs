//! Running a pattern search over every game of an index: blocks of 64 games in parallel
//! (rayon), each searched by the core (`PatternIndex::scan_block`), aggregated into
//! counts that do not grow with the number of hits; or the hits themselves, streamed in
//! game order.

use std::collections::BTreeMap;

use kifudex_core::index::Index;
use kifudex_core::pattern::accel::BLOCK_GAMES;
use kifudex_core::pattern::{
    Area, ContinuationStats, Hit, Pattern, PatternIndex, PatternQuery, ScanPlan,
};
use kifudex_core::{Color, Point};
use rayon::prelude::*;

use crate::games::{GameFilter, Page};

/// What to search for, and in which games.
#[derive(Clone, Debug)]
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

    fn merge(mut self, o: PatternReport) -> PatternReport {
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
    f.year_from.is_some()
        || f.year_to.is_some()
        || f.player.is_some()
        || f.handicap.is_some()
        || f.winner.is_some()
}

/// The games of `block` that pass the filter (bit `g`: game `64 * block + g`).
fn block_mask(index: &Index<'_>, filter: &GameFilter, block: usize) -> u64 {
    if !filters(filter) {
        return !0;
    }
    let first = (block * BLOCK_GAMES) as u32;
    let mut mask = 0u64;
    for g in 0..BLOCK_GAMES as u32 {
        if index
            .game(first + g)
            .is_some_and(|game| filter.accepts(&game))
        {
            mask |= 1 << g;
        }
    }
    mask
}

/// Counts the hits, games and continuations of `req` in every game: on the blocks in
/// parallel, or on this thread alone when the pool has one thread (no hand-over to a
/// worker, which costs as much as a small corner search).
pub fn search(index: &Index<'_>, data: &PatternIndex<'_>, req: &PatternRequest) -> PatternReport {
    let q = req.query();
    let plan = ScanPlan::new(&q);
    let scan = |mut acc: PatternReport, b: usize| {
        let mask = block_mask(index, &req.filter, b);
        let mut last = u32::MAX;
        let mut year = 0u16;
        data.scan_block(index, &plan, b, mask, &mut |id, winner, hit: &Hit| {
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
                acc.stats.add(&q, c, winner);
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
        acc
    };
    if rayon::current_num_threads() <= 1 {
        return (0..data.block_count()).fold(PatternReport::new(&q), scan);
    }
    (0..data.block_count())
        .into_par_iter()
        .with_min_len(16)
        .fold(|| PatternReport::new(&q), scan)
        .reduce(|| PatternReport::new(&q), PatternReport::merge)
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
    let plan = ScanPlan::new(&q);
    let n = data.block_count();
    let mut start = 0;
    while start < n {
        let end = (start + STREAM_BLOCKS).min(n);
        let block_hits = |b: usize| {
            let mask = block_mask(index, &req.filter, b);
            let mut hits = Vec::new();
            data.scan_block(index, &plan, b, mask, &mut |id, _, h: &Hit| {
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
        // As `search`: one thread is the calling thread.
        let found: Vec<Vec<(u32, Hit)>> = if rayon::current_num_threads() <= 1 {
            (start..end).map(block_hits).collect()
        } else {
            (start..end).into_par_iter().map(block_hits).collect()
        };
        for (id, h) in found.iter().flatten() {
            if !f(*id, h) {
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
