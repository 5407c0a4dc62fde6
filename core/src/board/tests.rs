//! Unit tests of [`Board`]: bGo's published hashes, rules, captures, scores, symmetries.

extern crate std;

use super::*;

fn pt(s: &str) -> Point {
    let b = s.as_bytes();
    Point::new(b[0] - b'a', b[1] - b'a')
}

fn size(w: u8, h: u8) -> Size {
    Size::new(w, h).unwrap()
}

/// Plays SGF points alternately from Black on a fresh board.
fn played(sz: Size, rules: Rules, moves: &[&str]) -> Board {
    let mut b = Board::with_rules(sz, rules);
    let mut c = Color::Black;
    for m in moves {
        let mv = if *m == "pass" {
            Move::Pass
        } else {
            Move::Play(pt(m))
        };
        b.play(c, mv).unwrap_or_else(|e| panic!("{m}: {e:?}"));
        c = c.opponent();
    }
    b
}

/// Builds a board from a picture (`X` black, `O` white, anything else empty).
fn pic(rows: &[&str]) -> Board {
    let sz = size(rows[0].len() as u8, rows.len() as u8);
    let mut b = Board::new(sz);
    for (y, r) in rows.iter().enumerate() {
        for (x, c) in r.bytes().enumerate() {
            let s = match c {
                b'X' => Stone::Black,
                b'O' => Stone::White,
                _ => Stone::Empty,
            };
            b.set_stone(Point::new(x as u8, y as u8), s).unwrap();
        }
    }
    b
}

#[test]
fn golden_bgo_hashes() {
    let cases: [(&[&str], [i64; 8]); 5] = [
        (&[], [0; 8]),
        (&["jj"], [124446377; 8]),
        (
            &["pd", "dp", "pp"],
            [
                959678554,
                -2119680312,
                -587714549,
                -2189167643,
                297926669,
                -518227218,
                1098653216,
                158952007,
            ],
        ),
        (
            &["pd", "dp", "pp", "dd"],
            [
                731239216, -731239216, 731239216, -870213878, -731239216, 870213878, 870213878,
                -870213878,
            ],
        ),
        (
            &["pd", "dp", "pp", "dd", "fq"],
            [
                473219409,
                -1687952710,
                1308757600,
                -1229748700,
                151723069,
                -646163542,
                2340254885,
                -1841824226,
            ],
        ),
    ];
    for (moves, want) in cases {
        let b = played(Size::STANDARD, Rules::default(), moves);
        assert_eq!(b.bgo_hashes().0, want, "{moves:?}");
        assert_eq!(b.stone_count() as usize, moves.len());
    }
}

#[test]
fn board_is_small() {
    let n = core::mem::size_of::<Board>();
    std::println!("size_of::<Board>() = {n}");
    assert!(n < 2048, "{n}");
    assert!(n <= 512, "{n}");
}

#[test]
fn errors_leave_board_unchanged() {
    let mut b = played(Size::STANDARD, Rules::default(), &["pd"]);
    let before = b.clone();
    assert_eq!(
        b.play(Color::White, Move::Play(pt("pd"))),
        Err(MoveError::Occupied)
    );
    assert_eq!(
        b.play(Color::White, Move::Play(Point::new(19, 0))),
        Err(MoveError::OffBoard)
    );
    assert_eq!(
        b.set_stone(Point::new(0, 19), Stone::Black),
        Err(MoveError::OffBoard)
    );
    assert_eq!(b, before);
    assert_eq!(b.get(Point::new(30, 30)), Stone::Empty);
}

