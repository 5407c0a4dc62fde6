//! The pattern search's sections stored in the index (`docs/FORMAT.md`, "Pattern search
//! data"): written by the build from the summaries its own replay notes, they equal what a
//! fresh computation from the index's stored games gives (`PatternData::compute`, a replay
//! of its own, on a board without hashes), on every real game of several corpus folders
//! (19x19 professional and AI games with captures and handicaps, regression positions with
//! setup stones, 9x9 games that pattern search does not read); and hostile sections
//! (correct checksums) are refused by `verify`, while whatever a structural open accepts
//! can be searched without a panic.

use std::path::{Path, PathBuf};

use kifudex::explore::pattern::counts;
use kifudex::indexing::{build_in_memory, BuildOptions};
use kifudex::input::collect_sources;
use kifudex::pattern::{PatternData, PatternRequest};
use kifudex_core::format::{align8, Container, Kind};
use kifudex_core::index_file::{IndexFile, IndexFileHeader};
use kifudex_core::pattern::search::blocks::DecidedGames;
use kifudex_core::pattern::stored::block::{BLOCK_BYTES, BLOCK_WORDS, ROWS_AT, TILE_BYTES};
use kifudex_core::pattern::stored::corner::CORNER_BLOCK_BYTES;
use kifudex_core::pattern::stored::first::{FIRST_NEVER, UNSETTLED_ROW_BYTES};
use kifudex_core::pattern::{BlockLines, ScanPlan, Strategy};

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
        (&header.removals, &data.header.removals),
        (&header.removal_starts, &data.header.removal_starts),
        (&header.corner_boxes, &data.header.corner_boxes),
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
        .filter(|&g| pattern.summary(g).first.late_setup)
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

