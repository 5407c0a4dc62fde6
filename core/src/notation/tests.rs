//! Properties across the notations: round trips, errors within the input, letter tables.

extern crate std;

use super::*;
use crate::point::{Color, Move, Point, Size};
use proptest::prelude::*;
use std::string::{String, ToString};
use std::vec::Vec;

/// The 19x19 board (for the tests of every notation).
pub(crate) fn s19() -> Size {
    Size::STANDARD
}

/// An `n` x `n` board.
pub(crate) fn sq(n: u8) -> Size {
    Size::square(n).unwrap()
}

/// The point `(x, y)`.
pub(crate) fn pt(x: u8, y: u8) -> Point {
    Point::new(x, y)
}

#[test]
fn error_display() {
    assert_eq!(
        NotationError::Syntax { at: 3 }.to_string(),
        "syntax error at byte 3"
    );
    assert_eq!(
        NotationError::OffBoard { at: 0 }.to_string(),
        "point off the board at byte 0"
    );
    assert_eq!(
        NotationError::BadSize { at: 1 }.to_string(),
        "bad board size at byte 1"
    );
    assert_eq!(NotationError::BadSize { at: 7 }.at(), 7);
}

#[test]
fn exhaustive_letter_tables() {
    for v in 0..=255u8 {
        if let Some(c) = sgf_letter(v) {
            assert_eq!(sgf_value(c as u8), Some(v));
        }
        if let Some(c) = human_column_letter(v) {
            assert_ne!(c, 'I');
            assert_eq!(human_column_value(c as u8), Some(v));
            assert_eq!(human_column_value(c.to_ascii_lowercase() as u8), Some(v));
        }
        if let Some(x) = human_column_value(v) {
            assert_eq!(
                human_column_letter(x).map(|c| c.to_ascii_lowercase()),
                Some((v as char).to_ascii_lowercase())
            );
        }
    }
    assert_eq!((0..=255u8).filter_map(sgf_value).count(), 52);
    assert_eq!((0..=255u8).filter_map(human_column_value).count(), 38);
}

// ----- properties -----

fn size() -> impl Strategy<Value = Size> {
    (1..=19u8, 1..=19u8).prop_map(|(w, h)| Size::new(w, h).unwrap())
}

fn size_and_point() -> impl Strategy<Value = (Size, Point)> {
    size().prop_flat_map(|s| {
        (
            Just(s),
            (0..s.width(), 0..s.height()).prop_map(|(x, y)| pt(x, y)),
        )
    })
}

fn size_and_move() -> impl Strategy<Value = (Size, Move)> {
    size_and_point().prop_flat_map(|(s, p)| {
        (
            Just(s),
            prop_oneof![4 => Just(Move::Play(p)), 1 => Just(Move::Pass)],
        )
    })
}

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::Black), Just(Color::White)]
}

fn size_and_items() -> impl Strategy<Value = (Size, Vec<SgnItem>)> {
    size().prop_flat_map(|s| {
        let p = (0..s.width(), 0..s.height()).prop_map(|(x, y)| pt(x, y));
        let item = prop_oneof![
            6 => (color(), p.clone()).prop_map(|(c, p)| SgnItem::Move(c, Move::Play(p))),
            1 => color().prop_map(|c| SgnItem::Move(c, Move::Pass)),
            1 => p.prop_map(SgnItem::Capture),
        ];
        (Just(s), proptest::collection::vec(item, 0..40))
    })
}

