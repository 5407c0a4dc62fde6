//! The parser on the edge cases of `corpus/tricky` (real files) and a few synthetic inputs.

use kifudex::input::collect_sources;
use kifudex::sgf::{parse_file, ErrorKind, Event, LineEnd, Margin, ParsedFile, WarningKind};
use kifudex_core::{Color, Move, Point, Size, Stone};
use std::path::{Path, PathBuf};

fn tricky(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/tricky")
        .join(rel)
}

fn bytes(rel: &str) -> Vec<u8> {
    std::fs::read(tricky(rel)).unwrap()
}

fn parse(rel: &str) -> ParsedFile {
    parse_file(&bytes(rel), rel, None)
}

fn one(rel: &str) -> kifudex::sgf::GameRecord {
    let p = parse(rel);
    assert_eq!(p.games.len(), 1, "{rel}: {:?}", p.rejected);
    p.games.into_iter().next().unwrap()
}

fn has(g: &kifudex::sgf::GameRecord, k: WarningKind) -> bool {
    g.warnings.iter().any(|w| w.kind == k)
}

fn names(rel: &str) -> (String, String, &'static str) {
    let g = one(rel);
    (g.info.black.unwrap(), g.info.white.unwrap(), g.encoding)
}

#[test]
fn cjk_and_utf16_player_names() {
    assert_eq!(
        names("SabakiHQ+sgf/tests/sgf/chinese.sgf"),
        ("古力".into(), "柯洁".into(), "GBK")
    );
    assert_eq!(
        names("SabakiHQ+sgf/tests/sgf/japanese.sgf"),
        ("井山 裕太".into(), "山下 敬吾".into(), "Shift_JIS")
    );
    assert_eq!(
        names("SabakiHQ+sgf/tests/sgf/korean.sgf"),
        ("이세돌".into(), "박정환".into(), "EUC-KR")
    );
    let p = parse("SabakiHQ+sgf/tests/sgf/utf16le.sgf");
    assert_eq!(p.warnings[0].kind, WarningKind::Utf16Transcoded);
    let g = &p.games[0];
    assert_eq!(g.info.black.as_deref(), Some("Kitani Minoru"));
    assert_eq!(g.info.white.as_deref(), Some("Go Seigen"));
    assert_eq!(g.move_count(), 164);
    // Same game as UTF-8 with a BOM.
    assert_eq!(one("SabakiHQ+sgf/tests/sgf/utf8bom.sgf").events, g.events);
    // UTF-16 without BOM (big-endian) is detected too.
    let p = parse("herzbube+libsgfcplusplus/test/test-files/encoding-utf16-nobom.sgf");
    assert_eq!(p.games.len(), 1);
    assert_eq!(p.warnings[0].kind, WarningKind::Utf16Transcoded);
}

#[test]
fn shift_jis_trail_backslash_and_no_ca() {
    // Nihon Ki-in export: no CA, Shift_JIS, `ソ` is 83 5C (a `\` trail byte) right before `]`.
    let g = one("SabakiHQ+sgf/tests/sgf/encoding/nihon-kiin.sgf");
    assert_eq!(g.encoding, "Shift_JIS");
    assert_eq!(g.info.black.as_deref(), Some("申眞ソ"));
    assert_eq!(g.info.black_rank.as_deref(), Some("九段"));
    assert_eq!(g.info.white.as_deref(), Some("党毅飛"));
    assert_eq!(g.info.place.as_deref(), Some("韓国棋院"));
    let r = g.info.result.clone().unwrap();
    assert_eq!((r.winner, r.margin), (Some(Color::Black), Margin::Resign));
    assert_eq!(g.move_count(), 8);
}

/// The first line of the first comment of a real file, as raw bytes.
fn first_comment_line(b: &[u8]) -> Vec<u8> {
    let s = b.windows(2).position(|w| w == b"C[").unwrap() + 2;
    let e = s + b[s..]
        .iter()
        .position(|&c| c == b'\n' || c == b']')
        .unwrap();
    b[s..e].to_vec()
}

