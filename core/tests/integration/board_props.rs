//! Property tests of `Board` and `Replay` on random games, against a deliberately simple
//! reference implementation (plain cell array, recursive-free naive flood fill).

use kifudex_core::board::{Board, KoRule, MoveError, Rules, StonesOnly};
use kifudex_core::hash::{BgoHashes, Keys};
use kifudex_core::replay::Replay;
use kifudex_core::transform::{transform_cells, Transform};
use kifudex_core::Event;
use kifudex_core::{Color, Move, Point, PointSet, Size, Stone};
use proptest::prelude::*;

/// The reference: a plain array, naive groups, simple ko as "the position before the
/// opponent's last move may not come back at once", superko as "no earlier position".
#[derive(Clone)]
struct Naive {
    w: usize,
    h: usize,
    cells: Vec<Stone>,
    rules: Rules,
    /// Position before the last stone move and who made it.
    before_last: Option<(Vec<Stone>, Color)>,
    history: Vec<Vec<Stone>>,
}

impl Naive {
    fn new(w: usize, h: usize, rules: Rules) -> Naive {
        let cells = vec![Stone::Empty; w * h];
        Naive {
            w,
            h,
            history: vec![cells.clone()],
            cells,
            rules,
            before_last: None,
        }
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (x, y) = (i % self.w, i / self.w);
        let mut v = Vec::new();
        if x > 0 {
            v.push(i - 1);
        }
        if x + 1 < self.w {
            v.push(i + 1);
        }
        if y > 0 {
            v.push(i - self.w);
        }
        if y + 1 < self.h {
            v.push(i + self.w);
        }
        v
    }

