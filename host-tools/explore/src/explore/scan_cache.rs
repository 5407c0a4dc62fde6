//! One scan per pattern query: the explorer's scan service.
//!
//! A pattern query's counts (continuations, hits, games, the date profile when asked) and
//! its game list come from one pass over the games ([`PatternScan`]), kept in a cache
//! bounded in bytes (the least recently used scan leaves first), so that the next question
//! about the same query (a page of its games, of its hits, the games exported) costs no new
//! scan. The key is the query itself ([`PatternRequest`]: the parsed pattern, area, colour
//! switch and the whole game filter), the date profile aside: a scan that counted by year
//! answers the same query without it. The cache belongs to one explorer, which holds one
//! opened index: the index's identity is the cache's owner.
//!
//! A scan runs in slices of blocks of games (`crate::pattern::search::BlockSearch`): after
//! each slice the caller hears its progress ([`ScanProgress`]: games scanned of all, the
//! counts so far), and before each slice the scan looks at its [`Cancel`] flag and stops if
//! it is set. Each slice runs on the blocks in parallel, on the scan service's own pool of
//! threads when it has one ([`ScanOptions::threads`]: the web server's, apart from its
//! quick answers), else on the caller's rayon pool. Completed and cancelled scans are
//! counted ([`ScanCounts`]).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kifudex_core::index::Index;
use kifudex_core::pattern::PatternIndex;
use serde::Serialize;

use crate::pattern::search::{BlockSearch, GameHits, PatternReport, PatternRequest};

/// How the scan service works.
#[derive(Clone, Debug)]
pub struct ScanOptions {
    /// The cache's bound: the bytes its scans may hold (0: no cache).
    pub cache_bytes: usize,
    /// Threads of the scans' own pool (`None`: the caller's rayon pool).
    pub threads: Option<usize>,
    /// A pause after each slice, for tests that must hold a scan open (it also makes each
    /// slice one block, so that a small index is scanned in several; a cancel ends the
    /// pause). Zero in use.
    pub slice_delay: Duration,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            cache_bytes: 256 << 20,
            threads: None,
            slice_delay: Duration::ZERO,
        }
    }
}

/// What one scan of a pattern query found.
#[derive(Debug)]
pub struct PatternScan {
    /// The counts (by year when the query asked for them).
    pub report: PatternReport,
    /// The games with hits, in id order (newest first).
    pub games: Vec<GameHits>,
    /// Whether the counts are by year too.
    pub by_year: bool,
}

impl PatternScan {
    /// The bytes it holds, about (what the cache counts).
    fn bytes(&self) -> usize {
        let years: usize = self
            .report
            .years
            .values()
            .map(|y| 96 + y.classes.len() * 48)
            .sum();
        std::mem::size_of::<PatternScan>()
            + std::mem::size_of_val(&*self.report.stats)
            + self.games.capacity() * std::mem::size_of::<GameHits>()
            + years
    }
}

/// A flag that stops a scan between two slices (shared: clones set the same flag).
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not set.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Sets the flag: the scan stops before its next slice.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is set.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// How far a running scan has come.
pub struct ScanProgress<'r> {
    /// Games scanned.
    pub scanned: u64,
    /// Games to scan in all.
    pub total: u64,
    /// The counts so far.
    pub report: &'r PatternReport,
}

/// A scan stopped by its [`Cancel`] flag before its end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the pattern search was cancelled")]
pub struct Stopped;

/// The scans of one explorer so far.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ScanCounts {
    /// Scans running now.
    pub running: u64,
    /// Scans that ran to their end.
    pub completed: u64,
    /// Scans stopped by their cancel flag.
    pub cancelled: u64,
    /// Questions answered from the cache, without a scan.
    pub cached: u64,
}

#[derive(Default)]
struct Counters {
    running: AtomicU64,
    completed: AtomicU64,
    cancelled: AtomicU64,
    cached: AtomicU64,
}

/// Counts a running scan while it lives.
struct Running<'c>(&'c AtomicU64);