#[test]
fn simple_ko() {
    // .XO.
    // X.XO
    // .XO.
    let mut b = pic(&[".XO.", "X.XO", ".XO.", "...."]);
    // White takes the ko at b2 (1,1), capturing c2 (2,1).
    let c = b.play(Color::White, Move::Play(Point::new(1, 1))).unwrap();
    assert_eq!(c.count, 1);
    assert!(c.points.contains(Point::new(2, 1)));
    assert!(!c.own);
    assert_eq!(b.ko_point(), Some(Point::new(2, 1)));
    // Black may not retake at once.
    let before = b.clone();
    assert_eq!(
        b.play(Color::Black, Move::Play(Point::new(2, 1))),
        Err(MoveError::Ko)
    );
    assert_eq!(b, before);
    // A move elsewhere (a ko threat) and an answer, then the retake is allowed.
    b.play(Color::Black, Move::Play(Point::new(0, 3))).unwrap();
    assert_eq!(b.ko_point(), None);
    b.play(Color::White, Move::Play(Point::new(3, 3))).unwrap();
    let c = b.play(Color::Black, Move::Play(Point::new(2, 1))).unwrap();
    assert_eq!(c.count, 1);
    assert!(c.points.contains(Point::new(1, 1)));
    assert_eq!(b.ko_point(), Some(Point::new(1, 1)));
    // A pass clears the ko point.
    b.play(Color::White, Move::Pass).unwrap();
    assert_eq!(b.ko_point(), None);
    // Without a ko rule the immediate retake is allowed.
    let mut b = pic(&[".XO.", "X.XO", ".XO.", "...."]);
    b.set_rules(Rules::RECORD);
    b.play(Color::White, Move::Play(Point::new(1, 1))).unwrap();
    assert!(b.play(Color::Black, Move::Play(Point::new(2, 1))).is_ok());
}

#[test]
fn two_stone_capture_is_not_ko() {
    // White (1,1),(2,1) in atari; black takes both at (3,1): no ko point.
    let mut b = pic(&[".OO..", "XOO..", ".XX..", "....."]);
    b.set_stone(Point::new(1, 0), Stone::Black).unwrap();
    b.set_stone(Point::new(2, 0), Stone::Black).unwrap();
    let c = b.play(Color::Black, Move::Play(Point::new(3, 1))).unwrap();
    assert_eq!(c.count, 2);
    assert_eq!(b.ko_point(), None);
    // A single-stone capture by a stone that keeps two liberties is no ko either.
    let mut b = pic(&[".X...", "XO...", ".X...", "....."]);
    let c = b.play(Color::Black, Move::Play(Point::new(2, 1))).unwrap();
    assert_eq!(c.count, 1);
    assert_eq!(b.ko_point(), None);
}

#[test]
fn suicide_forbidden_and_allowed() {
    let setup = &[".O..", "O...", "....", "...."];
    let mut b = pic(setup);
    let before = b.clone();
    assert_eq!(
        b.play(Color::Black, Move::Play(Point::new(0, 0))),
        Err(MoveError::Suicide)
    );
    assert_eq!(b, before);
    let mut b = pic(setup);
    b.set_rules(Rules::RECORD);
    let c = b.play(Color::Black, Move::Play(Point::new(0, 0))).unwrap();
    assert!(c.own);
    assert_eq!(c.count, 1);
    assert_eq!(b.get(Point::new(0, 0)), Stone::Empty);
    assert_eq!(b.stone_count(), 2);
    assert_eq!(b.bgo_hashes(), before.bgo_hashes());
    assert_eq!(b.keys(), before.keys());
    // A multi-stone suicide.
    let mut b = pic(&["X.O.", "XO..", "O...", "...."]);
    b.set_rules(Rules::RECORD);
    let c = b.play(Color::Black, Move::Play(Point::new(1, 0))).unwrap();
    assert!(c.own);
    assert_eq!(c.count, 3);
    assert_eq!(b.stone_count(), 3);
    // A move that fills its last liberty but captures is not suicide.
    let mut b = pic(&[".OX.", "OX..", "X...", "...."]);
    let c = b.play(Color::Black, Move::Play(Point::new(0, 0))).unwrap();
    assert!(!c.own);
    assert_eq!(c.count, 2);
}

#[test]
fn captures_multiple_groups() {
    // Black at (2,1) captures three white groups at once.
    let mut b = pic(&[".XOX.", "XO.OX", ".XOX.", "..X.."]);
    let c = b.play(Color::Black, Move::Play(Point::new(2, 1))).unwrap();
    assert_eq!(c.count, 4);
    assert!(!c.own);
    for p in [(2, 0), (1, 1), (3, 1), (2, 2)] {
        assert!(c.points.contains(Point::new(p.0, p.1)));
        assert_eq!(b.get(Point::new(p.0, p.1)), Stone::Empty);
    }
    assert_eq!(b.ko_point(), None);
    assert_eq!(b.liberty_count(Point::new(2, 1)), 4);
}

