//! The online servers' own record formats (Tygem `.gib`, WBaduk `.ngf`, PandaNet `.ugf`)
//! and the archives online collections come in (`.tar.bz2`, `.tar.xz`, `.7z`).
//!
//! The records are real files (`host-tools/tests/data/records/`, from Sabaki's tests); what
//! each holds was read by hand once from the file and is kept here as expected values, and
//! each file's moves are also counted a second way, by the lines that hold them. Archives
//! are made here from the bundled sample's real games: the index built from each equals,
//! byte for byte, the index built from the same games as plain SGF files.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use kifudex::indexing::{self, BuildOptions};
use kifudex::input::{collect_sources, SkipReason, Source};
use kifudex::sgf::{parse_file, parse_record, ErrorKind, Event, GameRecord, Margin, WarningKind};
use kifudex_core::{Color, Move, Point, Stone};

fn records() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records")
}

fn sample_archive() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/sample/TestSGF.tgz")
}

fn read(name: &str) -> GameRecord {
    let bytes = std::fs::read(records().join(name)).unwrap();
    let mut p = parse_record(&bytes, name, None);
    assert!(p.rejected.is_empty(), "{name}: {:?}", p.rejected);
    assert_eq!(p.games.len(), 1, "{name}");
    p.games.remove(0)
}

/// A point from its SGF letters.
fn pt(s: &str) -> Point {
    let b = s.as_bytes();
    Point::new(b[0] - b'a', b[1] - b'a')
}

/// The moves as (colour letter, SGF letters or "" for a pass).
fn moves(g: &GameRecord) -> Vec<(char, String)> {
    g.events
        .iter()
        .filter_map(|e| match *e {
            Event::Play { color, mv } => Some((
                color.letter(),
                match mv {
                    Move::Play(p) => format!("{}{}", (b'a' + p.x) as char, (b'a' + p.y) as char),
                    Move::Pass => String::new(),
                },
            )),
            Event::Setup { .. } => None,
        })
        .collect()
}

fn setup(g: &GameRecord) -> Vec<Point> {
    g.events
        .iter()
        .filter_map(|e| match *e {
            Event::Setup {
                point,
                stone: Stone::Black,
            } => Some(point),
            _ => None,
        })
        .collect()
}

/// The moves of a file counted by the lines that hold them: `STO` lines, `PM` lines,
/// `[Data]` lines of a move number above 0.
fn move_lines(name: &str) -> usize {
    let text = std::fs::read(records().join(name)).unwrap();
    let lines = text.split(|&c| c == b'\n');
    match name.rsplit('.').next().unwrap() {
        "gib" => lines.filter(|l| l.starts_with(b"STO ")).count(),
        "ngf" => lines.filter(|l| l.starts_with(b"PM")).count(),
        _ => {
            let mut in_data = false;
            lines
                .filter(|l| {
                    if l.starts_with(b"[") {
                        in_data = l.starts_with(b"[Data]");
                        return false;
                    }
                    let f: Vec<&[u8]> = l.split(|&c| c == b',').collect();
                    in_data && f.len() >= 3 && f[2] != b"0"
                })
                .count()
        }
    }
}

struct Expected {
    file: &'static str,
    encoding: &'static str,
    black: Option<&'static str>,
    black_rank: Option<&'static str>,
    white: Option<&'static str>,
    white_rank: Option<&'static str>,
    date: &'static str,
    result: Option<(&'static str, Option<Color>, Margin)>,
    komi: Option<i32>,
    handicap: Option<u16>,
    stones: &'static [&'static str],
    first: &'static [(char, &'static str)],
    last: (char, &'static str),
    moves: usize,
}

