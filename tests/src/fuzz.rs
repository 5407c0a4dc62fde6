//! The bodies of the fuzz targets (`fuzz/`, libFuzzer through `cargo fuzz`): one function
//! per door through which kifudex takes what strangers send, each checking more than "no
//! panic" where there is more to check. Each `fuzz/fuzz_targets/<name>.rs` calls its
//! function here, and the integration test `fuzz_replay` (stable Rust, no libFuzzer) feeds
//! it every file of `fuzz/corpus/<name>/` and `fuzz/regressions/<name>/`: a crash found
//! once stays a test. [`TARGETS`] lists them.
//!
//! The doors: the SGF reader and the readers of `.gib`, `.ngf` and `.ugf` (a record read,
//! written by the SGF writer and read again is the same game; nothing read passes the
//! limits it was read within), the archive readers (no record past the byte limit, no more
//! members than the limit), an index file opened and asked every kind of question, a
//! valid index damaged (refused by `verify`; and sealed again with correct checksums, so
//! that the readers' own checks are what is fuzzed), a book opened and asked for hints, the hint
//! protocol as raw lines and as generated sessions of board snapshots for the tracker, the
//! GTP engine and the KataGo analysis protocol (every answer well formed), the web API's
//! query strings (read into requests and answered), and the move notations (read, written
//! and read again).

use std::sync::OnceLock;

use arbitrary::Unstructured;
use kifudex::explore::scan_cache::ScanOptions;
use kifudex::explore::Explorer;
use kifudex::gtp::engine::{Engine, Step};
use kifudex::gtp::json_engine::JsonEngine;
use kifudex::gtp::protocol::{read_line, RawLine};
use kifudex::input::{self, Source};
use kifudex::print::json::to_line;
use kifudex::sgf::{self, ParsedFile};
use kifudex::web::query_string;
use kifudex_core::book::Book;
use kifudex_core::format::{align8, Container, Kind};
use kifudex_core::index_file::IndexFile;
use kifudex_core::notation::{
    parse_bgo, parse_human, parse_moves, parse_sgf, parse_sgn, write_moves, write_sgn, Bgo, Human,
    Sgf, SgfMove, SgnStyle,
};
use kifudex_core::{Move, Size};

/// A valid index (the core's golden file: 10 games on 9x9): the file the damage target
/// damages.
pub const GOLDEN_INDEX: &[u8] = include_bytes!("../../core/tests/data/golden.kdx");

/// A valid book (the core's golden file): the book the hint protocol answers from.
pub const GOLDEN_BOOK: &[u8] = include_bytes!("../../core/tests/data/golden.kdb");

/// A target's body: one input, its invariants checked by assertions.
pub type Body = fn(&[u8]);

/// Every target: its name (the file under `fuzz/fuzz_targets/`, the folders under
/// `fuzz/corpus/` and `fuzz/regressions/`) and its body.
pub const TARGETS: &[(&str, Body)] = &[
    ("sgf", sgf_reader),
    ("records", line_records),
    ("archive", archive),
    ("index", index),
    ("index_damage", index_damage),
    ("sealed", sealed),
    ("book", book),
    ("hints", hints_lines),
    ("hints_tracked", hints_tracked),
    ("gtp", gtp),
    ("analysis", analysis),
    ("web", web_query),
    ("notation", notation),
];

/// Tight limits, so that inputs a fuzzer makes in a few hundred bytes reach them.
const TIGHT: sgf::Limits = sgf::Limits {
    nodes: 40,
    depth: 12,
    value_bytes: 64,
    events: 60,
};

/// Checks that a record's games read back the same once written by the SGF writer, and
/// that, read within [`TIGHT`] limits, no game passes them.
fn loopback(parsed: &ParsedFile, read: impl Fn(&sgf::Limits) -> ParsedFile) {
    for g in &parsed.games {
        let text = sgf::write_game(g.size, &g.info, &g.events);
        let back = sgf::parse_file(text.as_bytes(), "written.sgf", None);
        assert!(back.rejected.is_empty(), "written record refused: {text}");
        assert_eq!(back.games.len(), 1, "{text}");
        let b = &back.games[0];
        assert_eq!(b.size, g.size, "{text}");
        assert_eq!(b.info, g.info, "{text}");
        assert_eq!(b.events, g.events, "{text}");
        assert_eq!(b.end, None, "{text}");
    }
    let tight = read(&TIGHT);
    for g in &tight.games {
        assert!(
            g.events.len() as u64 <= TIGHT.events,
            "{} events",
            g.events.len()
        );
    }
    // A game refused for a limit stops the file: nothing is read after it.
    if let Some(k) = tight
        .rejected
        .iter()
        .position(|r| matches!(r.kind, sgf::ErrorKind::Limit(_)))
    {
        assert_eq!(k + 1, tight.rejected.len(), "read on after a limit");
    }
}

