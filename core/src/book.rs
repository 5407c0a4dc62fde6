//! The microcontroller book: only what a board needs to light hints — position keys and
//! next-move counts — read in place from flash, validated completely at open.
//!
//! **Keys.** A position's fingerprint is the top 64 bits of its canonical key `K` rotated
//! left by `rotate` bits (the builder picks `rotate` so that no two stored positions share
//! the stored fingerprint bits). The top `bucket_bits` select a bucket; the next
//! `rem_bits` are stored per position, sorted within the bucket. A book holds no game
//! records, so a query that is not in the book matches a stored position only if its
//! `bucket_bits + rem_bits` fingerprint bits collide: with the default 32 stored bits that
//! is about one query in `2^32 / positions-per-bucket`, documented in `docs/FORMAT.md`.
//!
//! **Sections.**
//! - `bucket_positions`, `bucket_moves`: `2^bucket_bits + 1` start indices into `keys` and
//!   `next` by bucket.
//! - `keys`: `rem_bits` per position.
//! - `next`: the positions' next moves in order ([`BookNextLayout`]): the move
//!   ([`crate::stored::encode_move`], 10 bits), last move of its position (1 bit), count
//!   (`count_bits`), in canonical orientation.
//!
//! **Predictor.** A book built with `--predictor` also holds the move predictor's table
//! ([`crate::predict::table`]): its header follows the book's header (a book without one
//! ends its header there, byte for byte as before), its sections follow the book's.
//!
//! The book is a [`NextMoveSource`]: [`crate::search::next_moves_into`] searches it as it
//! searches the index.

use serde::{Deserialize, Serialize};

use crate::board::{Board, Tracking};
use crate::fingerprint::{fingerprint, Split};
use crate::format::{Container, Field, FormatError, Kind, Packed, Section};
use crate::hash::Key;
use crate::point::{Color, Move, Size};
use crate::predict::{Predictor, PredictorHeader};
use crate::search::{next_moves_into, Lookup, NextMove, NextMoveSource, NextMoves, SearchError};
use crate::stored::{decode_move, encode_move, MOVE_BITS};
use crate::transform::Transform;

/// The layout of a book's `next` record: the move (10 bits), whether it is the last of its
/// position (1 bit), its count (`count_bits`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BookNextLayout {
    /// Bits of the count (1 to 32).
    pub count_bits: u32,
}

impl BookNextLayout {
    const MOVE: Field = Field::new(0, MOVE_BITS);
    const LAST: Field = BookNextLayout::MOVE.then(1);

    #[inline(always)]
    const fn count_field(self) -> Field {
        BookNextLayout::LAST.then(self.count_bits)
    }

    /// Width in bits of a record.
    pub const fn bits(self) -> u32 {
        self.count_field().end()
    }

    /// Whether record `v` is the last next move of its position.
    #[inline(always)]
    pub const fn is_last(self, v: u64) -> bool {
        BookNextLayout::LAST.get(v) == 1
    }

    /// The count of record `v`.
    #[inline(always)]
    pub const fn count(self, v: u64) -> u64 {
        self.count_field().get(v)
    }

    /// The next move of record `v` (no win counts in a book); `None` if it holds no move.
    #[inline]
    pub const fn decode(self, v: u64) -> Option<NextMove> {
        let Some((color, mv)) = decode_move(BookNextLayout::MOVE.get(v)) else {
            return None;
        };
        Some(NextMove {
            color,
            mv,
            count: self.count(v) as u32,
            black_wins: 0,
            white_wins: 0,
        })
    }

    /// The record of a next move of `color` with `count` (which must fit `count_bits`);
    /// `last` for the last one of its position.
    #[inline]
    pub const fn encode(self, color: Color, mv: Move, count: u32, last: bool) -> u64 {
        encode_move(color, mv)
            | BookNextLayout::LAST.put(last as u64)
            | self.count_field().put(count as u64)
    }
}

