//! The web server's soak: mixed traffic from a bounded loopback load generator against a
//! running `kifudex serve` (or a server in the same process), with what each request must
//! get checked, and the latencies and the server's memory reported.
//!
//! The traffic is drawn from the served index itself: at the start the generator reads a
//! sample of its stored games (`/api/game/ID`, each line checked by `/api/position`) and
//! the boards of some of their positions, then `clients` threads (each one keep-alive
//! connection, plus new ones where a kind needs them) send, until the time is up or every
//! kind has its count:
//!
//! | kind | request | a good answer |
//! |---|---|---|
//! | `search` | `/api/search` at a position of a sampled game (its setup, a prefix of its moves; sometimes `swap=1`) | 200, JSON; `total` at least 1 (the game goes on from there) unless its next move is a pass |
//! | `games` | `/api/games` there, with a sort, a page (`limit` 1 to 1000, an offset) and filters (the game's own winner, years, player; sometimes komi, handicap or ranks) | 200, JSON, no more games than `limit`; `matching` at least 1 when the filters are the game's own |
//! | `game` | `/api/game/ID` or `/api/game/ID.sgf` of a sampled game | 200; its id and moves, or an SGF text |
//! | `profile` | `/api/years` or `/api/ranks` at a position | 200, JSON with `bins` |
//! | `pattern` | `/api/pattern` of a region of a sampled 19x19 position (a few cells made wildcards), then a page of `/api/pattern/games` | 200 and `games` at least 1 (the sampled game holds it), or 503 with `Retry-After` (every scan slot busy: counted apart) |
//! | `abandon` | `/api/pattern/stream` or `/api/pattern` of such a pattern, the connection closed after 0-300 ms | a stream's head is 200 or 503 (when read) |
//! | `malformed` | one of a list of bad requests: bad parameters, an illegal move in a real position, unknown paths and traversals, other methods, a body, a request line past 60 KiB, header lines a byte past the server's limit and far past it, too many headers, junk | exactly its 4xx (with `{"error": ...}` from the API, a bare one from the HTTP layer for junk and too many headers) |
//! | `disconnect` | a large answer (a game list of 1,000 games, a game's SGF, the page's script) whose reader closes after the status line, or before any answer | the status line is 200 |
//! | `slow` | apart from the clients: `slow_clients` threads each sending a request a byte every `slow_interval` | the server closes the connection within `cut_off` |
//!
//! Scans (`pattern`, `abandon`) start at most once every `scan_interval` in all (a server of
//! `--max-scans` slots gets a steady trickle, as from a few people at the page, not a flood).
//! Each client waits a random `0..2*think` between its requests.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::http::{enc, pct, raw, status_of, Conn, Reply};

/// What the soak does and how long.
#[derive(Clone, Debug)]
pub struct Options {
    /// Clients sending requests at once (each its own thread).
    pub clients: usize,
    /// Slow clients (a byte every `slow_interval`) at once, apart from `clients`.
    pub slow_clients: usize,
    /// The pause between two bytes of a slow client.
    pub slow_interval: Duration,
    /// The longest a slow client may stay connected: the server's header timeout and some
    /// slack.
    pub cut_off: Duration,
    /// Stop after this long.
    pub duration: Duration,
    /// Or stop once every kind (but `slow`) has this many requests...
    pub per_kind: Option<u64>,
    /// ...and `slow` this many.
    pub slow_count: u64,
    /// The time after which the memory is taken as warmed up.
    pub warmup: Duration,
    /// At most one scan started (`pattern`, `abandon`) in this time, in all.
    pub scan_interval: Duration,
    /// A client's mean pause between two requests.
    pub think: Duration,
    /// Games of the index sampled for the positions.
    pub sample_games: usize,
    /// The seed of the choices.
    pub seed: u64,
    /// The server's process, whose memory (`VmRSS`) is read.
    pub server_pid: Option<u32>,
    /// A line on standard error every this often (none if zero).
    pub progress: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            clients: 8,
            slow_clients: 2,
            slow_interval: Duration::from_secs(1),
            cut_off: Duration::from_secs(15),
            duration: Duration::from_secs(60),
            per_kind: None,
            slow_count: 0,
            warmup: Duration::from_secs(60),
            scan_interval: Duration::from_secs(2),
            think: Duration::from_millis(10),
            sample_games: 300,
            seed: 0x5eed_cafe_f00d_d00d,
            server_pid: None,
            progress: Duration::ZERO,
        }
    }
}

/// The kinds of requests (see the module's table).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Next moves at a position.
    Search,
    /// A page of the game list.
    Games,
    /// A stored game.
    Game,
    /// The years' or ranks' profile.
    Profile,
    /// A pattern scan read to its end.
    Pattern,
    /// A pattern scan started and abandoned.
    Abandon,
    /// A bad request.
    Malformed,
    /// A client gone in the middle of an answer.
    Disconnect,
    /// A byte a second.
    Slow,
}

/// Every kind, in the report's order.
pub const KINDS: [Kind; 9] = [
    Kind::Search,
    Kind::Games,
    Kind::Game,
    Kind::Profile,
    Kind::Pattern,
    Kind::Abandon,
    Kind::Malformed,
    Kind::Disconnect,
    Kind::Slow,
];

