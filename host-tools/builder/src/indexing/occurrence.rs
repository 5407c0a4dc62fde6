//! One occurrence as a build carries it from the replay to the writers ([`Occ`]): the
//! position's canonical key, where it was played, its orientation, the move played from it
//! with the game's winner ([`NextCode`]), and a second hash of the position that the
//! collision check compares ([`check_value`]).

use kifudex_core::fingerprint::fingerprint;
use kifudex_core::format::Field;
use kifudex_core::hash::{Key, Keys};
use kifudex_core::stored::{decode_move, encode_move, MOVE_BITS};
use kifudex_core::{Color, Move, Size, Transform};

/// One occurrence during a build: the canonical key, the global move number, the
/// transform from the game's orientation to the canonical one, and the position's check
/// value ([`check_value`]). Ordered by key, then move number (move numbers are distinct).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Occ {
    /// High half of the canonical key (the fingerprint).
    pub hi: u64,
    /// Low half of the canonical key.
    pub lo: u64,
    /// Global move number (index into the concatenated moves of all games).
    pub ply: u32,
    /// Transform from the game's orientation to the canonical one.
    pub orient: u8,
    /// A second hash of the position, independent of the key and of the orientation
    /// ([`check_value`]): occurrences of one key must agree on it.
    pub check: u64,
    /// The move played from the position in canonical orientation, and the game's winner
    /// ([`NextCode`]): what the shared positions' next moves count, without going back to
    /// the games.
    pub next: u16,
}

impl Occ {
    /// An occurrence of all zeros, to fill buffers with.
    pub const ZERO: Occ = Occ {
        hi: 0,
        lo: 0,
        ply: 0,
        orient: 0,
        check: 0,
        next: 0,
    };

    /// The occurrence of a position keyed `key` (canonical) and `check`, played from at
    /// global move `ply` in orientation `orient`, followed by `next`.
    pub fn new(key: Key, ply: u32, orient: Transform, check: u64, next: NextCode) -> Occ {
        Occ {
            hi: fingerprint(key),
            lo: key.0 as u64,
            ply,
            orient: orient.index() as u8,
            check,
            next: next.0,
        }
    }

    /// The canonical key.
    pub fn key(&self) -> Key {
        Key((self.hi as u128) << 64 | self.lo as u128)
    }

    /// The transform from the game's orientation to the canonical one.
    pub fn orientation(&self) -> Transform {
        Transform::ALL[self.orient as usize & 7]
    }

    /// The move played from the position and the game's winner.
    pub fn next_code(&self) -> NextCode {
        NextCode(self.next)
    }
}

/// The move played from an occurrence's position, in the position's canonical
/// orientation, with the game's winner, in 16 bits: the move record
/// ([`kifudex_core::stored::encode_move`], bits 0-9) and the winner (bits 10-11: 0 none,
/// 1 Black, 2 White).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NextCode(pub u16);

impl NextCode {
    const MOVE: Field = Field::new(0, MOVE_BITS);
    const WINNER: Field = NextCode::MOVE.then(2);

    /// The code of move record `code` played from a position whose canonical orientation
    /// is `orient` (on a `size` board), in a game won by `winner`.
    pub fn new(code: u16, orient: Transform, size: Size, winner: Option<Color>) -> NextCode {
        let w = match winner {
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
            None => 0,
        };
        let canonical = canonical_code(code, orient, size);
        NextCode((NextCode::MOVE.put(canonical as u64) | NextCode::WINNER.put(w)) as u16)
    }

    /// The move record, in canonical orientation.
    pub fn move_code(self) -> u16 {
        NextCode::MOVE.get(self.0 as u64) as u16
    }

    /// The winner: 0 none, 1 Black, 2 White.
    pub fn winner(self) -> u8 {
        NextCode::WINNER.get(self.0 as u64) as u8
    }
}

/// A move record ([`encode_move`]) played in a position's orientation, mapped into its
/// canonical orientation by `orient`.
pub fn canonical_code(code: u16, orient: Transform, size: Size) -> u16 {
    let (color, mv) = decode_move(code as u64).unwrap_or((Color::Black, Move::Pass));
    let mapped = match mv {
        Move::Pass => Move::Pass,
        Move::Play(p) => orient.apply(p, size).map_or(Move::Pass, Move::Play),
    };
    encode_move(color, mapped) as u16
}

/// The check value of a position whose keys under the 8 transforms are `keys` (the
/// board's incremental keys): the wrapping sum over the transforms valid for `size` of
/// each key's two halves XORed. Equal for a position in any orientation (the transforms
/// of a transformed position are the same set); the collision check
/// (`occurrences/verify.rs`) compares it between the occurrences of one key.
#[inline]
pub fn check_value(keys: &Keys, size: Size) -> u64 {
    Transform::all_for(size).iter().fold(0u64, |sum, t| {
        let k = keys.0[t.index()];
        sum.wrapping_add(k as u64 ^ (k >> 64) as u64)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifudex_core::board::Board;
    use kifudex_core::{Point, Stone};

    /// The check value is the same for a position in all its orientations, on square and
    /// rectangular boards.
    #[test]
    fn the_check_value_ignores_the_orientation() {
        for size in [Size::new(19, 19).unwrap(), Size::new(13, 9).unwrap()] {
            let stones = [
                (2, 3, Color::Black),
                (5, 1, Color::White),
                (0, 0, Color::Black),
            ];
            let mut values = Vec::new();
            for &t in Transform::all_for(size) {
                let mut board = Board::new(size);
                for &(x, y, c) in &stones {
                    let p = t.apply(Point::new(x, y), size).unwrap();
                    board.set_stone(p, Stone::of(c)).unwrap();
                }
                values.push(check_value(board.keys(), size));
            }
            assert!(
                values.windows(2).all(|w| w[0] == w[1]),
                "{size:?}: {values:x?}"
            );
        }
    }

    /// A next code keeps the canonical move and the winner apart, for every move of
    /// either colour, every transform and every winner.
    #[test]
    fn next_codes_round_trip() {
        let size = Size::STANDARD;
        for t in Transform::ALL {
            for code in 0..=361u16 {
                for color in [Color::Black, Color::White] {
                    let mv = Move::from_code(code).unwrap();
                    let record = encode_move(color, mv) as u16;
                    for (winner, w) in [(None, 0), (Some(Color::Black), 1), (Some(Color::White), 2)]
                    {
                        let n = NextCode::new(record, t, size, winner);
                        assert_eq!(n.winner(), w);
                        let (c, m) = decode_move(n.move_code() as u64).unwrap();
                        assert_eq!(c, color);
                        let expected = match mv {
                            Move::Pass => Move::Pass,
                            Move::Play(p) => Move::Play(t.apply(p, size).unwrap()),
                        };
                        assert_eq!(m, expected);
                    }
                }
            }
        }
    }
}
