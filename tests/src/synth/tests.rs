//! The synthetic games read back with the project's SGF reader, checked against a second,
//! deliberately simple board and bGo's transforms written separately ([`crate::naive`]).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use kifudex::input::collect_sources;
use kifudex::sgf::GameRecord;
use kifudex_core::{Board, Color, Event, Move, Rules, Size, Stone};

use super::*;
use crate::naive::{self, Naive, BLACK, EMPTY, WHITE};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

/// A part of the corpus that loads in a moment: 9x9 and 19x19 professional games, and GNU
/// Go's regression games (sizes 2 to 19, setup positions, passes).
fn some_sources() -> Sources {
    let root = corpus();
    let s = Sources::load_from(
        &root,
        &[
            root.join("aeb_9x9"),
            root.join("aeb_alphago"),
            root.join("gnugo_regression"),
        ],
    );
    assert!(s.games.len() > 2_000, "{} games", s.games.len());
    s
}

fn options(dir: &Path, games: u64, seed: u64, per_archive: u64) -> Options {
    Options {
        games,
        from: 0,
        seed,
        per_archive,
        out: dir.to_path_buf(),
    }
}

/// Every game of the archives under `dir`, in order, read by the project's reader.
fn read_back(dir: &Path) -> Vec<GameRecord> {
    let (inputs, skipped) = collect_sources(&[dir]);
    assert!(skipped.is_empty(), "{skipped:?}");
    let mut games = Vec::new();
    for s in inputs {
        let mut parsed = s.parse();
        assert!(parsed.rejected.is_empty(), "{:?}", parsed.rejected);
        assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
        assert_eq!(parsed.games.len(), 1, "{:?}", s.member);
        games.push(parsed.games.remove(0));
    }
    games
}