impl Kind {
    /// The kind's name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Search => "search",
            Kind::Games => "games",
            Kind::Game => "game",
            Kind::Profile => "profile",
            Kind::Pattern => "pattern",
            Kind::Abandon => "abandon",
            Kind::Malformed => "malformed",
            Kind::Disconnect => "disconnect",
            Kind::Slow => "slow",
        }
    }

    /// How often a client picks it (out of the weights' sum).
    fn weight(self) -> u64 {
        match self {
            Kind::Search => 40,
            Kind::Games => 20,
            Kind::Game => 8,
            Kind::Profile => 8,
            Kind::Pattern => 4,
            Kind::Abandon => 4,
            Kind::Malformed => 10,
            Kind::Disconnect => 6,
            Kind::Slow => 0,
        }
    }

    fn is_scan(self) -> bool {
        matches!(self, Kind::Pattern | Kind::Abandon)
    }
}

/// The figures of one kind.
#[derive(Clone, Debug, Default)]
pub struct KindStats {
    /// Requests sent.
    pub requests: u64,
    /// Requests that did not get what they must (see the module's table).
    pub failures: u64,
    /// Scans refused because every slot was busy (503 with `Retry-After`: documented,
    /// not a failure).
    pub busy: u64,
    /// Each request's time (to its whole answer; for `slow`, until the server closed; for
    /// `disconnect`, to the status line).
    pub times: Vec<Duration>,
    /// The first failures, described.
    pub examples: Vec<String>,
}

impl KindStats {
    fn merge(&mut self, o: KindStats) {
        self.requests += o.requests;
        self.failures += o.failures;
        self.busy += o.busy;
        self.times.extend(o.times);
        for e in o.examples {
            if self.examples.len() < 10 {
                self.examples.push(e);
            }
        }
    }
}

/// A memory sample of the server.
#[derive(Copy, Clone, Debug)]
pub struct Sample {
    /// Time since the traffic started.
    pub at: Duration,
    /// Resident memory, KiB.
    pub rss_kib: u64,
    /// Of which anonymous (the heap, the stacks), KiB.
    pub anon_kib: u64,
    /// Of which pages of files (the mapped index, the binary), KiB.
    pub file_kib: u64,
}

/// A row of the memory table: its name and the figure it shows.
type Column = (&'static str, fn(&Sample) -> u64);

/// What the soak measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Per kind, in the order of [`KINDS`].
    pub kinds: Vec<(Kind, KindStats)>,
    /// The traffic's time.
    pub elapsed: Duration,
    /// The server's memory every second (if its process was given).
    pub rss: Vec<Sample>,
    /// The server's memory before the traffic.
    pub rss_start: Option<Sample>,
    /// The server's peak resident memory (`VmHWM`) at the end, KiB.
    pub rss_peak_kib: Option<u64>,
    /// The server's CPU time over the traffic (user and system).
    pub server_cpu: Option<Duration>,
    /// The machine's load averages (1 minute) at the start and at the end.
    pub load: (String, String),
    /// Sampled games of the index.
    pub sampled_games: usize,
    /// Client threads of the generator that panicked (a bug of the generator: counted as
    /// failures, their figures lost).
    pub client_panics: u64,
}

impl Report {
    /// Failures of all kinds.
    pub fn failures(&self) -> u64 {
        self.kinds.iter().map(|(_, s)| s.failures).sum::<u64>() + self.client_panics
    }

    /// The stats of `kind`.
    pub fn of(&self, kind: Kind) -> &KindStats {
        &self.kinds.iter().find(|(k, _)| *k == kind).expect("kind").1
    }

    /// The memory sample nearest after `t` (else the last).
    pub fn rss_at(&self, t: Duration) -> Option<Sample> {
        self.rss
            .iter()
            .find(|s| s.at >= t)
            .or(self.rss.last())
            .copied()
    }

    /// The report as Markdown: a table of the kinds, then memory, CPU and load.
    pub fn markdown(&self, warmup: Duration) -> String {
        let mut out = String::new();
        out.push_str("| kind | requests | failures | busy (503) | p50 ms | p99 ms | max ms |\n");
        out.push_str("|---|---|---|---|---|---|---|\n");
        for (k, s) in &self.kinds {
            let mut t = s.times.clone();
            t.sort();
            out.push_str(&format!(
                "| {} | {} | {} | {} | {:.1} | {:.1} | {:.1} |\n",
                k.name(),
                s.requests,
                s.failures,
                s.busy,
                pct(&t, 0.5),
                pct(&t, 0.99),
                t.last().map_or(0.0, |d| d.as_secs_f64() * 1e3)
            ));
        }
        let total: u64 = self.kinds.iter().map(|(_, s)| s.requests).sum();
        out.push_str(&format!(
            "\n{total} requests in {:.0} s ({:.0} a second), {} failures ({} client panics); {} sampled games.\n",
            self.elapsed.as_secs_f64(),
            total as f64 / self.elapsed.as_secs_f64().max(1e-9),
            self.failures(),
            self.client_panics,
            self.sampled_games
        ));
        if let (Some(start), Some(warm), Some(end)) =
            (self.rss_start, self.rss_at(warmup), self.rss.last())
        {
            let after: Vec<&Sample> = self.rss.iter().filter(|s| s.at >= warmup).collect();
            let mib = |k: u64| k as f64 / 1024.0;
            let range = |f: fn(&Sample) -> u64| {
                let v = after.iter().map(|s| f(s));
                (mib(v.clone().min().unwrap_or(0)), mib(v.max().unwrap_or(0)))
            };
            out.push_str(&format!(
                "\nServer memory (MiB) | start | after warm-up ({} s) | end | after warm-up min - max\n---|---|---|---|---\n",
                warmup.as_secs()
            ));
            let rows: [Column; 3] = [
                ("RSS", |s| s.rss_kib),
                ("anonymous (heap, stacks)", |s| s.anon_kib),
                ("file pages (the mapped index, the binary)", |s| s.file_kib),
            ];
            for (name, f) in rows {
                let (lo, hi) = range(f);
                out.push_str(&format!(
                    "{name} | {:.1} | {:.1} | {:.1} | {lo:.1} - {hi:.1}\n",
                    mib(f(&start)),
                    mib(f(&warm)),
                    mib(f(end)),
                ));
            }
            out.push_str(&format!(
                "Peak RSS (VmHWM): {:.1} MiB.\n",
                mib(self.rss_peak_kib.unwrap_or(0))
            ));
        }
        if let Some(cpu) = self.server_cpu {
            out.push_str(&format!(
                "Server CPU time: {:.0} s ({:.2} cores on average).\n",
                cpu.as_secs_f64(),
                cpu.as_secs_f64() / self.elapsed.as_secs_f64().max(1e-9)
            ));
        }
        out.push_str(&format!(
            "Load average (1 min) at the start: {}; at the end: {}.\n",
            self.load.0, self.load.1
        ));
        for (k, s) in &self.kinds {
            for e in &s.examples {
                out.push_str(&format!("failure ({}): {e}\n", k.name()));
            }
        }
        out
    }
}

