//! The committed golden index and book (`core/tests/data/`) are exactly what this machine's
//! writer produces from the committed source games. The core's `format_golden` test reads
//! the same files on every target (x86_64, big-endian s390x, 32-bit i686), so together they
//! show that the writer and the readers agree byte for byte across machines.
//!
//! To regenerate after an intended format change: `KIFUDEX_BLESS=1 cargo test -p kifudex
//! --test integration golden::`, then review the diff of `core/tests/integration/format_golden.rs`'s answers.

use std::path::{Path, PathBuf};

use kifudex::indexing::{build, BuildOptions, Profile};

/// Relative to this package's directory (the working directory of its tests), so that the
/// file paths stored in the index do not depend on where the repository is checked out.
const SOURCES: &str = "../core/tests/data/golden_src";
const GOLDEN_INDEX: &str = "../core/tests/data/golden.kdx";
const GOLDEN_BOOK: &str = "../core/tests/data/golden.kdb";

fn check(profile: Profile, golden: &str) {
    assert_eq!(
        std::env::current_dir().unwrap(),
        Path::new(env!("CARGO_MANIFEST_DIR")),
        "the golden test must run in the package directory"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let opts = BuildOptions {
        profile,
        ..BuildOptions::default()
    };
    let report = build(&[PathBuf::from(SOURCES)], &out, &opts).unwrap();
    assert_eq!(report.games_read, 10);
    assert_eq!(report.collisions, 0);
    let built = std::fs::read(&out).unwrap();
    if std::env::var_os("KIFUDEX_BLESS").is_some() {
        std::fs::write(golden, &built).unwrap();
    }
    let committed = std::fs::read(golden).unwrap();
    assert!(
        built == committed,
        "{golden}: the writer's output ({} bytes) differs from the committed golden ({} bytes); \
         first difference at byte {:?}",
        built.len(),
        committed.len(),
        built.iter().zip(&committed).position(|(a, b)| a != b)
    );
}

#[test]
fn golden_index_is_rebuilt_byte_identical() {
    check(Profile::Desktop, GOLDEN_INDEX);
}

#[test]
fn golden_book_is_rebuilt_byte_identical() {
    check(Profile::Mcu, GOLDEN_BOOK);
}
