//! The tracker on small boards: moves, captures lifted over several snapshots, noise that
//! changes nothing, and each condition.

extern crate std;

use std::string::String;
use std::vec::Vec;

use super::*;
use crate::board::{Board, Rules, StonesOnly};
use crate::point::{Point, Size, Stone};
use crate::query::set_cells;

/// A 5x5 snapshot from its rows (`.` `X` `O`).
fn snap(rows: &[&str]) -> Board<StonesOnly> {
    let n = rows.len() as u8;
    let mut b = Board::empty(Size::square(n).unwrap(), Rules::RECORD);
    let cells: String = rows.concat();
    set_cells(&mut b, cells.as_bytes()).unwrap();
    b
}

fn pts(s: &str) -> PointSet {
    s.split(',')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let b = w.as_bytes();
            Point::new(b[0] - b'a', b[1] - b'a')
        })
        .collect()
}

fn fix(condition: Condition, points: &str) -> Seen {
    Seen::Fix(Fix {
        condition,
        points: pts(points),
    })
}

fn moves(t: &Tracker) -> String {
    let v: Vec<String> = t
        .record()
        .moves()
        .map(|(c, m)| match m {
            Move::Play(p) => std::format!(
                "{}{}{}",
                c.letter(),
                (b'a' + p.x) as char,
                (b'a' + p.y) as char
            ),
            Move::Pass => std::format!("{}-", c.letter()),
        })
        .collect();
    v.join(" ")
}

fn started(rows: &[&str]) -> Tracker {
    let mut t = Tracker::new();
    t.start(&snap(rows), None);
    t
}

#[test]
fn moves_and_a_capture_lifted_stone_by_stone() {
    // Black surrounds two white stones and takes them.
    let mut t2 = started(&[".....", ".....", ".....", ".....", "....."]);
    let seq: [&[&str]; 9] = [
        &[".....", ".X...", ".....", ".....", "....."],
        &[".....", ".XO..", ".....", ".....", "....."],
        &["..X..", ".XO..", ".....", ".....", "....."],
        &["..X..", ".XO..", "..O..", ".....", "....."],
        &["..X..", ".XOX.", "..O..", ".....", "....."],
        &["..X..", ".XOX.", "..O..", "....O", "....."],
        &["..X..", ".XOX.", ".XO..", "....O", "....."],
        &["..X..", ".XOX.", ".XO..", "....O", "...O."],
        &["..X..", ".XOX.", ".XOX.", "....O", "...O."],
    ];
    for s in seq {
        assert_eq!(t2.see(&snap(s)), Seen::Consistent, "{s:?}");
    }
    assert_eq!(moves(&t2), "Bbb Wcb Bca Wcc Bdb Wed Bbc Wde Bdc");
    assert_eq!(t2.to_move(), Color::White);
    // White fills; Black captures the pair at cd: the two stones leave one at a time.
    assert_eq!(
        t2.see(&snap(&["..X..", ".XOX.", ".XOX.", "....O", "...OO"])),
        Seen::Consistent
    );
    assert_eq!(
        t2.see(&snap(&["..X..", ".XOX.", ".XOX.", "..X.O", "...OO"])),
        fix(Condition::Remove, "cb,cc")
    );
    assert_eq!(
        t2.see(&snap(&["..X..", ".X.X.", ".XOX.", "..X.O", "...OO"])),
        fix(Condition::Remove, "cc")
    );
    assert_eq!(
        t2.see(&snap(&["..X..", ".X.X.", ".X.X.", "..X.O", "...OO"])),
        Seen::Consistent
    );
    assert_eq!(t2.record().len(), 11);
    assert_eq!(t2.board().get(Point::new(2, 1)), Stone::Empty);
    assert_eq!(t2.to_move(), Color::White);
}

#[test]
fn captured_stones_lifted_before_the_capturing_stone() {
    let mut t = started(&[".X...", "XO...", ".X...", ".....", "....."]);
    // Setup: 3 black, 1 white: White to move by the counts; White passes? No: White plays.
    assert_eq!(t.to_move(), Color::White);
    assert_eq!(
        t.see(&snap(&[".X...", "XO...", ".X...", ".....", "...O."])),
        Seen::Consistent
    );
    // Black lifts the white stone before playing the capturing stone.
    assert_eq!(
        t.see(&snap(&[".X...", "X....", ".X...", ".....", "...O."])),
        fix(Condition::Restore, "bb")
    );
    assert_eq!(
        t.see(&snap(&[".X...", "X.X..", ".X...", ".....", "...O."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Wde Bcb");
}

#[test]
fn flicker_shorter_than_stable_changes_nothing() {
    let empty = [".....", ".....", ".....", ".....", "....."];
    let one = [".....", ".....", "..X..", ".....", "....."];
    let mut t = started(&empty);
    assert_eq!(t.see(&snap(&one)), Seen::Consistent);
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&one)), Seen::Consistent);
    }
    assert_eq!(t.settled(), 1);
    // A phantom white stone for STABLE - 1 snapshots: recorded, then taken back.
    let phantom = [".....", ".O...", "..X..", ".....", "....."];
    let g = t.generation();
    for _ in 0..STABLE - 1 {
        assert_eq!(t.see(&snap(&phantom)), Seen::Consistent);
        assert_eq!(t.record().len(), 2);
    }
    assert_eq!(t.see(&snap(&one)), Seen::Consistent);
    assert_eq!(moves(&t), "Bcc");
    assert_ne!(t.generation(), g);
    // The recorded stone reads empty once: restore, then nothing happened.
    assert_eq!(t.see(&snap(&empty)), fix(Condition::Restore, "cc"));
    assert_eq!(t.see(&snap(&one)), Seen::Consistent);
    assert_eq!(moves(&t), "Bcc");
    // A phantom of the side not to move, a phantom pair: named, and gone.
    let black = [".....", ".....", "..X..", ".X...", "....."];
    assert_eq!(t.see(&snap(&black)), fix(Condition::WrongColor, "bd"));
    let pair = [".....", "...O.", "..X..", ".O...", "....."];
    assert_eq!(t.see(&snap(&pair)), fix(Condition::Remove, "db,bd"));
    assert_eq!(t.see(&snap(&one)), Seen::Consistent);
    assert_eq!(moves(&t), "Bcc");
    // A stone that stays STABLE snapshots is a move for good: lifting it is `restore`.
    let two = [".....", ".O...", "..X..", ".....", "....."];
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&two)), Seen::Consistent);
    }
    assert_eq!(t.settled(), 2);
    assert_eq!(t.see(&snap(&one)), fix(Condition::Restore, "bb"));
    assert_eq!(moves(&t), "Bcc Wbb");
}

