//! The index's header and records, one codec per record kind, encoder beside decoder
//! (layout: `docs/FORMAT.md`). The games' moves and setup stones are the records of
//! [`crate::stored`].
//!
//! | record | size | codec |
//! |---|---|---|
//! | game | `16 + 14 * id_bytes`-byte row | [`GameLayout`], [`GameRow`] |
//! | occurrence | `ply_bits + 4 + rem_bits` bits (at most 64) | [`OccurrenceLayout`] |
//! | shared position | one record in each of four packed columns | [`SharedRow`] |
//! | next move of a shared position | `10 + count_bits` bits, and two columns of `count_bits` | [`NextLayout`], [`StoredNext`] |
//!
//! Decoding never fails on a short row (missing bytes read as zero) and never panics;
//! what a value must satisfy is checked once, when the index is opened.

use serde::{Deserialize, Serialize};

use crate::fingerprint::Split;
use crate::format::{bits_for, byte_at, le_u32, Field, Section};
use crate::outcome::Margin;
use crate::point::{Color, Move, Size, Stone};
use crate::search::NextMove;
use crate::stored::{decode_move, encode_move, MOVE_BITS};
use crate::transform::Transform;

/// Build options and counts, with the place of every section of the index (postcard, in
/// field order; the file's header goes on with the pattern search's part:
/// `docs/FORMAT.md`).
///
/// Every count is a `u64` and every width is chosen by the builder for the collection at
/// hand, so nothing overflows whatever the collection's size (`docs/FORMAT.md`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct IndexHeader {
    /// `--max-moves` (0: every move indexed).
    pub max_moves: u32,
    /// Positions with at least this many occurrences have precomputed next moves.
    pub shared_min: u32,
    /// Number of games.
    pub games: u64,
    /// Number of indexed moves (occurrences).
    pub occurrences: u64,
    /// Number of distinct positions.
    pub positions: u64,
    /// Board sizes present: bit `w - 1` of `sizes[h - 1]` for a `w` x `h` board.
    pub sizes: [u32; 19],
    /// Bits of the fingerprint that select a bucket.
    pub bucket_bits: u8,
    /// Fingerprint bits kept in each occurrence after the bucket bits.
    pub rem_bits: u8,
    /// Bits of the global move number in an occurrence.
    pub ply_bits: u8,
    /// Bits of each count of a shared position's next move (`next`, `next_black`,
    /// `next_white`).
    pub count_bits: u8,
    /// Bytes of each id in a game row (string ids and the tree number: [`GameLayout`]).
    pub id_bytes: u8,
    /// The games ([`GameLayout`] rows).
    pub games_section: Section,
    /// The first move of every game in `moves`, then the number of moves (`games + 1`).
    pub game_moves: Section,
    /// The first setup stone of every game in `setup`, then their number (`games + 1`).
    pub game_setup: Section,
    /// Offsets into `strings` (one more than there are strings).
    pub string_index: Section,
    /// The string bytes.
    pub strings: Section,
    /// The moves of every game ([`crate::stored::encode_move`]).
    pub moves: Section,
    /// The setup stones of every game ([`crate::stored::SetupRecord`]).
    pub setup: Section,
    /// The occurrences ([`OccurrenceLayout`]).
    pub occurrences_section: Section,
    /// The fingerprint buckets: start of each in the occurrences.
    pub buckets: Section,
    /// The shared positions' fingerprints (64 bits each, sorted).
    pub shared_keys: Section,
    /// Each shared position's first occurrence.
    pub shared_starts: Section,
    /// Each shared position's number of occurrences.
    pub shared_counts: Section,
    /// Each shared position's first record in `next`, then the number of records
    /// (`shared + 1`).
    pub shared_next: Section,
    /// The shared positions' next moves and counts ([`NextLayout`]).
    pub next: Section,
    /// Their occurrences from games Black won (`count_bits` each).
    pub next_black: Section,
    /// Their occurrences from games White won (`count_bits` each).
    pub next_white: Section,
}

