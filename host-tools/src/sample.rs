//! The bundled sample: 286 professional games (gokifu.com, 2011-2012) from bGo's test
//! archive, embedded in the binary and indexed in memory when no index is given.
//! Provenance and licence: `data/sample/README.md`.

use anyhow::{bail, Result};

use crate::build::{self, BuildOptions};
use crate::input;

/// The archive's name (also the file name shown for its games).
pub const SAMPLE_NAME: &str = "TestSGF.tgz";

/// The archive's bytes.
pub const SAMPLE_TGZ: &[u8] = include_bytes!("../../data/sample/TestSGF.tgz");

/// Builds the desktop index of the bundled sample in memory.
pub fn sample_index() -> Result<Vec<u8>> {
    let mut sources = Vec::new();
    let mut skipped = Vec::new();
    input::collect_archive(SAMPLE_NAME, SAMPLE_TGZ.to_vec(), &mut sources, &mut skipped);
    if let Some(s) = skipped.first() {
        bail!("the bundled sample cannot be read: {s}");
    }
    let (bytes, _) = build::build_in_memory(sources, &skipped, &BuildOptions::default())?;
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
}
