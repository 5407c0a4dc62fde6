//! The committed golden index and book (`tests/data/golden.kdx`, `golden.kdb`, built from
//! the 10 games in `tests/data/golden_src/`, see `tests/data/README.md`) read the same on
//! every machine: `scripts/test.sh` runs this test on x86_64, big-endian s390x and 32-bit
//! i686, and `host-tools/tests/integration/golden.rs` checks that the x86_64 writer rebuilds both files
//! byte for byte. Together they show that the file format is byte-order and
//! word-size independent, writer and reader alike.

use std::fmt::Write;

use kifudex_core::book::Book;
use kifudex_core::index::Index;
use kifudex_core::index_file::IndexFile;
use kifudex_core::notation::Sgf;
use kifudex_core::outcome::Margin;
use kifudex_core::query::position_after;
use kifudex_core::search::NextMoves;
use kifudex_core::{Color, Size};

const INDEX: &[u8] = include_bytes!("../data/golden.kdx");
const BOOK: &[u8] = include_bytes!("../data/golden.kdb");

fn nine() -> Size {
    Size::new(9, 9).unwrap()
}

/// Go Seigen (W) vs Miyamoto Naoki, 1968-08: the first 20 moves.
const SEIGEN_20: &str = "de,fe,ee,fd,ff,gf,gg,fg,ef,gh,hg,hh,eg,fh,ge,hf,he,ig,fc,gd";