impl IndexHeader {
    /// The layout of an occurrence record.
    pub fn occurrence_layout(&self) -> OccurrenceLayout {
        OccurrenceLayout {
            ply_bits: self.ply_bits as u32,
            rem_bits: self.rem_bits as u32,
        }
    }

    /// Width in bits of an occurrence record.
    pub fn occurrence_bits(&self) -> u32 {
        self.occurrence_layout().bits()
    }

    /// The layout of the next moves of shared positions.
    pub fn next_layout(&self) -> NextLayout {
        NextLayout {
            count_bits: self.count_bits as u32,
        }
    }

    /// The layout of a game row.
    pub fn game_layout(&self) -> GameLayout {
        GameLayout {
            id_bytes: self.id_bytes as u32,
        }
    }

    /// How the index splits a fingerprint: the bucket bits, then the bits an occurrence
    /// keeps.
    pub fn split(&self) -> Split {
        Split {
            bucket_bits: self.bucket_bits as u32,
            rem_bits: self.rem_bits as u32,
        }
    }

    /// Whether the index holds games on a `size` board.
    pub fn has_size(&self, size: Size) -> bool {
        self.sizes
            .get(size.height() as usize - 1)
            .is_some_and(|row| row & (1 << (size.width() - 1)) != 0)
    }
}

/// The string ids of a game row: each names a string of the index's pool (0 is the empty
/// string).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Hash)]
pub struct GameStrings {
    /// Black's name (`PB`).
    pub black: u64,
    /// White's name (`PW`).
    pub white: u64,
    /// Black's rank (`BR`).
    pub black_rank: u64,
    /// White's rank (`WR`).
    pub white_rank: u64,
    /// The event (`EV`).
    pub event: u64,
    /// The round (`RO`).
    pub round: u64,
    /// The place (`PC`).
    pub place: u64,
    /// The date as written (`DT`).
    pub date: u64,
    /// The result as written (`RE`).
    pub result: u64,
    /// The record's file.
    pub path: u64,
    /// The archive member, or the empty string.
    pub member: u64,
    /// The rules (`RU`).
    pub rules: u64,
    /// The game name (`GN`).
    pub name: u64,
}

impl GameStrings {
    /// Every id, in row order.
    pub const fn ids(&self) -> [u64; 13] {
        [
            self.black,
            self.white,
            self.black_rank,
            self.white_rank,
            self.event,
            self.round,
            self.place,
            self.date,
            self.result,
            self.path,
            self.member,
            self.rules,
            self.name,
        ]
    }

    /// The ids of [`GameStrings::ids`], in that order.
    pub const fn from_ids(ids: [u64; 13]) -> GameStrings {
        let [black, white, black_rank, white_rank, event, round, place, date, result, path, member, rules, name] =
            ids;
        GameStrings {
            black,
            white,
            black_rank,
            white_rank,
            event,
            round,
            place,
            date,
            result,
            path,
            member,
            rules,
            name,
        }
    }
}

/// Byte offsets of the fixed fields of a game row (all little-endian).
mod game_at {
    /// u32: date as `yyyymmdd`.
    pub const DATE: usize = 0;
    /// u8: board width.
    pub const WIDTH: usize = 4;
    /// u8: board height.
    pub const HEIGHT: usize = 5;
    /// u8: handicap stones.
    pub const HANDICAP: usize = 6;
    /// u8: winner and margin kind ([`super::GameRow`]'s result fields).
    pub const RESULT: usize = 7;
    /// i32: margin in tenths of a point.
    pub const MARGIN: usize = 8;
    /// i32: komi in hundredths of a point, `i32::MIN` when unknown.
    pub const KOMI: usize = 12;
    /// The ids, `id_bytes` each: the 13 string ids in [`super::GameStrings::ids`] order,
    /// then the tree number.
    pub const IDS: usize = 16;
}

