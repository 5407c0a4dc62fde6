//! What reading the players' ranks at query time costs: one pass over every game of an
//! index reading its row (`Index::game`, what any filter of the games already does), and the
//! same pass reading both ranks too (`GameRanks::of`) and testing them against a range.
//!
//! `cargo bench -p kifudex-bench --bench ranks -- [INDEX]` (without an index, fox_pro is built
//! in a temporary folder). Prints the best of 5 passes of each, per game.

mod common;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use kifudex::rank::{GameRanks, Rank, RankRange};
use kifudex_core::index::Index;

fn best_of<T>(n: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut out = None;
    for _ in 0..n {
        let t = Instant::now();
        let v = f();
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(v);
    }
    (best, out.expect("one pass"))
}

fn main() {
    let arg = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let dir = tempfile::tempdir().expect("tempdir");
    let path = match arg {
        Some(p) => PathBuf::from(p),
        None => common::build_fox_pro(dir.path()),
    };
    let bytes = kifudex::mapped::map_file(&path).expect("the index");
    let t = Instant::now();
    let index = Index::open(&bytes).expect("an index");
    let open = t.elapsed().as_secs_f64();
    let n = index.game_count();
    let range = RankRange {
        min: Rank::parse("1d"),
        max: Rank::parse("9d"),
    };
    let (rows, moves) = best_of(5, || {
        (0..n)
            .filter_map(|g| index.game(g))
            .map(|g| g.move_count as u64)
            .sum::<u64>()
    });
    let (ranked, kept) = best_of(5, || {
        (0..n)
            .filter_map(|g| index.game(g))
            .filter(|g| range.accepts(&GameRanks::of(black_box(g))))
            .count()
    });
    let (parse_only, known) = best_of(5, || {
        (0..n)
            .filter_map(|g| index.game(g))
            .map(|g| Rank::parse(black_box(g.black_rank)).is_some() as usize)
            .sum::<usize>()
    });
    let ns = |s: f64| s * 1e9 / n.max(1) as f64;
    println!(
        "{}: {n} games ({moves} moves), opened in {:.3} ms",
        path.display(),
        open * 1e3
    );
    println!(
        "rows only:          {:.3} s, {:.1} ns a game",
        rows,
        ns(rows)
    );
    println!(
        "rows + both ranks:  {:.3} s, {:.1} ns a game ({kept} games with both players 1d-9d)",
        ranked,
        ns(ranked)
    );
    println!(
        "rows + Black's rank: {:.3} s, {:.1} ns a game ({known} with Black's rank known)",
        parse_only,
        ns(parse_only)
    );
}