/// The SGF reader: never panics; what it reads loops back through the writer.
pub fn sgf_reader(data: &[u8]) {
    let parsed = sgf::parse_file(data, "fuzz.sgf", None);
    loopback(&parsed, |l| {
        sgf::parse_file_within(data, "fuzz.sgf", None, l)
    });
}

/// The readers of Tygem's `.gib`, WBaduk's `.ngf` and PandaNet's `.ugf` (the first byte
/// chooses): as [`sgf_reader`].
pub fn line_records(data: &[u8]) {
    let Some((&which, body)) = data.split_first() else {
        return;
    };
    let name = ["fuzz.gib", "fuzz.ngf", "fuzz.ugf"][usize::from(which % 3)];
    let parsed = sgf::parse_record(body, name, None);
    loopback(&parsed, |l| sgf::parse_record_within(body, name, None, l));
}

/// The archive readers (the first byte chooses the format: `.zip`, `.tgz`, `.tar.bz2`,
/// `.tar.xz`, `.7z`, `.tar`), within small limits: no record handed on is past the byte
/// limit, no more members than the limit are read, and the records read are parsed.
pub fn archive(data: &[u8]) {
    let Some((&which, body)) = data.split_first() else {
        return;
    };
    let names = [
        "fuzz.zip",
        "fuzz.tgz",
        "fuzz.tar.bz2",
        "fuzz.tar.xz",
        "fuzz.7z",
        "fuzz.tar",
    ];
    let name = names[usize::from(which) % names.len()];
    let limits = input::Limits {
        record_bytes: 4096,
        archive_members: 16,
        decoder_bytes: 8 << 20,
        sgf: TIGHT,
    };
    let mut sources: Vec<Source> = Vec::new();
    let mut skipped = Vec::new();
    input::collect_archive_each(
        name,
        body.to_vec(),
        &limits,
        &mut |s| sources.push(s),
        &mut skipped,
    );
    let members = sources.len() + skipped.iter().filter(|s| s.member.is_some()).count();
    assert!(
        members as u64 <= limits.archive_members,
        "{members} members"
    );
    for s in &sources {
        assert!(s.bytes.len() as u64 <= limits.record_bytes);
        let _ = s.parse_within(&limits.sgf);
    }
}

/// Every kind of question on an explorer (no cache, so that each input is answered
/// afresh).
fn ask_everything(e: &Explorer<'_>) {
    let _ = to_line(&e.info());
    for q in [
        "moves=",
        "moves=pd",
        "moves=pd,dp,pp",
        "ab=pd,dd&aw=dp&to_move=W",
    ] {
        if let Ok(p) = query_string::position(q) {
            let _ = e.position(&p).map(|a| to_line(&a));
        }
        if let Ok(s) = query_string::search(q) {
            let _ = e.search(&s).map(|a| to_line(&a));
        }
    }
    for q in ["moves=pd&limit=5", "moves=&sort=oldest&limit=3&offset=2"] {
        if let Ok(g) = query_string::games(q) {
            let _ = e.games(&g).map(|a| to_line(&a));
        }
    }
    if let Ok(y) = query_string::years("moves=pd") {
        let _ = e.years(&y).map(|a| to_line(&a));
    }
    if let Ok(r) = query_string::ranks("moves=pd") {
        let _ = e.ranks(&r).map(|a| to_line(&a));
    }
    for q in [
        "pattern=X.O/.X./...&area=0,0,6,6",
        "pattern=X*/OX&fixed_color=1",
    ] {
        if let Ok(p) = query_string::pattern(q) {
            let _ = to_line(&e.pattern(&p));
        }
    }
    let games = e.game_count();
    for id in [0, 1, games / 2, games.saturating_sub(1), games] {
        let _ = e.game(id).map(|a| to_line(&a));
        let _ = e.game_sgf(id);
        let _ = e.view_game(id, 10).is_ok();
    }
}

