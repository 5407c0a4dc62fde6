//! The desktop index: every position of every game with its next moves, the games that
//! reached it, every game's information and every game's moves, read in place from one
//! validated file (see `docs/FORMAT.md` and [`crate::format`]).
//!
//! **Keys.** A position is keyed by its canonical 128-bit Zobrist key `K`
//! ([`crate::hash::Keys::canonical`]); its fingerprint is the top 64 bits of `K`. The
//! occurrence table stores only a few fingerprint bits per entry, so every candidate is
//! **verified by replaying** its game from the stored moves and comparing the whole board
//! with the query: a search is never wrong, whatever the fingerprints. The builder checks
//! exactly that no key stands for two different positions, so one replay per candidate
//! position suffices.
//!
//! **Sections.**
//! - `games`: one [`GAME_BYTES`]-byte row per game, newest first (the game id is the row).
//! - `string_index`, `strings`: the deduplicated UTF-8 string pool of the game information.
//! - `moves`: every game's moves, concatenated in game order, 10 bits each
//!   (`code` 9 bits: `y * 19 + x` or 361 for a pass; colour 1 bit: 0 Black, 1 White).
//! - `setup`: setup stones (AB/AW/AE), 32 bits each: the game's move number before which
//!   the stone is set (16 bits), the point code (9 bits), the stone (2 bits: 0 empty,
//!   1 black, 2 white).
//! - `occurrences`: one entry per indexed move, sorted by (K, global move number):
//!   the global move number (`ply_bits`), the transform from the game's orientation to the
//!   canonical one (3 bits), a flag set on the first entry of each position (1 bit), and
//!   `rem_bits` fingerprint bits following the bucket bits.
//! - `buckets`: `2^bucket_bits + 1` start indices into `occurrences` by the fingerprint's
//!   top bits.
//! - `shared`: positions with at least `shared_min` occurrences, 24-byte rows sorted by
//!   fingerprint: fingerprint u64, first occurrence u32, occurrences u32, first next-move
//!   record u32, next-move records u32.
//! - `next`: the shared positions' next moves in canonical orientation: code (9 bits),
//!   colour (1), then count, black wins and white wins (`count_bits` each).

use serde::{Deserialize, Serialize};

use crate::board::{Board, Rules};
use crate::event::Event;
use crate::fingerprint::{fingerprint, Split};
use crate::format::{bits_for, field, Container, FormatError, Kind, Packed, Section};
use crate::outcome::Margin;
use crate::point::{Color, Move, Point, Size, Stone, MAX_POINTS};
use crate::search::{NextMove, NextMoves, SearchError};
use crate::transform::Transform;

/// Bytes in one row of the `games` section.
pub const GAME_BYTES: usize = 88;

/// Byte offsets of the fields of a `games` row (all little-endian).
pub mod game_row {
    /// u32: index of the game's first move in `moves`.
    pub const MOVE_START: usize = 0;
    /// u32: number of moves stored (the whole main line as far as it is legal).
    pub const MOVE_COUNT: usize = 4;
    /// u32: index of the game's first setup stone in `setup`.
    pub const SETUP_START: usize = 8;
    /// u32: number of setup stones.
    pub const SETUP_COUNT: usize = 12;
    /// u32: date as `yyyymmdd` (month or day 0 when unknown; 0 when no year is known).
    pub const DATE: usize = 16;
    /// u8: board width.
    pub const WIDTH: usize = 20;
    /// u8: board height.
    pub const HEIGHT: usize = 21;
    /// u8: handicap stones (HA).
    pub const HANDICAP: usize = 22;
    /// u8: result: bits 0-1 winner (0 none, 1 Black, 2 White), bits 2-4 margin kind
    /// (0 unknown, 1 points, 2 resignation, 3 time, 4 forfeit, 5 draw, 6 void).
    pub const RESULT: usize = 23;
    /// i32: margin in tenths of a point (margin kind 1).
    pub const MARGIN: usize = 24;
    /// i32: komi in hundredths of a point, `i32::MIN` when unknown.
    pub const KOMI: usize = 28;
    /// u32 string ids, in this order: black, white, black rank, white rank, event, round,
    /// place, date as written, result as written, file path, archive member.
    pub const STRINGS: usize = 32;
    /// Number of string ids at [`STRINGS`].
    pub const STRING_COUNT: usize = 11;
    /// u32: index of the game tree within its file.
    pub const TREE: usize = 76;
    /// u32: string id of the rules (RU).
    pub const RULES: usize = 80;
    /// u32: string id of the game name (GN).
    pub const NAME: usize = 84;
}

