//! Reads the whole real corpus (`../shared/corpus`): no panic, per-folder counts, checked against
//! independent counts. Run with `cargo test -p kifudex --release --test integration corpus:: -- --nocapture`.

use kifudex::input::collect_sources;
use kifudex::sgf::WarningKind;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

#[derive(Default, Debug)]
struct Counts {
    files: usize,
    skipped: BTreeMap<String, usize>,
    games: usize,
    moves: usize,
    rejected: BTreeMap<&'static str, usize>,
    warnings: BTreeMap<&'static str, usize>,
    /// Games whose move count matches the simple scan (files with one `(` only).
    simple_checked: usize,
    simple_mismatch: Vec<String>,
}

/// Deliberately simple: `B[`/`W[` after `;`, `]` or whitespace, in a file with a single `(`,
/// no `\\` and no comment.
fn simple_moves(b: &[u8]) -> Option<usize> {
    if b.iter().filter(|&&c| c == b'(').count() != 1
        || b.contains(&b'\\')
        || b.windows(2).any(|w| w == b"C[")
    {
        return None;
    }
    Some(
        b.windows(3)
            .filter(|w| {
                (w[0] == b';' || w[0] == b']' || w[0].is_ascii_whitespace())
                    && (w[1] == b'B' || w[1] == b'W')
                    && w[2] == b'['
            })
            .count(),
    )
}

fn count(folder: &str) -> Counts {
    let (sources, skipped) = collect_sources(&[corpus().join(folder)]);
    let mut c = Counts {
        files: sources.len(),
        ..Counts::default()
    };
    for s in skipped {
        *c.skipped.entry(s.reason.name().to_owned()).or_default() += 1;
    }
    for s in &sources {
        let p = s.parse();
        for r in &p.rejected {
            *c.rejected.entry(r.kind.name()).or_default() += 1;
        }
        for w in &p.warnings {
            *c.warnings.entry(w.kind.name()).or_default() += 1;
        }
        for g in &p.games {
            c.games += 1;
            let m = g.events.iter().filter(|e| e.is_play()).count();
            c.moves += m;
            for w in &g.warnings {
                *c.warnings.entry(w.kind.name()).or_default() += 1;
            }
        }
        let truncated_value = p.games.iter().any(|g| {
            g.warnings.iter().any(|w| {
                matches!(
                    w.kind,
                    WarningKind::UnclosedValue | WarningKind::SeveralMovesInNode
                )
            })
        });
        if p.games.len() == 1 && !truncated_value {
            if let Some(n) = simple_moves(&s.bytes) {
                c.simple_checked += 1;
                if n != p.games[0].move_count() {
                    c.simple_mismatch
                        .push(format!("{} {n} {}", s.path, p.games[0].move_count()));
                }
            }
        }
    }
    println!("{folder}: {c:#?}");
    c
}

/// (folder, source files, games, rejected games by reason).
type Expected = (&'static str, usize, usize, &'static [(&'static str, usize)]);

const EXPECTED: &[Expected] = &[
    // 10,348 files, one tree each: the 19 missing `(` and 4 truncated files (the 23 a strict parser
    // rejects) are recovered, with warnings.
    ("fox_pro", 10_348, 10_348, &[]),
    ("yenw_ai", 7_259, 7_259, &[]),
    ("aeb_9x9", 517, 517, &[]),
    ("aeb_alphago", 221, 221, &[]),
    ("gnugo_regression", 1_622, 1_622, &[("no-game-tree", 1)]),
    ("fuego_regression", 574, 575, &[]),
    // With KaTrain's `.gib` and `.ngf` files, one game each.
    (
        "tricky",
        134,
        221,
        &[("bad-size", 9), ("no-game-tree", 3), ("not-go", 8)],
    ),
    ("bgo_testsgf", 286, 286, &[]),
];

#[test]
fn every_folder() {
    let t = std::time::Instant::now();
    for &(folder, files, games, rejected) in EXPECTED {
        let c = count(folder);
        if folder != "tricky" {
            // tricky holds UTF-16 and FF[1] files the simple scan cannot read.
            assert!(
                c.simple_mismatch.is_empty(),
                "{folder}: {:?}",
                c.simple_mismatch
            );
        }
        assert_eq!((c.files, c.games), (files, games), "{folder}");
        let want: BTreeMap<&str, usize> = rejected.iter().copied().collect();
        assert_eq!(c.rejected, want, "{folder}");
    }
    println!("whole corpus read in {:?}", t.elapsed());
}

/// Parse throughput on fox_pro, single thread, files already in memory.
#[test]
fn throughput_fox_pro() {
    let (sources, _) = collect_sources(&[corpus().join("fox_pro")]);
    let bytes: usize = sources.iter().map(|s| s.bytes.len()).sum();
    let mut best = f64::MAX;
    let mut games = 0;
    for _ in 0..3 {
        let t = std::time::Instant::now();
        games = sources.iter().map(|s| s.parse().games.len()).sum::<usize>();
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "fox_pro parse: {} files, {games} games, {:.1} MB in {:.3} s: {:.0} MB/s, {:.0} games/s (single thread)",
        sources.len(),
        bytes as f64 / 1e6,
        best,
        bytes as f64 / 1e6 / best,
        games as f64 / best
    );
    assert_eq!(games, 10_348);
}