// ---- the sample of the index -------------------------------------------------------------

/// A sampled game: what a request needs of it.
#[derive(Clone, Debug)]
struct Game {
    id: u64,
    size: u64,
    setup_b: Vec<String>,
    setup_w: Vec<String>,
    /// The main line's moves as `(colour, point)`, up to the first one that also sets
    /// stones up or that the position refuses.
    moves: Vec<(char, String)>,
    black: String,
    year: Option<u32>,
    winner: Option<char>,
}

impl Game {
    fn from_json(v: &Value) -> Option<Game> {
        let (w, h) = (v["width"].as_u64()?, v["height"].as_u64()?);
        if w != h {
            return None;
        }
        let list = |c: &str| -> Vec<String> {
            v["setup"][c]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|p| p.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut moves: Vec<(char, String)> = Vec::new();
        for m in v["moves"].as_array()? {
            let color = m["color"].as_str()?.chars().next()?;
            // `moves=` alternates the colours and sets nothing up: the line ends where the
            // record does otherwise.
            if m.get("setup").is_some() || moves.last().is_some_and(|(c, _)| *c == color) {
                break;
            }
            moves.push((color, m["move"].as_str()?.to_owned()));
        }
        let info = &v["info"];
        let text = |k: &str| info[k].as_str().unwrap_or("").to_owned();
        let winner = text("RE").chars().next().filter(|c| *c == 'B' || *c == 'W');
        Some(Game {
            id: v["id"].as_u64()?,
            size: w,
            setup_b: list("B"),
            setup_w: list("W"),
            moves,
            black: text("PB"),
            year: text("DT").get(..4).and_then(|y| y.parse().ok()),
            winner,
        })
    }

    /// The position query after `n` moves.
    fn query(&self, n: usize) -> String {
        self.query_then(n, "")
    }

    /// The position query after `n` moves and then `extra` (if not empty).
    fn query_then(&self, n: usize, extra: &str) -> String {
        let mut moves: Vec<&str> = self.moves[..n].iter().map(|(_, m)| m.as_str()).collect();
        if !extra.is_empty() {
            moves.push(extra);
        }
        let mut q = format!("moves={}", moves.join(","));
        if !self.setup_b.is_empty() {
            q.push_str(&format!("&ab={}", self.setup_b.join(",")));
        }
        if !self.setup_w.is_empty() {
            q.push_str(&format!("&aw={}", self.setup_w.join(",")));
        }
        if self.moves.first().is_some_and(|(c, _)| *c == 'W') {
            q.push_str("&to_move=W");
        }
        if self.size != 19 {
            q.push_str(&format!("&size={}", self.size));
        }
        q
    }
}

/// A 19x19 board of a sampled game, for patterns.
#[derive(Clone, Debug)]
struct Board {
    cells: Vec<u8>,
}

/// What the traffic is drawn from: sampled games and boards.
#[derive(Debug)]
struct Drawn {
    games: Vec<Game>,
    boards: Vec<Board>,
}

fn fetch_json(conn: &mut Conn, target: &str) -> Result<(u16, Value), String> {
    let r = conn.request(target).map_err(|e| format!("{target}: {e}"))?;
    let v = serde_json::from_slice(&r.body)
        .map_err(|e| format!("{target}: {} not JSON ({e})", r.status))?;
    Ok((r.status, v))
}

fn sample(addr: SocketAddr, opts: &Options, rng: &mut Rng) -> Result<Drawn, String> {
    let mut conn = Conn::connect(addr).map_err(|e| format!("connect {addr}: {e}"))?;
    let (_, info) = fetch_json(&mut conn, "/api/info")?;
    let count = info["games"].as_u64().ok_or("/api/info: no games")?;
    if count == 0 {
        return Err("the index holds no games".into());
    }
    let mut games = Vec::new();
    let mut boards = Vec::new();
    let mut tries = 0;
    while games.len() < opts.sample_games.max(1) && tries < opts.sample_games.max(1) * 4 {
        tries += 1;
        let id = rng.below(count);
        let (status, v) = fetch_json(&mut conn, &format!("/api/game/{id}"))?;
        if status != 200 {
            return Err(format!("/api/game/{id}: {status}"));
        }
        let Some(mut g) = Game::from_json(&v) else {
            continue;
        };
        // The whole line as a position: a record's illegal move ends the usable line.
        let (status, p) = fetch_json(
            &mut conn,
            &format!("/api/position?{}", g.query(g.moves.len())),
        )?;
        if status == 400 {
            match p["move_number"].as_u64() {
                Some(n) if n >= 1 => g.moves.truncate(n as usize - 1),
                _ => continue,
            }
        } else if status != 200 {
            return Err(format!("/api/position of game {id}: {status}"));
        }
        if g.moves.is_empty() {
            continue;
        }
        if g.size == 19 && boards.len() < 60 && g.moves.len() > 10 {
            let n = 5 + rng.below(g.moves.len() as u64 - 5) as usize;
            let (status, p) = fetch_json(&mut conn, &format!("/api/position?{}", g.query(n)))?;
            if status == 200 {
                let mut cells = vec![b'.'; 361];
                for (key, c) in [("black", b'X'), ("white", b'O')] {
                    for pt in p[key].as_array().into_iter().flatten() {
                        let b = pt.as_str().unwrap_or("").as_bytes();
                        if b.len() == 2
                            && (b'a'..=b's').contains(&b[0])
                            && (b'a'..=b's').contains(&b[1])
                        {
                            cells[(b[1] - b'a') as usize * 19 + (b[0] - b'a') as usize] = c;
                        }
                    }
                }
                boards.push(Board { cells });
            }
        }
        games.push(g);
    }
    if games.is_empty() {
        return Err("no usable game in the sample".into());
    }
    Ok(Drawn { games, boards })
}

// ---- the requests --------------------------------------------------------------------------

/// xorshift64: the choices, reproducible from the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len() as u64) as usize]
    }
}