/// One game's row in the `games` section: its information (texts as string ids). Where
/// its moves and setup stones are is in the `game_moves` and `game_setup` columns.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameRow {
    /// The date as `yyyymmdd` (month or day 0 when unknown; 0 when no year is known).
    pub date: u32,
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// Handicap stones (`HA`, at most 255).
    pub handicap: u8,
    /// The winner (result bits 0-1: 0 none, 1 Black, 2 White, as [`Stone::code`]).
    pub winner: Option<Color>,
    /// The margin (result bits 2-4: [`Margin::code`]; tenths at offset 8).
    pub margin: Margin,
    /// Komi in hundredths of a point (`i32::MIN` stands for unknown, so it is not a komi).
    pub komi: Option<i32>,
    /// The texts.
    pub strings: GameStrings,
    /// Index of the game tree within its file.
    pub tree: u64,
}

impl GameRow {
    /// Winner bits of the result byte.
    const WINNER: Field = Field::new(0, 2);
    /// Margin kind bits of the result byte.
    const MARGIN_KIND: Field = GameRow::WINNER.then(3);

    /// The board size, `None` for a width or height outside 1..=19.
    pub const fn size(&self) -> Option<Size> {
        Size::new(self.width, self.height)
    }
}

/// The layout of a game row: 16 bytes of fixed fields, then 14 ids (13 string ids and the
/// tree number) of `id_bytes` bytes each, little-endian.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameLayout {
    /// Bytes of each id (1 to 8).
    pub id_bytes: u32,
}

impl GameLayout {
    /// Ids in a row: 13 string ids and the tree number.
    pub const IDS: usize = 14;
    /// The longest row (8-byte ids).
    pub const MAX_BYTES: usize = game_at::IDS + GameLayout::IDS * 8;

    /// The layout whose ids hold `max_id`.
    pub const fn for_max_id(max_id: u64) -> GameLayout {
        GameLayout {
            id_bytes: bits_for(max_id).div_ceil(8),
        }
    }

    /// Whether a reader accepts the layout (1 to 8 bytes per id).
    pub const fn is_valid(self) -> bool {
        self.id_bytes >= 1 && self.id_bytes <= 8
    }

    /// Bytes in a row.
    pub const fn bytes(self) -> usize {
        game_at::IDS + GameLayout::IDS * self.id_bytes as usize
    }

    /// The board size of a row without decoding the rest (`None` if invalid).
    #[inline]
    pub fn size_of(row: &[u8]) -> Option<Size> {
        Size::new(byte_at(row, game_at::WIDTH), byte_at(row, game_at::HEIGHT))
    }

    /// Id `k` of a row (0 where the row is too short).
    #[inline]
    fn id(self, row: &[u8], k: usize) -> u64 {
        let n = self.id_bytes.min(8) as usize;
        let at = game_at::IDS + k * n;
        let mut a = [0u8; 8];
        if let (Some(b), Some(d)) = (row.get(at..at + n), a.get_mut(..n)) {
            d.copy_from_slice(b);
        }
        u64::from_le_bytes(a)
    }

    /// Decodes a row (missing bytes read as zero).
    #[inline]
    pub fn decode(self, row: &[u8]) -> GameRow {
        let result = byte_at(row, game_at::RESULT) as u64;
        let komi = le_u32(row, game_at::KOMI) as i32;
        let mut ids = [0u64; 13];
        for (k, id) in ids.iter_mut().enumerate() {
            *id = self.id(row, k);
        }
        GameRow {
            date: le_u32(row, game_at::DATE),
            width: byte_at(row, game_at::WIDTH),
            height: byte_at(row, game_at::HEIGHT),
            handicap: byte_at(row, game_at::HANDICAP),
            winner: match Stone::from_code(GameRow::WINNER.get(result) as u8) {
                Some(s) => s.color(),
                None => None,
            },
            margin: Margin::from_code(
                GameRow::MARGIN_KIND.get(result) as u8,
                le_u32(row, game_at::MARGIN) as i32,
            ),
            komi: if komi == i32::MIN { None } else { Some(komi) },
            strings: GameStrings::from_ids(ids),
            tree: self.id(row, 13),
        }
    }