#[test]
fn big5_and_detected_gbk_names() {
    // The Big5 comment of a real file, as a player name.
    let big5 =
        bytes("herzbube+libsgfcplusplus/test/test-files/encoding-traditionalchinese-big5.sgf");
    let k = big5.windows(3).position(|w| w == b"C[\xB3").unwrap();
    let line = first_comment_line(&big5[k..]);
    let mut sgf = b"(;GM[1]CA[Big5]PB[".to_vec();
    sgf.extend_from_slice(&line);
    sgf.extend_from_slice(b"];B[pd])");
    let g = parse_file(&sgf, "big5", None).games.remove(0);
    assert_eq!(g.encoding, "Big5");
    assert!(g.info.black.unwrap().starts_with("圍棋是一種古老的遊戲"));

    // No CA, GB bytes (no-ca.sgf's comment as a game name): detected.
    let gb = bytes("SabakiHQ+sgf/tests/sgf/no-ca.sgf");
    let mut sgf = b"(;GN[".to_vec();
    sgf.extend_from_slice(&first_comment_line(&gb));
    sgf.extend_from_slice(b"]");
    sgf.extend_from_slice(&gb[2..]);
    let g = parse_file(&sgf, "no-ca", None).games.remove(0);
    assert_eq!(g.encoding, "GBK");
    assert!(has(&g, WarningKind::CharsetGuessed));
    assert_eq!(g.info.game_name.as_deref(), Some("【第三型】 黑先"));
    // Main line: B[mc], then the first variation W[nd] .. B[lf].
    assert_eq!(one("SabakiHQ+sgf/tests/sgf/no-ca.sgf").move_count(), 7);
}

#[test]
fn mixed_encoding_per_tree() {
    let p = parse("missdeer+sgfc/test-files/mixed-encoding.sgf");
    let encs: Vec<&str> = p.games.iter().map(|g| g.encoding).collect();
    assert_eq!(
        encs,
        ["UTF-16LE", "ISO-8859-15", "UTF-8", "gb18030", "Shift_JIS"]
    );
}

#[test]
fn fox_komi_and_broken_utf8() {
    let g = one("SabakiHQ+sgf/tests/sgf/fox_go_server_japanese.sgf");
    assert_eq!(g.info.komi, Some(650)); // KM[650] is 6.5
    assert_eq!(
        g.info.game_name.as_deref(),
        Some("2020年三星杯韩国预选赛<绝艺讲解>")
    );
    assert_eq!(
        one("in-corpus-examples/fox_km375_1535017208010001260.sgf")
            .info
            .komi,
        Some(375)
    );
    assert_eq!(
        one("SabakiHQ+sgf/tests/sgf/fox_go_server_komi.sgf")
            .info
            .komi,
        Some(375)
    );
    let g = one("in-corpus-examples/fox_broken_utf8_1448198904019999988.sgf");
    assert_eq!(g.encoding, "UTF-8");
    assert!(has(&g, WarningKind::BrokenUtf8));
    // Handicap stones in the root.
    let g = one("SabakiHQ+sgf/tests/sgf/fox_go_server_handicap.sgf");
    assert!(g.info.handicap.unwrap() >= 2);
    assert!(matches!(
        g.events[0],
        Event::Setup {
            stone: Stone::Black,
            ..
        }
    ));
}

#[test]
fn compressed_point_lists() {
    let p = parse("herzbube+libsgfcplusplus/test/test-files/compressed-point-list.sgf");
    let g = &p.games[0];
    let pts: Vec<Point> = g
        .events
        .iter()
        .map(|e| match e {
            Event::Setup {
                point,
                stone: Stone::Black,
            } => *point,
            e => panic!("{e:?}"),
        })
        .collect();
    // AB[cc:dd]
    assert_eq!(
        pts,
        [
            Point::new(2, 2),
            Point::new(3, 2),
            Point::new(2, 3),
            Point::new(3, 3)
        ]
    );
    assert!(has(g, WarningKind::JunkBeforeTree));
    // The second tree is GM[19]: not Go.
    assert!(matches!(p.rejected[0].kind, ErrorKind::NotGo(ref g) if g == "19"));
}