/// One request's outcome.
enum Outcome {
    Good,
    Busy,
    Bad(String),
}

struct Client<'a> {
    addr: SocketAddr,
    conn: Option<Conn>,
    rng: Rng,
    sample: &'a Drawn,
}

impl Client<'_> {
    /// A GET on the keep-alive connection (opened again if the server closed it between
    /// two requests: that is allowed; a reply that breaks off is not).
    fn get(&mut self, target: &str) -> Result<Reply, String> {
        for attempt in 0..2 {
            let conn = match &mut self.conn {
                Some(c) => c,
                None => self
                    .conn
                    .insert(Conn::connect(self.addr).map_err(|e| format!("connect: {e}"))?),
            };
            match conn.request(target) {
                Ok(r) => return Ok(r),
                Err(e) => {
                    self.conn = None;
                    // A kept-alive connection the server closed: once more on a new one.
                    if attempt == 1 || e.kind() != std::io::ErrorKind::UnexpectedEof {
                        return Err(format!("{}: {e}", short(target)));
                    }
                }
            }
        }
        Err(format!("{}: no reply", short(target)))
    }

    fn json(&mut self, target: &str) -> Result<Value, String> {
        let r = self.get(target)?;
        if r.status != 200 {
            return Err(format!(
                "{}: {} {}",
                short(target),
                r.status,
                String::from_utf8_lossy(&r.body)
            ));
        }
        serde_json::from_slice(&r.body).map_err(|e| format!("{}: not JSON: {e}", short(target)))
    }

    fn game(&mut self) -> &Game {
        let s = self.sample;
        s.games
            .get(self.rng.below(s.games.len() as u64) as usize)
            .expect("a sampled game")
    }

    /// A sampled game and a prefix of its line that it continues from.
    fn position(&mut self) -> (Game, usize) {
        let g = self.game().clone();
        let max = g.moves.len().min(60);
        let n = self.rng.below(max as u64) as usize;
        (g, n)
    }

    fn pattern(&mut self) -> Option<String> {
        let boards = &self.sample.boards;
        if boards.is_empty() {
            return None;
        }
        let b = &boards[self.rng.below(boards.len() as u64) as usize];
        let w = 2 + self.rng.below(5) as usize;
        let h = 2 + self.rng.below(5) as usize;
        let x0 = self.rng.below((19 - w + 1) as u64) as usize;
        let y0 = self.rng.below((19 - h + 1) as u64) as usize;
        let mut rows = Vec::new();
        for y in y0..y0 + h {
            let mut row = String::new();
            for x in x0..x0 + w {
                let c = b.cells[y * 19 + x];
                row.push(match (c, self.rng.below(10)) {
                    (_, 0) => '*',
                    (b'X', 1) => 'x',
                    (b'O', 1) => 'o',
                    (c, _) => c as char,
                });
            }
            rows.push(row);
        }
        Some(enc(&rows.join("/")))
    }

    fn search(&mut self) -> Outcome {
        let (g, n) = self.position();
        let swap = if self.rng.chance(10) { "&swap=1" } else { "" };
        let target = format!("/api/search?{}{swap}", g.query(n));
        match self.json(&target) {
            Ok(v) => {
                let total = v["total"].as_u64();
                let next_is_pass = g.moves[n].1 == "pass" || g.moves[n].1.is_empty();
                match total {
                    None => Outcome::Bad(format!("{}: no total", short(&target))),
                    Some(0) if !next_is_pass => Outcome::Bad(format!(
                        "{}: total 0, but game {} goes on from there",
                        short(&target),
                        g.id
                    )),
                    _ => Outcome::Good,
                }
            }
            Err(e) => Outcome::Bad(e),
        }
    }

    fn games(&mut self) -> Outcome {
        let (g, n) = self.position();
        let sorts = [
            "newest", "date", "black", "white", "result", "event", "move",
        ];
        let sort = self.rng.pick(&sorts).to_string();
        let sort = if self.rng.chance(30) {
            format!("-{sort}")
        } else {
            sort
        };
        let limit = *self.rng.pick(&[1u64, 10, 50, 50, 100, 1000]);
        let offset = if self.rng.chance(70) {
            0
        } else {
            self.rng.below(300)
        };
        let mut filters = String::new();
        let mut own = true;
        if self.rng.chance(25) {
            if let Some(w) = g.winner {
                filters.push_str(&format!("&winner={w}"));
            }
        }
        if self.rng.chance(25) {
            if let Some(y) = g.year {
                filters.push_str(&format!("&year_from={}&year_to={}", y - 1, y + 1));
            }
        }
        if self.rng.chance(20) {
            let part: String = g.black.chars().take(2).collect();
            if !part.trim().is_empty() && part.trim() == part {
                filters.push_str(&format!("&player={}", enc(&part)));
            }
        }
        if self.rng.chance(15) {
            own = false;
            let extra = [
                "&komi=6.5",
                "&handicap=0",
                "&min_rank=1d",
                "&min_rank=5d&max_rank=9p",
                "&rank_of=B&max_rank=1k",
                "&from=2018-03&to=2021-09",
                "&rules=japanese",
                "&swap=1",
            ];
            let extra: &str = self.rng.pick::<&str>(&extra[..]);
            filters.push_str(extra);
        }
        let target = format!(
            "/api/games?{}&sort={sort}&limit={limit}&offset={offset}{filters}",
            g.query(n)
        );
        match self.json(&target) {
            Ok(v) => {
                let listed = v["games"].as_array().map(|a| a.len() as u64);
                let matching = v["matching"].as_u64();
                match (matching, listed) {
                    (Some(m), Some(l)) if l <= limit && l <= m.saturating_sub(offset) => {
                        if own && m == 0 {
                            Outcome::Bad(format!(
                                "{}: matching 0, but game {} is there",
                                short(&target),
                                g.id
                            ))
                        } else {
                            Outcome::Good
                        }
                    }
                    _ => Outcome::Bad(format!(
                        "{}: matching {matching:?}, {listed:?} listed",
                        short(&target)
                    )),
                }
            }
            Err(e) => Outcome::Bad(e),
        }
    }

    fn stored_game(&mut self) -> Outcome {
        let g = self.game().clone();
        if self.rng.chance(30) {
            let target = format!("/api/game/{}.sgf", g.id);
            return match self.get(&target) {
                Ok(r) if r.status == 200 && r.body.starts_with(b"(;") => Outcome::Good,
                Ok(r) => Outcome::Bad(format!("{target}: {} not SGF", r.status)),
                Err(e) => Outcome::Bad(e),
            };
        }
        let target = format!("/api/game/{}", g.id);
        match self.json(&target) {
            Ok(v)
                if v["id"].as_u64() == Some(g.id)
                    && v["moves"]
                        .as_array()
                        .is_some_and(|m| m.len() >= g.moves.len()) =>
            {
                Outcome::Good
            }
            Ok(_) => Outcome::Bad(format!("{target}: another game or fewer moves")),
            Err(e) => Outcome::Bad(e),
        }
    }

    fn profile(&mut self) -> Outcome {
        let (g, n) = self.position();
        let route = if self.rng.chance(50) {
            "years"
        } else {
            "ranks"
        };
        let top = 1 + self.rng.below(10);
        let target = format!("/api/{route}?{}&top={top}", g.query(n));
        match self.json(&target) {
            Ok(v) if v["bins"].is_array() => Outcome::Good,
            Ok(_) => Outcome::Bad(format!("{}: no bins", short(&target))),
            Err(e) => Outcome::Bad(e),
        }
    }

    fn pattern_scan(&mut self) -> Outcome {
        let Some(p) = self.pattern() else {
            return self.search();
        };
        let target = format!("/api/pattern?pattern={p}");
        let r = match self.get(&target) {
            Ok(r) => r,
            Err(e) => return Outcome::Bad(e),
        };
        if r.status == 503 && r.header("retry-after").is_some() {
            return Outcome::Busy;
        }
        let v: Value = match serde_json::from_slice(&r.body) {
            Ok(v) if r.status == 200 => v,
            _ => {
                return Outcome::Bad(format!(
                    "{target}: {} {}",
                    r.status,
                    String::from_utf8_lossy(&r.body)
                ))
            }
        };
        let games = v["games"].as_u64().unwrap_or(0);
        if games == 0 {
            return Outcome::Bad(format!("{target}: no game, but a sampled game holds it"));
        }
        // A page of its games: from the scan the server keeps (or a new one, maybe busy).
        let target = format!("/api/pattern/games?pattern={p}&limit=20");
        match self.get(&target) {
            Ok(r) if r.status == 200 => Outcome::Good,
            Ok(r) if r.status == 503 && r.header("retry-after").is_some() => Outcome::Busy,
            Ok(r) => Outcome::Bad(format!("{target}: {}", r.status)),
            Err(e) => Outcome::Bad(e),
        }
    }

    fn abandon(&mut self) -> Outcome {
        let Some(p) = self.pattern() else {
            return self.search();
        };
        let stream = self.rng.chance(50);
        let route = if stream { "pattern/stream" } else { "pattern" };
        let wait = Duration::from_millis(self.rng.below(300));
        let mut s = match TcpStream::connect(self.addr) {
            Ok(s) => s,
            Err(e) => return Outcome::Bad(format!("connect: {e}")),
        };
        let req = format!("GET /api/{route}?pattern={p} HTTP/1.1\r\nHost: soak\r\n\r\n");
        if let Err(e) = s.write_all(req.as_bytes()) {
            return Outcome::Bad(format!("write: {e}"));
        }
        if stream {
            let _ = s.set_read_timeout(Some(Duration::from_secs(30)));
            let mut head = [0u8; 12];
            if let Err(e) = s.read_exact(&mut head) {
                return Outcome::Bad(format!("/api/{route}: no head: {e}"));
            }
            match status_of(&head) {
                200 => {}
                503 => return Outcome::Busy,
                st => return Outcome::Bad(format!("/api/{route}: {st}")),
            }
        }
        std::thread::sleep(wait);
        drop(s);
        Outcome::Good
    }

    fn malformed(&mut self) -> Outcome {
        let (g, n) = self.position();
        // (request, status, answered by the API: with a JSON body; else by the HTTP layer)
        let mut cases: Vec<(Vec<u8>, u16, bool)> = Vec::new();
        let get = |t: &str| {
            format!("GET {t} HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n\r\n").into_bytes()
        };
        // An illegal move in a real position: a stone on the point just played.
        if n > 0 && g.moves[n - 1].1 != "pass" {
            let target = format!("/api/search?{}", g.query_then(n, &g.moves[n - 1].1));
            cases.push((get(&target), 400, true));
        }
        for (t, status) in [
            ("/api/search?moves=garbage", 400),
            ("/api/search?mvoes=pd", 400),
            ("/api/search?moves=pd&moves=dp", 400),
            ("/api/search?moves=pd,,dp", 400),
            ("/api/search?moves=%ff%fe%00", 400),
            ("/api/search?size=0", 400),
            ("/api/games?limit=100000", 400),
            ("/api/games?offset=-3", 400),
            ("/api/games?sort=rating", 400),
            ("/api/years?top=0", 400),
            ("/api/ranks?min_rank=99z", 400),
            ("/api/pattern?pattern=XX/X", 400),
            ("/api/pattern", 400),
            ("/api/pattern/games?pattern=X&limit=-1", 400),
            ("/api/game/abc", 400),
            ("/api/game/99999999", 404),
            ("/api/sgf?sgf=not%20a%20record", 400),
            ("/api/info?x=1", 400),
            ("/api/nothing", 404),
            ("/../../../../etc/passwd", 404),
            ("/%2e%2e/%2e%2e/etc/passwd", 404),
            ("/.git/config", 404),
        ] {
            cases.push((get(t), status, true));
        }
        let long = format!("/api/search?moves={}", "pd,".repeat(70 * 1024 / 3));
        cases.push((get(&long), 414, true));
        cases.push((
            b"POST /api/search?moves=pd HTTP/1.1\r\nHost: soak\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(),
            405,
            true,
        ));
        cases.push((
            b"GET /api/search?moves=pd HTTP/1.1\r\nHost: soak\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello".to_vec(),
            413,
            true,
        ));
        // Header lines one byte past the server's default limit ("Host: soak\r\n" 12,
        // "X-Big: " 7, "\r\n" twice), and far past it.
        let max = kifudex::web::Limits::default().max_headers;
        for pad in [max - 22, 200_000] {
            cases.push((
                format!(
                    "GET /api/info HTTP/1.1\r\nHost: soak\r\nX-Big: {}\r\n\r\n",
                    "a".repeat(pad)
                )
                .into_bytes(),
                431,
                true,
            ));
        }
        let mut many = String::from("GET /api/info HTTP/1.1\r\nHost: soak\r\n");
        for i in 0..200 {
            many.push_str(&format!("X-H{i}: {i}\r\n"));
        }
        many.push_str("\r\n");
        cases.push((many.into_bytes(), 431, false));
        cases.push((b"\x00\x01\x02 garbage\r\n\r\n".to_vec(), 400, false));
        cases.push((b"GET /\r\n\r\n".to_vec(), 400, false));
        let i = self.rng.below(cases.len() as u64) as usize;
        let (bytes, want, api) = &cases[i];
        match raw(self.addr, bytes, Duration::from_secs(30)) {
            Ok(answer) => {
                let got = status_of(&answer);
                // Refusals of the API (those past the HTTP layer) are JSON.
                let json_ok = !api || json_body(&answer).is_some_and(|v| v["error"].is_string());
                if got == *want && json_ok {
                    Outcome::Good
                } else {
                    Outcome::Bad(format!(
                        "{}: {got}, expected {want}: {}",
                        short(&String::from_utf8_lossy(&bytes[..bytes.len().min(80)])),
                        short(&String::from_utf8_lossy(&answer))
                    ))
                }
            }
            Err(e) => Outcome::Bad(format!(
                "{}: {e}",
                short(&String::from_utf8_lossy(&bytes[..bytes.len().min(80)]))
            )),
        }
    }

    fn disconnect(&mut self) -> Outcome {
        let g = self.game().clone();
        let target = match self.rng.below(3) {
            0 => {
                let n = self.rng.below(g.moves.len().min(3) as u64) as usize;
                format!("/api/games?{}&limit=1000", g.query(n))
            }
            1 => format!("/api/game/{}.sgf", g.id),
            _ => "/app.js".to_owned(),
        };
        let mut s = match TcpStream::connect(self.addr) {
            Ok(s) => s,
            Err(e) => return Outcome::Bad(format!("connect: {e}")),
        };
        let req = format!("GET {target} HTTP/1.1\r\nHost: soak\r\n\r\n");
        if let Err(e) = s.write_all(req.as_bytes()) {
            return Outcome::Bad(format!("write: {e}"));
        }
        if self.rng.chance(25) {
            // Gone before any answer.
            drop(s);
            return Outcome::Good;
        }
        let _ = s.set_read_timeout(Some(Duration::from_secs(30)));
        let mut head = [0u8; 12];
        match s.read_exact(&mut head) {
            Ok(()) if status_of(&head) == 200 => Outcome::Good,
            Ok(()) => Outcome::Bad(format!("{}: {}", short(&target), status_of(&head))),
            Err(e) => Outcome::Bad(format!("{}: {e}", short(&target))),
        }
        // Dropped with the answer unread: the kernel resets the connection.
    }
}

