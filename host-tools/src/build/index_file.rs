//! Encoding the desktop index (layout: [`kifudex_core::index`], `docs/FORMAT.md`).

use std::collections::HashMap;

use anyhow::{Context, Result};
use kifudex_core::format::{bits_for, Kind};
use kifudex_core::index::{
    game_row, next_record_bits, split_fingerprint, IndexHeader, GAME_BYTES, MOVE_BITS, SETUP_BITS,
};
use kifudex_core::{Color, Move, Transform};

use super::bits::{BitWriter, Body, EncodedFile};
use super::replay::ReplayedGame;
use super::{BuildOptions, BuildReport, Collected};
use crate::sgf::Margin;

/// The deduplicated string pool; id 0 is the empty string.
struct Strings {
    ids: HashMap<String, u32>,
    list: Vec<String>,
}

impl Strings {
    fn new() -> Strings {
        Strings {
            ids: HashMap::from([(String::new(), 0)]),
            list: vec![String::new()],
        }
    }

    fn id(&mut self, s: Option<&str>) -> u32 {
        let s = s.unwrap_or("");
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.list.len() as u32;
        self.ids.insert(s.to_string(), id);
        self.list.push(s.to_string());
        id
    }
}

fn margin_code(m: Margin) -> (u8, i32) {
    let tenths = match m {
        Margin::Points(t) => t,
        _ => 0,
    };
    (m.code(), tenths)
}

fn game_row(
    g: &ReplayedGame,
    move_start: u32,
    setup_start: u32,
    strings: &mut Strings,
) -> [u8; GAME_BYTES] {
    let mut row = [0u8; GAME_BYTES];
    let put = |row: &mut [u8; GAME_BYTES], at: usize, v: u32| {
        row[at..at + 4].copy_from_slice(&v.to_le_bytes())
    };
    let info = &g.record.info;
    put(&mut row, game_row::MOVE_START, move_start);
    put(&mut row, game_row::MOVE_COUNT, g.moves.len() as u32);
    put(&mut row, game_row::SETUP_START, setup_start);
    put(&mut row, game_row::SETUP_COUNT, g.setup.len() as u32);
    put(&mut row, game_row::DATE, g.date_key);
    row[game_row::WIDTH] = g.record.size.width();
    row[game_row::HEIGHT] = g.record.size.height();
    row[game_row::HANDICAP] = info.handicap.unwrap_or(0).min(255) as u8;
    let (winner, margin, tenths) = match &info.result {
        Some(r) => {
            let w = match r.winner {
                Some(Color::Black) => 1,
                Some(Color::White) => 2,
                None => 0,
            };
            let (m, t) = margin_code(r.margin);
            (w, m, t)
        }
        None => (0, 0, 0),
    };
    row[game_row::RESULT] = winner | margin << 2;
    put(&mut row, game_row::MARGIN, tenths as u32);
    put(
        &mut row,
        game_row::KOMI,
        info.komi.unwrap_or(i32::MIN) as u32,
    );
    let result_raw = info.result.as_ref().map(|r| r.raw.as_str());
    let texts = [
        info.black.as_deref(),
        info.white.as_deref(),
        info.black_rank.as_deref(),
        info.white_rank.as_deref(),
        info.event.as_deref(),
        info.round.as_deref(),
        info.place.as_deref(),
        info.date.as_deref(),
        result_raw,
        Some(g.record.source.path.as_str()),
        g.record.source.member.as_deref(),
    ];
    for (k, t) in texts.into_iter().enumerate() {
        let id = strings.id(t);
        put(&mut row, game_row::STRINGS + 4 * k, id);
    }
    put(&mut row, game_row::TREE, g.record.source.tree_index as u32);
    let rules = strings.id(info.rules.as_deref());
    put(&mut row, game_row::RULES, rules);
    let name = strings.id(info.game_name.as_deref());
    put(&mut row, game_row::NAME, name);
    row
}