impl<'c> Running<'c> {
    fn new(n: &'c AtomicU64) -> Running<'c> {
        n.fetch_add(1, Ordering::Relaxed);
        Running(n)
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The scans kept: bounded in bytes, the least recently used out first.
#[derive(Default)]
struct Cache {
    limit: usize,
    used: usize,
    tick: u64,
    entries: HashMap<PatternRequest, (Arc<PatternScan>, u64)>,
    /// The keys by last use.
    order: BTreeMap<u64, PatternRequest>,
}

impl Cache {
    fn get(&mut self, key: &PatternRequest) -> Option<Arc<PatternScan>> {
        self.tick += 1;
        let tick = self.tick;
        let (scan, used) = self.entries.get_mut(key)?;
        if let Some(k) = self.order.remove(used) {
            self.order.insert(tick, k);
        }
        *used = tick;
        Some(scan.clone())
    }

    fn insert(&mut self, key: PatternRequest, scan: Arc<PatternScan>) {
        self.remove(&key);
        let bytes = scan.bytes();
        if bytes > self.limit {
            return;
        }
        while self.used + bytes > self.limit {
            let Some((_, oldest)) = self.order.pop_first() else {
                break;
            };
            self.remove(&oldest);
        }
        self.tick += 1;
        self.used += bytes;
        self.order.insert(self.tick, key.clone());
        self.entries.insert(key, (scan, self.tick));
    }

    fn remove(&mut self, key: &PatternRequest) {
        if let Some((scan, used)) = self.entries.remove(key) {
            self.order.remove(&used);
            self.used -= scan.bytes();
        }
    }
}

/// The scan service: the cache, the counts, the pool.
pub struct Scans {
    options: ScanOptions,
    cache: Mutex<Cache>,
    counters: Counters,
    pool: Option<rayon::ThreadPool>,
}

/// The cache's key of a query: the query without its date profile.
fn key(req: &PatternRequest) -> PatternRequest {
    PatternRequest {
        by_year: false,
        ..req.clone()
    }
}

/// Blocks per slice: about 64 slices in all (at least 32 blocks, so that a slice runs on
/// every thread; at most 256), one block with a test's delay.
fn slice_blocks(blocks: usize, delay: Duration) -> usize {
    if !delay.is_zero() {
        return 1;
    }
    (blocks / 64).clamp(32, 256)
}

/// Waits `delay` (the test pause), or less if `cancel` is set meanwhile.
fn pause(delay: Duration, cancel: &Cancel) {
    let end = std::time::Instant::now() + delay;
    while !cancel.is_cancelled() {
        let left = end.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return;
        }
        std::thread::sleep(left.min(Duration::from_millis(10)));
    }
}

impl Scans {
    /// A service working as `options` say (its pool made here, if it has one).
    pub fn new(options: ScanOptions) -> anyhow::Result<Scans> {
        let pool = match options.threads {
            Some(n) => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n.max(1))
                    .thread_name(|i| format!("kifudex-scan-{i}"))
                    .build()?,
            ),
            None => None,
        };
        Ok(Scans {
            cache: Mutex::new(Cache {
                limit: options.cache_bytes,
                ..Cache::default()
            }),
            options,
            counters: Counters::default(),
            pool,
        })
    }

    /// The counts so far.
    pub fn counts(&self) -> ScanCounts {
        let c = &self.counters;
        ScanCounts {
            running: c.running.load(Ordering::Relaxed),
            completed: c.completed.load(Ordering::Relaxed),
            cancelled: c.cancelled.load(Ordering::Relaxed),
            cached: c.cached.load(Ordering::Relaxed),
        }
    }

    /// The kept scan that answers `req`, if any (one that counted by year, if `req` asks
    /// for the date profile).
    pub fn cached(&self, req: &PatternRequest) -> Option<Arc<PatternScan>> {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let scan = cache.get(&key(req)).filter(|s| s.by_year || !req.by_year)?;
        self.counters.cached.fetch_add(1, Ordering::Relaxed);
        Some(scan)
    }

