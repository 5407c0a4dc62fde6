//! The pattern search's sections stored in the index (`docs/FORMAT.md`, "Pattern search
//! data"): written by the build from the summaries its own replay notes, they equal what a
//! fresh computation from the index's stored games gives (`PatternData::compute`, a replay
//! of its own, on a board without hashes), on every real game of several corpus folders
//! (19x19 professional and AI games with captures and handicaps, regression positions with
//! setup stones, 9x9 games that pattern search does not read); and hostile sections
//! (correct checksums) are refused by `verify`, while whatever a structural open accepts
//! can be searched without a panic.

use std::path::{Path, PathBuf};

use kifudex::build::{build_in_memory, BuildOptions};
use kifudex::explore::pattern::counts;
use kifudex::input::collect_sources;
use kifudex::pattern::{PatternData, PatternRequest};
use kifudex_core::format::{align8, Container, Kind};
use kifudex_core::index_file::{IndexFile, IndexFileHeader};
use kifudex_core::pattern::accel::BLOCK_WORDS;
use kifudex_core::pattern::corner::GAME_CORNER_BYTES;

use super::sealed::{self, get_bits, set_bits};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

/// An index of `folders` of the corpus, built in memory.
fn build(folders: &[&str]) -> Vec<u8> {
    let paths: Vec<PathBuf> = folders.iter().map(|f| corpus().join(f)).collect();
    let (sources, skipped) = collect_sources(&paths);
    build_in_memory(sources, &skipped, &BuildOptions::default())
        .unwrap()
        .0
}

/// Every game's stored summary and removals equal a fresh computation's.
fn assert_stored_equals_fresh(file: &IndexFile) {
    let (index, stored, header) = (&file.index, &file.pattern, file.pattern_header());
    let data = PatternData::compute(index);
    let fresh = data.open(index).unwrap();
    assert_eq!(stored.game_count(), index.game_count());
    assert_eq!(stored.block_count(), fresh.block_count());
    assert_eq!(header.games, data.header.games);
    for (s, f) in [
        (&header.blocks, &data.header.blocks),
        (&header.corners, &data.header.corners),
        (&header.removals, &data.header.removals),
        (&header.removal_starts, &data.header.removal_starts),
    ] {
        assert_eq!(
            (s.count, s.width_bits, s.len),
            (f.count, f.width_bits, f.len)
        );
    }
    for g in 0..index.game_count() {
        assert_eq!(
            stored.packed_summary(g),
            fresh.packed_summary(g),
            "game {g}"
        );
        assert_eq!(stored.summary(g), fresh.summary(g), "game {g}");
        assert!(stored.removals_of(g).eq(fresh.removals_of(g)), "game {g}");
    }
}

#[test]
fn stored_sections_equal_a_fresh_computation() {
    let folders = [
        "fox_pro",
        "aeb_9x9",
        "gnugo_regression",
        "fuego_regression",
        "tricky",
    ];
    let bytes = build(&folders);
    let file = IndexFile::open_verified(&bytes).unwrap();
    let (index, pattern) = (&file.index, &file.pattern);
    let searched = (0..index.game_count())
        .filter(|&g| pattern.summary(g).searched)
        .count();
    let removed: usize = (0..index.game_count())
        .map(|g| pattern.removals_of(g).count())
        .sum();
    let late_setup = (0..index.game_count())
        .filter(|&g| pattern.summary(g).corners.iter().any(|c| c.late_setup))
        .count();
    eprintln!(
        "{} games, {searched} searched, {removed} removed stones, {late_setup} with late setup",
        index.game_count()
    );
    assert!(searched > 10_000 && searched < index.game_count() as usize);
    assert!(removed > 100_000 && late_setup > 0);
    assert_stored_equals_fresh(&file);
}

/// A small index of real 19x19 games with captures and handicap stones.
fn small() -> Vec<u8> {
    build(&["gnugo_regression"])
}

fn split(file: &[u8]) -> (IndexFileHeader, Vec<u8>) {
    let c = Container::open(file, Kind::Index).unwrap();
    (postcard::from_bytes(c.header).unwrap(), c.body.to_vec())
}

fn seal(header: &IndexFileHeader, body: &[u8]) -> Vec<u8> {
    sealed::seal(Kind::Index, &postcard::to_allocvec(header).unwrap(), body)
}

/// Searches that read every kind of record (blocks, corner logs, removals, moves).
fn exercise(file: &IndexFile) {
    for (rows, area) in [
        (
            "......./......./...X.../..X..../..O..../......./.......",
            "0,0,0,0",
        ),
        ("..../..../..X*/..*O", "0,0,0,0"),
        ("XX./X../...", "0,0,18,18"),
        ("XO./.X./...", "1,1,15,15"),
        ("...", "0,0,18,18"),
    ] {
        let req = PatternRequest::parse(rows, Some(area), false).unwrap();
        let _ = counts(&file.index, &file.pattern, &req);
    }
}

