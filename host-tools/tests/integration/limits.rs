//! The limits on what a build reads (`input::Limits`, `sgf::Limits`): each with an input
//! just under it (read, indexed) and just over it (the build fails with an error naming the
//! file, the member and the limit, and the flag that raises it), in every archive format;
//! and a member far past the byte limit is never read whole: the peak resident memory of
//! `kifudex build` stays under the limit plus a constant, measured. Run with
//! `cargo test --release -p kifudex --test integration limits::`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::records::seven_z;
use kifudex::indexing::{self, BuildOptions};
use kifudex::input::Limits;
use kifudex::sgf;

/// A new empty folder (one per call: tests run in parallel).
fn temp(tag: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("kifudex-limits-{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A game of 3 moves padded with spaces to exactly `len` bytes.
fn game_of_len(len: usize) -> Vec<u8> {
    let mut g = b"(;GM[1]SZ[19];B[pd];W[dp];B[pp])".to_vec();
    assert!(len >= g.len());
    g.resize(len, b' ');
    g
}

/// Writes an archive of `members` in the format `ext` names; returns its path.
fn archive(dir: &Path, ext: &str, members: &[(&str, Vec<u8>)]) -> PathBuf {
    let path = dir.join(format!("games.{ext}"));
    let tar = || tar_of(members);
    let bytes = match ext {
        "tgz" => {
            let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            w.write_all(&tar()).unwrap();
            w.finish().unwrap()
        }
        "tar.bz2" => {
            let mut w = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            w.write_all(&tar()).unwrap();
            w.finish().unwrap()
        }
        "tar.xz" => {
            let mut w =
                lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(1))
                    .unwrap();
            w.write_all(&tar()).unwrap();
            w.finish().unwrap()
        }
        "zip" => {
            let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
            for (name, bytes) in members {
                z.start_file(*name, zip::write::SimpleFileOptions::default())
                    .unwrap();
                z.write_all(bytes).unwrap();
            }
            z.finish().unwrap().into_inner()
        }
        "7z" => seven_z(members, true, None),
        other => panic!("{other}"),
    };
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A tar archive of `members`, in memory.
fn tar_of(members: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (name, bytes) in members {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        b.append_data(&mut h, name, &bytes[..]).unwrap();
    }
    b.into_inner().unwrap()
}

/// Writes a `.tar.xz` or a `.7z` (LZMA2) of `members` compressed with a dictionary of
/// `dictionary` bytes, which its headers declare; returns its path.
fn archive_with_dictionary(
    dir: &Path,
    ext: &str,
    members: &[(&str, Vec<u8>)],
    dictionary: u32,
) -> PathBuf {
    let path = dir.join(format!("dictionary.{ext}"));
    let bytes = match ext {
        "tar.xz" => {
            let mut options = lzma_rust2::XzOptions::with_preset(1);
            options.lzma_options.dict_size = dictionary;
            let mut w = lzma_rust2::XzWriter::new(Vec::new(), options).unwrap();
            w.write_all(&tar_of(members)).unwrap();
            w.finish().unwrap()
        }
        "7z" => {
            let mut lzma2 = sevenz_rust2::encoder_options::Lzma2Options::from_level(1);
            lzma2.set_dictionary_size(dictionary);
            seven_z(members, true, Some(lzma2.into()))
        }
        other => panic!("{other}"),
    };
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Builds `input` within `limits`: the games indexed, or the error's text.
fn build_within(input: &Path, limits: Limits) -> Result<usize, String> {
    let dir = temp("out");
    let opts = BuildOptions {
        limits,
        ..BuildOptions::default()
    };
    let r = indexing::build(&[input.to_path_buf()], &dir.join("x.kdx"), &opts);
    std::fs::remove_dir_all(&dir).unwrap();
    r.map(|report| report.games_indexed)
        .map_err(|e| format!("{e:#}"))
}

fn with_record_bytes(n: u64) -> Limits {
    Limits {
        record_bytes: n,
        ..Limits::DEFAULT
    }
}

/// A record of exactly the byte limit is read; one byte more fails the build, naming the
/// archive, the member, the limit and its flag; in every archive format and as a file.
#[test]
fn a_record_at_the_byte_limit_is_read_one_byte_over_is_refused() {
    let dir = temp("record-bytes");
    const L: usize = 64 << 10;
    for ext in ["tgz", "tar.bz2", "tar.xz", "zip", "7z"] {
        let under = archive(&dir, ext, &[("a/game.sgf", game_of_len(L))]);
        assert_eq!(
            build_within(&under, with_record_bytes(L as u64)),
            Ok(1),
            "{ext}"
        );
        let over = archive(&dir, ext, &[("a/game.sgf", game_of_len(L + 1))]);
        let e = build_within(&over, with_record_bytes(L as u64)).unwrap_err();
        let place = format!("{}:a/game.sgf", over.display());
        for part in [
            place.as_str(),
            "more than 65536 bytes",
            "--max-record-bytes",
        ] {
            assert!(e.contains(part), "{ext}: {part:?} not in {e}");
        }
    }
    let file = dir.join("plain.sgf");
    std::fs::write(&file, game_of_len(L)).unwrap();
    assert_eq!(build_within(&file, with_record_bytes(L as u64)), Ok(1));
    std::fs::write(&file, game_of_len(L + 1)).unwrap();
    let e = build_within(&file, with_record_bytes(L as u64)).unwrap_err();
    assert!(
        e.contains(&format!(
            "{}: skipped: more than 65536 bytes",
            file.display()
        )),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An archive of exactly the member limit is read (members that are no record count);
/// one member fewer allowed fails the build naming the archive and the flag.
#[test]
fn an_archive_at_the_member_limit_is_read_one_over_is_refused() {
    let dir = temp("members");
    let members = [
        ("one.sgf", game_of_len(40)),
        ("notes.txt", b"not a record".to_vec()),
        ("two.sgf", b"(;SZ[19];B[dd];W[pp])".to_vec()),
    ];
    for ext in ["tgz", "zip", "7z"] {
        let path = archive(&dir, ext, &members);
        let at = |n| Limits {
            archive_members: n,
            ..Limits::DEFAULT
        };
        assert_eq!(build_within(&path, at(3)), Ok(2), "{ext}");
        let e = build_within(&path, at(2)).unwrap_err();
        let place = format!(
            "{}: skipped: more than 2 members in one archive",
            path.display()
        );
        assert!(e.contains(&place), "{ext}: {e}");
        assert!(e.contains("--max-archive-members"), "{ext}: {e}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Each limit of a game tree, through the reader: at the limit the game is read, one past
/// it the tree is refused naming the limit (and the rest of the file is not read).
#[test]
fn game_tree_limits_under_and_over() {
    let within =
        |text: &str, l: sgf::Limits| sgf::parse_file_within(text.as_bytes(), "t.sgf", None, &l);
    let d = sgf::Limits::DEFAULT;
    let cases: Vec<(&str, sgf::Limits, String, String)> = vec![
        // Nodes of the main line: the root and 9 passes, then 10.
        (
            "--max-tree-nodes",
            sgf::Limits { nodes: 10, ..d },
            format!("(;SZ[9]{})", ";B[]".repeat(9)),
            format!("(;SZ[9]{})", ";B[]".repeat(10)),
        ),
        // Variations nested 5 deep, then 6.
        (
            "--max-tree-depth",
            sgf::Limits { depth: 5, ..d },
            format!("(;SZ[9]{}{}", "(;B[aa]".repeat(4), ")".repeat(5)),
            format!("(;SZ[9]{}{}", "(;B[aa]".repeat(5), ")".repeat(6)),
        ),
        // A comment of 100 bytes, then 101.
        (
            "--max-value-bytes",
            sgf::Limits {
                value_bytes: 100,
                ..d
            },
            format!("(;SZ[9]C[{}];B[aa])", "x".repeat(100)),
            format!("(;SZ[9]C[{}];B[aa])", "x".repeat(101)),
        ),
        // A compressed point list of 25 stones and 5 moves (30 events), then one move more.
        (
            "--max-game-events",
            sgf::Limits { events: 30, ..d },
            format!("(;SZ[9]AB[aa:ee]{})", ";W[ii]".repeat(5)),
            format!("(;SZ[9]AB[aa:ee]{})", ";W[ii]".repeat(6)),
        ),
    ];
    for (flag, limits, under, over) in cases {
        let tail = "(;SZ[9];B[ee])";
        let ok = within(&format!("{under}{tail}"), limits);
        assert!(ok.rejected.is_empty(), "{flag}: {:?}", ok.rejected);
        assert_eq!(ok.games.len(), 2, "{flag}");
        let refused = within(&format!("{over}{tail}"), limits);
        assert!(
            refused.games.is_empty(),
            "{flag}: the tree past the limit, or the next, read"
        );
        assert_eq!(refused.rejected.len(), 1, "{flag}");
        let message = refused.rejected[0].to_string();
        assert!(message.starts_with("t.sgf: byte "), "{message}");
        assert!(message.contains(flag), "{flag}: {message}");
        // The defaults read both.
        assert_eq!(within(&format!("{over}{tail}"), d).games.len(), 2, "{flag}");
    }
}

fn kifudex() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kifudex"))
}

/// Each tree limit's flag reaches the reader: the command fails (status 1) naming the file
/// and the flag; with the flag raised, it builds.
#[test]
fn the_flags_set_the_limits() {
    let dir = temp("flags");
    let file = dir.join("bomb.sgf");
    // 9 bytes of compressed point list are 361 setup stones.
    std::fs::write(&file, "(;SZ[19]AB[aa:ss];W[]AB[aa:ss])").unwrap();
    let out = dir.join("x.kdx");
    let run = |extra: &[&str]| {
        kifudex()
            .arg("build")
            .arg(&file)
            .arg("-o")
            .arg(&out)
            .arg("--quiet")
            .args(extra)
            .output()
            .unwrap()
    };
    let r = run(&["--max-game-events", "723"]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let r = run(&["--max-game-events", "722"]);
    assert_eq!(r.status.code(), Some(1));
    let e = String::from_utf8_lossy(&r.stderr);
    assert!(e.contains(&format!("{}: byte ", file.display())), "{e}");
    assert!(e.contains("more than 722 moves and setup stones"), "{e}");
    for (flag, value) in [
        ("--max-tree-nodes", "1"),
        ("--max-tree-depth", "0"),
        ("--max-value-bytes", "4"),
        ("--max-record-bytes", "30"),
    ] {
        let r = run(&[flag, value]);
        assert_eq!(r.status.code(), Some(1), "{flag}");
        let e = String::from_utf8_lossy(&r.stderr);
        assert!(
            e.contains(flag) && e.contains(&file.display().to_string()),
            "{e}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The peak resident memory of a command, in bytes, as `/usr/bin/time -v` reports it.
fn peak_rss(cmd: &mut Command) -> (std::process::Output, u64) {
    let program = cmd.get_program().to_owned();
    let args: Vec<_> = cmd.get_args().map(|a| a.to_owned()).collect();
    let out = Command::new("/usr/bin/time")
        .arg("-v")
        .arg(program)
        .args(args)
        .output()
        .expect("/usr/bin/time (Debian's package `time`) runs the command");
    let text = String::from_utf8_lossy(&out.stderr);
    let kib: u64 = text
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Maximum resident set size (kbytes): ")
        })
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak memory in {text}"));
    (out, kib << 10)
}

/// Writes a `.tgz` of `members` (name, first bytes, length: the rest spaces) as a stream,
/// never holding a member in memory.
fn padded_tgz(path: &Path, members: &[(String, Vec<u8>, u64)]) {
    let f = std::fs::File::create(path).unwrap();
    let gz = flate2::write::GzEncoder::new(f, flate2::Compression::fast());
    let mut b = tar::Builder::new(gz);
    for (name, head, len) in members {
        let mut h = tar::Header::new_gnu();
        h.set_size(*len);
        h.set_mode(0o644);
        h.set_cksum();
        let body = (&head[..]).chain(std::io::repeat(b' ').take(len - head.len() as u64));
        b.append_data(&mut h, name, body).unwrap();
    }
    b.into_inner().unwrap().finish().unwrap();
}

/// The measured bug: archive members were read whole, and all of an input's members before
/// any was parsed, so that memory grew with the members (a 1.9 MB `.tgz` holding one 2 GB
/// member took 2.0 GB). Now a member is read only under the byte limit, and parsed and
/// dropped before the next is read. A `.tgz` of 12 members of 8 MiB (each a game padded
/// with spaces) and, in a second archive, one member of 200 MiB more, against a 16 MiB
/// limit: the first builds, the second fails naming the member and the limit, and the peak
/// resident memory of both stays under the limit plus [`CONSTANT`] (what a build of one
/// small game takes, measured beside them).
#[test]
fn members_are_read_one_at_a_time_and_never_past_the_limit() {
    /// The memory of the process besides the records (the binary, its threads, the
    /// decompressor, the games): a build of a small game measured 8 MiB on this project's
    /// machine.
    const CONSTANT: u64 = 32 << 20;
    const LIMIT: u64 = 16 << 20;
    let dir = temp("huge");
    let mut members: Vec<(String, Vec<u8>, u64)> = (0..12u8)
        .map(|i| {
            let game = format!("(;GM[1]SZ[19];B[pd];W[dp];B[{}a])", (b'a' + i) as char);
            (format!("pad-{i:02}.sgf"), game.into_bytes(), 8 << 20)
        })
        .collect();
    let many = dir.join("many.tgz");
    padded_tgz(&many, &members);
    members.push(("big.sgf".to_owned(), Vec::new(), 200 << 20));
    let big = dir.join("big.tgz");
    padded_tgz(&big, &members);
    let out = dir.join("x.kdx");
    let build = |input: &Path| {
        let mut c = kifudex();
        c.arg("build").arg(input).arg("-o").arg(&out).args([
            "--quiet",
            "--max-record-bytes",
            "16M",
        ]);
        peak_rss(&mut c)
    };
    let (r, peak_many) = build(&many);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let (r, peak_big) = build(&big);
    assert_eq!(r.status.code(), Some(1));
    let e = String::from_utf8_lossy(&r.stderr);
    let place = format!(
        "{}:big.sgf: skipped: more than 16777216 bytes",
        big.display()
    );
    assert!(e.contains(&place), "{e}");
    // One small game, for the constant.
    let small = archive(&dir, "tgz", &[("small.sgf", game_of_len(100))]);
    let (r, base) = build(&small);
    assert!(r.status.success());
    let mib = |b: u64| b as f64 / (1 << 20) as f64;
    eprintln!(
        "limits: peak memory, 16 MiB limit: 12 members of 8 MiB {:.1} MiB; and one of 200 MiB {:.1} MiB; one small game {:.1} MiB",
        mib(peak_many),
        mib(peak_big),
        mib(base)
    );
    assert!(base < CONSTANT, "a small build takes {base} bytes");
    assert!(peak_many < LIMIT + CONSTANT, "peak {peak_many} bytes");
    assert!(peak_big < LIMIT + CONSTANT, "peak {peak_big} bytes");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// GTP's `loadsgf` reads within the record limit and refuses what is not a regular file:
/// `loadsgf /dev/zero` read for ever (and took all memory) before.
#[test]
fn loadsgf_refuses_a_device() {
    use std::process::Stdio;
    let mut child = kifudex()
        .arg("gtp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1 loadsgf /dev/zero\n2 quit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("?1 cannot load file \"/dev/zero\" (not a regular file (a device))"),
        "{text}"
    );
    assert!(text.contains("=2"), "{text}");
}

/// A `.tar.xz` and a `.7z` compressed with a 1 MiB dictionary: read with 2 MiB for the
/// decompressor; refused with 1 MiB (the decoder needs the dictionary and its own tables,
/// about 100 KiB more), the error naming the archive, the limit and its flag.
#[test]
fn a_decompressor_under_the_memory_limit_is_made_one_over_it_is_refused() {
    const DICTIONARY: u32 = 1 << 20;
    let dir = temp("decoder");
    let games = [
        ("a.sgf", b"(;GM[1]SZ[19];B[pd];W[dp];B[pp])".to_vec()),
        ("b.sgf", b"(;GM[1]SZ[19];B[pd];W[dd];B[pp])".to_vec()),
    ];
    let at = |n: u64| Limits {
        decoder_bytes: n,
        ..Limits::DEFAULT
    };
    for ext in ["tar.xz", "7z"] {
        let path = archive_with_dictionary(&dir, ext, &games, DICTIONARY);
        assert_eq!(build_within(&path, at(2 << 20)), Ok(2), "{ext}");
        let e = build_within(&path, at(1 << 20)).unwrap_err();
        let expected = format!(
            "{}: skipped: more than 1048576 bytes of memory for the archive's decompressor \
             (the dictionary it declares) (the limit; --max-decoder-memory raises it)",
            path.display()
        );
        assert!(e.contains(&expected), "{ext}: {e}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Sets the dictionary that the first block of the `.xz` stream `xz` declares to the size
/// whose LZMA2 property byte is `bits` (37: 1.5 GiB), and seals the block header's CRC-32
/// again, so that only the declared size stands in a reader's way.
fn declare_xz_dictionary(xz: &mut [u8], bits: u8) {
    // The stream header is 12 bytes; a block header's first byte gives its size.
    let size = (usize::from(xz[12]) + 1) * 4;
    let header = &mut xz[12..12 + size];
    // The LZMA2 filter: id 0x21, one property byte (the flags byte comes first).
    let at = (2..size - 4)
        .find(|&i| header[i] == 0x21 && header[i + 1] == 0x01)
        .expect("an LZMA2 filter in the block header");
    header[at + 2] = bits;
    let crc = crc32fast::hash(&header[..size - 4]);
    header[size - 4..].copy_from_slice(&crc.to_le_bytes());
}

/// The measured bug: a `.tar.xz` of about 200 bytes whose block declared a 1.5 GiB
/// dictionary made `kifudex build` take 1.5 GiB (1,578,992 KiB peak, and 140 s on a loaded
/// machine) before it read its one game. Now the declared dictionary is checked against
/// `--max-decoder-memory` (128 MiB by default) before any decoder is made: the build fails
/// naming the file and the flag, within a small build's memory.
#[test]
fn a_tiny_archive_declaring_a_huge_dictionary_is_refused_before_it_is_taken() {
    /// A build of a small game measured 8 MiB on this project's machine (as above).
    const CONSTANT: u64 = 32 << 20;
    let dir = temp("bomb");
    let path = archive_with_dictionary(&dir, "tar.xz", &[("a.sgf", game_of_len(100))], 1 << 20);
    let mut bytes = std::fs::read(&path).unwrap();
    declare_xz_dictionary(&mut bytes, 37);
    std::fs::write(&path, &bytes).unwrap();
    let mut c = kifudex();
    c.arg("build")
        .arg(&path)
        .arg("-o")
        .arg(dir.join("x.kdx"))
        .arg("--quiet");
    let (r, peak) = peak_rss(&mut c);
    assert_eq!(r.status.code(), Some(1));
    let e = String::from_utf8_lossy(&r.stderr);
    assert!(
        e.contains(&path.display().to_string()) && e.contains("--max-decoder-memory"),
        "{e}"
    );
    eprintln!(
        "limits: a {}-byte .tar.xz declaring a 1.5 GiB dictionary: refused, peak {:.1} MiB",
        bytes.len(),
        peak as f64 / (1 << 20) as f64
    );
    assert!(peak < CONSTANT, "peak {peak} bytes");
    std::fs::remove_dir_all(&dir).unwrap();
}