/// The same moves mirrored left-right (x -> 8 - x).
fn mirrored(moves: &str) -> String {
    moves
        .split(',')
        .map(|m| {
            let b = m.as_bytes();
            format!("{}{}", (b'a' + 8 - (b[0] - b'a')) as char, b[1] as char)
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// Classes as `B ee 3 2/1` (colour, move, count, black wins / white wins), one per line.
fn describe<const N: usize>(nm: &NextMoves<N>) -> String {
    let mut s = String::new();
    for c in nm.classes() {
        let col = if c.color == Color::Black { 'B' } else { 'W' };
        let _ = writeln!(
            s,
            "{col} {} {} {}/{}",
            Sgf(c.mv),
            c.count,
            c.black_wins,
            c.white_wins
        );
    }
    s
}

fn index_answer(idx: &Index, moves: &str) -> String {
    let (board, _) = position_after(moves, nine()).unwrap();
    describe(&idx.next_moves::<64>(&board, false).unwrap())
}

fn book_answer(book: &Book, moves: &str) -> String {
    let (board, _) = position_after(moves, nine()).unwrap();
    describe(&book.next_moves::<64>(&board).unwrap())
}

#[test]
fn index_header_and_games() {
    let idx = Index::open(INDEX).unwrap();
    let h = idx.header();
    assert_eq!(
        (h.games, h.occurrences, h.positions, h.shared_min),
        (10, 515, 492, 8)
    );
    assert_eq!(h.sizes[8], 1 << 8);
    assert_eq!(idx.game_count(), 10);
    // Newest first; ties by file path.
    let g0 = idx.game(0).unwrap();
    assert_eq!((g0.black, g0.white), ("Mimura Tomoyasu", "Aoki Kikuyo"));
    assert_eq!(g0.event, "NHK TV 9x9 Tournament 1991");
    assert_eq!(
        (g0.round, g0.date, g0.date_key),
        ("Game 1", "1991", 19910000)
    );
    assert_eq!(g0.result, "W+0.5");
    assert_eq!(
        (g0.winner, g0.margin),
        (Some(Color::White), Margin::Points(5))
    );
    assert_eq!(
        (g0.komi, g0.handicap, g0.year()),
        (Some(550), 0, Some(1991))
    );
    assert_eq!(g0.size, nine());
    assert_eq!(g0.path, "../core/tests/data/golden_src/NHK/1991/1.sgf");
    assert_eq!((g0.member, g0.tree, g0.move_count), ("", 0, 50));
    let g3 = idx.game(3).unwrap();
    assert_eq!(
        (g3.black, g3.black_rank, g3.white, g3.white_rank),
        ("Abe Yoshiteru", "9p", "O Meien", "8p")
    );
    assert_eq!((g3.winner, g3.margin), (Some(Color::Black), Margin::Resign));
    let g8 = idx.game(8).unwrap();
    assert_eq!((g8.black, g8.white), ("Miyamoto Naoki", "Go Seigen"));
    assert_eq!(
        (g8.komi, g8.margin, g8.move_count),
        (Some(0), Margin::Points(40), 80)
    );
    assert_eq!(
        g8.path,
        "../core/tests/data/golden_src/Go_Seigen/1968-08-00.sgf"
    );
    assert!(idx.game(10).is_none());
    let counts: Vec<u32> = (0..10).map(|g| idx.game(g).unwrap().move_count).collect();
    assert_eq!(counts, [50, 44, 25, 41, 51, 62, 68, 41, 80, 53]);
    assert_eq!(idx.events(8).count(), 80);
}

#[test]
fn index_next_moves() {
    let idx = Index::open(INDEX).unwrap();
    // The empty board: 10 occurrences, a shared (precomputed) position.
    assert_eq!(
        index_answer(&idx, ""),
        "B ee 5 3/2\nB fe 3 2/1\nB gc 1 1/0\nB gd 1 0/1\n"
    );
    assert_eq!(
        index_answer(&idx, "ee"),
        "W ge 3 1/2\nW gc 1 1/0\nW gd 1 1/0\n"
    );
    assert_eq!(index_answer(&idx, "ee,gc"), "B gd 1 1/0\n");
    // A deep unique position, and the same mirrored: the move is mirrored back.
    assert_eq!(index_answer(&idx, SEIGEN_20), "B gc 1 1/0\n");
    assert_eq!(index_answer(&idx, &mirrored(SEIGEN_20)), "B cc 1 1/0\n");
    // Not in the index.
    assert_eq!(index_answer(&idx, "aa"), "");
    // Colour-swapped search: after W ee (a pass first), the swapped position is "B ee".
    let (board, _) = position_after("pass,ee", nine()).unwrap();
    let nm = idx.next_moves::<64>(&board, true).unwrap();
    assert_eq!(describe(&nm), "B ge 3 2/1\nB gc 1 0/1\nB gd 1 0/1\n");
}

#[test]
fn index_occurrences_and_positions() {
    let idx = Index::open(INDEX).unwrap();
    let (board, _) = position_after(SEIGEN_20, nine()).unwrap();
    let found = idx.find(&board).unwrap();
    assert_eq!(found.count(), 1);
    let occ: Vec<_> = idx.occurrences(&found).collect();
    assert_eq!((occ[0].game, occ[0].move_number), (8, 20));
    let replayed = idx.position(8, 20).unwrap();
    assert_eq!(
        (replayed.stones(Color::Black), replayed.stones(Color::White)),
        (board.stones(Color::Black), board.stones(Color::White))
    );
    assert_eq!(replayed.keys(), board.keys());
    let (mirror, _) = position_after(&mirrored(SEIGEN_20), nine()).unwrap();
    let found = idx.find(&mirror).unwrap();
    let occ: Vec<_> = idx.occurrences(&found).collect();
    assert_eq!((occ.len(), occ[0].game, occ[0].move_number), (1, 8, 20));
    // The empty board: every game, newest first.
    let (empty, _) = position_after("", nine()).unwrap();
    let found = idx.find(&empty).unwrap();
    assert!(found.shared.is_some());
    let games: Vec<u32> = idx.occurrences(&found).map(|o| o.game).collect();
    assert_eq!(games, (0..10).collect::<Vec<_>>());
}

#[test]
fn book_answers() {
    let book = Book::open(BOOK).unwrap();
    let h = book.header();
    assert_eq!((h.games, h.min_count), (10, 1));
    assert_eq!(
        book_answer(&book, ""),
        "B ee 5 0/0\nB fe 3 0/0\nB gc 1 0/0\nB gd 1 0/0\n"
    );
    assert_eq!(
        book_answer(&book, "ee"),
        "W ge 3 0/0\nW gc 1 0/0\nW gd 1 0/0\n"
    );
    assert_eq!(book_answer(&book, SEIGEN_20), "B gc 1 0/0\n");
    assert_eq!(book_answer(&book, &mirrored(SEIGEN_20)), "B cc 1 0/0\n");
    assert_eq!(book_answer(&book, "aa"), "");
}

/// Every truncation and every single-bit flip of the golden files is refused by a full
/// verification, and reads after a structural open of a flipped index never panic (here
/// too, so that the checks run on every target).
#[test]
fn golden_corruptions_are_refused() {
    for n in 0..INDEX.len() {
        assert!(Index::open(&INDEX[..n]).is_err());
    }
    for n in 0..BOOK.len() {
        assert!(Book::open(&BOOK[..n]).is_err());
    }
    let mut f = INDEX.to_vec();
    for i in (0..f.len()).step_by(7) {
        f[i] ^= 0x10;
        assert!(IndexFile::open_verified(&f).is_err(), "index byte {i}");
        if let Ok(idx) = Index::open(&f) {
            for q in ["", "ee", "ee,gc", SEIGEN_20] {
                let (board, _) = position_after(q, nine()).unwrap();
                let _ = idx.next_moves::<64>(&board, true);
                if let Some(found) = idx.find(&board) {
                    for o in idx.occurrences(&found) {
                        let _ = (idx.game(o.game), idx.position(o.game, o.move_number));
                    }
                }
            }
            for g in 0..idx.game_count() {
                let _ = (idx.game(g), idx.events(g).count());
            }
        }
        f[i] ^= 0x10;
    }
    let mut f = BOOK.to_vec();
    for i in (0..f.len()).step_by(7) {
        f[i] ^= 0x04;
        assert!(Book::open(&f).is_err(), "book byte {i}");
        f[i] ^= 0x04;
    }
}

/// Prints the answers (to regenerate the expectations after an intended change:
/// `cargo test -p kifudex-core --test integration -- --ignored --nocapture format_golden::print_answers`).
#[test]
#[ignore = "prints the answers"]
fn print_answers() {
    let idx = Index::open(INDEX).unwrap();
    let book = Book::open(BOOK).unwrap();
    println!("index header: {:?}", idx.header());
    for g in 0..idx.game_count() {
        println!("game {g}: {:?}", idx.game(g).unwrap());
    }
    for q in ["", "ee", "ee,gc", SEIGEN_20, &mirrored(SEIGEN_20)] {
        println!("index {q:?}:\n{}", index_answer(&idx, q));
        println!("book {q:?}:\n{}", book_answer(&book, q));
    }
}

/// A few hostile files with correct checksums, on every target (on 32-bit i686, 32 bucket
/// bits once overflowed `1usize << bucket_bits`).
#[test]
fn hostile_golden_headers_are_refused() {
    use kifudex_core::format::{align8, Container, Kind};
    use kifudex_core::index::IndexHeader;
    use kifudex_core::index_file::IndexFileHeader;

    let c = Container::open(INDEX, Kind::Index).unwrap();
    let base: IndexFileHeader = postcard::from_bytes(c.header).unwrap();
    let reseal = |h: &IndexFileHeader| {
        let mut buf = [0u8; 512];
        let head = postcard::to_slice(h, &mut buf).unwrap();
        let mut f = Container::preamble(Kind::Index, head, c.body).to_vec();
        f.extend_from_slice(head);
        f.resize(align8(f.len()), 0);
        f.extend_from_slice(c.body);
        f
    };
    assert_eq!(reseal(&base), INDEX);
    let edits: [fn(&mut IndexHeader); 6] = [
        |h| h.bucket_bits = 32,
        |h| h.bucket_bits = 31,
        |h| h.moves.offset = 1 << 40,
        |h| h.occurrences_section.count = u64::MAX,
        |h| h.string_index.len = u64::MAX - 3,
        |h| h.games_section.count = 1 << 33,
    ];
    for (i, edit) in edits.iter().enumerate() {
        let mut h = base.clone();
        edit(&mut h.index);
        assert!(Index::open(&reseal(&h)).is_err(), "edit {i}");
    }
}
