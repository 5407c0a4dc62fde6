//! Collecting the sources of a build: game records (SGF, Tygem's `.gib`, WBaduk's `.ngf`,
//! PandaNet's `.ugf`/`.ugi`), alone, in folders or in archives (`.tar`, `.tgz`/`.tar.gz`,
//! `.tar.bz2`/`.tbz2`/`.tbz`, `.tar.xz`/`.txz`, `.zip`, `.7z`), read whole into memory, in a
//! deterministic order.
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

/// The bytes of one record file (or archive member).
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
    /// Parses the source's games, in the format its name says ([`sgf::parse_record`]).
    pub fn parse(&self) -> ParsedFile {
        sgf::parse_record(&self.bytes, &self.path, self.member.as_deref())
    }
}

/// Why an input was skipped.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum SkipReason {
    /// Not a game record nor a supported archive (`.txt`, `.pdf`, ...); holds the extension.
    #[error("not a game record or archive ({0})")]
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

/// What a file is, by its name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// A game record (any [`sgf::Format`]).
    Record,
    /// A tar archive, compressed so.
    Tar(Compression),
    Zip,
    SevenZip,
    Other,
}

/// How a tar archive is compressed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Compression {
    None,
    Gzip,
    Bzip2,
    Xz,
}

fn kind_of(name: &str) -> Kind {
    let l = name.to_ascii_lowercase();
    let ends = |exts: &[&str]| exts.iter().any(|e| l.ends_with(e));
    if sgf::Format::of_name(&l).is_some() {
        Kind::Record
    } else if ends(&[".tgz", ".tar.gz"]) {
        Kind::Tar(Compression::Gzip)
    } else if ends(&[".tar.bz2", ".tbz2", ".tbz"]) {
        Kind::Tar(Compression::Bzip2)
    } else if ends(&[".tar.xz", ".txz"]) {
        Kind::Tar(Compression::Xz)
    } else if ends(&[".tar"]) {
        Kind::Tar(Compression::None)
    } else if ends(&[".zip"]) {
        Kind::Zip
    } else if ends(&[".7z"]) {
        Kind::SevenZip
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

/// Reads one listed file: a record gives one source, an archive its record members; other
/// files, unreadable files and broken members are skipped.
pub fn read_input(path: &Path) -> (Vec<Source>, Vec<Skipped>) {
    let mut sources = Vec::new();
    let mut skipped = Vec::new();
    add_file(path, &mut sources, &mut skipped);
    (sources, skipped)
}

/// Reads every record under `paths`, in order: each path as given; folders walked
/// recursively, entries sorted by file name at every level; archive members in archive order.
/// Files that are neither records nor archives, unreadable files and broken archive members
/// are listed as skipped (never fatal).
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
    collect_archive(&path, bytes, sources, skipped);
}

/// Reads the record members of an in-memory archive's bytes (`name` tells the format; a
/// record's name gives the record itself).
pub fn collect_archive(
    name: &str,
    bytes: Vec<u8>,
    sources: &mut Vec<Source>,
    skipped: &mut Vec<Skipped>,
) {
    match kind_of(name) {
        Kind::Tar(c) => read_tar(name, &bytes, c, sources, skipped),
        Kind::Zip => read_zip(name, bytes, sources, skipped),
        Kind::SevenZip => read_7z(name, bytes, sources, skipped),
        Kind::Record => sources.push(Source {
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
    compression: Compression,
    sources: &mut Vec<Source>,
    skipped: &mut Vec<Skipped>,
) {
    let reader: Box<dyn Read + '_> = match compression {
        Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(bytes)),
        Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(bytes)),
        Compression::Xz => Box::new(lzma_rust2::XzReader::new(bytes, true)),
        Compression::None => Box::new(bytes),
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

/// Adds one archive member: a record's bytes as a source, any other member as skipped.
/// A member that cannot be read is returned with the error, for the caller to report.
fn add_member(
    path: &str,
    name: String,
    size: u64,
    r: &mut (impl Read + ?Sized),
    sources: &mut Vec<Source>,
    skipped: &mut Vec<Skipped>,
) -> Result<(), (std::io::Error, String)> {
    if kind_of(&name) != Kind::Record {
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

/// Reads a `.7z` archive's record members, block by block (a solid block is decoded once,
/// its members in order; other members are read past). A member that cannot be decoded is
/// reported with its name and ends its block; the other blocks are still read.
fn read_7z(path: &str, bytes: Vec<u8>, sources: &mut Vec<Source>, skipped: &mut Vec<Skipped>) {
    let broken = |e: String, member: Option<String>| Skipped {
        path: path.to_owned(),
        member,
        reason: SkipReason::Archive(e),
    };
    let password = sevenz_rust2::Password::empty();
    let mut archive = match sevenz_rust2::ArchiveReader::new(std::io::Cursor::new(bytes), password)
    {
        Ok(a) => a,
        Err(e) => return skipped.push(broken(e.to_string(), None)),
    };
    let mut current: Option<String> = None;
    let result = archive.for_each_entries(|entry, reader| {
        if entry.is_directory() {
            return Ok(true);
        }
        let name = entry.name().to_owned();
        current = Some(name.clone());
        if kind_of(&name) != Kind::Record {
            // A solid block's next member starts where this one ends.
            std::io::copy(reader, &mut std::io::sink())?;
        }
        match add_member(path, name, entry.size(), reader, sources, skipped) {
            Ok(()) => Ok(true),
            Err((e, name)) => {
                skipped.push(broken(e.to_string(), Some(name)));
                Ok(false)
            }
        }
    });
    if let Err(e) = result {
        skipped.push(broken(e.to_string(), current));
    }
}
