//! Truncated, corrupted and hostile index and book files: a full verification
//! (`IndexFile::open_verified`, `Book::open`) refuses them, never panics, and whatever a
//! structural open (`IndexFile::open`, what a search does) accepts never makes a read panic.
//!
//! "Hostile" files have correct checksums: a header field, section descriptor or record is
//! changed and the container is re-sealed with [`Container::preamble`], so only the
//! readers' own validation stands between the file and the search code.

use kifudex_core::book::{Book, BookHeader};
use kifudex_core::columns::{ColumnsHeader, GameColumns, SortColumn};
use kifudex_core::format::{align8, Container, Kind, PREAMBLE_LEN};
use kifudex_core::index::{Index, IndexHeader};
use kifudex_core::index_file::{IndexFile, IndexFileHeader};
use kifudex_core::{Board, Size};
use proptest::prelude::*;

use super::sealed::{get_bits, seal, set_bits};

/// Byte offsets in a game row, as `docs/FORMAT.md` states them (the test patches the bytes
/// directly, without the core's codec).
mod game_row {
    pub const WIDTH: usize = 4;
    pub const STRINGS: usize = 16;
}

const GOLDEN_INDEX: &[u8] = include_bytes!("../../../core/tests/data/golden.kdx");
const GOLDEN_BOOK: &[u8] = include_bytes!("../../../core/tests/data/golden.kdb");

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Header bytes and body bytes of a valid file.
fn split(file: &[u8], kind: Kind) -> (Vec<u8>, Vec<u8>) {
    let c = Container::open(file, kind).unwrap();
    (c.header.to_vec(), c.body.to_vec())
}

/// The golden index with `edit` applied to its decoded header and its body, re-sealed.
/// (The whole file header is decoded and written back: the index's part, then pattern
/// search's.)
fn hostile_index(edit: impl FnOnce(&mut IndexHeader, &mut Vec<u8>)) -> Vec<u8> {
    let (h, mut body) = split(GOLDEN_INDEX, Kind::Index);
    let mut header: IndexFileHeader = postcard::from_bytes(&h).unwrap();
    edit(&mut header.index, &mut body);
    seal(Kind::Index, &postcard::to_allocvec(&header).unwrap(), &body)
}

fn hostile_book(edit: impl FnOnce(&mut BookHeader, &mut Vec<u8>)) -> Vec<u8> {
    let (h, mut body) = split(GOLDEN_BOOK, Kind::Book);
    let mut header: BookHeader = postcard::from_bytes(&h).unwrap();
    edit(&mut header, &mut body);
    seal(Kind::Book, &postcard::to_allocvec(&header).unwrap(), &body)
}

fn index_header() -> IndexHeader {
    postcard::from_bytes::<IndexFileHeader>(&split(GOLDEN_INDEX, Kind::Index).0)
        .unwrap()
        .index
}

fn book_header() -> BookHeader {
    postcard::from_bytes(&split(GOLDEN_BOOK, Kind::Book).0).unwrap()
}

/// Query boards: positions of the golden games (and their early moves), plus the empty board.
fn boards() -> Vec<Board> {
    let idx = Index::open(GOLDEN_INDEX).unwrap();
    let mut out = vec![Board::new(Size::new(9, 9).unwrap())];
    for g in 0..idx.game_count() {
        let n = idx.game(g).unwrap().move_count;
        for m in [1, 10, n / 2, n.saturating_sub(1)] {
            if let Some(b) = idx.position(g, m.min(n)) {
                out.push(b);
            }
        }
    }
    out
}

/// Every search an accepted index offers, on several positions: none may panic.
fn exercise_index(idx: &Index, boards: &[Board]) {
    for b in boards {
        let _ = idx.next_moves::<64>(b, true);
        if let Some(f) = idx.find(b) {
            for o in idx.occurrences(&f).take(20) {
                let _ = idx.game(o.game);
                let _ = idx.position(o.game, o.move_number);
            }
        }
    }
    for g in 0..idx.game_count().min(50) {
        let _ = idx.game(g);
        let _ = idx.events(g).count();
    }
}

fn exercise_book(book: &Book, boards: &[Board]) {
    for b in boards {
        let _ = book.next_moves::<64>(b);
    }
}