/// A request a byte every `interval`: closed by the server within `cut_off`?
fn slow_client(addr: SocketAddr, interval: Duration, cut_off: Duration) -> (Outcome, Duration) {
    let t = Instant::now();
    let mut s = match TcpStream::connect(addr) {
        Ok(s) => s,
        Err(e) => return (Outcome::Bad(format!("connect: {e}")), t.elapsed()),
    };
    let _ = s.set_nodelay(true);
    let _ = s.set_read_timeout(Some(interval));
    let request = b"GET /api/info HTTP/1.1\r\nHost: soak\r\nX-Slow: a byte a second\r\n\r\n";
    let mut sent = 0;
    let mut buf = [0u8; 256];
    let mut answer = Vec::new();
    loop {
        if t.elapsed() > cut_off {
            return (
                Outcome::Bad(format!(
                    "still open after {:?} ({sent} bytes sent)",
                    t.elapsed()
                )),
                t.elapsed(),
            );
        }
        if sent < request.len() {
            if s.write_all(&request[sent..sent + 1]).is_err() {
                return (Outcome::Good, t.elapsed());
            }
            sent += 1;
        }
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(k) => answer.extend_from_slice(&buf[..k]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => break,
        }
    }
    let took = t.elapsed();
    // Cut off before the request was whole (a 408 or nothing), never answered.
    let st = status_of(&answer);
    if sent == request.len() && st == 200 {
        (
            Outcome::Bad(format!(
                "answered {st} after {took:?}: the server waited for it"
            )),
            took,
        )
    } else if answer.is_empty() || st == 408 {
        (Outcome::Good, took)
    } else {
        (Outcome::Bad(short(&String::from_utf8_lossy(&answer))), took)
    }
}

