//! Collecting the sources of a build: game records (SGF, Tygem's `.gib`, WBaduk's `.ngf`,
//! PandaNet's `.ugf`/`.ugi`), alone, in folders or in archives (`.tar`, `.tgz`/`.tar.gz`,
//! `.tar.bz2`/`.tbz2`/`.tbz`, `.tar.xz`/`.txz`, `.zip`, `.7z`), in a deterministic order.
//! Archives are read as streams, member by member; each record is read into memory whole,
//! up to a limit ([`Limits`]): a record past it, or an archive with too many members, is
//! skipped with [`SkipReason::Limit`] naming it and the limit, and the archive's other
//! members are not read (its bytes past the limit never are).
//!
//! ```no_run
//! # use kifudex_records::{input, sgf};
//! let (sources, skipped) = input::collect_sources(&["games/", "more.tgz"]);
//! for s in &sources {
//!     let parsed = sgf::parse_file(&s.bytes, &s.path, s.member.as_deref());
//!     // parse in parallel with rayon: `sources.par_iter().map(|s| s.parse())`
//! #   let _ = parsed;
//! }
//! ```

use crate::sgf::{self, Exceeded, ParsedFile};
use std::io::{Read, Seek};
use std::path::Path;

/// What one input may hold before it is refused: the bytes of one record, the members of
/// one archive, and what a record's games may hold ([`sgf::Limits`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of one record, a file or an archive member (`--max-record-bytes`).
    pub record_bytes: u64,
    /// Members of one archive, records or not, folders aside (`--max-archive-members`).
    pub archive_members: u64,
    /// Bytes of memory an archive's decompressor may ask for: the dictionary (window) an
    /// `.xz` block or a `.7z` coder declares, with the decoder's own tables
    /// (`--max-decoder-memory`). Checked before the decoder is made, so an archive of a
    /// few hundred bytes that declares a 1.5 GiB dictionary is refused without taking it.
    pub decoder_bytes: u64,
    /// What a record's games may hold.
    pub sgf: sgf::Limits,
}

impl Limits {
    /// The defaults: 64 MiB a record (the largest real collection file met, a few
    /// megabytes, many times over), 1,000,000 members an archive, 128 MiB for a
    /// decompressor (twice the 64 MiB dictionary of `xz -9` and of 7-Zip's ultra preset),
    /// [`sgf::Limits::DEFAULT`].
    pub const DEFAULT: Limits = Limits {
        record_bytes: 64 << 20,
        archive_members: 1_000_000,
        decoder_bytes: 128 << 20,
        sgf: sgf::Limits::DEFAULT,
    };

    /// The record-bytes limit, passed.
    pub fn record_exceeded(&self) -> Exceeded {
        Exceeded {
            what: "bytes in one record (a file or an archive member)",
            limit: self.record_bytes,
            flag: "--max-record-bytes",
        }
    }

    /// The decoder-memory limit, passed.
    pub fn decoder_exceeded(&self) -> Exceeded {
        Exceeded {
            what: "bytes of memory for the archive's decompressor (the dictionary it declares)",
            limit: self.decoder_bytes,
            flag: "--max-decoder-memory",
        }
    }

    /// [`Limits::decoder_bytes`] in KiB, as the decoders take it.
    fn decoder_kib(&self) -> u32 {
        u32::try_from(self.decoder_bytes >> 10).unwrap_or(u32::MAX - 1)
    }