#[test]
fn golden_files_are_valid() {
    assert!(IndexFile::open(GOLDEN_INDEX).is_ok());
    assert!(Book::open(GOLDEN_BOOK).is_ok());
    // Re-sealing an unchanged file gives the same bytes (the test helpers are right).
    assert_eq!(hostile_index(|_, _| {}), GOLDEN_INDEX);
    assert_eq!(hostile_book(|_, _| {}), GOLDEN_BOOK);
}

#[test]
fn every_truncation_is_an_error() {
    for n in 0..GOLDEN_INDEX.len() {
        assert!(
            IndexFile::open(&GOLDEN_INDEX[..n]).is_err(),
            "index cut at {n}"
        );
    }
    for n in 0..GOLDEN_BOOK.len() {
        assert!(Book::open(&GOLDEN_BOOK[..n]).is_err(), "book cut at {n}");
    }
    // And one byte too many.
    let mut longer = GOLDEN_INDEX.to_vec();
    longer.push(0);
    assert!(IndexFile::open(&longer).is_err());
}

/// Every byte of the preamble, header and padding, each bit flipped; then random single-byte
/// changes and random multi-byte garbage anywhere: always an error.
#[test]
fn every_flip_is_an_error() {
    for (name, file, kind) in [
        ("index", GOLDEN_INDEX, Kind::Index),
        ("book", GOLDEN_BOOK, Kind::Book),
    ] {
        let boards = boards();
        let open = |f: &[u8]| match kind {
            Kind::Index => {
                if let Ok(file) = IndexFile::open(f) {
                    exercise_index(&file.index, &boards);
                }
                IndexFile::open_verified(f).map(|_| ())
            }
            Kind::Book => Book::open(f).map(|_| ()),
        };
        let c = Container::open(file, kind).unwrap();
        let body_start = file.len() - c.body.len();
        assert!(body_start >= PREAMBLE_LEN + c.header.len());
        let mut f = file.to_vec();
        for i in 0..body_start {
            for bit in 0..8 {
                f[i] ^= 1 << bit;
                assert!(open(&f).is_err(), "{name}: bit {bit} of byte {i} flipped");
                f[i] ^= 1 << bit;
            }
        }
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..3000 {
            let i = rng.below(f.len());
            let x = 1 + rng.below(255) as u8;
            f[i] ^= x;
            assert!(open(&f).is_err(), "{name}: byte {i} xor {x:#x}");
            f[i] ^= x;
        }
        for _ in 0..500 {
            let at = rng.below(f.len());
            let len = 2 + rng.below(64);
            let mut g = f.clone();
            let end = (at + len).min(g.len());
            for b in &mut g[at..end] {
                *b = rng.next() as u8;
            }
            if g != f {
                assert!(open(&g).is_err(), "{name}: garbage at {at}..{end}");
            }
        }
    }
}

