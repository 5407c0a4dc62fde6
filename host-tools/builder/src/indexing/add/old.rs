//! The index games are added to, read in place (memory-mapped) through the core's readers
//! of its sections ([`IndexFile`]): its occurrences with the fingerprint bits they keep, the
//! key of any of its positions (by replaying one of its games), the next moves of its
//! positions, its games read back without a replay.

use std::ops::Range;

use anyhow::{anyhow, Result};
use kifudex_core::fingerprint::fingerprint;
use kifudex_core::hash::Key;
use kifudex_core::index::{GameSections, Index, OccurrenceTable, SharedPositions};
use kifudex_core::index_file::IndexFile;
use kifudex_core::pattern::stored::summary::removal_record;
use kifudex_core::stored::{encode_move, StoredGame};
use rayon::prelude::*;

use crate::indexing::inputs::record_of;
use crate::indexing::occurrence::{check_value, NextCode, Occ};
use crate::indexing::replay::ReplayedGame;
use crate::indexing::write::index::{next_counts, NextCount};

/// An index file opened for adding games.
pub(super) struct OldIndex<'a> {
    file: IndexFile<'a>,
    /// Fingerprint bits an occurrence keeps: the bucket bits and the stored bits.
    pub prefix_bits: u32,
}

impl<'a> OldIndex<'a> {
    /// Opens `bytes`, checking its structure ([`IndexFile::open`]); [`OldIndex::verify`]
    /// checks the rest, and must pass before anything read is written (every read is
    /// clamped to its section meanwhile: no byte can make one panic).
    pub fn open(bytes: &'a [u8]) -> Result<OldIndex<'a>> {
        let file = IndexFile::open(bytes).map_err(|e| anyhow!("not a valid index: {e}"))?;
        let h = file.index.header();
        let prefix_bits = h.bucket_bits as u32 + h.rem_bits as u32;
        if prefix_bits > 64 || h.bucket_bits == 0 {
            return Err(anyhow!("not a valid index: {prefix_bits} fingerprint bits"));
        }
        Ok(OldIndex { file, prefix_bits })
    }

    /// Verifies the index completely ([`IndexFile::verify_records`]: the body's checksum,
    /// every record against the others). The add relies on what that guarantees:
    /// occurrences sorted by their kept bits within their buckets with one position start
    /// per position, offset columns non-decreasing, shared positions in occurrence order
    /// with next moves that add up to their occurrences, valid moves and setup stones.
    ///
    /// Not checked again: that each game's pattern records equal a replay of the game
    /// ([`IndexFile::verify`]): that would replay every game, which the add exists to
    /// avoid; the records are copied as they are, the body's checksum guarding them
    /// against damage since the index was written (`kifudex verify` checks the rest).
    pub fn verify(&self) -> Result<()> {
        self.file
            .verify_records()
            .map_err(|e| anyhow!("not a valid index: {e}"))
    }

    /// The position index.
    pub fn index(&self) -> &Index<'a> {
        &self.file.index
    }