    /// The archive-members limit, passed.
    pub fn members_exceeded(&self) -> Exceeded {
        Exceeded {
            what: "members in one archive",
            limit: self.archive_members,
            flag: "--max-archive-members",
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

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

    /// [`Source::parse`] within `limits` ([`sgf::parse_record_within`]).
    pub fn parse_within(&self, limits: &sgf::Limits) -> ParsedFile {
        sgf::parse_record_within(&self.bytes, &self.path, self.member.as_deref(), limits)
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
    /// Past one of the [`Limits`]: the record (or, for too many members, the rest of the
    /// archive) was not read.
    #[error("{0}")]
    Limit(Exceeded),
}

impl SkipReason {
    /// A short stable name (for counting and reports).
    pub fn name(&self) -> &'static str {
        match self {
            SkipReason::NotSgf(_) => "not-sgf",
            SkipReason::Io(_) => "io",
            SkipReason::Archive(_) => "archive",
            SkipReason::Special(_) => "special-file",
            SkipReason::Limit(_) => "limit",
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

/// Reads the record file `path` whole, within `limits.record_bytes`: a file larger than
/// that, or that is not a regular file (a FIFO or a device could be endless), is an error
/// that says so, and no more than one byte past the limit is read.
pub fn read_record_file(path: &Path, limits: &Limits) -> std::io::Result<Vec<u8>> {
    // Asked before opening: opening a FIFO waits for a writer.
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other(format!(
            "not a regular file ({})",
            special_kind(meta.file_type())
        )));
    }
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    if read_bounded(file, meta.len(), limits.record_bytes, &mut bytes)? {
        Ok(bytes)
    } else {
        Err(std::io::Error::other(limits.record_exceeded().to_string()))
    }
}

/// Reads `r` into `out` up to `limit` bytes; `Ok(false)` when it holds more (then no more
/// than one byte past the limit was read). `claimed` is the size it says it has: past the
/// limit, nothing is read; under it, a hint for the first allocation only.
fn read_bounded(
    r: impl Read,
    claimed: u64,
    limit: u64,
    out: &mut Vec<u8>,
) -> std::io::Result<bool> {
    if claimed > limit {
        return Ok(false);
    }
    out.reserve(claimed.min(1 << 26) as usize);
    r.take(limit.saturating_add(1)).read_to_end(out)?;
    Ok(out.len() as u64 <= limit)
}

/// Reads one listed file: a record gives one source, an archive its record members; other
/// files, unreadable files and broken members are skipped.
pub fn read_input(path: &Path) -> (Vec<Source>, Vec<Skipped>) {
    let mut sources = Vec::new();
    let mut skipped = Vec::new();
    read_input_each(
        path,
        &Limits::DEFAULT,
        &mut |s| sources.push(s),
        &mut skipped,
    );
    (sources, skipped)
}

/// Reads one listed file within `limits`, handing each source to `each` as soon as it is
/// read (an archive's members one after the other: the caller holds one at a time if it
/// drops each before the next); what is not read goes to `skipped`.
pub fn read_input_each(
    path: &Path,
    limits: &Limits,
    each: &mut dyn FnMut(Source),
    skipped: &mut Vec<Skipped>,
) {
    let mut r = Reader {
        limits,
        each,
        skipped,
    };
    r.file(path);
}

/// Reads every record under `paths`, in order: each path as given; folders walked
/// recursively, entries sorted by file name at every level; archive members in archive order.
/// Files that are neither records nor archives, unreadable files and broken archive members
/// are listed as skipped (never fatal).
pub fn collect_sources<P: AsRef<Path>>(paths: &[P]) -> (Vec<Source>, Vec<Skipped>) {
    let (files, mut skipped) = list_inputs(paths);
    let mut sources = Vec::new();
    for f in files {
        read_input_each(&f, &Limits::DEFAULT, &mut |s| sources.push(s), &mut skipped);
    }
    (sources, skipped)
}

/// Reads the record members of an in-memory archive's bytes (`name` tells the format; a
/// record's name gives the record itself), within the default [`Limits`].
pub fn collect_archive(
    name: &str,
    bytes: Vec<u8>,
    sources: &mut Vec<Source>,
    skipped: &mut Vec<Skipped>,
) {
    collect_archive_each(
        name,
        bytes,
        &Limits::DEFAULT,
        &mut |s| sources.push(s),
        skipped,
    );
}

/// [`collect_archive`] within `limits`, each source handed to `each` as it is read.
pub fn collect_archive_each(
    name: &str,
    bytes: Vec<u8>,
    limits: &Limits,
    each: &mut dyn FnMut(Source),
    skipped: &mut Vec<Skipped>,
) {
    let mut r = Reader {
        limits,
        each,
        skipped,
    };
    match kind_of(name) {
        Kind::Tar(c) => r.tar(name, bytes.as_slice(), c),
        Kind::Zip => r.zip(name, std::io::Cursor::new(bytes)),
        Kind::SevenZip => r.seven_zip(name, std::io::Cursor::new(bytes)),
        Kind::Record => {
            if bytes.len() as u64 > limits.record_bytes {
                r.skip(name, None, SkipReason::Limit(limits.record_exceeded()));
            } else {
                (r.each)(Source {
                    path: name.to_owned(),
                    member: None,
                    bytes,
                });
            }
        }
        Kind::Other => r.skip(name, None, SkipReason::NotSgf(extension(name))),
    }
}

/// Whether to go on reading an archive after a member.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Flow {
    Go,
    Stop,
}

/// One input being read: its limits, where its sources and skipped parts go.
struct Reader<'a> {
    limits: &'a Limits,
    each: &'a mut dyn FnMut(Source),
    skipped: &'a mut Vec<Skipped>,
}

impl Reader<'_> {
    fn skip(&mut self, path: &str, member: Option<String>, reason: SkipReason) {
        self.skipped.push(Skipped {
            path: path.to_owned(),
            member,
            reason,
        });
    }