    /// Encodes `g`: the row is the first [`GameLayout::bytes`] bytes (its ids must fit
    /// `id_bytes`; higher bytes are dropped).
    pub fn encode(self, g: &GameRow) -> [u8; GameLayout::MAX_BYTES] {
        let mut row = [0u8; GameLayout::MAX_BYTES];
        let mut put = |at: usize, v: u32| {
            if let Some(b) = row.get_mut(at..at + 4) {
                b.copy_from_slice(&v.to_le_bytes());
            }
        };
        put(game_at::DATE, g.date);
        put(game_at::MARGIN, g.margin.tenths() as u32);
        put(game_at::KOMI, g.komi.unwrap_or(i32::MIN) as u32);
        row[game_at::WIDTH] = g.width;
        row[game_at::HEIGHT] = g.height;
        row[game_at::HANDICAP] = g.handicap;
        row[game_at::RESULT] = (GameRow::WINNER.put(Stone::of_option(g.winner).code() as u64)
            | GameRow::MARGIN_KIND.put(g.margin.code() as u64))
            as u8;
        let n = self.id_bytes.min(8) as usize;
        let ids = g.strings.ids();
        for (k, id) in ids.iter().chain(core::iter::once(&g.tree)).enumerate() {
            let at = game_at::IDS + k * n;
            if let (Some(d), Some(b)) = (row.get_mut(at..at + n), id.to_le_bytes().get(..n)) {
                d.copy_from_slice(b);
            }
        }
        row
    }
}

/// Where a position occurs, as an occurrence record holds it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OccurrenceRecord {
    /// The global move number of the move played from the position (the index in `moves`).
    pub ply: u64,
    /// Transform from the game's orientation to the position's canonical one.
    pub orientation: Transform,
    /// Whether this is the first occurrence of its position (the occurrences of a position
    /// are contiguous).
    pub starts_position: bool,
    /// The fingerprint bits after the bucket bits.
    pub rem: u64,
}

/// The layout of an occurrence record: the global move number (`ply_bits`), the
/// orientation (3 bits), the first-of-its-position flag (1 bit), the remainder of the
/// fingerprint (`rem_bits`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OccurrenceLayout {
    /// Bits of the global move number.
    pub ply_bits: u32,
    /// Fingerprint bits kept after the bucket bits.
    pub rem_bits: u32,
}

impl OccurrenceLayout {
    #[inline(always)]
    const fn ply_field(self) -> Field {
        Field::new(0, self.ply_bits)
    }
    #[inline(always)]
    const fn orientation_field(self) -> Field {
        self.ply_field().then(3)
    }
    #[inline(always)]
    const fn first_field(self) -> Field {
        self.orientation_field().then(1)
    }
    #[inline(always)]
    const fn rem_field(self) -> Field {
        self.first_field().then(self.rem_bits)
    }

    /// Width in bits of a record.
    pub const fn bits(self) -> u32 {
        self.rem_field().end()
    }

    /// The global move number of record `v`.
    #[inline(always)]
    pub const fn ply(self, v: u64) -> u64 {
        self.ply_field().get(v)
    }

    /// The orientation of record `v`.
    #[inline(always)]
    pub const fn orientation(self, v: u64) -> Transform {
        Transform::ALL[self.orientation_field().get(v) as usize & 7]
    }

    /// Whether record `v` starts its position.
    #[inline(always)]
    pub const fn starts_position(self, v: u64) -> bool {
        self.first_field().get(v) == 1
    }

    /// The fingerprint remainder of record `v`.
    #[inline(always)]
    pub const fn rem(self, v: u64) -> u64 {
        self.rem_field().get(v)
    }

    /// Decodes record `v`.
    pub const fn decode(self, v: u64) -> OccurrenceRecord {
        OccurrenceRecord {
            ply: self.ply(v),
            orientation: self.orientation(v),
            starts_position: self.starts_position(v),
            rem: self.rem(v),
        }
    }

