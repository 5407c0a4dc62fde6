//! The desktop index file as a whole ([`IndexFile`]): the position index
//! ([`crate::index`]), the pattern search's sections ([`crate::pattern::PatternIndex`])
//! and the game columns ([`crate::columns::GameColumns`]) in one container, opened and
//! verified together.
//!
//! The file's header is the index's header followed by the pattern search's, then the
//! game columns' ([`IndexFileHeader`], postcard, in that order); each part's sections are
//! opened and validated by their owner. A file whose header ends after pattern search's
//! part was written before the columns existed: it is refused as another version
//! ([`FormatError::UnsupportedVersion`]). The index alone can be opened without the pattern sections
//! ([`Index::open`]: it reads the first part of the header); a reader of both opens the
//! file here.

use serde::{Deserialize, Serialize};

use crate::columns::COLUMNS_VERSION;
use crate::columns::{ColumnsHeader, GameColumns};
use crate::format::{Container, FormatError, Kind};
use crate::index::{Index, IndexHeader};
use crate::pattern::stored::header::PATTERN_DATA_VERSION;
use crate::pattern::{PatternHeader, PatternIndex};

/// The header of an index file: the index's part, then pattern search's, then the game
/// columns'.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct IndexFileHeader {
    /// The position index's part.
    pub index: IndexHeader,
    /// Pattern search's part.
    pub pattern: PatternHeader,
    /// The game columns' part.
    pub columns: ColumnsHeader,
}

/// An index file whose structure is checked: the position index and the pattern search's
/// data, read in place from the file's bytes.
#[derive(Clone, Debug)]
pub struct IndexFile<'a> {
    /// The position index.
    pub index: Index<'a>,
    /// The pattern search's data.
    pub pattern: PatternIndex<'a>,
    /// The game columns.
    pub columns: GameColumns<'a>,
    /// The pattern search's part of the header.
    pattern_header: PatternHeader,
}

/// [`FormatError::UnsupportedVersion`] when the header of `c` (whose checksum holds) does
/// not decode because its pattern part or its game columns' part has another version than
/// this reader's, or it has no game columns' part (an index built by another version of
/// kifudex); `None` otherwise.
fn other_pattern_version(c: &Container<'_>) -> Option<FormatError> {
    let (_, rest): (IndexHeader, _) = c.header_prefix().ok()?;
    let (version, _) = postcard::take_from_bytes::<u32>(rest).ok()?;
    if version != PATTERN_DATA_VERSION {
        return Some(FormatError::UnsupportedVersion);
    }
    // The index's and pattern search's parts whole and nothing after them: a file written
    // before the game columns (or whose columns' part has another version).
    let (_, after) = postcard::take_from_bytes::<PatternHeader>(rest).ok()?;
    match version_of(after) {
        None if after.is_empty() => Some(FormatError::UnsupportedVersion),
        Some(v) if v != COLUMNS_VERSION => Some(FormatError::UnsupportedVersion),
        _ => None,
    }
}

/// The version a header part starts with.
fn version_of(part: &[u8]) -> Option<u32> {
    postcard::take_from_bytes::<u32>(part).ok().map(|(v, _)| v)
}

