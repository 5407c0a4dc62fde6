//! Writing a file atomically: to a temporary file in the output's folder, synced, then
//! renamed into place; a temporary file never outlives the process.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Writes `bytes` to `path` through a temporary file in the same folder, renamed into
/// place, so that readers never see a half-written file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    write_with(path, |w| w.write_all(bytes))
}

/// [`write_atomically`] with the bytes produced by `fill`.
fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<&std::fs::File>) -> std::io::Result<()>,
) -> Result<()> {
    persist(write_temporary(path, fill)?, path)
}

/// Writes the bytes produced by `fill` to a new temporary file in `path`'s folder and
/// syncs it; [`persist`] renames it into place, dropping it deletes it.
pub(super) fn write_temporary(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<&std::fs::File>) -> std::io::Result<()>,
) -> Result<tempfile::NamedTempFile> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let tmp = tempfile::NamedTempFile::new_in(&dir)
        .with_context(|| format!("cannot create a file in {}", dir.display()))?;
    {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, tmp.as_file());
        fill(&mut w)
            .and_then(|()| w.flush())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    tmp.as_file().sync_all().ok();
    Ok(tmp)
}

/// Renames a file written by [`write_temporary`] to `path`.
pub(super) fn persist(tmp: tempfile::NamedTempFile, path: &Path) -> Result<()> {
    tmp.persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
