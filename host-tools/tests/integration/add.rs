//! `kifudex add` (incremental: one pass over the old index, `host-tools/src/build/add/`)
//! gives, byte for byte, the index of one `build` of the old index's inputs followed by
//! the new ones, on real corpus games: new games dated before, between and after the old
//! ones, duplicates of old games and among the new, positions that become shared, an
//! empty add; and the cases it hands to a full rebuild (a width that grows, an old index
//! holding duplicates) give the same bytes too. The report says which path was taken.

use std::path::{Path, PathBuf};

use kifudex::indexing::{add, build, BuildOptions, BuildReport};
use kifudex_core::board::Board;
use kifudex_core::format::{Container, Kind, Section};
use kifudex_core::index::{Index, IndexHeader};

fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(rel)
}

fn nine(dirs: &[&str]) -> Vec<PathBuf> {
    dirs.iter()
        .map(|d| corpus(&format!("aeb_9x9/{d}")))
        .collect()
}

fn sections(h: &IndexHeader) -> [(&'static str, Section); 16] {
    [
        ("games", h.games_section),
        ("game_moves", h.game_moves),
        ("game_setup", h.game_setup),
        ("string_index", h.string_index),
        ("strings", h.strings),
        ("moves", h.moves),
        ("setup", h.setup),
        ("occurrences", h.occurrences_section),
        ("buckets", h.buckets),
        ("shared_keys", h.shared_keys),
        ("shared_starts", h.shared_starts),
        ("shared_counts", h.shared_counts),
        ("shared_next", h.shared_next),
        ("next", h.next),
        ("next_black", h.next_black),
        ("next_white", h.next_white),
    ]
}

/// The sections in which two indexes differ (for the failure message).
fn differences(a: &[u8], b: &[u8]) -> Vec<String> {
    let (Ok(ia), Ok(ib)) = (Index::open(a), Index::open(b)) else {
        return vec!["one does not open".into()];
    };
    let body = |f| Container::open_structure(f, Kind::Index).unwrap().body;
    let (ba, bb) = (body(a), body(b));
    let part =
        |body: &[u8], s: Section| body[s.offset as usize..(s.offset + s.len) as usize].to_vec();
    sections(ia.header())
        .into_iter()
        .zip(sections(ib.header()))
        .filter(|((_, x), (_, y))| x != y || part(ba, *x) != part(bb, *y))
        .map(|((n, x), (_, y))| format!("{n}: {x:?} vs {y:?}"))
        .collect()
}

fn assert_same(got: &[u8], want: &[u8], what: &str) {
    assert!(
        got == want,
        "{what}: {} vs {} bytes; sections that differ: {:?}",
        got.len(),
        want.len(),
        differences(got, want)
    );
}

fn build_to(paths: &[PathBuf], out: &Path, keep_duplicates: bool) -> Vec<u8> {
    let opts = BuildOptions {
        keep_duplicates,
        ..BuildOptions::default()
    };
    build(paths, out, &opts).unwrap();
    std::fs::read(out).unwrap()
}

/// The old index (built from `old`), the index `add` made of it with `new`, the index one
/// build of both gives, and the add's report; asserts that the two are the same bytes,
/// that the result verifies, and that the add took the path `incremental` says.
struct Added {
    old: Vec<u8>,
    added: Vec<u8>,
    report: BuildReport,
}

fn add_and_compare(old: &[PathBuf], new: &[PathBuf], incremental: bool) -> Added {
    add_and_compare_with(old, new, incremental, false)
}

fn add_and_compare_with(
    old: &[PathBuf],
    new: &[PathBuf],
    incremental: bool,
    old_keeps_duplicates: bool,
) -> Added {
    let dir = tempfile::tempdir().unwrap();
    let all: Vec<PathBuf> = old.iter().chain(new).cloned().collect();
    let whole = build_to(&all, &dir.path().join("whole.kdx"), false);
    let index = dir.path().join("old.kdx");
    let old_bytes = build_to(old, &index, old_keeps_duplicates);
    let report = add(&index, new, false).unwrap();
    let added = std::fs::read(&index).unwrap();
    assert_same(&added, &whole, "add");
    kifudex_core::index_file::IndexFile::open_verified(&added).unwrap();
    let how = report.added.clone().unwrap_or_default();
    assert_eq!(
        how.starts_with("incrementally"),
        incremental,
        "the add went {how}"
    );
    assert!(report.summary().contains(&how), "{}", report.summary());
    Added {
        old: old_bytes,
        added,
        report,
    }
}

/// The kept fingerprint bits (bucket and stored bits) of an index.
fn kept_bits(bytes: &[u8]) -> u8 {
    let h = Index::open(bytes).unwrap().header().clone();
    h.bucket_bits + h.rem_bits
}

/// New 9x9 games dated after, between and before the old ones go to their places in the
/// game order (newest first); the old occurrences' move numbers shift past them.
#[test]
fn new_games_before_between_and_after_the_old() {
    let old = nine(&["Minigo", "NHK"]);
    let new = nine(&["Go_Seigen", "Misc", "ProPairgo", "computer"]);
    let a = add_and_compare(&old, &new, true);
    let idx = Index::open(&a.added).unwrap();
    let is_old = |id: u32| {
        let p = idx.game(id).unwrap().path;
        ["NHK", "Minigo"]
            .iter()
            .any(|d| p.contains(&format!("/{d}/")))
    };
    let kinds: Vec<bool> = (0..idx.game_count()).map(is_old).collect();
    let first_old = kinds.iter().position(|&o| o).unwrap();
    let last_old = kinds.iter().rposition(|&o| o).unwrap();
    assert!(first_old > 0, "no new game before the old ones");
    assert!(
        kinds[first_old..last_old].iter().any(|&o| !o),
        "no new game between old ones"
    );
    // Older than every dated old game (the undated ones, date 0, come last).
    let date = |id: u32| idx.game(id).unwrap().date_key;
    let oldest = (0..idx.game_count())
        .filter(|&id| kinds[id as usize] && date(id) > 0)
        .map(date)
        .min()
        .unwrap();
    assert!(
        (0..idx.game_count()).any(|id| !kinds[id as usize] && (1..oldest).contains(&date(id))),
        "no new game older than the old ones"
    );
}

/// New games equal to old ones, and repeated among the new inputs, are left out and
/// counted as a build leaves them out (fox_pro and yenw_ai share 75 games; yenw_ai given
/// twice repeats all of its own).
#[test]
fn duplicates_of_old_games_and_among_the_new() {
    let new = vec![corpus("yenw_ai"), corpus("yenw_ai")];
    let a = add_and_compare(&[corpus("fox_pro")], &new, true);
    // The report counts what a full rebuild counts.
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("old.kdx");
    build_to(&[corpus("fox_pro")], &index, false);
    let r = kifudex::indexing::add_by_rebuild(&index, &new, false).unwrap();
    assert_same(&std::fs::read(&index).unwrap(), &a.added, "full rebuild");
    assert!(r.duplicates > 7000, "{}", r.duplicates);
    assert_eq!(a.report.duplicates, r.duplicates);
    assert_eq!(a.report.games_read, r.games_read);
    assert_eq!(a.report.games_indexed, r.games_indexed);
    assert_eq!(a.report.occurrences, r.occurrences);
    assert_eq!(a.report.positions, r.positions);
    assert_eq!(a.report.verified_positions, r.verified_positions);
}

/// Positions seen fewer than `shared_min` times in the old index and at least that often
/// with the new games get next moves of their own (from their old occurrences' moves and
/// the new ones'); positions the old index shared add the new counts.
#[test]
fn positions_that_become_shared() {
    let new = nine(&["Go_Seigen", "Misc", "ProPairgo", "computer"]);
    let a = add_and_compare(&nine(&["Minigo", "NHK"]), &new, true);
    let (old, new) = (Index::open(&a.old).unwrap(), Index::open(&a.added).unwrap());
    let (mut became, mut grew) = (0, 0);
    for id in 0..new.game_count() {
        for m in 0..12 {
            let Some(board): Option<Board> = new.position(id, m) else {
                break;
            };
            let (Some(n), Some(o)) = (new.find(&board), old.find(&board)) else {
                continue;
            };
            if n.shared.is_some() && o.shared.is_none() {
                became += 1;
            }
            if n.shared.is_some() && o.shared.is_some() && n.count() > o.count() {
                grew += 1;
            }
        }
    }
    assert!(became > 0 && grew > 0, "became {became}, grew {grew}");
}

/// Adding nothing leaves the index as it was (one build of its own inputs).
#[test]
fn an_empty_add() {
    let a = add_and_compare(&nine(&["NHK", "Misc"]), &[], true);
    assert_same(&a.added, &a.old, "empty add");
    assert_eq!(
        a.report.occurrences,
        Index::open(&a.old).unwrap().header().occurrences
    );
}

/// An add whose games make the occurrence records keep more fingerprint bits than the
/// old index has (the moves cross 2^14: the record grows from 24 to 32 bits) cannot
/// re-encode the old occurrences: it rebuilds, with the same bytes.
#[test]
fn a_width_crossing_add_rebuilds() {
    let old = nine(&["NHK", "ProPairgo"]);
    let a = add_and_compare(&old, &nine(&["Minigo", "Misc"]), false);
    assert!(kept_bits(&a.added) > kept_bits(&a.old));
    assert!(a.report.added.unwrap().contains("fingerprint bits"));
}

/// An old index built with `--keep-duplicates` holds games a build without it leaves
/// out: the add rebuilds, leaving them out.
#[test]
fn an_index_with_duplicates_rebuilds() {
    let old = nine(&["NHK", "NHK"]);
    let a = add_and_compare_with(&old, &nine(&["Misc"]), false, true);
    assert!(a.report.added.unwrap().contains("duplicate"));
}

/// A damaged old index (one byte of its occurrences changed, so its body's checksum no
/// longer matches) is refused with its name, and left as it was: nothing of it goes into
/// a new index unnoticed.
#[test]
fn a_damaged_index_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("old.kdx");
    let mut bytes = build_to(&nine(&["NHK"]), &index, false);
    let h = Index::open(&bytes).unwrap().header().clone();
    let body_start = bytes.len()
        - Container::open_structure(&bytes, Kind::Index)
            .unwrap()
            .body
            .len();
    bytes[body_start + h.occurrences_section.offset as usize + 3] ^= 0x10;
    std::fs::write(&index, &bytes).unwrap();
    let err = add(&index, &nine(&["Misc"]), false).unwrap_err();
    let text = format!("{err:#}");
    assert!(
        text.contains("old.kdx") && text.contains("not a valid index"),
        "{text}"
    );
    assert_eq!(std::fs::read(&index).unwrap(), bytes);
}
