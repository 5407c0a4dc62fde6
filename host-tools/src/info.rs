//! `kifudex info`: what an index or a book holds.

use std::fmt::Write;

use anyhow::{anyhow, Result};
use kifudex_core::book::Book;
use kifudex_core::format::{Container, Kind, Section};
use kifudex_core::index::Index;

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
        "  {name:<16} {:>10} records x {:>3} bits = {:>10} bytes",
        sec.count, sec.width_bits, sec.len
    );
}

/// Describes an index or a book after validating it completely.
pub fn describe(bytes: &[u8]) -> Result<String> {
    let mut s = String::new();
    if Container::open(bytes, Kind::Book).is_ok() {
        let book = Book::open(bytes).map_err(|e| anyhow!("not a valid book: {e}"))?;
        let h = book.header();
        let _ = writeln!(s, "kifudex book (microcontroller), {} bytes", bytes.len());
        let _ = writeln!(
            s,
            "  games {}, positions {}, next moves {} (at most {} per position)",
            h.games, h.positions, h.next_moves, h.max_run
        );
        let _ = writeln!(
            s,
            "  max moves {}, min count {}, max next {}, sizes {}",
            h.max_moves,
            h.min_count,
            h.max_next,
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
        return Ok(s);
    }
    let index = Index::open(bytes).map_err(|e| anyhow!("not a valid index: {e}"))?;
    let h = index.header();
    let _ = writeln!(
        s,
        "kifudex index, {} bytes ({:.0} bytes per game)",
        bytes.len(),
        bytes.len() as f64 / h.games.max(1) as f64
    );
    let _ = writeln!(
        s,
        "  games {}, occurrences {}, positions {}",
        h.games, h.occurrences, h.positions
    );
    let _ = writeln!(
        s,
        "  max moves {}, sizes {}",
        if h.max_moves == 0 {
            "all".to_string()
        } else {
            h.max_moves.to_string()
        },
        sizes(&h.sizes)
    );
    section(&mut s, "games", &h.games_section);
    section(&mut s, "string index", &h.string_index);
    section(&mut s, "strings", &h.strings);
    section(&mut s, "moves", &h.moves);
    section(&mut s, "setup", &h.setup);
    section(&mut s, "occurrences", &h.occurrences_section);
    section(&mut s, "buckets", &h.buckets);
    section(&mut s, "shared", &h.shared);
    section(&mut s, "next", &h.next);
    Ok(s)
}