    /// The scan of `req`: the kept one, or a new one (kept then), telling `progress` after
    /// each slice and stopping before a slice once `cancel` is set.
    pub fn scan(
        &self,
        index: &Index<'_>,
        data: &PatternIndex<'_>,
        req: &PatternRequest,
        cancel: &Cancel,
        mut progress: impl FnMut(&ScanProgress<'_>),
    ) -> Result<Arc<PatternScan>, Stopped> {
        if let Some(scan) = self.cached(req) {
            return Ok(scan);
        }
        let _running = Running::new(&self.counters.running);
        let q = req.query();
        let search = BlockSearch::new(index, data, req, &q);
        let n = search.block_count();
        let step = slice_blocks(n, self.options.slice_delay);
        let total = search.games_before(n);
        let mut report = search.empty_report();
        let mut games = Vec::new();
        let mut start = 0;
        while start < n {
            if cancel.is_cancelled() {
                self.counters.cancelled.fetch_add(1, Ordering::Relaxed);
                return Err(Stopped);
            }
            let end = (start + step).min(n);
            let slice = || search.report_and_games(start..end);
            let (r, g) = match &self.pool {
                Some(pool) => pool.install(slice),
                None => slice(),
            };
            report = report.merge(r);
            games.extend(g);
            start = end;
            progress(&ScanProgress {
                scanned: search.games_before(end),
                total,
                report: &report,
            });
            if start < n {
                pause(self.options.slice_delay, cancel);
            }
        }
        self.counters.completed.fetch_add(1, Ordering::Relaxed);
        let scan = Arc::new(PatternScan {
            report,
            games,
            by_year: req.by_year,
        });
        if self.options.cache_bytes > 0 {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            cache.insert(key(req), scan.clone());
        }
        Ok(scan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::sample_index;

    fn scan_of(rows: &str, games: usize) -> (PatternRequest, Arc<PatternScan>) {
        let req = PatternRequest::parse(rows, None, false).unwrap();
        let q = req.query();
        let report = kifudex_core::pattern::ContinuationStats::new(&q);
        let scan = PatternScan {
            report: PatternReport {
                games: 0,
                hits: 0,
                stats: Box::new(report),
                years: BTreeMap::new(),
            },
            games: vec![
                GameHits {
                    game: 0,
                    first_move_number: 0,
                    hits: 1
                };
                games
            ],
            by_year: false,
        };
        (req, Arc::new(scan))
    }

    /// The cache keeps what fits, drops the least recently used first, and never holds
    /// more bytes than its bound.
    #[test]
    fn the_cache_drops_the_least_recently_used() {
        let (a, sa) = scan_of("X", 1000);
        let (b, sb) = scan_of("O", 1000);
        let (c, sc) = scan_of("XO", 1000);
        let one = sa.bytes();
        let mut cache = Cache {
            limit: 2 * one + one / 2,
            ..Cache::default()
        };
        cache.insert(a.clone(), sa);
        cache.insert(b.clone(), sb);
        assert!(cache.get(&a).is_some());
        cache.insert(c.clone(), sc);
        assert!(cache.get(&b).is_none(), "b was the least recently used");
        assert!(cache.get(&a).is_some() && cache.get(&c).is_some());
        assert!(cache.used <= cache.limit);
        let (big, sbig) = scan_of("X.", 100_000);
        cache.insert(big.clone(), sbig);
        assert!(cache.get(&big).is_none(), "larger than the bound: not kept");
        assert_eq!(cache.entries.len(), cache.order.len());
        assert_eq!(
            cache.used,
            cache
                .entries
                .values()
                .map(|(s, _)| s.bytes())
                .sum::<usize>()
        );
    }

    /// A scan in slices equals the one-pass search; a cancelled one stops and is counted;
    /// the next question is the cache's.
    #[test]
    fn scans_in_slices_are_kept_and_can_be_stopped() {
        let bytes = sample_index().unwrap();
        let file = kifudex_core::index_file::IndexFile::open(&bytes).unwrap();
        let scans = Scans::new(ScanOptions {
            slice_delay: Duration::from_millis(1),
            threads: Some(2),
            ..ScanOptions::default()
        })
        .unwrap();
        let mut req = PatternRequest::parse("XX./X../...", None, false).unwrap();
        req.by_year = true;
        let cancel = Cancel::new();
        let mut seen = Vec::new();
        let got = scans
            .scan(&file.index, &file.pattern, &req, &cancel, |p| {
                seen.push((p.scanned, p.total, p.report.hits))
            })
            .unwrap();
        let whole = crate::pattern::search(&file.index, &file.pattern, &req);
        assert_eq!(
            (got.report.games, got.report.hits),
            (whole.games, whole.hits)
        );
        assert_eq!(got.report.years, whole.years);
        assert!(
            seen.len() > 1 && seen.windows(2).all(|w| w[0] < w[1]),
            "{seen:?}"
        );
        assert_eq!(
            seen.last().map(|s| s.0),
            Some(file.index.game_count() as u64)
        );
        // Asked again, without the profile too: the kept scan.
        let plain = PatternRequest {
            by_year: false,
            ..req.clone()
        };
        assert!(Arc::ptr_eq(&scans.cached(&plain).unwrap(), &got));
        // A new query, cancelled after its first slice.
        let other = PatternRequest::parse("X.X", None, false).unwrap();
        let r = scans.scan(&file.index, &file.pattern, &other, &cancel, |_| {
            cancel.cancel()
        });
        assert_eq!(r.unwrap_err(), Stopped);
        let c = scans.counts();
        assert_eq!((c.completed, c.cancelled, c.running), (1, 1, 0));
        assert!(scans.cached(&other).is_none());
    }
}