/// Bit layout of a `moves` record.
pub const MOVE_BITS: u32 = 10;
/// Bit layout of a `setup` record.
pub const SETUP_BITS: u32 = 32;

/// Build options and counts, with the place of every section.
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
    /// The games.
    pub games_section: Section,
    /// Offsets into `strings` (one more than there are strings).
    pub string_index: Section,
    /// The string bytes.
    pub strings: Section,
    /// The moves of every game.
    pub moves: Section,
    /// The setup stones of every game.
    pub setup: Section,
    /// The occurrences.
    pub occurrences_section: Section,
    /// The fingerprint buckets.
    pub buckets: Section,
    /// The positions with precomputed next moves.
    pub shared: Section,
    /// Their next moves.
    pub next: Section,
}

impl IndexHeader {
    /// Width in bits of an occurrence record.
    pub fn occurrence_bits(&self) -> u32 {
        self.ply_bits as u32 + 4 + self.rem_bits as u32
    }

    /// Whether the index holds games on a `size` board.
    pub fn has_size(&self, size: Size) -> bool {
        self.sizes
            .get(size.height() as usize - 1)
            .is_some_and(|row| row & (1 << (size.width() - 1)) != 0)
    }
}

/// Byte rows of a fixed width.
#[derive(Copy, Clone, Debug)]
struct Rows<'a> {
    bytes: &'a [u8],
    width: usize,
    len: usize,
}

impl<'a> Rows<'a> {
    fn new(sec: &Section, body: &'a [u8], width: usize) -> Result<Rows<'a>, FormatError> {
        if sec.width_bits as usize != width * 8 {
            return Err(FormatError::BadSection);
        }
        let bytes = sec.slice(body)?;
        let len = usize::try_from(sec.count).map_err(|_| FormatError::BadSection)?;
        Ok(Rows { bytes, width, len })
    }

    fn row(&self, i: usize) -> Option<&'a [u8]> {
        if i >= self.len {
            return None;
        }
        let start = i.checked_mul(self.width)?;
        self.bytes.get(start..start + self.width)
    }
}

fn le_u32(row: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    if let Some(b) = row.get(at..at + 4) {
        a.copy_from_slice(b);
    }
    u32::from_le_bytes(a)
}

fn le_u64(row: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    if let Some(b) = row.get(at..at + 8) {
        a.copy_from_slice(b);
    }
    u64::from_le_bytes(a)
}

/// One game's information, borrowed from the index.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Game<'a> {
    /// The game's id (its row; 0 is the newest game).
    pub id: u32,
    /// Black's name.
    pub black: &'a str,
    /// White's name.
    pub white: &'a str,
    /// Black's rank.
    pub black_rank: &'a str,
    /// White's rank.
    pub white_rank: &'a str,
    /// Event.
    pub event: &'a str,
    /// Round.
    pub round: &'a str,
    /// Place.
    pub place: &'a str,
    /// The date as written in the record.
    pub date: &'a str,
    /// The date as `yyyymmdd` (0 when no year is known).
    pub date_key: u32,
    /// The result as written in the record.
    pub result: &'a str,
    /// The winner, if the record names one.
    pub winner: Option<Color>,
    /// The margin.
    pub margin: Margin,
    /// Komi in hundredths of a point.
    pub komi: Option<i32>,
    /// Handicap stones.
    pub handicap: u8,
    /// Rules (RU).
    pub rules: &'a str,
    /// Game name (GN).
    pub name: &'a str,
    /// Board size.
    pub size: Size,
    /// The record's file.
    pub path: &'a str,
    /// The member of an archive, or empty.
    pub member: &'a str,
    /// The game tree's index within its file.
    pub tree: u32,
    /// Number of moves stored.
    pub move_count: u32,
}

