//! Writing the acceleration data (feature `alloc`), the encoder beside its reader
//! ([`super::reader::PatternIndex`]): games pushed in id order, their summaries and removed
//! stones ([`super::summary::summarize`]), then the sections added to a file's body.

use alloc::vec::Vec;

use crate::format::{bits_for, BitWriter, Body, Section};
use crate::point::Point;
use crate::stored::StoredGame;
use crate::Color;

use super::block::{encode_block, BLOCK_BYTES};
use super::block_games::BLOCK_GAMES;
use super::corner::{encode_corner_block, CornerBoxes, CORNER_BLOCK_BYTES};
use super::header::{PatternHeader, PATTERN_DATA_VERSION, REMOVAL_BITS};
use super::summary::{removal_record, summarize, GameSummary, PackedSummary};

/// The acceleration data of games pushed one by one, in id order.
#[derive(Debug)]
pub struct PatternWriter {
    games: u32,
    block: Vec<PackedSummary>,
    blocks: Vec<u8>,
    corners: Vec<u8>,
    removals: BitWriter,
    starts: Vec<u64>,
}

impl Default for PatternWriter {
    fn default() -> Self {
        PatternWriter::new()
    }
}

impl PatternWriter {
    /// No games yet.
    pub fn new() -> PatternWriter {
        PatternWriter {
            games: 0,
            block: Vec::with_capacity(BLOCK_GAMES),
            blocks: Vec::new(),
            corners: Vec::new(),
            removals: BitWriter::new(REMOVAL_BITS),
            starts: alloc::vec![0],
        }
    }

    /// Adds the next game: its summary and the stones its moves removed, as (move number,
    /// point) in order.
    pub fn push(&mut self, summary: &GameSummary, removed: impl IntoIterator<Item = (u32, Point)>) {
        self.push_packed(
            &PackedSummary::from(summary),
            removed.into_iter().map(|(n, p)| removal_record(n, p)),
        );
    }

    /// Adds the next game: its summary as stored and its removal records
    /// ([`removal_record`]), in order.
    pub fn push_packed(
        &mut self,
        summary: &PackedSummary,
        removals: impl IntoIterator<Item = u64>,
    ) {
        for r in removals {
            self.removals.push(r);
        }
        self.starts.push(self.removals.count());
        self.block.push(*summary);
        self.games += 1;
        if self.block.len() == BLOCK_GAMES {
            self.flush_block();
        }
    }

    /// Adds the next game from its stored record (one replay, [`summarize`]).
    pub fn push_game<G: StoredGame>(&mut self, game: &G, winner: Option<Color>) {
        let mut removed = Vec::new();
        let s = summarize(game, winner, |n, p| removed.push((n, p)));
        self.push(&s, removed);
    }

    fn flush_block(&mut self) {
        let at = self.blocks.len();
        self.blocks.resize(at + BLOCK_BYTES, 0);
        if let Some(out) = self.blocks.get_mut(at..) {
            encode_block(&self.block, out);
        }
        let at = self.corners.len();
        self.corners.resize(at + CORNER_BLOCK_BYTES, 0);
        if let Some(out) = self.corners.get_mut(at..) {
            let mut boxes = [CornerBoxes::default(); BLOCK_GAMES];
            for (b, s) in boxes.iter_mut().zip(&self.block) {
                *b = s.corners;
            }
            encode_corner_block(&boxes[..self.block.len()], out);
        }
        self.block.clear();
    }

    /// The sections' contents, for a body of another kind than [`Body`] (the index
    /// builder's stream).
    pub fn into_sections(mut self) -> PatternSections {
        if !self.block.is_empty() {
            self.flush_block();
        }
        let total = self.removals.count();
        let mut starts = BitWriter::with_capacity(bits_for(total), self.starts.len());
        for s in &self.starts {
            starts.push(*s);
        }
        PatternSections {
            games: self.games,
            blocks: self.blocks,
            removals: self.removals,
            removal_starts: starts,
            corner_boxes: self.corners,
        }
    }

    /// Adds the sections to `body` and returns the header that finds them there.
    pub fn finish(self, body: &mut Body) -> PatternHeader {
        let s = self.into_sections();
        PatternHeader {
            version: PATTERN_DATA_VERSION,
            games: s.games,
            blocks: body.rows(s.blocks, 8),
            removals: body.packed(s.removals),
            removal_starts: body.packed(s.removal_starts),
            corner_boxes: body.rows(s.corner_boxes, 8),
        }
    }
}

/// The sections of [`PatternWriter::into_sections`], each to be added to a body as
/// [`PatternWriter::finish`] adds them ([`PatternSections::header`] for a body of another
/// kind): `blocks` as rows of 8 bytes, the others packed; with [`PATTERN_DATA_VERSION`] and
/// `games` they make the [`PatternHeader`].
#[derive(Debug)]
pub struct PatternSections {
    /// Number of games.
    pub games: u32,
    /// The blocks' bytes (their words little-endian).
    pub blocks: Vec<u8>,
    /// The removal records.
    pub removals: BitWriter,
    /// Where each game's removals start.
    pub removal_starts: BitWriter,
    /// The corner boxes' bytes (their words little-endian).
    pub corner_boxes: Vec<u8>,
}