#[test]
fn edge_and_corner_captures() {
    // Corner.
    let mut b = pic(&["O....", "X....", ".....", "....."]);
    let c = b.play(Color::Black, Move::Play(Point::new(1, 0))).unwrap();
    assert_eq!(c.count, 1);
    assert!(c.points.contains(Point::new(0, 0)));
    assert_eq!(b.stone_count(), 2);
    // Edge: a white chain on the bottom edge.
    let mut b = pic(&[".....", ".XXX.", "XOOOX", "....."]);
    for x in 1..3 {
        let c = b.play(Color::Black, Move::Play(Point::new(x, 3))).unwrap();
        assert_eq!(c.count, 0);
    }
    let c = b.play(Color::Black, Move::Play(Point::new(3, 3))).unwrap();
    assert_eq!(c.count, 3);
    assert_eq!(b.stones(Color::White).len(), 0);
    // Right edge of a rectangular board.
    let mut b = pic(&["..XO", "...O", "..XO", "...X"]);
    let c = b.play(Color::Black, Move::Play(Point::new(2, 1))).unwrap();
    assert_eq!(c.count, 3);
    assert_eq!(b.area_score(), (16, 0));
}

#[test]
fn tiny_boards() {
    // 1x1: every move is suicide.
    let mut b = Board::new(size(1, 1));
    assert_eq!(
        b.play(Color::Black, Move::Play(Point::new(0, 0))),
        Err(MoveError::Suicide)
    );
    let mut b = Board::with_rules(size(1, 1), Rules::RECORD);
    let c = b.play(Color::Black, Move::Play(Point::new(0, 0))).unwrap();
    assert!(c.own && c.count == 1);
    assert_eq!(b.stone_count(), 0);
    assert_eq!(b.bgo_hashes().0, [0; 8]);
    assert_eq!(b.symmetries().len(), 8);
    // 2x2.
    let mut b = Board::new(size(2, 2));
    b.play(Color::Black, Move::Play(Point::new(0, 0))).unwrap();
    b.play(Color::White, Move::Play(Point::new(1, 1))).unwrap();
    b.play(Color::Black, Move::Play(Point::new(1, 0))).unwrap();
    // White (0,1) would capture black? Black group (0,0),(1,0) has liberty (0,1) only.
    let c = b.play(Color::White, Move::Play(Point::new(0, 1))).unwrap();
    assert_eq!(c.count, 2);
    assert_eq!(b.stone_count(), 2);
    assert_eq!(b.area_score(), (0, 4));
    // Black fills a corner (it has a liberty); then white captures it.
    b.play(Color::Black, Move::Play(Point::new(0, 0))).unwrap();
    let c = b.play(Color::White, Move::Play(Point::new(1, 0))).unwrap();
    assert_eq!((c.count, c.own), (1, false));
    // Black (0,0) fills White's last liberty: it captures all three white stones.
    let c = b.play(Color::Black, Move::Play(Point::new(0, 0))).unwrap();
    assert_eq!(c.count, 3);
    assert_eq!(b.stone_count(), 1);
}

#[test]
fn area_score_small_board() {
    // A finished 5x5 game: black owns the left, white the right, column 2 is dame-free.
    let b = pic(&[".X.O.", "XX.OO", ".XXO.", "..XO.", "..XO."]);
    // Black: 7 stones + (0,0) + (0,2),(0,3),(1,3),(0,4),(1,4) = 7 + 6; (2,0),(2,1) border both.
    let (bs, ws) = b.area_score();
    assert_eq!(bs, 7 + 6);
    // White: 6 stones + (4,0) + (4,2),(4,3),(4,4) = 6 + 4.
    assert_eq!(ws, 6 + 4);
    assert_eq!(Board::new(size(3, 3)).area_score(), (0, 0));
}