impl Game<'_> {
    /// The year, or `None` when the date is unknown.
    pub fn year(&self) -> Option<u16> {
        let y = self.date_key / 10_000;
        if y == 0 {
            None
        } else {
            Some(y as u16)
        }
    }
}

/// Where a position occurs: a game, the move number before which it stands (0-based: 0 is
/// the position before the first move) and the transform from the game's orientation to
/// the canonical one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    /// The game's id.
    pub game: u32,
    /// Moves played before the position (0-based move number of the next move).
    pub move_number: u32,
    /// Transform from the game's orientation to the position's canonical orientation.
    pub orientation: Transform,
}

/// A position found in the index.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Its occurrences: `occurrences[start..end]`.
    pub start: usize,
    /// End of the occurrences.
    pub end: usize,
    /// Its row in `shared`, if its next moves are precomputed.
    pub shared: Option<usize>,
    /// Transform from the query's orientation to the canonical one.
    pub to_canonical: Transform,
}

impl Found {
    /// Number of occurrences.
    pub fn count(&self) -> usize {
        self.end - self.start
    }
}

/// A validated index.
#[derive(Clone, Debug)]
pub struct Index<'a> {
    header: IndexHeader,
    games: Rows<'a>,
    string_index: Packed<'a>,
    strings: &'a [u8],
    moves: Packed<'a>,
    setup: Packed<'a>,
    occ: Packed<'a>,
    buckets: Packed<'a>,
    shared: Rows<'a>,
    next: Packed<'a>,
}

/// Field positions within an occurrence record.
#[derive(Copy, Clone, Debug)]
struct OccLayout {
    ply_bits: u32,
    rem_bits: u32,
}

impl OccLayout {
    #[inline]
    fn ply(self, v: u64) -> u64 {
        field(v, 0, self.ply_bits)
    }
    #[inline]
    fn orientation(self, v: u64) -> Transform {
        Transform::ALL[field(v, self.ply_bits, 3) as usize & 7]
    }
    #[inline]
    fn starts_group(self, v: u64) -> bool {
        field(v, self.ply_bits + 3, 1) == 1
    }
    #[inline]
    fn rem(self, v: u64) -> u64 {
        field(v, self.ply_bits + 4, self.rem_bits)
    }
}

