//! Where pattern search's stored data lies in an index file: its part of the file's header
//! ([`PatternHeader`], postcard-encoded beside the index header) and the version of its
//! layout.

use serde::{Deserialize, Serialize};

use crate::format::Section;

use super::corner::CORNER_BLOCK_BYTES;
use super::summary::RemovalRecord;

/// Width of a removal record.
pub const REMOVAL_BITS: u32 = RemovalRecord::BITS;
/// Version of this layout.
pub const PATTERN_DATA_VERSION: u32 = 3;

/// Where the acceleration data lies (postcard-encoded beside the index header).
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PatternHeader {
    /// [`PATTERN_DATA_VERSION`].
    pub version: u32,
    /// Number of games (the index's).
    pub games: u32,
    /// The blocks: `u64` words, [`super::block::BLOCK_WORDS`] per block.
    pub blocks: Section,
    /// The removals.
    pub removals: Section,
    /// Where each game's removals start (one more than the games).
    pub removal_starts: Section,
    /// The corner boxes: `u64` words, [`CORNER_BLOCK_WORDS`] per block.
    pub corner_boxes: Section,
}

/// Words of one block's corner boxes.
pub const CORNER_BLOCK_WORDS: usize = CORNER_BLOCK_BYTES / 8;

impl PatternHeader {
    /// The sections with their names (for `kifudex info`).
    pub fn sections(&self) -> [(&'static str, &Section); 4] {
        [
            ("pattern blocks", &self.blocks),
            ("removals", &self.removals),
            ("removal starts", &self.removal_starts),
            ("corner boxes", &self.corner_boxes),
        ]
    }

    /// Bytes of all sections.
    pub fn bytes(&self) -> u64 {
        self.sections().iter().map(|(_, s)| s.len).sum()
    }
}