/// Build options and counts of a book, with the place of every section.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct BookHeader {
    /// `--max-moves` (0: every move).
    pub max_moves: u32,
    /// `--min-count`: next moves seen fewer times were dropped.
    pub min_count: u32,
    /// `--max-next` (0: no cap): at most this many next moves kept per position.
    pub max_next: u32,
    /// Games the book was built from.
    pub games: u64,
    /// Stored positions.
    pub positions: u64,
    /// Stored next moves.
    pub next_moves: u64,
    /// The most next moves stored for one position.
    pub max_run: u32,
    /// Board sizes present: bit `w - 1` of `sizes[h - 1]` for a `w` x `h` board.
    pub sizes: [u32; 19],
    /// Bits of the fingerprint that select a bucket.
    pub bucket_bits: u8,
    /// Left rotation of the key before taking the fingerprint.
    pub rotate: u8,
    /// Fingerprint bits stored per position after the bucket bits.
    pub rem_bits: u8,
    /// Bits of a count.
    pub count_bits: u8,
    /// Start of each bucket in `keys`.
    pub bucket_positions: Section,
    /// Start of each bucket in `next`.
    pub bucket_moves: Section,
    /// Stored fingerprint bits.
    pub keys: Section,
    /// Next moves.
    pub next: Section,
}

impl BookHeader {
    /// The layout of a `next` record.
    pub fn next_layout(&self) -> BookNextLayout {
        BookNextLayout {
            count_bits: self.count_bits as u32,
        }
    }

    /// Width in bits of a `next` record.
    pub fn next_bits(&self) -> u32 {
        self.next_layout().bits()
    }

    /// Whether the book holds positions of a `size` board.
    pub fn has_size(&self, size: Size) -> bool {
        self.sizes
            .get(size.height() as usize - 1)
            .is_some_and(|row| row & (1 << (size.width() - 1)) != 0)
    }

    /// The (bucket, stored bits) of a canonical key.
    pub fn split(&self, key: Key) -> (u64, u64) {
        let fp = fingerprint(Key(key.0.rotate_left(self.rotate as u32)));
        Split {
            bucket_bits: self.bucket_bits as u32,
            rem_bits: self.rem_bits as u32,
        }
        .split(fp)
    }
}

/// A validated book.
#[derive(Clone, Debug)]
pub struct Book<'a> {
    header: BookHeader,
    /// The move predictor, if the book was built with one.
    predictor: Option<Predictor<'a>>,
    bucket_positions: Packed<'a>,
    bucket_moves: Packed<'a>,
    keys: Packed<'a>,
    next: Packed<'a>,
}

/// A position found in a book: its next moves are `next[start..end]`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// First next move.
    pub start: usize,
    /// End of its next moves.
    pub end: usize,
    /// Transform from the query's orientation to the canonical one.
    pub to_canonical: Transform,
}

impl<'a> Book<'a> {
    /// Opens and completely validates a book.
    pub fn open(file: &'a [u8]) -> Result<Book<'a>, FormatError> {
        let c = Container::open(file, Kind::Book)?;
        let (header, predictor): (BookHeader, Option<PredictorHeader>) = c.header_with()?;
        if header.bucket_bits > 24
            || header.rotate > 127
            || header.rem_bits > 56
            || header.count_bits == 0
            || header.count_bits > 32
        {
            return Err(FormatError::BadHeader);
        }
        if header.next.width_bits != header.next_bits()
            || header.keys.width_bits != (header.rem_bits as u32).max(1)
        {
            return Err(FormatError::BadHeader);
        }
        let body = c.body;
        let predictor = match predictor {
            Some(p) => Some(Predictor::open(&p, body)?),
            None => None,
        };
        let book = Book {
            predictor,
            bucket_positions: header.bucket_positions.packed(body)?,
            bucket_moves: header.bucket_moves.packed(body)?,
            keys: header.keys.packed(body)?,
            next: header.next.packed(body)?,
            header,
        };
        book.validate()?;
        Ok(book)
    }

    fn validate(&self) -> Result<(), FormatError> {
        let bad = Err(FormatError::BadRecord);
        let buckets = (1usize << self.header.bucket_bits) + 1;
        let (n_pos, n_next) = (self.keys.len(), self.next.len());
        if self.bucket_positions.len() != buckets
            || self.bucket_moves.len() != buckets
            || n_pos as u64 != self.header.positions
            || n_next as u64 != self.header.next_moves
        {
            return bad;
        }
        if self.bucket_positions.at(0) != 0
            || self.bucket_moves.at(0) != 0
            || self.bucket_positions.at(buckets - 1) != n_pos as u64
            || self.bucket_moves.at(buckets - 1) != n_next as u64
        {
            return bad;
        }
        let layout = self.header.next_layout();
        for b in 0..buckets - 1 {
            let (ps, pe) = (self.bucket_positions.at(b), self.bucket_positions.at(b + 1));
            let (ms, me) = (self.bucket_moves.at(b), self.bucket_moves.at(b + 1));
            if pe < ps || me < ms || pe > n_pos as u64 || me > n_next as u64 {
                return bad;
            }
            // Stored bits strictly increasing within the bucket (so each position is unique).
            for i in ps as usize + 1..pe as usize {
                if self.keys.at(i) <= self.keys.at(i - 1) {
                    return bad;
                }
            }
            // Exactly one run of next moves per position, each run within the cap.
            let mut runs = 0u64;
            let mut run = 0u32;
            for i in ms as usize..me as usize {
                let v = self.next.at(i);
                if layout.decode(v).is_none() || layout.count(v) == 0 {
                    return bad;
                }
                run += 1;
                if layout.is_last(v) {
                    if run > self.header.max_run {
                        return bad;
                    }
                    runs += 1;
                    run = 0;
                }
            }
            if run != 0 || runs != pe - ps {
                return bad;
            }
        }
        Ok(())
    }

    /// The move predictor (`kifudex build --predictor`), if the book holds one.
    pub fn predictor(&self) -> Option<&Predictor<'a>> {
        self.predictor.as_ref()
    }

