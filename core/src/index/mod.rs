//! The desktop index: every position of every game with its next moves, the games that
//! reached it, every game's information and every game's moves, read in place from one
//! validated file (layout: `docs/FORMAT.md`; container: [`crate::format`]).
//!
//! **Keys.** A position is keyed by its canonical 128-bit Zobrist key `K`
//! ([`crate::hash::Keys::canonical`]); its fingerprint is the top 64 bits of `K`
//! ([`crate::fingerprint`]). The occurrence table stores only a few fingerprint bits per
//! entry, so every candidate is **verified by replaying** its game from the stored moves
//! and comparing the whole board with the query: a search is never wrong, whatever the
//! fingerprints. The builder checks exactly that no key stands for two different
//! positions, so one replay per candidate position suffices.
//!
//! **Sections** (records: [`records`] and [`crate::stored`]).
//! - `games`: one [`GameRow`] per game, newest first (the game id is the row).
//! - `string_index`, `strings`: the deduplicated UTF-8 string pool of the game information.
//! - `moves`: every game's moves, concatenated in game order ([`crate::stored::encode_move`]).
//! - `setup`: the games' setup stones ([`crate::stored::SetupRecord`]).
//! - `occurrences`: one entry per indexed move, sorted by (K, global move number)
//!   ([`OccurrenceLayout`]).
//! - `buckets`: `2^bucket_bits + 1` start indices into `occurrences` by the fingerprint's
//!   top bits.
//! - `shared`: positions with at least `shared_min` occurrences, sorted by fingerprint
//!   ([`SharedRow`]).
//! - `next`: the shared positions' next moves in canonical orientation ([`NextLayout`]).
//!
//! **Where each part lives.** [`Index::open`] and the validation (`validate.rs`); the
//! games, their strings and their stored moves (`games.rs`: [`Index::game`],
//! [`Index::stored_game`], [`Index::position`]); the lookup with its exact check
//! (`lookup.rs`: [`Index::find`], [`Index::occurrences`]); the next moves
//! (`next.rs`: [`Index::next_moves`], [`Index::next_moves_where`]); the records
//! (`records.rs`).

mod games;
mod lookup;
mod next;
pub mod records;
mod validate;

pub use games::{Game, IndexGame};
pub use lookup::{Found, Occurrence};
pub use next::{swapped_board, Filtered};
pub use records::{
    GameRow, GameStrings, IndexHeader, NextLayout, OccurrenceLayout, OccurrenceRecord, SharedRow,
};

use crate::format::{Container, FormatError, Kind, Packed, Rows};
use crate::stored::{SetupRecord, MOVE_BITS};

/// A validated index, read in place from the file's bytes.
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
            || header.setup.width_bits != SetupRecord::BITS
            || header.next.width_bits != header.next_layout().bits()
            || header.strings.width_bits != 8
        {
            return Err(FormatError::BadHeader);
        }
        let idx = Index {
            games: Rows::new(&header.games_section, body, GameRow::BYTES)?,
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
            shared: Rows::new(&header.shared, body, SharedRow::BYTES)?,
            next: header.next.packed(body)?,
            header,
        };
        idx.validate()?;
        Ok(idx)
    }

    /// The header: build options, counts, sections.
    pub fn header(&self) -> &IndexHeader {
        &self.header
    }

    /// Number of games.
    pub fn game_count(&self) -> u32 {
        self.games.len() as u32
    }
}