    /// The group at `i` and its liberty count.
    fn group(&self, cells: &[Stone], i: usize) -> (Vec<usize>, usize) {
        let c = cells[i];
        let mut seen = vec![false; cells.len()];
        let mut libs = vec![false; cells.len()];
        let mut stack = vec![i];
        let mut out = Vec::new();
        seen[i] = true;
        while let Some(j) = stack.pop() {
            out.push(j);
            for n in self.neighbours(j) {
                if cells[n] == Stone::Empty {
                    libs[n] = true;
                } else if cells[n] == c && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        (out, libs.iter().filter(|&&l| l).count())
    }

    /// Plays; returns the removed points (sorted) and whether they were own stones.
    fn play(&mut self, color: Color, mv: Move) -> Result<(Vec<usize>, bool), MoveError> {
        let p = match mv {
            Move::Pass => {
                self.before_last = None;
                return Ok((vec![], false));
            }
            Move::Play(p) => p,
        };
        if p.x as usize >= self.w || p.y as usize >= self.h {
            return Err(MoveError::OffBoard);
        }
        let i = p.y as usize * self.w + p.x as usize;
        if self.cells[i] != Stone::Empty {
            return Err(MoveError::Occupied);
        }
        let mut cells = self.cells.clone();
        cells[i] = Stone::of(color);
        let mut removed = Vec::new();
        for n in self.neighbours(i) {
            if cells[n] == Stone::of(color.opponent()) {
                let (g, libs) = self.group(&cells, n);
                if libs == 0 {
                    for j in g {
                        cells[j] = Stone::Empty;
                        removed.push(j);
                    }
                }
            }
        }
        let mut own = false;
        if removed.is_empty() {
            let (g, libs) = self.group(&cells, i);
            if libs == 0 {
                if !self.rules.suicide_allowed {
                    return Err(MoveError::Suicide);
                }
                for j in g {
                    cells[j] = Stone::Empty;
                    removed.push(j);
                }
                own = true;
            }
        }
        // Simple ko: a single-stone capture may not bring back the position before the
        // opponent's last move.
        if self.rules.ko != KoRule::None && removed.len() == 1 && !own {
            if let Some((prev, who)) = &self.before_last {
                if *who == color.opponent() && *prev == cells {
                    return Err(MoveError::Ko);
                }
            }
        }
        if self.rules.ko == KoRule::PositionalSuperko && self.history.contains(&cells) {
            return Err(MoveError::Superko);
        }
        removed.sort();
        self.before_last = Some((std::mem::replace(&mut self.cells, cells), color));
        self.history.push(self.cells.clone());
        Ok((removed, own))
    }
}

fn cells_of(b: &Board) -> Vec<Stone> {
    let mut v = vec![Stone::Empty; b.size().points()];
    assert!(b.to_cells(&mut v));
    v
}

fn check_hashes(b: &Board) {
    let size = b.size();
    let cells = cells_of(b);
    assert_eq!(*b.bgo_hashes(), BgoHashes::of_cells(size, &cells));
    assert_eq!(*b.keys(), Keys::of_cells(size, &cells));
    let mut out = vec![Stone::Empty; cells.len()];
    for &t in Transform::all_for(size) {
        assert!(transform_cells(t, size, &cells, &mut out));
        assert_eq!(
            b.bgo_hashes().0[t.index()],
            BgoHashes::of_cells(size, &out).0[0],
            "bGo hash {t:?}"
        );
        assert_eq!(
            b.keys().0[t.index()],
            Keys::of_cells(size, &out).0[0],
            "key {t:?}"
        );
        // A transform composed with its inverse is the identity.
        let mut back = vec![Stone::Empty; cells.len()];
        assert!(transform_cells(t.inverse(), size, &out, &mut back));
        assert_eq!(back, cells);
        assert_eq!(t.then(t.inverse()), Transform::IDENTITY);
    }
    for g in b.groups() {
        assert!(!g.liberties.is_empty(), "group without liberties");
    }
    let stones = cells.iter().filter(|&&s| s != Stone::Empty).count();
    assert_eq!(b.stone_count() as usize, stones);
    check_position_key(b);
}

/// The key computed once from the stones equals the one kept up to date, and the
/// symmetries found among its candidates are all of them.
fn check_position_key(b: &Board) {
    let pk = b.position_key();
    let (key, t) = b.keys().canonical(b.size());
    assert_eq!(pk.key, key, "position key");
    assert_eq!(pk.to_canonical, t, "canonical transform");
    assert_eq!(pk.bgo, b.bgo_hashes().0[0], "bGo hash");
    assert_eq!(b.symmetries_among(pk.maybe_symmetric), b.symmetries());
    for t in b.symmetries().iter() {
        assert!(pk.maybe_symmetric.contains(t));
    }
}

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (any::<bool>(), 0u8..3).prop_map(|(suicide_allowed, k)| Rules {
        suicide_allowed,
        ko: match k {
            0 => KoRule::None,
            1 => KoRule::Simple,
            _ => KoRule::PositionalSuperko,
        },
    })
}

fn run_game(w: u8, h: u8, rules: Rules, seeds: &[u16], use_replay_superko: bool) {
    let size = Size::new(w, h).unwrap();
    let mut board = Board::with_rules(size, rules);
    let mut plain: Board<StonesOnly> = Board::empty(size, rules);
    let mut replay: Replay<400> = Replay::with_rules(size, rules);
    let mut naive = Naive::new(w as usize, h as usize, rules);
    // Under superko the board alone only knows simple ko: the naive reference follows
    // the replay, the board is compared with a simple-ko reference.
    let mut naive_simple = Naive::new(
        w as usize,
        h as usize,
        Rules {
            ko: if rules.ko == KoRule::None {
                KoRule::None
            } else {
                KoRule::Simple
            },
            ..rules
        },
    );
    let mut snapshots = vec![replay.board().clone()];
    let mut color = Color::Black;
    let n = size.points();
    for &s in seeds {
        let mv = if s % 16 == 0 {
            Move::Pass
        } else if s % 97 == 1 {
            Move::Play(Point::new(w, (s % 20) as u8)) // off board
        } else {
            let i = (s as usize / 16) % n;
            Move::Play(Point::new((i % w as usize) as u8, (i / w as usize) as u8))
        };
        // Board against the simple-ko reference.
        let before = board.clone();
        let tried = board.try_play(color, mv);
        assert_eq!(board, before, "try_play changed the board");
        let got = board.play(color, mv);
        assert_eq!(got, tried, "try_play disagrees with play");
        let want = naive_simple.play(color, mv);
        match (&got, &want) {
            (Ok(c), Ok((removed, own))) => {
                let pts: Vec<usize> = c
                    .points
                    .iter()
                    .map(|p| p.y as usize * w as usize + p.x as usize)
                    .collect();
                assert_eq!(&pts, removed);
                assert_eq!(c.count as usize, removed.len());
                if !removed.is_empty() {
                    assert_eq!(c.own, *own);
                }
            }
            (Err(e), Err(f)) => {
                assert_eq!(e, f);
                assert_eq!(board, before, "error changed the board");
            }
            _ => panic!("board {got:?} vs reference {want:?} for {mv:?}"),
        }
        assert_eq!(cells_of(&board), naive_simple.cells);
        check_hashes(&board);
        // A board of stones only plays exactly as the hashed one (`place`: the same
        // move without the captures reported).
        assert_eq!(
            plain.place(color, mv),
            got.as_ref().map(|_| ()).map_err(|e| *e),
            "stones-only board"
        );
        assert_eq!(plain.stones(Color::Black), board.stones(Color::Black));
        assert_eq!(plain.stones(Color::White), board.stones(Color::White));
        assert_eq!(plain.ko(), board.ko());
        assert_eq!(plain.position_key(), board.position_key());

        // Replay (superko included) against the full reference.
        if use_replay_superko {
            let r = replay.try_play(color, mv);
            let got = replay.play(color, mv);
            assert_eq!(got, r, "replay try_play disagrees");
            let want = naive.play(color, mv);
            assert_eq!(got.is_ok(), want.is_ok(), "{got:?} vs {want:?}");
            if let (Err(e), Err(f)) = (&got, &want) {
                assert_eq!(e, f);
            }
            assert_eq!(cells_of(replay.board()), naive.cells);
            if got.is_ok() {
                snapshots.push(replay.board().clone());
            }
        }
        if got.is_ok() {
            color = color.opponent();
        }
    }
    // Undo everything, checking each position exactly.
    if use_replay_superko {
        assert_eq!(replay.len() + 1, snapshots.len());
        while let Some(step) = {
            let last = snapshots.pop().unwrap();
            assert_eq!(*replay.board(), last, "undo did not restore the position");
            replay.undo()
        } {
            assert!(matches!(step, Event::Play { .. }));
        }
        assert!(snapshots.is_empty());
        assert_eq!(replay.board().stone_count(), 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_games(
        w in 1u8..=19,
        h in 1u8..=19,
        square in any::<bool>(),
        rules in rules_strategy(),
        seeds in prop::collection::vec(any::<u16>(), 0..220),
    ) {
        let h = if square { w } else { h };
        run_game(w, h, rules, &seeds, true);
    }

    #[test]
    fn random_games_small(
        w in 1u8..=5,
        h in 1u8..=5,
        rules in rules_strategy(),
        seeds in prop::collection::vec(any::<u16>(), 0..150),
    ) {
        run_game(w, h, rules, &seeds, true);
    }

    #[test]
    fn setup_steps_undo(
        w in 1u8..=9,
        h in 1u8..=9,
        ops in prop::collection::vec((any::<u16>(), 0u8..4), 0..120),
    ) {
        let size = Size::new(w, h).unwrap();
        let mut r: Replay<200> = Replay::with_rules(size, Rules::RECORD);
        let mut snaps = vec![r.board().clone()];
        let n = size.points();
        let mut color = Color::Black;
        for (s, op) in ops {
            let i = s as usize % n;
            let p = Point::new((i % w as usize) as u8, (i / w as usize) as u8);
            let ok = match op {
                0 => r.set_stone(p, Stone::Black).is_ok(),
                1 => r.set_stone(p, Stone::White).is_ok(),
                2 => r.set_stone(p, Stone::Empty).is_ok(),
                _ => {
                    let ok = r.play(color, Move::Play(p)).is_ok();
                    color = color.opponent();
                    ok
                }
            };
            if ok {
                snaps.push(r.board().clone());
            }
            check_hashes_loose(r.board());
        }
        while let Some(last) = snaps.pop() {
            prop_assert_eq!(r.board(), &last);
            if snaps.is_empty() {
                prop_assert!(r.undo().is_none());
            } else {
                prop_assert!(r.undo().is_some());
            }
        }
    }
}

/// A position symmetric under the transforms generated by `gens`: random stones and all
/// their images (a point taking the colour of its first image).
fn symmetric_position(w: u8, seeds: &[u16], gens: u8) -> Board {
    let size = Size::new(w, w).unwrap();
    let n = size.points();
    let mut cells = vec![Stone::Empty; n];
    let group: Vec<Transform> = {
        let mut g = vec![Transform::IDENTITY];
        loop {
            let mut grew = false;
            for a in g.clone() {
                for t in Transform::ALL.iter().filter(|t| gens >> t.index() & 1 == 1) {
                    let c = a.then(*t);
                    if !g.contains(&c) {
                        g.push(c);
                        grew = true;
                    }
                }
            }
            if !grew {
                break g;
            }
        }
    };
    for &s in seeds {
        let i = s as usize % n;
        let p = Point::new((i % w as usize) as u8, (i / w as usize) as u8);
        let stone = if s & 0x8000 == 0 {
            Stone::Black
        } else {
            Stone::White
        };
        for t in &group {
            let q = t.apply_unchecked(p, size);
            let j = q.y as usize * w as usize + q.x as usize;
            if cells[j] == Stone::Empty {
                cells[j] = stone;
            }
        }
    }
    let b = Board::from_cells(size, &cells).unwrap();
    for t in &group {
        assert!(b.symmetries().contains(*t), "built symmetric");
    }
    b
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Symmetric positions tie on their keys: the key computed from the stones settles the
    /// ties as `Keys::canonical` does.
    #[test]
    fn position_key_of_symmetric_positions(
        w in 1u8..=19,
        seeds in prop::collection::vec(any::<u16>(), 0..40),
        gens in any::<u8>(),
    ) {
        let b = symmetric_position(w, &seeds, gens);
        check_position_key(&b);
    }
}

/// Hashes and keys only (setup may leave groups without liberties).
fn check_hashes_loose(b: &Board) {
    let cells = cells_of(b);
    assert_eq!(*b.bgo_hashes(), BgoHashes::of_cells(b.size(), &cells));
    assert_eq!(*b.keys(), Keys::of_cells(b.size(), &cells));
    check_position_key(b);
}

#[test]
fn superko_forbids_a_double_ko_cycle() {
    // Two kos on a 9x3 board. Ko 1 (left) holds a black stone at (2,1), ko 2 (right) a
    // white stone at (7,1).
    let size = Size::new(9, 3).unwrap();
    let rules = Rules {
        suicide_allowed: false,
        ko: KoRule::PositionalSuperko,
    };
    let mut r: Replay<64> = Replay::with_rules(size, rules);
    let rows = [".XO...OX.", "X.XO.O.OX", ".XO...OX."];
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.bytes().enumerate() {
            let s = match c {
                b'X' => Stone::Black,
                b'O' => Stone::White,
                _ => Stone::Empty,
            };
            r.set_stone(Point::new(x as u8, y as u8), s).unwrap();
        }
    }
    let start = r.board().clone();
    let setup_steps = r.len();
    let p = |x, y| Move::Play(Point::new(x, y));
    // White takes ko 1, Black takes ko 2.
    assert_eq!(r.play(Color::White, p(1, 1)).unwrap().count, 1);
    assert_eq!(r.play(Color::Black, p(6, 1)).unwrap().count, 1);
    // White may not retake ko 2 at once (simple ko); White passes.
    assert_eq!(r.try_play(Color::White, p(7, 1)), Err(MoveError::Ko));
    r.play(Color::White, Move::Pass).unwrap();
    // Black retakes ko 1.
    assert_eq!(r.play(Color::Black, p(2, 1)).unwrap().count, 1);
    // White retaking ko 2 now is fine under simple ko, but recreates the starting
    // position: positional superko forbids it.
    let mut plain = r.board().clone();
    plain.set_rules(Rules::default());
    assert!(plain.play(Color::White, p(7, 1)).is_ok());
    assert_eq!(plain.stones(Color::Black), start.stones(Color::Black));
    assert_eq!(plain.stones(Color::White), start.stones(Color::White));
    let before = r.board().clone();
    assert_eq!(r.try_play(Color::White, p(7, 1)), Err(MoveError::Superko));
    assert_eq!(r.play(Color::White, p(7, 1)), Err(MoveError::Superko));
    assert_eq!(r.board(), &before);
    // Undo back to the setup.
    for _ in 0..4 {
        assert!(matches!(r.undo(), Some(Event::Play { .. })));
    }
    assert_eq!(r.len(), setup_steps);
    assert_eq!(r.board(), &start);
    r.undo_all();
    assert_eq!(r.board().stone_count(), 0);
    assert_eq!(r.board().bgo_hashes().0, [0; 8]);
}

#[test]
fn replay_history_full() {
    let size = Size::new(5, 5).unwrap();
    let mut r: Replay<2> = Replay::new(size);
    r.play(Color::Black, Move::Play(Point::new(0, 0))).unwrap();
    r.play(Color::White, Move::Pass).unwrap();
    let before = r.board().clone();
    assert_eq!(
        r.play(Color::Black, Move::Play(Point::new(1, 1))),
        Err(MoveError::HistoryFull)
    );
    assert_eq!(r.board(), &before);
    assert_eq!(
        r.undo(),
        Some(Event::Play {
            color: Color::White,
            mv: Move::Pass
        })
    );
    assert_eq!(r.len(), 1);
    let _ = PointSet::EMPTY;
}

#[test]
fn replay_size() {
    let n = std::mem::size_of::<Replay<400>>();
    println!("size_of::<Replay<400>>() = {n}");
    assert!(n <= 4096);
}

#[test]
fn board_sizes() {
    let hashed = std::mem::size_of::<Board>();
    let plain = std::mem::size_of::<Board<StonesOnly>>();
    println!("size_of::<Board>() = {hashed}, size_of::<Board<StonesOnly>>() = {plain}");
    assert!(hashed < 2048);
    // Two 19-row bitboards and a few bytes of state.
    assert!(plain <= 2 * 19 * 4 + 16, "{plain}");
}