fn json_body(answer: &[u8]) -> Option<Value> {
    let at = answer.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    serde_json::from_slice(&answer[at..]).ok()
}

fn short(s: &str) -> String {
    let s = s.replace(['\r', '\n'], " ");
    if s.chars().count() > 160 {
        let head: String = s.chars().take(160).collect();
        format!("{head}...")
    } else {
        s
    }
}

// ---- the server's process ------------------------------------------------------------------

fn status_kib(pid: u32, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn memory(pid: u32, at: Duration) -> Option<Sample> {
    Some(Sample {
        at,
        rss_kib: status_kib(pid, "VmRSS:")?,
        anon_kib: status_kib(pid, "RssAnon:")?,
        file_kib: status_kib(pid, "RssFile:")?,
    })
}

fn cpu_ticks(pid: u32) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command's closing parenthesis: state is field 3; utime, stime 14 and 15.
    let rest = &text[text.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}

// ---- the run -------------------------------------------------------------------------------

/// Runs the soak against the server at `addr`.
pub fn run(addr: SocketAddr, opts: &Options) -> Result<Report, String> {
    let mut rng = Rng(opts.seed | 1);
    let sample = sample(addr, opts, &mut rng)?;
    let pid = opts.server_pid;
    let rss_start = pid.and_then(|p| memory(p, Duration::ZERO));
    let cpu_start = pid.and_then(cpu_ticks);
    let load_start = load();
    let start = Instant::now();
    let stop = AtomicBool::new(false);
    let panicked = AtomicU64::new(0);
    let counts: Vec<AtomicU64> = KINDS.iter().map(|_| AtomicU64::new(0)).collect();
    let next_scan = Mutex::new(Instant::now());
    let rss: Mutex<Vec<Sample>> = Mutex::new(Vec::new());
    let done = |counts: &[AtomicU64]| -> bool {
        if start.elapsed() >= opts.duration {
            return true;
        }
        match opts.per_kind {
            Some(n) => KINDS.iter().zip(counts).all(|(k, c)| {
                let want = if *k == Kind::Slow { opts.slow_count } else { n };
                c.load(Ordering::Relaxed) >= want
            }),
            None => false,
        }
    };
    let results: Arc<Mutex<Vec<(Kind, KindStats)>>> = Arc::new(Mutex::new(
        KINDS.iter().map(|k| (*k, KindStats::default())).collect(),
    ));
    std::thread::scope(|scope| {
        // The memory, every second, and the progress lines.
        scope.spawn(|| {
            let mut last_line = Instant::now();
            while !stop.load(Ordering::Relaxed) {
                if let Some(m) = pid.and_then(|p| memory(p, start.elapsed())) {
                    let (kib, anon, file) = (m.rss_kib, m.anon_kib, m.file_kib);
                    rss.lock().unwrap().push(m);
                    if !opts.progress.is_zero() && last_line.elapsed() >= opts.progress {
                        last_line = Instant::now();
                        let c: Vec<String> = KINDS
                            .iter()
                            .zip(&counts)
                            .map(|(k, c)| format!("{} {}", k.name(), c.load(Ordering::Relaxed)))
                            .collect();
                        eprintln!(
                            "web_soak: {:>5.0} s, RSS {:.1} MiB (anonymous {:.1}, files {:.1}), load {}; {}",
                            start.elapsed().as_secs_f64(),
                            kib as f64 / 1024.0,
                            anon as f64 / 1024.0,
                            file as f64 / 1024.0,
                            load(),
                            c.join(", ")
                        );
                    }
                }
                for _ in 0..10 {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        });
        let mut workers = Vec::new();
        for _ in 0..opts.slow_clients {
            let (counts, results, stop) = (&counts, results.clone(), &stop);
            workers.push(scope.spawn(move || {
                let mut stats = KindStats::default();
                let slow = KINDS.iter().position(|k| *k == Kind::Slow).expect("slow");
                while !stop.load(Ordering::Relaxed) {
                    if opts.per_kind.is_some()
                        && counts[slow].load(Ordering::Relaxed) >= opts.slow_count
                    {
                        break;
                    }
                    counts[slow].fetch_add(1, Ordering::Relaxed);
                    let (outcome, took) = slow_client(addr, opts.slow_interval, opts.cut_off);
                    record(&mut stats, outcome, took);
                }
                results.lock().unwrap()[slow].1.merge(stats);
            }));
        }
        for c in 0..opts.clients {
            let (counts, results, stop, next_scan, sample) =
                (&counts, results.clone(), &stop, &next_scan, &sample);
            let seed = opts.seed ^ (c as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            workers.push(scope.spawn(move || {
                let mut client = Client {
                    addr,
                    conn: None,
                    rng: Rng(seed | 1),
                    sample,
                };
                let mut stats: Vec<KindStats> =
                    KINDS.iter().map(|_| KindStats::default()).collect();
                let total: u64 = KINDS.iter().map(|k| k.weight()).sum();
                while !stop.load(Ordering::Relaxed) {
                    // A kind by weight, among those short of their count; scans paced.
                    let mut pick = client.rng.below(total);
                    let mut kind = Kind::Search;
                    for k in KINDS {
                        if pick < k.weight() {
                            kind = k;
                            break;
                        }
                        pick -= k.weight();
                    }
                    let i = KINDS.iter().position(|k| *k == kind).expect("kind");
                    let full = opts
                        .per_kind
                        .is_some_and(|n| counts[i].load(Ordering::Relaxed) >= n);
                    let paced = kind.is_scan() && {
                        let mut at = next_scan.lock().unwrap();
                        let now = Instant::now();
                        if now < *at {
                            true
                        } else {
                            *at = now + opts.scan_interval;
                            false
                        }
                    };
                    if full || paced {
                        std::thread::sleep(Duration::from_millis(1));
                        continue;
                    }
                    counts[i].fetch_add(1, Ordering::Relaxed);
                    let t = Instant::now();
                    let outcome = match kind {
                        Kind::Search => client.search(),
                        Kind::Games => client.games(),
                        Kind::Game => client.stored_game(),
                        Kind::Profile => client.profile(),
                        Kind::Pattern => client.pattern_scan(),
                        Kind::Abandon => client.abandon(),
                        Kind::Malformed => client.malformed(),
                        Kind::Disconnect | Kind::Slow => client.disconnect(),
                    };
                    record(&mut stats[i], outcome, t.elapsed());
                    if !opts.think.is_zero() {
                        let ms = client.rng.below(2 * opts.think.as_millis() as u64 + 1);
                        std::thread::sleep(Duration::from_millis(ms));
                    }
                }
                let mut r = results.lock().unwrap();
                for (i, s) in stats.into_iter().enumerate() {
                    r[i].1.merge(s);
                }
            }));
        }
        while !done(&counts) {
            std::thread::sleep(Duration::from_millis(20));
        }
        stop.store(true, Ordering::Relaxed);
        for w in workers {
            if w.join().is_err() {
                panicked.fetch_add(1, Ordering::Relaxed);
            }
        }
    });
    let elapsed = start.elapsed();
    let kinds = std::mem::take(&mut *results.lock().unwrap());
    Ok(Report {
        kinds,
        elapsed,
        rss: rss.into_inner().unwrap(),
        rss_start,
        rss_peak_kib: pid.and_then(|p| status_kib(p, "VmHWM:")),
        server_cpu: match (cpu_start, pid.and_then(cpu_ticks)) {
            (Some(a), Some(b)) => Some(Duration::from_millis(b.saturating_sub(a) * 10)),
            _ => None,
        },
        load: (load_start, load()),
        sampled_games: sample.games.len(),
        client_panics: panicked.into_inner(),
    })
}

fn record(stats: &mut KindStats, outcome: Outcome, took: Duration) {
    stats.requests += 1;
    match outcome {
        Outcome::Good => stats.times.push(took),
        Outcome::Busy => {
            stats.busy += 1;
            stats.times.push(took);
        }
        Outcome::Bad(e) => {
            stats.failures += 1;
            if stats.examples.len() < 10 {
                stats.examples.push(e);
            }
        }
    }
}