impl<'a> Index<'a> {
    /// Opens and completely validates an index.
    pub fn open(file: &'a [u8]) -> Result<Index<'a>, FormatError> {
        let c = Container::open(file, Kind::Index)?;
        let header: IndexHeader = c.header()?;
        let body = c.body;
        if header.bucket_bits > 32
            || header.ply_bits == 0
            || header.ply_bits > 40
            || header.count_bits > 32
        {
            return Err(FormatError::BadHeader);
        }
        if header.occurrences_section.width_bits != header.occurrence_bits()
            || header.moves.width_bits != MOVE_BITS
            || header.setup.width_bits != SETUP_BITS
            || header.next.width_bits != 10 + 3 * header.count_bits as u32
            || header.strings.width_bits != 8
        {
            return Err(FormatError::BadHeader);
        }
        let idx = Index {
            games: Rows::new(&header.games_section, body, GAME_BYTES)?,
            string_index: header.string_index.packed(body)?,
            strings: header
                .strings
                .slice(body)?
                .get(..header.strings.count as usize)
                .ok_or(FormatError::BadSection)?,
            moves: header.moves.packed(body)?,
            setup: header.setup.packed(body)?,
            occ: header.occurrences_section.packed(body)?,
            buckets: header.buckets.packed(body)?,
            shared: Rows::new(&header.shared, body, 24)?,
            next: header.next.packed(body)?,
            header,
        };
        idx.validate()?;
        Ok(idx)
    }

    /// Checks every record against the others, so that nothing read later can point
    /// outside the file or hold an impossible value.
    fn validate(&self) -> Result<(), FormatError> {
        let bad = Err(FormatError::BadRecord);
        // Strings: monotonic offsets within the pool, valid UTF-8.
        let n_str = self.string_index.len();
        if n_str == 0
            || self.string_index.at(0) != 0
            || self.string_index.at(n_str - 1) != self.strings.len() as u64
        {
            return bad;
        }
        for i in 1..n_str {
            let (a, b) = (self.string_index.at(i - 1), self.string_index.at(i));
            if b < a {
                return bad;
            }
            let s = self
                .strings
                .get(a as usize..b as usize)
                .ok_or(FormatError::BadRecord)?;
            if core::str::from_utf8(s).is_err() {
                return bad;
            }
        }
        // Moves and setup records.
        for i in 0..self.moves.len() {
            if field(self.moves.at(i), 0, 9) > MAX_POINTS as u64 {
                return bad;
            }
        }
        for i in 0..self.setup.len() {
            let v = self.setup.at(i);
            if field(v, 16, 9) >= MAX_POINTS as u64 || field(v, 25, 2) > 2 || field(v, 27, 5) != 0 {
                return bad;
            }
        }
        // Games: contiguous move and setup ranges, valid sizes and string ids.
        if self.games.len != self.header.games as usize {
            return bad;
        }
        let (mut next_move, mut next_setup) = (0u64, 0u64);
        for g in 0..self.games.len {
            let row = self.games.row(g).ok_or(FormatError::BadRecord)?;
            let (ms, mc) = (
                le_u32(row, game_row::MOVE_START) as u64,
                le_u32(row, game_row::MOVE_COUNT) as u64,
            );
            let (ss, sc) = (
                le_u32(row, game_row::SETUP_START) as u64,
                le_u32(row, game_row::SETUP_COUNT) as u64,
            );
            if ms != next_move || ss != next_setup {
                return bad;
            }
            next_move = ms + mc;
            next_setup = ss + sc;
            let size = Size::new(row[game_row::WIDTH], row[game_row::HEIGHT])
                .ok_or(FormatError::BadRecord)?;
            if !self.header.has_size(size) {
                return bad;
            }
            for s in 0..game_row::STRING_COUNT {
                if le_u32(row, game_row::STRINGS + 4 * s) as usize + 1 >= n_str {
                    return bad;
                }
            }
            for at in [game_row::RULES, game_row::NAME] {
                if le_u32(row, at) as usize + 1 >= n_str {
                    return bad;
                }
            }
            let mut prev_before = 0;
            for i in ss..ss + sc {
                let v = self.setup.at(i as usize);
                let before = field(v, 0, 16);
                let p =
                    Point::from_index19(field(v, 16, 9) as u16).ok_or(FormatError::BadRecord)?;
                if before < prev_before || before > mc || !size.contains(p) {
                    return bad;
                }
                prev_before = before;
            }
        }
        if next_move != self.moves.len() as u64 || next_setup != self.setup.len() as u64 {
            return bad;
        }
        // Occurrences: plies within the moves, sorted remainders within each bucket, each
        // bucket range within the table.
        let n_occ = self.occ.len();
        // (`checked_shl`: 32 bucket bits would overflow a 32-bit `usize`.)
        let n_buckets = 1usize
            .checked_shl(self.header.bucket_bits as u32)
            .and_then(|n| n.checked_add(1))
            .ok_or(FormatError::BadHeader)?;
        if n_occ as u64 != self.header.occurrences || self.buckets.len() != n_buckets {
            return bad;
        }
        if self.buckets.at(0) != 0 || self.buckets.at(self.buckets.len() - 1) != n_occ as u64 {
            return bad;
        }
        let lay = self.layout();
        let mut groups = 0u64;
        for b in 0..self.buckets.len() - 1 {
            let (s, e) = (self.buckets.at(b), self.buckets.at(b + 1));
            if e < s || e > n_occ as u64 {
                return bad;
            }
            let mut prev_rem = None;
            for i in s as usize..e as usize {
                let v = self.occ.at(i);
                if lay.ply(v) >= self.moves.len() as u64 {
                    return bad;
                }
                let rem = lay.rem(v);
                let first_of_rem = prev_rem != Some(rem);
                if prev_rem.is_some_and(|p| rem < p) || (first_of_rem && !lay.starts_group(v)) {
                    return bad;
                }
                groups += lay.starts_group(v) as u64;
                prev_rem = Some(rem);
            }
        }
        if groups != self.header.positions {
            return bad;
        }
        // Shared positions: sorted fingerprints, ranges within their tables.
        let mut prev_fp = 0;
        let mut next_next = 0u64;
        let cb = self.header.count_bits as u32;
        for r in 0..self.shared.len {
            let row = self.shared.row(r).ok_or(FormatError::BadRecord)?;
            let fp = le_u64(row, 0);
            let (os, oc) = (le_u32(row, 8) as u64, le_u32(row, 12) as u64);
            let (ns, nc) = (le_u32(row, 16) as u64, le_u32(row, 20) as u64);
            if fp < prev_fp
                || oc == 0
                || os + oc > n_occ as u64
                || ns != next_next
                || ns + nc > self.next.len() as u64
            {
                return bad;
            }
            // The row's occurrences are exactly one position: it starts there, and the
            // next position starts right after.
            let (os, oe) = (os as usize, (os + oc) as usize);
            if !lay.starts_group(self.occ.at(os))
                || (os + 1..oe).any(|i| lay.starts_group(self.occ.at(i)))
                || (oe < n_occ && !lay.starts_group(self.occ.at(oe)))
            {
                return bad;
            }
            // Its fingerprint is the one its occurrences are filed under.
            let (bucket, rem) = self.split().split(fp);
            let (bs, be) = (
                self.buckets.at(bucket as usize),
                self.buckets.at(bucket as usize + 1),
            );
            if (os as u64) < bs || (os as u64) >= be || lay.rem(self.occ.at(os)) != rem {
                return bad;
            }
            // Its next moves: one per occurrence, wins within the counts.
            let mut total = 0u64;
            for i in ns as usize..(ns + nc) as usize {
                let v = self.next.at(i);
                let (n, b, w) = (
                    field(v, 10, cb),
                    field(v, 10 + cb, cb),
                    field(v, 10 + 2 * cb, cb),
                );
                if n == 0 || b + w > n {
                    return bad;
                }
                total += n;
            }
            if total != oc {
                return bad;
            }
            prev_fp = fp;
            next_next = ns + nc;
        }
        if next_next != self.next.len() as u64 {
            return bad;
        }
        for i in 0..self.next.len() {
            if field(self.next.at(i), 0, 9) > MAX_POINTS as u64 {
                return bad;
            }
        }
        Ok(())
    }

    /// How the index splits a fingerprint into bucket and stored bits.
    fn split(&self) -> Split {
        Split {
            bucket_bits: self.header.bucket_bits as u32,
            rem_bits: self.header.rem_bits as u32,
        }
    }

    fn layout(&self) -> OccLayout {
        OccLayout {
            ply_bits: self.header.ply_bits as u32,
            rem_bits: self.header.rem_bits as u32,
        }
    }

    /// The header: build options, counts, sections.
    pub fn header(&self) -> &IndexHeader {
        &self.header
    }

    /// Number of games.
    pub fn game_count(&self) -> u32 {
        self.games.len as u32
    }

    fn string(&self, id: u32) -> &'a str {
        let (a, b) = (
            self.string_index.at(id as usize),
            self.string_index.at(id as usize + 1),
        );
        self.strings
            .get(a as usize..b as usize)
            .and_then(|s| core::str::from_utf8(s).ok())
            .unwrap_or("")
    }

