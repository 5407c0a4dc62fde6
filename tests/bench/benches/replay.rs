//! Replaying every main line of `../shared/corpus/fox_pro` with captures, on [`Board`] and
//! on [`Replay<1024>`] with [`Rules::RECORD`] (the boards keep all 8 bGo hashes and all 8
//! Zobrist keys up to date). Parsing happens once, outside the timing.
//!
//! `cargo bench -p kifudex-bench --bench replay -- --warm-up-time 1 --measurement-time 5`
//!
//! Measured on the 2-core shared dev machine (10,348 main lines, 2,059,289 moves):
//! `Board` about 18 M moves/s (115 ms for the whole set), `Replay<1024>` about 16.7 M
//! moves/s (123 ms).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use kifudex::input::collect_sources;
use kifudex_core::{Board, Color, Event, Move, Point, Replay, Rules, Size, Stone};

/// One main line: its board size, setup stones and moves.
struct Line {
    size: Size,
    setup: Vec<(Point, Stone)>,
    moves: Vec<(Color, Move)>,
}

fn load() -> Vec<Line> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fox_pro");
    let (sources, _) = collect_sources(&[dir]);
    let mut lines = Vec::new();
    for s in &sources {
        for g in s.parse().games {
            let mut line = Line {
                size: g.size,
                setup: Vec::new(),
                moves: Vec::new(),
            };
            for e in &g.events {
                match *e {
                    // Setup after the first move is rare; keep the initial setup only.
                    Event::Setup { point, stone } if line.moves.is_empty() => {
                        line.setup.push((point, stone))
                    }
                    Event::Setup { .. } => {}
                    Event::Play { color, mv } => line.moves.push((color, mv)),
                }
            }
            lines.push(line);
        }
    }
    lines
}

fn bench(c: &mut Criterion) {
    let lines = load();
    let total: usize = lines.iter().map(|l| l.moves.len()).sum();
    eprintln!("fox_pro: {} main lines, {total} moves", lines.len());
    let mut group = c.benchmark_group("replay_fox_pro");
    group.throughput(Throughput::Elements(total as u64));
    group.sample_size(10);
    group.bench_function("board_record_rules", |b| {
        b.iter(|| {
            let mut acc = 0i64;
            for l in &lines {
                let mut board = Board::with_rules(l.size, Rules::RECORD);
                for &(p, s) in &l.setup {
                    let _ = board.set_stone(p, s);
                }
                for &(c, m) in &l.moves {
                    // Illegal (occupied) moves of broken records are skipped.
                    let _ = black_box(board.play(c, m));
                }
                acc = acc.wrapping_add(board.bgo_hashes().0[0]);
                acc ^= board.keys().0[7] as i64;
            }
            black_box(acc)
        })
    });
    group.bench_function("replay1024_record_rules", |b| {
        b.iter(|| {
            let mut acc = 0i64;
            for l in &lines {
                let mut r = Replay::<1024>::with_rules(l.size, Rules::RECORD);
                for &(p, s) in &l.setup {
                    let _ = r.set_stone(p, s);
                }
                for &(c, m) in &l.moves {
                    let _ = black_box(r.play(c, m));
                }
                acc = acc.wrapping_add(r.board().bgo_hashes().0[0]);
                acc ^= r.len() as i64;
            }
            black_box(acc)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
