//! Encoding the desktop index (layout: [`kifudex_core::index`], `docs/FORMAT.md`).

use std::collections::HashMap;

use anyhow::{Context, Result};
use kifudex_core::columns::ColumnsHeader;
use kifudex_core::fingerprint::Split;
use kifudex_core::format::BitWriter;
use kifudex_core::format::{bits_for, Kind};
use kifudex_core::index::{
    GameLayout, GameRow, GameStrings, IndexHeader, NextLayout, OccurrenceLayout, OccurrenceRecord,
    StoredNext,
};
use kifudex_core::index_file::IndexFileHeader;
use kifudex_core::pattern::stored::writer::{PatternSections, PatternWriter, SectionData};
use kifudex_core::pattern::PatternHeader;
use kifudex_core::stored::{decode_move, SetupRecord, MOVE_BITS};
use kifudex_core::{Color, Move};
use rayon::prelude::*;

use super::bits::pack_parallel;
use super::body::{PackedStream, StreamBody, Streamed};
use super::columns::{encode_columns, ColumnsPart};
use crate::indexing::occurrence::{NextCode, Occ};
use crate::indexing::options::BuildOptions;
use crate::indexing::replay::ReplayedGame;
use crate::indexing::report::BuildReport;

/// The deduplicated string pool (borrowing the games' strings); id 0 is the empty string.
struct Strings<'a> {
    ids: HashMap<&'a str, u64>,
    list: Vec<&'a str>,
}

impl<'a> Strings<'a> {
    fn new() -> Strings<'a> {
        Strings {
            ids: HashMap::from([("", 0)]),
            list: vec![""],
        }
    }

    fn id(&mut self, s: Option<&'a str>) -> u64 {
        let s = s.unwrap_or("");
        let next = self.list.len() as u64;
        let id = *self.ids.entry(s).or_insert(next);
        if id == next {
            self.list.push(s);
        }
        id
    }
}

/// The row of game `g`, with its texts put into the string pool.
fn game_row<'a>(g: &'a ReplayedGame, strings: &mut Strings<'a>) -> GameRow {
    let info = &g.record.info;
    let result = info.result.as_ref();
    // In the order of GameStrings::ids, which is the order ids are given in (first use).
    let ids = [
        info.black.as_deref(),
        info.white.as_deref(),
        info.black_rank.as_deref(),
        info.white_rank.as_deref(),
        info.event.as_deref(),
        info.round.as_deref(),
        info.place.as_deref(),
        info.date.as_deref(),
        result.map(|r| r.raw.as_str()),
        Some(g.record.source.path.as_str()),
        g.record.source.member.as_deref(),
        info.rules.as_deref(),
        info.game_name.as_deref(),
    ]
    .map(|t| strings.id(t));
    GameRow {
        date: g.date_key,
        width: g.record.size.width(),
        height: g.record.size.height(),
        handicap: info.handicap.unwrap_or(0).min(255) as u8,
        winner: result.and_then(|r| r.winner),
        margin: result.map_or(kifudex_core::outcome::Margin::Unknown, |r| r.margin),
        komi: info.komi,
        strings: GameStrings::from_ids(ids),
        tree: g.record.source.tree_index as u64,
    }
}

/// The `shared_min` an index is built with.
pub fn shared_min(opts: &BuildOptions) -> u32 {
    opts.shared_min.max(2)
}

/// The sections of an index that depend on the games alone (so they can be encoded while
/// the occurrences are being sorted).
pub struct GamesPart {
    total_moves: u64,
    sizes: [u32; 19],
    id_bytes: u32,
    rows: Vec<u8>,
    game_moves: BitWriter,
    game_setup: BitWriter,
    string_index: BitWriter,
    pool: Vec<u8>,
    moves: BitWriter,
    setup: BitWriter,
    pattern: Option<PatternSections>,
    columns: Option<ColumnsPart>,
}

/// Encodes the games (newest first, their moves starting at `move_starts`), the string
/// pool, the moves, the setup stones, the pattern search's sections and the game columns.
pub fn encode_games(games: &[ReplayedGame], move_starts: &[u32]) -> GamesPart {
    let (part, (pattern, columns)) = rayon::join(
        || encode_games_moves(games, move_starts),
        || rayon::join(|| encode_pattern(games), || encode_columns(games)),
    );
    GamesPart {
        pattern: Some(pattern),
        columns: Some(columns),
        ..part
    }
}

