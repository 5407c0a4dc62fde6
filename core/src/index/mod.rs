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
//! - `games`: one game row per game, newest first (the game id is the row; [`GameLayout`]).
//! - `game_moves`, `game_setup`: where each game's moves and setup stones start (one more
//!   entry than games: the last is the total).
//! - `string_index`, `strings`: the deduplicated UTF-8 string pool of the game information.
//! - `moves`: every game's moves, concatenated in game order ([`crate::stored::encode_move`]).
//! - `setup`: the games' setup stones ([`crate::stored::SetupRecord`]).
//! - `occurrences`: one entry per indexed move, sorted by (K, global move number)
//!   ([`OccurrenceLayout`]).
//! - `buckets`: `2^bucket_bits + 1` start indices into `occurrences` by the fingerprint's
//!   top bits.
//! - `shared_keys`, `shared_starts`, `shared_counts`, `shared_next`: positions with at least
//!   `shared_min` occurrences, sorted by fingerprint ([`SharedRow`]).
//! - `next`, `next_black`, `next_white`: the shared positions' next moves in canonical
//!   orientation ([`NextLayout`]).
//!
//! The file holds more sections than the index reads: the header's bytes after the
//! index's own, and the sections they place, belong to pattern search
//! ([`crate::index_file`] opens both).
//!
//! **Open and verify.** [`Index::open`] checks the structure only (the header, every
//! section's bounds, widths and record counts against the header's counts), in time
//! independent of the file's size, so that a memory-mapped index of any size opens at
//! once; every later read is clamped to its section, so no byte of the body can make a
//! read panic, loop without end or leave the file: a corrupted body gives wrong answers or
//! none, never a crash. [`Index::verify`] checks the body's checksum and every record
//! against the others.
//!
//! **Where each part lives.** Each group of sections has one owner that opens and
//! validates it: the games, their strings and their stored moves (`games.rs`:
//! [`GameSections`]; [`Index::game`], [`Index::stored_game`], [`Index::position`]); the
//! occurrences (`occurrences.rs`: [`OccurrenceTable`]); the shared positions and their
//! next moves (`shared.rs`: [`SharedPositions`]). On top of them: the lookup with its exact
//! check (`lookup.rs`: [`Index::find`], [`Index::occurrences`]) and the next moves
//! (`next.rs`: [`Index::next_moves`], [`Index::next_moves_where`]). The records' codecs:
//! `records/`.

mod games;
mod lookup;
mod next;
mod occurrences;
pub mod records;
mod shared;

pub use games::{Game, GameSections, IndexGame};
pub use lookup::{Found, Occurrence};
pub use next::{swapped_board, Filtered};
pub use occurrences::OccurrenceTable;
pub use records::{
    GameLayout, GameRow, GameStrings, IndexHeader, NextLayout, OccurrenceLayout, OccurrenceRecord,
    SharedRow, StoredNext,
};
pub use shared::SharedPositions;

use crate::format::{Container, FormatError, Kind};

/// An index whose structure is checked, read in place from the file's bytes (a slice or
/// a memory map).
#[derive(Clone, Debug)]
pub struct Index<'a> {
    header: IndexHeader,
    games: GameSections<'a>,
    occurrences: OccurrenceTable<'a>,
    shared: SharedPositions<'a>,
    /// The file's container: the header's other parts, the body, its checksum.
    container: Container<'a>,
}

impl<'a> Index<'a> {
    /// Opens an index, checking its structure in time independent of its size (see the
    /// module documentation); [`Index::verify`] checks the rest. The header's bytes after
    /// the index's own belong to the file's other readers ([`crate::index_file`]).
    pub fn open(file: &'a [u8]) -> Result<Index<'a>, FormatError> {
        let c = Container::open_structure(file, Kind::Index)?;
        let (header, _others): (IndexHeader, _) = c.header_prefix()?;
        Index::with_header(header, c)
    }

    /// Opens the index's sections of a file whose container `c` is open and whose header
    /// the caller decoded (`header`: the index's part of it).
    pub fn with_header(header: IndexHeader, c: Container<'a>) -> Result<Index<'a>, FormatError> {
        let body = c.body;
        Ok(Index {
            games: GameSections::open(&header, body)?,
            occurrences: OccurrenceTable::open(&header, body)?,
            shared: SharedPositions::open(&header, body)?,
            container: c,
            header,
        })
    }

    /// Checks the body's checksum (the whole body, every section of the file) and every
    /// record of the index's sections against the others: a pass over the whole file.
    pub fn verify(&self) -> Result<(), FormatError> {
        self.container.check_body()?;
        self.games.validate(&self.header)?;
        self.occurrences
            .validate(self.games.move_total(), self.header.positions)?;
        self.shared.validate(&self.occurrences)
    }

    /// The header: build options, counts, sections.
    pub fn header(&self) -> &IndexHeader {
        &self.header
    }

    /// The file's container (for the readers of its other sections).
    pub fn container(&self) -> &Container<'a> {
        &self.container
    }

    /// Number of games.
    pub fn game_count(&self) -> u32 {
        self.games.len()
    }

    /// The games' sections.
    pub fn games(&self) -> &GameSections<'a> {
        &self.games
    }

    /// The occurrence table.
    pub fn occurrence_table(&self) -> &OccurrenceTable<'a> {
        &self.occurrences
    }

    /// The shared positions.
    pub fn shared_positions(&self) -> &SharedPositions<'a> {
        &self.shared
    }
}
