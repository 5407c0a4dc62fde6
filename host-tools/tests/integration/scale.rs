//! Counts, widths and ids at their boundaries (issue 9): collections whose counts pass
//! 2^16 and 2^18, built and read back through the whole pipeline. (Larger boundaries,
//! 2^24, 2^32 and the widest fields, are the core's codec loopback tests:
//! `core/src/index/records/tests.rs`.)

use kifudex::indexing::{build_in_memory, BuildOptions};
use kifudex::input::Source;
use kifudex_core::index::Index;
use kifudex_core::index_file::IndexFile;
use kifudex_core::notation::Sgf;
use kifudex_core::{Board, Color, Size};

fn source(path: &str, text: String) -> Source {
    Source {
        path: path.into(),
        member: None,
        bytes: text.into_bytes(),
    }
}

fn build(sources: Vec<Source>) -> Vec<u8> {
    let opts = BuildOptions {
        keep_duplicates: true,
        ..BuildOptions::default()
    };
    build_in_memory(sources, &[], &opts).unwrap().0
}

/// `B pd 262144 0/0` for each next move of `board`.
fn next_moves(index: &Index, board: &Board) -> Vec<String> {
    let nm = index.next_moves::<8>(board, false).unwrap();
    nm.classes()
        .iter()
        .map(|c| {
            let col = if c.color == Color::Black { 'B' } else { 'W' };
            format!(
                "{col} {} {} {}/{}",
                Sgf(c.mv),
                c.count,
                c.black_wins,
                c.white_wins
            )
        })
        .collect()
}

/// One file holding 2^18 copies of the same one-move game (kept: `--keep-duplicates`):
/// version 1's shared next-move record (10 + 3 x 19 bits) overflowed 64 bits here.
#[test]
fn one_move_played_2_18_times() {
    const N: usize = 1 << 18;
    let text = "(;GM[1]SZ[19];B[pd])\n".repeat(N);
    let bytes = build(vec![source("copies.sgf", text.clone())]);
    let index = Index::open(&bytes).unwrap();
    IndexFile::open(&bytes).unwrap().verify().unwrap();
    assert_eq!(index.header().games, N as u64);
    assert_eq!(index.header().occurrences, N as u64);
    assert_eq!(index.game_count(), N as u32);
    let empty = Board::new(Size::new(19, 19).unwrap());
    assert_eq!(next_moves(&index, &empty), [format!("B pd {N} 0/0")]);
    // Counted occurrence by occurrence (no shared aggregate): the same answer.
    let filtered = index
        .next_moves_where::<8>(&empty, false, |_| true)
        .unwrap();
    assert_eq!(filtered.classes()[0].count, N as u32);
    // The last game and its tree number (the 2^18th tree of the file).
    let last = index.game(N as u32 - 1).unwrap();
    assert_eq!((last.tree, last.move_count), (N as u64 - 1, 1));
    assert!(index.game(N as u32).is_none());
    // By default the copies are duplicates of the first.
    let (bytes, report) = build_in_memory(
        vec![source("copies.sgf", text)],
        &[],
        &BuildOptions::default(),
    )
    .unwrap();
    assert_eq!((report.games_read, report.duplicates), (N, N - 1));
    assert_eq!(Index::open(&bytes).unwrap().game_count(), 1);
}

/// 2^16 + 1 distinct player names: string ids no longer fit two bytes.
#[test]
fn string_ids_past_2_16() {
    const N: usize = (1 << 16) + 1;
    let text: String = (0..N)
        .map(|i| format!("(;GM[1]SZ[9]PB[Player {i}]DT[2000-01-01];B[ee])\n"))
        .collect();
    let bytes = build(vec![source("names.sgf", text)]);
    let index = Index::open(&bytes).unwrap();
    IndexFile::open(&bytes).unwrap().verify().unwrap();
    assert_eq!(index.game_count(), N as u32);
    let mut names: Vec<String> = (0..N as u32)
        .map(|g| index.game(g).unwrap().black.to_string())
        .collect();
    names.sort();
    let mut want: Vec<String> = (0..N).map(|i| format!("Player {i}")).collect();
    want.sort();
    assert_eq!(names, want);
    let empty = Board::new(Size::new(9, 9).unwrap());
    assert_eq!(next_moves(&index, &empty), [format!("B ee {N} 0/0")]);
}