#[test]
fn a_stone_slid_to_its_point_is_played_where_it_lands() {
    let mut t = started(&[".....", ".....", ".....", ".....", "....."]);
    assert_eq!(
        t.see(&snap(&[".....", ".....", ".X...", ".....", "....."])),
        Seen::Consistent
    );
    assert_eq!(
        t.see(&snap(&[".....", ".....", "..X..", ".....", "....."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bcc");
}

#[test]
fn conditions_are_named_and_the_record_waits() {
    let empty = [".....", ".....", ".....", ".....", "....."];
    let mut t = started(&empty);
    // Two new stones: remove (both listed); lifting one leaves the move.
    assert_eq!(
        t.see(&snap(&[".X...", ".....", ".....", "...X.", "....."])),
        fix(Condition::Remove, "ba,dd")
    );
    assert!(t.record().is_empty());
    assert_eq!(
        t.see(&snap(&[".....", ".....", ".....", "...X.", "....."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bdd");
    // Black again: wrong colour.
    assert_eq!(
        t.see(&snap(&[".X...", ".....", ".....", "...X.", "....."])),
        fix(Condition::WrongColor, "ba")
    );
    // A recorded stone replaced by the other colour: restore (once the move is settled;
    // before, it is taken back and the white stone is of the side not to move).
    let one = [".....", ".....", ".....", "...X.", "....."];
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&one)), Seen::Consistent);
    }
    assert_eq!(
        t.see(&snap(&[".....", ".....", ".....", "...O.", "....."])),
        fix(Condition::Restore, "dd")
    );
    assert_eq!(moves(&t), "Bdd");
}

#[test]
fn illegal_moves_are_named() {
    // A ko: White takes at cb... set up so that Black may not retake at once.
    let start = [".XO..", "X.XO.", ".XO..", ".....", "....."];
    let mut t = Tracker::new();
    t.start(&snap(&start), Some(Color::White));
    assert_eq!(t.to_move(), Color::White);
    // White takes the black stone at cb by playing bb.
    assert_eq!(
        t.see(&snap(&[".XO..", "XO.O.", ".XO..", ".....", "....."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Wbb");
    // A black stone at cb at once: the captured stone is back (remove) ...
    let retake = [".XO..", "XOXO.", ".XO..", ".....", "....."];
    assert_eq!(t.see(&snap(&retake)), fix(Condition::Remove, "cb"));
    // ... and once it has been off the board for good, retaking the ko is illegal.
    for _ in 0..STABLE {
        assert_eq!(
            t.see(&snap(&[".XO..", "XO.O.", ".XO..", ".....", "....."])),
            Seen::Consistent
        );
    }
    assert_eq!(t.see(&snap(&retake)), fix(Condition::IllegalMove, "cb"));
    assert_eq!(moves(&t), "Wbb");
    // Suicide: a black stone in White's eye.
    let mut t = Tracker::new();
    t.start(
        &snap(&[".O...", "O....", ".....", ".....", "....X"]),
        Some(Color::Black),
    );
    assert_eq!(
        t.see(&snap(&["XO...", "O....", ".....", ".....", "....X"])),
        fix(Condition::IllegalMove, "aa")
    );
}

#[test]
fn captured_stones_still_on_the_board_are_removed_first() {
    // White's pair at bb,cb is captured by Black at db.
    let start = [".XX..", "XOO..", ".XX..", ".....", "....."];
    let mut t = Tracker::new();
    t.start(&snap(&start), Some(Color::Black));
    let captured = [".XX..", "XOOX.", ".XX..", ".....", "....."];
    assert_eq!(t.see(&snap(&captured)), fix(Condition::Remove, "bb,cb"));
    // White plays before they are lifted: the record waits.
    let early = [".XX..", "XOOX.", ".XX..", ".....", "...O."];
    assert_eq!(t.see(&snap(&early)), fix(Condition::Remove, "bb,cb"));
    // One is lifted; the other flickers empty once and back: still a captured stone, even
    // though White could play there (the lifted one left it a liberty).
    let one = [".XX..", "X.OX.", ".XX..", ".....", "...O."];
    assert_eq!(t.see(&snap(&one)), fix(Condition::Remove, "cb"));
    assert_eq!(t.see(&snap(&one)), fix(Condition::Remove, "cb"));
    let both = [".XX..", "X..X.", ".XX..", ".....", "...O."];
    assert_eq!(t.see(&snap(&both)), Seen::Consistent);
    assert_eq!(moves(&t), "Bdb Wde");
    // Once White's move is recorded, a white stone there is of the side not to move.
    assert_eq!(t.see(&snap(&one)), fix(Condition::WrongColor, "cb"));
    assert_eq!(t.see(&snap(&both)), Seen::Consistent);
    let into = [".XX..", "XX.X.", ".XX..", ".....", "...O."];
    assert_eq!(t.see(&snap(&into)), Seen::Consistent);
    assert_eq!(moves(&t), "Bdb Wde Bbb");
}

#[test]
fn the_first_snapshot_is_the_setup() {
    let t = started(&["X....", ".....", "..X..", ".....", "....X"]);
    assert_eq!(t.to_move(), Color::White, "all black: White first");
    let mut t = Tracker::new();
    t.start(
        &snap(&["X....", ".....", "..X..", ".....", "....X"]),
        Some(Color::Black),
    );
    assert_eq!(
        t.to_move(),
        Color::White,
        "all black: White first, whatever is named"
    );
    t.start(&snap(&["X....", ".....", "..O..", ".....", "....."]), None);
    assert_eq!(t.to_move(), Color::Black);
    t.start(
        &snap(&["X....", ".....", "..O..", ".....", "....."]),
        Some(Color::White),
    );
    assert_eq!(t.to_move(), Color::White);
    assert_eq!(t.record().setup(Color::Black).len(), 1);
    assert_eq!(t.record().setup(Color::White).len(), 1);
    t.reset();
    assert!(t.is_waiting());
}

#[test]
fn a_tracker_is_small() {
    let size = core::mem::size_of::<Tracker>();
    assert!(size <= 2748, "{size}");
}

/// A 5x5 corner where Black's stone at aa is captured by White at ab (White's ba and
/// Black's ee set up: Black to move).
const CORNER: [&str; 5] = [".O...", ".....", ".....", ".....", "....X"];

#[test]
fn a_provisional_move_captured_at_once_survives_a_phantom_move_recorded_meanwhile() {
    // Black plays aa and a phantom white stone shows at cc on the same snapshot: both are
    // recorded (both players may move between two snapshots). White's real move ab is then
    // of the side not to move. When the phantom goes and aa is lifted (ab captured it), the
    // phantom is taken back and Black's move kept: ab took it.
    let mut t = started(&CORNER);
    assert_eq!(t.to_move(), Color::Black);
    assert_eq!(
        t.see(&snap(&["XO...", ".....", "..O..", ".....", "....X"])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Baa Wcc");
    assert_eq!(
        t.see(&snap(&["XO...", "O....", "..O..", ".....", "....X"])),
        fix(Condition::WrongColor, "ab")
    );
    assert_eq!(
        t.see(&snap(&[".O...", "O....", ".....", ".....", "....X"])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Baa Wab");
}

#[test]
fn a_provisional_move_captured_while_another_stone_is_misread_survives() {
    // Black plays aa, White captures it at ab while Black's ee reads empty: restore ee; aa
    // lifted meanwhile is still the captured stone, not a move taken back.
    let mut t = started(&CORNER);
    assert_eq!(
        t.see(&snap(&["XO...", ".....", ".....", ".....", "....X"])),
        Seen::Consistent
    );
    assert_eq!(
        t.see(&snap(&["XO...", "O....", ".....", ".....", "....."])),
        fix(Condition::Restore, "ee")
    );
    assert_eq!(
        t.see(&snap(&[".O...", "O....", ".....", ".....", "....."])),
        fix(Condition::Restore, "ee")
    );
    // The capture is recorded while ee is missing (a final stone: the game goes on while
    // it is put back).
    assert_eq!(moves(&t), "Baa Wab");
    assert_eq!(
        t.see(&snap(&[".O...", "O....", ".....", ".....", "....X"])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Baa Wab");
}

#[test]
fn a_move_settles_on_snapshots_that_agree_with_the_record() {
    // White's stone slid from dd to cd, and dd misread as white for two more snapshots:
    // dd is seen on three snapshots, but on two of them White's real stone is there too
    // (of the side not to move after dd): dd stays provisional and goes when dd clears.
    let mut t = started(&[".....", ".....", "..X..", ".....", "....."]);
    let slid = [".....", ".....", "..X..", "...O.", "....."];
    let both = [".....", ".....", "..X..", "..OO.", "....."];
    let real = [".....", ".....", "..X..", "..O..", "....."];
    assert_eq!(t.see(&snap(&slid)), Seen::Consistent);
    assert_eq!(moves(&t), "Wdd");
    assert_eq!(t.see(&snap(&both)), fix(Condition::WrongColor, "cd"));
    assert_eq!(t.see(&snap(&both)), fix(Condition::WrongColor, "cd"));
    assert_eq!(t.settled(), 0);
    assert_eq!(t.see(&snap(&real)), Seen::Consistent);
    assert_eq!(moves(&t), "Wcd");
}

/// White's group ab, bb, cb, ca with two liberties (aa, ba) in Black's corner: a
/// snapback. Black to move.
const SNAPBACK: [&str; 5] = ["..OX.", "OOOX.", "XXXX.", ".....", "....."];

#[test]
fn a_snapback_played_at_once_is_a_move() {
    let mut t = Tracker::new();
    t.start(&snap(&SNAPBACK), Some(Color::Black));
    // Black throws in at ba, White takes it at aa, Black plays ba again as soon as the
    // stone is lifted: the recapture takes White's five stones.
    assert_eq!(
        t.see(&snap(&[".XOX.", "OOOX.", "XXXX.", ".....", "....."])),
        Seen::Consistent
    );
    assert_eq!(
        t.see(&snap(&["OXOX.", "OOOX.", "XXXX.", ".....", "....."])),
        fix(Condition::Remove, "ba")
    );
    let taken = ["O.OX.", "OOOX.", "XXXX.", ".....", "....."];
    assert_eq!(t.see(&snap(&taken)), Seen::Consistent);
    assert_eq!(
        t.see(&snap(&["OXOX.", "OOOX.", "XXXX.", ".....", "....."])),
        fix(Condition::Remove, "aa,ca,ab,bb,cb")
    );
    assert_eq!(moves(&t), "Bba Waa Bba");
    let after = [".X.X.", "...X.", "XXXX.", ".....", "....."];
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&after)), Seen::Consistent);
    }
    assert_eq!(t.settled(), 3);
    assert_eq!(moves(&t), "Bba Waa Bba");
}

#[test]
fn a_stone_captured_by_a_phantom_is_not_a_move_that_retakes() {
    // Black's stone thrown in at ba; a phantom white stone at aa would take it, but it
    // stays on the board (never lifted): it is to be removed, never taken for Black
    // retaking (which would capture the phantom and its group); when the phantom goes,
    // nothing happened.
    let mut t = Tracker::new();
    t.start(&snap(&SNAPBACK), Some(Color::Black));
    let thrown = [".XOX.", "OOOX.", "XXXX.", ".....", "....."];
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&thrown)), Seen::Consistent);
    }
    assert_eq!(
        t.see(&snap(&["OXOX.", "OOOX.", "XXXX.", ".....", "....."])),
        fix(Condition::Remove, "ba")
    );
    assert_eq!(t.see(&snap(&thrown)), Seen::Consistent);
    assert_eq!(moves(&t), "Bba");
}

#[test]
fn a_captured_stone_misread_in_a_snapback_shape_is_taken_back_when_lifted() {
    let mut t = Tracker::new();
    t.start(&snap(&SNAPBACK), Some(Color::Black));
    let thrown = [".XOX.", "OOOX.", "XXXX.", ".....", "....."];
    let taken_on_board = ["OXOX.", "OOOX.", "XXXX.", ".....", "....."];
    let taken = ["O.OX.", "OOOX.", "XXXX.", ".....", "....."];
    assert_eq!(t.see(&snap(&thrown)), Seen::Consistent);
    assert_eq!(t.see(&snap(&taken_on_board)), fix(Condition::Remove, "ba"));
    // The captured stone, still on the board, misreads empty once: when it reads again it
    // looks like the snapback, recorded for the moment (the stones it would take stay) ...
    assert_eq!(t.see(&snap(&taken)), Seen::Consistent);
    assert_eq!(
        t.see(&snap(&taken_on_board)),
        fix(Condition::Remove, "aa,ca,ab,bb,cb")
    );
    assert_eq!(
        t.see(&snap(&taken_on_board)),
        fix(Condition::Remove, "aa,ca,ab,bb,cb")
    );
    assert_eq!(moves(&t), "Bba Waa Bba");
    // ... and taken back when White lifts it.
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&taken)), Seen::Consistent);
    }
    assert_eq!(moves(&t), "Bba Waa");
}

#[test]
fn a_ko_retaken_after_the_threat_exchange_is_a_move_however_fast() {
    // White takes the ko at bb; Black's threat at ee and White's answer at ed come one
    // snapshot each, and Black retakes at cb at once: the point of a stone captured three
    // moves ago is free again. Then the same with the answer and the retake on one snapshot.
    let start = [".XO..", "X.XO.", ".XO..", ".....", "....."];
    for one_snapshot in [false, true] {
        let mut t = Tracker::new();
        t.start(&snap(&start), Some(Color::White));
        let steps: &[(&[&str; 5], Seen)] = &[
            (
                &[".XO..", "XOXO.", ".XO..", ".....", "....."],
                fix(Condition::Remove, "cb"),
            ),
            (
                &[".XO..", "XO.O.", ".XO..", ".....", "....."],
                Seen::Consistent,
            ),
            (
                &[".XO..", "XO.O.", ".XO..", ".....", "....X"],
                Seen::Consistent,
            ),
        ];
        for (s, want) in steps {
            assert_eq!(t.see(&snap(*s)), *want, "{s:?}");
        }
        if !one_snapshot {
            assert_eq!(
                t.see(&snap(&[".XO..", "XO.O.", ".XO..", "....O", "....X"])),
                Seen::Consistent
            );
        }
        assert_eq!(
            t.see(&snap(&[".XO..", "XOXO.", ".XO..", "....O", "....X"])),
            fix(Condition::Remove, "bb")
        );
        assert_eq!(
            t.see(&snap(&[".XO..", "X.XO.", ".XO..", "....O", "....X"])),
            Seen::Consistent
        );
        assert_eq!(moves(&t), "Wbb Bee Wed Bcb", "{one_snapshot}");
    }
}

#[test]
fn a_phantom_then_a_stone_slid_over_it_settles_and_moves_where_the_stone_lands() {
    // A phantom white stone at cc for two snapshots, then White's stone slid over it to dc:
    // cc stood three snapshots and settled; when the stone lands next door it is moved
    // there, provisional again.
    let mut t = started(&[".....", ".....", ".....", ".X...", "....."]);
    let phantom = [".....", ".....", "..O..", ".X...", "....."];
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&phantom)), Seen::Consistent);
    }
    assert_eq!((moves(&t).as_str(), t.settled()), ("Wcc", 1));
    let landed = [".....", ".....", "...O.", ".X...", "....."];
    assert_eq!(t.see(&snap(&landed)), Seen::Consistent);
    assert_eq!((moves(&t).as_str(), t.settled()), ("Wdc", 0));
    // Black to move: a black stone next to a settled white move is Black's move.
    let b = [".....", ".....", "..XO.", ".X...", "....."];
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&b)), Seen::Consistent);
    }
    assert_eq!((moves(&t).as_str(), t.settled()), ("Wdc Bcc", 2));
    // A settled last move whose stone shows elsewhere (a phantom that stood three
    // snapshots, then the real move) is moved there; and back if the old stone returns.
    let far = ["..X..", ".....", "...O.", ".X...", "....."];
    assert_eq!(t.see(&snap(&far)), Seen::Consistent);
    assert_eq!((moves(&t).as_str(), t.settled()), ("Wdc Bca", 1));
    assert_eq!(t.see(&snap(&b)), Seen::Consistent);
    assert_eq!((moves(&t).as_str(), t.settled()), ("Wdc Bcc", 1));
}

