//! The SGF writer's loopback on real records: every game of several corpus folders, written
//! by `sgf::write_game` and read back by the project's reader, has the same size, game
//! information and events (setup and moves; the line written ends where the reader ended
//! it, at a move off the board or no move at all). Run with `cargo test -p kifudex --release --test integration sgf_write::`.

use std::path::Path;

use kifudex::input::collect_sources;
use kifudex::sgf::{parse_file, write_game, Event};

#[test]
fn written_records_read_back_the_same() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let folders = [
        "bgo_testsgf",
        "aeb_alphago",
        "gnugo_regression",
        "fuego_regression",
        "tricky",
    ];
    let paths: Vec<_> = folders.iter().map(|f| root.join(f)).collect();
    let (sources, _) = collect_sources(&paths);
    let (mut games, mut with_setup, mut moves) = (0, 0, 0);
    for s in &sources {
        for g in parse_file(&s.bytes, &s.path, s.member.as_deref()).games {
            let text = write_game(g.size, &g.info, &g.events);
            let back = parse_file(text.as_bytes(), "written.sgf", None);
            assert!(back.rejected.is_empty(), "{}: {text}", s.path);
            assert_eq!(back.games.len(), 1, "{}", s.path);
            let b = &back.games[0];
            let at = format!("{} tree {}:\n{text}", s.path, g.source.tree_index);
            assert_eq!(b.size, g.size, "{at}");
            assert_eq!(b.info, g.info, "{at}");
            assert_eq!(b.events, g.events, "{at}");
            assert_eq!(b.end, None, "{at}");
            games += 1;
            with_setup += g.events.iter().any(|e| matches!(e, Event::Setup { .. })) as usize;
            moves += b.events.len();
        }
    }
    eprintln!("sgf_write: {games} games ({with_setup} with setup), {moves} events read back");
    assert!(
        games > 2500 && with_setup > 300 && moves > 100_000,
        "{games} {with_setup} {moves}"
    );
}