/// What each file holds, read from it by hand.
const EXPECTED: &[Expected] = &[
    Expected {
        // `\[GAMEBLACKNAME=jy512 (15K)\]`, `INI 0 1 3`, `STO 0 2 2 15 15` ... `STO 0 119 1 10 8`,
        // `GRLT:255` (no result), `GAMEDUM=5` (a komi the file does not say who gives).
        file: "utf8.gib",
        encoding: "UTF-8",
        black: Some("jy512"),
        black_rank: Some("15K"),
        white: Some("leejw977"),
        white_rank: Some("10K"),
        date: "2016-03-26",
        result: None,
        komi: None,
        handicap: Some(3),
        stones: &["pd", "dp", "dd"],
        first: &[('W', "pp"), ('B', "nq"), ('W', "qn"), ('B', "no")],
        last: ('B', "ki"),
        moves: 118,
    },
    Expected {
        // `GAMERESULT=흑 시간승` (Black wins on time), `GRLT:7`, `GONGJE:65`.
        file: "euc-kr.gib",
        encoding: "EUC-KR",
        black: Some("dustkd1015"),
        black_rank: Some("1급"),
        white: Some("dongjik"),
        white_rank: Some("1급"),
        date: "2015-08-29",
        result: Some(("B+T", Some(Color::Black), Margin::Time)),
        komi: Some(650),
        handicap: None,
        stones: &[],
        first: &[('B', "qc"), ('W', "dp"), ('B', "qo"), ('W', "dd")],
        last: ('B', "be"),
        moves: 49,
    },
    Expected {
        // `GAMERESULT=白11目胜` (White wins by 11 points), `GRLT:1,ZIPSU:110`, 5 stones.
        file: "gb2312.gib",
        encoding: "GBK",
        black: Some("石下之臣"),
        black_rank: Some("2段"),
        white: Some("harpmaster"),
        white_rank: Some("3段"),
        date: "2012-11-22",
        result: Some(("W+11", Some(Color::White), Margin::Points(110))),
        komi: Some(0),
        handicap: Some(5),
        stones: &["pd", "dp", "dd", "pp", "jj"],
        first: &[('W', "qn"), ('B', "nq"), ('W', "qf"), ('B', "qj")],
        last: ('B', "di"),
        moves: 268,
    },
    Expected {
        // `LQC 9DP` (White), `CYY 9DP` (Black), komi line `7`, `Black wins by 0.5!`.
        file: "even.ngf",
        encoding: "UTF-8",
        black: Some("CYY"),
        black_rank: Some("9DP"),
        white: Some("LQC"),
        white_rank: Some("9DP"),
        date: "2017-03-16",
        result: Some(("B+0.5", Some(Color::Black), Margin::Points(5))),
        komi: Some(750),
        handicap: None,
        stones: &[],
        first: &[('B', "qd"), ('W', "dd"), ('B', "pq"), ('W', "dp")],
        last: ('B', "nl"),
        moves: 333,
    },
    Expected {
        // `ace550 7D*` (White), `p81587 5D*` (Black), handicap 2, `White wins by  resign!`.
        file: "handicap2.ngf",
        encoding: "UTF-8",
        black: Some("p81587"),
        black_rank: Some("5D*"),
        white: Some("ace550"),
        white_rank: Some("7D*"),
        date: "2017-03-16",
        result: Some(("W+R", Some(Color::White), Margin::Resign)),
        komi: Some(0),
        handicap: Some(2),
        stones: &["pd", "dp"],
        first: &[('W', "pq"), ('B', "dd"), ('W', "fq"), ('B', "hq")],
        last: ('W', "gn"),
        moves: 189,
    },
    Expected {
        // The `GI` variant: `GI韩国十段战`, two players without colours, `GI2006-9-5`, komi
        // `GI6`, `IDB[211] 黑中盘胜(现场消息)[EndTxt]` (Black wins by resignation).
        file: "gb2312.ngf",
        encoding: "GBK",
        black: None,
        black_rank: None,
        white: None,
        white_rank: None,
        date: "2006-09-05",
        result: Some(("黑中盘胜(现场消息)", Some(Color::Black), Margin::Resign)),
        komi: Some(650),
        handicap: None,
        stones: &[],
        first: &[('B', "qd"), ('W', "dd"), ('B', "pq"), ('W', "oc")],
        last: ('B', "jn"),
        moves: 211,
    },
    Expected {
        // `PlayerB=kaziwami,7d`, `PlayerW=YINNI,8d`, `Hdcp=0,-5.50`, `Winner=B,7.50`.
        file: "amateur.ugf",
        encoding: "UTF-8",
        black: Some("kaziwami"),
        black_rank: Some("7d"),
        white: Some("YINNI"),
        white_rank: Some("8d"),
        date: "2019-03-08",
        result: Some(("B+7.50", Some(Color::Black), Margin::Points(75))),
        komi: Some(-550),
        handicap: None,
        stones: &[],
        first: &[('B', "qd"), ('W', "dd"), ('B', "pq"), ('W', "dq")],
        last: ('W', "ni"),
        moves: 254,
    },
    Expected {
        // `PlayerB=ken03110,2k`, `PlayerW=apetresc,2k?`, `Winner=B,2.50`; three passes
        // (`YA`) end the game.
        file: "review.ugi",
        encoding: "UTF-8",
        black: Some("ken03110"),
        black_rank: Some("2k"),
        white: Some("apetresc"),
        white_rank: Some("2k?"),
        date: "2020-06-23",
        result: Some(("B+2.50", Some(Color::Black), Margin::Points(25))),
        komi: Some(650),
        handicap: None,
        stones: &[],
        first: &[('B', "qd"), ('W', "dc"), ('B', "pq"), ('W', "dp")],
        last: ('W', ""),
        moves: 222,
    },
];

