//! The explorer's pattern questions, over one scan of the query ([`super::scan_cache`]): the
//! counts (continuations, and the date profile), a page of the hits, a page of the games
//! with hits, the progress of a running scan; and the time a search takes (a scan of its
//! own, never cached).

use std::time::{Duration, Instant};

use kifudex_core::index::Index;
use kifudex_core::pattern::stored::block_games::{block_of, game_id};
use kifudex_core::pattern::{Hit, PatternHeader, PatternIndex};

use super::answer::{
    ContinuationEntry, GameEntry, GamesAnswer, HitContinuation, HitEntry, HitsAnswer,
    PatternAnswer, PatternProgress, PatternTimings, YearTotals,
};
use super::scan_cache::{PatternScan, ScanProgress};
use crate::games::{result_text, Page};
use crate::pattern::search::{self, BlockSearch, PatternReport, PatternRequest};

/// The answer of a search's report: the classes of continuations with their cells'
/// equivalents, and the date profile when the request asks for it and the search counted
/// by year (and found hits).
pub fn answer(req: &PatternRequest, r: &PatternReport) -> PatternAnswer {
    let q = req.query();
    let by_year = req.by_year && !r.years.is_empty();
    let continuations = r
        .stats
        .classes()
        .iter()
        .map(|c| ContinuationEntry {
            cell: c.cell,
            equivalent: q.equivalent(c.cell).to_vec(),
            color: c.color,
            count: c.counts.count,
            immediate: c.counts.immediate,
            tenuki: c.counts.tenuki,
            black_wins: c.counts.black_wins,
            white_wins: c.counts.white_wins,
            by_year: by_year.then(|| {
                r.years
                    .iter()
                    .filter_map(|(y, counts)| {
                        counts.classes.get(&(c.color, c.cell)).map(|&n| (*y, n))
                    })
                    .collect()
            }),
        })
        .collect();
    PatternAnswer {
        pattern: req.pattern.clone(),
        area: q.area(),
        fixed_color: q.fixed_color(),
        games: r.games,
        hits: r.hits,
        continuations,
        years: by_year.then(|| {
            r.years
                .iter()
                .map(|(y, c)| {
                    let totals = YearTotals {
                        games: c.games,
                        hits: c.hits,
                        continuations: c.classes.values().sum(),
                    };
                    (*y, totals)
                })
                .collect()
        }),
    }
}

/// The counts of `req` over every game, from a search of their own (one pass, never
/// kept: what a kept scan must equal).
pub fn counts(index: &Index<'_>, data: &PatternIndex<'_>, req: &PatternRequest) -> PatternAnswer {
    answer(req, &search::search(index, data, req))
}

/// How far a scan has come: games scanned of all, the counts so far, the continuations so
/// far (without their date profile).
pub fn progress(req: &PatternRequest, p: &ScanProgress<'_>) -> PatternProgress {
    let plain = PatternRequest {
        by_year: false,
        ..req.clone()
    };
    let a = answer(&plain, p.report);
    PatternProgress {
        scanned: p.scanned,
        total: p.total,
        games: a.games,
        hits: a.hits,
        continuations: a.continuations,
    }
}

/// Blocks searched at once for a page of hits.
const HIT_BLOCKS: usize = 32;

/// The hits of `page`, in game and position order: the scan's game list says in which
/// block the first one lies, and the blocks from there are searched for their hits until
/// the page is full.
fn hits_page(
    index: &Index<'_>,
    data: &PatternIndex<'_>,
    req: &PatternRequest,
    scan: &PatternScan,
    page: Page,
) -> Vec<(u32, Hit)> {
    let mut out = Vec::new();
    // The game of the page's first hit, and the hits before its block.
    let mut before = 0usize;
    let mut first_block = None;
    for g in &scan.games {
        if before + g.hits as usize > page.offset {
            first_block = Some(block_of(g.game).0);
            break;
        }
        before += g.hits as usize;
    }
    let Some(first_block) = first_block.filter(|_| page.limit > 0) else {
        return out;
    };
    let block_start = game_id(first_block, 0);
    let mut seen: usize = scan
        .games
        .iter()
        .take_while(|g| g.game < block_start)
        .map(|g| g.hits as usize)
        .sum();
    let q = req.query();
    let s = BlockSearch::new(index, data, req, &q);
    let mut start = first_block;
    while start < s.block_count() && out.len() < page.limit {
        let end = (start + HIT_BLOCKS).min(s.block_count());
        for h in s.hits(start..end) {
            if seen >= page.offset && out.len() < page.limit {
                out.push(h);
            }
            seen += 1;
        }
        start = end;
    }
    out
}