impl PatternSections {
    /// Bytes held (for a builder's memory budget).
    pub fn heap_bytes(&self) -> u64 {
        self.blocks.capacity() as u64
            + self.corner_boxes.capacity() as u64
            + self.removals.count() * REMOVAL_BITS as u64 / 8
            + self.removal_starts.count() * 8
    }

    /// The header of the sections once a body holds them: `add` adds each section to the
    /// body and returns where it lies (a builder with a body of its own adds them with its
    /// own writers, without knowing the list of sections).
    pub fn header<E>(
        self,
        mut add: impl FnMut(SectionData<'_>) -> Result<Section, E>,
    ) -> Result<PatternHeader, E> {
        Ok(PatternHeader {
            version: PATTERN_DATA_VERSION,
            games: self.games,
            blocks: add(SectionData::Rows(&self.blocks, 8))?,
            removals: add(SectionData::Packed(self.removals))?,
            removal_starts: add(SectionData::Packed(self.removal_starts))?,
            corner_boxes: add(SectionData::Rows(&self.corner_boxes, 8))?,
        })
    }
}

/// One section's contents, as [`PatternSections::header`] hands it to a body.
pub enum SectionData<'a> {
    /// Rows of bytes of this width.
    Rows(&'a [u8], usize),
    /// Packed records.
    Packed(BitWriter),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::stored::reader::PatternIndex;
    use crate::point::{Move, Size, Stone};
    use crate::stored::{decode_move, encode_move, SetupRecord};
    use alloc::vec;

    /// A game in memory: moves as records, setup stones as they are.
    struct Game(Size, Vec<u64>, Vec<SetupRecord>);

    impl StoredGame for Game {
        fn size(&self) -> Size {
            self.0
        }
        fn move_count(&self) -> u32 {
            self.1.len() as u32
        }
        fn move_at(&self, i: u32) -> Option<(Color, Move)> {
            decode_move(*self.1.get(i as usize)?)
        }
        fn setup_count(&self) -> u32 {
            self.2.len() as u32
        }
        fn setup_at(&self, i: u32) -> Option<SetupRecord> {
            self.2.get(i as usize).copied()
        }
    }

    fn pt(s: &str) -> Point {
        let b = s.as_bytes();
        Point::new(b[0] - b'a', b[1] - b'a')
    }

    fn moves(list: &[&str]) -> Vec<u64> {
        list.iter()
            .enumerate()
            .map(|(i, m)| {
                let c = if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                encode_move(c, Move::Play(pt(m)))
            })
            .collect()
    }

    #[test]
    fn data_reads_back() {
        // A capture at the centre (move 8), a handicap game, a 9x9 game (not searched),
        // and enough copies to fill a block and start another.
        let capture = Game(
            Size::STANDARD,
            moves(&["jj", "ij", "aa", "kj", "ab", "ji", "ac", "jk", "ad"]),
            Vec::new(),
        );
        let handicap = Game(
            Size::STANDARD,
            moves(&["qd", "dp", "cq"]),
            vec![SetupRecord {
                before: 0,
                point: pt("dd"),
                stone: Stone::Black,
            }],
        );
        let nine = Game(Size::square(9).unwrap(), moves(&["cc", "ee"]), Vec::new());
        let games: Vec<&Game> = (0..70)
            .map(|i| [&capture, &handicap, &nine][i % 3])
            .collect();
        let mut w = PatternWriter::new();
        let mut want = Vec::new();
        for (i, g) in games.iter().enumerate() {
            let winner = [None, Some(Color::Black), Some(Color::White)][i % 3];
            let mut removed = Vec::new();
            let s = summarize(*g, winner, |n, p| removed.push((n, p)));
            w.push(&s, removed.iter().copied());
            want.push((s, removed));
        }
        let mut body = Body::new();
        let header = w.finish(&mut body);
        let bytes = body.to_vec();
        let pi = PatternIndex::open_for(&header, &bytes, games.len() as u32, |g| {
            games.get(g as usize).map(|g| g.move_count())
        })
        .unwrap();
        assert_eq!(pi.block_count(), 2);
        for (id, (s, removed)) in want.iter().enumerate() {
            assert_eq!(&pi.summary(id as u32), s, "game {id}");
            assert_eq!(&pi.removals_of(id as u32).collect::<Vec<_>>(), removed);
        }
        assert_eq!(want[0].1, vec![(8, pt("jj"))]);
        assert!(want[1].0.ever_black.contains(pt("dd")) && want[1].0.searched);
        assert!(!want[2].0.searched && want[2].1.is_empty());
        // A damaged file is refused: the wrong number of games, a removal past the game.
        assert!(PatternIndex::open_for(&header, &bytes, 69, |_| Some(9)).is_err());
        assert!(PatternIndex::open_for(&header, &bytes, 70, |_| Some(3)).is_err());
    }
}
