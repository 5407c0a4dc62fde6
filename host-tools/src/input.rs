//! Collecting the SGF sources of a build: files, folders, `.tgz`/`.tar.gz`/`.tar` and `.zip`
//! archives, read whole into memory, in a deterministic order.
//!
//! ```no_run
//! # use kifudex::{input, sgf};
//! let (sources, skipped) = input::collect_sources(&["games/", "more.tgz"]);
//! for s in &sources {
//!     let parsed = sgf::parse_file(&s.bytes, &s.path, s.member.as_deref());
//!     // parse in parallel with rayon: `sources.par_iter().map(|s| s.parse())`
//! #   let _ = parsed;
//! }
//! ```

use crate::sgf::{self, ParsedFile};
use std::io::Read;
use std::path::Path;

/// The bytes of one SGF file (or archive member).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// Display path of the file (of the archive, for members).
    pub path: String,
    /// Archive member name, `None` for a plain file.
    pub member: Option<String>,
    /// The whole file.
    pub bytes: Vec<u8>,
}

impl Source {
    /// Parses the source's game trees.
    pub fn parse(&self) -> ParsedFile {
        sgf::parse_file(&self.bytes, &self.path, self.member.as_deref())
    }
}

/// Why an input was skipped.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum SkipReason {
    /// Not an SGF file nor a supported archive (`.gib`, `.ngf`, ...); holds the extension.
    #[error("not an SGF file or archive ({0})")]
    NotSgf(String),
    /// The file could not be read.
    #[error("cannot read: {0}")]
    Io(String),
    /// The archive (or one of its members) could not be read.
    #[error("broken archive: {0}")]
    Archive(String),
    /// Not a regular file (a FIFO, a socket, a device): never opened, as reading one could
    /// wait for ever; holds what it is.
    #[error("not a regular file ({0}): not opened")]
    Special(&'static str),
}

impl SkipReason {
    /// A short stable name (for counting and reports).
    pub fn name(&self) -> &'static str {
        match self {
            SkipReason::NotSgf(_) => "not-sgf",
            SkipReason::Io(_) => "io",
            SkipReason::Archive(_) => "archive",
            SkipReason::Special(_) => "special-file",
        }
    }
}

/// An input that was not read, and why.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Skipped {
    /// Display path of the file.
    pub path: String,
    /// Archive member, if any.
    pub member: Option<String>,
    /// Why.
    pub reason: SkipReason,
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.path)?;
        if let Some(m) = &self.member {
            write!(f, ":{m}")?;
        }
        write!(f, ": skipped: {}", self.reason)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Sgf,
    Tar { gz: bool },
    Zip,
    Other,
}

fn kind_of(name: &str) -> Kind {
    let l = name.to_ascii_lowercase();
    if l.ends_with(".sgf") {
        Kind::Sgf
    } else if l.ends_with(".tgz") || l.ends_with(".tar.gz") {
        Kind::Tar { gz: true }
    } else if l.ends_with(".tar") {
        Kind::Tar { gz: false }
    } else if l.ends_with(".zip") {
        Kind::Zip
    } else {
        Kind::Other
    }
}

fn extension(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    match base.rfind('.') {
        Some(p) if p > 0 => base[p..].to_owned(),
        _ => "no extension".to_owned(),
    }
}

/// Lists the files under `paths` (folders walked recursively, entries sorted by file name at
/// every level), without reading them; [`read_input`] reads one. Together they give the same
/// sources, in the same order, as [`collect_sources`], but let the caller read and parse
/// files in parallel without holding every file in memory.
pub fn list_inputs<P: AsRef<Path>>(paths: &[P]) -> (Vec<std::path::PathBuf>, Vec<Skipped>) {
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    for p in paths {
        let p = p.as_ref();
        if p.is_dir() {
            for entry in walkdir::WalkDir::new(p)
                .follow_links(true)
                .sort_by_file_name()
            {
                match entry {
                    Ok(e) if e.file_type().is_dir() => {}
                    Ok(e) if e.file_type().is_file() => files.push(e.into_path()),
                    Ok(e) => skipped.push(Skipped {
                        path: e.path().display().to_string(),
                        member: None,
                        reason: SkipReason::Special(special_kind(e.file_type())),
                    }),
                    Err(err) => skipped.push(Skipped {
                        path: err
                            .path()
                            .map_or_else(|| p.display().to_string(), |q| q.display().to_string()),
                        member: None,
                        reason: SkipReason::Io(err.to_string()),
                    }),
                }
            }
        } else {
            files.push(p.to_path_buf());
        }
    }
    (files, skipped)
}

/// What a file that is neither a folder nor a regular file is.
fn special_kind(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    let _ = t;
    "a special file"
}

/// Reads one listed file: an SGF file gives one source, an archive its SGF members; other
/// files, unreadable files and broken members are skipped.
pub fn read_input(path: &Path) -> (Vec<Source>, Vec<Skipped>) {
    let mut sources = Vec::new();
    let mut skipped = Vec::new();
    add_file(path, &mut sources, &mut skipped);
    (sources, skipped)
}