impl<'a> IndexFile<'a> {
    /// Opens an index file, checking the structure of both parts in time independent of
    /// its size ([`Index::open`], [`PatternIndex::open_structure`]); [`IndexFile::verify`]
    /// checks the rest.
    pub fn open(file: &'a [u8]) -> Result<IndexFile<'a>, FormatError> {
        let c = Container::open_structure(file, Kind::Index)?;
        let header: IndexFileHeader = c
            .header()
            .map_err(|e| other_pattern_version(&c).unwrap_or(e))?;
        let index = Index::with_header(header.index, c)?;
        let pattern = PatternIndex::open_structure(&header.pattern, c.body, index.game_count())?;
        let columns = GameColumns::open(&header.columns, c.body, index.game_count())?;
        Ok(IndexFile {
            index,
            pattern,
            columns,
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
        let header: IndexFileHeader = c
            .header()
            .map_err(|e| other_pattern_version(c).unwrap_or(e))?;
        PatternIndex::open_structure(&header.pattern, c.body, index.game_count())
    }

    /// Checks the body's checksum and every record of both parts against the others,
    /// replaying every game behind its pattern records ([`Index::verify`],
    /// [`PatternIndex::verify`]): a pass over the whole file.
    pub fn verify(&self) -> Result<(), FormatError> {
        self.index.verify()?;
        self.columns.validate(&self.index)?;
        self.pattern.verify(&self.index)
    }

    /// [`IndexFile::verify`] but one check: that each game's pattern records are what a
    /// replay of the game gives (a replay of every game, most of a verify's time). For a
    /// writer that copies the records of a verified index into a new one as they are
    /// (`kifudex add`): the checksum catches a file damaged since it was written, the
    /// records are checked against each other; `kifudex verify` does the rest.
    pub fn verify_records(&self) -> Result<(), FormatError> {
        self.index.verify()?;
        self.columns.validate(&self.index)?;
        self.pattern.validate_for(&self.index)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use crate::format::{align8, Section};

    const GOLDEN: &[u8] = include_bytes!("../tests/data/golden.kdx");

    /// The golden index with its pattern part of the header replaced by `pattern` (the
    /// checksums made anew).
    fn with_pattern_part(pattern: &[u8]) -> std::vec::Vec<u8> {
        let c = Container::open(GOLDEN, Kind::Index).unwrap();
        let (_, rest): (IndexHeader, _) = c.header_prefix().unwrap();
        let mut header = c.header[..c.header.len() - rest.len()].to_vec();
        header.extend_from_slice(pattern);
        let mut file = Container::preamble(Kind::Index, &header, c.body).to_vec();
        file.extend_from_slice(&header);
        file.resize(file.len() + align8(header.len()) - header.len(), 0);
        file.extend_from_slice(c.body);
        file
    }

    #[test]
    fn an_index_of_another_pattern_version_is_refused_as_such() {
        // The first version's pattern part: version 1, games, then four sections; the
        // second's: version 2, games, three sections.
        let s = Section::default();
        let mut buf = [0u8; 256];
        let old = postcard::to_slice(&(1u32, 10u32, s, s, s, s), &mut buf).unwrap();
        assert_eq!(
            IndexFile::open(&with_pattern_part(old)).err(),
            Some(FormatError::UnsupportedVersion)
        );
        let mut buf = [0u8; 256];
        let old = postcard::to_slice(&(2u32, 10u32, s, s, s), &mut buf).unwrap();
        assert_eq!(
            IndexFile::open(&with_pattern_part(old)).err(),
            Some(FormatError::UnsupportedVersion)
        );
        // The second's shape with this version, a header that does not decode: damaged.
        let mut buf = [0u8; 256];
        let wrong = postcard::to_slice(&(PATTERN_DATA_VERSION, 10u32, s, s, s), &mut buf).unwrap();
        assert_eq!(
            IndexFile::open(&with_pattern_part(wrong)).err(),
            Some(FormatError::BadHeader)
        );
        // A file of this pattern version without the game columns' part: written before
        // the columns, refused as another version.
        let c = Container::open(GOLDEN, Kind::Index).unwrap();
        let (_, rest): (IndexHeader, _) = c.header_prefix().unwrap();
        let (_, columns) = postcard::take_from_bytes::<PatternHeader>(rest).unwrap();
        let pattern_only = &rest[..rest.len() - columns.len()];
        assert_eq!(
            IndexFile::open(&with_pattern_part(pattern_only)).err(),
            Some(FormatError::UnsupportedVersion)
        );
        // The golden file itself opens (the rebuilt file is the same bytes).
        let c = Container::open(GOLDEN, Kind::Index).unwrap();
        let (_, rest): (IndexHeader, _) = c.header_prefix().unwrap();
        assert_eq!(with_pattern_part(rest), GOLDEN);
    }
}