#[test]
fn symmetries() {
    let b = Board::new(Size::STANDARD);
    assert_eq!(b.symmetries().len(), 8);
    assert_eq!(b.symmetries(), TransformSet(0xff));
    let b = Board::new(size(9, 5));
    assert_eq!(b.symmetries(), TransformSet(0b1_0111));
    // pd dp pp dd: B pd pp, W dp dd: symmetric under 0 and 2 (flip top-bottom maps pd<->pp
    // and dd<->dp), and colour-swapped symmetric under others (not counted).
    let b = played(Size::STANDARD, Rules::default(), &["pd", "dp", "pp", "dd"]);
    let h = b.bgo_hashes().0;
    let mut want = TransformSet(0);
    for t in 0..8 {
        if h[t] == h[0] {
            want = want.with(Transform::new(t as u8).unwrap());
        }
    }
    assert_eq!(want, TransformSet(0b101));
    assert_eq!(b.symmetries(), want);
    let b = played(Size::STANDARD, Rules::default(), &["jj"]);
    assert_eq!(b.symmetries().len(), 8);
    let b = played(Size::STANDARD, Rules::default(), &["pd", "dp", "pp"]);
    assert_eq!(b.symmetries(), TransformSet::IDENTITY);
    let b = played(Size::STANDARD, Rules::default(), &["dd", "pp"]);
    // B dd, W pp: symmetric only under the transpose (6).
    assert_eq!(b.symmetries(), TransformSet(0b100_0001));
}

#[test]
fn cells_round_trip() {
    let b = played(
        Size::STANDARD,
        Rules::default(),
        &["pd", "dp", "pp", "dd", "fq"],
    );
    let mut cells = [Stone::Empty; 361];
    assert!(b.to_cells(&mut cells));
    assert!(!b.to_cells(&mut cells[..10]));
    let c = Board::from_cells(Size::STANDARD, &cells).unwrap();
    assert_eq!(c.bgo_hashes(), b.bgo_hashes());
    assert_eq!(c.keys(), b.keys());
    assert_eq!(c.stones(Color::Black), b.stones(Color::Black));
    assert!(Board::from_cells(Size::STANDARD, &cells[..360]).is_none());
    let r = size(3, 2);
    let cells = [
        Stone::Black,
        Stone::Empty,
        Stone::White,
        Stone::Empty,
        Stone::White,
        Stone::Black,
    ];
    let b = Board::from_cells(r, &cells).unwrap();
    assert_eq!(b.get(Point::new(2, 0)), Stone::White);
    assert_eq!(b.get(Point::new(2, 1)), Stone::Black);
    let mut out = [Stone::Empty; 6];
    assert!(b.to_cells(&mut out));
    assert_eq!(out, cells);
}

#[test]
fn groups_and_liberties() {
    let b = pic(&["XX.O", "X.OO", "....", "...X"]);
    let g = b.group(Point::new(0, 0));
    assert_eq!(g.len(), 3);
    assert_eq!(b.liberty_count(Point::new(0, 0)), 3);
    assert_eq!(b.liberties(Point::new(3, 0)).len(), 4);
    assert!(b.liberties(Point::new(2, 2)).is_empty());
    assert!(b.group(Point::new(2, 2)).is_empty());
    let groups: std::vec::Vec<Group> = b.groups().collect();
    assert_eq!(groups.len(), 3);
    assert_eq!(groups[0].color, Color::Black);
    assert_eq!(groups[1].color, Color::White);
    assert_eq!(groups[1].stones.len(), 3);
    assert_eq!(groups[2].liberties.len(), 2);
    let mut counts = [0u16; MAX_POINTS];
    b.liberty_counts(&mut counts);
    assert_eq!(counts[0], 3);
    assert_eq!(counts[3], 4);
    assert_eq!(counts[3 * 19 + 3], 2);
    assert_eq!(counts[2 * 19 + 2], 0);
}

#[test]
fn passes_end_the_game() {
    let mut b = Board::new(size(5, 5));
    b.play(Color::Black, Move::Pass).unwrap();
    assert!(!b.is_game_over());
    b.play(Color::White, Move::Pass).unwrap();
    assert!(b.is_game_over());
    b.play(Color::Black, Move::Play(Point::new(2, 2))).unwrap();
    assert!(!b.is_game_over());
    assert_eq!(b.passes(), 0);
}