    /// A file named on the command line or found in a folder.
    fn file(&mut self, p: &Path) {
        let path = p.display().to_string();
        let kind = kind_of(&path);
        if kind == Kind::Other {
            return self.skip(&path, None, SkipReason::NotSgf(extension(&path)));
        }
        let file = match std::fs::File::open(p) {
            Ok(f) => f,
            Err(e) => return self.skip(&path, None, SkipReason::Io(e.to_string())),
        };
        match kind {
            Kind::Tar(c) => self.tar(&path, std::io::BufReader::new(file), c),
            Kind::Zip => self.zip(&path, std::io::BufReader::new(file)),
            Kind::SevenZip => self.seven_zip(&path, std::io::BufReader::new(file)),
            Kind::Record | Kind::Other => {
                let claimed = file.metadata().map_or(0, |m| m.len());
                let mut bytes = Vec::new();
                match self.bounded(file, claimed, &mut bytes) {
                    Err(e) => self.skip(&path, None, SkipReason::Io(e.to_string())),
                    Ok(false) => {
                        let e = self.limits.record_exceeded();
                        self.skip(&path, None, SkipReason::Limit(e));
                    }
                    Ok(true) => (self.each)(Source {
                        path,
                        member: None,
                        bytes,
                    }),
                }
            }
        }
    }

    /// [`read_bounded`] within the record limit.
    fn bounded(&self, r: impl Read, claimed: u64, out: &mut Vec<u8>) -> std::io::Result<bool> {
        read_bounded(r, claimed, self.limits.record_bytes, out)
    }

    /// Counts member `number` (from 1) of the archive `path`: past the limit, the rest of
    /// the archive is skipped.
    fn count(&mut self, path: &str, number: u64) -> Flow {
        if number > self.limits.archive_members {
            let e = self.limits.members_exceeded();
            self.skip(path, None, SkipReason::Limit(e));
            return Flow::Stop;
        }
        Flow::Go
    }

    /// One archive member: a record's bytes as a source, any other member as skipped; a
    /// record past the limit stops the archive. A member that cannot be read is returned
    /// with the error, for the caller to report.
    fn member(
        &mut self,
        path: &str,
        name: String,
        size: u64,
        r: &mut (impl Read + ?Sized),
    ) -> Result<Flow, (std::io::Error, String)> {
        if kind_of(&name) != Kind::Record {
            let reason = SkipReason::NotSgf(extension(&name));
            self.skip(path, Some(name), reason);
            return Ok(Flow::Go);
        }
        let mut data = Vec::new();
        match self.bounded(r, size, &mut data) {
            Ok(true) => {
                (self.each)(Source {
                    path: path.to_owned(),
                    member: Some(name),
                    bytes: data,
                });
                Ok(Flow::Go)
            }
            Ok(false) => {
                let e = self.limits.record_exceeded();
                self.skip(path, Some(name), SkipReason::Limit(e));
                Ok(Flow::Stop)
            }
            Err(e) => Err((e, name)),
        }
    }