/// Pattern scans kept by nobody (each fuzz input is a new question).
fn no_cache() -> ScanOptions {
    ScanOptions {
        cache_bytes: 0,
        ..ScanOptions::default()
    }
}

/// An index file: whatever opens answers every question without a panic, and whatever
/// `verify` accepts opens.
pub fn index(data: &[u8]) {
    let verified = kifudex::info::verify(data).is_ok();
    match Explorer::open(data, "fuzz.kdx").and_then(|e| e.with_scan_options(no_cache())) {
        Ok(e) => ask_everything(&e),
        Err(err) => assert!(!verified, "verified but not opened: {err:#}"),
    }
    let _ = kifudex::info::describe(data, false);
}

/// A valid index damaged by the input (pairs of a 16-bit place and a byte to XOR there,
/// places taken modulo the file's length): unless the damage undoes itself, `verify`
/// refuses it; a structural open that accepts it answers without a panic.
pub fn index_damage(data: &[u8]) {
    let mut file = GOLDEN_INDEX.to_vec();
    for edit in data.chunks_exact(4) {
        let at = u32::from_le_bytes([edit[0], edit[1], edit[2], 0]) as usize % file.len();
        file[at] ^= edit[3];
    }
    if file == GOLDEN_INDEX {
        return;
    }
    assert!(
        IndexFile::open_verified(&file).is_err(),
        "damaged index verified"
    );
    assert!(
        kifudex::info::verify(&file).is_err(),
        "damaged index verified"
    );
    if let Ok(e) =
        Explorer::open(&file, "damaged.kdx").and_then(|e| e.with_scan_options(no_cache()))
    {
        ask_everything(&e);
    }
}

/// The golden index or book (bit 1 of the first byte) damaged by the input as
/// [`index_damage`] does (bit 0: the header or the body), then sealed again with correct
/// checksums, so that only the readers' own checks stand between the damage and the code
/// that reads: an index that opens answers every question without a panic and whatever
/// `verify` accepts opens ([`index`]); a book is opened and asked for hints ([`book`]).
pub fn sealed(data: &[u8]) {
    let Some((&which, edits)) = data.split_first() else {
        return;
    };
    let (file, kind) = if which & 2 == 0 {
        (GOLDEN_INDEX, Kind::Index)
    } else {
        (GOLDEN_BOOK, Kind::Book)
    };
    let c = Container::open(file, kind).expect("a golden file");
    let (mut header, mut body) = (c.header.to_vec(), c.body.to_vec());
    let target = if which & 1 == 0 {
        &mut body
    } else {
        &mut header
    };
    if target.is_empty() {
        return;
    }
    for edit in edits.chunks_exact(4) {
        let at = u32::from_le_bytes([edit[0], edit[1], edit[2], 0]) as usize % target.len();
        target[at] ^= edit[3];
    }
    let mut damaged = Container::preamble(kind, &header, &body).to_vec();
    damaged.extend_from_slice(&header);
    damaged.resize(align8(damaged.len()), 0);
    damaged.extend_from_slice(&body);
    match kind {
        Kind::Index => index(&damaged),
        _ => book(&damaged),
    }
}

/// Serves the hint protocol's `requests` from `book`; checks every reply is one line of
/// ASCII and no request gets more than one.
fn serve_hints(book: &[u8], requests: &[u8]) {
    let mut out = Vec::new();
    let _ = kifudex::hints::serve(book, requests, &mut out, false, |_| {});
    assert!(out.is_ascii(), "a reply that is not ASCII");
    let replies = out.iter().filter(|&&c| c == b'\n').count();
    let asked = requests.split(|&c| c == b'\n').count();
    assert!(replies <= asked, "{replies} replies to {asked} lines");
}

/// A book file opened and asked for hints.
pub fn book(data: &[u8]) {
    let opened = Book::open(data).is_ok();
    let verified = kifudex::info::verify(data).is_ok();
    assert!(opened || !verified, "verified but not opened");
    serve_hints(
        data,
        b"moves\nmoves pd\nmoves pd,dp,pp,dd\nboard 9 .........................................................................\nboard 19 ................................................................................................................................................................................................................................................................................................................................................................................ B\ntrack\ngame\nquit\n",
    );
}