#[test]
fn escapes() {
    let sgf = b"(;GM[1]PB[a\\]b\\\\c]PW[soft\\\nbreak]GN[two\nlines]C[x\\];B[aa]];W[bb])";
    let g = parse_file(sgf, "esc", None).games.remove(0);
    assert_eq!(g.info.black.as_deref(), Some("a]b\\c"));
    assert_eq!(g.info.white.as_deref(), Some("softbreak"));
    assert_eq!(g.info.game_name.as_deref(), Some("two lines"));
    assert_eq!(g.move_count(), 1);
    // A real file with `\]` in a comment.
    let g = one("Remi-Coulom+gogui/test/junit/src/net/sf/gogui/sgf/time-settings-unknown-ot.sgf");
    assert!(g.warnings.is_empty(), "{:?}", g.warnings);
}

#[test]
fn ff1_long_property_names() {
    let g = one("sanderland+katrain/tests/data/xmgt97.sgf");
    assert_eq!(g.size, Size::square(9).unwrap());
    assert_eq!(g.info.black.as_deref(), Some("hi"));
    assert_eq!(g.info.white.as_deref(), Some("ka"));
    assert_eq!(g.info.komi, Some(-150));
    assert_eq!(g.move_count(), 60);
    let g = one("Remi-Coulom+gogui/test/junit/src/net/sf/gogui/sgf/verbose-property-names.sgf");
    assert_eq!(g.info.black.as_deref(), Some("Robin Upton"));
    assert_eq!(
        g.info.event.as_deref(),
        Some("1995 Bracknell Go Tournament")
    );
    assert_eq!(g.info.komi, Some(600));
    let g = one("sanderland+katrain/tests/data/panda1.sgf");
    assert_eq!(g.info.white.as_deref(), Some("player1"));
}

#[test]
fn missing_paren_junk_truncation() {
    let g = one("in-corpus-examples/fox_missing_open_paren_1550471903080010073.sgf");
    assert!(has(&g, WarningKind::MissingOpenParen));
    assert!(g.move_count() > 100);

    let g = one("in-corpus-examples/gnugo_ego2.sgf");
    assert!(has(&g, WarningKind::JunkBeforeTree));
    assert_eq!(g.byte_offset, 96);

    let g = one("in-corpus-examples/fox_truncated_1501775164019999283.sgf");
    assert!(has(&g, WarningKind::UnclosedTree));
    assert_eq!(g.move_count(), 154);

    let g = one("in-corpus-examples/fox_truncated_in_value_1507468590010001941.sgf");
    assert!(has(&g, WarningKind::UnclosedValue));
    assert_eq!(g.move_count(), 154);

    let g = one("herzbube+littlego/sgf/19x19/Fuego vs. Fuego.sgf");
    assert!(has(&g, WarningKind::UnclosedTree));

    let p = parse("in-corpus-examples/gnugo_rbm-bobk-200303111815.sgf");
    assert_eq!(p.games.len(), 1);
    assert_eq!(p.warnings[0].kind, WarningKind::TrailingJunk);

    for empty in [
        "in-corpus-examples/gnugo_nightmare_empty.sgf",
        "in-corpus-examples/fox9d_nul_filled_1531205531010001271.sgf",
        "herzbube+littlego/sgf/Illegal games/not-an-sgf-file.sgf",
    ] {
        let p = parse(empty);
        assert!(p.games.is_empty());
        assert_eq!(p.rejected[0].kind, ErrorKind::NoGameTree);
        assert_eq!(
            p.rejected[0].to_string(),
            format!("{empty}: byte 0: no SGF game tree found")
        );
    }
    // `(CA[UTF-8])`: a first node without `;`.
    let p = parse("herzbube+littlego/sgf/Illegal games/encoding-detection-fails.sgf");
    assert_eq!(p.games.len(), 2);
    assert!(has(&p.games[0], WarningKind::MissingSemicolon));
}

#[test]
fn multi_game_files() {
    let count = |rel: &str| parse(rel).games.len();
    assert_eq!(
        count("julianandrews+sgf-parse/resources/test/ff4_ex.sgf"),
        2
    );
    assert_eq!(count("in-corpus-examples/gnugo_reading10_two_trees.sgf"), 2);
    assert_eq!(
        count("in-corpus-examples/fuego_Hellyta-Fuego_two_trees.sgf"),
        2
    );
    assert_eq!(count("missdeer+sgfc/test-files/strict.sgf"), 11);
    let p = parse("herzbube+libsgfcplusplus/test/test-files/deep-game-tree.sgf");
    let moves: Vec<usize> = p.games.iter().map(|g| g.move_count()).collect();
    assert_eq!(moves, [0, 998, 1998, 4998, 1394]);
    assert_eq!(p.games[3].source.tree_index, 3);
    // Main line = first child: the 2nd game of ff4_ex.
    let g = &parse("julianandrews+sgf-parse/resources/test/ff4_ex.sgf").games[1];
    assert_eq!(g.info.result.as_ref().unwrap().margin, Margin::Points(35));
}

