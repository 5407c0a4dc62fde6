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
//! - the pattern search's `blocks`, `corners`, `removals`, `removal_starts`
//!   ([`crate::pattern::accel`], header [`crate::pattern::PatternHeader`]): per game,
//!   the points that ever held a stone, the first changes of its corners, the stones its
//!   moves removed ([`Index::pattern`]).
//!
//! **Open and verify.** [`Index::open`] checks the structure only (the header, every
//! section's bounds, widths and record counts against the header's counts), in time
//! independent of the file's size, so that a memory-mapped index of any size opens at
//! once; every later read is clamped to its section, so no byte of the body can make a
//! read panic, loop without end or leave the file: a corrupted body gives wrong answers or
//! none, never a crash. [`Index::verify`] (run by the builder on what it wrote, by
//! `kifudex verify` and `kifudex info --verify`) checks the body's checksum and every
//! record against the others (`validate.rs`); [`Index::open_verified`] does both.
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
    GameLayout, GameRow, GameStrings, IndexHeader, NextLayout, OccurrenceLayout, OccurrenceRecord,
    SharedRow, StoredNext,
};

use crate::format::{Container, FormatError, Kind, Packed, Rows};
use crate::pattern::PatternIndex;
use crate::stored::{SetupRecord, MOVE_BITS};

/// An index whose structure is checked, read in place from the file's bytes (a slice or
/// a memory map).
#[derive(Clone, Debug)]
pub struct Index<'a> {
    header: IndexHeader,
    games: Rows<'a>,
    game_moves: Packed<'a>,
    game_setup: Packed<'a>,
    string_index: Packed<'a>,
    strings: &'a [u8],
    moves: Packed<'a>,
    setup: Packed<'a>,
    occ: Packed<'a>,
    buckets: Packed<'a>,
    shared_keys: Packed<'a>,
    shared_starts: Packed<'a>,
    shared_counts: Packed<'a>,
    shared_next: Packed<'a>,
    next: Packed<'a>,
    next_black: Packed<'a>,
    next_white: Packed<'a>,
    /// The pattern search's sections.
    pattern: PatternIndex<'a>,
    /// The container, for the body's checksum ([`Index::verify`]).
    body_check: Container<'a>,
}

impl<'a> Index<'a> {
    /// Opens an index, checking its structure in time independent of its size (see the
    /// module documentation); [`Index::verify`] checks the rest.
    pub fn open(file: &'a [u8]) -> Result<Index<'a>, FormatError> {
        let c = Container::open_structure(file, Kind::Index)?;
        let header: IndexHeader = c.header()?;
        let body = c.body;
        let h = &header;
        let bad = Err(FormatError::BadHeader);
        if h.bucket_bits > 32
            || h.ply_bits == 0
            || h.ply_bits > 60
            || h.count_bits == 0
            || h.count_bits as u32 > NextLayout::MAX_COUNT_BITS
            || !h.game_layout().is_valid()
            || h.games > u32::MAX as u64
        {
            return bad;
        }
        if h.occurrences_section.width_bits != h.occurrence_bits()
            || h.occurrence_bits() > 64
            || h.moves.width_bits != MOVE_BITS
            || h.setup.width_bits != SetupRecord::BITS
            || h.next.width_bits != h.next_layout().bits()
            || h.next_black.width_bits != h.count_bits as u32
            || h.next_white.width_bits != h.count_bits as u32
            || h.shared_keys.width_bits != 64
            || h.strings.width_bits != 8
        {
            return bad;
        }
        // Record counts as the header's counts say.
        let n_buckets = 1u64
            .checked_shl(h.bucket_bits as u32)
            .and_then(|n| n.checked_add(1));
        let n_shared = h.shared_keys.count;
        let counts_ok = h.games_section.count == h.games
            && h.game_moves.count == h.games + 1
            && h.game_setup.count == h.games + 1
            && h.occurrences_section.count == h.occurrences
            && Some(h.buckets.count) == n_buckets
            && h.string_index.count >= 1
            && h.shared_starts.count == n_shared
            && h.shared_counts.count == n_shared
            && h.shared_next.count == n_shared.checked_add(1).unwrap_or(0)
            && h.next_black.count == h.next.count
            && h.next_white.count == h.next.count
            && h.positions <= h.occurrences;
        if !counts_ok {
            return bad;
        }
        let idx = Index {
            games: Rows::new(&h.games_section, body, h.game_layout().bytes())?,
            game_moves: h.game_moves.packed(body)?,
            game_setup: h.game_setup.packed(body)?,
            string_index: h.string_index.packed(body)?,
            strings: h
                .strings
                .slice(body)?
                .get(..usize::try_from(h.strings.count).map_err(|_| FormatError::BadSection)?)
                .ok_or(FormatError::BadSection)?,
            moves: h.moves.packed(body)?,
            setup: h.setup.packed(body)?,
            occ: h.occurrences_section.packed(body)?,
            buckets: h.buckets.packed(body)?,
            shared_keys: h.shared_keys.packed(body)?,
            shared_starts: h.shared_starts.packed(body)?,
            shared_counts: h.shared_counts.packed(body)?,
            shared_next: h.shared_next.packed(body)?,
            next: h.next.packed(body)?,
            next_black: h.next_black.packed(body)?,
            next_white: h.next_white.packed(body)?,
            pattern: PatternIndex::open_structure(&h.pattern, body, h.games as u32)?,
            body_check: c,
            header,
        };
        // The ends of the offset columns (one read each): the totals they announce.
        let last = |p: &Packed| p.at(p.len().saturating_sub(1));
        let ends_ok = idx.game_moves.at(0) == 0
            && last(&idx.game_moves) == idx.moves.len() as u64
            && idx.game_setup.at(0) == 0
            && last(&idx.game_setup) == idx.setup.len() as u64
            && idx.string_index.at(0) == 0
            && last(&idx.string_index) == idx.strings.len() as u64
            && idx.buckets.at(0) == 0
            && last(&idx.buckets) == idx.occ.len() as u64
            && idx.shared_next.at(0) == 0
            && last(&idx.shared_next) == idx.next.len() as u64;
        if !ends_ok {
            return Err(FormatError::BadRecord);
        }
        Ok(idx)
    }

    /// Opens an index and verifies it completely ([`Index::open`], then
    /// [`Index::verify`]).
    pub fn open_verified(file: &'a [u8]) -> Result<Index<'a>, FormatError> {
        let idx = Index::open(file)?;
        idx.verify()?;
        Ok(idx)
    }

    /// Checks the body's checksum and every record against the others: a pass over the
    /// whole file (`validate.rs`).
    pub fn verify(&self) -> Result<(), FormatError> {
        self.body_check.check_body()?;
        self.validate()
    }

    /// [`Index::verify`] but one check: that each game's pattern records are what a
    /// replay of the game gives (a replay of every game, most of a verify's time). For a
    /// writer that copies the records of a verified index into a new one as they are
    /// (`kifudex add`): the checksum catches a file damaged since it was written, the
    /// records are checked against each other; `kifudex verify` does the rest.
    pub fn verify_records(&self) -> Result<(), FormatError> {
        self.body_check.check_body()?;
        self.validate_records()
    }

    /// The header: build options, counts, sections.
    pub fn header(&self) -> &IndexHeader {
        &self.header
    }

    /// Number of games.
    pub fn game_count(&self) -> u32 {
        self.games.len() as u32
    }

    /// The pattern search's data (its structure checked at open, its records by
    /// [`Index::verify`]).
    pub fn pattern(&self) -> &PatternIndex<'a> {
        &self.pattern
    }
}
