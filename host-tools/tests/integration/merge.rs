//! `kifudex merge` and `kifudex add` give, byte for byte, the index of one `build` of all
//! the inputs in the same order (the indexes' inputs first), on real corpus folders split
//! several ways, with duplicates across the parts.

use std::path::{Path, PathBuf};

use kifudex::indexing::{add, build, merge, BuildOptions};

fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(rel)
}

fn assert_same(a: &[u8], b: &[u8], what: &str) {
    assert!(
        a == b,
        "{what}: {} vs {} bytes, first difference at {:?}",
        a.len(),
        b.len(),
        a.iter().zip(b).position(|(x, y)| x != y)
    );
}

fn build_to(paths: &[PathBuf], out: &Path, max_moves: Option<u32>) -> Vec<u8> {
    let opts = BuildOptions {
        max_moves,
        ..BuildOptions::default()
    };
    build(paths, out, &opts).unwrap();
    std::fs::read(out).unwrap()
}

/// Each part built alone, then merged, and the first part added to with the others'
/// inputs: both equal one build of all the parts' inputs in order.
fn check(parts: &[Vec<PathBuf>], max_moves: Option<u32>) {
    let dir = tempfile::tempdir().unwrap();
    let all: Vec<PathBuf> = parts.concat();
    let whole = build_to(&all, &dir.path().join("whole.kdx"), max_moves);
    let shards: Vec<PathBuf> = parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let out = dir.path().join(format!("part{i}.kdx"));
            build_to(p, &out, max_moves);
            out
        })
        .collect();
    let merged = dir.path().join("merged.kdx");
    merge(&shards, &merged, false).unwrap();
    assert_same(&std::fs::read(&merged).unwrap(), &whole, "merge");
    let rest: Vec<PathBuf> = parts[1..].concat();
    let report = add(&shards[0], &rest, false).unwrap();
    assert_same(&std::fs::read(&shards[0]).unwrap(), &whole, "add");
    // (None of these crosses a width: the add took its one pass.)
    let how = report.added.unwrap_or_default();
    assert!(how.starts_with("incrementally"), "{how}");
}

#[test]
fn folders_split_in_two() {
    let a = ["Go_Seigen", "Minigo", "Misc"].map(|d| corpus(&format!("aeb_9x9/{d}")));
    let b = ["NHK", "ProPairgo", "computer"].map(|d| corpus(&format!("aeb_9x9/{d}")));
    check(&[a.to_vec(), b.to_vec()], None);
}

/// The 75 games in both fox_pro and yenw_ai (and each collection's own repeats) are left
/// out as a build of both leaves them out.
#[test]
fn duplicates_across_the_parts() {
    check(&[vec![corpus("fox_pro")], vec![corpus("yenw_ai")]], None);
}

/// An archive, a folder, the same folder again, with --max-moves: three shards.
#[test]
fn three_shards_with_max_moves() {
    check(
        &[
            vec![corpus("bgo_testsgf/TestSGF.tgz")],
            vec![corpus("aeb_alphago")],
            vec![corpus("aeb_alphago/LeeSedol"), corpus("fuego_regression")],
        ],
        Some(30),
    );
}

#[test]
fn indexes_built_with_other_options_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.kdx");
    let b = dir.path().join("b.kdx");
    build_to(&[corpus("aeb_9x9/NHK")], &a, None);
    build_to(&[corpus("aeb_9x9/Misc")], &b, Some(20));
    let err = merge(&[a, b], &dir.path().join("c.kdx"), false).unwrap_err();
    assert!(err.to_string().contains("other options"), "{err}");
}