/// An index with correct checksums but one impossible value is refused.
#[test]
fn hostile_index_files_are_refused() {
    let h0 = index_header();
    let n_moves = h0.moves.count;
    let n_occ = h0.occurrences_section.count;
    let ply_bits = h0.ply_bits as u32;
    #[allow(clippy::type_complexity)]
    let cases: Vec<(&str, Box<dyn FnOnce(&mut IndexHeader, &mut Vec<u8>)>)> = vec![
        (
            "move code 400",
            Box::new(|h, b| set_bits(b, &h.moves, 3, 0, 9, 400)),
        ),
        (
            "move code 362",
            Box::new(|h, b| set_bits(b, &h.moves, 0, 0, 9, 362)),
        ),
        (
            "game moves decreasing",
            Box::new(|h, b| {
                let w = h.game_moves.width_bits;
                let v = get_bits(b, &h.game_moves, 2, 0, w);
                set_bits(b, &h.game_moves, 1, 0, w, v + 1);
            }),
        ),
        (
            "moves past the last game's end",
            Box::new(|h, b| {
                let (w, last) = (h.game_moves.width_bits, h.game_moves.count - 1);
                set_bits(b, &h.game_moves, last, 0, w, n_moves - 1);
            }),
        ),
        (
            "game move start past the moves",
            Box::new(|h, b| {
                let w = h.game_moves.width_bits;
                set_bits(b, &h.game_moves, 1, 0, w, (1 << w) - 1);
            }),
        ),
        (
            "setup starts decreasing",
            Box::new(|h, b| {
                let w = h.game_setup.width_bits;
                let last = h.game_setup.count - 1;
                let total = get_bits(b, &h.game_setup, last, 0, w);
                set_bits(b, &h.game_setup, 1, 0, w, total + 1);
            }),
        ),
        (
            "game on a 25x25 board",
            Box::new(|h, b| {
                let at = h.games_section.offset as usize + game_row::WIDTH;
                b[at] = 25;
                b[at + 1] = 25;
            }),
        ),
        (
            "game on a 19x19 board the header does not list",
            Box::new(|h, b| {
                let at = h.games_section.offset as usize + game_row::WIDTH;
                b[at] = 19;
                b[at + 1] = 19;
            }),
        ),
        (
            "string id past the pool",
            Box::new(|h, b| {
                let at = h.games_section.offset as usize + game_row::STRINGS;
                let n = h.id_bytes as usize;
                b[at..at + n].copy_from_slice(&h.string_index.count.to_le_bytes()[..n]);
            }),
        ),
        (
            "string offsets decreasing",
            Box::new(|h, b| {
                let v = get_bits(b, &h.string_index, 2, 0, h.string_index.width_bits);
                set_bits(b, &h.string_index, 1, 0, h.string_index.width_bits, v + 1);
            }),
        ),
        (
            "invalid UTF-8 in a string",
            Box::new(|h, b| {
                b[h.strings.offset as usize + 1] = 0xff;
            }),
        ),
        (
            "bucket start past the end",
            Box::new(move |h, b| {
                set_bits(b, &h.buckets, 1, 0, h.buckets.width_bits, n_occ + 5);
            }),
        ),
        (
            "buckets decreasing",
            Box::new(move |h, b| {
                let last = h.buckets.count - 2;
                set_bits(b, &h.buckets, last, 0, h.buckets.width_bits, n_occ);
                set_bits(b, &h.buckets, 1, 0, h.buckets.width_bits, n_occ);
            }),
        ),
        (
            "occurrence ply past the moves",
            Box::new(move |h, b| {
                set_bits(b, &h.occurrences_section, 7, 0, ply_bits, n_moves);
            }),
        ),
        (
            "first occurrence not marked as a position's first",
            Box::new(move |h, b| {
                set_bits(b, &h.occurrences_section, 0, ply_bits + 3, 1, 0);
            }),
        ),
        (
            "remainders unsorted in a bucket",
            Box::new(move |h, b| {
                // Find a bucket with two positions, swap their remainders.
                let rem_bits = h.rem_bits as u32;
                let w = h.buckets.width_bits;
                for k in 0..h.buckets.count - 1 {
                    let (s, e) = (
                        get_bits(b, &h.buckets, k, 0, w),
                        get_bits(b, &h.buckets, k + 1, 0, w),
                    );
                    if e >= s + 2 {
                        let r0 = get_bits(b, &h.occurrences_section, s, ply_bits + 4, rem_bits);
                        let r1 = get_bits(b, &h.occurrences_section, e - 1, ply_bits + 4, rem_bits);
                        if r0 != r1 {
                            set_bits(b, &h.occurrences_section, s, ply_bits + 4, rem_bits, r1);
                            set_bits(b, &h.occurrences_section, e - 1, ply_bits + 4, rem_bits, r0);
                            return;
                        }
                    }
                }
                panic!("no bucket with two positions");
            }),
        ),
        (
            "shared row's occurrences past the end",
            Box::new(move |h, b| {
                let w = h.shared_counts.width_bits;
                set_bits(b, &h.shared_counts, 0, 0, w, (1 << w) - 1);
            }),
        ),
        (
            "shared row's occurrences end inside a position",
            Box::new(move |h, b| {
                let w = h.shared_counts.width_bits;
                let v = get_bits(b, &h.shared_counts, 0, 0, w);
                set_bits(b, &h.shared_counts, 0, 0, w, v - 1);
            }),
        ),
        (
            "shared row's next moves past the end",
            Box::new(|h, b| {
                let w = h.shared_next.width_bits;
                set_bits(b, &h.shared_next, 1, 0, w, (1 << w) - 1);
            }),
        ),
        (
            "shared keys unsorted",
            Box::new(|h, b| {
                set_bits(b, &h.shared_keys, 0, 0, 64, u64::MAX);
            }),
        ),
        (
            "next-move wins above the count",
            Box::new(|h, b| {
                let w = h.next_black.width_bits;
                set_bits(b, &h.next_black, 0, 0, w, (1 << w) - 1);
                set_bits(b, &h.next_white, 0, 0, w, (1 << w) - 1);
            }),
        ),
        (
            "next-move code 400",
            Box::new(|h, b| set_bits(b, &h.next, 0, 0, 9, 400)),
        ),
        (
            "section offset past the body",
            Box::new(|h, b| {
                h.moves.offset = align8(b.len()) as u64 + 8;
            }),
        ),
        (
            "section offset misaligned",
            Box::new(|h, _| h.moves.offset += 4),
        ),
        (
            "section length past the body",
            Box::new(|h, b| h.next.len = b.len() as u64),
        ),
        (
            "section too short for its records",
            Box::new(|h, _| h.moves.count += 100),
        ),
        (
            "record count near u64::MAX",
            Box::new(|h, _| h.occurrences_section.count = u64::MAX / 3),
        ),
        ("record width 0", Box::new(|h, _| h.strings.width_bits = 0)),
        ("move width 65", Box::new(|h, _| h.moves.width_bits = 65)),
        ("games count wrong", Box::new(|h, _| h.games += 1)),
        (
            "occurrences count wrong",
            Box::new(|h, _| h.occurrences += 1),
        ),
        ("positions count wrong", Box::new(|h, _| h.positions -= 1)),
        ("bucket bits 32", Box::new(|h, _| h.bucket_bits = 32)),
        ("bucket bits 200", Box::new(|h, _| h.bucket_bits = 200)),
        ("ply bits 0", Box::new(|h, _| h.ply_bits = 0)),
        ("ply bits 64", Box::new(|h, _| h.ply_bits = 64)),
        ("id bytes 0", Box::new(|h, _| h.id_bytes = 0)),
        ("id bytes 9", Box::new(|h, _| h.id_bytes = 9)),
        ("count bits 0", Box::new(|h, _| h.count_bits = 0)),
        ("games past u32", Box::new(|h, _| h.games = 1 << 32)),
        (
            "next wins column shorter",
            Box::new(|h, _| h.next_black.count -= 1),
        ),
        (
            "shared next column without its total",
            Box::new(|h, _| h.shared_next.count -= 1),
        ),
        ("rem bits 255", Box::new(|h, _| h.rem_bits = 255)),
        ("count bits 255", Box::new(|h, _| h.count_bits = 255)),
        ("no size listed", Box::new(|h, _| h.sizes = [0; 19])),
    ];
    let boards = boards();
    for (name, edit) in cases {
        let f = hostile_index(edit);
        assert_ne!(f, GOLDEN_INDEX, "{name}: no change");
        // What a structural open accepts, reads never panic on; the full check refuses it.
        if let Ok(file) = IndexFile::open(&f) {
            exercise_index(&file.index, &boards);
        }
        assert!(IndexFile::open_verified(&f).is_err(), "{name}: accepted");
    }
}