    fn tar(&mut self, path: &str, bytes: impl Read, compression: Compression) {
        let reader: Box<dyn Read + '_> = match compression {
            Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(bytes)),
            Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(bytes)),
            Compression::Xz => Box::new(lzma_rust2::XzReader::new_mem_limit(
                bytes,
                true,
                self.limits.decoder_kib(),
            )),
            Compression::None => Box::new(bytes),
        };
        let mut archive = tar::Archive::new(reader);
        let limits = self.limits;
        // The xz decoder refuses a block whose dictionary is past the limit with an error
        // of kind `OutOfMemory`, before taking any of it; other errors are a broken archive.
        let broken = |e: std::io::Error| {
            if e.kind() == std::io::ErrorKind::OutOfMemory {
                SkipReason::Limit(limits.decoder_exceeded())
            } else {
                SkipReason::Archive(e.to_string())
            }
        };
        let entries = match archive.entries() {
            Ok(e) => e,
            Err(e) => return self.skip(path, None, broken(e)),
        };
        let mut number = 0u64;
        for entry in entries {
            let mut entry = match entry {
                Ok(e) => e,
                Err(e) => return self.skip(path, None, broken(e)),
            };
            if !entry.header().entry_type().is_file() {
                continue;
            }
            number += 1;
            if self.count(path, number) == Flow::Stop {
                return;
            }
            let name = match entry.path() {
                Ok(n) => n.to_string_lossy().into_owned(),
                Err(e) => {
                    self.skip(path, None, broken(e));
                    continue;
                }
            };
            let size = entry.size();
            match self.member(path, name, size, &mut entry) {
                Ok(Flow::Go) => {}
                Ok(Flow::Stop) => return,
                // A tar stream cannot be followed past a member it failed to read.
                Err((e, name)) => return self.skip(path, Some(name), broken(e)),
            }
        }
    }

    fn zip(&mut self, path: &str, bytes: impl Read + Seek) {
        let broken = |e: String| SkipReason::Archive(e);
        let mut zip = match zip::ZipArchive::new(bytes) {
            Ok(z) => z,
            Err(e) => return self.skip(path, None, broken(e.to_string())),
        };
        let mut number = 0u64;
        for i in 0..zip.len() {
            let mut f = match zip.by_index(i) {
                Ok(f) => f,
                Err(e) => {
                    self.skip(path, None, broken(e.to_string()));
                    continue;
                }
            };
            if f.is_dir() {
                continue;
            }
            number += 1;
            if self.count(path, number) == Flow::Stop {
                return;
            }
            let name = f.name().to_owned();
            let size = f.size();
            match self.member(path, name, size, &mut f) {
                Ok(Flow::Go) => {}
                Ok(Flow::Stop) => return,
                Err((e, name)) => self.skip(path, Some(name), broken(e.to_string())),
            }
        }
    }

    /// Reads a `.7z` archive's record members, block by block (a solid block is decoded
    /// once, its members in order; other members are read past). A member that cannot be
    /// decoded is reported with its name and ends its block; the other blocks are still
    /// read.
    fn seven_zip(&mut self, path: &str, bytes: impl Read + Seek) {
        let limits = self.limits;
        // A coder whose dictionary (or PPMd model) is past the limit is refused by the
        // library before it is made, in the header as in the blocks.
        let broken = |e: sevenz_rust2::Error| match e {
            sevenz_rust2::Error::MaxMemLimited { .. } => {
                SkipReason::Limit(limits.decoder_exceeded())
            }
            e => SkipReason::Archive(e.to_string()),
        };
        let password = sevenz_rust2::Password::empty();
        let kib = limits.decoder_kib() as usize;
        let mut archive =
            match sevenz_rust2::ArchiveReader::new_with_memory_limit(bytes, password, kib) {
                Ok(a) => a,
                Err(e) => return self.skip(path, None, broken(e)),
            };
        // One decoding thread: a multi-threaded LZMA2 decoder holds a dictionary a thread.
        archive.set_thread_count(1);
        use sevenz_rust2::EntryDecision;
        let mut current: Option<String> = None;
        let mut number = 0u64;
        let mut stopped = false;
        let result = archive.for_each_entries_with_decision(|entry, reader| {
            if entry.is_directory() {
                return Ok(EntryDecision::Continue);
            }
            number += 1;
            if self.count(path, number) == Flow::Stop {
                stopped = true;
                return Ok(EntryDecision::Stop);
            }
            let name = entry.name().to_owned();
            current = Some(name.clone());
            // A member that is not a record is read past by the library (`Continue`
            // decodes what is left unread: a solid block's next member starts there).
            match self.member(path, name, entry.size(), reader) {
                Ok(Flow::Go) => Ok(EntryDecision::Continue),
                Ok(Flow::Stop) => {
                    stopped = true;
                    Ok(EntryDecision::Stop)
                }
                Err((e, name)) => {
                    self.skip(path, Some(name), SkipReason::Archive(e.to_string()));
                    // The rest of this block cannot be reached; the next blocks can.
                    Ok(EntryDecision::SkipBlock)
                }
            }
        });
        if let Err(e) = result {
            if !stopped {
                self.skip(path, current, broken(e));
            }
        }
    }
}
