//! The index games are added to, read in place (memory-mapped): its occurrences with the
//! fingerprint bits they keep, the key of any of its positions (by replaying one of its
//! games), the next moves of its positions, its games read back without a replay.

use anyhow::{anyhow, Result};
use kifudex_core::format::{Container, Kind, Packed};
use kifudex_core::index::{Index, IndexHeader, OccurrenceLayout};
use kifudex_core::stored::{encode_move, StoredGame};
use rayon::prelude::*;

use kifudex_core::pattern::summary::removal_record;

use crate::build::inputs::record_of;
use crate::build::occurrence::{check_value, NextCode, Occ};
use crate::build::replay::ReplayedGame;
use crate::build::write::index::{next_counts, NextCount};

/// An index opened for adding games: the core's reader and the sections the pass walks.
pub(super) struct OldIndex<'a> {
    /// The core's reader (games, replays).
    pub index: Index<'a>,
    occ: Packed<'a>,
    buckets: Packed<'a>,
    moves: Packed<'a>,
    game_moves: Packed<'a>,
    shared_keys: Packed<'a>,
    shared_starts: Packed<'a>,
    shared_counts: Packed<'a>,
    shared_next: Packed<'a>,
    next: Packed<'a>,
    next_black: Packed<'a>,
    next_white: Packed<'a>,
    layout: OccurrenceLayout,
    header: IndexHeader,
    /// Fingerprint bits an occurrence keeps: the bucket bits and the stored bits.
    pub prefix_bits: u32,
}