    /// The header.
    pub fn header(&self) -> &BookHeader {
        &self.header
    }

    /// Finds `query` (in any orientation).
    pub fn find(&self, query: &Board) -> Option<BookEntry> {
        let (key, to_canonical) = query.keys().canonical(query.size());
        self.find_key(query.size(), key, to_canonical)
    }

    /// Finds the position of a board of `size` with canonical key `key`, `to_canonical`
    /// mapping it onto its canonical orientation (as [`crate::hash::Keys::canonical`] or
    /// [`crate::hash::PositionKey`] give them).
    pub fn find_key(&self, size: Size, key: Key, to_canonical: Transform) -> Option<BookEntry> {
        if !self.header.has_size(size) {
            return None;
        }
        let (bucket, rem) = self.header.split(key);
        let b = bucket as usize;
        let (ps, pe) = (
            self.bucket_positions.at(b) as usize,
            self.bucket_positions.at(b + 1) as usize,
        );
        let i = self.keys.partition_point(ps, pe, |v| v < rem);
        if i >= pe || self.keys.at(i) != rem {
            return None;
        }
        // Skip the runs of the positions before it in the bucket.
        let mut m = self.bucket_moves.at(b) as usize;
        let me = self.bucket_moves.at(b + 1) as usize;
        let layout = self.header.next_layout();
        let mut skip = i - ps;
        while skip > 0 && m < me {
            if layout.is_last(self.next.at(m)) {
                skip -= 1;
            }
            m += 1;
        }
        let start = m;
        while m + 1 < me && !layout.is_last(self.next.at(m)) {
            m += 1;
        }
        Some(BookEntry {
            start,
            end: m + 1,
            to_canonical,
        })
    }

    /// Next-move statistics for `query`, merged by its symmetry and sorted.
    pub fn next_moves<const N: usize>(&self, query: &Board) -> Result<NextMoves<N>, SearchError> {
        let mut out = NextMoves::new(query.size(), query.symmetries());
        let lookup = Lookup::with_symmetries(query, out.symmetries());
        next_moves_into(self, &lookup, None, &mut out)?;
        Ok(out)
    }
}

impl NextMoveSource for Book<'_> {
    type Found = BookEntry;

    #[inline]
    fn find_position<T: Tracking>(
        &self,
        query: &Board<T>,
        key: Key,
        to_canonical: Transform,
    ) -> Option<BookEntry> {
        self.find_key(query.size(), key, to_canonical)
    }

    #[inline]
    fn for_each_next_move<E>(
        &self,
        entry: &BookEntry,
        mut visit: impl FnMut(NextMove, Transform) -> Result<(), E>,
    ) -> Result<(), E> {
        let to_query = entry.to_canonical.inverse();
        let layout = self.header.next_layout();
        for i in entry.start..entry.end {
            if let Some(m) = layout.decode(self.next.at(i)) {
                visit(m, to_query)?;
            }
        }
        Ok(())
    }
}
