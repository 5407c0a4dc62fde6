//! In-process search benchmarks on the fox_pro index (built once, outside the timings).
//!
//! `cargo bench -p kifudex-bench --bench search -- --warm-up-time 1 --measurement-time 3`
//!
//! Each timing includes the query board's construction from its moves (captures, the 8
//! incremental Zobrist keys), the canonical key, the lookup with exact replay verification,
//! and the next-move merge by symmetry and sort. Goals: under 5 µs per next-move search;
//! under 100 µs for the first 100 games of a position.

mod common;
use common::fox_pro_index;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use kifudex_core::index::Index;
use kifudex_core::notation::Sgf;
use kifudex_core::query::position_after;
use kifudex_core::search::MAX_CLASSES;
use kifudex_core::Event;
use kifudex_core::Size;

/// The first 60 moves of the newest 19x19 game without setup stones that has more than 60
/// moves, as a `--moves` list: a deep position found once.
fn deep_moves(idx: &Index) -> String {
    for g in 0..idx.game_count() {
        let game = idx.game(g).unwrap();
        if game.size != Size::STANDARD || game.move_count <= 60 {
            continue;
        }
        let steps: Vec<Event> = idx.events(g).collect();
        if steps.iter().any(|s| !s.is_play()) {
            continue;
        }
        let moves: Vec<String> = steps
            .iter()
            .filter_map(|s| s.play())
            .take(60)
            .map(|(_, mv)| Sgf(mv).to_string())
            .collect();
        let list = moves.join(",");
        // Alternating colours from Black (position_after's convention).
        if position_after(&list, Size::STANDARD).is_ok() {
            let (b, _) = position_after(&list, Size::STANDARD).unwrap();
            if idx.find(&b).is_some_and(|f| f.count() == 1) {
                return list;
            }
        }
    }
    panic!("no deep unique position found");
}

fn benches(c: &mut Criterion) {
    let bytes = fox_pro_index();
    let idx = Index::open(&bytes).expect("open index");
    let deep = deep_moves(&idx);

    let mut g = c.benchmark_group("search");
    for (name, moves) in [
        ("next_moves/empty", ""),
        ("next_moves/pd,dd,pp,dp", "pd,dd,pp,dp"),
        ("next_moves/deep60", deep.as_str()),
    ] {
        let (b, _) = position_after(moves, Size::STANDARD).unwrap();
        let found = idx.find(&b).expect("position in the index");
        eprintln!(
            "{name}: {} occurrences, shared: {}, {} classes",
            found.count(),
            found.shared.is_some(),
            idx.next_moves::<MAX_CLASSES>(&b, false)
                .unwrap()
                .classes()
                .len()
        );
        g.bench_function(name, |bench| {
            bench.iter(|| {
                let (board, _) = position_after(black_box(moves), Size::STANDARD).unwrap();
                let nm = idx.next_moves::<MAX_CLASSES>(&board, false).unwrap();
                black_box(nm.classes().len())
            })
        });
    }
    g.bench_function("games100/pd,dd,pp,dp", |bench| {
        bench.iter(|| {
            let (board, _) = position_after(black_box("pd,dd,pp,dp"), Size::STANDARD).unwrap();
            let found = idx.find(&board).unwrap();
            let mut n = 0usize;
            for o in idx.occurrences(&found).take(100) {
                let game = idx.game(o.game).unwrap();
                n += game.black.len() + o.move_number as usize;
            }
            black_box(n)
        })
    });
    g.bench_function("find/deep60", |bench| {
        let (board, _) = position_after(&deep, Size::STANDARD).unwrap();
        bench.iter(|| black_box(idx.find(black_box(&board))))
    });
    g.bench_function("board/deep60", |bench| {
        bench.iter(|| black_box(position_after(black_box(&deep), Size::STANDARD).unwrap()))
    });
    g.finish();
}

criterion_group!(search, benches);
criterion_main!(search);