/// The pattern search's sections of the games, in index order, from the summaries their
/// replay noted.
fn encode_pattern(games: &[ReplayedGame]) -> PatternSections {
    let mut w = PatternWriter::new();
    for g in games {
        w.push_packed(&g.pattern, g.removals.iter().map(|&r| r as u64));
    }
    w.into_sections()
}

/// [`encode_games`] but the pattern sections.
fn encode_games_moves(games: &[ReplayedGame], move_starts: &[u32]) -> GamesPart {
    let total_moves =
        move_starts.last().map_or(0, |&s| s as usize) + games.last().map_or(0, |g| g.moves.len());
    let (part, moves) = rayon::join(
        || encode_rows(games, move_starts, total_moves as u64),
        || {
            pack_parallel(MOVE_BITS, total_moves, |r, w| {
                let mut g = move_starts.partition_point(|&s| s as usize <= r.start) - 1;
                let mut k = r.start - move_starts[g] as usize;
                for _ in r {
                    while k == games[g].moves.len() {
                        g += 1;
                        k = 0;
                    }
                    w.push(games[g].moves[k] as u64);
                    k += 1;
                }
            })
        },
    );
    GamesPart {
        moves,
        total_moves: total_moves as u64,
        ..part
    }
}

/// [`encode_games`] but the moves.
fn encode_rows(games: &[ReplayedGame], move_starts: &[u32], total_moves: u64) -> GamesPart {
    let mut sizes = [0u32; 19];
    let mut strings = Strings::new();
    let rows: Vec<GameRow> = games.iter().map(|g| game_row(g, &mut strings)).collect();
    let max_id = rows
        .iter()
        .map(|r| r.tree)
        .max()
        .unwrap_or(0)
        .max(strings.list.len() as u64);
    let layout = GameLayout::for_max_id(max_id);
    let mut bytes = Vec::with_capacity(games.len() * layout.bytes());
    let total_setup: u64 = games.iter().map(|g| g.setup.len() as u64).sum();
    let mut game_moves = BitWriter::with_capacity(bits_for(total_moves), games.len() + 1);
    let mut game_setup = BitWriter::with_capacity(bits_for(total_setup), games.len() + 1);
    let mut setup = BitWriter::new(SetupRecord::BITS);
    let mut setup_start = 0u64;
    for ((g, row), &ms) in games.iter().zip(&rows).zip(move_starts) {
        let size = g.record.size;
        sizes[size.height() as usize - 1] |= 1 << (size.width() - 1);
        bytes.extend_from_slice(&layout.encode(row)[..layout.bytes()]);
        game_moves.push(ms as u64);
        game_setup.push(setup_start);
        for s in &g.setup {
            setup.push(s.encode());
        }
        setup_start += g.setup.len() as u64;
    }
    game_moves.push(total_moves);
    game_setup.push(setup_start);
    let total_bytes: usize = strings.list.iter().map(|s| s.len()).sum();
    let mut string_index = BitWriter::new(bits_for(total_bytes as u64).max(8));
    let mut pool = Vec::with_capacity(total_bytes);
    string_index.push(0);
    for s in &strings.list {
        pool.extend_from_slice(s.as_bytes());
        string_index.push(pool.len() as u64);
    }
    GamesPart {
        total_moves,
        sizes,
        id_bytes: layout.id_bytes,
        rows: bytes,
        game_moves,
        game_setup,
        string_index,
        pool,
        moves: BitWriter::new(MOVE_BITS),
        setup,
        pattern: None,
        columns: None,
    }
}

/// Sorted occurrences with their groups of equal keys: the whole build's, or one slice of
/// them (a range of keys, spilled: `occurrences/spill.rs`).
pub struct SliceView<'a> {
    /// The occurrences, sorted by (key, global move number).
    pub occs: &'a [Occ],
    /// Start of each group of equal keys in `occs`, then `occs.len()`.
    pub groups: &'a [u32],
}