/// The totals, then the hits of `page` in game and position order, each with its game's
/// information.
pub fn hits<'a>(
    index: &Index<'a>,
    data: &PatternIndex<'_>,
    req: &PatternRequest,
    scan: &PatternScan,
    page: Page,
) -> HitsAnswer<'a> {
    let report = &scan.report;
    let q = req.query();
    let list = hits_page(index, data, req, scan, page)
        .into_iter()
        .map(|(game, h)| {
            let v = q.variants().get(h.variant as usize);
            let g = index.game(game);
            let r = h.region;
            HitEntry {
                game,
                move_number: h.move_number,
                region: [r.left, r.top, r.right, r.bottom],
                transform: v.map(|v| v.transform.index()),
                colors_exchanged: v.map(|v| v.swapped),
                continuation: h.continuation.map(|c| HitContinuation {
                    cell: c.cell,
                    color: c.color,
                    move_number: c.move_number,
                    immediate: c.immediate,
                }),
                black: g.map(|g| g.black),
                black_rank: g.map(|g| super::answer::shown_rank(g.black_rank)),
                white: g.map(|g| g.white),
                white_rank: g.map(|g| super::answer::shown_rank(g.white_rank)),
                date: g.map(|g| g.date),
                event: g.map(|g| g.event),
                result: g.map(|g| result_text(&g)),
                file: g.map(|g| g.path),
                member: g.map(|g| g.member),
                tree: g.map(|g| g.tree),
            }
        })
        .collect();
    HitsAnswer {
        games: report.games,
        hits: report.hits,
        list,
    }
}

/// The games with hits in `page`, newest first, each with its first hit's position and its
/// number of hits.
pub fn games<'a>(index: &Index<'a>, scan: &PatternScan, page: Page) -> GamesAnswer<'a> {
    let matching = scan.games.len();
    let games = scan
        .games
        .iter()
        .skip(page.offset)
        .take(page.limit)
        .filter_map(|gh| {
            let g = index.game(gh.game)?;
            Some(GameEntry {
                hits: Some(gh.hits),
                ..GameEntry::new(&g, gh.first_move_number)
            })
        })
        .collect();
    GamesAnswer { matching, games }
}

/// The counts of `req`, searched `repeat` times (at least once), and the time it took.
pub fn timed(
    index: &Index<'_>,
    data: &PatternIndex<'_>,
    h: &PatternHeader,
    req: &PatternRequest,
    repeat: usize,
) -> (PatternAnswer, PatternTimings) {
    let mut searches: Vec<Duration> = Vec::new();
    let mut report = None;
    let cpu0 = cpu_time();
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        report = Some(search::search(index, data, req));
        searches.push(t.elapsed());
    }
    let cpu = cpu0.zip(cpu_time()).map(|(a, b)| b.saturating_sub(a));
    searches.sort();
    let timings = PatternTimings {
        searches,
        cpu,
        variants: req.query().variants().len(),
        threads: rayon::current_num_threads(),
        games: index.game_count(),
        sections: [
            h.blocks.len,
            h.removals.len,
            h.removal_starts.len,
            h.corner_boxes.len,
        ],
        removed_stones: h.removals.count,
    };
    let report = report.unwrap_or_else(|| search::search(index, data, req));
    (answer(req, &report), timings)
}

/// The CPU time of every thread of this process so far (Linux: the run times of
/// `/proc/self/task/*/schedstat`, in nanoseconds; `None` elsewhere). Less sensitive to a
/// busy machine than the wall clock: the time others run is not counted.
fn cpu_time() -> Option<Duration> {
    let mut ns = 0u64;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let stat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        ns += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(Duration::from_nanos(ns))
}
