//! Every fuzz target's seed corpus and past crashes, replayed on stable Rust: each file of
//! `fuzz/corpus/<target>/` and `fuzz/regressions/<target>/` is fed to the function the
//! libFuzzer target calls (`kifudex_tests::fuzz`), which checks its invariants. Run with
//! `cargo test --release -p kifudex-tests --test integration fuzz_replay::`.

use std::path::{Path, PathBuf};

use kifudex_tests::fuzz::TARGETS;

fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    out.sort();
    out
}

#[test]
fn corpora_and_regressions_replay() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut total = 0;
    for (name, body) in TARGETS {
        assert!(
            root.join("fuzz_targets")
                .join(format!("{name}.rs"))
                .is_file(),
            "no fuzz target {name}"
        );
        let seeds = files(&root.join("corpus").join(name));
        assert!(!seeds.is_empty(), "{name}: no seed corpus");
        let crashes = files(&root.join("regressions").join(name));
        for f in seeds.iter().chain(&crashes) {
            let bytes = std::fs::read(f).unwrap();
            // A panic names the file that caused it.
            let run = std::panic::catch_unwind(|| body(&bytes));
            assert!(run.is_ok(), "{name}: {} fails", f.display());
        }
        eprintln!(
            "fuzz_replay: {name}: {} seeds, {} regressions",
            seeds.len(),
            crashes.len()
        );
        total += seeds.len() + crashes.len();
    }
    assert!(total >= TARGETS.len());
}
