//! Encoding the microcontroller book (layout: [`kifudex_core::book`], `docs/FORMAT.md`).

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use kifudex_core::book::{BookHeader, BookNextLayout};
use kifudex_core::format::{bits_for, Kind};
use kifudex_core::stored::decode_move;
use kifudex_core::{Color, Move};

use kifudex_core::format::{BitWriter, Body, EncodedFile};
use kifudex_core::predict::table::TableOptions;

use crate::indexing::occurrence::canonical_code;
use crate::indexing::occurrences::Collected;
use crate::indexing::options::BuildOptions;
use crate::indexing::report::BuildReport;

/// Fingerprint bits stored per position after the bucket bits.
pub const REM_BITS: u32 = 32;

/// Encodes the book file.
pub fn encode(c: &Collected, opts: &BuildOptions, report: &mut BuildReport) -> Result<EncodedFile> {
    // Every position's next moves in canonical orientation, pruned.
    let mut positions: Vec<(u128, Vec<(u16, u32)>)> = Vec::new();
    let mut sizes = [0u32; 19];
    for w in c.groups.windows(2) {
        let (s, e) = (w[0] as usize, w[1] as usize);
        let mut agg: BTreeMap<u16, u32> = BTreeMap::new();
        let mut size = None;
        for o in &c.occs[s..e] {
            let g = c.game_of_ply(o.ply);
            let game = &c.games[g];
            let code = game.moves[(o.ply - c.move_starts[g]) as usize];
            *agg.entry(canonical_code(code, o.orientation(), game.record.size))
                .or_default() += 1;
            size = Some(game.record.size);
        }
        let mut moves: Vec<(u16, u32)> = agg
            .into_iter()
            .filter(|&(_, n)| n >= opts.min_count)
            .collect();
        // Most played first; ties by colour (Black first) then point, as the search
        // orders them.
        let order = |code: u16| decode_move(code as u64).map(|(color, mv)| (color, mv.code()));
        moves.sort_by(|a, b| b.1.cmp(&a.1).then(order(a.0).cmp(&order(b.0))));
        if let Some(cap) = opts.max_next {
            moves.truncate(cap as usize);
        }
        if moves.is_empty() {
            continue;
        }
        if let Some(sz) = size {
            sizes[sz.height() as usize - 1] |= 1 << (sz.width() - 1);
        }
        let key = c.occs[s].key().0;
        positions.push((key, moves));
    }
    let n_pos = positions.len() as u64;
    let bucket_bits = bits_for(n_pos).saturating_sub(4).clamp(1, 20);
    // Pick the first rotation under which no two positions share their stored bits.
    let mut chosen = None;
    for rotate in (0..128u32).step_by(8) {
        let probe = BookHeader {
            bucket_bits: bucket_bits as u8,
            rotate: rotate as u8,
            rem_bits: REM_BITS as u8,
            ..BookHeader::default()
        };
        let mut split: Vec<(u64, u64, usize)> = positions
            .iter()
            .enumerate()
            .map(|(i, (k, _))| {
                let (b, r) = probe.split(kifudex_core::hash::Key(*k));
                (b, r, i)
            })
            .collect();
        split.sort_unstable();
        if split
            .windows(2)
            .all(|w| (w[0].0, w[0].1) != (w[1].0, w[1].1))
        {
            chosen = Some((rotate, split));
            break;
        }
    }
    let Some((rotate, order)) = chosen else {
        bail!("could not find a fingerprint rotation without collisions");
    };
    let max_count = positions
        .iter()
        .flat_map(|p| p.1.iter().map(|m| m.1))
        .max()
        .unwrap_or(1) as u64;
    let count_bits = bits_for(max_count);
    let layout = BookNextLayout { count_bits };
    let n_next: u64 = positions.iter().map(|p| p.1.len() as u64).sum();
    let buckets = (1usize << bucket_bits) + 1;
    let mut bp = vec![0u64; buckets];
    let mut bm = vec![0u64; buckets];
    let mut keys = BitWriter::new(REM_BITS);
    let mut next = BitWriter::new(layout.bits());
    let mut max_run = 0u32;
    for &(bucket, rem, i) in &order {
        bp[bucket as usize + 1] += 1;
        keys.push(rem);
        let moves = &positions[i].1;
        bm[bucket as usize + 1] += moves.len() as u64;
        max_run = max_run.max(moves.len() as u32);
        for (j, &(code, n)) in moves.iter().enumerate() {
            let (color, mv) = decode_move(code as u64).unwrap_or((Color::Black, Move::Pass));
            next.push(layout.encode(color, mv, n, j + 1 == moves.len()));
        }
    }
    for b in 1..buckets {
        bp[b] += bp[b - 1];
        bm[b] += bm[b - 1];
    }
    let mut bpw = BitWriter::new(bits_for(n_pos));
    let mut bmw = BitWriter::new(bits_for(n_next));
    for b in 0..buckets {
        bpw.push(bp[b]);
        bmw.push(bm[b]);
    }
    let mut body = Body::new();
    let header = BookHeader {
        max_moves: opts.max_moves.unwrap_or(0),
        min_count: opts.min_count,
        max_next: opts.max_next.unwrap_or(0),
        games: c.games.len() as u64,
        positions: n_pos,
        next_moves: n_next,
        max_run,
        sizes,
        bucket_bits: bucket_bits as u8,
        rotate: rotate as u8,
        rem_bits: REM_BITS as u8,
        count_bits: count_bits as u8,
        bucket_positions: body.packed(bpw),
        bucket_moves: body.packed(bmw),
        keys: body.packed(keys),
        next: body.packed(next),
    };
    report.records = n_next;
    report.positions = n_pos;
    let file = match &opts.predictor {
        None => body.file(Kind::Book, &header),
        Some(train) => {
            let t = std::time::Instant::now();
            let model = crate::predict::train(&c.games, train, |m| {
                if opts.progress {
                    eprintln!("predictor: {m}");
                }
            });
            let (predictor, stats) =
                crate::predict::table::add_to(&model, &TableOptions::default(), &mut body);
            report.predictor = Some(format!(
                "{} patterns in {} bytes, learnt from {} games in {:.1} s",
                stats.patterns,
                stats.bytes,
                model.games,
                t.elapsed().as_secs_f64()
            ));
            body.file(Kind::Book, &(header, predictor))
        }
    };
    file.map_err(|e| anyhow::anyhow!("encoding the book header: {e}"))
}