/// Searches that read every kind of record (blocks, first stones, removals, moves).
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
    // A game with removals.
    let with_removals = (0..games as u32)
        .find(|&g| good.pattern.removals_of(g).next().is_some())
        .unwrap() as u64;
    let removal_at = get_bits(
        &split(&file).1,
        &h0.pattern.removal_starts,
        with_removals,
        0,
        h0.pattern.removal_starts.width_bits,
    );
    // The first searched game (of block 0): a point where it never had a stone, one where
    // its first stone is black, and the byte offsets (in the body) of its first-stone
    // bytes and its row.
    let g0 = (0..games.min(64) as u32)
        .find(|&g| good.pattern.summary(g).searched)
        .unwrap();
    let s0 = good.pattern.summary(g0);
    let never = (0..361)
        .find(|&i| s0.first.first[i] == FIRST_NEVER)
        .unwrap();
    let black_first = (0..361)
        .find(|&i| {
            let p = kifudex_core::Point::from_index19(i as u16).unwrap();
            s0.first.first[i] != FIRST_NEVER && !s0.first.first_white.contains(p)
        })
        .unwrap();
    let blocks_at = h0.pattern.blocks.offset as usize;
    let tile_byte = |i: usize| blocks_at + i * 64 + g0 as usize;
    let row0 = blocks_at + ROWS_AT + g0 as usize * UNSETTLED_ROW_BYTES;
    let words_at = (TILE_BYTES / 8) as u64;
    // Words per point: ever black, ever white, then searched and the two winners, then
    // the first stone's colour, then unsettled.
    let first_white_word = words_at + 2 * 361 + 3;
    let unsettled_word = words_at + 3 * 361 + 3;
    let tail = games % 64;
    assert!(tail != 0, "the test needs a block with unused bits");
    #[allow(clippy::type_complexity)]
    let cases: Vec<(&str, Box<dyn FnOnce(&mut IndexFileHeader, &mut Vec<u8>)>)> = vec![
        ("pattern version 4", Box::new(|h, _| h.pattern.version = 4)),
        (
            "corner boxes one word short",
            Box::new(|h, _| h.pattern.corner_boxes.count -= 1),
        ),
        (
            "corner boxes of 32-bit words",
            Box::new(|h, _| h.pattern.corner_boxes.width_bits = 32),
        ),
        (
            "corner hash changed (valid, not the game's)",
            // The hash of one stone in the top-left box of game `g0`.
            Box::new(move |h, b| b[h.pattern.corner_boxes.offset as usize + 2 * g0 as usize] ^= 1),
        ),
        (
            "corner box of a slot past the last game",
            Box::new(move |h, b| {
                let last = (games as usize - 1) / 64;
                let at = h.pattern.corner_boxes.offset as usize + last * CORNER_BLOCK_BYTES;
                b[at + 2 * tail as usize] = 1;
            }),
        ),
        ("pattern games wrong", Box::new(|h, _| h.pattern.games += 1)),
        (
            "blocks one word short",
            Box::new(|h, _| h.pattern.blocks.count -= 1),
        ),
        (
            "blocks of 32-bit words",
            Box::new(|h, _| h.pattern.blocks.width_bits = 32),
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
                let w = get_bits(b, &h.pattern.blocks, words_at, 0, 64);
                let g = (!w).trailing_zeros().min(games as u32 - 1);
                set_bits(b, &h.pattern.blocks, words_at, g, 1, 1);
            }),
        ),
        (
            "winner bit flipped",
            Box::new(move |h, b| {
                let word = words_at + 2 * 361 + 1;
                let v = get_bits(b, &h.pattern.blocks, word, 0, 1);
                set_bits(b, &h.pattern.blocks, word, 0, 1, v ^ 1);
            }),
        ),
        (
            "bit of a game past the last",
            Box::new(move |h, b| {
                let last = h.pattern.blocks.count / BLOCK_WORDS as u64 - 1;
                let word = last * BLOCK_WORDS as u64 + words_at + 100;
                set_bits(b, &h.pattern.blocks, word, tail as u32, 1, 1);
            }),
        ),
        (
            "first stone where the game never had a stone",
            Box::new(move |_, b| b[tile_byte(never)] = 7),
        ),
        (
            "first stone at another position (valid, not the game's)",
            Box::new(move |_, b| {
                let t = b[tile_byte(black_first)];
                b[tile_byte(black_first)] = if t == 0 { 1 } else { t - 1 };
            }),
        ),
        (
            "first stone white where the game never had a white stone",
            Box::new(move |h, b| {
                let word = first_white_word + never as u64;
                set_bits(b, &h.pattern.blocks, word, g0, 1, 1);
            }),
        ),
        (
            "unsettled word bit where the game's row has none",
            Box::new(move |h, b| {
                let word = unsettled_word + never as u64;
                set_bits(b, &h.pattern.blocks, word, g0, 1, 1);
            }),
        ),
        (
            "unsettled word bit of a game past the last",
            Box::new(move |h, b| {
                let last = h.pattern.blocks.count / BLOCK_WORDS as u64 - 1;
                let word = last * BLOCK_WORDS as u64 + unsettled_word + 7;
                set_bits(b, &h.pattern.blocks, word, tail as u32, 1, 1);
            }),
        ),
        (
            "first stone of a game past the last",
            Box::new(move |_, b| {
                let last = (games as usize - 1) / 64;
                b[blocks_at + last * BLOCK_BYTES + 5 * 64 + tail as usize] = 3;
            }),
        ),
        (
            "unsettled point past the board",
            Box::new(move |_, b| b[row0 + 2] |= 0x08),
        ),
        (
            "unsettled row with an unknown flag",
            Box::new(move |_, b| b[row0 + 19 * 4 + 20] |= 2),
        ),
        (
            "unsettled row unused byte set",
            Box::new(move |_, b| b[row0 + UNSETTLED_ROW_BYTES - 1] = 0xff),
        ),
        (
            "unsettled point added (valid row, not the game's)",
            Box::new(move |_, b| {
                // Point (never) made unsettled, its board row given a first position.
                let (x, y) = (never % 19, never / 19);
                let before = b[row0 + 4 * y] as u32
                    | (b[row0 + 4 * y + 1] as u32) << 8
                    | (b[row0 + 4 * y + 2] as u32) << 16;
                let bits = before | 1 << x;
                b[row0 + 4 * y..row0 + 4 * y + 4].copy_from_slice(&bits.to_le_bytes());
                let at = row0 + 19 * 4 + y;
                if b[at] == FIRST_NEVER {
                    b[at] = 200;
                }
                b[row0 + 19 * 4 + 19] = (0..19).map(|r| b[row0 + 19 * 4 + r]).min().unwrap();
            }),
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

/// The first stones decide most games of corner and side searches on real games: the
/// acceleration cannot silently stop working. (That what they decide is right is checked
/// by `pattern_naive`, against a search without them.)
/// The corner and side patterns of the benchmarks: rows and area.
const CORNER_AND_SIDE: [(&str, &str); 3] = [
    (
        "......./......./...X.../..X..../..O..../......./.......",
        "0,0,0,0",
    ),
    ("..../..../..X*/..*O", "0,0,0,0"),
    ("...../...../X.O.X/...../.....", "1,0,13,0"),
];

#[test]
fn first_stones_decide_most_games_of_corner_and_side_patterns() {
    let bytes = build(&["fox_pro/2p", "fox_pro/3p"]);
    let file = IndexFile::open(&bytes).unwrap();
    for (rows, area) in CORNER_AND_SIDE {
        let req = PatternRequest::parse(rows, Some(area), false).unwrap();
        let query = req.query();
        let count = |first_stones: bool| {
            let plan = ScanPlan::with(&query, Strategy::Pairs, first_stones);
            assert_eq!(plan.strategy(), Strategy::Pairs, "{rows}");
            let mut total = DecidedGames::default();
            for b in 0..file.pattern.block_count() {
                let d = file.pattern.decided_games(&file.index, &plan, b, !0);
                total.decided += d.decided;
                total.scanned += d.scanned;
            }
            total
        };
        let with = count(true);
        let without = count(false);
        // Without first stones every game the block words (and for the 7x7, its corner
        // boxes: 45 games left) leave is scanned; with them, at least 19 in 20 of those
        // are decided.
        assert_eq!(without.decided, 0, "{rows}");
        assert_eq!(with.decided + with.scanned, without.scanned, "{rows}");
        assert!(with.decided >= 40, "{rows}: {with:?}");
        assert!(with.scanned * 20 <= with.decided, "{rows}: {with:?}");
    }
}

#[test]
fn read_ahead_lines_hold_every_line_a_corner_or_side_search_reads() {
    // Computed here from each pair's region and needed stones (not from the plan's cell
    // lists that `BlockLines::read_by` walks): the first-stone line of every point of the
    // region, the block words of its needed stones, the unsettled rows.
    let line = |at: usize| at / 64 * 64;
    for (rows, area) in CORNER_AND_SIDE {
        let req = PatternRequest::parse(rows, Some(area), false).unwrap();
        let query = req.query();
        let plan = ScanPlan::new(&query);
        assert_eq!(plan.strategy(), Strategy::Pairs, "{rows}");
        let lines = BlockLines::read_by(&plan);
        let held: std::collections::BTreeSet<usize> = lines.offsets().collect();
        assert_eq!(held.len(), lines.len());
        assert!(
            held.iter().all(|&at| at % 64 == 0 && at < BLOCK_BYTES),
            "{rows}"
        );
        let mut want = std::collections::BTreeSet::new();
        let mut want_corner = std::collections::BTreeSet::new();
        for pair in plan.pairs() {
            let v = &query.variants()[pair.variant as usize];
            if let Some(key) = pair.corner.filter(|k| k.whole) {
                // A region that is a corner box: its box's lines (docs/FORMAT.md, "Corner
                // boxes": hashes at (k - 1, corner, game) u16, the undecided words at byte
                // 4,096 by (corner, k - 1), times at 4,352 and stones at 6,656 by (k - 1,
                // corner, game)) instead of the region's first stones.
                let (c, k) = (key.corner as usize, key.stones as usize);
                let column = ((k - 1) * 4 + c) * 128;
                want_corner.extend([column, column + 64, line(4096 + (c * 8 + k - 1) * 8)]);
                for i in [k, k + 1] {
                    let at = ((i - 1) * 4 + c) * 64;
                    want_corner.extend([4352 + at, 6656 + at]);
                }
            } else {
                for dy in 0..v.height as usize {
                    for dx in 0..v.width as usize {
                        let code =
                            (pair.placement.y as usize + dy) * 19 + pair.placement.x as usize + dx;
                        want.insert(line(code * 64));
                    }
                }
            }
            for &w in &pair.words {
                want.insert(line(TILE_BYTES + w as usize * 8));
            }
        }
        for at in (ROWS_AT..BLOCK_BYTES).step_by(8) {
            want.insert(line(at));
        }
        let missing: Vec<_> = want.difference(&held).collect();
        assert!(
            missing.is_empty(),
            "{rows}: lines not asked for: {missing:?}"
        );
        let held_corner: std::collections::BTreeSet<usize> = lines.corner_offsets().collect();
        assert_eq!(held_corner, want_corner, "{rows}");
        // Nothing beyond them but the cells' first-colour and unsettled words and the
        // games' flags: far less than the block.
        assert!(held.len() < BLOCK_BYTES / 64, "{rows}: {}", held.len());
    }
    // A plan that reads every game (3x3 anywhere, local codes) asks for nothing.
    let req = PatternRequest::parse("XX./X../...", None, false).unwrap();
    let query = req.query();
    let plan = ScanPlan::new(&query);
    assert_ne!(plan.strategy(), Strategy::Pairs);
    assert!(BlockLines::read_by(&plan).is_empty());
}

/// The corner boxes (`kifudex_core::pattern::stored::corner`) against the boards of a replay of
/// their own: after the setup and after every move of every real game, the content of each
/// 7x7 corner box, read from the board (not from the moves), is looked up as a search
/// looks it up. Whenever a box holds `k` stones and its record says it is decided for
/// `k`, they are its first `k` stones, their hash is the stored one, and the position lies
/// between the `k`-th stone's and the next one's; and every decided count whose stones
/// came apart from the next is seen so on the board. Checked to fail when `decided`
/// ignores the stones that leave (a box then claims counts it comes back to).
#[test]
#[allow(clippy::needless_range_loop)] // (corners and counts index several tables at once)
fn corner_boxes_hold_every_state_of_the_boxes_a_replay_sees() {
    use kifudex_core::board::{Board, Rules, StonesOnly};
    use kifudex_core::event::Event;
    use kifudex_core::pattern::stored::corner::{box_of, key, BOX_STONES, CORNERS};
    use kifudex_core::pattern::stored::first::{first_byte, FIRST_LATE};
    use kifudex_core::stored::StoredGame;
    use kifudex_core::{Point, Size, Stone};

    let bytes = build(&["fox_pro", "gnugo_regression", "tricky"]);
    let file = IndexFile::open(&bytes).unwrap();
    let (index, pattern) = (&file.index, &file.pattern);
    let (mut looked, mut open) = (0u64, 0u64);
    for g in 0..index.game_count() {
        let game = index.stored_game(g).unwrap();
        if game.size() != Size::STANDARD {
            continue;
        }
        let boxes = pattern.summary(g).corners;
        let mut board: Board<StonesOnly> = Board::empty(Size::STANDARD, Rules::RECORD);
        // Per corner, per count: seen on the board while decided.
        let mut seen = [[false; BOX_STONES + 1]; CORNERS];
        let mut look = |board: &Board<StonesOnly>, n: u32, seen: &mut [[bool; 9]; 4]| {
            let mut sets: [Vec<u8>; CORNERS] = Default::default();
            for y in 0..19 {
                for x in 0..19 {
                    let p = Point::new(x, y);
                    if let (Some((c, cell)), s) = (box_of(p), board.get(p)) {
                        if s != Stone::Empty {
                            sets[c].push(cell * 2 + (s == Stone::White) as u8);
                        }
                    }
                }
            }
            for (c, set) in sets.iter_mut().enumerate() {
                let k = set.len();
                looked += 1;
                if k == 0 || k > boxes.decided[c] as usize {
                    open += (k > boxes.decided[c] as usize) as u64;
                    continue;
                }
                let hash = set.iter().fold(0u16, |h, &s| h ^ key(s / 2, s & 1 == 0));
                assert_eq!(boxes.hash[c][k - 1], hash, "game {g} corner {c} at {n}");
                let mut first: Vec<u8> = boxes.stone[c][..k].to_vec();
                set.sort();
                first.sort();
                assert_eq!(&first, set, "game {g} corner {c} at {n}");
                let (t, t2) = (boxes.time[c][k - 1], boxes.time[c][k]);
                let at = first_byte(n);
                assert!(t <= at, "game {g} corner {c} at {n}");
                assert!(t2 >= FIRST_LATE || at < t2, "game {g} corner {c} at {n}");
                seen[c][k] = true;
            }
        };
        let mut n = 0u32;
        let mut started = false;
        for event in game.events() {
            match event {
                Event::Setup { point, stone } => {
                    let _ = board.set_stone(point, stone);
                }
                Event::Play { color, mv } => {
                    if !started {
                        look(&board, 0, &mut seen);
                        started = true;
                    }
                    if board.play(color, mv).is_ok() {
                        n += 1;
                        look(&board, n, &mut seen);
                    }
                }
            }
        }
        if !started {
            look(&board, 0, &mut seen);
        }
        // Every decided count whose last stone came alone (not with the next, as setup
        // stones come together) is a position of the game.
        for c in 0..CORNERS {
            for k in 1..=boxes.decided[c] as usize {
                let (s, t, t2) = (
                    boxes.stone[c][k - 1],
                    boxes.time[c][k - 1],
                    boxes.time[c][k],
                );
                if s < 98 && t < FIRST_LATE && t2 != t {
                    assert!(seen[c][k], "game {g} corner {c}: {k} stones never seen");
                }
            }
        }
    }
    eprintln!("{looked} boxes looked up, {open} not decided for their count");
    assert!(looked > 1_000_000 && open > 1_000);
}
