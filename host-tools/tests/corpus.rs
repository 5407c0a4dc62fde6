//! Reads the whole real corpus (`../shared/corpus`): no panic, per-folder counts, checked against
//! independent counts. Run with `cargo test -p kifudex --release --test corpus -- --nocapture`.

use kifudex::input::collect_sources;
use kifudex::sgf::{parse_file, Event};
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

/// Deliberately simple: `;B[` / `;W[` tokens in a file with a single `(` and no `\`.
fn simple_moves(b: &[u8]) -> Option<usize> {
    if b.iter().filter(|&&c| c == b'(').count() != 1 || b.contains(&b'\\') {
        return None;
    }
    Some(
        b.windows(3)
            .filter(|w| w[0] == b';' && (w[1] == b'B' || w[1] == b'W') && w[2] == b'[')
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
        let p = parse_file(&s.bytes, &s.path, s.member.as_deref());
        for r in &p.rejected {
            *c.rejected.entry(r.kind.name()).or_default() += 1;
        }
        for w in &p.warnings {
            *c.warnings.entry(w.kind.name()).or_default() += 1;
        }
        for g in &p.games {
            c.games += 1;
            let m = g
                .events
                .iter()
                .filter(|e| matches!(e, Event::Move { .. }))
                .count();
            c.moves += m;
            for w in &g.warnings {
                *c.warnings.entry(w.kind.name()).or_default() += 1;
            }
        }
        if p.games.len() == 1 {
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

#[test]
fn fox_pro() {
    let c = count("fox_pro");
    assert_eq!(c.files, 10_348);
    assert!(c.simple_mismatch.is_empty(), "{:?}", c.simple_mismatch);
}