    /// Encodes `r` (its `ply` and `rem` must fit their widths).
    #[inline]
    pub const fn encode(self, r: OccurrenceRecord) -> u64 {
        self.ply_field().put(r.ply)
            | self.orientation_field().put(r.orientation.index() as u64)
            | self.first_field().put(r.starts_position as u64)
            | self.rem_field().put(r.rem)
    }
}

/// A position with precomputed next moves: row `r` of the `shared_*` columns, sorted by
/// fingerprint (and, under one fingerprint, by key: as the occurrences).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SharedRow {
    /// The position's fingerprint (`shared_keys`).
    pub fingerprint: u64,
    /// Its first occurrence (`shared_starts`).
    pub first_occurrence: u64,
    /// Its number of occurrences (`shared_counts`).
    pub occurrences: u64,
    /// Its first next move in `next` (`shared_next[r]`).
    pub first_next: u64,
    /// Its number of next moves (`shared_next[r + 1] - shared_next[r]`).
    pub next_count: u64,
}

/// A shared position's next move as the index stores it, in the position's canonical
/// orientation, with counts of any size.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StoredNext {
    /// Colour of the player who moved.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// Occurrences followed by this move.
    pub count: u64,
    /// Of those, occurrences from games Black won.
    pub black_wins: u64,
    /// Of those, occurrences from games White won.
    pub white_wins: u64,
}

impl StoredNext {
    /// The next move for a search (counts beyond `u32::MAX` saturate: a search adds them
    /// saturating too).
    pub const fn next_move(self) -> NextMove {
        const fn sat(v: u64) -> u32 {
            if v > u32::MAX as u64 {
                u32::MAX
            } else {
                v as u32
            }
        }
        NextMove {
            color: self.color,
            mv: self.mv,
            count: sat(self.count),
            black_wins: sat(self.black_wins),
            white_wins: sat(self.white_wins),
        }
    }
}

/// The layout of a shared position's next move: the move ([`crate::stored::encode_move`],
/// 10 bits) and its count (`count_bits`) in `next`; its black and white wins
/// (`count_bits` each) in `next_black` and `next_white`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct NextLayout {
    /// Bits of each count (1 to [`NextLayout::MAX_COUNT_BITS`]).
    pub count_bits: u32,
}

impl NextLayout {
    const MOVE: Field = Field::new(0, MOVE_BITS);
    /// The widest count: a `next` record (move and count) is then 64 bits.
    pub const MAX_COUNT_BITS: u32 = 64 - MOVE_BITS;

    /// The layout whose counts hold `max_count`.
    pub const fn for_max_count(max_count: u64) -> NextLayout {
        NextLayout {
            count_bits: bits_for(max_count),
        }
    }

    #[inline(always)]
    const fn count_field(self) -> Field {
        NextLayout::MOVE.then(self.count_bits)
    }

    /// Width in bits of a `next` record.
    pub const fn bits(self) -> u32 {
        self.count_field().end()
    }

    /// Decodes the records of one next move (`next`, `next_black`, `next_white`); `None`
    /// if it holds no move.
    #[inline]
    pub const fn decode(self, [v, black, white]: [u64; 3]) -> Option<StoredNext> {
        let Some((color, mv)) = decode_move(NextLayout::MOVE.get(v)) else {
            return None;
        };
        Some(StoredNext {
            color,
            mv,
            count: self.count_field().get(v),
            black_wins: black,
            white_wins: white,
        })
    }

    /// Encodes `m` as its `next`, `next_black` and `next_white` records (its counts must
    /// fit `count_bits`).
    #[inline]
    pub const fn encode(self, m: StoredNext) -> [u64; 3] {
        [
            encode_move(m.color, m.mv) | self.count_field().put(m.count),
            m.black_wins,
            m.white_wins,
        ]
    }
}

#[cfg(test)]
mod tests;
