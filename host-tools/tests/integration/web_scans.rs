//! The web server's pattern scans, on the bundled sample's index (286 real professional
//! games), with the scan service's test pause after each slice of one block
//! (`ScanOptions::slice_delay`, ended early by a cancel) where a scan must be held open (no
//! timing is asserted: the pause only keeps a scan running while the test looks):
//! - while scans run, position searches, game lists and games all answer, each as the
//!   explorer answers directly; a scan past the bound gets 503 with `Retry-After` and
//!   `{"error": ...}` while the others still run;
//! - a scan whose client goes (a dropped stream, a closed `/api/pattern` connection) is
//!   stopped: `/api/info` counts it cancelled, and its slot serves the next scan;
//! - a kept scan answers `/api/pattern`, `/api/pattern/games` and the stream's last line
//!   byte for byte as a server that keeps nothing, and as the one-pass search
//!   (`pattern::search`, `games_with_hits`, `hits_page`) computes them.
//!
//! Run with `cargo test -p kifudex --release --test integration web_scans::`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kifudex::explore::request::Page;
use kifudex::explore::scan_cache::ScanOptions;
use kifudex::explore::{keep, Explorer};
use kifudex::pattern::search;
use kifudex::print::json::to_line;
use kifudex::web::{query_string, Limits, RunningServer};
use serde_json::Value;

/// The sample's index, built once.
fn sample() -> &'static [u8] {
    static BYTES: std::sync::OnceLock<&'static [u8]> = std::sync::OnceLock::new();
    BYTES.get_or_init(|| keep(kifudex::sample::sample_index().unwrap()))
}

fn explorer(options: ScanOptions) -> Arc<Explorer<'static>> {
    Arc::new(
        Explorer::open(sample(), "sample")
            .unwrap()
            .with_scan_options(options)
            .unwrap(),
    )
}

/// A server over the sample whose scans pause `delay` after each slice, at most
/// `max_scans` at once; and its explorer.
fn server(max_scans: usize, delay: Duration) -> (RunningServer, Arc<Explorer<'static>>) {
    let e = explorer(ScanOptions {
        threads: Some(2),
        slice_delay: delay,
        ..ScanOptions::default()
    });
    let limits = Limits {
        max_scans,
        ..Limits::default()
    };
    let srv = RunningServer::start("127.0.0.1:0".parse().unwrap(), e.clone(), limits).unwrap();
    (srv, e)
}

/// An answer: status, head, body.
struct Reply {
    status: u16,
    head: String,
    body: String,
}

/// Sends a GET as HTTP/1.0 (a body that ends with the connection, never chunked).
fn send(addr: SocketAddr, target: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(s, "GET {target} HTTP/1.0\r\nHost: localhost\r\n\r\n").unwrap();
    s
}

/// The head of an answer, and the reader of its body.
fn head(s: TcpStream) -> (u16, String, BufReader<TcpStream>) {
    let mut r = BufReader::new(s);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        if line == "\r\n" || line.is_empty() {
            break;
        }
        head += &line;
    }
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap();
    (status, head, r)
}

fn get(addr: SocketAddr, target: &str) -> Reply {
    let (status, head, mut r) = head(send(addr, target));
    let mut body = String::new();
    r.read_to_string(&mut body).unwrap();
    Reply { status, head, body }
}

fn header(head: &str, name: &str) -> Option<String> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
    })
}

fn info(addr: SocketAddr) -> Value {
    let r = get(addr, "/api/info");
    assert_eq!(r.status, 200, "{}", r.body);
    serde_json::from_str::<Value>(&r.body).unwrap()["scans"].clone()
}