/// The widths of an occurrence for `total_moves` moves: (move number bits, record bits):
/// a whole number of bytes with at least 6 fingerprint bits, at most 64 bits (then fewer
/// fingerprint bits: only past 2^54 moves).
pub fn occurrence_widths(total_moves: u64) -> (u32, u32) {
    let ply_bits = bits_for(total_moves.max(1));
    (ply_bits, ((ply_bits + 4 + 6).div_ceil(8) * 8).min(64))
}

/// How an index of `total_moves` moves and `occurrences` occurrences stores a
/// fingerprint: (move number bits, the split into bucket bits and the bits an occurrence
/// keeps).
pub fn occurrence_split(total_moves: u64, occurrences: u64) -> (u32, Split) {
    let (ply_bits, width) = occurrence_widths(total_moves);
    let split = Split {
        bucket_bits: bits_for(occurrences).saturating_sub(4).clamp(1, 24),
        rem_bits: width - ply_bits - 4,
    };
    (ply_bits, split)
}

/// The shared positions found so far and their next moves (canonical orientation, by
/// code; with the games won by each colour).
#[derive(Default)]
struct SharedRows {
    keys: Vec<u64>,
    starts: Vec<u64>,
    counts: Vec<u64>,
    /// How many next moves each has.
    next_counts: Vec<u32>,
    next: Vec<NextCount>,
}

/// A next move of a shared position: its code in canonical orientation, then how many
/// times it was played, in games Black won, in games White won.
pub type NextCount = (u16, [u32; 3]);

/// Writes an index: the games first ([`IndexWriter::new`]), then the sorted occurrences
/// slice after slice in key order ([`IndexWriter::add`]), then the buckets, the shared
/// positions and the header ([`IndexWriter::finish`]). The file is the same however the
/// occurrences are sliced.
pub struct IndexWriter {
    body: StreamBody,
    header: IndexHeader,
    /// The pattern search's part of the file's header.
    pattern: PatternHeader,
    /// The game columns' part of the file's header.
    columns: ColumnsHeader,
    layout: OccurrenceLayout,
    split: Split,
    stream: PackedStream,
    /// Occurrences per fingerprint bucket.
    bucket_counts: Vec<u64>,
    /// Occurrences written so far.
    written: u64,
    shared_min: u32,
    shared: SharedRows,
}

impl IndexWriter {
    /// Writes the games' sections into `body` and starts the occurrences of an index of
    /// `occurrences` occurrences in all.
    pub fn new(
        mut body: StreamBody,
        games: GamesPart,
        game_count: usize,
        occurrences: u64,
        opts: &BuildOptions,
    ) -> Result<IndexWriter> {
        let (ply_bits, split) = occurrence_split(games.total_moves, occurrences);
        let Split {
            bucket_bits,
            rem_bits,
        } = split;
        let mut header = IndexHeader {
            max_moves: opts.max_moves.unwrap_or(0),
            shared_min: shared_min(opts),
            games: u32::try_from(game_count).context("too many games")? as u64,
            occurrences,
            sizes: games.sizes,
            ply_bits: ply_bits as u8,
            bucket_bits: bucket_bits as u8,
            rem_bits: rem_bits as u8,
            id_bytes: games.id_bytes as u8,
            ..IndexHeader::default()
        };
        header.games_section = body.rows(
            &games.rows,
            GameLayout {
                id_bytes: games.id_bytes,
            }
            .bytes(),
        )?;
        header.game_moves = body.packed(games.game_moves)?;
        header.game_setup = body.packed(games.game_setup)?;
        header.string_index = body.packed(games.string_index)?;
        header.strings = body.rows(&games.pool, 1)?;
        header.moves = body.packed(games.moves)?;
        header.setup = body.packed(games.setup)?;
        let pattern = match games.pattern {
            Some(p) => p.header(|d| match d {
                SectionData::Rows(bytes, width) => body.rows(bytes, width),
                SectionData::Packed(w) => body.packed(w),
            })?,
            None => PatternHeader::default(),
        };
        let columns = match games.columns {
            Some(c) => c.header(|d| match d {
                SectionData::Rows(bytes, width) => body.rows(bytes, width),
                SectionData::Packed(w) => body.packed(w),
            })?,
            None => ColumnsHeader::default(),
        };
        let layout = OccurrenceLayout { ply_bits, rem_bits };
        let stream = body.packed_stream(layout.bits())?;
        Ok(IndexWriter {
            body,
            header,
            pattern,
            columns,
            layout,
            split,
            stream,
            bucket_counts: vec![0; (1usize << bucket_bits) + 1],
            written: 0,
            shared_min: shared_min(opts),
            shared: SharedRows::default(),
        })
    }

