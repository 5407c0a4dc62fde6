//! Loopback tests of the index's records: random records and every field at its maximum
//! encode and decode to themselves, at the documented bit and byte positions.

use super::*;
use crate::point::{Move, Point};

/// A small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn margin(r: &mut Rng) -> Margin {
    match r.below(7) {
        0 => Margin::Unknown,
        1 => Margin::Points(r.next() as i32),
        2 => Margin::Resign,
        3 => Margin::Time,
        4 => Margin::Forfeit,
        5 => Margin::Draw,
        _ => Margin::Void,
    }
}

fn winner(r: &mut Rng) -> Option<Color> {
    [None, Some(Color::Black), Some(Color::White)][r.below(3) as usize]
}

fn game_row(r: &mut Rng) -> GameRow {
    let mut ids = [0u32; 13];
    ids.iter_mut().for_each(|i| *i = r.next() as u32);
    let komi = r.next() as i32;
    GameRow {
        move_start: r.next() as u32,
        move_count: r.next() as u32,
        setup_start: r.next() as u32,
        setup_count: r.next() as u32,
        date: r.next() as u32,
        width: r.next() as u8,
        height: r.next() as u8,
        handicap: r.next() as u8,
        winner: winner(r),
        margin: margin(r),
        komi: (komi != i32::MIN && r.below(4) != 0).then_some(komi),
        strings: GameStrings::from_ids(ids),
        tree: r.next() as u32,
    }
}

#[test]
fn game_rows_round_trip() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..2000 {
        let g = game_row(&mut r);
        let bytes = g.encode();
        assert_eq!(GameRow::decode(&bytes), g);
        assert_eq!(GameRow::moves_of(&bytes), (g.move_start, g.move_count));
        assert_eq!(GameRow::move_start_of(&bytes), g.move_start);
        assert_eq!(GameRow::setup_of(&bytes), (g.setup_start, g.setup_count));
        assert_eq!(GameRow::size_of(&bytes), g.size());
    }
    // Every field at its maximum.
    let max = GameRow {
        move_start: u32::MAX,
        move_count: u32::MAX,
        setup_start: u32::MAX,
        setup_count: u32::MAX,
        date: u32::MAX,
        width: u8::MAX,
        height: u8::MAX,
        handicap: u8::MAX,
        winner: Some(Color::White),
        margin: Margin::Points(i32::MAX),
        komi: Some(i32::MAX),
        strings: GameStrings::from_ids([u32::MAX; 13]),
        tree: u32::MAX,
    };
    assert_eq!(GameRow::decode(&max.encode()), max);
    let void = GameRow {
        margin: Margin::Void,
        komi: None,
        winner: None,
        ..max
    };
    assert_eq!(GameRow::decode(&void.encode()), void);
}

#[test]
fn game_row_layout() {
    // The offsets of docs/FORMAT.md: result byte 23 (winner bits 0-1, margin kind 2-4),
    // margin 24, komi 28, rules 80, name 84.
    let g = GameRow {
        winner: Some(Color::White),
        margin: Margin::Points(-35),
        komi: None,
        strings: GameStrings {
            rules: 5,
            name: 6,
            black: 7,
            member: 8,
            ..GameStrings::default()
        },
        ..GameRow::decode(&[])
    };
    let b = g.encode();
    assert_eq!(b[23], 2 | 1 << 2);
    assert_eq!(&b[24..28], &(-35i32).to_le_bytes());
    assert_eq!(&b[28..32], &i32::MIN.to_le_bytes());
    assert_eq!((b[32], b[72], b[80], b[84]), (7, 8, 5, 6));
    // A short row reads as zeros.
    assert_eq!(GameRow::decode(&b[..20]).width, 0);
    assert_eq!(GameRow::decode(&b[..20]).winner, None);
}

#[test]
fn occurrences_round_trip() {
    let mut r = Rng(7);
    for (ply_bits, rem_bits) in [(1, 0), (22, 6), (23, 5), (32, 28), (40, 20)] {
        let lay = OccurrenceLayout { ply_bits, rem_bits };
        assert_eq!(lay.bits(), ply_bits + 4 + rem_bits);
        let mask = |b: u32| if b == 0 { 0 } else { u64::MAX >> (64 - b) };
        for k in 0..500 {
            let rec = if k == 0 {
                OccurrenceRecord {
                    ply: mask(ply_bits),
                    orientation: Transform::ALL[7],
                    starts_position: true,
                    rem: mask(rem_bits),
                }
            } else {
                OccurrenceRecord {
                    ply: r.next() & mask(ply_bits),
                    orientation: Transform::ALL[r.below(8) as usize],
                    starts_position: r.below(2) == 1,
                    rem: r.next() & mask(rem_bits),
                }
            };
            let v = lay.encode(rec);
            assert!(lay.bits() == 64 || v >> lay.bits() == 0);
            assert_eq!(lay.decode(v), rec);
        }
    }
    // The layout of docs/FORMAT.md: ply, then orientation, then the flag.
    let lay = OccurrenceLayout {
        ply_bits: 4,
        rem_bits: 4,
    };
    let v = lay.encode(OccurrenceRecord {
        ply: 9,
        orientation: Transform::ALL[5],
        starts_position: true,
        rem: 3,
    });
    assert_eq!(v, 9 | 5 << 4 | 1 << 7 | 3 << 8);
}

#[test]
fn shared_rows_round_trip() {
    let mut r = Rng(11);
    for k in 0..1000 {
        let row = if k == 0 {
            SharedRow {
                fingerprint: u64::MAX,
                first_occurrence: u32::MAX,
                occurrences: u32::MAX,
                first_next: u32::MAX,
                next_count: u32::MAX,
            }
        } else {
            SharedRow {
                fingerprint: r.next(),
                first_occurrence: r.next() as u32,
                occurrences: r.next() as u32,
                first_next: r.next() as u32,
                next_count: r.next() as u32,
            }
        };
        let b = row.encode();
        assert_eq!(SharedRow::decode(&b), row);
        assert_eq!(SharedRow::fingerprint_of(&b), row.fingerprint);
    }
}

#[test]
fn next_records_round_trip() {
    let mut r = Rng(5);
    for count_bits in [1u32, 5, 17, 18] {
        let lay = NextLayout { count_bits };
        assert_eq!(lay.bits(), 10 + 3 * count_bits);
        assert_eq!(NextLayout::for_max_count((1 << count_bits) - 1), lay);
        let max = (1u64 << count_bits) - 1;
        for k in 0..500 {
            let m = if k == 0 {
                NextMove {
                    color: Color::White,
                    mv: Move::Pass,
                    count: max as u32,
                    black_wins: max as u32,
                    white_wins: max as u32,
                }
            } else {
                NextMove {
                    color: if r.below(2) == 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                    mv: Move::from_code(r.below(362) as u16).unwrap(),
                    count: (r.next() & max) as u32,
                    black_wins: (r.next() & max) as u32,
                    white_wins: (r.next() & max) as u32,
                }
            };
            let v = lay.encode(m);
            assert!(lay.bits() == 64 || v >> lay.bits() == 0);
            assert_eq!(lay.decode(v), Some(m));
        }
    }
    let lay = NextLayout { count_bits: 3 };
    let v = lay.encode(NextMove {
        color: Color::White,
        mv: Move::Play(Point::new(1, 0)),
        count: 5,
        black_wins: 2,
        white_wins: 3,
    });
    assert_eq!(v, 1 | 1 << 9 | 5 << 10 | 2 << 13 | 3 << 16);
    assert_eq!(lay.decode(362), None);
}
