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
        .map(|(c, p)| {
            std::format!(
                "{}{}{}",
                c.letter(),
                (b'a' + p.x) as char,
                (b'a' + p.y) as char
            )
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
    assert!(core::mem::size_of::<Tracker>() <= 2560);
}
