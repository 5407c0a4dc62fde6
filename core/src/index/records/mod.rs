//! The index's header and records, one codec per record kind, encoder beside decoder
//! (layout: `docs/FORMAT.md`). The games' moves and setup stones are the records of
//! [`crate::stored`].
//!
//! | record | size | codec |
//! |---|---|---|
//! | game | 88-byte row | [`GameRow`] |
//! | occurrence | `ply_bits + 4 + rem_bits` bits | [`OccurrenceLayout`] |
//! | shared position | 24-byte row | [`SharedRow`] |
//! | next move of a shared position | `10 + 3 * count_bits` bits | [`NextLayout`] |
//!
//! Decoding never fails on a short row (missing bytes read as zero) and never panics;
//! what a value must satisfy is checked once, when the index is opened.

use serde::{Deserialize, Serialize};

use crate::fingerprint::Split;
use crate::format::{bits_for, byte_at, le_u32, le_u64, Field, Section};
use crate::outcome::Margin;
use crate::point::{Color, Size, Stone};
use crate::search::NextMove;
use crate::stored::{decode_move, encode_move, MOVE_BITS};
use crate::transform::Transform;

/// Build options and counts, with the place of every section (postcard, in field order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct IndexHeader {
    /// `--max-moves` (0: every move indexed).
    pub max_moves: u32,
    /// Positions with at least this many occurrences have precomputed next moves.
    pub shared_min: u32,
    /// Number of games.
    pub games: u32,
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
    /// Bits of each count in a `next` record.
    pub count_bits: u8,
    /// The games ([`GameRow`]).
    pub games_section: Section,
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
    /// The positions with precomputed next moves ([`SharedRow`]).
    pub shared: Section,
    /// Their next moves ([`NextLayout`]).
    pub next: Section,
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

    /// The layout of a `next` record.
    pub fn next_layout(&self) -> NextLayout {
        NextLayout {
            count_bits: self.count_bits as u32,
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
    pub black: u32,
    /// White's name (`PW`).
    pub white: u32,
    /// Black's rank (`BR`).
    pub black_rank: u32,
    /// White's rank (`WR`).
    pub white_rank: u32,
    /// The event (`EV`).
    pub event: u32,
    /// The round (`RO`).
    pub round: u32,
    /// The place (`PC`).
    pub place: u32,
    /// The date as written (`DT`).
    pub date: u32,
    /// The result as written (`RE`).
    pub result: u32,
    /// The record's file.
    pub path: u32,
    /// The archive member, or the empty string.
    pub member: u32,
    /// The rules (`RU`).
    pub rules: u32,
    /// The game name (`GN`).
    pub name: u32,
}

impl GameStrings {
    /// Every id, in row order.
    pub const fn ids(&self) -> [u32; 13] {
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
    pub const fn from_ids(ids: [u32; 13]) -> GameStrings {
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

/// Byte offsets of the fields of a game row (all little-endian).
mod game_at {
    /// u32: index of the game's first move in `moves`.
    pub const MOVE_START: usize = 0;
    /// u32: number of moves stored.
    pub const MOVE_COUNT: usize = 4;
    /// u32: index of the game's first setup stone in `setup`.
    pub const SETUP_START: usize = 8;
    /// u32: number of setup stones.
    pub const SETUP_COUNT: usize = 12;
    /// u32: date as `yyyymmdd`.
    pub const DATE: usize = 16;
    /// u8: board width.
    pub const WIDTH: usize = 20;
    /// u8: board height.
    pub const HEIGHT: usize = 21;
    /// u8: handicap stones.
    pub const HANDICAP: usize = 22;
    /// u8: winner and margin kind ([`super::GameRow`]'s result fields).
    pub const RESULT: usize = 23;
    /// i32: margin in tenths of a point.
    pub const MARGIN: usize = 24;
    /// i32: komi in hundredths of a point, `i32::MIN` when unknown.
    pub const KOMI: usize = 28;
    /// 11 u32 string ids: black, white, black rank, white rank, event, round, place, date
    /// as written, result as written, file path, archive member.
    pub const STRINGS: usize = 32;
    /// u32: index of the game tree within its file.
    pub const TREE: usize = 76;
    /// u32: string id of the rules.
    pub const RULES: usize = 80;
    /// u32: string id of the game name.
    pub const NAME: usize = 84;
}

/// One game's row in the `games` section: where its moves and setup stones are, and its
/// information (texts as string ids).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameRow {
    /// Index of the game's first move in `moves`.
    pub move_start: u32,
    /// Number of moves stored (the main line as far as it is legal).
    pub move_count: u32,
    /// Index of the game's first setup stone in `setup`.
    pub setup_start: u32,
    /// Number of setup stones.
    pub setup_count: u32,
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
    /// The margin (result bits 2-4: [`Margin::code`]; tenths at offset 24).
    pub margin: Margin,
    /// Komi in hundredths of a point (`i32::MIN` stands for unknown, so it is not a komi).
    pub komi: Option<i32>,
    /// The texts.
    pub strings: GameStrings,
    /// Index of the game tree within its file.
    pub tree: u32,
}

impl GameRow {
    /// Bytes in a row.
    pub const BYTES: usize = 88;
    /// Winner bits of the result byte.
    const WINNER: Field = Field::new(0, 2);
    /// Margin kind bits of the result byte.
    const MARGIN_KIND: Field = GameRow::WINNER.then(3);

    /// The board size, `None` for a width or height outside 1..=19.
    pub const fn size(&self) -> Option<Size> {
        Size::new(self.width, self.height)
    }

    /// The first move of a row without decoding the rest.
    #[inline]
    pub fn move_start_of(row: &[u8]) -> u32 {
        le_u32(row, game_at::MOVE_START)
    }

    /// The (first move, move count) of a row without decoding the rest.
    #[inline]
    pub fn moves_of(row: &[u8]) -> (u32, u32) {
        (
            le_u32(row, game_at::MOVE_START),
            le_u32(row, game_at::MOVE_COUNT),
        )
    }

    /// The (first setup stone, setup count) of a row without decoding the rest.
    #[inline]
    pub fn setup_of(row: &[u8]) -> (u32, u32) {
        (
            le_u32(row, game_at::SETUP_START),
            le_u32(row, game_at::SETUP_COUNT),
        )
    }

    /// The board size of a row without decoding the rest (`None` if invalid).
    #[inline]
    pub fn size_of(row: &[u8]) -> Option<Size> {
        Size::new(byte_at(row, game_at::WIDTH), byte_at(row, game_at::HEIGHT))
    }

    /// Decodes a row.
    #[inline]
    pub fn decode(row: &[u8]) -> GameRow {
        let result = byte_at(row, game_at::RESULT) as u64;
        let komi = le_u32(row, game_at::KOMI) as i32;
        let text = |k: usize| le_u32(row, game_at::STRINGS + 4 * k);
        GameRow {
            move_start: le_u32(row, game_at::MOVE_START),
            move_count: le_u32(row, game_at::MOVE_COUNT),
            setup_start: le_u32(row, game_at::SETUP_START),
            setup_count: le_u32(row, game_at::SETUP_COUNT),
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
            strings: GameStrings {
                black: text(0),
                white: text(1),
                black_rank: text(2),
                white_rank: text(3),
                event: text(4),
                round: text(5),
                place: text(6),
                date: text(7),
                result: text(8),
                path: text(9),
                member: text(10),
                rules: le_u32(row, game_at::RULES),
                name: le_u32(row, game_at::NAME),
            },
            tree: le_u32(row, game_at::TREE),
        }
    }

    /// Encodes the row.
    pub fn encode(&self) -> [u8; GameRow::BYTES] {
        let mut row = [0u8; GameRow::BYTES];
        let mut put = |at: usize, v: u32| {
            if let Some(b) = row.get_mut(at..at + 4) {
                b.copy_from_slice(&v.to_le_bytes());
            }
        };
        put(game_at::MOVE_START, self.move_start);
        put(game_at::MOVE_COUNT, self.move_count);
        put(game_at::SETUP_START, self.setup_start);
        put(game_at::SETUP_COUNT, self.setup_count);
        put(game_at::DATE, self.date);
        put(game_at::MARGIN, self.margin.tenths() as u32);
        put(game_at::KOMI, self.komi.unwrap_or(i32::MIN) as u32);
        let ids = self.strings.ids();
        for (k, &id) in ids.iter().enumerate().take(11) {
            put(game_at::STRINGS + 4 * k, id);
        }
        put(game_at::TREE, self.tree);
        put(game_at::RULES, ids[11]);
        put(game_at::NAME, ids[12]);
        row[game_at::WIDTH] = self.width;
        row[game_at::HEIGHT] = self.height;
        row[game_at::HANDICAP] = self.handicap;
        row[game_at::RESULT] = (GameRow::WINNER.put(Stone::of_option(self.winner).code() as u64)
            | GameRow::MARGIN_KIND.put(self.margin.code() as u64))
            as u8;
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

/// Byte offsets of the fields of a shared row (all little-endian).
mod shared_at {
    /// u64: the position's fingerprint.
    pub const FINGERPRINT: usize = 0;
    /// u32: its first occurrence.
    pub const FIRST_OCCURRENCE: usize = 8;
    /// u32: its number of occurrences.
    pub const OCCURRENCES: usize = 12;
    /// u32: its first `next` record.
    pub const FIRST_NEXT: usize = 16;
    /// u32: its number of `next` records.
    pub const NEXT_COUNT: usize = 20;
}

/// A position with precomputed next moves (a row of `shared`, sorted by fingerprint).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SharedRow {
    /// The position's fingerprint.
    pub fingerprint: u64,
    /// Its first occurrence.
    pub first_occurrence: u32,
    /// Its number of occurrences.
    pub occurrences: u32,
    /// Its first next move in `next`.
    pub first_next: u32,
    /// Its number of next moves.
    pub next_count: u32,
}

impl SharedRow {
    /// Bytes in a row.
    pub const BYTES: usize = 24;

    /// The fingerprint of a row without decoding the rest.
    #[inline]
    pub fn fingerprint_of(row: &[u8]) -> u64 {
        le_u64(row, shared_at::FINGERPRINT)
    }

    /// Decodes a row.
    #[inline]
    pub fn decode(row: &[u8]) -> SharedRow {
        SharedRow {
            fingerprint: le_u64(row, shared_at::FINGERPRINT),
            first_occurrence: le_u32(row, shared_at::FIRST_OCCURRENCE),
            occurrences: le_u32(row, shared_at::OCCURRENCES),
            first_next: le_u32(row, shared_at::FIRST_NEXT),
            next_count: le_u32(row, shared_at::NEXT_COUNT),
        }
    }

    /// Encodes the row.
    pub fn encode(&self) -> [u8; SharedRow::BYTES] {
        let mut row = [0u8; SharedRow::BYTES];
        row[shared_at::FINGERPRINT..shared_at::FINGERPRINT + 8]
            .copy_from_slice(&self.fingerprint.to_le_bytes());
        for (at, v) in [
            (shared_at::FIRST_OCCURRENCE, self.first_occurrence),
            (shared_at::OCCURRENCES, self.occurrences),
            (shared_at::FIRST_NEXT, self.first_next),
            (shared_at::NEXT_COUNT, self.next_count),
        ] {
            row[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        row
    }
}

/// The layout of a `next` record: the move ([`crate::stored::encode_move`], 10 bits),
/// then its count, black wins and white wins (`count_bits` each), in the position's
/// canonical orientation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct NextLayout {
    /// Bits of each count.
    pub count_bits: u32,
}

impl NextLayout {
    const MOVE: Field = Field::new(0, MOVE_BITS);

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
    #[inline(always)]
    const fn black_field(self) -> Field {
        self.count_field().then(self.count_bits)
    }
    #[inline(always)]
    const fn white_field(self) -> Field {
        self.black_field().then(self.count_bits)
    }

    /// Width in bits of a record.
    pub const fn bits(self) -> u32 {
        self.white_field().end()
    }

    /// Decodes record `v`; `None` if it holds no move.
    #[inline]
    pub const fn decode(self, v: u64) -> Option<NextMove> {
        let Some((color, mv)) = decode_move(NextLayout::MOVE.get(v)) else {
            return None;
        };
        Some(NextMove {
            color,
            mv,
            count: self.count_field().get(v) as u32,
            black_wins: self.black_field().get(v) as u32,
            white_wins: self.white_field().get(v) as u32,
        })
    }

    /// Encodes `m` (its counts must fit `count_bits`).
    #[inline]
    pub const fn encode(self, m: NextMove) -> u64 {
        encode_move(m.color, m.mv)
            | self.count_field().put(m.count as u64)
            | self.black_field().put(m.black_wins as u64)
            | self.white_field().put(m.white_wins as u64)
    }
}

#[cfg(test)]
mod tests;