#[test]
fn hostile_pattern_sections_are_refused() {
    let file = small();
    let (h0, _) = split(&file);
    let good = IndexFile::open_verified(&file).unwrap();
    let games = good.index.game_count() as u64;
    // A game with removals, and the first searched game with a stone in its top-left box.
    let with_removals = (0..games as u32)
        .find(|&g| good.pattern.removals_of(g).next().is_some())
        .unwrap() as u64;
    let corner_game = (0..games as u32)
        .find(|&g| good.pattern.summary(g).corners[0].count > 0)
        .unwrap() as u64;
    let removal_at = get_bits(
        &split(&file).1,
        &h0.pattern.removal_starts,
        with_removals,
        0,
        h0.pattern.removal_starts.width_bits,
    );
    let corner_byte = (h0.pattern.corners.offset + corner_game * GAME_CORNER_BYTES as u64) as usize;
    let tail = games % 64;
    assert!(tail != 0, "the test needs a block with unused bits");
    #[allow(clippy::type_complexity)]
    let cases: Vec<(&str, Box<dyn FnOnce(&mut IndexFileHeader, &mut Vec<u8>)>)> = vec![
        ("pattern version 2", Box::new(|h, _| h.pattern.version = 2)),
        ("pattern games wrong", Box::new(|h, _| h.pattern.games += 1)),
        (
            "blocks one word short",
            Box::new(|h, _| h.pattern.blocks.count -= 1),
        ),
        (
            "corner rows of 47 bytes",
            Box::new(|h, _| h.pattern.corners.width_bits = 47 * 8),
        ),
        (
            "removals 24 bits wide",
            Box::new(|h, _| h.pattern.removals.width_bits = 24),
        ),
        (
            "removal starts without their total",
            Box::new(|h, _| h.pattern.removal_starts.count -= 1),
        ),
        (
            "removals section past the body",
            Box::new(|h, b| h.pattern.removals.offset = align8(b.len()) as u64 + 8),
        ),
        (
            "last removal start not the total",
            Box::new(move |h, b| {
                let w = h.pattern.removal_starts.width_bits;
                set_bits(b, &h.pattern.removal_starts, games, 0, w, 0);
            }),
        ),
        (
            "removal starts decreasing",
            Box::new(move |h, b| {
                let w = h.pattern.removal_starts.width_bits;
                set_bits(b, &h.pattern.removal_starts, 1, 0, w, (1 << w) - 1);
            }),
        ),
        (
            "removal of point 400",
            Box::new(move |h, b| set_bits(b, &h.pattern.removals, removal_at, 0, 9, 400)),
        ),
        (
            "removal at move 0",
            Box::new(move |h, b| set_bits(b, &h.pattern.removals, removal_at, 9, 16, 0)),
        ),
        (
            "removal past its game's moves",
            Box::new(move |h, b| set_bits(b, &h.pattern.removals, removal_at, 9, 16, 65_535)),
        ),
        (
            "removal of another point (valid, not the game's)",
            Box::new(move |h, b| {
                let p = get_bits(b, &h.pattern.removals, removal_at, 0, 9);
                set_bits(b, &h.pattern.removals, removal_at, 0, 9, (p + 1) % 361);
            }),
        ),
        (
            "ever-black bit of a game set where it never had a stone",
            Box::new(move |h, b| {
                // Point 0's word of the first block: some game never had a black stone
                // on the corner point.
                let w = get_bits(b, &h.pattern.blocks, 0, 0, 64);
                let g = (!w).trailing_zeros().min(games as u32 - 1);
                set_bits(b, &h.pattern.blocks, 0, g, 1, 1);
            }),
        ),
        (
            "winner bit flipped",
            Box::new(move |h, b| {
                let v = get_bits(b, &h.pattern.blocks, BLOCK_WORDS as u64 - 2, 0, 1);
                set_bits(b, &h.pattern.blocks, BLOCK_WORDS as u64 - 2, 0, 1, v ^ 1);
            }),
        ),
        (
            "bit of a game past the last",
            Box::new(move |h, b| {
                let last = h.pattern.blocks.count / BLOCK_WORDS as u64 - 1;
                let word = last * BLOCK_WORDS as u64 + 100;
                set_bits(b, &h.pattern.blocks, word, tail as u32, 1, 1);
            }),
        ),
        (
            "corner log count 21",
            Box::new(move |_, b| b[corner_byte] = (b[corner_byte] & !31) | 21),
        ),
        (
            "corner log change of kind 3",
            Box::new(move |_, b| b[corner_byte + 1] |= 0xc0),
        ),
        (
            "corner log change at another point (valid, not the game's)",
            Box::new(move |_, b| {
                let e = b[corner_byte + 1];
                b[corner_byte + 1] = (e & 0xc0) | (((e & 63) + 1) % 49);
            }),
        ),
        (
            "corner log unused byte set",
            Box::new(move |_, b| b[corner_byte + 47] = 0xff),
        ),
    ];
    for (name, edit) in cases {
        let (mut h, mut b) = split(&file);
        edit(&mut h, &mut b);
        let f = seal(&h, &b);
        assert_ne!(f, file, "{name}: no change");
        // What a structural open accepts, a search reads without a panic; the full check
        // refuses it.
        if let Ok(idx) = IndexFile::open(&f) {
            exercise(&idx);
        }
        assert!(IndexFile::open_verified(&f).is_err(), "{name}: accepted");
    }
}
