//! Position searches while long pattern scans run: `kifudex serve` (the release binary, its
//! default limits: 2 scans at once) on a large index, 4 long pattern scans (3x3 patterns
//! anywhere) sent at once, then 1,000 position searches (positions of the index's own
//! games, the first 0 to 30 moves) one after another on a keep-alive connection, all on
//! loopback. Prints the searches' latency (p50, p90, p99, max) and failures, each scan's
//! status and time, and the server's scan counts. Bounded: every socket has a timeout, the
//! server is ended at the end. Numbers are reported, never asserted.
//!
//! ```sh
//! cargo build --release -p kifudex
//! KIFUDEX_LOAD_INDEX=/path/to/large.kdx cargo bench -p kifudex-bench --bench pattern_load
//! ```
//!
//! `KIFUDEX_BIN` names another `kifudex` binary (default: the workspace's
//! `target/release/kifudex`); `KIFUDEX_LOAD_SEARCHES` another number of searches.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The scans: 3x3 shapes anywhere, each one scan of every game.
const SCANS: [&str; 4] = ["XX./X../...", "X.X/.O./...", "XO./O../...", ".X./X.O/..."];

/// The server process, ended when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One HTTP/1.1 connection kept alive.
struct Conn {
    reader: BufReader<TcpStream>,
}

impl Conn {
    fn open(addr: SocketAddr) -> std::io::Result<Conn> {
        let s = TcpStream::connect(addr)?;
        s.set_read_timeout(Some(Duration::from_secs(120)))?;
        s.set_nodelay(true)?;
        Ok(Conn {
            reader: BufReader::new(s),
        })
    }

    /// GET `target`: the status, the `Retry-After` header and the body.
    fn get(&mut self, target: &str) -> std::io::Result<(u16, Option<String>, Vec<u8>)> {
        write!(
            self.reader.get_mut(),
            "GET {target} HTTP/1.1\r\nHost: localhost\r\n\r\n"
        )?;
        let mut status = 0;
        let mut length = 0usize;
        let mut retry = None;
        let mut first = true;
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line)? == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if first {
                status = line
                    .split(' ')
                    .nth(1)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
                first = false;
            } else if let Some((k, v)) = line.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    length = v.trim().parse().unwrap_or(0);
                } else if k.eq_ignore_ascii_case("retry-after") {
                    retry = Some(v.trim().to_owned());
                }
            }
        }
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body)?;
        Ok((status, retry, body))
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    let Ok(index) = std::env::var("KIFUDEX_LOAD_INDEX") else {
        eprintln!("pattern_load: set KIFUDEX_LOAD_INDEX to a large index (see the module doc)");
        return;
    };
    let searches: usize = std::env::var("KIFUDEX_LOAD_SEARCHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let bin = std::env::var("KIFUDEX_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/release/kifudex")
        });
    let mut child = Command::new(&bin)
        .args(["serve", "--index", &index, "--addr", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
    let stderr = child.stderr.take().unwrap();
    let server = Server(child);
    // The server's log: its address first, then one line per scan.
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let opened = Instant::now();
    let addr: SocketAddr = loop {
        let line = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("the server did not start");
        if let Some(rest) = line.split("http://").nth(1) {
            break rest.split('/').next().unwrap().parse().unwrap();
        }
    };
    println!(
        "server: {index} at {addr} (up in {:.2} s)",
        opened.elapsed().as_secs_f64()
    );

    // Positions of the index's own games.
    let mut conn = Conn::open(addr).unwrap();
    let (_, _, info) = conn.get("/api/info").unwrap();
    let games = serde_json::from_slice::<Value>(&info).unwrap()["games"]
        .as_u64()
        .unwrap();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut rand = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n.max(1)
    };
    let mut targets = Vec::new();
    while targets.len() < 200 {
        let id = rand(games);
        let (status, _, body) = conn.get(&format!("/api/game/{id}")).unwrap();
        let v: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let plain = v["setup"]["B"].as_array().is_some_and(|a| a.is_empty())
            && v["setup"]["W"].as_array().is_some_and(|a| a.is_empty());
        let Some(moves) = v["moves"].as_array().filter(|_| status == 200 && plain) else {
            continue;
        };
        let alternating = moves
            .iter()
            .enumerate()
            .all(|(i, m)| m["color"] == if i % 2 == 0 { "B" } else { "W" });
        if !alternating || moves.len() < 30 {
            continue;
        }
        let k = rand(31) as usize;
        let list: Vec<&str> = moves[..k]
            .iter()
            .filter_map(|m| m["move"].as_str())
            .collect();
        targets.push(format!("/api/search?moves={}", list.join(",")));
    }

    // The scans, at once.
    let started = Instant::now();
    let scans: Vec<_> = SCANS
        .iter()
        .map(|rows| {
            let target = format!("/api/pattern?pattern={}", rows.replace('/', "%2F"));
            std::thread::spawn(move || {
                let t = Instant::now();
                let r = Conn::open(addr).and_then(|mut c| c.get(&target));
                (target, r.map(|(s, retry, _)| (s, retry)), t.elapsed())
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));

    // The searches, one after another.
    let mut times = Vec::with_capacity(searches);
    let mut failures = 0;
    let mut conn = Conn::open(addr).unwrap();
    for i in 0..searches {
        let target = &targets[i % targets.len()];
        let t = Instant::now();
        match conn.get(target) {
            Ok((200, _, _)) => times.push(t.elapsed()),
            Ok((status, _, body)) => {
                failures += 1;
                eprintln!("{target}: {status} {}", String::from_utf8_lossy(&body));
            }
            Err(e) => {
                failures += 1;
                eprintln!("{target}: {e}");
                conn = Conn::open(addr).unwrap();
            }
        }
    }
    let searched = started.elapsed();
    let (_, _, during) = conn.get("/api/info").unwrap();
    times.sort();
    println!(
        "{searches} position searches while the scans ran, in {:.2} s: p50 {}, p90 {}, p99 {}, max {}; {failures} failures",
        searched.as_secs_f64(),
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.9)),
        ms(percentile(&times, 0.99)),
        ms(times.last().copied().unwrap_or_default()),
    );
    println!(
        "scans at the searches' end: {}",
        serde_json::from_slice::<Value>(&during).unwrap()["scans"]
    );
    for s in scans {
        let (target, r, took) = s.join().unwrap();
        match r {
            Ok((status, retry)) => println!(
                "scan {target}: {status}{} after {:.2} s",
                retry
                    .map(|r| format!(" (Retry-After {r})"))
                    .unwrap_or_default(),
                took.as_secs_f64()
            ),
            Err(e) => println!("scan {target}: failed: {e}"),
        }
    }
    let (_, _, after) = Conn::open(addr).unwrap().get("/api/info").unwrap();
    println!(
        "scans in all: {}",
        serde_json::from_slice::<Value>(&after).unwrap()["scans"]
    );
    for line in rx.try_iter() {
        println!("server: {line}");
    }
    drop(server);
}
