//! What a build checks before it reads any input: that the output can be written where it
//! is asked for ([`check_output`]) and that every input path exists and can be read
//! ([`check_inputs`]). A typo in either fails in milliseconds, not after the whole
//! collection was read.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

/// An I/O error in words, without the Rust error's `(os error N)` tail.
pub fn io_words(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::NotFound => "no such file or folder".to_owned(),
        ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => {
            let s = e.to_string();
            match s.find(" (os error") {
                Some(i) => s[..i].to_owned(),
                None => s,
            }
        }
    }
}

/// The folder a file is written into (`.` for a bare file name).
fn folder_of(out: &Path) -> PathBuf {
    match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Fails unless `out` names a file that can be written: not an existing folder, in a
/// folder that exists and lets a file be created (tried with a temporary file, removed at
/// once).
pub fn check_output(out: &Path) -> Result<()> {
    let shown = out.display();
    if out.is_dir() {
        bail!(
            "cannot write the output {shown}: it is a folder (name the file to write, e.g. {})",
            out.join("games.kdx").display()
        );
    }
    let dir = folder_of(out);
    match std::fs::metadata(&dir) {
        Err(e) => bail!(
            "cannot write the output {shown}: its folder {}: {}",
            dir.display(),
            io_words(&e)
        ),
        Ok(m) if !m.is_dir() => bail!(
            "cannot write the output {shown}: {} is not a folder",
            dir.display()
        ),
        Ok(_) => {}
    }
    // An anonymous file (`O_TMPFILE` on Linux): a probe that never shows in the folder,
    // so an interrupt at this moment leaves nothing behind.
    if let Err(e) = tempfile::tempfile_in(&dir) {
        bail!(
            "cannot write the output {shown}: cannot create a file in {}: {}",
            dir.display(),
            io_words(&e)
        );
    }
    Ok(())
}

/// Fails, naming every one of them, if an input path does not exist or cannot be read
/// (a folder that cannot be listed, a file that cannot be opened). Special files (FIFOs,
/// devices) named on the command line are not opened here: reading one is what was asked.
pub fn check_inputs(paths: &[PathBuf]) -> Result<()> {
    let mut bad = Vec::new();
    for p in paths {
        let problem = match std::fs::metadata(p) {
            Err(e) => Some(io_words(&e)),
            Ok(m) if m.is_dir() => std::fs::read_dir(p).err().map(|e| io_words(&e)),
            Ok(m) if m.is_file() => std::fs::File::open(p).err().map(|e| io_words(&e)),
            Ok(_) => None,
        };
        if let Some(why) = problem {
            bad.push(format!("{}: {why}", p.display()));
        }
    }
    match bad.len() {
        0 => Ok(()),
        1 => bail!("cannot read the input {}", bad[0]),
        n => bail!(
            "cannot read {n} inputs:{}",
            bad.iter().map(|b| format!("\n  {b}")).collect::<String>()
        ),
    }
}
