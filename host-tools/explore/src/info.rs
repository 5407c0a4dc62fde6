//! `kifudex info`: what an index or a book holds.

use std::fmt::Write;

use anyhow::{anyhow, Result};
use kifudex_core::book::Book;
use kifudex_core::format::{Container, Kind, Section};
use kifudex_core::index_file::{IndexFile, IndexFileHeader};

use crate::numbers::{games_kept, limit, occurrences, thousands, GAMES_KEPT, OCCURRENCES};

fn sizes(mask: &[u32; 19]) -> String {
    let mut out = Vec::new();
    for (h, row) in mask.iter().enumerate() {
        for w in 0..19 {
            if row & (1 << w) != 0 {
                out.push(format!("{}x{}", w + 1, h + 1));
            }
        }
    }
    out.join(" ")
}

fn section(s: &mut String, name: &str, sec: &Section) {
    let _ = writeln!(
        s,
        "  {name:<16} {:>10} records x {:>4} bits = {:>10} bytes",
        sec.count, sec.width_bits, sec.len
    );
}

/// Describes an index or a book. A book is always validated completely; an index only
/// structurally ([`IndexFile::open`]), unless `verify` asks for the whole check
/// ([`IndexFile::verify`]: the body's checksum and every record).
pub fn describe(bytes: &[u8], verify: bool) -> Result<String> {
    let mut s = String::new();
    if Container::open_structure(bytes, Kind::Book).is_ok() {
        let book = Book::open(bytes).map_err(|e| anyhow!("not a valid book: {e}"))?;
        let h = book.header();
        let _ = writeln!(
            s,
            "kifudex book (microcontroller), {} bytes",
            thousands(bytes.len() as u64)
        );
        // A book keeps no games, only how many (and not which have no moves).
        let _ = writeln!(s, "  {}:          {}", GAMES_KEPT, thousands(h.games));
        let _ = writeln!(s, "  positions:           {}", thousands(h.positions));
        let _ = writeln!(
            s,
            "  next moves:          {} (at most {} per position)",
            thousands(h.next_moves),
            h.max_run
        );
        let _ = writeln!(
            s,
            "  max moves {}, min count {}, max next {}, sizes {}",
            limit(h.max_moves),
            h.min_count,
            limit(h.max_next),
            sizes(&h.sizes)
        );
        let _ = writeln!(
            s,
            "  {:.2} bytes per stored next move; key bits {} + {}",
            bytes.len() as f64 / h.next_moves.max(1) as f64,
            h.bucket_bits,
            h.rem_bits
        );
        section(&mut s, "bucket positions", &h.bucket_positions);
        section(&mut s, "bucket moves", &h.bucket_moves);
        section(&mut s, "keys", &h.keys);
        section(&mut s, "next", &h.next);
        if let Some(p) = book.predictor() {
            let p = p.header();
            let _ = writeln!(
                s,
                "  predictor:           {} patterns learnt from {} games",
                thousands(p.patterns),
                thousands(p.games as u64)
            );
            section(&mut s, "pattern buckets", &p.buckets);
            section(&mut s, "patterns", &p.records);
            section(&mut s, "group values", &p.groups);
        }
        return Ok(s);
    }
    let file = if verify {
        IndexFile::open_verified(bytes)
    } else {
        IndexFile::open(bytes)
    }
    .map_err(|e| anyhow!(crate::invalid_index(e)))?;
    let index = &file.index;
    let ph = file.pattern_header();
    let h = index.header();
    let without_moves = (0..index.game_count())
        .filter(|&id| index.game(id).is_some_and(|g| g.move_count == 0))
        .count() as u64;
    let _ = writeln!(
        s,
        "kifudex index, {} bytes ({} bytes per game)",
        thousands(bytes.len() as u64),
        thousands((bytes.len() as f64 / h.games.max(1) as f64).round() as u64)
    );
    let _ = writeln!(
        s,
        "  {}:          {}",
        GAMES_KEPT,
        games_kept(h.games, without_moves)
    );
    let _ = writeln!(
        s,
        "  {}:         {}",
        OCCURRENCES,
        occurrences(h.occurrences)
    );
    let _ = writeln!(s, "  positions:           {}", thousands(h.positions));
    let _ = writeln!(
        s,
        "  max moves {}, sizes {}",
        limit(h.max_moves),
        sizes(&h.sizes)
    );
    if verify {
        let _ = writeln!(s, "  verified: checksums and every record");
    }
    for (name, sec) in [
        ("games", &h.games_section),
        ("game moves", &h.game_moves),
        ("game setup", &h.game_setup),
        ("string index", &h.string_index),
        ("strings", &h.strings),
        ("moves", &h.moves),
        ("setup", &h.setup),
        ("occurrences", &h.occurrences_section),
        ("buckets", &h.buckets),
        ("shared keys", &h.shared_keys),
        ("shared starts", &h.shared_starts),
        ("shared counts", &h.shared_counts),
        ("shared next", &h.shared_next),
        ("next", &h.next),
        ("next black wins", &h.next_black),
        ("next white wins", &h.next_white),
    ]
    .into_iter()
    .chain(ph.sections())
    {
        section(&mut s, name, sec);
    }
    let pattern_bytes = ph.bytes();
    let _ = writeln!(
        s,
        "  pattern search:      {} bytes ({:.1} bytes per game; docs/PATTERNS.md)",
        thousands(pattern_bytes),
        pattern_bytes as f64 / h.games.max(1) as f64
    );
    // The header decoded when the file was opened: it decodes again.
    let columns = index
        .container()
        .header::<IndexFileHeader>()
        .map(|h| h.columns)
        .map_err(|e| anyhow!(crate::invalid_index(e)))?;
    for (name, sec) in columns.sections() {
        section(&mut s, name, sec);
    }
    let column_bytes = columns.bytes();
    let _ = writeln!(
        s,
        "  game columns:        {} bytes ({:.1} bytes per game; docs/FORMAT.md)",
        thousands(column_bytes),
        column_bytes as f64 / h.games.max(1) as f64
    );
    Ok(s)
}

/// Verifies an index or a book completely (checksums and every record); says what it is.
pub fn verify(bytes: &[u8]) -> Result<String> {
    if Container::open_structure(bytes, Kind::Book).is_ok() {
        let book = Book::open(bytes).map_err(|e| anyhow!("not a valid book: {e}"))?;
        return Ok(format!(
            "a valid book ({} positions, {} next moves)",
            book.header().positions,
            book.header().next_moves
        ));
    }
    let file = IndexFile::open_verified(bytes).map_err(|e| anyhow!(crate::invalid_index(e)))?;
    let h = file.index.header();
    Ok(format!(
        "a valid index ({} games, {} positions)",
        h.games, h.positions
    ))
}
