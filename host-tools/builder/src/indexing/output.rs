//! Writing a file atomically: to a temporary file in the output's folder, synced, then
//! renamed into place; a temporary file never outlives the process.
//!
//! - A temporary file is named `.NAME.kifudex-PID-RANDOM.tmp` (NAME the output's file
//!   name, PID this process): recognisable, and owned.
//! - It is removed when dropped (success or failure), and on SIGINT or SIGTERM: the first
//!   temporary file installs a handler thread that removes every live one and ends the
//!   process with status 128 + the signal. Renaming into place and that removal exclude
//!   each other (one lock), so an interrupted build leaves either the old file or the new
//!   one, complete, and no temporary file.
//! - A process killed outright (SIGKILL, a crash) cannot clean up: the next write into the
//!   same folder removes the temporary files whose PID is no longer a running process
//!   (Linux: `/proc/PID`; elsewhere they are left alone).
//! - The file is created with mode 0666 less the umask, like any file the user creates
//!   (not the 0600 of a private temporary file).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once};

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

/// The temporary files of this process that exist now.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Installs (once) the thread that removes the live temporary files on SIGINT or SIGTERM
/// and ends the process.
fn remove_on_signals() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(sig) = signals.forever().next() {
                // Held until the process ends: no rename into place after this.
                let files = live();
                for f in files.iter() {
                    let _ = std::fs::remove_file(f);
                }
                std::process::exit(128 + sig);
            }
        });
    });
}

/// A temporary file of this process: removed when dropped, on SIGINT and SIGTERM.
pub(super) struct Temporary {
    /// `None` once persisted.
    file: Option<tempfile::NamedTempFile>,
    path: PathBuf,
}

impl Temporary {
    /// A new temporary file for `path`, in its folder.
    fn new(path: &Path) -> Result<Temporary> {
        remove_on_signals();
        let dir = folder(path);
        remove_stale(&dir);
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let prefix = format!(".{name}.kifudex-{}-", std::process::id());
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        // Created and registered under the lock, so that a signal cannot miss it.
        let mut files = live();
        let file = builder
            .tempfile_in(&dir)
            .with_context(|| format!("cannot create a file in {}", dir.display()))?;
        let path = file.path().to_path_buf();
        files.push(path.clone());
        Ok(Temporary {
            file: Some(file),
            path,
        })
    }

    fn as_file(&self) -> &std::fs::File {
        self.file.as_ref().expect("not persisted").as_file()
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        let mut files = live();
        // Removes the file (if not persisted), then forgets it.
        drop(self.file.take());
        files.retain(|f| f != &self.path);
    }
}

/// The folder a file at `path` is written into.
pub(super) fn folder(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The process id in a temporary file's name (`.NAME.kifudex-PID-RANDOM.tmp`).
fn owner(file_name: &str) -> Option<u32> {
    if !file_name.starts_with('.') || !file_name.ends_with(".tmp") {
        return None;
    }
    let rest = &file_name[file_name.rfind(".kifudex-")? + ".kifudex-".len()..];
    rest.split('-').next()?.parse().ok()
}

/// Removes the temporary files in `dir` left by processes that no longer run (killed
/// before they could clean up). Only where `/proc` tells which processes run.
fn remove_stale(dir: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = owner(&name.to_string_lossy()) else {
            continue;
        };
        if pid != std::process::id() && !Path::new("/proc").join(pid.to_string()).exists() {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// A scratch file in `dir` for data a build spills (occurrences, the index's body before
/// its header): anonymous where the system allows it (`O_TMPFILE` on Linux: it has no
/// name and disappears when closed, whatever ends the process), else created and
/// unlinked at once.
pub(super) fn scratch_file(dir: &Path) -> Result<std::fs::File> {
    tempfile::tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))
}

/// Writes the bytes produced by `fill` to a new temporary file in `path`'s folder and
/// syncs it; [`persist`] renames it into place, dropping it deletes it.
pub(super) fn write_temporary(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<&std::fs::File>) -> std::io::Result<()>,
) -> Result<Temporary> {
    use std::io::Write;
    let tmp = Temporary::new(path)?;
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
pub(super) fn persist(mut tmp: Temporary, path: &Path) -> Result<()> {
    let done = {
        // Under the lock: a signal now waits for the rename, then finds nothing to remove.
        let mut files = live();
        let file = tmp.file.take().expect("persisted once");
        // (On failure the file is removed at once, not kept alive in the error.)
        let done = file.persist(path).map(drop).map_err(|e| e.error);
        files.retain(|f| f != &tmp.path);
        done
    };
    drop(tmp);
    done.with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::owner;

    #[test]
    fn owners_of_temporary_files() {
        assert_eq!(owner(".out.kdx.kifudex-1234-AbC9.tmp"), Some(1234));
        assert_eq!(owner(".a.kifudex-b.kifudex-77-x.tmp"), Some(77));
        assert_eq!(owner("out.kdx.kifudex-1234-AbC9.tmp"), None);
        assert_eq!(owner(".out.kdx.kifudex-x-AbC9.tmp"), None);
        assert_eq!(owner(".out.kdx.tmp"), None);
    }
}