#[test]
fn hostile_book_files_are_refused() {
    let h0 = book_header();
    let n_pos = h0.positions;
    #[allow(clippy::type_complexity)]
    let cases: Vec<(&str, Box<dyn FnOnce(&mut BookHeader, &mut Vec<u8>)>)> = vec![
        (
            "unsorted keys in a bucket",
            Box::new(|h, b| {
                let w = h.bucket_positions.width_bits;
                for k in 0..h.bucket_positions.count - 1 {
                    let s = get_bits(b, &h.bucket_positions, k, 0, w);
                    let e = get_bits(b, &h.bucket_positions, k + 1, 0, w);
                    if e >= s + 2 {
                        let kw = h.keys.width_bits;
                        let (a, c) = (
                            get_bits(b, &h.keys, s, 0, kw),
                            get_bits(b, &h.keys, s + 1, 0, kw),
                        );
                        set_bits(b, &h.keys, s, 0, kw, c);
                        set_bits(b, &h.keys, s + 1, 0, kw, a);
                        return;
                    }
                }
                panic!("no bucket with two positions");
            }),
        ),
        (
            "duplicate keys in a bucket",
            Box::new(|h, b| {
                let w = h.bucket_positions.width_bits;
                for k in 0..h.bucket_positions.count - 1 {
                    let s = get_bits(b, &h.bucket_positions, k, 0, w);
                    let e = get_bits(b, &h.bucket_positions, k + 1, 0, w);
                    if e >= s + 2 {
                        let kw = h.keys.width_bits;
                        let a = get_bits(b, &h.keys, s, 0, kw);
                        set_bits(b, &h.keys, s + 1, 0, kw, a);
                        return;
                    }
                }
                panic!("no bucket with two positions");
            }),
        ),
        (
            "bucket start past the end",
            Box::new(move |h, b| {
                set_bits(
                    b,
                    &h.bucket_positions,
                    1,
                    0,
                    h.bucket_positions.width_bits,
                    n_pos + 3,
                );
            }),
        ),
        (
            "move bucket start past the end",
            Box::new(|h, b| {
                set_bits(
                    b,
                    &h.bucket_moves,
                    1,
                    0,
                    h.bucket_moves.width_bits,
                    h.next_moves + 3,
                );
            }),
        ),
        (
            "next-move code 400",
            Box::new(|h, b| set_bits(b, &h.next, 0, 0, 9, 400)),
        ),
        (
            "next-move count 0",
            Box::new(|h, b| set_bits(b, &h.next, 0, 11, h.count_bits as u32, 0)),
        ),
        (
            "last run not closed",
            Box::new(|h, b| set_bits(b, &h.next, h.next_moves - 1, 10, 1, 0)),
        ),
        (
            "an extra run",
            Box::new(|h, b| {
                // Mark every record as the last of its position: more runs than positions
                // in some bucket (the golden book has a position with several moves).
                for i in 0..h.next_moves {
                    set_bits(b, &h.next, i, 10, 1, 1);
                }
            }),
        ),
        ("max_run too small", Box::new(|h, _| h.max_run = 0)),
        ("positions count wrong", Box::new(|h, _| h.positions += 1)),
        ("next moves count wrong", Box::new(|h, _| h.next_moves -= 1)),
        (
            "section offset past the body",
            Box::new(|h, b| {
                h.keys.offset = align8(b.len()) as u64 + 8;
            }),
        ),
        ("section too short", Box::new(|h, _| h.next.count += 50)),
        ("bucket bits 25", Box::new(|h, _| h.bucket_bits = 25)),
        ("bucket bits changed", Box::new(|h, _| h.bucket_bits += 1)),
        ("rem bits 57", Box::new(|h, _| h.rem_bits = 57)),
        ("rotate 128", Box::new(|h, _| h.rotate = 128)),
        ("count bits 0", Box::new(|h, _| h.count_bits = 0)),
        ("count bits 40", Box::new(|h, _| h.count_bits = 40)),
    ];
    let boards = boards();
    for (name, edit) in cases {
        let f = hostile_book(edit);
        assert_ne!(f, GOLDEN_BOOK, "{name}: no change");
        match Book::open(&f) {
            Err(_) => {}
            Ok(book) => {
                exercise_book(&book, &boards);
                panic!("{name}: accepted");
            }
        }
    }
}