proptest! {
    #[test]
    fn sgf_point_round_trip(x in 0..52u8, y in 0..52u8) {
        let s = Sgf(Move::Play(pt(x, y))).to_string();
        prop_assert_eq!(parse_sgf_point(&s), Ok(pt(x, y)));
    }

    #[test]
    fn sgf_move_round_trip((size, m) in size_and_move()) {
        let s = Sgf(m).to_string();
        let v = SgfValue(m).to_string();
        prop_assert_eq!(parse_sgf(&v, size).map(SgfMove::to_move), Ok(Some(m)));
        if m == Move::Pass {
            prop_assert_eq!(s, "pass");
        } else {
            prop_assert_eq!(parse_sgf(&s, size), Ok(SgfMove::Play(m.point().unwrap())));
        }
    }

    #[test]
    fn sgf_off_board_is_seen(size in size(), x in 0..52u8, y in 0..52u8) {
        let p = pt(x, y);
        let s = Sgf(Move::Play(p)).to_string();
        let r = parse_sgf(&s, size);
        if s == "tt" {
            prop_assert_eq!(r, Ok(SgfMove::Pass));
        } else if size.contains(p) {
            prop_assert_eq!(r, Ok(SgfMove::Play(p)));
        } else {
            prop_assert_eq!(r, Ok(SgfMove::OffBoard(p)));
        }
    }

    #[test]
    fn human_round_trip((size, m) in size_and_move(), lower in any::<bool>()) {
        let mut s = Human(m, size).to_string();
        if lower {
            s.make_ascii_lowercase();
        }
        prop_assert_eq!(parse_human(&s, size), Ok(m));
    }

    #[test]
    fn bgo_round_trip((size, m) in size_and_move(), lower in any::<bool>()) {
        let mut s = Bgo(m).to_string();
        if lower {
            s.make_ascii_lowercase();
        }
        prop_assert_eq!(parse_bgo(&s, size), Ok(m));
        if let Move::Play(p) = m {
            // bGo letters are SGF letters in upper case.
            prop_assert_eq!(s.to_ascii_lowercase(), Sgf(Move::Play(p)).to_string());
        }
    }

    #[test]
    fn sgn_round_trip((size, items) in size_and_items(), url in any::<bool>()) {
        let style = if url { SgnStyle::Url } else { SgnStyle::Spaces };
        let mut s = String::new();
        write_sgn(&mut s, size, items.iter().copied(), style).unwrap();
        prop_assert_eq!(s.contains(','), url && !items.is_empty());
        let (got_size, it) = parse_sgn(&s).unwrap();
        prop_assert_eq!(got_size, size);
        let got: Result<Vec<_>, _> = it.collect();
        prop_assert_eq!(got, Ok(items));
    }

    #[test]
    fn moves_round_trip(ms in proptest::collection::vec(
        prop_oneof![4 => (0..19u8, 0..19u8).prop_map(|(x, y)| Move::Play(pt(x, y))), 1 => Just(Move::Pass)],
        0..30,
    )) {
        let mut s = String::new();
        write_moves(&mut s, ms.iter().copied()).unwrap();
        let got: Result<Vec<_>, _> = parse_moves(&s, s19()).collect();
        prop_assert_eq!(got, Ok(ms));
    }

    #[test]
    fn parsers_never_panic(s in "\\PC{0,24}", size in size()) {
        let _ = parse_sgf_point(&s);
        let _ = parse_sgf(&s, size);
        let _ = parse_human(&s, size);
        let _ = parse_bgo(&s, size);
        for r in parse_moves(&s, size) {
            if let Err(e) = r {
                prop_assert!(e.at() <= s.len());
            }
        }
        if let Ok(p) = SgnParser::new(&s) {
            for r in p {
                if let Err(e) = r {
                    prop_assert!(e.at() <= s.len());
                }
            }
        }
    }

    #[test]
    fn sgn_like_input_never_panics(s in "[0-9xX ,A-Za-z]{0,30}") {
        if let Ok(p) = SgnParser::new(&s) {
            let n = p.clone().count();
            prop_assert!(n <= s.len());
        }
        let _ = parse_moves(&s, Size::STANDARD).count();
    }
}

/// One notation for every moves list: SGF letters in either case, human coordinates in
/// either case, `pass`, separated by commas or whitespace.
#[test]
fn moves_lists_take_every_notation() {
    let want = [
        Move::Play(pt(15, 3)),
        Move::Play(pt(3, 15)),
        Move::Pass,
        Move::Play(pt(15, 15)),
    ];
    for s in [
        "pd,dp,pass,pp",
        "PD,DP,PASS,PP",
        "Q16,D4,pass,Q4",
        "q16,d4,Pass,q4",
        "pd dp pass pp",
        "pd, dp ,pass,\tQ4\r\n",
        "Pd,D4 tt,pp",
    ] {
        let got: Result<Vec<_>, _> = parse_moves(s, s19()).collect();
        assert_eq!(got, Ok(want.to_vec()), "{s:?}");
    }
    // Human rows count from the bottom of a rectangular board too: A1 on 19x9 is `ai`.
    let wide = Size::new(19, 9).unwrap();
    let got: Result<Vec<_>, _> = parse_moves("A1,T9", wide).collect();
    assert_eq!(
        got,
        Ok([Move::Play(pt(0, 8)), Move::Play(pt(18, 0))].to_vec())
    );
    // Errors keep their byte offsets, and entry_at finds the entry.
    for (s, number, text) in [
        ("pd,hello", 2, "hello"),
        ("pd dp  I5", 3, "I5"),
        ("pd,,dp", 2, ""),
        ("pd,", 2, ""),
        ("pd,Q0", 2, "Q0"),
        ("pd1", 1, "pd1"),
    ] {
        let e = parse_moves(s, s19()).find_map(Result::err).unwrap();
        assert!(matches!(e, NotationError::Syntax { .. }), "{s:?}: {e:?}");
        assert_eq!(entry_at(s, e.at()), (number, text), "{s:?}");
    }
    for (s, number, text) in [("pd,zz", 2, "zz"), ("dd Q20", 2, "Q20")] {
        let e = parse_moves(s, s19()).find_map(Result::err).unwrap();
        assert!(matches!(e, NotationError::OffBoard { .. }), "{s:?}: {e:?}");
        assert_eq!(entry_at(s, e.at()), (number, text), "{s:?}");
    }
}