fn code(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// Replays `events` on the naive board under the standard rules written out here: a move
/// on an empty point, no suicide, no immediate recapture of a single-stone ko; for the
/// moves after the first `prefix`, also no stone in a one-point eye of the mover's
/// colour. Returns the number of moves, or what was wrong.
fn naive_replay(size: Size, events: &[Event], prefix: usize) -> Result<usize, String> {
    let (w, h) = (size.width() as usize, size.height() as usize);
    let mut b = Naive::new(w, h);
    let mut ko: Option<(usize, u8)> = None;
    let mut moves = 0;
    for e in events {
        match *e {
            Event::Setup { point, stone } => {
                b.cells[point.y as usize * w + point.x as usize] = match stone {
                    Stone::Empty => EMPTY,
                    Stone::Black => BLACK,
                    Stone::White => WHITE,
                };
                ko = None;
            }
            Event::Play { mv: Move::Pass, .. } => {
                moves += 1;
                ko = None;
            }
            Event::Play {
                color,
                mv: Move::Play(p),
            } => {
                moves += 1;
                let c = code(color);
                let i = p.y as usize * w + p.x as usize;
                if ko == Some((i, c)) {
                    return Err(format!("move {moves}: ko recapture"));
                }
                if moves > prefix && b.neighbours(i).all(|n| b.cells[n] == c) {
                    return Err(format!("move {moves}: fills its own eye"));
                }
                let before = b.clone();
                if !b.play(c, p.x as usize, p.y as usize) {
                    return Err(format!("move {moves}: occupied"));
                }
                if b.cells[i] != c {
                    return Err(format!("move {moves}: suicide"));
                }
                let captured: Vec<usize> = (0..w * h)
                    .filter(|&j| before.cells[j] != EMPTY && b.cells[j] == EMPTY)
                    .collect();
                let alone = b.neighbours(i).all(|n| b.cells[n] != c);
                let liberties = b.neighbours(i).filter(|&n| b.cells[n] == EMPTY).count();
                ko = (captured.len() == 1 && alone && liberties == 1).then(|| (captured[0], 3 - c));
            }
        }
    }
    Ok(moves)
}

/// The first `n` moves of `src` (with the setup before them) under bGo's transform `t`,
/// colours exchanged if `swap`, computed with the naive transform.
fn naive_prefix(src: &SourceGame, t: usize, swap: bool, n: usize) -> Vec<Event> {
    let (w, h) = (src.size.width() as usize, src.size.height() as usize);
    let point = |p: kifudex_core::Point| {
        let (x, y) = naive::transform(t, p.x as usize, p.y as usize, w, h).unwrap();
        kifudex_core::Point::new(x as u8, y as u8)
    };
    let mut out = Vec::new();
    let mut moves = 0;
    for e in &src.events {
        if moves == n && (e.is_play() || n > 0) {
            break;
        }
        out.push(match *e {
            Event::Setup { point: p, stone } => Event::Setup {
                point: point(p),
                stone: match (stone, swap) {
                    (Stone::Black, true) => Stone::White,
                    (Stone::White, true) => Stone::Black,
                    (s, _) => s,
                },
            },
            Event::Play { color, mv } => {
                moves += 1;
                Event::Play {
                    color: if swap { color.opponent() } else { color },
                    mv: match mv {
                        Move::Play(p) => Move::Play(point(p)),
                        Move::Pass => Move::Pass,
                    },
                }
            }
        });
    }
    out
}

/// Writes 3,000 games in archives of 1,000 and reads them back: each replays legally to its
/// end on the core board and on the naive one, keeps its source's opening under its
/// symmetry, has game information, and no two are equal.
#[test]
fn games_read_back_replay_legally_and_keep_their_source_opening() {
    let sources = some_sources();
    let dir = tempfile::tempdir().unwrap();
    let summary = generate(&sources, &options(dir.path(), 3_000, 7, 1_000), |_| {}).unwrap();
    assert_eq!((summary.games, summary.archives), (3_000, 3));
    let read = read_back(dir.path());
    assert_eq!(read.len(), 3_000);

    // The same games again, in memory, with what they were made from.
    let made = Generator::new(&sources, 7)
        .unwrap()
        .games(0..3_000)
        .unwrap();
    let mut distinct = HashSet::new();
    let mut symmetries = HashSet::new();
    let mut random_moves = 0;
    let mut moves_total = 0;
    for (i, (g, m)) in read.iter().zip(&made).enumerate() {
        let v = m.variant;
        assert_eq!(v.index, i as u64);
        assert_eq!(g.source.member.as_deref(), Some(&*member_name(i as u64)));
        assert_eq!(g.events, m.events, "game {i}");
        assert_eq!(g.info, m.info, "game {i}");
        let src = &sources.games[v.source];
        assert_eq!(g.size, src.size);

        // The opening: the source's, transformed independently.
        assert!(v.prefix_moves <= src.moves && v.prefix_moves as u64 <= MAX_PREFIX);
        assert!(v.prefix_moves as u64 >= MIN_PREFIX.min(src.moves as u64));
        let want = naive_prefix(src, v.transform.index(), v.swapped, v.prefix_moves);
        assert_eq!(
            &g.events[..want.len()],
            &want[..],
            "game {i} ({:?})",
            g.info.game_name
        );

        // Legal to the end, on both boards; random moves after the opening.
        let mut board = Board::with_rules(g.size, Rules::STANDARD);
        for (k, e) in g.events.iter().enumerate() {
            assert!(e.apply(&mut board).is_ok(), "game {i}, event {k}: {e:?}");
        }
        let moves = naive_replay(g.size, &g.events, v.prefix_moves)
            .unwrap_or_else(|e| panic!("game {i}: {e}"));
        assert_eq!(moves, g.move_count());
        assert!(moves <= MAX_MOVES);
        let random = moves - v.prefix_moves;
        let ended_by_passes = g.events.ends_with(&[
            Event::Play {
                color: Color::Black,
                mv: Move::Pass,
            },
            Event::Play {
                color: Color::White,
                mv: Move::Pass,
            },
        ]) || g.events.ends_with(&[
            Event::Play {
                color: Color::White,
                mv: Move::Pass,
            },
            Event::Play {
                color: Color::Black,
                mv: Move::Pass,
            },
        ]);
        assert!(
            random >= MIN_RANDOM || ended_by_passes,
            "game {i}: {random} random moves"
        );
        random_moves += random;
        moves_total += moves;

        // Game information.
        let info = &g.info;
        assert!(info.black.is_some() && info.white.is_some() && info.black != info.white);
        assert!((1950..=2025).contains(&info.year.unwrap()));
        assert!(info.result.is_some() && info.komi.is_some());
        let name = info.game_name.as_deref().unwrap();
        assert!(
            name.starts_with(&format!("synthetic {i}: {} t", src.label)),
            "{name}"
        );

        assert!(
            distinct.insert((g.size, g.events.clone())),
            "game {i} repeats"
        );
        symmetries.insert((v.transform.index(), v.swapped));
    }
    assert_eq!(symmetries.len(), 16);
    // Most moves are random: the positions branch.
    assert!(
        random_moves * 3 > moves_total,
        "{random_moves} of {moves_total}"
    );
}

/// The same seed gives the same bytes with 1 and 3 threads; a shorter run is a prefix of a
/// longer one; another seed gives other games.
#[test]
fn the_same_seed_gives_the_same_bytes() {
    let sources = some_sources();
    let run = |threads: usize, games: u64, seed: u64| {
        let dir = tempfile::tempdir().unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| generate(&sources, &options(dir.path(), games, seed, 400), |_| {}))
            .unwrap();
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        files.sort();
        files
    };
    let one = run(1, 1_500, 3);
    let three = run(3, 1_500, 3);
    assert_eq!(one.len(), 4);
    assert!(one == three, "1 and 3 threads differ");
    let shorter = run(3, 800, 3);
    assert_eq!(shorter.len(), 2);
    assert!(
        shorter[..] == one[..2],
        "800 games are not the first 800 of 1,500"
    );
    // The run's last archives alone: the same files.
    let dir = tempfile::tempdir().unwrap();
    let opts = Options {
        from: 800,
        ..options(dir.path(), 1_500, 3, 400)
    };
    let s = generate(&sources, &opts, |_| {}).unwrap();
    assert_eq!((s.games, s.archives), (700, 2));
    for (name, bytes) in &one[2..] {
        assert!(
            std::fs::read(dir.path().join(name)).unwrap() == *bytes,
            "{name}"
        );
    }
    let other = run(2, 1_500, 4);
    assert_eq!(other.len(), 4);
    assert!(other.iter().zip(&one).all(|(a, b)| a.1 != b.1));
}

