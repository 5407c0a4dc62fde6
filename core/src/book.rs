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
//! - `next`: the positions' next moves in order, each `11 + count_bits` bits: code
//!   (9 bits, `y * 19 + x` or 361 for a pass), colour (1 bit, 0 Black), last move of its
//!   position (1 bit), count (`count_bits`), in canonical orientation.

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::fingerprint::{fingerprint, Split};
use crate::format::{field, Container, FormatError, Kind, Packed, Section};
use crate::hash::Key;
use crate::point::{Color, Move, Size, MAX_POINTS};
use crate::search::{NextMove, NextMoves, SearchError};
use crate::transform::Transform;

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
    pub games: u32,
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
    /// Width in bits of a `next` record.
    pub fn next_bits(&self) -> u32 {
        11 + self.count_bits as u32
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
        let header: BookHeader = c.header()?;
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
        let book = Book {
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
        let cb = self.header.count_bits as u32;
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
                if field(v, 0, 9) > MAX_POINTS as u64 || field(v, 11, cb) == 0 {
                    return bad;
                }
                run += 1;
                if field(v, 10, 1) == 1 {
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
        let mut skip = i - ps;
        while skip > 0 && m < me {
            if field(self.next.at(m), 10, 1) == 1 {
                skip -= 1;
            }
            m += 1;
        }
        let start = m;
        while m + 1 < me && field(self.next.at(m), 10, 1) == 0 {
            m += 1;
        }
        Some(BookEntry {
            start,
            end: m + 1,
            to_canonical,
        })
    }

    /// Adds a found position's next moves to `out`.
    pub fn add_next_moves<const N: usize>(
        &self,
        entry: &BookEntry,
        out: &mut NextMoves<N>,
    ) -> Result<(), SearchError> {
        let to_query = entry.to_canonical.inverse();
        let cb = self.header.count_bits as u32;
        for i in entry.start..entry.end {
            let v = self.next.at(i);
            let s = NextMove {
                color: if field(v, 9, 1) == 1 {
                    Color::White
                } else {
                    Color::Black
                },
                mv: Move::from_code(field(v, 0, 9) as u16).unwrap_or(Move::Pass),
                count: field(v, 11, cb) as u32,
                black_wins: 0,
                white_wins: 0,
            };
            out.add(s, to_query, false)?;
        }
        Ok(())
    }

    /// Next-move statistics for `query`, merged by its symmetry and sorted.
    pub fn next_moves<const N: usize>(&self, query: &Board) -> Result<NextMoves<N>, SearchError> {
        let mut out = NextMoves::new(query.size(), query.symmetries());
        if let Some(e) = self.find(query) {
            self.add_next_moves(&e, &mut out)?;
        }
        out.finish();
        Ok(out)
    }
}