/// Random bytes of the header or body changed, checksums fixed: `open` never panics, and
/// nothing an accepted file offers panics either.
fn mutate(file: &[u8], kind: Kind, edits: &[(usize, u8)], in_header: bool) -> Vec<u8> {
    let (mut header, mut body) = split(file, kind);
    let target = if in_header { &mut header } else { &mut body };
    for &(at, v) in edits {
        let n = target.len();
        target[at % n] = v;
    }
    seal(kind, &header, &body)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn mutated_index_never_panics(
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6),
        in_header in any::<bool>(),
    ) {
        let f = mutate(GOLDEN_INDEX, Kind::Index, &edits, in_header);
        if let Ok(idx) = Index::open(&f) {
            thread_local!(static BOARDS: Vec<Board> = boards());
            BOARDS.with(|b| exercise_index(&idx, b));
        }
    }

    #[test]
    fn mutated_book_never_panics(
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6),
        in_header in any::<bool>(),
    ) {
        let f = mutate(GOLDEN_BOOK, Kind::Book, &edits, in_header);
        if let Ok(book) = Book::open(&f) {
            thread_local!(static BOARDS: Vec<Board> = boards());
            BOARDS.with(|b| exercise_book(&book, b));
        }
    }
}

/// The golden index with `edit` applied to the game columns' part of its header and its
/// body, re-sealed.
fn hostile_columns(edit: impl FnOnce(&mut ColumnsHeader, &mut Vec<u8>)) -> Vec<u8> {
    let (h, mut body) = split(GOLDEN_INDEX, Kind::Index);
    let mut header: IndexFileHeader = postcard::from_bytes(&h).unwrap();
    edit(&mut header.columns, &mut body);
    seal(Kind::Index, &postcard::to_allocvec(&header).unwrap(), &body)
}