/// A corpus of one game: an empty `n` x `n` board and no move.
fn one_empty_board(n: u8) -> Sources {
    Sources {
        games: vec![SourceGame {
            label: format!("empty {n}x{n}"),
            size: Size::square(n).unwrap(),
            events: Vec::new(),
            moves: 0,
            komi: None,
        }],
        ..Sources::default()
    }
}

/// A corpus of one empty 2x2 board: all games start alike and random games on it are often
/// equal, yet the run's games are all different (equal tries replaced).
#[test]
fn equal_tries_are_replaced() {
    let sources = one_empty_board(2);
    let mut gen = Generator::new(&sources, 1).unwrap();
    let games = gen.games(0..40).unwrap();
    let distinct: HashSet<_> = games.iter().map(|g| g.events.clone()).collect();
    assert_eq!(distinct.len(), 40);
    assert!(gen.replaced() > 0, "{}", gen.replaced());
    for g in &games {
        naive_replay(g.size, &g.events, 0).unwrap();
    }
    assert!(Generator::new(&Sources::default(), 1).is_none());
}

/// The output folder must be empty: old archives would be read with the new.
#[test]
fn a_folder_with_files_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("old.tar.gz"), b"x").unwrap();
    let sources = one_empty_board(9);
    let err = generate(&sources, &options(dir.path(), 10, 1, 5), |_| {}).unwrap_err();
    assert!(err.to_string().contains("not empty"), "{err}");
}