    /// Game `id`'s information.
    pub fn game(&self, id: u32) -> Option<Game<'a>> {
        let row = self.games.row(id as usize)?;
        let s = |k: usize| self.string(le_u32(row, game_row::STRINGS + 4 * k));
        let result = row[game_row::RESULT];
        let komi = le_u32(row, game_row::KOMI) as i32;
        Some(Game {
            id,
            black: s(0),
            white: s(1),
            black_rank: s(2),
            white_rank: s(3),
            event: s(4),
            round: s(5),
            place: s(6),
            date: s(7),
            result: s(8),
            path: s(9),
            member: s(10),
            date_key: le_u32(row, game_row::DATE),
            winner: match result & 3 {
                1 => Some(Color::Black),
                2 => Some(Color::White),
                _ => None,
            },
            margin: Margin::from_code((result >> 2) & 7, le_u32(row, game_row::MARGIN) as i32),
            komi: if komi == i32::MIN { None } else { Some(komi) },
            handicap: row[game_row::HANDICAP],
            rules: self.string(le_u32(row, game_row::RULES)),
            name: self.string(le_u32(row, game_row::NAME)),
            size: Size::new(row[game_row::WIDTH], row[game_row::HEIGHT])?,
            tree: le_u32(row, game_row::TREE),
            move_count: le_u32(row, game_row::MOVE_COUNT),
        })
    }

    fn move_range(&self, id: u32) -> (usize, usize) {
        match self.games.row(id as usize) {
            Some(row) => {
                let s = le_u32(row, game_row::MOVE_START) as usize;
                (s, s + le_u32(row, game_row::MOVE_COUNT) as usize)
            }
            None => (0, 0),
        }
    }

    fn setup_range(&self, id: u32) -> (usize, usize) {
        match self.games.row(id as usize) {
            Some(row) => {
                let s = le_u32(row, game_row::SETUP_START) as usize;
                (s, s + le_u32(row, game_row::SETUP_COUNT) as usize)
            }
            None => (0, 0),
        }
    }

    /// The move with global number `ply`.
    fn global_move(&self, ply: usize) -> (Color, Move) {
        let v = self.moves.at(ply);
        let color = if field(v, 9, 1) == 1 {
            Color::White
        } else {
            Color::Black
        };
        (
            color,
            Move::from_code(field(v, 0, 9) as u16).unwrap_or(Move::Pass),
        )
    }

    /// The game holding global move number `ply`.
    fn game_of_ply(&self, ply: u64) -> u32 {
        // Games are stored in move order.
        let mut lo = 0usize;
        let mut hi = self.games.len;
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let start = self
                .games
                .row(mid)
                .map(|r| le_u32(r, game_row::MOVE_START) as u64)
                .unwrap_or(u64::MAX);
            if start <= ply {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        // The last game starting at or before `ply` holds it: a game without moves
        // shares its start with the next game, which then comes later in the order.
        let g = lo.saturating_sub(1);
        g as u32
    }

    /// Game `id`'s record as events: its setup stones and moves in order.
    pub fn steps(&self, id: u32) -> impl Iterator<Item = Event> + '_ {
        let (ms, me) = self.move_range(id);
        let (ss, se) = self.setup_range(id);
        let mut m = ms;
        let mut s = ss;
        core::iter::from_fn(move || {
            if s < se {
                let v = self.setup.at(s);
                if field(v, 0, 16) as usize <= m - ms {
                    s += 1;
                    let point = Point::from_index19(field(v, 16, 9) as u16)?;
                    let stone = Stone::from_code(field(v, 25, 2) as u8).unwrap_or(Stone::Empty);
                    return Some(Event::Setup { point, stone });
                }
            }
            if m < me {
                let (color, mv) = self.global_move(m);
                m += 1;
                return Some(Event::Play { color, mv });
            }
            None
        })
    }

    /// The position of game `id` before its move number `move_number` (0-based), replayed
    /// from its setup with captures as recorded.
    pub fn position(&self, id: u32, move_number: u32) -> Option<Board> {
        let game = self.game(id)?;
        let mut board = Board::with_rules(game.size, Rules::RECORD);
        let mut played = 0u32;
        for step in self.steps(id) {
            match step {
                Event::Setup { point, stone } => board.set_stone(point, stone).ok()?,
                Event::Play { color: c, mv } => {
                    if played == move_number {
                        break;
                    }
                    board.play(c, mv).ok()?;
                    played += 1;
                }
            }
        }
        if played == move_number {
            Some(board)
        } else {
            None
        }
    }

    fn occurrence_at(&self, i: usize) -> Option<Occurrence> {
        let v = self.occ.get(i)?;
        let lay = self.layout();
        let ply = lay.ply(v);
        let game = self.game_of_ply(ply);
        let (ms, _) = self.move_range(game);
        Some(Occurrence {
            game,
            move_number: (ply as usize).checked_sub(ms)? as u32,
            orientation: lay.orientation(v),
        })
    }

    /// Whether occurrence `i` is the position `query` (exactly, by replay).
    fn verify(&self, i: usize, query: &Board, to_canonical: Transform) -> bool {
        let Some(occ) = self.occurrence_at(i) else {
            return false;
        };
        let Some(board) = self.position(occ.game, occ.move_number) else {
            return false;
        };
        let size = query.size();
        if board.size() != size {
            return false;
        }
        // game frame -> canonical -> query frame
        let to_query = occ.orientation.then(to_canonical.inverse());
        // Equal stone counts per colour, and every stone of the replayed board maps onto a
        // stone of the same colour of the query: as the transform is one-to-one on the
        // board, the two positions are then exactly equal (and only the stones are visited,
        // not every point).
        for color in [Color::Black, Color::White] {
            let (mine, theirs) = (board.stones(color), query.stones(color));
            if mine.len() != theirs.len() {
                return false;
            }
            if to_query == Transform::IDENTITY {
                if mine != theirs {
                    return false;
                }
            } else {
                for p in mine.iter() {
                    match to_query.apply(p, size) {
                        Some(q) if theirs.contains(q) => {}
                        _ => return false,
                    }
                }
            }
        }
        true
    }

    /// Finds `query` in the index (in any orientation).
    pub fn find(&self, query: &Board) -> Option<Found> {
        let size = query.size();
        if !self.header.has_size(size) {
            return None;
        }
        let (key, to_canonical) = query.keys().canonical(size);
        let fp = fingerprint(key);
        // Popular positions: the shared table.
        let first = {
            let (mut lo, mut hi) = (0usize, self.shared.len);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if self
                    .shared
                    .row(mid)
                    .map(|r| le_u64(r, 0))
                    .unwrap_or(u64::MAX)
                    < fp
                {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            lo
        };
        let mut r = first;
        while let Some(row) = self.shared.row(r) {
            if le_u64(row, 0) != fp {
                break;
            }
            let (os, oc) = (le_u32(row, 8) as usize, le_u32(row, 12) as usize);
            if self.verify(os, query, to_canonical) {
                return Some(Found {
                    start: os,
                    end: os + oc,
                    shared: Some(r),
                    to_canonical,
                });
            }
            r += 1;
        }
        // Every position: the occurrence buckets.
        let lay = self.layout();
        let (bucket, rem) = self.split().split(fp);
        let (bs, be) = (
            self.buckets.at(bucket as usize) as usize,
            self.buckets.at(bucket as usize + 1) as usize,
        );
        let mut i = self.occ.partition_point(bs, be, |v| lay.rem(v) < rem);
        while i < be {
            let v = self.occ.at(i);
            if lay.rem(v) != rem {
                break;
            }
            let mut end = i + 1;
            while end < be && !lay.starts_group(self.occ.at(end)) {
                end += 1;
            }
            if self.verify(i, query, to_canonical) {
                return Some(Found {
                    start: i,
                    end,
                    shared: None,
                    to_canonical,
                });
            }
            i = end;
        }
        None
    }

    /// Adds the next moves of a found position to `out`; `swap` for a position found as
    /// the colour-swapped query.
    pub fn add_next_moves<const N: usize>(
        &self,
        found: &Found,
        swap: bool,
        out: &mut NextMoves<N>,
    ) -> Result<(), SearchError> {
        let to_query = found.to_canonical.inverse();
        if let Some(row) = found.shared.and_then(|r| self.shared.row(r)) {
            let (ns, nc) = (le_u32(row, 16) as usize, le_u32(row, 20) as usize);
            let cb = self.header.count_bits as u32;
            for i in ns..ns + nc {
                let v = self.next.at(i);
                let s = NextMove {
                    color: if field(v, 9, 1) == 1 {
                        Color::White
                    } else {
                        Color::Black
                    },
                    mv: Move::from_code(field(v, 0, 9) as u16).unwrap_or(Move::Pass),
                    count: field(v, 10, cb) as u32,
                    black_wins: field(v, 10 + cb, cb) as u32,
                    white_wins: field(v, 10 + 2 * cb, cb) as u32,
                };
                out.add(s, to_query, swap)?;
            }
            return Ok(());
        }
        self.add_next_moves_where(found, swap, |_| true, out)
    }

    /// Adds the next moves of a found position to `out`, counting only the occurrences
    /// from games that `keep` accepts (for example a year range). Always reads the
    /// occurrences themselves, so the counts are exact for any filter.
    pub fn add_next_moves_where<const N: usize>(
        &self,
        found: &Found,
        swap: bool,
        mut keep: impl FnMut(&Game<'a>) -> bool,
        out: &mut NextMoves<N>,
    ) -> Result<(), SearchError> {
        let to_query = found.to_canonical.inverse();
        let lay = self.layout();
        for i in found.start..found.end {
            let v = self.occ.at(i);
            let ply = lay.ply(v);
            let Some(game) = self.game(self.game_of_ply(ply)) else {
                continue;
            };
            if !keep(&game) {
                continue;
            }
            let (color, mv) = self.global_move(ply as usize);
            let winner = game.winner;
            let s = NextMove {
                color,
                mv,
                count: 1,
                black_wins: (winner == Some(Color::Black)) as u32,
                white_wins: (winner == Some(Color::White)) as u32,
            };
            // The stored move is in the game's orientation: go through the canonical one.
            out.add(s, lay.orientation(v).then(to_query), swap)?;
        }
        Ok(())
    }

    /// The occurrences of a found position, newest game first.
    pub fn occurrences(&self, found: &Found) -> impl Iterator<Item = Occurrence> + '_ {
        (found.start..found.end).filter_map(move |i| self.occurrence_at(i))
    }

    /// Next-move statistics for `query`: found in any orientation, moves mapped back and
    /// merged by the position's symmetry; with `swap`, the colour-swapped position's moves
    /// are added with colours exchanged.
    pub fn next_moves<const N: usize>(
        &self,
        query: &Board,
        swap: bool,
    ) -> Result<NextMoves<N>, SearchError> {
        let mut out = NextMoves::new(query.size(), query.symmetries());
        if let Some(found) = self.find(query) {
            self.add_next_moves(&found, false, &mut out)?;
        }
        if swap {
            let swapped = swapped_board(query);
            if let Some(found) = self.find(&swapped) {
                self.add_next_moves(&found, true, &mut out)?;
            }
        }
        out.finish();
        Ok(out)
    }

    /// [`Index::next_moves`] counting only the occurrences from games that `keep` accepts.
    pub fn next_moves_where<const N: usize>(
        &self,
        query: &Board,
        swap: bool,
        mut keep: impl FnMut(&Game<'a>) -> bool,
    ) -> Result<NextMoves<N>, SearchError> {
        let mut out = NextMoves::new(query.size(), query.symmetries());
        if let Some(found) = self.find(query) {
            self.add_next_moves_where(&found, false, &mut keep, &mut out)?;
        }
        if swap {
            let swapped = swapped_board(query);
            if let Some(found) = self.find(&swapped) {
                self.add_next_moves_where(&found, true, &mut keep, &mut out)?;
            }
        }
        out.finish();
        Ok(out)
    }
}

/// The position with colours exchanged.
pub fn swapped_board(board: &Board) -> Board {
    let size = board.size();
    let mut out = Board::with_rules(size, Rules::RECORD);
    for y in 0..size.height() {
        for x in 0..size.width() {
            let p = Point::new(x, y);
            let _ = out.set_stone(p, board.get(p).swapped());
        }
    }
    out
}

/// Width in bits of a `next` record for counts up to `max_count`.
pub fn next_record_bits(max_count: u64) -> (u32, u32) {
    let cb = bits_for(max_count);
    (cb, 10 + 3 * cb)
}