/// Waits until the server's scan counts satisfy `ok` (at most 60 s, then fails).
fn wait_for(addr: SocketAddr, what: &str, ok: impl Fn(&Value) -> bool) -> Value {
    let t = Instant::now();
    loop {
        let s = info(addr);
        if ok(&s) {
            return s;
        }
        assert!(t.elapsed() < Duration::from_secs(60), "{what}: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A stream opened and read up to its first progress line (its scan is running then).
fn running_stream(addr: SocketAddr, query: &str) -> BufReader<TcpStream> {
    let (status, head, mut r) = head(send(addr, &format!("/api/pattern/stream?{query}")));
    assert_eq!(status, 200, "{query}: {head}");
    assert_eq!(
        header(&head, "content-type").as_deref(),
        Some("application/x-ndjson")
    );
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    let v: Value = serde_json::from_str(&line).unwrap();
    let p = &v["progress"];
    assert!(
        p["scanned"].as_u64().unwrap() < p["total"].as_u64().unwrap(),
        "{line}"
    );
    assert_eq!(p["total"], 286, "{line}");
    r
}

const POSITIONS: [&str; 6] = ["", "pd", "pd,dp", "pd,dd,pp", "qd,dc,pq", "dp,pp,dd,pd"];

#[test]
fn quick_answers_go_on_while_scans_run_and_the_next_scan_is_refused() {
    let (srv, e) = server(2, Duration::from_secs(600));
    let addr = srv.addr();
    let a = running_stream(addr, "pattern=XX.%2FX..%2F...&by_year=1");
    let b = running_stream(addr, "pattern=.X.%2FX.X");
    assert_eq!(info(addr)["running"], 2);
    // Both slots are taken: refused at once, with Retry-After and the reason.
    for target in [
        "/api/pattern?pattern=X",
        "/api/pattern/stream?pattern=X",
        "/api/pattern/games?pattern=O",
    ] {
        let r = get(addr, target);
        assert_eq!(r.status, 503, "{target}: {}", r.body);
        assert_eq!(
            header(&r.head, "retry-after").as_deref(),
            Some("2"),
            "{target}"
        );
        let v: Value = serde_json::from_str(&r.body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("busy"), "{}", r.body);
    }
    // The quick answers, each as the explorer gives it.
    let mut answered = 0;
    for round in 0..5 {
        for moves in POSITIONS {
            let q = format!("moves={moves}");
            let r = get(addr, &format!("/api/search?{q}"));
            assert_eq!(r.status, 200, "{q}: {}", r.body);
            let want = to_line(&e.search(&query_string::search(&q).unwrap()).unwrap());
            assert_eq!(r.body, want, "{q}");
            let g = format!("{q}&limit=5&offset={round}");
            let r = get(addr, &format!("/api/games?{g}"));
            assert_eq!(r.status, 200, "{g}: {}", r.body);
            assert_eq!(
                r.body,
                to_line(&e.games(&query_string::games(&g).unwrap()).unwrap())
            );
            answered += 2;
        }
        let id = round * 50;
        let r = get(addr, &format!("/api/game/{id}"));
        assert_eq!(r.status, 200);
        assert_eq!(r.body, to_line(&e.game(id).unwrap()));
    }
    assert_eq!(answered, 60);
    // The scans ran all along.
    let s = info(addr);
    assert_eq!(
        (s["running"].as_u64(), s["completed"].as_u64()),
        (Some(2), Some(0))
    );
    // Their clients go: both scans stop, and their slots serve the next ones.
    drop((a, b));
    let s = wait_for(addr, "the scans stop", |s| s["running"] == 0);
    assert_eq!(s["cancelled"], 2, "{s}");
    assert_eq!(s["completed"], 0, "{s}");
    let _next = running_stream(addr, "pattern=X");
    let _other = running_stream(addr, "pattern=O");
    assert_eq!(info(addr)["running"], 2);
}

#[test]
fn a_scan_whose_client_closes_the_connection_is_stopped() {
    let (srv, _) = server(1, Duration::from_secs(600));
    let addr = srv.addr();
    let s = send(addr, "/api/pattern?pattern=XX.%2FX..%2F...");
    wait_for(addr, "the scan starts", |s| s["running"] == 1);
    assert_eq!(get(addr, "/api/pattern?pattern=X").status, 503);
    s.shutdown(std::net::Shutdown::Both).unwrap();
    drop(s);
    let c = wait_for(addr, "the scan stops", |s| s["running"] == 0);
    assert_eq!(
        (c["cancelled"].as_u64(), c["completed"].as_u64()),
        (Some(1), Some(0))
    );
    // The slot is free again.
    let _next = running_stream(addr, "pattern=X");
    assert_eq!(info(addr)["running"], 1);
}

#[test]
fn kept_scans_answer_as_new_ones_do() {
    let (srv, e) = server(2, Duration::ZERO);
    let addr = srv.addr();
    // A second server's explorer that keeps nothing: every answer from a scan of its own.
    let fresh = explorer(ScanOptions {
        cache_bytes: 0,
        ..ScanOptions::default()
    });
    let file = kifudex_core::index_file::IndexFile::open(sample()).unwrap();
    let mut compared = 0;
    let mut kept_before = info(addr)["cached"].as_u64().unwrap();
    for (rows, extra) in [
        ("XX.%2FX..%2F...", ""),
        (".X.%2FX.X", "&fixed_color=1"),
        ("..X*%2F..*O", "&area=0,0,0,0&year_from=2000"),
        ("X.O%2F.X.", "&winner=W&player=a"),
        ("X", "&handicap=0"),
    ] {
        let base = format!("pattern={rows}{extra}");
        for by_year in ["", "&by_year=1"] {
            let q = format!("{base}{by_year}");
            let req = query_string::pattern(&q).unwrap();
            let want = to_line(&fresh.pattern(&req));
            // The one-pass search's counts, a second way.
            let whole = kifudex::explore::pattern::counts(&file.index, &file.pattern, &req);
            assert_eq!(want, to_line(&whole), "{q}");
            let first = get(addr, &format!("/api/pattern?{q}"));
            let again = get(addr, &format!("/api/pattern?{q}"));
            assert_eq!((first.status, again.status), (200, 200), "{q}");
            assert_eq!(first.body, want, "{q}");
            assert_eq!(again.body, want, "{q}");
            // The stream of a kept scan: its one line is the answer.
            let stream = get(addr, &format!("/api/pattern/stream?{q}"));
            assert_eq!(stream.body, format!("{want}\n"), "{q}");
            compared += 3;
        }
        let kept = info(addr)["cached"].as_u64().unwrap();
        assert!(kept >= kept_before + 3, "{base}: {kept} {kept_before}");
        kept_before = kept;
        let req = query_string::pattern(&base).unwrap();
        let (all, matching) =
            search::games_with_hits(&file.index, &file.pattern, &req, 0, usize::MAX);
        for (limit, offset) in [(100, 0), (3, 2), (7, 40), (5, 100_000)] {
            let q = format!("{base}&limit={limit}&offset={offset}");
            let page = Page { limit, offset };
            let r = get(addr, &format!("/api/pattern/games?{q}"));
            assert_eq!(r.status, 200, "{q}: {}", r.body);
            assert_eq!(r.body, to_line(&fresh.pattern_games(&req, page)), "{q}");
            let v: Value = serde_json::from_str(&r.body).unwrap();
            assert_eq!(v["matching"], matching, "{q}");
            let ids: Vec<u64> = v["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].as_u64().unwrap())
                .collect();
            let want: Vec<u64> = all
                .iter()
                .skip(offset)
                .take(limit)
                .map(|g| g.game as u64)
                .collect();
            assert_eq!(ids, want, "{q}");
            // A page of hits from the kept scan is the one-pass list's page.
            let hits = e.pattern_hits(&req, page);
            let listed: Vec<(u32, u32)> =
                hits.list.iter().map(|h| (h.game, h.move_number)).collect();
            let one_pass: Vec<(u32, u32)> =
                search::hits_page(&file.index, &file.pattern, &req, page)
                    .iter()
                    .map(|(g, h)| (*g, h.move_number))
                    .collect();
            assert_eq!(listed, one_pass, "{q}");
            compared += 3;
        }
    }
    assert!(compared >= 90, "{compared}");
    let s = info(addr);
    assert_eq!(s["cancelled"], 0, "{s}");
}

/// The stream of a scan that runs: progress lines (games scanned growing), then the line
/// `/api/pattern` answers with, byte for byte.
#[test]
fn the_streams_last_line_is_the_pattern_answer() {
    let (srv, _) = server(2, Duration::from_millis(120));
    let addr = srv.addr();
    let q = "pattern=X.%2F.O&by_year=1&year_to=2010";
    let (status, _, r) = head(send(addr, &format!("/api/pattern/stream?{q}")));
    assert_eq!(status, 200);
    let lines: Vec<String> = r.lines().map(|l| l.unwrap()).collect();
    let (last, progress) = lines.split_last().unwrap();
    assert!(!progress.is_empty(), "no progress line: {lines:?}");
    let mut before = 0;
    for p in progress {
        let v: Value = serde_json::from_str(p).unwrap();
        let scanned = v["progress"]["scanned"].as_u64().unwrap();
        assert!(scanned > before && scanned < 286, "{p}");
        assert!(v["progress"]["continuations"].is_array(), "{p}");
        before = scanned;
    }
    let whole = get(addr, &format!("/api/pattern?{q}"));
    assert_eq!(whole.status, 200);
    assert_eq!(&whole.body, last);
    let c = info(addr);
    assert_eq!(
        (c["completed"].as_u64(), c["cancelled"].as_u64()),
        (Some(1), Some(0))
    );
}
