//! The games holding a pattern, exported as SGF: a folder of files or one `.zip`, each
//! game written by the project's SGF writer (`crate::sgf::write`, through
//! [`super::record::stored_sgf`], as the web board serves a game) from the index's stored
//! game.
//!
//! The output appears whole or not at all: it is written beside its destination under a
//! temporary name and renamed at the end (a folder must not exist yet, or be empty); a
//! failure leaves nothing behind.

use std::io::Write;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use kifudex_core::index::Index;

use super::record::stored_sgf;

/// How the games are written: one file per game in a folder, or one zip archive.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExportKind {
    /// A folder of `.sgf` files.
    Folder,
    /// A `.zip` archive of `.sgf` files (deflated).
    Zip,
}

impl ExportKind {
    /// A zip archive when `path` ends in `.zip` (any case), else a folder.
    pub fn of(path: &Path) -> ExportKind {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("zip") => ExportKind::Zip,
            _ => ExportKind::Folder,
        }
    }
}

/// The name of game `id`'s file: its id, zero-padded to the width of the largest id, so
/// that the files list in the index's order (newest first).
pub fn file_name(id: u32, games: u32) -> String {
    let width = games.saturating_sub(1).max(1).ilog10() as usize + 1;
    format!("{id:0width$}.sgf")
}

/// Writes the games `ids` of `index` (those with a hit of a pattern query, from its scan)
/// to `dest`, a folder or a `.zip` ([`ExportKind::of`]), and returns how many.
pub fn write_games(index: &Index<'_>, ids: &[u32], dest: &Path) -> Result<usize> {
    let name = dest.display();
    let parent = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        bail!("{name}: the folder {} does not exist", parent.display());
    }
    let games = index.game_count();
    let sgf = |id: u32| stored_sgf(index, id).map_err(|e| anyhow!("game {id}: {e}"));
    match ExportKind::of(dest) {
        ExportKind::Zip => {
            if dest.is_dir() {
                bail!("{name} is a folder, not a .zip file");
            }
            let tmp = tempfile::Builder::new()
                .prefix(".kifudex-export-")
                .suffix(".zip.tmp")
                .tempfile_in(parent)
                .with_context(|| format!("{name}: cannot create a file in {}", parent.display()))?;
            let mut zip = zip::ZipWriter::new(std::io::BufWriter::new(tmp.as_file()));
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated);
            for &id in ids {
                zip.start_file(file_name(id, games), options)
                    .with_context(|| format!("{name}: cannot write"))?;
                zip.write_all(sgf(id)?.as_bytes())
                    .with_context(|| format!("{name}: cannot write"))?;
            }
            let mut out = zip
                .finish()
                .with_context(|| format!("{name}: cannot write"))?;
            out.flush()
                .with_context(|| format!("{name}: cannot write"))?;
            drop(out);
            tmp.persist(dest)
                .map_err(|e| anyhow!("{name}: cannot write: {}", e.error))?;
        }
        ExportKind::Folder => {
            if dest.exists() && !is_empty_dir(dest) {
                bail!("{name} exists and is not an empty folder");
            }
            let tmp = tempfile::Builder::new()
                .prefix(".kifudex-export-")
                .tempdir_in(parent)
                .with_context(|| {
                    format!("{name}: cannot create a folder in {}", parent.display())
                })?;
            for &id in ids {
                let path = tmp.path().join(file_name(id, games));
                std::fs::write(&path, sgf(id)?)
                    .with_context(|| format!("{name}: cannot write {}", path.display()))?;
            }
            let tmp = tmp.keep();
            if let Err(e) = std::fs::rename(&tmp, dest) {
                let _ = std::fs::remove_dir_all(&tmp);
                return Err(e).with_context(|| format!("{name}: cannot write"));
            }
        }
    }
    Ok(ids.len())
}

fn is_empty_dir(p: &Path) -> bool {
    std::fs::read_dir(p).is_ok_and(|mut d| d.next().is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sort_in_id_order() {
        assert_eq!(file_name(7, 286), "007.sgf");
        assert_eq!(file_name(285, 286), "285.sgf");
        assert_eq!(file_name(0, 1), "0.sgf");
        assert_eq!(file_name(9, 10), "9.sgf");
        assert_eq!(file_name(10, 11), "10.sgf");
        assert_eq!(ExportKind::of(Path::new("a/b.ZIP")), ExportKind::Zip);
        assert_eq!(ExportKind::of(Path::new("a/b")), ExportKind::Folder);
    }
}