/// The hint protocol's lines as they come, answered from a valid book.
pub fn hints_lines(data: &[u8]) {
    serve_hints(GOLDEN_BOOK, data);
}

/// Sessions of the hint protocol made from the input (`arbitrary`): board snapshots of a
/// game in progress (stones placed, lifted and moved a few at a time, as a board's
/// sensors see them) mixed with the other requests, so that the tracker meets sequences of
/// snapshots that raw bytes would seldom make.
pub fn hints_tracked(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let mut lines = String::new();
    let size: usize = match u.int_in_range(0..=3u8).unwrap_or(0) {
        0 => 19,
        1 => 9,
        2 => 13,
        _ => u.int_in_range(1..=19u8).map_or(19, usize::from),
    };
    let mut cells = vec![b'.'; size * size];
    let mut black = true;
    while !u.is_empty() && lines.len() < 64 * 1024 {
        match u.int_in_range(0..=15u8).unwrap_or(0) {
            0..=6 => {
                // A stone placed, alternating colours.
                let at = u.choose_index(cells.len()).unwrap_or(0);
                cells[at] = if black { b'X' } else { b'O' };
                black = !black;
            }
            7 => {
                let at = u.choose_index(cells.len()).unwrap_or(0);
                cells[at] = b'.';
            }
            8..=11 => {
                let side = match u.int_in_range(0..=2u8).unwrap_or(0) {
                    0 => "",
                    1 => " B",
                    _ => " W",
                };
                lines.push_str(&format!(
                    "board {size} {}{side}\n",
                    String::from_utf8_lossy(&cells)
                ));
            }
            12 => lines.push_str("track\n"),
            13 => lines.push_str(["new\n", "untrack\n", "game\n"][u.choose_index(3).unwrap_or(0)]),
            14 => {
                let n = u.int_in_range(0..=6u8).unwrap_or(0);
                let moves: Vec<String> = (0..n)
                    .map(|_| {
                        let x = u.int_in_range(b'a'..=b's').unwrap_or(b'a') as char;
                        let y = u.int_in_range(b'a'..=b's').unwrap_or(b'a') as char;
                        format!("{x}{y}")
                    })
                    .collect();
                lines.push_str(&format!("moves {}\n", moves.join(",")));
            }
            _ => {
                let raw: &str = u.arbitrary().unwrap_or("");
                lines.push_str(&raw.replace('\n', " "));
                lines.push('\n');
            }
        }
    }
    serve_hints(GOLDEN_BOOK, lines.as_bytes());
}

/// The explorer the protocols and the web API answer from: the bundled sample (286 games
/// on 19x19) indexed in memory, once a process.
fn golden() -> &'static Explorer<'static> {
    static E: OnceLock<Explorer<'static>> = OnceLock::new();
    E.get_or_init(|| {
        let bytes: &'static [u8] = Vec::leak(kifudex::sample::sample_index().expect("sample"));
        Explorer::open(bytes, "sample")
            .and_then(|e| e.with_scan_options(no_cache()))
            .expect("the sample's index opens")
    })
}

/// The input's lines as the engines read them (at most 64 KiB a line, the rest dropped).
fn raw_lines(data: &[u8]) -> Vec<RawLine> {
    let mut r = data;
    let mut out = Vec::new();
    while let Ok(Some(l)) = read_line(&mut r) {
        out.push(l);
    }
    out
}

/// The GTP engine: every answer is `=` or `?` and ends with an empty line. (`loadsgf`
/// lines are left out: they open files by name.)
pub fn gtp(data: &[u8]) {
    let mut engine = Engine::new(golden(), Default::default());
    for line in raw_lines(data) {
        if memchr_loadsgf(&line.bytes) {
            continue;
        }
        let text = match engine.handle(&line) {
            None => continue,
            Some(Step::Answer(t)) => t,
            Some(Step::Quit(t)) => {
                check_gtp_answer(&t);
                return;
            }
            // The head of an analysis (`=id` and a line feed): its lines follow.
            Some(Step::Analyze { head, .. }) => {
                assert!(head.starts_with('=') && head.ends_with('\n'), "{head:?}");
                continue;
            }
        };
        check_gtp_answer(&text);
    }
}

fn memchr_loadsgf(b: &[u8]) -> bool {
    b.windows(7).any(|w| w.eq_ignore_ascii_case(b"loadsgf"))
}