#[test]
fn each_record_holds_what_the_file_says() {
    for e in EXPECTED {
        let g = read(e.file);
        let f = e.file;
        assert_eq!(g.encoding, e.encoding, "{f}");
        assert_eq!(g.info.black.as_deref(), e.black, "{f}");
        assert_eq!(g.info.black_rank.as_deref(), e.black_rank, "{f}");
        assert_eq!(g.info.white.as_deref(), e.white, "{f}");
        assert_eq!(g.info.white_rank.as_deref(), e.white_rank, "{f}");
        assert_eq!(g.info.date.as_deref(), Some(e.date), "{f}");
        assert_eq!(g.info.year, e.date[..4].parse().ok(), "{f}");
        let result = g
            .info
            .result
            .as_ref()
            .map(|r| (r.raw.as_str(), r.winner, r.margin));
        assert_eq!(result, e.result, "{f}");
        assert_eq!(g.info.komi, e.komi, "{f}");
        assert_eq!(g.info.handicap, e.handicap, "{f}");
        let stones: Vec<Point> = e.stones.iter().map(|s| pt(s)).collect();
        assert_eq!(setup(&g), stones, "{f}");
        let m = moves(&g);
        assert_eq!(m.len(), e.moves, "{f}");
        assert_eq!(m.len(), move_lines(f), "{f}: the lines that hold moves");
        let first: Vec<(char, String)> = e.first.iter().map(|&(c, p)| (c, p.to_owned())).collect();
        assert_eq!(&m[..first.len()], &first[..], "{f}");
        assert_eq!(m.last().unwrap(), &(e.last.0, e.last.1.to_owned()), "{f}");
        assert_eq!(g.end, None, "{f}");
        assert_eq!(g.size, kifudex_core::Size::STANDARD, "{f}");
    }
}

/// The GI variant of `.ngf` keeps its two players as the game's name.
#[test]
fn the_gi_variant_names_its_players_in_the_game_name() {
    let g = read("gb2312.ngf");
    assert_eq!(
        g.info.game_name.as_deref(),
        Some("朴承华 初段 - 李载雄 五段")
    );
    assert_eq!(g.info.event.as_deref(), Some("韩国十段战"));
}

/// Each game written as SGF reads back the same (the index stores the same game, and
/// `game ID --sgf` writes it so).
#[test]
fn records_read_back_from_sgf_the_same() {
    for e in EXPECTED {
        let g = read(e.file);
        let text = kifudex::sgf::write_game(g.size, &g.info, &g.events);
        let back = parse_file(text.as_bytes(), "back.sgf", None)
            .games
            .remove(0);
        assert_eq!(back.info, g.info, "{}", e.file);
        assert_eq!(back.events, g.events, "{}", e.file);
    }
}

