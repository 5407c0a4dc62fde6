//! Pattern search on the fox_pro index (built once outside the timings; the search reads
//! the pattern sections stored in it), one thread, for the six patterns of issue 11 that Kombilo was
//! timed on: rows top to bottom, colour exchange on.
//!
//! `cargo bench -p kifudex-bench --bench pattern -- --warm-up-time 1 --measurement-time 3`
//!
//! Each timing is one whole search: the pattern compiled, every block of games narrowed,
//! the candidate games decided from their first stones or replayed, hits, continuations
//! and classes counted. `scripts/bench-pattern.sh INDEX` times the same searches through
//! the command line on any index (a million-game collection too).

mod common;
use common::fox_pro_index;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use kifudex::pattern::{search, PatternData, PatternRequest};
use kifudex_core::index_file::IndexFile;

/// (name, rows, area) as in the table.
const PATTERNS: [(&str, &str, &str); 6] = [
    (
        "7x7_NW",
        "......./......./...X.../..X..../..O..../......./.......",
        "0,0,0,0",
    ),
    ("4x4_NW_wildcards", "..../..../..X*/..*O", "0,0,0,0"),
    ("5x5_N", "...../...../X.O.X/...../.....", "1,0,13,0"),
    ("3x3_C_empty_triangle", "XX./X../...", "1,1,15,15"),
    ("3x3_ANY_empty_triangle", "XX./X../...", "0,0,18,18"),
    ("3x3_C_XO", "XO./.X./...", "1,1,15,15"),
];

fn bench(c: &mut Criterion) {
    let bytes = fox_pro_index();
    let file = IndexFile::open(&bytes).expect("open");
    let index = file.index.clone();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    let pidx = &file.pattern;
    let h = file.pattern_header();
    let len = h.bytes();
    eprintln!(
        "fox_pro: {} games, pattern data {len} bytes ({:.1} per game)",
        index.game_count(),
        len as f64 / index.game_count() as f64
    );
    let mut group = c.benchmark_group("pattern_fox_pro_1_thread");
    group.sample_size(10);
    for (name, rows, area) in PATTERNS {
        let req = PatternRequest::parse(rows, Some(area), false).expect("pattern");
        let r = pool.install(|| search(&index, pidx, &req));
        eprintln!("{name}: {} hits in {} games", r.hits, r.games);
        group.bench_function(name, |b| {
            b.iter(|| pool.install(|| black_box(search(&index, pidx, &req))))
        });
    }
    // What a fresh computation from the stored games costs (the tests' independent check;
    // the build notes the same data during its own replay).
    group.bench_function("pattern_data", |b| {
        b.iter(|| pool.install(|| black_box(PatternData::compute(&index))))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
