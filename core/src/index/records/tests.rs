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

fn game_row(r: &mut Rng, id_bytes: u32) -> GameRow {
    let mask = if id_bytes >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * id_bytes)) - 1
    };
    let mut ids = [0u64; 13];
    ids.iter_mut().for_each(|i| *i = r.next() & mask);
    let komi = r.next() as i32;
    GameRow {
        date: r.next() as u32,
        width: r.next() as u8,
        height: r.next() as u8,
        handicap: r.next() as u8,
        winner: winner(r),
        margin: margin(r),
        komi: (komi != i32::MIN && r.below(4) != 0).then_some(komi),
        strings: GameStrings::from_ids(ids),
        tree: r.next() & mask,
    }
}

#[test]
fn game_rows_round_trip() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    for id_bytes in 1..=8u32 {
        let lay = GameLayout { id_bytes };
        assert!(lay.is_valid());
        assert_eq!(lay.bytes(), 16 + 14 * id_bytes as usize);
        for _ in 0..300 {
            let g = game_row(&mut r, id_bytes);
            let bytes = lay.encode(&g);
            let row = &bytes[..lay.bytes()];
            assert!(bytes[lay.bytes()..].iter().all(|&b| b == 0));
            assert_eq!(lay.decode(row), g);
            assert_eq!(GameLayout::size_of(row), g.size());
        }
        // Every field at its maximum: the largest id the layout holds (2^(8 * id_bytes) - 1:
        // 2^16 - 1, 2^24 - 1, 2^32 - 1, ... u64::MAX).
        let top = if id_bytes == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * id_bytes)) - 1
        };
        assert_eq!(GameLayout::for_max_id(top), lay);
        if id_bytes < 8 {
            assert_eq!(GameLayout::for_max_id(top + 1).id_bytes, id_bytes + 1);
        }
        let max = GameRow {
            date: u32::MAX,
            width: u8::MAX,
            height: u8::MAX,
            handicap: u8::MAX,
            winner: Some(Color::White),
            margin: Margin::Points(i32::MAX),
            komi: Some(i32::MAX),
            strings: GameStrings::from_ids([top; 13]),
            tree: top,
        };
        assert_eq!(lay.decode(&lay.encode(&max)[..lay.bytes()]), max);
        let void = GameRow {
            margin: Margin::Void,
            komi: None,
            winner: None,
            ..max
        };
        assert_eq!(lay.decode(&lay.encode(&void)[..lay.bytes()]), void);
    }
    assert!(!GameLayout { id_bytes: 0 }.is_valid());
    assert!(!GameLayout { id_bytes: 9 }.is_valid());
    assert_eq!(GameLayout::for_max_id(0).id_bytes, 1);
}

#[test]
fn game_row_layout() {
    // The offsets of docs/FORMAT.md: date 0, width 4, height 5, result byte 7 (winner bits
    // 0-1, margin kind 2-4), margin 8, komi 12, ids from 16 (the tree last).
    let lay = GameLayout { id_bytes: 3 };
    let g = GameRow {
        date: 20_160_309,
        width: 19,
        height: 13,
        winner: Some(Color::White),
        margin: Margin::Points(-35),
        komi: None,
        strings: GameStrings {
            rules: 5,
            name: 6,
            black: 7,
            member: 0x01_0203,
            ..GameStrings::default()
        },
        tree: 0x0a0b0c,
        ..lay.decode(&[])
    };
    let b = lay.encode(&g);
    assert_eq!(&b[0..4], &20_160_309u32.to_le_bytes());
    assert_eq!((b[4], b[5]), (19, 13));
    assert_eq!(b[7], 2 | 1 << 2);
    assert_eq!(&b[8..12], &(-35i32).to_le_bytes());
    assert_eq!(&b[12..16], &i32::MIN.to_le_bytes());
    // black is id 0, member id 10, rules 11, name 12, the tree 13.
    assert_eq!(&b[16..19], &[7, 0, 0]);
    assert_eq!(&b[16 + 30..16 + 33], &[3, 2, 1]);
    assert_eq!((b[16 + 33], b[16 + 36]), (5, 6));
    assert_eq!(&b[16 + 39..16 + 42], &[0x0c, 0x0b, 0x0a]);
    assert_eq!(lay.bytes(), 58);
    // A short row reads as zeros.
    assert_eq!(lay.decode(&b[..4]).width, 0);
    assert_eq!(lay.decode(&b[..4]).winner, None);
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
fn occurrence_layout_at_its_widest() {
    // 60 bits of move number (2^60 moves) leave no fingerprint bits: still 64 bits.
    let lay = OccurrenceLayout {
        ply_bits: 60,
        rem_bits: 0,
    };
    assert_eq!(lay.bits(), 64);
    for ply in [0, 1 << 32, (1 << 32) - 1, (1 << 60) - 1] {
        let rec = OccurrenceRecord {
            ply,
            orientation: Transform::ALL[6],
            starts_position: true,
            rem: 0,
        };
        assert_eq!(lay.decode(lay.encode(rec)), rec);
    }
}

#[test]
fn next_records_round_trip() {
    let mut r = Rng(5);
    // Counts at the boundaries: 2^16, 2^18 (where version 1's 10 + 3 x count_bits record
    // overflowed 64 bits), 2^24, 2^32 and the widest count.
    for count_bits in [1u32, 5, 17, 18, 19, 25, 32, 33, NextLayout::MAX_COUNT_BITS] {
        let lay = NextLayout { count_bits };
        assert_eq!(lay.bits(), 10 + count_bits);
        assert!(lay.bits() <= 64);
        let max = if count_bits == 64 {
            u64::MAX
        } else {
            (1u64 << count_bits) - 1
        };
        assert_eq!(NextLayout::for_max_count(max), lay);
        for k in 0..500 {
            let m = if k == 0 {
                StoredNext {
                    color: Color::White,
                    mv: Move::Pass,
                    count: max,
                    black_wins: max,
                    white_wins: max,
                }
            } else {
                StoredNext {
                    color: if r.below(2) == 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                    mv: Move::from_code(r.below(362) as u16).unwrap(),
                    count: r.next() & max,
                    black_wins: r.next() & max,
                    white_wins: r.next() & max,
                }
            };
            let v = lay.encode(m);
            assert!(lay.bits() == 64 || v[0] >> lay.bits() == 0);
            assert!(v[1] <= max && v[2] <= max);
            assert_eq!(lay.decode(v), Some(m));
        }
    }
    assert_eq!(NextLayout::for_max_count(1 << 18).count_bits, 19);
    let lay = NextLayout { count_bits: 3 };
    let v = lay.encode(StoredNext {
        color: Color::White,
        mv: Move::Play(Point::new(1, 0)),
        count: 5,
        black_wins: 2,
        white_wins: 3,
    });
    assert_eq!(v, [1 | 1 << 9 | 5 << 10, 2, 3]);
    assert_eq!(lay.decode([362, 0, 0]), None);
    // A search sees counts beyond u32 saturated.
    let big = StoredNext {
        color: Color::Black,
        mv: Move::Pass,
        count: 1 << 40,
        black_wins: (1 << 32) + 1,
        white_wins: 7,
    };
    let m = big.next_move();
    assert_eq!(
        (m.count, m.black_wins, m.white_wins),
        (u32::MAX, u32::MAX, 7)
    );
}