    /// Adds the next slice of sorted occurrences (keys after those added before).
    pub fn add(&mut self, c: &SliceView) -> Result<()> {
        let shared_min = self.shared_min;
        self.add_with(c, || shared_positions(c, shared_min))
    }

    /// [`IndexWriter::add`] with the slice's shared positions given by `shared` (computed
    /// while the slice is packed): every group of at least `shared_min` occurrences, in
    /// order, each with its next moves as [`next_counts`] gives them.
    pub fn add_with(
        &mut self,
        c: &SliceView,
        shared: impl FnOnce() -> Vec<(usize, Vec<NextCount>)> + Send,
    ) -> Result<()> {
        let (packed, shared) = rayon::join(|| self.pack(c), shared);
        self.stream.append(&mut self.body, packed)?;
        self.count_buckets(c.occs);
        for (gi, next) in shared {
            let (s, e) = (c.groups[gi] as u64, c.groups[gi + 1] as u64);
            self.shared.keys.push(c.occs[s as usize].hi);
            self.shared.starts.push(self.written + s);
            self.shared.counts.push(e - s);
            self.shared.next_counts.push(next.len() as u32);
            self.shared.next.extend(next);
        }
        self.written += c.occs.len() as u64;
        self.header.positions += (c.groups.len() - 1) as u64;
        Ok(())
    }

    /// The slice's occurrence records, packed in parallel.
    fn pack(&self, c: &SliceView) -> BitWriter {
        let (layout, split) = (self.layout, self.split);
        pack_parallel(layout.bits(), c.occs.len(), |r, w| {
            // The first group starting at or after the range.
            let mut gi = c.groups.partition_point(|&s| (s as usize) < r.start);
            for i in r {
                let o = &c.occs[i];
                let start = c.groups.get(gi).is_some_and(|&s| s as usize == i);
                if start {
                    gi += 1;
                }
                w.push(layout.encode(OccurrenceRecord {
                    ply: o.ply as u64,
                    orientation: o.orientation(),
                    starts_position: start,
                    rem: split.split(o.hi).1,
                }));
            }
        })
    }

    /// Counts the slice's occurrences per fingerprint bucket. They are sorted by
    /// fingerprint, so each bucket is one run, found by walking them once per (parallel)
    /// piece.
    fn count_buckets(&mut self, occs: &[Occ]) {
        let split = self.split;
        let runs: Vec<Vec<(usize, u64)>> = occs
            .par_chunks(1 << 16)
            .map(|chunk| {
                let mut runs: Vec<(usize, u64)> = Vec::new();
                for o in chunk {
                    let b = split.split(o.hi).0 as usize;
                    match runs.last_mut() {
                        Some((last, n)) if *last == b => *n += 1,
                        _ => runs.push((b, 1)),
                    }
                }
                runs
            })
            .collect();
        for (b, n) in runs.into_iter().flatten() {
            self.bucket_counts[b + 1] += n;
        }
    }

    /// Writes the buckets, the shared positions and their next moves, and the header;
    /// returns the file.
    pub fn finish(mut self, report: &mut BuildReport) -> Result<Streamed> {
        if self.written != self.header.occurrences {
            anyhow::bail!(
                "{} occurrences written of {}",
                self.written,
                self.header.occurrences
            );
        }
        let body = &mut self.body;
        let header = &mut self.header;
        header.occurrences_section = self.stream.finish(body)?;
        let mut buckets = BitWriter::new(bits_for(self.written));
        let mut total = 0;
        for &b in &self.bucket_counts {
            total += b;
            buckets.push(total);
        }
        header.buckets = body.packed(buckets)?;
        report.records = self.written;
        report.positions = header.positions;
        let shared = encode_shared(&self.shared, self.written);
        header.count_bits = shared.count_bits as u8;
        header.shared_keys = body.packed(shared.keys)?;
        header.shared_starts = body.packed(shared.starts)?;
        header.shared_counts = body.packed(shared.counts)?;
        header.shared_next = body.packed(shared.next_starts)?;
        let [next, black, white] = shared.next;
        header.next = body.packed(next)?;
        header.next_black = body.packed(black)?;
        header.next_white = body.packed(white)?;
        let header = IndexFileHeader {
            index: self.header,
            pattern: self.pattern,
            columns: self.columns,
        };
        self.body.file(Kind::Index, &header)
    }
}