#[test]
fn sizes_and_bad_moves() {
    let p = parse("herzbube+littlego/sgf/25x25/25x25_single_black_move.sgf");
    assert!(p.games.is_empty());
    assert_eq!(p.rejected[0].kind, ErrorKind::BadSize("25".into()));

    let g = one("Remi-Coulom+gogui/test/junit/src/net/sf/gogui/sgf/invalidmove.sgf");
    assert_eq!(g.end, Some(LineEnd::OffBoard(Point::new(17, 18))));
    assert!(g.events.iter().all(|e| match e {
        Event::Play {
            mv: Move::Play(p), ..
        } => g.size.contains(*p),
        _ => true,
    }));

    let g = one("Remi-Coulom+gogui/test/junit/src/net/sf/gogui/sgf/human-readable.sgf");
    assert_eq!(
        g.events[0],
        Event::Play {
            color: Color::Black,
            mv: Move::Play(Point::new(16, 3))
        }
    );
    assert_eq!(
        g.events.last(),
        Some(&Event::Play {
            color: Color::White,
            mv: Move::Pass
        })
    );

    // SZ after AB in the same node.
    let g = one("Remi-Coulom+gogui/test/junit/src/net/sf/gogui/sgf/size-after-valid-points.sgf");
    assert!(g
        .events
        .iter()
        .all(|e| matches!(e, Event::Setup { .. } | Event::Play { .. })));
    assert!(!has(&g, WarningKind::BadSetupPoint));

    // Passes: B[] and B[tt].
    let g = parse_file(b"(;SZ[9];B[];W[tt];B[ee])", "p", None)
        .games
        .remove(0);
    let mvs: Vec<Move> = g
        .events
        .iter()
        .map(|e| match e {
            Event::Play { mv, .. } => *mv,
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(mvs, [Move::Pass, Move::Pass, Move::Play(Point::new(4, 4))]);

    // Setup and move in one node: setup first.
    let g = parse_file(b"(;GM[1];B[aa]AW[bb][cc:cd]AE[dd])", "n", None)
        .games
        .remove(0);
    assert!(matches!(
        g.events[0],
        Event::Setup {
            stone: Stone::White,
            ..
        }
    ));
    assert!(matches!(g.events[4], Event::Play { .. }));
}

/// KaTrain's `.gib` and `.ngf` test files are read as records (they were skipped before
/// their readers existed); the `.gib` one's EUC-KR text was destroyed (`U+FFFD`) before it
/// was published, which changes nothing of what the index keeps.
#[test]
fn gib_and_ngf_files_are_read() {
    let (sources, skipped) = collect_sources(&[tricky("sanderland+katrain/tests/data")]);
    assert!(skipped.is_empty(), "{skipped:?}");
    let records: Vec<_> = sources
        .iter()
        .filter(|s| !s.path.to_ascii_lowercase().ends_with(".sgf"))
        .map(|s| (s.path.rsplit('/').next().unwrap().to_owned(), s.parse()))
        .collect();
    assert_eq!(records.len(), 2);
    let (name, p) = &records[0];
    assert_eq!(name, "handicap2.ngf");
    assert_eq!(p.games[0].info.handicap, Some(2));
    let (name, p) = &records[1];
    assert_eq!(name, "test.gib");
    let g = &p.games[0];
    // `GAMEBLACKNAME=kim (2D)`, `GAMEWHITENAME=wildsim1 (2D)`, `GRLT:8` (White on time),
    // `GONGJE:65`, `STO 0 2 1 15 3` ... `STO 0 233 2 6 6`.
    assert_eq!(g.info.black.as_deref(), Some("kim"));
    assert_eq!(g.info.white_rank.as_deref(), Some("2D"));
    assert_eq!(g.info.result.as_ref().map(|r| r.raw.as_str()), Some("W+T"));
    assert_eq!(g.info.komi, Some(650));
    assert_eq!(g.info.date.as_deref(), Some("2020-06-14"));
    assert_eq!(g.move_count(), 232);
    assert_eq!(
        g.events[0],
        Event::Play {
            color: Color::Black,
            mv: Move::Play(Point::new(15, 3))
        }
    );
}

#[test]
fn zip_archives() {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("kifudex-zip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.ZIP");
    {
        let f = std::fs::File::create(&path).unwrap();
        let mut z = zip::ZipWriter::new(f);
        let opts = zip::write::SimpleFileOptions::default();
        z.start_file("a/one.sgf", opts).unwrap();
        z.write_all(b"(;GM[1];B[pd];W[dp])(;B[aa])").unwrap();
        z.start_file("b/two.SGF", opts).unwrap();
        z.write_all(&bytes("SabakiHQ+sgf/tests/sgf/korean.sgf"))
            .unwrap();
        z.start_file("c/three.gib", opts).unwrap();
        z.write_all(b"\\HS").unwrap();
        z.start_file("d/four.txt", opts).unwrap();
        z.write_all(b"notes").unwrap();
        z.finish().unwrap();
    }
    let (sources, skipped) = collect_sources(&[&dir]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(sources.len(), 3);
    assert_eq!(sources[0].member.as_deref(), Some("a/one.sgf"));
    assert_eq!(sources[0].parse().games.len(), 2);
    assert_eq!(
        sources[1].parse().games[0].info.black.as_deref(),
        Some("이세돌")
    );
    // A `.gib` member is a record: this one, cut after its first line, is rejected
    // naming the line.
    let gib = sources[2].parse();
    assert!(gib.games.is_empty());
    assert_eq!(
        gib.rejected[0].kind,
        ErrorKind::BadRecord {
            format: "Tygem .gib",
            line: 1,
            reason: "no header line (\\[KEY=VALUE\\]) and no game section (\\GS)".into(),
        }
    );
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0].member.as_deref(), Some("d/four.txt"));
}

#[test]
fn tgz_archive() {
    let tgz =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/bgo_testsgf/TestSGF.tgz");
    let (sources, skipped) = collect_sources(&[tgz]);
    assert!(skipped.is_empty());
    let games: usize = sources.iter().map(|s| s.parse().games.len()).sum();
    assert_eq!(games, 286);
    assert!(sources.iter().all(|s| s.member.is_some()));
}

#[test]
fn nodes_after_variations_are_skipped_with_a_warning() {
    let moves = |src: &[u8]| {
        let p = parse_file(src, "synthetic.sgf", None);
        let g = &p.games[0];
        let n = g.events.iter().filter(|e| e.is_play()).count();
        (n, has(g, WarningKind::NodesAfterVariations))
    };
    // `;W[dd]` follows the variations of the first node: not SGF.
    assert_eq!(moves(b"(;SZ[19];B[pd](;W[dp])(;W[dd]);B[qq])"), (2, true));
    // The same at a deeper level of the main line.
    assert_eq!(
        moves(b"(;SZ[19];B[pd](;W[dp](;B[pp])(;B[qq]);W[cc])(;W[dd]))"),
        (3, true)
    );
    // Well-formed trees: no warning, whatever the variations hold.
    assert_eq!(
        moves(b"(;SZ[19];B[pd](;W[dp];B[pp])(;W[dd];B[qq]))"),
        (3, false)
    );
    assert_eq!(
        moves(b"(;SZ[19];B[pd](;W[dp]) ( ;W[dd]C[a;b]) )"),
        (2, false)
    );
    assert_eq!(moves(b"(;SZ[19];B[pd];W[dp])"), (2, false));
    // Across the corpus of edge cases, one file has them (gogui's verbose-format test:
    // `...Comment[]) ;Name[Lower left]...`); no well-formed file is flagged.
    let (sources, _) = collect_sources(&[tricky("")]);
    let flagged: Vec<String> = sources
        .iter()
        .filter(|s| {
            s.parse()
                .games
                .iter()
                .any(|g| has(g, WarningKind::NodesAfterVariations))
        })
        .map(|s| s.path.rsplit('/').next().unwrap_or("").to_string())
        .collect();
    assert_eq!(flagged, ["verbose-property-names.sgf"]);
}
