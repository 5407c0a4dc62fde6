//! Duplicate games (`docs/CONTRACTS.md`, `kifudex build`): a game whose setup and main line equal those
//! of a game read earlier is left out and counted, unless `--keep-duplicates` is given.
//! Real corpus files given twice, synthetic games that differ in one thing, and the CLI's
//! summary.

use std::path::{Path, PathBuf};
use std::process::Command;

use kifudex::indexing::{build, build_in_memory, BuildOptions, BuildReport};
use kifudex::input::Source;
use kifudex_core::index::Index;

fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(rel)
}

fn build_paths(paths: &[PathBuf], keep_duplicates: bool) -> (Vec<u8>, BuildReport) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.kdx");
    let opts = BuildOptions {
        keep_duplicates,
        ..BuildOptions::default()
    };
    let report = build(paths, &out, &opts).unwrap();
    (std::fs::read(&out).unwrap(), report)
}

fn games(bytes: &[u8]) -> u64 {
    Index::open(bytes).unwrap().header().games
}

/// Given twice, an input's second reading is left out whole: the index is the one built
/// from a single reading, byte for byte; with `--keep-duplicates` it holds every game twice.
fn check_given_twice(input: PathBuf) {
    let (once, r1) = build_paths(std::slice::from_ref(&input), false);
    let twice_paths = [input.clone(), input];
    let (twice, r2) = build_paths(&twice_paths, false);
    assert!(once == twice, "the second reading changed the index");
    assert_eq!(r2.games_read, 2 * r1.games_read);
    assert_eq!(r2.duplicates, r1.duplicates + r1.games_read);
    assert_eq!(games(&once), (r1.games_read - r1.duplicates) as u64);
    let (kept, r3) = build_paths(&twice_paths, true);
    assert_eq!(r3.duplicates, 0);
    assert_eq!(games(&kept), 2 * r1.games_read as u64);
}

#[test]
fn an_archive_given_twice() {
    check_given_twice(corpus("bgo_testsgf/TestSGF.tgz"));
}

#[test]
fn a_folder_given_twice() {
    check_given_twice(corpus("aeb_9x9"));
}

fn source(path: &str, text: &str) -> Source {
    Source {
        path: path.into(),
        member: None,
        bytes: text.as_bytes().to_vec(),
    }
}

/// Only the board size, the setup and the main line decide: properties, comments and
/// variations do not; one move, one setup stone or the size does.
#[test]
fn what_makes_a_duplicate() {
    let first = "(;GM[1]SZ[19]PB[A]PW[B]DT[2001];B[pd];W[dp](;B[pp])(;B[dd]))";
    let cases = [
        // (game, is a duplicate of `first`)
        (
            "(;GM[1]SZ[19]PB[C]RE[W+R]DT[1999]C[x];B[pd];W[dp];B[pp])",
            true,
        ),
        ("(;GM[1]SZ[19];B[pd];W[dp];B[pp];W[dd])", false),
        ("(;GM[1]SZ[19];B[pd];W[dp])", false),
        ("(;GM[1]SZ[19]AB[aa];B[pd];W[dp];B[pp])", false),
        ("(;GM[1]SZ[19];B[pd];W[dp];AB[aa];B[pp])", false),
        ("(;GM[1]SZ[18];B[pd];W[dp];B[pp])", false),
    ];
    for (text, duplicate) in cases {
        let sources = vec![source("a.sgf", first), source("b.sgf", text)];
        let (bytes, report) = build_in_memory(sources, &[], &BuildOptions::default()).unwrap();
        assert_eq!(report.duplicates, duplicate as usize, "{text}");
        assert_eq!(games(&bytes), 2 - duplicate as u64, "{text}");
        assert_eq!(report.games_read, 2);
    }
    // The first reading is kept, whatever the dates say; a file's own repeats count too.
    let sources = vec![
        source(
            "z.sgf",
            "(;GM[1]SZ[9]DT[1990];B[ee])(;GM[1]SZ[9]DT[1991];B[ee])",
        ),
        source("a.sgf", "(;GM[1]SZ[9]DT[2020];B[ee])"),
    ];
    let (bytes, report) = build_in_memory(sources, &[], &BuildOptions::default()).unwrap();
    assert_eq!(report.duplicates, 2);
    let index = Index::open(&bytes).unwrap();
    assert_eq!(index.game_count(), 1);
    assert_eq!(index.game(0).unwrap().path, "z.sgf");
    assert_eq!(index.game(0).unwrap().tree, 0);
    assert_eq!(
        report.duplicate_examples,
        [
            "z.sgf (game 2), same as z.sgf (game 1)",
            "a.sgf (game 1), same as z.sgf (game 1)"
        ]
    );
}

/// The summary counts and names them.
#[test]
fn the_summary_names_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let f = corpus("aeb_9x9/NHK");
    let out = Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .arg("build")
        .args([&f, &f])
        .arg("-o")
        .arg(dir.path().join("out.kdx"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stderr);
    let line = text
        .lines()
        .find(|l| l.contains("duplicates left out:"))
        .unwrap_or_else(|| panic!("no duplicates in the summary:\n{text}"));
    assert!(line.contains("NHK"), "{line}");
    assert!(line.contains(", same as "), "{line}");
}