impl<'a> OldIndex<'a> {
    /// Opens `bytes`, checking its structure ([`Index::open`]); [`OldIndex::verify`]
    /// checks the rest, and must pass before anything read is written (every read is
    /// clamped to its section meanwhile: no byte can make one panic).
    pub fn open(bytes: &'a [u8]) -> Result<OldIndex<'a>> {
        let index = Index::open(bytes).map_err(|e| anyhow!("not a valid index: {e}"))?;
        let body = Container::open_structure(bytes, Kind::Index)
            .map_err(|e| anyhow!("not a valid index: {e}"))?
            .body;
        let h = index.header().clone();
        let p = |s: &kifudex_core::format::Section| {
            s.packed(body)
                .map_err(|e| anyhow!("not a valid index: {e}"))
        };
        let prefix_bits = h.bucket_bits as u32 + h.rem_bits as u32;
        if prefix_bits > 64 || h.bucket_bits == 0 {
            return Err(anyhow!("not a valid index: {prefix_bits} fingerprint bits"));
        }
        Ok(OldIndex {
            occ: p(&h.occurrences_section)?,
            buckets: p(&h.buckets)?,
            moves: p(&h.moves)?,
            game_moves: p(&h.game_moves)?,
            shared_keys: p(&h.shared_keys)?,
            shared_starts: p(&h.shared_starts)?,
            shared_counts: p(&h.shared_counts)?,
            shared_next: p(&h.shared_next)?,
            next: p(&h.next)?,
            next_black: p(&h.next_black)?,
            next_white: p(&h.next_white)?,
            layout: h.occurrence_layout(),
            header: h,
            prefix_bits,
            index,
        })
    }

    /// Verifies the index completely ([`Index::verify`]: the body's checksum, every record
    /// against the others). The add relies on what that guarantees: occurrences sorted by
    /// their kept bits within their buckets with one position start per position, offset
    /// columns non-decreasing, shared positions in occurrence order with next moves that
    /// add up to their occurrences, valid moves and setup stones.
    ///
    /// Not checked again: that each game's pattern records equal a replay of the game
    /// ([`Index::verify_records`]): that would replay every game, which the add exists
    /// to avoid; the records are copied as they are, the body's checksum guarding them
    /// against damage since the index was written (`kifudex verify` checks the rest).
    pub fn verify(&self) -> Result<()> {
        self.index
            .verify_records()
            .map_err(|e| anyhow!("not a valid index: {e}"))
    }

    /// Number of occurrences.
    pub fn occurrences(&self) -> u64 {
        self.occ.len() as u64
    }

    /// The fingerprint bits occurrence records keep, of a fingerprint `hi`.
    pub fn prefix_of(&self, hi: u64) -> u64 {
        hi >> (64 - self.prefix_bits)
    }

    /// The bucket holding occurrence `i`.
    fn bucket_of(&self, i: usize) -> usize {
        let n = self.buckets.len();
        self.buckets
            .partition_point(0, n, |s| s <= i as u64)
            .saturating_sub(1)
    }

    /// The occurrences whose kept fingerprint bits are `prefix`: a range of whole
    /// positions, sorted by key.
    pub fn prefix_range(&self, prefix: u64) -> (usize, usize) {
        let rem_bits = self.header.rem_bits as u32;
        let bucket = (prefix >> rem_bits) as usize;
        let rem = if rem_bits == 0 {
            0
        } else {
            prefix & (u64::MAX >> (64 - rem_bits))
        };
        let n = self.occ.len();
        let be = (self.buckets.at(bucket + 1) as usize).min(n);
        let bs = (self.buckets.at(bucket) as usize).min(be);
        let lay = self.layout;
        let lo = self.occ.partition_point(bs, be, |v| lay.rem(v) < rem);
        let hi = self.occ.partition_point(lo, be, |v| lay.rem(v) <= rem);
        (lo, hi)
    }

    /// Whether occurrence `i` starts a position (or is the end).
    pub fn starts_position(&self, i: usize) -> bool {
        self.occ
            .get(i)
            .is_none_or(|v| self.layout.starts_position(v))
    }

    /// The end of the position starting at `i`: the next position's start, at most `limit`.
    pub fn position_end(&self, i: usize, limit: usize) -> usize {
        let mut e = i + 1;
        while e < limit && !self.starts_position(e) {
            e += 1;
        }
        e.min(limit).max(i)
    }

    /// The game holding global move `ply`.
    fn game_of_ply(&self, ply: u64) -> u32 {
        let n = self.index.game_count() as usize;
        self.game_moves
            .partition_point(0, n, |s| s <= ply)
            .saturating_sub(1) as u32
    }

    /// The canonical 128-bit key and the check value ([`check_value`]) of the position of
    /// occurrence `i`, by replaying its game to it.
    pub fn key_at(&self, i: usize) -> Option<(u128, u64)> {
        let v = self.occ.get(i)?;
        let ply = self.layout.ply(v);
        let game = self.game_of_ply(ply);
        let number = ply.checked_sub(self.game_moves.at(game as usize))?;
        let board = self.index.position(game, u32::try_from(number).ok()?)?;
        let size = board.size();
        let (key, _) = board.keys().canonical(size);
        Some((key.0, check_value(board.keys(), size)))
    }

    /// Decodes occurrences `range` into `out` (one per record): the kept fingerprint bits
    /// at the top of `hi`, the move number mapped by `ply`, the orientation; returns the
    /// position starts among them.
    pub fn decode(
        &self,
        range: std::ops::Range<usize>,
        out: &mut [Occ],
        ply: impl Fn(u64) -> u64,
    ) -> Vec<usize> {
        let lay = self.layout;
        let rem_bits = self.header.rem_bits as u32;
        let shift = 64 - self.prefix_bits;
        let mut bucket = self.bucket_of(range.start);
        let mut bucket_end = self.buckets.at(bucket + 1) as usize;
        let mut starts = Vec::new();
        let mut k = 0;
        self.occ.for_each_in(range, |i, v| {
            while i >= bucket_end && bucket + 1 < self.buckets.len() {
                bucket += 1;
                bucket_end = self.buckets.at(bucket + 1) as usize;
            }
            if lay.starts_position(v) {
                starts.push(i);
            }
            let prefix = ((bucket as u64) << rem_bits) | lay.rem(v);
            if let Some(o) = out.get_mut(k) {
                *o = Occ {
                    hi: prefix << shift,
                    ply: ply(lay.ply(v)) as u32,
                    orient: lay.orientation(v).index() as u8,
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
        let n = self.shared_starts.len();
        self.shared_starts
            .partition_point(0, n, |s| s < start as u64)
    }

    /// The shared row of the position whose occurrences are `start..end`, if it has one;
    /// `cursor` is a shared row at or before it (positions are visited in order: it moves
    /// on).
    pub fn shared_row(&self, cursor: &mut usize, start: usize, end: usize) -> Option<usize> {
        let n = self.shared_starts.len();
        while *cursor < n && self.shared_starts.at(*cursor) < start as u64 {
            *cursor += 1;
        }
        let r = *cursor;
        (r < n
            && self.shared_starts.at(r) == start as u64
            && self.shared_counts.at(r) == (end - start) as u64)
            .then_some(r)
    }

    /// The whole fingerprint of the old position starting at occurrence `start`: from its
    /// shared row `row` if it has one, else by replaying its first occurrence.
    pub fn fingerprint(&self, start: usize, row: Option<usize>) -> Option<u64> {
        match row {
            Some(r) => self.shared_keys.get(r),
            None => self.key_at(start).map(|(k, _)| (k >> 64) as u64),
        }
    }

    /// The next moves of the position whose occurrences are `start..end`: from its shared
    /// row `row` if it has one, else from each occurrence's next move (mapped through its
    /// orientation, with its game's winner).
    pub fn next_moves(&self, start: usize, end: usize, row: Option<usize>) -> Vec<NextCount> {
        if let Some(r) = row {
            let layout = self.header.next_layout();
            let (a, b) = (self.shared_next.at(r), self.shared_next.at(r + 1));
            return (a as usize..b as usize)
                .filter_map(|k| {
                    let m = layout.decode([
                        self.next.at(k),
                        self.next_black.at(k),
                        self.next_white.at(k),
                    ])?;
                    let count = |c: u64| u32::try_from(c).unwrap_or(u32::MAX);
                    Some((
                        encode_move(m.color, m.mv) as u16,
                        [count(m.count), count(m.black_wins), count(m.white_wins)],
                    ))
                })
                .collect();
        }
        let mut codes: Vec<NextCode> = (start..end)
            .filter_map(|i| {
                let v = self.occ.get(i)?;
                let ply = self.layout.ply(v);
                let game = self.index.game(self.game_of_ply(ply))?;
                let orient = self.layout.orientation(v);
                let code = self.moves.get(ply as usize)? as u16;
                Some(NextCode::new(code, orient, game.size, game.winner))
            })
            .collect();
        next_counts(&mut codes)
    }

    /// Every game, read back as a build holds it after the replay (no replay: the stored
    /// moves and setup are those the replay kept), in index order; `max_moves` as the index
    /// was built with.
    pub fn games(&self, max_moves: u32) -> Result<Vec<ReplayedGame>> {
        let n = self.index.game_count();
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
        let g = self.index.game(id)?;
        let stored = self.index.stored_game(id)?;
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
            pattern: self.index.pattern().packed_summary(id),
            removals: self
                .index
                .pattern()
                .removals_of(id)
                .map(|(n, p)| removal_record(n, p) as u32)
                .collect(),
        })
    }
}