/// Encodes the index file.
pub fn encode(c: &Collected, opts: &BuildOptions, report: &mut BuildReport) -> Result<EncodedFile> {
    let mut body = Body::default();
    let mut header = IndexHeader {
        max_moves: opts.max_moves.unwrap_or(0),
        shared_min: opts.shared_min.max(2),
        games: u32::try_from(c.games.len()).context("too many games")?,
        occurrences: c.occs.len() as u64,
        positions: (c.groups.len() - 1) as u64,
        ..IndexHeader::default()
    };
    // Games, strings, moves, setup.
    let mut strings = Strings::new();
    let mut rows = Vec::with_capacity(c.games.len() * GAME_BYTES);
    let mut moves = BitWriter::with_capacity(MOVE_BITS, c.occs.len());
    let mut setup = BitWriter::new(SETUP_BITS);
    let mut setup_start = 0u32;
    for (g, &ms) in c.games.iter().zip(&c.move_starts) {
        let size = g.record.size;
        header.sizes[size.height() as usize - 1] |= 1 << (size.width() - 1);
        rows.extend_from_slice(&game_row(g, ms, setup_start, &mut strings));
        for &m in &g.moves {
            moves.push(m as u64);
        }
        for &(before, point, stone) in &g.setup {
            setup.push(before as u64 | (point as u64) << 16 | (stone as u64) << 25);
        }
        setup_start += g.setup.len() as u32;
    }
    header.games_section = body.rows(rows, GAME_BYTES);
    let total_bytes: usize = strings.list.iter().map(|s| s.len()).sum();
    let mut idx = BitWriter::new(bits_for(total_bytes as u64).max(8));
    let mut pool = Vec::with_capacity(total_bytes);
    idx.push(0);
    for s in &strings.list {
        pool.extend_from_slice(s.as_bytes());
        idx.push(pool.len() as u64);
    }
    header.string_index = body.packed(idx);
    header.strings = body.rows(pool, 1);
    header.moves = body.packed(moves);
    header.setup = body.packed(setup);

    // Occurrences and buckets.
    let total_moves = c.move_starts.last().copied().unwrap_or(0) as u64
        + c.games.last().map_or(0, |g| g.moves.len() as u64);
    let ply_bits = bits_for(total_moves.max(1));
    let bucket_bits = bits_for(c.occs.len() as u64).saturating_sub(4).clamp(1, 24);
    let width = (ply_bits + 4 + 6).div_ceil(8) * 8;
    let rem_bits = width - ply_bits - 4;
    header.ply_bits = ply_bits as u8;
    header.bucket_bits = bucket_bits as u8;
    header.rem_bits = rem_bits as u8;
    let mut occ = BitWriter::with_capacity(width, c.occs.len());
    let mut bucket_counts = vec![0u64; (1usize << bucket_bits) + 1];
    let mut gi = 0usize;
    for (i, o) in c.occs.iter().enumerate() {
        let start = c.groups.get(gi).is_some_and(|&s| s as usize == i);
        if start {
            gi += 1;
        }
        let (bucket, rem) = split_fingerprint(o.hi, bucket_bits, rem_bits);
        bucket_counts[bucket as usize + 1] += 1;
        occ.push(
            o.ply as u64
                | (o.orient as u64) << ply_bits
                | (start as u64) << (ply_bits + 3)
                | rem << (ply_bits + 4),
        );
    }
    for b in 1..bucket_counts.len() {
        bucket_counts[b] += bucket_counts[b - 1];
    }
    let mut buckets = BitWriter::new(bits_for(c.occs.len() as u64));
    for &b in &bucket_counts {
        buckets.push(b);
    }
    header.occurrences_section = body.packed(occ);
    header.buckets = body.packed(buckets);
    report.records = c.occs.len() as u64;

    // Shared positions and their next moves, in canonical orientation.
    let mut shared_rows = Vec::new();
    let mut next: Vec<(u16, [u32; 3])> = Vec::new();
    for w in c.groups.windows(2) {
        let (s, e) = (w[0] as usize, w[1] as usize);
        if e - s < header.shared_min as usize {
            continue;
        }
        let mut agg: std::collections::BTreeMap<u16, [u32; 3]> = std::collections::BTreeMap::new();
        for o in &c.occs[s..e] {
            let g = c.game_of_ply(o.ply);
            let game = &c.games[g];
            let code = game.moves[(o.ply - c.move_starts[g]) as usize];
            let canon = canonical_code(code, o.orient, game.record.size);
            let winner = game.record.info.result.as_ref().and_then(|r| r.winner);
            let a = agg.entry(canon).or_default();
            a[0] += 1;
            a[1] += (winner == Some(Color::Black)) as u32;
            a[2] += (winner == Some(Color::White)) as u32;
        }
        let ns = next.len() as u32;
        next.extend(agg);
        shared_rows.extend_from_slice(&c.occs[s].hi.to_le_bytes());
        shared_rows.extend_from_slice(&(s as u32).to_le_bytes());
        shared_rows.extend_from_slice(&((e - s) as u32).to_le_bytes());
        shared_rows.extend_from_slice(&ns.to_le_bytes());
        shared_rows.extend_from_slice(&(next.len() as u32 - ns).to_le_bytes());
    }
    let max_count = next.iter().map(|n| n.1[0]).max().unwrap_or(1) as u64;
    let (cb, nbits) = next_record_bits(max_count);
    header.count_bits = cb as u8;
    let mut nw = BitWriter::new(nbits);
    for (code, [n, b, w]) in &next {
        nw.push(
            *code as u64
                | (*n as u64) << 10
                | (*b as u64) << (10 + cb)
                | (*w as u64) << (10 + 2 * cb),
        );
    }
    header.shared = body.rows(shared_rows, 24);
    header.next = body.packed(nw);

    let head = postcard::to_allocvec(&header).context("encoding the index header")?;
    Ok(body.file(Kind::Index, head))
}

/// A stored move code (`code | colour << 9`) mapped into the canonical orientation.
pub fn canonical_code(code: u16, orient: u8, size: kifudex_core::Size) -> u16 {
    let color_bit = code & (1 << 9);
    let mv = Move::from_code(code & 0x1ff).unwrap_or(Move::Pass);
    let mapped = match mv {
        Move::Pass => Move::Pass,
        Move::Play(p) => Transform::ALL[orient as usize & 7]
            .apply(p, size)
            .map_or(Move::Pass, Move::Play),
    };
    mapped.code() | color_bit
}