/// Reads every SGF source under `paths`, in order: each path as given; folders walked
/// recursively, entries sorted by file name at every level; archive members in archive order.
/// Files that are not SGF or archives, unreadable files and broken archive members are listed
/// as skipped (never fatal).
pub fn collect_sources<P: AsRef<Path>>(paths: &[P]) -> (Vec<Source>, Vec<Skipped>) {
    let (files, mut skipped) = list_inputs(paths);
    let mut sources = Vec::new();
    for f in files {
        add_file(&f, &mut sources, &mut skipped);
    }
    (sources, skipped)
}

fn add_file(p: &Path, sources: &mut Vec<Source>, skipped: &mut Vec<Skipped>) {
    let path = p.display().to_string();
    let kind = kind_of(&path);
    if kind == Kind::Other {
        skipped.push(Skipped {
            reason: SkipReason::NotSgf(extension(&path)),
            path,
            member: None,
        });
        return;
    }
    let bytes = match std::fs::read(p) {
        Ok(b) => b,
        Err(e) => {
            skipped.push(Skipped {
                path,
                member: None,
                reason: SkipReason::Io(e.to_string()),
            });
            return;
        }
    };
    match kind {
        Kind::Sgf => sources.push(Source {
            path,
            member: None,
            bytes,
        }),
        Kind::Tar { gz } => read_tar(&path, &bytes, gz, sources, skipped),
        Kind::Zip => read_zip(&path, bytes, sources, skipped),
        Kind::Other => {}
    }
}

/// Reads the `.sgf` members of an in-memory archive's bytes (`name` tells the format).
pub fn collect_archive(
    name: &str,
    bytes: Vec<u8>,
    sources: &mut Vec<Source>,
    skipped: &mut Vec<Skipped>,
) {
    match kind_of(name) {
        Kind::Tar { gz } => read_tar(name, &bytes, gz, sources, skipped),
        Kind::Zip => read_zip(name, bytes, sources, skipped),
        Kind::Sgf => sources.push(Source {
            path: name.to_owned(),
            member: None,
            bytes,
        }),
        Kind::Other => skipped.push(Skipped {
            path: name.to_owned(),
            member: None,
            reason: SkipReason::NotSgf(extension(name)),
        }),
    }
}

fn read_tar(
    path: &str,
    bytes: &[u8],
    gz: bool,
    sources: &mut Vec<Source>,
    skipped: &mut Vec<Skipped>,
) {
    let reader: Box<dyn Read + '_> = if gz {
        Box::new(flate2::read::MultiGzDecoder::new(bytes))
    } else {
        Box::new(bytes)
    };
    let mut archive = tar::Archive::new(reader);
    let broken = |e: std::io::Error, member: Option<String>| Skipped {
        path: path.to_owned(),
        member,
        reason: SkipReason::Archive(e.to_string()),
    };
    let entries = match archive.entries() {
        Ok(e) => e,
        Err(e) => return skipped.push(broken(e, None)),
    };
    for entry in entries {
        let mut entry = match entry {
            Ok(e) => e,
            Err(e) => return skipped.push(broken(e, None)),
        };
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let name = match entry.path() {
            Ok(n) => n.to_string_lossy().into_owned(),
            Err(e) => {
                skipped.push(broken(e, None));
                continue;
            }
        };
        let size = entry.size();
        if let Err((e, name)) = add_member(path, name, size, &mut entry, sources, skipped) {
            // A tar stream cannot be followed past a member it failed to read.
            return skipped.push(broken(e, Some(name)));
        }
    }
}

/// Adds one archive member: an SGF member's bytes as a source, any other member as skipped.
/// A member that cannot be read is returned with the error, for the caller to report.
fn add_member(
    path: &str,
    name: String,
    size: u64,
    r: &mut impl Read,
    sources: &mut Vec<Source>,
    skipped: &mut Vec<Skipped>,
) -> Result<(), (std::io::Error, String)> {
    if kind_of(&name) != Kind::Sgf {
        skipped.push(Skipped {
            path: path.to_owned(),
            reason: SkipReason::NotSgf(extension(&name)),
            member: Some(name),
        });
        return Ok(());
    }
    let mut data = Vec::with_capacity(size.min(1 << 26) as usize);
    match r.read_to_end(&mut data) {
        Ok(_) => {
            sources.push(Source {
                path: path.to_owned(),
                member: Some(name),
                bytes: data,
            });
            Ok(())
        }
        Err(e) => Err((e, name)),
    }
}

fn read_zip(path: &str, bytes: Vec<u8>, sources: &mut Vec<Source>, skipped: &mut Vec<Skipped>) {
    let broken = |e: String, member: Option<String>| Skipped {
        path: path.to_owned(),
        member,
        reason: SkipReason::Archive(e),
    };
    let mut zip = match zip::ZipArchive::new(std::io::Cursor::new(bytes)) {
        Ok(z) => z,
        Err(e) => return skipped.push(broken(e.to_string(), None)),
    };
    for i in 0..zip.len() {
        let mut f = match zip.by_index(i) {
            Ok(f) => f,
            Err(e) => {
                skipped.push(broken(e.to_string(), None));
                continue;
            }
        };
        if f.is_dir() {
            continue;
        }
        let name = f.name().to_owned();
        let size = f.size();
        if let Err((e, name)) = add_member(path, name, size, &mut f, sources, skipped) {
            skipped.push(broken(e.to_string(), Some(name)));
        }
    }
}