/// Every read of the columns of every game, for a file a structural open accepted.
fn exercise_columns(c: &GameColumns<'_>) {
    for id in 0..c.len() + 2 {
        let f = c.facts(id);
        let _ = (c.date(id), c.komi_value(f.komi), c.rules().name(f.rules));
        let _ = (c.players().name(c.black(id)), c.players().name(c.white(id)));
        let _ = (c.events().name(c.event(id)), c.results().name(c.result(id)));
        for column in SortColumn::ALL {
            let _ = (c.key(column, id), c.order(column).at(id as usize));
        }
    }
}

#[test]
fn hostile_column_sections_are_refused() {
    #[allow(clippy::type_complexity)]
    let cases: Vec<(&str, Box<dyn FnOnce(&mut ColumnsHeader, &mut Vec<u8>)>)> = vec![
        (
            "winner code 3",
            Box::new(|h, b| set_bits(b, &h.facts, 1, 0, 2, 3)),
        ),
        (
            "rank code 50",
            Box::new(|h, b| set_bits(b, &h.facts, 0, 10, 6, 50)),
        ),
        (
            "handicap unlike the row's",
            Box::new(|h, b| {
                let v = get_bits(b, &h.facts, 2, 2, 8);
                set_bits(b, &h.facts, 2, 2, 8, v ^ 1);
            }),
        ),
        (
            "komi id past the komi values",
            Box::new(|h, b| {
                let bits = h.komi_bits as u32;
                set_bits(b, &h.facts, 0, 22, bits, (1 << bits) - 1);
            }),
        ),
        (
            "date unlike the row's",
            Box::new(|h, b| {
                let w = h.dates.width_bits;
                let v = get_bits(b, &h.dates, 3, 0, w);
                set_bits(b, &h.dates, 3, 0, w, v ^ 1);
            }),
        ),
        (
            "black id past the players",
            Box::new(|h, b| {
                let w = h.black.width_bits;
                set_bits(b, &h.black, 0, 0, w, (1 << w) - 1);
            }),
        ),
        (
            "order by date not sorted",
            Box::new(|h, b| {
                let w = h.by_date.width_bits;
                let (x, y) = (
                    get_bits(b, &h.by_date, 0, 0, w),
                    get_bits(b, &h.by_date, 5, 0, w),
                );
                set_bits(b, &h.by_date, 0, 0, w, y);
                set_bits(b, &h.by_date, 5, 0, w, x);
            }),
        ),
        (
            "order by event repeats a game",
            Box::new(|h, b| {
                let w = h.by_event.width_bits;
                let x = get_bits(b, &h.by_event, 0, 0, w);
                set_bits(b, &h.by_event, 1, 0, w, x);
            }),
        ),
        (
            "players out of order",
            Box::new(|h, b| {
                let at = h.players.offset as usize;
                b.swap(at, at + 1);
            }),
        ),
        (
            "event names not UTF-8",
            Box::new(|h, b| b[h.events.offset as usize] = 0xff),
        ),
        (
            "players' offsets decreasing",
            Box::new(|h, b| {
                let w = h.players_index.width_bits;
                set_bits(b, &h.players_index, 1, 0, w, (1 << w) - 1);
            }),
        ),
        ("komi bits 40", Box::new(|h, _| h.komi_bits = 40)),
        (
            "facts width wrong",
            Box::new(|h, _| h.facts.width_bits += 1),
        ),
        ("one date short", Box::new(|h, _| h.dates.count -= 1)),
        ("games wrong", Box::new(|h, _| h.games += 1)),
        (
            "order past the body",
            Box::new(|h, _| h.by_black.offset += 1 << 40),
        ),
        ("version 2", Box::new(|h, _| h.version = 2)),
    ];
    for (name, edit) in cases {
        let f = hostile_columns(edit);
        assert_ne!(f, GOLDEN_INDEX, "{name}: no change");
        if let Ok(file) = IndexFile::open(&f) {
            exercise_columns(&file.columns);
        }
        assert!(IndexFile::open_verified(&f).is_err(), "{name}: accepted");
    }
    // A column version of its own is refused as another version, for a clear message.
    let f = hostile_columns(|h, _| h.version = 2);
    assert_eq!(
        IndexFile::open(&f).err(),
        Some(kifudex_core::format::FormatError::UnsupportedVersion)
    );
}
