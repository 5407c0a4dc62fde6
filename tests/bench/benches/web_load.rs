//! Load on the web board's API over loopback: 20,000 requests over 64 keep-alive
//! connections, mixing `/api/search`, `/api/games` and `/api/game/ID` on the fox_pro index;
//! prints requests per second, latency percentiles and errors. Bounded in count and time
//! (it stops after `KIFUDEX_LOAD_SECONDS`, default 120 s, whatever is left).
//!
//! ```sh
//! cargo bench -p kifudex-bench --bench web_load
//! KIFUDEX_LOAD_REQUESTS=5000 KIFUDEX_LOAD_CONNECTIONS=16 cargo bench -p kifudex-bench --bench web_load
//! ```
//!
//! The server (in this process, `kifudex::web::RunningServer` with the default limits: as
//! many compute workers as cores) and the client (64 threads) share the machine's cores.
//! Numbers are reported, never asserted.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kifudex::explore::answer::letters::sgf;
use kifudex::explore::{keep, Explorer};
use kifudex::print::json::to_line;
use kifudex::web::{Limits, RunningServer};
use kifudex_core::Color;

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The requests of the mix: searches of positions from real games (the first 0 to 40
/// moves), pages of their game lists, and whole games.
fn targets(explorer: &Explorer<'_>) -> Vec<String> {
    let count = explorer.game_count();
    let mut out = Vec::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut rand = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    while out.len() < 3000 {
        let id = rand(count as u64) as u32;
        let Ok(game) = explorer.game(id) else {
            continue;
        };
        let plain = game.setup.black.is_empty() && game.setup.white.is_empty();
        let moves: Vec<String> = game.moves.iter().map(|m| sgf(m.mv)).collect();
        // Alternating colours from Black, as `moves=` plays them.
        let alternating = game.moves.iter().enumerate().all(|(i, m)| {
            m.color
                == if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                }
        });
        if plain && alternating && moves.len() > 40 {
            let k = rand(41) as usize;
            let q = moves[..k].join(",");
            out.push(format!("/api/search?moves={q}"));
            out.push(format!(
                "/api/games?moves={q}&limit=25&offset={}",
                25 * rand(3)
            ));
        }
        out.push(format!("/api/game/{id}"));
    }
    out
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is read from the arguments.
    let requests = env_or("KIFUDEX_LOAD_REQUESTS", 20_000);
    let connections = env_or("KIFUDEX_LOAD_CONNECTIONS", 64);
    let seconds = env_or("KIFUDEX_LOAD_SECONDS", 120);
    let index_path = std::env::var("KIFUDEX_LOAD_INDEX").ok();

    let bytes = match &index_path {
        Some(p) => std::fs::read(p).expect("read the index"),
        None => {
            let corpus =
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/fox_pro");
            let (sources, skipped) = kifudex::input::collect_sources(&[corpus]);
            let (bytes, _) = kifudex::indexing::build_in_memory(
                sources,
                &skipped,
                &kifudex::indexing::BuildOptions::default(),
            )
            .expect("build the fox_pro index");
            bytes
        }
    };
    let explorer = Explorer::open(keep(bytes), "fox_pro").expect("index");
    let games = explorer.game_count();
    let targets = Arc::new(targets(&explorer));
    // What each kind of request costs in-process, without HTTP (one thread): the request
    // read, the explorer's answer, its JSON text.
    for kind in ["/api/search", "/api/games", "/api/game/"] {
        let t = Instant::now();
        let mut n = 0;
        for target in targets.iter().filter(|t| t.starts_with(kind)) {
            let (path, query) = target.split_once('?').unwrap_or((target, ""));
            let ok = match kind {
                "/api/search" => kifudex::web::query_string::search(query)
                    .is_ok_and(|q| explorer.search(&q).map(|a| to_line(&a)).is_ok()),
                "/api/games" => kifudex::web::query_string::games(query)
                    .is_ok_and(|q| explorer.games(&q).map(|a| to_line(&a)).is_ok()),
                _ => explorer
                    .game(path.trim_start_matches(kind).parse().unwrap())
                    .map(|r| to_line(&r))
                    .is_ok(),
            };
            assert!(ok, "{target}");
            n += 1;
        }
        eprintln!(
            "web_load: {kind:<12} in-process mean {:.1} us ({n} requests)",
            t.elapsed().as_secs_f64() * 1e6 / n.max(1) as f64
        );
    }
    let limits = Limits::default();
    let workers = limits.workers;
    let server = RunningServer::start("127.0.0.1:0".parse().unwrap(), Arc::new(explorer), limits)
        .expect("server");
    let addr = server.addr();
    eprintln!(
        "web_load: {games} games, {} distinct requests, {requests} requests over {connections} connections (server: {workers} workers), at most {seconds} s",
        targets.len()
    );

    let next = Arc::new(AtomicUsize::new(0));
    let errors = Arc::new(AtomicUsize::new(0));
    let latencies = Arc::new(Mutex::new(Vec::with_capacity(requests)));
    let deadline = Instant::now() + Duration::from_secs(seconds as u64);
    let start = Instant::now();
    let threads: Vec<_> = (0..connections)
        .map(|_| {
            let (next, errors, latencies, targets) = (
                next.clone(),
                errors.clone(),
                latencies.clone(),
                targets.clone(),
            );
            std::thread::spawn(move || {
                let mut mine = Vec::new();
                let mut conn = Conn::open(addr);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= requests || Instant::now() > deadline {
                        break;
                    }
                    let target = &targets[i % targets.len()];
                    let t = Instant::now();
                    match conn.get(target) {
                        Some(200) => mine.push(t.elapsed()),
                        _ => {
                            errors.fetch_add(1, Ordering::Relaxed);
                            conn = Conn::open(addr);
                        }
                    }
                }
                latencies.lock().unwrap().extend(mine);
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let wall = start.elapsed();
    let mut l = latencies.lock().unwrap().clone();
    l.sort();
    let pct = |p: f64| {
        l.get(((l.len() as f64 * p) as usize).min(l.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    let done = l.len() + errors.load(Ordering::Relaxed);
    println!(
        "web_load: {done} requests in {:.2} s: {:.0} requests/s; latency p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {} errors",
        wall.as_secs_f64(),
        l.len() as f64 / wall.as_secs_f64(),
        pct(0.50),
        pct(0.90),
        pct(0.99),
        l.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0),
        errors.load(Ordering::Relaxed),
    );
    drop(server);
}

/// One keep-alive connection.
struct Conn {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Conn {
    fn open(addr: SocketAddr) -> Conn {
        let stream = TcpStream::connect(addr).expect("connect");
        stream.set_nodelay(true).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        Conn { stream, reader }
    }

    /// Sends one GET and reads the whole reply; its status, or `None` on a broken connection.
    fn get(&mut self, target: &str) -> Option<u16> {
        // One write per request.
        let request = format!("GET {target} HTTP/1.1\r\nHost: bench\r\n\r\n");
        self.stream.write_all(request.as_bytes()).ok()?;
        let mut line = String::new();
        self.reader.read_line(&mut line).ok()?;
        let status: u16 = line.split(' ').nth(1)?.parse().ok()?;
        let mut len = 0usize;
        loop {
            let mut h = String::new();
            self.reader.read_line(&mut h).ok()?;
            if h == "\r\n" || h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    len = v.trim().parse().ok()?;
                }
            }
        }
        let mut body = vec![0u8; len];
        std::io::Read::read_exact(&mut self.reader, &mut body).ok()?;
        Some(status)
    }
}