fn check_gtp_answer(t: &str) {
    assert!(t.starts_with('=') || t.starts_with('?'), "{t:?}");
    assert!(t.ends_with("\n\n"), "{t:?}");
}

/// KataGo's JSON analysis protocol: every answer is one line of JSON.
pub fn analysis(data: &[u8]) {
    let mut engine = JsonEngine::new(golden(), Default::default());
    for line in raw_lines(data) {
        for answer in engine.answer(&line) {
            assert!(!answer.contains('\n'), "{answer:?}");
            assert!(
                serde_json::from_str::<serde_json::Value>(&answer).is_ok(),
                "not JSON: {answer:?}"
            );
        }
    }
}

/// The web API's query strings (the first byte chooses the route), read into requests as
/// the server reads them and answered by the explorer of the golden index.
pub fn web_query(data: &[u8]) {
    let Some((&which, body)) = data.split_first() else {
        return;
    };
    let q = String::from_utf8_lossy(body);
    let e = golden();
    let _ = match which % 10 {
        0 => query_string::position(&q).map(|p| e.position(&p).map(|a| to_line(&a))),
        1 => query_string::search(&q).map(|p| e.search(&p).map(|a| to_line(&a))),
        2 => query_string::games(&q).map(|p| e.games(&p).map(|a| to_line(&a))),
        3 => query_string::years(&q).map(|p| e.years(&p).map(|a| to_line(&a))),
        4 => query_string::ranks(&q).map(|p| e.ranks(&p).map(|a| to_line(&a))),
        5 => query_string::pattern(&q).map(|p| Ok(to_line(&e.pattern(&p)))),
        6 => {
            query_string::pattern_games(&q).map(|(p, page)| Ok(to_line(&e.pattern_games(&p, page))))
        }
        7 => query_string::sgf_text(&q).map(|t| e.read_sgf(&t).map(|a| to_line(&a))),
        8 => query_string::position(&q).map(|p| e.predict(&p).map(|a| to_line(&a))),
        _ => query_string::game_id(&q).map(|(id, sgf)| {
            if sgf {
                e.game_sgf(id)
            } else {
                e.game(id).map(|a| to_line(&a))
            }
        }),
    };
}

/// The move notations: what reads is written and read again the same (the first byte
/// chooses the board size).
pub fn notation(data: &[u8]) {
    let Some((&which, body)) = data.split_first() else {
        return;
    };
    let size = Size::square(1 + which % 19).unwrap_or(Size::STANDARD);
    let s = String::from_utf8_lossy(body);
    if let Ok(m) = parse_human(&s, size) {
        assert_eq!(
            parse_human(&Human(m, size).to_string(), size),
            Ok(m),
            "{s:?}"
        );
    }
    if let Ok(m) = parse_bgo(&s, size) {
        assert_eq!(parse_bgo(&Bgo(m).to_string(), size), Ok(m), "{s:?}");
    }
    if let Ok(m) = parse_sgf(&s, size) {
        if let SgfMove::Play(p) = m {
            let again = parse_sgf(&Sgf(Move::Play(p)).to_string(), size);
            assert_eq!(again, Ok(m), "{s:?}");
        }
    }
    let moves: Vec<Move> = parse_moves(&s, size).map_while(Result::ok).collect();
    let mut text = String::new();
    if write_moves(&mut text, moves.iter().copied()).is_ok() {
        let again: Result<Vec<Move>, _> = parse_moves(&text, size).collect();
        assert_eq!(again.as_deref(), Ok(moves.as_slice()), "{s:?} -> {text:?}");
    }
    if let Ok((sgn_size, items)) = parse_sgn(&s) {
        let items: Vec<_> = items.map_while(Result::ok).collect();
        let mut text = String::new();
        if write_sgn(&mut text, sgn_size, items.iter().copied(), SgnStyle::Spaces).is_ok() {
            let (size2, again) = parse_sgn(&text).expect("written SGN reads");
            assert_eq!(size2, sgn_size);
            let again: Result<Vec<_>, _> = again.collect();
            assert_eq!(again.as_deref(), Ok(items.as_slice()), "{s:?} -> {text:?}");
        }
    }
    let _ = kifudex::position::from_sgf(body, "fuzz.sgf", Some(usize::from(which)));
}