    fn occurrence_table(&self) -> &OccurrenceTable<'a> {
        self.file.index.occurrence_table()
    }

    fn games_sections(&self) -> &GameSections<'a> {
        self.file.index.games()
    }

    fn shared(&self) -> &SharedPositions<'a> {
        self.file.index.shared_positions()
    }

    /// Number of occurrences.
    pub fn occurrences(&self) -> u64 {
        self.occurrence_table().len() as u64
    }

    /// The occurrences filed under the fingerprint bits the index keeps of `hi` (a
    /// fingerprint): a range of whole positions, sorted by key.
    pub fn filed_under(&self, hi: u64) -> Range<usize> {
        self.occurrence_table().filed_under(hi)
    }

    /// Whether occurrence `i` starts a position (or is the end).
    pub fn starts_position(&self, i: usize) -> bool {
        self.occurrence_table().starts_position(i)
    }

    /// The end of the position starting at `i`: the next position's start, at most `limit`.
    pub fn position_end(&self, i: usize, limit: usize) -> usize {
        self.occurrence_table().position_end(i, limit)
    }

    /// The canonical 128-bit key and the check value ([`check_value`]) of the position of
    /// occurrence `i`, by replaying its game to it.
    pub fn key_at(&self, i: usize) -> Option<(Key, u64)> {
        let ply = self.occurrence_table().get(i)?.ply;
        let games = self.games_sections();
        let game = games.game_of_ply(ply);
        let number = ply.checked_sub(games.moves_of(game).0)?;
        let board = self.index().position(game, u32::try_from(number).ok()?)?;
        let size = board.size();
        let (key, _) = board.keys().canonical(size);
        Some((key, check_value(board.keys(), size)))
    }

    /// Decodes occurrences `range` into `out` (one per record): the kept fingerprint bits
    /// at the top of `hi`, the move number mapped by `ply`, the orientation; returns the
    /// position starts among them.
    pub fn decode(
        &self,
        range: Range<usize>,
        out: &mut [Occ],
        ply: impl Fn(u64) -> u64,
    ) -> Vec<usize> {
        let mut starts = Vec::new();
        let mut k = 0;
        self.occurrence_table().for_each_in(range, |i, kept, r| {
            if r.starts_position {
                starts.push(i);
            }
            if let Some(o) = out.get_mut(k) {
                *o = Occ {
                    hi: kept,
                    ply: ply(r.ply) as u32,
                    orient: r.orientation.index() as u8,
                    ..Occ::ZERO
                };
            }
            k += 1;
            true
        });
        starts
    }

    /// The first shared row whose position starts at or after occurrence `start`.
    pub fn first_shared_row(&self, start: usize) -> usize {
        self.shared().first_row_from(start)
    }

    /// The shared row of the position whose occurrences are `start..end`, if it has one;
    /// `cursor` is a shared row at or before it (positions are visited in order: it moves
    /// on).
    pub fn shared_row(&self, cursor: &mut usize, start: usize, end: usize) -> Option<usize> {
        let (shared, n_occ) = (self.shared(), self.occurrence_table().len());
        let row = |r: usize| shared.row(r, n_occ);
        while row(*cursor).is_some_and(|s| s.first_occurrence < start as u64) {
            *cursor += 1;
        }
        let r = *cursor;
        row(r)
            .is_some_and(|s| {
                s.first_occurrence == start as u64 && s.occurrences == (end - start) as u64
            })
            .then_some(r)
    }

    /// The whole fingerprint of the old position starting at occurrence `start`: from its
    /// shared row `row` if it has one, else by replaying its first occurrence.
    pub fn fingerprint(&self, start: usize, row: Option<usize>) -> Option<u64> {
        match row {
            Some(r) => Some(
                self.shared()
                    .row(r, self.occurrence_table().len())?
                    .fingerprint,
            ),
            None => self.key_at(start).map(|(k, _)| fingerprint(k)),
        }
    }

    /// The next moves of the position whose occurrences are `start..end`: from its shared
    /// row `row` if it has one, else from each occurrence's next move (mapped through its
    /// orientation, with its game's winner).
    pub fn next_moves(&self, start: usize, end: usize, row: Option<usize>) -> Vec<NextCount> {
        let count = |c: u64| u32::try_from(c).unwrap_or(u32::MAX);
        if let Some(r) = row {
            let shared = self.shared();
            let Some(row) = shared.row(r, self.occurrence_table().len()) else {
                return Vec::new();
            };
            return shared
                .next_moves(&row)
                .map(|m| {
                    (
                        encode_move(m.color, m.mv) as u16,
                        [count(m.count), count(m.black_wins), count(m.white_wins)],
                    )
                })
                .collect();
        }
        let games = self.games_sections();
        let mut codes: Vec<NextCode> = (start..end)
            .filter_map(|i| {
                let r = self.occurrence_table().get(i)?;
                let game = games.game(games.game_of_ply(r.ply))?;
                let code = games.move_record(r.ply)? as u16;
                Some(NextCode::new(code, r.orientation, game.size, game.winner))
            })
            .collect();
        next_counts(&mut codes)
    }

    /// Every game, read back as a build holds it after the replay (no replay: the stored
    /// moves and setup are those the replay kept), in index order; `max_moves` as the index
    /// was built with.
    pub fn games(&self, max_moves: u32) -> Result<Vec<ReplayedGame>> {
        let n = self.index().game_count();
        let games: Vec<Option<ReplayedGame>> = (0..n)
            .into_par_iter()
            .with_min_len(256)
            .map(|id| self.game(id, max_moves))
            .collect();
        games
            .into_iter()
            .enumerate()
            .map(|(id, g)| g.ok_or_else(|| anyhow!("game {id} cannot be read back")))
            .collect()
    }

    fn game(&self, id: u32, max_moves: u32) -> Option<ReplayedGame> {
        let g = self.index().game(id)?;
        let stored = self.index().stored_game(id)?;
        let (records, range) = stored.move_records();
        let moves: Vec<u16> = records.iter_range(range).map(|m| m as u16).collect();
        let setup = (0..stored.setup_count())
            .map(|i| stored.setup_at(i))
            .collect::<Option<Vec<_>>>()?;
        Some(ReplayedGame {
            record: record_of(&g, Vec::new())?,
            date_key: g.date_key,
            indexed: (moves.len() as u32).min(max_moves),
            moves,
            setup,
            provisional_start: 0,
            truncated: None,
            read_rank: (0, id),
            // The pattern search's records as stored (verified to be those of a replay).
            pattern: self.file.pattern.packed_summary(id),
            removals: self
                .file
                .pattern
                .removals_of(id)
                .map(|(n, p)| removal_record(n, p) as u32)
                .collect(),
        })
    }
}