#[test]
fn a_move_taken_back_while_its_capturer_read_wrong_comes_back() {
    // White's aa, provisional, is taken at once by Black's ab, which reads white (a
    // misreading since before it was placed) as aa is lifted: aa is taken back and ab
    // recorded as White's (a slide from aa); when ab reads black, aa comes back, captured.
    let mut t = started(&[".X...", ".....", ".....", ".....", "....."]);
    let aa = ["OX...", ".....", ".....", ".....", "....."];
    assert_eq!(t.see(&snap(&aa)), Seen::Consistent);
    assert_eq!(t.see(&snap(&aa)), Seen::Consistent);
    assert_eq!(
        t.see(&snap(&["OX...", "O....", ".....", ".....", "....."])),
        fix(Condition::WrongColor, "ab")
    );
    assert_eq!(
        t.see(&snap(&[".X...", "O....", ".....", ".....", "....."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Wab");
    assert_eq!(
        t.see(&snap(&[".X...", "X....", ".....", ".....", "....."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Waa Bab");
}

#[test]
fn moves_taken_back_and_seen_again_with_later_ones_are_replayed_in_their_order() {
    // White's dd, provisional, reads black as Black plays bb: dd is taken back, two new
    // black stones are to remove. Then dd reads white and White has played ee: of White's
    // two new stones, dd was played first (the record had it): dd, bb, ee.
    let mut t = started(&[".....", ".....", ".....", ".....", "....."]);
    let cc = [".....", ".....", "..X..", ".....", "....."];
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&cc)), Seen::Consistent);
    }
    let dd = [".....", ".....", "..X..", "...O.", "....."];
    assert_eq!(t.see(&snap(&dd)), Seen::Consistent);
    assert_eq!(t.see(&snap(&dd)), Seen::Consistent);
    assert_eq!(
        t.see(&snap(&[".....", ".X...", "..X..", "...X.", "....."])),
        fix(Condition::Remove, "bb,dd")
    );
    assert_eq!(moves(&t), "Bcc");
    assert_eq!(
        t.see(&snap(&[".....", ".X...", "..X..", "...O.", "....O"])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bcc Wdd Bbb Wee");
}

#[test]
fn a_settled_move_that_captured_is_not_moved() {
    // Black takes aa's white stone at ba... then slides ba to ca: the capture stands, the
    // board is asked to restore ba.
    let mut t = started(&["O....", "X....", ".....", ".....", "....."]);
    let taken = [".X...", "X....", ".....", ".....", "....."];
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&taken)), Seen::Consistent);
    }
    assert_eq!(moves(&t), "Bba");
    assert_eq!(
        t.see(&snap(&["..X..", "X....", ".....", ".....", "....."])),
        fix(Condition::Restore, "ba")
    );
    assert_eq!(moves(&t), "Bba");
}

#[test]
fn a_settled_move_captured_while_its_capturer_read_wrong_comes_back() {
    // White's aa, settled, is taken by Black's ab; as aa is lifted ab reads white: ab is
    // taken back, and White's aa moved to ab for the moment; when ab reads black, aa comes
    // back, captured.
    let mut t = started(&[".X...", ".....", ".....", ".....", "....."]);
    let aa = ["OX...", ".....", ".....", ".....", "....."];
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&aa)), Seen::Consistent);
    }
    assert_eq!(
        t.see(&snap(&["OX...", "X....", ".....", ".....", "....."])),
        fix(Condition::Remove, "aa")
    );
    assert_eq!(
        t.see(&snap(&[".X...", "O....", ".....", ".....", "....."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Wab");
    assert_eq!(
        t.see(&snap(&[".X...", "X....", ".....", ".....", "....."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Waa Bab");
}

/// The SGF line of a tracker's record.
fn sgf(t: &Tracker) -> String {
    struct Out(Vec<u8>);
    impl embedded_io::ErrorType for Out {
        type Error = core::convert::Infallible;
    }
    impl embedded_io::Write for Out {
        fn write(&mut self, buf: &[u8]) -> Result<usize, Self::Error> {
            self.0.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> Result<(), Self::Error> {
            Ok(())
        }
    }
    let mut out = Out(Vec::new());
    t.record().write_sgf(&mut out).unwrap();
    String::from_utf8(out.0).unwrap().trim_end().into()
}

#[test]
fn a_pass_is_recorded_and_two_passes_end_the_game() {
    let mut t = started(&[".....", ".....", ".....", ".....", "....."]);
    let b = [".....", ".....", "..X..", ".....", "....."];
    assert_eq!(t.see(&snap(&b)), Seen::Consistent);
    assert!(t.pass());
    assert_eq!(t.to_move(), Color::Black);
    assert_eq!(
        t.settled(),
        0,
        "a pass leaves the provisional last move provisional (a phantom may go)"
    );
    assert_eq!(t.history().last, Some(Move::Pass));
    assert_eq!(t.history().before, Some(Move::Play(Point::new(2, 2))));
    // Black plays on after White's pass: a black stone is Black's move.
    let bb = [".....", ".....", "..X..", "...X.", "....."];
    assert_eq!(t.see(&snap(&bb)), Seen::Consistent);
    assert_eq!(sgf(&t), "(;GM[1]FF[4]SZ[5];B[cc];W[];B[dd])");
    // White's stone, then two passes: the game is over.
    let w = [".O...", ".....", "..X..", "...X.", "....."];
    assert_eq!(t.see(&snap(&w)), Seen::Consistent);
    assert!(t.pass() && t.pass());
    assert!(t.is_over());
    // The dead white stone taken off: not an error, the record stays.
    assert_eq!(t.see(&snap(&bb)), Seen::Consistent);
    assert_eq!(
        t.see(&snap(&[".....", ".....", "..X..", ".....", "....."])),
        Seen::Consistent
    );
    // A new stone after the end is to lift.
    assert_eq!(
        t.see(&snap(&["O....", ".....", "..X..", ".....", "....."])),
        fix(Condition::Remove, "aa")
    );
    assert_eq!(sgf(&t), "(;GM[1]FF[4]SZ[5];B[cc];W[];B[dd];W[ba];B[];W[])");
}

#[test]
fn an_undo_waits_for_the_board_then_play_goes_on() {
    // White's pair at bb,cb is captured by Black at db; undo: db to lift, the pair to put
    // back; then Black plays elsewhere.
    let start = [".XX..", "XOO..", ".XX..", ".....", "....."];
    let mut t = Tracker::new();
    t.start(&snap(&start), Some(Color::Black));
    let taken = [".XX..", "X..X.", ".XX..", ".....", "....."];
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&taken)), Seen::Consistent);
    }
    assert_eq!((moves(&t).as_str(), t.settled()), ("Bdb", 1));
    assert!(t.undo());
    assert!(t.is_undo_pending());
    assert_eq!(moves(&t), "");
    assert_eq!(t.to_move(), Color::Black);
    assert_eq!(t.see(&snap(&taken)), fix(Condition::Restore, "bb,cb"));
    assert_eq!(
        t.see(&snap(&[".XX..", "XO.X.", ".XX..", ".....", "....."])),
        fix(Condition::Restore, "cb")
    );
    assert_eq!(
        t.see(&snap(&[".XX..", "XOOX.", ".XX..", ".....", "....."])),
        fix(Condition::Remove, "db")
    );
    assert_eq!(t.see(&snap(&start)), Seen::Consistent);
    assert!(!t.is_undo_pending());
    let other = [".XX..", "XOO..", ".XX..", ".....", "..X.."];
    assert_eq!(t.see(&snap(&other)), Seen::Consistent);
    assert_eq!(moves(&t), "Bce");
    // An undo of a pass needs no change on the board.
    assert!(t.pass());
    assert!(t.undo());
    assert_eq!(t.see(&snap(&other)), Seen::Consistent);
    assert_eq!(moves(&t), "Bce");
    assert_eq!(t.to_move(), Color::White);
}

#[test]
fn handicap_stones_placed_one_by_one_in_any_order_are_the_setup() {
    let mut t = Tracker::new();
    t.reset_to(Some(Size::square(5).unwrap()), 4);
    assert_eq!(sgf(&t), "(;GM[1]FF[4]SZ[5]HA[4])");
    let empty = [".....", ".....", ".....", ".....", "....."];
    t.start(&snap(&empty), None);
    assert!(t.is_placing_handicap());
    let steps: [[&str; 5]; 4] = [
        [".....", ".....", ".....", "...X.", "....."],
        [".....", ".X...", ".....", "...X.", "....."],
        [".....", ".X...", ".....", ".X.X.", "....."],
        [".....", ".X.X.", ".....", ".X.X.", "....."],
    ];
    for s in &steps {
        assert_eq!(t.see(&snap(s)), Seen::Consistent, "{s:?}");
    }
    // A white stone among the handicap stones before they are all placed: wrong colour.
    let mut t2 = t.clone();
    t2.reset_to(Some(Size::square(5).unwrap()), 4);
    t2.start(&snap(&empty), None);
    assert_eq!(t2.see(&snap(&steps[1])), Seen::Consistent);
    assert_eq!(
        t2.see(&snap(&[".....", ".X...", "..O..", "...X.", "....."])),
        fix(Condition::WrongColor, "cc")
    );
    // A fifth black stone: to lift.
    assert_eq!(
        t.see(&snap(&[".....", ".X.X.", "..X..", ".X.X.", "....."])),
        fix(Condition::Remove, "cc")
    );
    // White moves first after the handicap stones.
    let w = [".....", ".X.X.", "..O..", ".X.X.", "....."];
    assert_eq!(t.see(&snap(&w)), Seen::Consistent);
    assert!(!t.is_placing_handicap());
    assert_eq!(t.to_move(), Color::Black);
    assert_eq!(
        sgf(&t),
        "(;GM[1]FF[4]SZ[5]HA[4]AB[bb][db][bd][dd]PL[W];W[cc])"
    );
}

#[test]
fn with_times_a_move_settles_after_settle_ms_not_after_a_count() {
    let empty = [".....", ".....", ".....", ".....", "....."];
    let one = [".....", ".....", "..X..", ".....", "....."];
    let mut t = started(&empty);
    // Ten snapshots within 200 ms: still provisional (counted, it would have settled).
    for ms in 0..10 {
        assert_eq!(
            t.see_at(&snap(&one), Some(1000 + ms * 20)),
            Seen::Consistent
        );
    }
    assert_eq!(t.settled(), 0);
    // Its stone goes: taken back, as a phantom that lasted less than 300 ms.
    assert_eq!(t.see_at(&snap(&empty), Some(1250)), Seen::Consistent);
    assert_eq!(moves(&t), "");
    // One snapshot per change: the stone placed, then nothing for a second, then the
    // next move: the first settled on the next snapshot, 300 ms after it was first seen.
    assert_eq!(t.see_at(&snap(&one), Some(2000)), Seen::Consistent);
    assert_eq!(t.settled(), 0);
    let two = [".....", ".O...", "..X..", ".....", "....."];
    assert_eq!(t.see_at(&snap(&two), Some(3000)), Seen::Consistent);
    assert_eq!((moves(&t).as_str(), t.settled()), ("Bcc Wbb", 1));
    // Nothing for 2 s, then the board is cleared at once: bb stood 2 s, it is final (a
    // missing stone to restore, not a move taken back).
    assert_eq!(
        t.see_at(&snap(&empty), Some(5000)),
        fix(Condition::Restore, "bb,cc")
    );
    assert_eq!((moves(&t).as_str(), t.settled()), ("Bcc Wbb", 2));
    // Captured stones read empty for 300 ms are gone (a change-only board sends nothing
    // meanwhile): a stone there then is a plain move, final once it lasts.
    let mut t = pair();
    let capture = [".XX..", "XOOX.", ".XX..", ".....", "....."];
    assert_eq!(
        t.see_at(&snap(&capture), Some(1000)),
        fix(Condition::Remove, "bb,cb")
    );
    assert_eq!(t.see_at(&snap(&PAIR_TAKEN), Some(1100)), Seen::Consistent);
    let bb = [".XX..", "XO.X.", ".XX..", ".....", "....."];
    assert_eq!(t.see_at(&snap(&bb), Some(1600)), Seen::Consistent);
    assert_eq!(t.see_at(&snap(&bb), Some(2000)), Seen::Consistent);
    assert_eq!((moves(&t).as_str(), t.settled()), ("Bdb Wbb", 2));
}

/// White's pair at bb,cb, taken when Black plays db (Black to move).
const PAIR: [&str; 5] = [".XX..", "XOO..", ".XX..", ".....", "....."];

/// [`PAIR`] after the capture, the pair lifted.
const PAIR_TAKEN: [&str; 5] = [".XX..", "X..X.", ".XX..", ".....", "....."];

fn pair() -> Tracker {
    let mut t = Tracker::new();
    t.start(&snap(&PAIR), Some(Color::Black));
    t
}

#[test]
fn a_throw_in_on_a_point_just_emptied_is_a_move_after_the_stones_are_lifted() {
    // One snapshot per change: the capture, the two stones lifted one by one, and White
    // throws in at once at bb; Black retakes at cb.
    let mut t = pair();
    assert_eq!(
        t.see(&snap(&[".XX..", "XOOX.", ".XX..", ".....", "....."])),
        fix(Condition::Remove, "bb,cb")
    );
    assert_eq!(
        t.see(&snap(&[".XX..", "X.OX.", ".XX..", ".....", "....."])),
        fix(Condition::Remove, "cb")
    );
    assert_eq!(t.see(&snap(&PAIR_TAKEN)), Seen::Consistent);
    assert_eq!(
        t.see(&snap(&[".XX..", "XO.X.", ".XX..", ".....", "....."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bdb Wbb");
    assert_eq!(
        t.see(&snap(&[".XX..", "XOXX.", ".XX..", ".....", "....."])),
        fix(Condition::Remove, "bb")
    );
    assert_eq!(
        t.see(&snap(&[".XX..", "X.XX.", ".XX..", ".....", "....."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bdb Wbb Bcb");
}

#[test]
fn a_throw_in_before_the_captured_stones_are_all_lifted_is_a_move() {
    // bb lifted, White plays there at once while cb is still on the board: the move, and
    // cb to lift.
    let mut t = pair();
    let capture = [".XX..", "XOOX.", ".XX..", ".....", "....."];
    assert_eq!(t.see(&snap(&capture)), fix(Condition::Remove, "bb,cb"));
    assert_eq!(
        t.see(&snap(&[".XX..", "X.OX.", ".XX..", ".....", "....."])),
        fix(Condition::Remove, "cb")
    );
    assert_eq!(t.see(&snap(&capture)), fix(Condition::Remove, "cb"));
    assert_eq!(moves(&t), "Bdb Wbb");
    let thrown = [".XX..", "XO.X.", ".XX..", ".....", "....."];
    assert_eq!(t.see(&snap(&thrown)), Seen::Consistent);
    // Black answers: the record follows.
    assert_eq!(
        t.see(&snap(&[".XX..", "XO.X.", ".XX..", "..X..", "....."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bdb Wbb Bcd");
}

#[test]
fn a_throw_in_within_the_reading_of_the_capture_is_a_move() {
    // The capture, both stones lifted and White's stone at bb, all between two readings.
    let mut t = pair();
    assert_eq!(
        t.see(&snap(&[".XX..", "XO.X.", ".XX..", ".....", "....."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bdb Wbb");
}

#[test]
fn a_captured_stone_put_back_is_taken_back_when_the_next_stone_contradicts_it() {
    // The pair is lifted, then bb put back by hand: a move for the moment; White's real
    // move at ee contradicts it: bb is a captured stone to lift, ee White's move.
    let mut t = pair();
    assert_eq!(
        t.see(&snap(&[".XX..", "XOOX.", ".XX..", ".....", "....."])),
        fix(Condition::Remove, "bb,cb")
    );
    assert_eq!(t.see(&snap(&PAIR_TAKEN)), Seen::Consistent);
    let back = [".XX..", "XO.X.", ".XX..", ".....", "....."];
    // However long it stays, it is not final before the next move.
    for _ in 0..2 * STABLE {
        assert_eq!(t.see(&snap(&back)), Seen::Consistent);
    }
    assert_eq!((moves(&t).as_str(), t.settled()), ("Bdb Wbb", 1));
    assert_eq!(
        t.see(&snap(&[".XX..", "XO.X.", ".XX..", ".....", "....O"])),
        fix(Condition::Remove, "bb")
    );
    assert_eq!(moves(&t), "Bdb Wee");
    assert_eq!(
        t.see(&snap(&[".XX..", "X..X.", ".XX..", ".....", "....O"])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bdb Wee");
}

#[test]
fn a_captured_stone_misread_empty_and_back_is_taken_back_when_lifted() {
    // Periodic readings: cb misreads empty once while both captured stones are still on
    // the board, then bb is lifted and cb stays a while before it is lifted too: the
    // stone is never final (it is taken back when it goes).
    let mut t = pair();
    let capture = [".XX..", "XOOX.", ".XX..", ".....", "....."];
    assert_eq!(t.see(&snap(&capture)), fix(Condition::Remove, "bb,cb"));
    assert_eq!(
        t.see(&snap(&[".XX..", "XO.X.", ".XX..", ".....", "....."])),
        fix(Condition::Remove, "bb")
    );
    assert_eq!(t.see(&snap(&capture)), fix(Condition::Remove, "bb"));
    let one = [".XX..", "X.OX.", ".XX..", ".....", "....."];
    for _ in 0..3 * STABLE {
        assert_eq!(t.see(&snap(&one)), Seen::Consistent);
    }
    assert_eq!(t.settled(), 1);
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&PAIR_TAKEN)), Seen::Consistent);
    }
    assert_eq!(moves(&t), "Bdb");
}

#[test]
fn both_players_moving_between_two_readings_are_followed() {
    // Without a capture: one stone of each side.
    let mut t = started(&[".....", ".....", ".....", ".....", "....."]);
    assert_eq!(
        t.see(&snap(&[".....", ".X...", ".....", "...O.", "....."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bbb Wdd");
    // With a capture by the first move, its stones lifted, and White's answer.
    let mut t = pair();
    assert_eq!(
        t.see(&snap(&[".XX..", "X..X.", ".XX..", ".....", "...O."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bdb Wde");
    // With a capture by the second move.
    let mut t = Tracker::new();
    t.start(
        &snap(&[".XX..", "XOOX.", ".X...", ".....", "....."]),
        Some(Color::White),
    );
    assert_eq!(
        t.see(&snap(&[".XX..", "X..X.", ".XX..", ".....", "....O"])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Wee Bcc");
}

#[test]
fn a_fix_ignored_for_a_few_moves_is_followed() {
    // A final stone knocked off (restore), and the players play on, one stone a reading:
    // the moves are recorded while the stone is missing; put back, all is consistent.
    let mut t = started(&[".....", ".....", "..X..", ".....", "....."]);
    assert_eq!(t.to_move(), Color::White);
    let knocked = [".....", ".....", ".....", ".....", "....."];
    assert_eq!(t.see(&snap(&knocked)), fix(Condition::Restore, "cc"));
    let steps: [[&str; 5]; 3] = [
        ["O....", ".....", ".....", ".....", "....."],
        ["O....", ".....", ".....", ".....", "....X"],
        ["O...O", ".....", ".....", ".....", "....X"],
    ];
    for s in &steps {
        assert_eq!(t.see(&snap(s)), fix(Condition::Restore, "cc"), "{s:?}");
    }
    assert_eq!(
        t.see(&snap(&["O...O", ".....", "..X..", ".....", "....X"])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Waa Bee Wea");
    // Captured stones not lifted while the players play on: the moves are recorded, the
    // stones still to lift.
    let mut t = pair();
    let capture = [".XX..", "XOOX.", ".XX..", ".....", "....."];
    assert_eq!(t.see(&snap(&capture)), fix(Condition::Remove, "bb,cb"));
    let steps: [[&str; 5]; 3] = [
        [".XX..", "XOOX.", ".XX..", ".....", "O...."],
        [".XX..", "XOOX.", ".XX..", ".....", "O...X"],
        [".XX..", "XOOX.", ".XX..", "....O", "O...X"],
    ];
    for s in &steps {
        assert_eq!(t.see(&snap(s)), fix(Condition::Remove, "bb,cb"), "{s:?}");
    }
    assert_eq!(
        t.see(&snap(&[".XX..", "X..X.", ".XX..", "....O", "O...X"])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bdb Wae Bee Wed");
}

#[test]
fn two_new_stones_of_one_colour_are_removed_even_when_one_was_taken_back() {
    // Black takes White's pair; White's next stone comes before they are lifted (recorded
    // with them to lift), then the board is put right without it: it is taken back, the
    // branch that may come back. Then White puts two stones at once, that one among them:
    // no legal continuation explains two stones of one colour (colours alternate), so both
    // are to remove, not the remembered one recorded and the other a wrong colour.
    let start = [".XX..", "XOO..", ".XX..", ".....", "....."];
    let mut t = Tracker::new();
    t.start(&snap(&start), Some(Color::Black));
    let captured = [".XX..", "XOOX.", ".XX..", ".....", "....."];
    assert_eq!(t.see(&snap(&captured)), fix(Condition::Remove, "bb,cb"));
    let early = [".XX..", "XOOX.", ".XX..", ".....", "...O."];
    assert_eq!(t.see(&snap(&early)), fix(Condition::Remove, "bb,cb"));
    let right = [".XX..", "X..X.", ".XX..", ".....", "....."];
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&right)), Seen::Consistent);
    }
    assert_eq!(moves(&t), "Bdb");
    let two = [".XX..", "X..X.", ".XX..", ".....", "...OO"];
    assert_eq!(t.see(&snap(&two)), fix(Condition::Remove, "de,ee"));
    assert_eq!(moves(&t), "Bdb");
    // The board put right, White's move is recorded as usual.
    assert_eq!(t.see(&snap(&right)), Seen::Consistent);
    let one = [".XX..", "X..X.", ".XX..", ".....", "....O"];
    assert_eq!(t.see(&snap(&one)), Seen::Consistent);
    assert_eq!(moves(&t), "Bdb Wee");
}

#[test]
fn white_and_black_moving_in_the_first_reading_after_the_handicap_are_followed() {
    // Finding F4: change-only with t=, the last handicap stone, then one reading with
    // White's first move and Black's answer: the setup is closed, both moves recorded
    // (White first: White moves first after a handicap).
    let mut t = Tracker::new();
    t.reset_to(Some(Size::square(5).unwrap()), 2);
    let empty = [".....", ".....", ".....", ".....", "....."];
    t.start(&snap(&empty), None);
    assert_eq!(t.see_at(&snap(&empty), Some(0)), Seen::Consistent);
    let one = [".....", ".X...", ".....", ".....", "....."];
    assert_eq!(t.see_at(&snap(&one), Some(800)), Seen::Consistent);
    let two = [".....", ".X...", ".....", "...X.", "....."];
    assert_eq!(t.see_at(&snap(&two), Some(1500)), Seen::Consistent);
    let both = [".....", ".X.O.", ".....", ".X.X.", "....."];
    assert_eq!(t.see_at(&snap(&both), Some(1900)), Seen::Consistent);
    assert_eq!(
        sgf(&t),
        "(;GM[1]FF[4]SZ[5]HA[2]AB[bb][dd]PL[W];W[db];B[bd])"
    );
}

#[test]
fn a_captured_stone_still_there_answered_by_the_other_side_was_a_retake() {
    // bb lifted; cb never reads empty (lifted and White's stone put back there between two
    // readings); Black's next stone at ee answers it: cb was White's move.
    let mut t = pair();
    assert_eq!(
        t.see(&snap(&[".XX..", "XOOX.", ".XX..", ".....", "....."])),
        fix(Condition::Remove, "bb,cb")
    );
    assert_eq!(
        t.see(&snap(&[".XX..", "X.OX.", ".XX..", ".....", "....."])),
        fix(Condition::Remove, "cb")
    );
    assert_eq!(
        t.see(&snap(&[".XX..", "X.OX.", ".XX..", ".....", "....X"])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bdb Wcb Bee");
}

#[test]
fn a_captured_stone_left_while_play_went_on_is_no_retake() {
    // Black db takes bb,cb; bb is lifted, cb is left (its fix ignored) while White ee and
    // Black ed are played. A black stone then comes at ae with cb still there: cb is not
    // White's retake (the capture is not the last move's), so the record stays.
    let mut t = pair();
    assert_eq!(
        t.see(&snap(&[".XX..", "XOOX.", ".XX..", ".....", "....."])),
        fix(Condition::Remove, "bb,cb")
    );
    assert_eq!(
        t.see(&snap(&[".XX..", "X.OX.", ".XX..", ".....", "....."])),
        fix(Condition::Remove, "cb")
    );
    t.see(&snap(&[".XX..", "X.OX.", ".XX..", ".....", "....O"]));
    t.see(&snap(&[".XX..", "X.OX.", ".XX..", "....X", "....O"]));
    assert_eq!(moves(&t), "Bdb Wee Bed");
    let reply = t.see(&snap(&[".XX..", "X.OX.", ".XX..", "....X", "X...O"]));
    assert!(reply != Seen::Consistent, "{reply:?}");
    assert_eq!(moves(&t), "Bdb Wee Bed");
}

#[test]
fn stones_hidden_by_a_hand_below_a_standing_move_stay() {
    // One reading per change, no times: Black cc and White cd, then Black dc and White
    // ab, each pair between two readings (all four provisional). A hand over cd and dc
    // while ab stands: they are to restore, not taken back (else ab would be re-recorded
    // as White's move before them, and the record's order lost).
    let mut t = started(&CORNER);
    let after = [".O...", "O....", "..XX.", "..O..", "....X"];
    t.see(&snap(&[".O...", ".....", "..X..", "..O..", "....X"]));
    assert_eq!(t.see(&snap(&after)), Seen::Consistent);
    assert_eq!(moves(&t), "Bcc Wcd Bdc Wab");
    assert_eq!(
        t.see(&snap(&[".O...", "O....", "..X..", ".....", "....X"])),
        fix(Condition::Restore, "cd,dc")
    );
    assert_eq!(t.see(&snap(&after)), Seen::Consistent);
    assert_eq!(moves(&t), "Bcc Wcd Bdc Wab");
}

#[test]
fn a_stone_lifted_below_the_next_move_stays_to_restore() {
    // One reading per change: Black cc, White cd, Black dc, each on its own reading (all
    // provisional). cd is lifted and put back while dc stands: taken back as a phantom,
    // Black's dc would be the side not to move's stone: the record without cd does not
    // explain the board, so cd is to restore and the record keeps its order. With times
    // and without.
    for times in [false, true] {
        let mut t = started(&CORNER);
        let mut at = 0;
        let mut see = |t: &mut Tracker, rows: &[&str]| {
            at += 100;
            t.see_at(&snap(rows), times.then_some(at))
        };
        let after = [".O...", ".....", "..XX.", "..O..", "....X"];
        see(&mut t, &[".O...", ".....", "..X..", ".....", "....X"]);
        see(&mut t, &[".O...", ".....", "..X..", "..O..", "....X"]);
        assert_eq!(see(&mut t, &after), Seen::Consistent);
        assert_eq!(moves(&t), "Bcc Wcd Bdc");
        assert_eq!(
            see(&mut t, &[".O...", ".....", "..XX.", ".....", "....X"]),
            fix(Condition::Restore, "cd"),
            "times {times}"
        );
        assert_eq!(see(&mut t, &after), Seen::Consistent);
        assert_eq!(moves(&t), "Bcc Wcd Bdc", "times {times}");
    }
}

#[test]
fn a_phantom_below_two_moves_read_at_once_is_taken_back() {
    // Black cc; a phantom white stone at ac, recorded; then Black dc and White ab on one
    // reading (a reading lost): Bcc Wac Bdc Wab. ac reads empty again: the record without
    // it, White ab then Black dc, explains the board: a phantom, taken back, and the two
    // stones recorded in the order that explains them.
    let mut t = started(&CORNER);
    t.see(&snap(&[".O...", ".....", "..X..", ".....", "....X"]));
    t.see(&snap(&[".O...", ".....", "O.X..", ".....", "....X"]));
    assert_eq!(
        t.see(&snap(&[".O...", "O....", "O.XX.", ".....", "....X"])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bcc Wac Bdc Wab");
    assert_eq!(
        t.see(&snap(&[".O...", "O....", "..XX.", ".....", "....X"])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bcc Wab Bdc");
}

#[test]
fn a_stone_lifted_below_two_moves_read_one_after_the_other_stays_to_restore() {
    // Bcc, Wcd, Bdc, Wab, each on its own reading, 60 ms apart (all provisional). cd
    // lifted: without it the record would be Wab before Bdc, which showed first: not a
    // phantom, to restore.
    let mut t = started(&CORNER);
    let mut at = 0;
    let mut see = |t: &mut Tracker, rows: &[&str]| {
        at += 60;
        t.see_at(&snap(rows), Some(at))
    };
    let after = [".O...", "O....", "..XX.", "..O..", "....X"];
    see(&mut t, &[".O...", ".....", "..X..", ".....", "....X"]);
    see(&mut t, &[".O...", ".....", "..X..", "..O..", "....X"]);
    see(&mut t, &[".O...", ".....", "..XX.", "..O..", "....X"]);
    assert_eq!(see(&mut t, &after), Seen::Consistent);
    assert_eq!(moves(&t), "Bcc Wcd Bdc Wab");
    assert_eq!(
        see(&mut t, &[".O...", "O....", "..XX.", ".....", "....X"]),
        fix(Condition::Restore, "cd")
    );
    assert_eq!(see(&mut t, &after), Seen::Consistent);
    assert_eq!(moves(&t), "Bcc Wcd Bdc Wab");
}

#[test]
fn a_stone_taken_for_a_phantom_comes_back_with_the_record_s_order() {
    // Black cc and White cd each on its own reading, then Black dc and White ab on one
    // (a reading lost): Bcc Wcd Bdc Wab. cd is lifted: as for a phantom below two moves
    // read at once, it is taken back and the record is Bcc Wab Bdc. cd is put back: it
    // was no phantom, and the record taken back returns in its order (not Bcc Wab Bdc
    // Wcd).
    let mut t = started(&CORNER);
    let after = [".O...", "O....", "..XX.", "..O..", "....X"];
    t.see(&snap(&[".O...", ".....", "..X..", ".....", "....X"]));
    t.see(&snap(&[".O...", ".....", "..X..", "..O..", "....X"]));
    assert_eq!(t.see(&snap(&after)), Seen::Consistent);
    assert_eq!(moves(&t), "Bcc Wcd Bdc Wab");
    assert_eq!(
        t.see(&snap(&[".O...", "O....", "..XX.", ".....", "....X"])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bcc Wab Bdc");
    assert_eq!(t.see(&snap(&after)), Seen::Consistent);
    assert_eq!(moves(&t), "Bcc Wcd Bdc Wab");
}

/// Black's aa and ba, White to take them at ca; ca then has one liberty, ba.
const TWO_IN_ATARI: [&str; 5] = ["XX.X.", "OOX..", ".....", ".....", "....."];

#[test]
fn a_retake_that_captures_the_capturing_stone_is_followed() {
    // White ca takes aa and ba; aa is lifted; ba never reads empty: lifted and Black's
    // stone put back there between two readings, taking ca (lifted too). The missing ca
    // is explained by Black's retake at ba, not taken back.
    let mut t = Tracker::new();
    t.start(&snap(&TWO_IN_ATARI), Some(Color::White));
    assert_eq!(
        t.see(&snap(&["XXOX.", "OOX..", ".....", ".....", "....."])),
        fix(Condition::Remove, "aa,ba")
    );
    assert_eq!(
        t.see(&snap(&[".XOX.", "OOX..", ".....", ".....", "....."])),
        fix(Condition::Remove, "ba")
    );
    assert_eq!(
        t.see(&snap(&[".X.X.", "OOX..", ".....", ".....", "....."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Wca Bba");
}

#[test]
fn a_phantom_capture_whose_stones_were_never_lifted_is_no_retake() {
    // A white stone misread at ca (it would take aa and ba), then gone, aa and ba never
    // lifted: Black at ba would take ca, but nothing of the capture was lifted: the
    // phantom is taken back.
    let mut t = Tracker::new();
    t.start(&snap(&TWO_IN_ATARI), Some(Color::White));
    assert_eq!(
        t.see(&snap(&["XXOX.", "OOX..", ".....", ".....", "....."])),
        fix(Condition::Remove, "aa,ba")
    );
    assert_eq!(t.see(&snap(&TWO_IN_ATARI)), Seen::Consistent);
    assert_eq!(moves(&t), "");
}

#[test]
fn two_phantoms_far_apart_below_a_standing_move_are_taken_back() {
    // Black ad misread, then White ea misread with Black's real move cc: all three
    // recorded. ad and ea read empty again while cc stands: two stones missing below a
    // standing move, but farther apart than a hand covers: phantoms, taken back.
    let mut t = started(&CORNER);
    t.see(&snap(&[".O...", ".....", ".....", "X....", "....X"]));
    t.see(&snap(&[".O..O", ".....", "..X..", "X....", "....X"]));
    assert_eq!(moves(&t), "Bad Wea Bcc");
    assert_eq!(
        t.see(&snap(&[".O...", ".....", "..X..", ".....", "....X"])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bcc");
}

/// Black's `ee`, then White's `ca` seen [`STABLE`] times (settled): the record `Bee Wca`,
/// Black's `aa` in atari beside White's `ab`.
fn settled_beside_a_capture() -> Tracker {
    let mut t = started(&["X....", "O....", ".....", ".....", "....."]);
    let ee = ["X....", "O....", ".....", ".....", "....X"];
    let ca = ["X.O..", "O....", ".....", ".....", "....X"];
    for s in [ee, ca] {
        for _ in 0..STABLE {
            assert_eq!(t.see(&snap(&s)), Seen::Consistent);
        }
    }
    assert_eq!((moves(&t).as_str(), t.settled()), ("Bee Wca", 2));
    t
}

#[test]
fn a_settled_move_slid_onto_a_point_where_it_captures_is_moved_there() {
    // White's stone slides from ca to ba, where it takes aa (still on the board): the
    // record without White's last move, then White at ba, gives the board but for the
    // captured stone, to lift.
    let mut t = settled_beside_a_capture();
    assert_eq!(
        t.see(&snap(&["XO...", "O....", ".....", ".....", "....X"])),
        fix(Condition::Remove, "aa")
    );
    assert_eq!((moves(&t).as_str(), t.settled()), ("Bee Wba", 1));
    let lifted = [".O...", "O....", ".....", ".....", "....X"];
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&lifted)), Seen::Consistent);
    }
    assert_eq!((moves(&t).as_str(), t.settled()), ("Bee Wba", 2));
}

#[test]
fn a_settled_move_slid_onto_a_capture_with_the_answer_read_at_once_is_followed() {
    // In one reading White's stone slides from ca to ba and takes aa (lifted), and Black
    // answers at cc: the record without White's last move, then White ba and Black cc, is
    // the board exactly (not Black's cc with ca to restore).
    let mut t = settled_beside_a_capture();
    let both = [".O...", "O....", "..X..", ".....", "....X"];
    assert_eq!(t.see(&snap(&both)), Seen::Consistent);
    assert_eq!(moves(&t), "Bee Wba Bcc");
    for _ in 0..STABLE {
        assert_eq!(t.see(&snap(&both)), Seen::Consistent);
    }
    assert_eq!((moves(&t).as_str(), t.settled()), ("Bee Wba Bcc", 3));
}

#[test]
fn a_settled_stone_gone_while_its_colour_captures_far_away_is_moved_there() {
    // White's settled ca goes while a white stone shows at ed, where it takes ee: a
    // phantom that stood STABLE readings, then White's real move (as when the new stone
    // captures nothing): the move is moved there, ee to lift. (Before, ca stayed to
    // restore and the game's next moves were refused: the change-only stream of a real
    // game lost all but its first 34 moves so.)
    let start = ["X....", "O....", ".....", ".....", "...OX"];
    let cc = ["X....", "O....", "..X..", ".....", "...OX"];
    let ca = ["X.O..", "O....", "..X..", ".....", "...OX"];
    let settled = || {
        let mut t = started(&start);
        for s in [cc, ca] {
            for _ in 0..STABLE {
                assert_eq!(t.see(&snap(&s)), Seen::Consistent);
            }
        }
        assert_eq!((moves(&t).as_str(), t.settled()), ("Bcc Wca", 2));
        t
    };
    let mut t = settled();
    assert_eq!(
        t.see(&snap(&["X....", "O....", "..X..", "....O", "...OX"])),
        fix(Condition::Remove, "ee")
    );
    assert_eq!(moves(&t), "Bcc Wed");
    assert_eq!(
        t.see(&snap(&["X....", "O....", "..X..", "....O", "...O."])),
        Seen::Consistent
    );
    // Beside it (at ba, taking aa) as well.
    let mut t = settled();
    assert_eq!(
        t.see(&snap(&["XO...", "O....", "..X..", ".....", "...OX"])),
        fix(Condition::Remove, "aa")
    );
    assert_eq!(moves(&t), "Bcc Wba");
}

#[test]
fn a_retake_and_the_stone_that_takes_it_are_followed_after_a_phantom() {
    // Black's ca takes aa and ba; White lifts ba and retakes at aa at once (aa never reads
    // empty); a phantom white stone at ee for one reading (recorded, then taken back);
    // then Black's ba takes aa again. The record's position plus White aa, Black ba is the
    // board but for aa, to lift: the only short sequence that explains it.
    let mut t = started(&["OO...", "XX...", ".....", ".....", "....."]);
    assert_eq!(
        t.see(&snap(&["OOX..", "XX...", ".....", ".....", "....."])),
        fix(Condition::Remove, "aa,ba")
    );
    assert_eq!(
        t.see(&snap(&["O.X..", "XX...", ".....", ".....", "....."])),
        fix(Condition::Remove, "aa")
    );
    t.see(&snap(&["O.X..", "XX...", ".....", ".....", "....O"]));
    assert_eq!(
        t.see(&snap(&["O.X..", "XX...", ".....", ".....", "....."])),
        fix(Condition::Remove, "aa")
    );
    assert_eq!(moves(&t), "Bca");
    assert_eq!(
        t.see(&snap(&["OXX..", "XX...", ".....", ".....", "....."])),
        fix(Condition::Remove, "aa")
    );
    assert_eq!(moves(&t), "Bca Waa Bba");
    let lifted = [".XX..", "XX...", ".....", ".....", "....."];
    assert_eq!(t.see(&snap(&lifted)), Seen::Consistent);
    assert_eq!(moves(&t), "Bca Waa Bba");
}

#[test]
fn a_phantom_then_a_pass_gives_the_pass_to_the_side_that_pressed_it() {
    // Black to move: a phantom black stone at aa for one reading is recorded; Black presses
    // pass (recorded as White's, after aa); aa reads empty: aa was a phantom, the pass is
    // Black's.
    let mut t = started(&[".....", ".....", ".....", ".....", "....."]);
    let dd = [".....", ".....", "..X..", "...O.", "....."];
    for s in [[".....", ".....", "..X..", ".....", "....."], dd] {
        for _ in 0..STABLE {
            assert_eq!(t.see(&snap(&s)), Seen::Consistent);
        }
    }
    let phantom = ["X....", ".....", "..X..", "...O.", "....."];
    assert_eq!(t.see(&snap(&phantom)), Seen::Consistent);
    assert!(t.pass());
    assert_eq!(moves(&t), "Bcc Wdd Baa W-");
    assert_eq!(t.see(&snap(&dd)), Seen::Consistent);
    assert_eq!(moves(&t), "Bcc Wdd B-");
    // White plays on; then a phantom white stone and White's pass: the game is over with
    // two passes in a row once the phantom goes.
    let ee = [".....", ".....", "..X..", "...O.", "....O"];
    assert_eq!(t.see(&snap(&ee)), Seen::Consistent);
    assert!(t.pass());
    assert_eq!(moves(&t), "Bcc Wdd B- Wee B-");
    assert_eq!(
        t.see(&snap(&[".....", ".....", "..X..", "...O.", "O...O"])),
        Seen::Consistent
    );
    assert!(t.pass());
    assert!(!t.is_over());
    assert_eq!(t.see(&snap(&ee)), Seen::Consistent);
    assert_eq!(moves(&t), "Bcc Wdd B- Wee B- W-");
    assert!(t.is_over());
}

#[test]
fn a_hand_over_the_last_move_after_a_pass_is_no_phantom() {
    // Black's cd, read once, then White's pass; a hand hides cc and cd: two stones
    // missing at once are a hand, not a phantom of the side that passed: they are to
    // restore, and the record keeps Black's cd and White's pass.
    let mut t = started(&[".....", ".....", ".....", ".....", "....."]);
    let dd = [".....", ".....", "..X..", "...O.", "....."];
    for s in [[".....", ".....", "..X..", ".....", "....."], dd] {
        for _ in 0..STABLE {
            assert_eq!(t.see(&snap(&s)), Seen::Consistent);
        }
    }
    let cd = [".....", ".....", "..X..", "..XO.", "....."];
    assert_eq!(t.see(&snap(&cd)), Seen::Consistent);
    assert!(t.pass());
    assert_eq!(
        t.see(&snap(&[".....", ".....", ".....", "...O.", "....."])),
        fix(Condition::Restore, "cc,cd")
    );
    assert_eq!(moves(&t), "Bcc Wdd Bcd W-");
    assert_eq!(t.see(&snap(&cd)), Seen::Consistent);
    assert_eq!(moves(&t), "Bcc Wdd Bcd W-");
}

#[test]
fn the_last_handicap_stone_and_white_s_first_move_in_one_reading_are_followed() {
    // Handicap 2: one black stone, then the second with White's first move in the same
    // reading: the two black stones are the setup, the white one White's move.
    let mut t = Tracker::new();
    t.reset_to(Some(Size::square(5).unwrap()), 2);
    let one = [".....", ".X...", ".....", ".....", "....."];
    t.start(&snap(&one), None);
    assert_eq!(t.see(&snap(&one)), Seen::Consistent);
    assert!(t.is_placing_handicap());
    let both = [".....", ".X...", ".....", "...X.", "..O.."];
    assert_eq!(t.see(&snap(&both)), Seen::Consistent);
    assert!(!t.is_placing_handicap());
    assert_eq!(moves(&t), "Wce");
    assert_eq!(t.record().setup(Color::Black).len(), 2);
}

/// White ba takes aa (White to move); Black retakes at aa, taking ba and ca; White retakes
/// at ba, taking aa: legal, as Black took two stones.
const BEFORE_EXCHANGE: [&str; 5] = ["X.OX.", "OXX..", "O....", ".....", "....."];

#[test]
fn an_exchange_of_captures_between_two_readings_is_followed() {
    // White ba takes aa, which is left on the board; then, between two readings, aa is
    // lifted and Black's stone put there (it never reads empty: Black's retake takes ba
    // and ca), ba is lifted and White's stone put back (White's retake takes aa), ca and
    // aa are lifted. The board shows the record but for ca: the exchange, not a stone to
    // restore.
    let mut t = Tracker::new();
    t.start(&snap(&BEFORE_EXCHANGE), Some(Color::White));
    assert_eq!(
        t.see(&snap(&["XOOX.", "OXX..", "O....", ".....", "....."])),
        fix(Condition::Remove, "aa")
    );
    assert_eq!(
        t.see(&snap(&[".O.X.", "OXX..", "O....", ".....", "....."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Wba Baa Wba");
}

#[test]
fn a_stone_knocked_off_that_an_exchange_explains_takes_it_back_when_put_back() {
    // The same readings, then ca back on the board: it was knocked off while aa was lifted,
    // not captured; the exchange is taken back.
    let mut t = Tracker::new();
    t.start(&snap(&BEFORE_EXCHANGE), Some(Color::White));
    let _ = t.see(&snap(&["XOOX.", "OXX..", "O....", ".....", "....."]));
    assert_eq!(
        t.see(&snap(&[".O.X.", "OXX..", "O....", ".....", "....."])),
        Seen::Consistent
    );
    assert_eq!(
        t.see(&snap(&[".OOX.", "OXX..", "O....", ".....", "....."])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Wba");
}

#[test]
fn a_pass_after_a_retake_that_never_read_empty_is_the_other_side_s() {
    // Black db takes bb,cb; bb is lifted; cb never reads empty (White's retake put there
    // between two readings); then `pass` (Black's), and White's next stone at ee: White
    // cannot move after a pass of its own, so cb was White's retake and the pass Black's.
    let mut t = pair();
    let _ = t.see(&snap(&[".XX..", "XOOX.", ".XX..", ".....", "....."]));
    assert_eq!(
        t.see(&snap(&[".XX..", "X.OX.", ".XX..", ".....", "....."])),
        fix(Condition::Remove, "cb")
    );
    assert!(t.pass());
    assert_eq!(moves(&t), "Bdb W-");
    assert_eq!(
        t.see(&snap(&[".XX..", "X.OX.", ".XX..", ".....", "....O"])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bdb Wcb B- Wee");
}

#[test]
fn a_phantom_above_a_retake_that_never_read_empty_is_taken_back() {
    // Black db takes bb,cb; bb is lifted; cb never reads empty (White's retake); a white
    // stone misread at ae comes with Black's answer at ee, and is taken for White's move;
    // when it goes, cb and ee are White's retake and Black's answer, not a stone to put
    // back.
    let mut t = pair();
    let _ = t.see(&snap(&[".XX..", "XOOX.", ".XX..", ".....", "....."]));
    let _ = t.see(&snap(&[".XX..", "X.OX.", ".XX..", ".....", "....."]));
    let _ = t.see(&snap(&[".XX..", "X.OX.", ".XX..", ".....", "O...X"]));
    assert_eq!(moves(&t), "Bdb Wae Bee");
    assert_eq!(
        t.see(&snap(&[".XX..", "X.OX.", ".XX..", ".....", "....X"])),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bdb Wcb Bee");
}

#[test]
fn a_phantom_below_a_move_pair_whose_second_takes_the_first_is_taken_back() {
    // A black stone misread at ee is recorded; Black aa and White ab (taking aa at once)
    // come in one reading: White's stone is recorded above the phantom, Black's is then
    // illegal. When ee goes it was a phantom: aa and ab are the moves (aa to lift), not a
    // stone to put back.
    let mut t = Tracker::new();
    t.start(
        &snap(&[".O...", ".....", ".....", ".....", "....."]),
        Some(Color::Black),
    );
    let _ = t.see(&snap(&[".O...", ".....", ".....", ".....", "....X"]));
    assert_eq!(moves(&t), "Bee");
    assert_eq!(
        t.see(&snap(&["XO...", "O....", ".....", ".....", "....X"])),
        fix(Condition::IllegalMove, "aa")
    );
    assert_eq!(
        t.see(&snap(&["XO...", "O....", ".....", ".....", "....."])),
        fix(Condition::Remove, "aa")
    );
    assert_eq!(moves(&t), "Baa Wab");
    assert_eq!(
        t.see(&snap(&[".O...", "O....", ".....", ".....", "....."])),
        Seen::Consistent
    );
}

#[test]
fn two_phantoms_close_together_below_a_standing_move_go_when_the_fix_stands() {
    // Black ad misread, then White ae misread with Black's real move cc: all three
    // recorded. ad and ae read empty again while cc stands: within a hand's area, so first
    // a hand over them (to restore); when the same fix has been answered on STALLED
    // readings, no hand is there: they were phantoms, taken back, and cc is Black's move.
    let mut t = started(&CORNER);
    t.see(&snap(&[".O...", ".....", ".....", "X....", "....X"]));
    t.see(&snap(&[".O...", ".....", "..X..", "X....", "O...X"]));
    assert_eq!(moves(&t), "Bad Wae Bcc");
    let after = [".O...", ".....", "..X..", ".....", "....X"];
    for _ in 0..STALLED {
        assert_eq!(t.see(&snap(&after)), fix(Condition::Restore, "ad,ae"));
    }
    assert_eq!(t.see(&snap(&after)), Seen::Consistent);
    assert_eq!(moves(&t), "Bcc");
    // With times: after STALLED_MS of the same fix, however few readings.
    let mut t = started(&CORNER);
    t.see_at(
        &snap(&[".O...", ".....", ".....", "X....", "....X"]),
        Some(100),
    );
    t.see_at(
        &snap(&[".O...", ".....", "..X..", "X....", "O...X"]),
        Some(150),
    );
    assert_eq!(
        t.see_at(&snap(&after), Some(200)),
        fix(Condition::Restore, "ad,ae")
    );
    assert_eq!(
        t.see_at(&snap(&after), Some(200 + STALLED_MS - 1)),
        fix(Condition::Restore, "ad,ae")
    );
    assert_eq!(
        t.see_at(&snap(&after), Some(200 + STALLED_MS)),
        Seen::Consistent
    );
    assert_eq!(moves(&t), "Bcc");
}

#[test]
fn a_captured_stone_still_there_is_no_answer_to_a_retake() {
    // White's real move gf takes Black's gg (not yet lifted) and a black stone is misread
    // at ca, where it would take White's cb in a snapback shape. cb still there is no
    // retake of White's answered by Black: the black stone still on the board is one gf
    // took, not a new one. So ca is a provisional move, taken back when it goes.
    let start = [
        ".O.XO..", ".XOXO..", "..XOO..", ".......", ".......", ".......", ".....OX",
    ];
    let mut t = Tracker::new();
    t.start(&snap(&start), Some(Color::White));
    let mut misread = start;
    misread[0] = ".OXXO..";
    misread[5] = "......O";
    t.see(&snap(&misread));
    assert_eq!(moves(&t), "Wgf Bca");
    misread[6] = ".....O.";
    t.see(&snap(&misread));
    let mut after = misread;
    after[0] = start[0];
    assert_eq!(t.see(&snap(&after)), Seen::Consistent);
    assert_eq!(moves(&t), "Wgf");
}

#[test]
fn moves_hidden_then_a_phantom_taken_back_return_in_their_order() {
    // Black cc and White cd read at once, then Black dc (all provisional); a hand hides
    // all three (taken back: nothing stands above them), a black stone misread at ae is
    // recorded and taken back meanwhile; when the three show again, they are the record's
    // moves again, in their order (not three new stones whose order nothing decides).
    let mut t = started(&["....."; 5]);
    let three = [".....", ".....", "..XX.", "..O..", "....."];
    t.see(&snap(&[".....", ".....", "..X..", "..O..", "....."]));
    assert_eq!(t.see(&snap(&three)), Seen::Consistent);
    assert_eq!(moves(&t), "Bcc Wcd Bdc");
    assert_eq!(t.see(&snap(&["....."; 5])), Seen::Consistent);
    assert_eq!(moves(&t), "");
    t.see(&snap(&[".....", ".....", ".....", ".....", "X...."]));
    assert_eq!(moves(&t), "Bae");
    assert_eq!(t.see(&snap(&["....."; 5])), Seen::Consistent);
    assert_eq!(t.see(&snap(&three)), Seen::Consistent);
    assert_eq!(moves(&t), "Bcc Wcd Bdc");
}

#[test]
fn a_retake_whose_answer_was_a_phantom_is_doubtful_again() {
    // Black db takes bb,cb; bb is lifted, cb is not yet; a black stone misread at ee
    // passes for Black's answer to a retake at cb (recorded: Wcb Bee). ee reads empty
    // again: taken back, and cb is again a captured stone or a retake; White's next stone
    // at ea says which: cb was a captured stone, to lift.
    let mut t = pair();
    t.see(&snap(&[".XX..", "XOOX.", ".XX..", ".....", "....."]));
    t.see(&snap(&[".XX..", "X.OX.", ".XX..", ".....", "....."]));
    t.see(&snap(&[".XX..", "X.OX.", ".XX..", ".....", "....X"]));
    assert_eq!(moves(&t), "Bdb Wcb Bee");
    t.see(&snap(&[".XX..", "X.OX.", ".XX..", ".....", "....."]));
    assert_eq!(moves(&t), "Bdb Wcb");
    assert_eq!(
        t.see(&snap(&[".XX.O", "X.OX.", ".XX..", ".....", "....."])),
        fix(Condition::Remove, "cb")
    );
    assert_eq!(moves(&t), "Bdb Wea");
    assert_eq!(
        t.see(&snap(&[".XX.O", "X..X.", ".XX..", ".....", "....."])),
        Seen::Consistent
    );
}