/// The groups of a slice with at least `shared_min` occurrences, each with its next moves
/// in canonical orientation (by code; with the games won by each colour).
fn shared_positions(c: &SliceView, shared_min: u32) -> Vec<(usize, Vec<NextCount>)> {
    let shared: Vec<usize> = (0..c.groups.len() - 1)
        .into_par_iter()
        .filter(|&gi| c.groups[gi + 1] - c.groups[gi] >= shared_min)
        .collect();
    shared
        .par_iter()
        .map_init(Vec::new, |codes, &gi| {
            let (s, e) = (c.groups[gi] as usize, c.groups[gi + 1] as usize);
            codes.clear();
            codes.extend(c.occs[s..e].iter().map(Occ::next_code));
            (gi, next_counts(codes))
        })
        .collect()
}

/// The next moves of a position from its occurrences' next codes (sorted here): by move
/// record, each with its count and the games won by each colour.
pub fn next_counts(codes: &mut [NextCode]) -> Vec<NextCount> {
    codes.sort_unstable_by_key(|n| n.move_code());
    let mut agg: Vec<NextCount> = Vec::new();
    for n in codes.iter() {
        let (code, winner) = (n.move_code(), n.winner());
        if agg.last().is_none_or(|a| a.0 != code) {
            agg.push((code, [0; 3]));
        }
        if let Some((_, a)) = agg.last_mut() {
            a[0] += 1;
            a[1] += (winner == 1) as u32;
            a[2] += (winner == 2) as u32;
        }
    }
    agg
}

/// The shared positions' columns and their next moves.
struct SharedPart {
    keys: BitWriter,
    starts: BitWriter,
    counts: BitWriter,
    next_starts: BitWriter,
    count_bits: u32,
    next: [BitWriter; 3],
}

/// Encodes the shared positions of an index of `occurrences` occurrences.
fn encode_shared(rows: &SharedRows, occurrences: u64) -> SharedPart {
    let n = rows.keys.len();
    let max_count = rows.next.iter().map(|n| n.1[0]).max().unwrap_or(1) as u64;
    let max_occurrences = rows.counts.iter().copied().max().unwrap_or(0);
    let n_next = rows.next.len() as u64;
    let mut keys = BitWriter::with_capacity(64, n);
    let mut starts = BitWriter::with_capacity(bits_for(occurrences), n);
    let mut counts = BitWriter::with_capacity(bits_for(max_occurrences), n);
    let mut next_starts = BitWriter::with_capacity(bits_for(n_next), n + 1);
    let mut ns = 0u64;
    for i in 0..n {
        keys.push(rows.keys[i]);
        starts.push(rows.starts[i]);
        counts.push(rows.counts[i]);
        next_starts.push(ns);
        ns += rows.next_counts[i] as u64;
    }
    next_starts.push(ns);
    let layout = NextLayout::for_max_count(max_count);
    let mut next = [layout.bits(), layout.count_bits, layout.count_bits]
        .map(|w| BitWriter::with_capacity(w, ns as usize));
    for &(code, [count, black_wins, white_wins]) in &rows.next {
        let (color, mv) = decode_move(code as u64).unwrap_or((Color::Black, Move::Pass));
        let records = layout.encode(StoredNext {
            color,
            mv,
            count: count as u64,
            black_wins: black_wins as u64,
            white_wins: white_wins as u64,
        });
        for (w, v) in next.iter_mut().zip(records) {
            w.push(v);
        }
    }
    SharedPart {
        keys,
        starts,
        counts,
        next_starts,
        count_bits: layout.count_bits,
        next,
    }
}
