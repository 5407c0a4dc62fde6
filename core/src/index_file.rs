//! The desktop index file as a whole ([`IndexFile`]): the position index
//! ([`crate::index`]) and the pattern search's sections ([`crate::pattern::PatternIndex`])
//! in one container, opened and verified together.
//!
//! The file's header is the index's header followed by the pattern search's
//! ([`IndexFileHeader`], postcard, in that order); each part's sections are opened and
//! validated by their owner. The index alone can be opened without the pattern sections
//! ([`Index::open`]: it reads the first part of the header); a reader of both opens the
//! file here.

use serde::{Deserialize, Serialize};

use crate::format::{Container, FormatError, Kind};
use crate::index::{Index, IndexHeader};
use crate::pattern::{PatternHeader, PatternIndex};

/// The header of an index file: the index's part, then pattern search's.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct IndexFileHeader {
    /// The position index's part.
    pub index: IndexHeader,
    /// Pattern search's part.
    pub pattern: PatternHeader,
}

/// An index file whose structure is checked: the position index and the pattern search's
/// data, read in place from the file's bytes.
#[derive(Clone, Debug)]
pub struct IndexFile<'a> {
    /// The position index.
    pub index: Index<'a>,
    /// The pattern search's data.
    pub pattern: PatternIndex<'a>,
    /// The pattern search's part of the header.
    pattern_header: PatternHeader,
}

impl<'a> IndexFile<'a> {
    /// Opens an index file, checking the structure of both parts in time independent of
    /// its size ([`Index::open`], [`PatternIndex::open_structure`]); [`IndexFile::verify`]
    /// checks the rest.
    pub fn open(file: &'a [u8]) -> Result<IndexFile<'a>, FormatError> {
        let c = Container::open_structure(file, Kind::Index)?;
        let header: IndexFileHeader = c.header()?;
        let index = Index::with_header(header.index, c)?;
        let pattern = PatternIndex::open_structure(&header.pattern, c.body, index.game_count())?;
        Ok(IndexFile {
            index,
            pattern,
            pattern_header: header.pattern,
        })
    }

    /// Opens an index file and verifies it completely ([`IndexFile::open`], then
    /// [`IndexFile::verify`]).
    pub fn open_verified(file: &'a [u8]) -> Result<IndexFile<'a>, FormatError> {
        let f = IndexFile::open(file)?;
        f.verify()?;
        Ok(f)
    }

    /// The pattern search's part of the header (where its sections lie).
    pub fn pattern_header(&self) -> &PatternHeader {
        &self.pattern_header
    }

    /// The pattern search's data of an open index (its structure checked).
    pub fn pattern_of(index: &Index<'a>) -> Result<PatternIndex<'a>, FormatError> {
        let c = index.container();
        let header: IndexFileHeader = c.header()?;
        PatternIndex::open_structure(&header.pattern, c.body, index.game_count())
    }

    /// Checks the body's checksum and every record of both parts against the others,
    /// replaying every game behind its pattern records ([`Index::verify`],
    /// [`PatternIndex::verify`]): a pass over the whole file.
    pub fn verify(&self) -> Result<(), FormatError> {
        self.index.verify()?;
        self.pattern.verify(&self.index)
    }

    /// [`IndexFile::verify`] but one check: that each game's pattern records are what a
    /// replay of the game gives (a replay of every game, most of a verify's time). For a
    /// writer that copies the records of a verified index into a new one as they are
    /// (`kifudex add`): the checksum catches a file damaged since it was written, the
    /// records are checked against each other; `kifudex verify` does the rest.
    pub fn verify_records(&self) -> Result<(), FormatError> {
        self.index.verify()?;
        self.pattern.validate_for(&self.index)
    }
}
