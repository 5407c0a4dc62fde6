//! Property tests of the predictor's features on random positions, against a second way of
//! computing them: playing the candidate on a copy of the board ([`Board::try_play`]) and
//! counting liberties and captures afterwards; and the pattern keys against the board
//! turned by each transform and seen by the other player.

use kifudex_core::board::{Board, Rules};
use kifudex_core::predict::features::{Analysis, Group, History};
use kifudex_core::predict::shape::SIZES;
use kifudex_core::{Color, Move, Point, Size, Stone, Transform};
use proptest::prelude::*;

/// A random position: `moves` random points tried in turn (illegal ones skipped), then the
/// player to move.
fn position(side: u8, moves: &[(u8, u8)]) -> (Board, Color, History) {
    let size = Size::square(side).unwrap();
    let mut b = Board::new(size);
    let mut color = Color::Black;
    let mut history = History::default();
    for &(x, y) in moves {
        let mv = Move::Play(Point::new(x % side, y % side));
        if b.play(color, mv).is_ok() {
            history = History {
                last: Some(mv),
                before: history.last,
            };
            color = color.opponent();
        }
    }
    (b, color, history)
}

fn libs_of_group_at(b: &Board, p: Point) -> u16 {
    b.liberty_count(p)
}

fn neighbours(size: Size, p: Point) -> Vec<Point> {
    let mut v = Vec::new();
    if p.x > 0 {
        v.push(Point::new(p.x - 1, p.y));
    }
    if p.x + 1 < size.width() {
        v.push(Point::new(p.x + 1, p.y));
    }
    if p.y > 0 {
        v.push(Point::new(p.x, p.y - 1));
    }
    if p.y + 1 < size.height() {
        v.push(Point::new(p.x, p.y + 1));
    }
    v
}

fn check_features(b: &Board, color: Color, history: History) {
    let a = Analysis::new(b, color, history);
    let size = b.size();
    for y in 0..size.height() {
        for x in 0..size.width() {
            let p = Point::new(x, y);
            let f = a.features(p);
            let after = b.try_play(color, Move::Play(p));
            assert_eq!(f.legal, after.is_ok(), "legal at {p:?}");
            let Ok(caps) = after else { continue };
            let mut nb = b.clone();
            nb.play(color, Move::Play(p)).unwrap();
            let libs = libs_of_group_at(&nb, p);
            let v = |g: Group| f.values[g as usize];
            // Captures: their size class.
            let class = match caps.count {
                0 => 0,
                1 => 1,
                2 | 3 => 2,
                _ => 3,
            };
            assert_eq!(v(Group::Capture) == 0, caps.count == 0, "capture at {p:?}");
            if class > 0 {
                assert_eq!(
                    (v(Group::Capture) - 1) % 3 + 1,
                    class,
                    "capture size at {p:?}"
                );
            }
            // Self-atari: one liberty left.
            assert_eq!(v(Group::SelfAtari) != 0, libs == 1, "self-atari at {p:?}");
            if libs == 1 {
                let stones = nb.group(p).len();
                assert_eq!(v(Group::SelfAtari), if stones == 1 { 1 } else { 2 });
            }
            // Atari: an opponent group beside p with one liberty, the new group with two.
            let opp = color.opponent();
            let ataris: Vec<usize> = neighbours(size, p)
                .into_iter()
                .filter(|&n| nb.get(n) == Stone::of(opp) && nb.liberty_count(n) == 1)
                .map(|n| nb.group(n).len())
                .collect();
            assert_eq!(
                v(Group::Atari) != 0,
                !ataris.is_empty() && libs >= 2,
                "atari at {p:?}"
            );
            // Escape: an own group beside p had one liberty, the new group has two or more.
            let rescued = neighbours(size, p)
                .into_iter()
                .any(|n| b.get(n) == Stone::of(color) && b.liberty_count(n) == 1);
            assert_eq!(
                v(Group::Escape) != 0,
                rescued && libs >= 2,
                "escape at {p:?}"
            );
            if v(Group::Escape) != 0 {
                assert_eq!(
                    (v(Group::Escape) - 1) % 2 == 1,
                    libs >= 3,
                    "escape liberties at {p:?}"
                );
            }
        }
    }
}

/// The pattern keys of every size around `p`.
fn keys(a: &Analysis, p: Point) -> Vec<u64> {
    let mut v = Vec::new();
    a.pattern_keys(p, |_, k| {
        v.push(k);
        true
    });
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn tactical_features_match_playing_the_move(
        side in prop::sample::select(vec![5u8, 7, 9, 13, 19]),
        moves in prop::collection::vec((0u8..19, 0u8..19), 0..220),
    ) {
        let (b, color, history) = position(side, &moves);
        check_features(&b, color, history);
        // The same board as a snapshot, for either player.
        check_features(&b, color.opponent(), History::default());
    }

    #[test]
    fn pattern_keys_are_canonical(
        side in prop::sample::select(vec![7u8, 9, 19]),
        moves in prop::collection::vec((0u8..19, 0u8..19), 0..160),
        t in 0u8..8,
    ) {
        let (b, color, _) = position(side, &moves);
        let size = b.size();
        let t = Transform::new(t).unwrap();
        // The board turned by t, and the board with colours exchanged.
        let mut turned = Board::with_rules(size, Rules::RECORD);
        let mut swapped = Board::with_rules(size, Rules::RECORD);
        for y in 0..side {
            for x in 0..side {
                let p = Point::new(x, y);
                let s = b.get(p);
                turned.set_stone(t.apply(p, size).unwrap(), s).unwrap();
                swapped.set_stone(p, s.swapped()).unwrap();
            }
        }
        let a = Analysis::new(&b, color, History::default());
        let at = Analysis::new(&turned, color, History::default());
        let asw = Analysis::new(&swapped, color.opponent(), History::default());
        for y in 0..side {
            for x in 0..side {
                let p = Point::new(x, y);
                let k = keys(&a, p);
                prop_assert_eq!(k.len(), SIZES);
                prop_assert_eq!(&k, &keys(&at, t.apply(p, size).unwrap()), "turned at {:?}", p);
                prop_assert_eq!(&k, &keys(&asw, p), "swapped at {:?}", p);
            }
        }
    }
}

#[test]
fn a_stone_changes_the_keys_of_the_sizes_that_hold_it() {
    // One black stone at distance 5 ((2, 1) away) from the point: sizes 0..=1 (distance
    // up to 4) do not see it, sizes 2 and up do.
    let size = Size::STANDARD;
    let empty = Board::new(size);
    let mut one = Board::new(size);
    one.play(Color::Black, Move::Play(Point::new(11, 10)))
        .unwrap();
    let p = Point::new(9, 9);
    let k0 = keys(&Analysis::new(&empty, Color::White, History::default()), p);
    let k1 = keys(&Analysis::new(&one, Color::White, History::default()), p);
    for s in 0..SIZES {
        assert_eq!(k0[s] == k1[s], s < 2, "size {s}");
    }
    // Sizes never share keys.
    let mut all = k0.clone();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), SIZES);
}