/// A broken record names its file and line and never stops the others; no prefix of a
/// real file and no flipped byte panics.
#[test]
fn broken_records_are_reported_with_their_line() {
    let p = parse_record(b"\\HS\n\\[GAMENAME=x\\]\n\\HE\n", "a.gib", None);
    assert!(p.games.is_empty());
    let e = &p.rejected[0];
    assert!(
        matches!(e.kind, ErrorKind::BadRecord { line: 3, .. }),
        "{e}"
    );
    assert_eq!(e.byte_offset, 19);
    assert_eq!(
        e.to_string(),
        "a.gib: byte 19: not a readable Tygem .gib record: line 3: no game section (\\GS)"
    );
    let p = parse_record(b"Rated game\n19\nA 1d\nB 2d\n", "b.ngf", Some("x/b.ngf"));
    assert!(p.rejected[0]
        .to_string()
        .starts_with("b.ngf:x/b.ngf: byte 19: "));
    let p = parse_record(
        b"Rated\nxx\nA\nB\nsite\n0\n0\n6\n20170316\n5\nr\n3\n",
        "c.ngf",
        None,
    );
    assert!(
        p.rejected[0]
            .to_string()
            .contains("line 2: the board size is not a number"),
        "{}",
        p.rejected[0]
    );
    assert!(parse_record(b"", "d.ugf", None).rejected[0]
        .to_string()
        .contains("line 0: no [Header]"));

    // A move line that names no point ends the main line there, with a warning at it.
    let mut text = std::fs::read(records().join("euc-kr.gib")).unwrap();
    let at = text
        .windows(15)
        .position(|w| w == b"STO 0 10 1 2 16")
        .unwrap();
    text[at + 13] = b'x';
    let g = parse_record(&text, "e.gib", None).games.remove(0);
    assert_eq!(moves(&g).len(), 8);
    assert_eq!(g.end, Some(kifudex::sgf::LineEnd::Invalid));
    assert!(g
        .warnings
        .iter()
        .any(|w| w.kind == WarningKind::InvalidMove && w.byte_offset == at));

    for e in EXPECTED {
        let bytes = std::fs::read(records().join(e.file)).unwrap();
        for cut in (0..bytes.len()).step_by(7) {
            let _ = parse_record(&bytes[..cut], e.file, None);
        }
        let mut b = bytes.clone();
        for i in (0..b.len()).step_by(5) {
            b[i] ^= 0x5A;
            let _ = parse_record(&b, e.file, None);
            b[i] ^= 0x5A;
        }
    }
}

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("kifudex-records-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A tar archive of `(name, bytes)` members.
fn tar(members: &[(String, Vec<u8>)]) -> Vec<u8> {
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

fn bz2(bytes: &[u8]) -> Vec<u8> {
    let mut w = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    w.write_all(bytes).unwrap();
    w.finish().unwrap()
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut w =
        lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(6)).unwrap();
    w.write_all(bytes).unwrap();
    w.finish().unwrap()
}

/// A `.7z` archive of the members, in one solid block (7-Zip's default) or one block each,
/// coded by `method` (default: the writer's LZMA2).
pub(crate) fn seven_z<N: AsRef<str>>(
    members: &[(N, Vec<u8>)],
    solid: bool,
    method: Option<sevenz_rust2::EncoderConfiguration>,
) -> Vec<u8> {
    let mut w = sevenz_rust2::ArchiveWriter::new(std::io::Cursor::new(Vec::new())).unwrap();
    if let Some(m) = method {
        w.set_content_methods(vec![m]);
    }
    if solid {
        let entries = members
            .iter()
            .map(|(n, _)| sevenz_rust2::ArchiveEntry::new_file(n.as_ref()))
            .collect();
        let readers = members
            .iter()
            .map(|(_, b)| sevenz_rust2::SourceReader::new(&b[..]))
            .collect();
        w.push_archive_entries(entries, readers).unwrap();
    } else {
        for (n, b) in members {
            w.push_archive_entry(
                sevenz_rust2::ArchiveEntry::new_file(n.as_ref()),
                Some(&b[..]),
            )
            .unwrap();
        }
    }
    w.finish().unwrap().into_inner()
}

/// The sample's real games as members `sgf/NNN-name.sgf`, and one member that is no record.
fn sample_members() -> Vec<(String, Vec<u8>)> {
    let (sources, skipped) = collect_sources(&[sample_archive()]);
    assert!(skipped.is_empty());
    let mut m: Vec<(String, Vec<u8>)> = sources
        .into_iter()
        .take(60)
        .enumerate()
        .map(|(i, s)| {
            let name = s.member.unwrap();
            let base = name.rsplit('/').next().unwrap().to_owned();
            (format!("sgf/{i:03}-{base}"), s.bytes)
        })
        .collect();
    m.insert(7, ("notes/readme.txt".to_owned(), b"not a record".to_vec()));
    m
}

fn index_of(paths: &[PathBuf]) -> Vec<u8> {
    let dir = temp("index");
    let out = dir.join("x.kdx");
    indexing::build(paths, &out, &BuildOptions::default()).unwrap();
    let bytes = std::fs::read(&out).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    bytes
}

/// The index of the new archive kinds equals, byte for byte, the index of the same games as
/// plain SGF files (read from a folder, each labelled as the archive's member): the
/// archives give the same bytes, in the same order, and skip the same member.
#[test]
fn archives_give_the_index_of_their_games_as_plain_files() {
    let members = sample_members();
    let dir = temp("archives");
    let plain = dir.join("plain");
    for (name, bytes) in &members {
        let p = plain.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    let t = tar(&members);
    let kinds: Vec<(&str, Vec<u8>)> = vec![
        ("games.tar.bz2", bz2(&t)),
        ("games.tbz2", bz2(&t)),
        ("games.tar.xz", xz(&t)),
        ("games.txz", xz(&t)),
        ("games.7z", seven_z(&members, true, None)),
        ("blocks.7z", seven_z(&members, false, None)),
    ];
    let (files, skipped) = collect_sources(&[&plain]);
    assert_eq!(skipped.len(), 1);
    for (name, bytes) in kinds {
        let archive = dir.join(name);
        std::fs::write(&archive, &bytes).unwrap();
        let label = archive.display().to_string();
        let plain_sources: Vec<Source> = files
            .iter()
            .map(|s| Source {
                path: label.clone(),
                member: Some(
                    s.path
                        .strip_prefix(&format!("{}/", plain.display()))
                        .unwrap()
                        .to_owned(),
                ),
                bytes: std::fs::read(&s.path).unwrap(),
            })
            .collect();
        let (expected, report) =
            indexing::build_in_memory(plain_sources, &[], &BuildOptions::default()).unwrap();
        assert_eq!(report.games_read, 60, "{name}");
        let got = index_of(std::slice::from_ref(&archive));
        assert!(got == expected, "{name}: the index differs");

        let (sources, skipped) = collect_sources(&[&archive]);
        assert_eq!(sources.len(), 60, "{name}");
        assert_eq!(skipped.len(), 1, "{name}");
        assert_eq!(skipped[0].member.as_deref(), Some("notes/readme.txt"));
        assert!(matches!(skipped[0].reason, SkipReason::NotSgf(ref e) if e == ".txt"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Records of every format inside every archive kind read as the files alone.
#[test]
fn records_inside_archives_read_as_the_files_alone() {
    let members: Vec<(String, Vec<u8>)> = EXPECTED
        .iter()
        .map(|e| {
            let b = std::fs::read(records().join(e.file)).unwrap();
            (format!("r/{}", e.file), b)
        })
        .collect();
    let t = tar(&members);
    for (name, bytes) in [
        ("r.tar.bz2", bz2(&t)),
        ("r.tar.xz", xz(&t)),
        ("r.7z", seven_z(&members, true, None)),
    ] {
        let mut sources = Vec::new();
        let mut skipped = Vec::new();
        kifudex::input::collect_archive(name, bytes, &mut sources, &mut skipped);
        assert!(skipped.is_empty(), "{name}: {skipped:?}");
        assert_eq!(sources.len(), EXPECTED.len());
        for (s, e) in sources.iter().zip(EXPECTED) {
            let g = s.parse().games.remove(0);
            let alone = read(e.file);
            assert_eq!(g.info, alone.info, "{name}: {}", e.file);
            assert_eq!(g.events, alone.events, "{name}: {}", e.file);
        }
    }
}

/// A damaged archive of each new kind is skipped as broken, naming the archive (and the
/// member where one is known); what was read before the damage stays; nothing panics.
#[test]
fn damaged_archives_are_reported() {
    let members = sample_members();
    let t = tar(&members);
    for (name, bytes) in [
        ("g.tar.bz2", bz2(&t)),
        ("g.tar.xz", xz(&t)),
        ("g.7z", seven_z(&members, true, None)),
        ("h.7z", seven_z(&members, false, None)),
    ] {
        for cut in [0, 10, bytes.len() / 3, bytes.len() / 2] {
            let mut sources = Vec::new();
            let mut skipped = Vec::new();
            kifudex::input::collect_archive(
                name,
                bytes[..cut].to_vec(),
                &mut sources,
                &mut skipped,
            );
            assert!(
                skipped
                    .iter()
                    .any(|s| matches!(s.reason, SkipReason::Archive(_))),
                "{name} cut at {cut}"
            );
            assert!(sources.len() < 60, "{name} cut at {cut}");
        }
        let mut b = bytes.clone();
        // Reading a .7z costs about 0.1 s here (its dictionary, one a block): fewer flips.
        let step = if name.ends_with(".7z") { 499 } else { 97 };
        for i in (0..b.len()).step_by(step) {
            b[i] ^= 0xA5;
            let mut sources = Vec::new();
            let mut skipped = Vec::new();
            kifudex::input::collect_archive(name, b.clone(), &mut sources, &mut skipped);
            b[i] ^= 0xA5;
        }
    }
}

fn kifudex(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(args)
        .output()
        .unwrap()
}

/// `build` reads the records alone in a folder and in an archive; `game ID --sgf` writes
/// each as SGF, which reads back as the record.
#[test]
fn the_command_line_builds_records_and_writes_them_as_sgf() {
    let dir = temp("cli");
    let folder = dir.join("records");
    std::fs::create_dir_all(&folder).unwrap();
    for e in EXPECTED {
        std::fs::copy(records().join(e.file), folder.join(e.file)).unwrap();
    }
    let members: Vec<(String, Vec<u8>)> = EXPECTED[..3]
        .iter()
        .map(|e| {
            (
                format!("more-{}", e.file),
                std::fs::read(records().join(e.file)).unwrap(),
            )
        })
        .collect();
    std::fs::write(dir.join("more.7z"), seven_z(&members, true, None)).unwrap();
    let index = dir.join("r.kdx");
    let s = |p: &Path| p.to_str().unwrap().to_owned();
    let o = kifudex(&[
        "build",
        &s(&folder),
        &s(&dir.join("more.7z")),
        "-o",
        &s(&index),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    // The three in the archive repeat three files: left out as duplicates.
    assert!(
        out.contains("games read:          11 = 8 kept + 3 duplicates left out"),
        "{out}"
    );
    let mut seen = Vec::new();
    for id in 0..8 {
        let o = kifudex(&["game", "--index", &s(&index), &id.to_string(), "--sgf"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let g = parse_file(&o.stdout, "out.sgf", None).games.remove(0);
        let e = EXPECTED
            .iter()
            .find(|e| {
                let r = read(e.file);
                r.events == g.events && r.info.date == g.info.date
            })
            .expect("a record");
        let r = read(e.file);
        assert_eq!(g.info.black, r.info.black, "{}", e.file);
        assert_eq!(g.info.white_rank, r.info.white_rank, "{}", e.file);
        assert_eq!(g.info.result, r.info.result, "{}", e.file);
        seen.push(e.file);
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 8);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `add` adds the records of a `.tar.xz` to an index; the shell's `import` reads a `.tar.bz2`
/// of records into the bundled sample: both hold the 8 games more.
#[test]
fn add_and_import_read_the_new_kinds() {
    let dir = temp("add");
    let members: Vec<(String, Vec<u8>)> = EXPECTED
        .iter()
        .map(|e| {
            (
                e.file.to_owned(),
                std::fs::read(records().join(e.file)).unwrap(),
            )
        })
        .collect();
    let t = tar(&members);
    std::fs::write(dir.join("r.tar.xz"), xz(&t)).unwrap();
    std::fs::write(dir.join("r.tar.bz2"), bz2(&t)).unwrap();
    let index = dir.join("i.kdx");
    let s = |p: &Path| p.to_str().unwrap().to_owned();
    let o = kifudex(&["build", &s(&sample_archive()), "-o", &s(&index), "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = kifudex(&["add", &s(&index), &s(&dir.join("r.tar.xz"))]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let info = String::from_utf8(kifudex(&["info", "--index", &s(&index)]).stdout).unwrap();
    assert!(info.contains("games kept:          294"), "{info}");

    let mut child = Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .arg("shell")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let input = format!("import {}\nquit\n", dir.join("r.tar.bz2").display());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("8 games added"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
