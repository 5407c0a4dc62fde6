//! The bundled sample: 286 professional games (gokifu.com, 2011-2012) from bGo's test
//! archive, embedded in the binary and indexed in memory when no index is given.
//! Provenance and licence: `data/sample/README.md`.

use anyhow::{bail, Result};

use crate::indexing::{self, BuildOptions};
use crate::input;

/// The archive's name (also the file name shown for its games).
pub const SAMPLE_NAME: &str = "TestSGF.tgz";

/// The archive's bytes.
pub const SAMPLE_TGZ: &[u8] = include_bytes!("../../../data/sample/TestSGF.tgz");

/// The bundled sample's game records (the archive's members).
pub fn sample_sources() -> Result<Vec<input::Source>> {
    let mut sources = Vec::new();
    let mut skipped = Vec::new();
    input::collect_archive(SAMPLE_NAME, SAMPLE_TGZ.to_vec(), &mut sources, &mut skipped);
    if let Some(s) = skipped.first() {
        bail!("the bundled sample cannot be read: {s}");
    }
    Ok(sources)
}

/// Builds the desktop index of the bundled sample in memory.
pub fn sample_index() -> Result<Vec<u8>> {
    let (bytes, _) = indexing::build_in_memory(sample_sources()?, &[], &BuildOptions::default())?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifudex_core::index::Index;

    #[test]
    fn sample_index_holds_every_game() {
        let bytes = sample_index().unwrap();
        let index = Index::open(&bytes).unwrap();
        assert_eq!(index.game_count(), 286);
    }

    /// Next moves counted occurrence by occurrence with a filter that keeps everything
    /// equal the stored statistics, for popular (precomputed) and rare positions alike.
    #[test]
    fn unfiltered_where_equals_next_moves() {
        use kifudex_core::query::position_after;
        use kifudex_core::search::NextMoves;
        use kifudex_core::Size;
        let bytes = sample_index().unwrap();
        let index = Index::open(&bytes).unwrap();
        let size = Size::square(19).unwrap();
        for moves in [
            "",
            "pd",
            "pd,dp",
            "pd,dp,pp",
            "pd,dp,pp,dd",
            "qd,dd,pq,dp,oc",
        ] {
            let (board, _) = position_after(moves, size).unwrap();
            for swap in [false, true] {
                let a: NextMoves = index.next_moves(&board, swap).unwrap();
                let b: NextMoves = index.next_moves_where(&board, swap, |_| true).unwrap();
                assert_eq!(a.classes(), b.classes(), "{moves} swap {swap}");
                assert_eq!(a.total(), b.total());
            }
        }
    }

    /// A year filter counts exactly the occurrences from games of those years.
    #[test]
    fn year_filter_splits_the_counts() {
        use kifudex_core::query::position_after;
        use kifudex_core::search::NextMoves;
        use kifudex_core::Size;
        let bytes = sample_index().unwrap();
        let index = Index::open(&bytes).unwrap();
        let (board, _) = position_after("", Size::square(19).unwrap()).unwrap();
        let total = |f: &dyn Fn(u16) -> bool| {
            let n: NextMoves = index
                .next_moves_where(&board, false, |g| g.year().is_some_and(f))
                .unwrap();
            n.total()
        };
        assert_eq!(total(&|y| y == 2011), 1);
        assert_eq!(total(&|y| y == 2012), 285);
        assert_eq!(total(&|_| true), 286);
    }
}
