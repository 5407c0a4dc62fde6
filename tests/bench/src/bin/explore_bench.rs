//! Times every question of the Explorer's web API on one index through `kifudex serve`'s
//! server on loopback (in this process): next moves with each filter alone and combined,
//! the game list in every sort at offsets 0, 100,000 and the last page, the year and rank
//! profiles; at the empty board, after one move and deep in a game. One client, then
//! `CLIENTS` clients at once asking the same question; p50 and p99 of each, as a Markdown
//! table on standard output.
//!
//! ```text
//! cargo build --release -p kifudex-bench --bin explore_bench
//! target/release/explore_bench INDEX [--runs 15] [--clients 8] [--rounds 4] [--only TEXT]
//!     [--warm] [--distinct] [--workers N]
//! ```
//!
//! The first question at each position (its game list's first game, asked before any
//! other) is timed once: it walks the position's occurrences unless they are kept
//! (`--warm`: the explorer walks the positions it keeps before the server starts, as
//! `kifudex serve` does in the background). With `--distinct` the clients at once ask
//! different questions: client `c` the `c`-th question after the row's (of all questions
//! measured), so that no two share an answer. `--workers N`: the server computes N answers
//! at once (default: the server's, [`Limits::workers`]).
//!
//! The filters' values are read from the index's first game (its Black player, event,
//! rules, komi, year), so any index can be measured. Numbers are reported, never asserted.

use std::sync::Arc;
use std::time::{Duration, Instant};

use kifudex::explore::answer::letters::sgf;
use kifudex::explore::{keep, Explorer};
use kifudex::web::{Limits, RunningServer};
use kifudex_tests::http::{enc, json_number, pct, Conn};

/// Options of the run.
struct Args {
    index: String,
    runs: usize,
    clients: usize,
    rounds: usize,
    only: Option<String>,
    warm: bool,
    distinct: bool,
    workers: Option<usize>,
}

fn args() -> Args {
    let mut a = Args {
        index: String::new(),
        runs: 15,
        clients: 8,
        rounds: 4,
        only: None,
        warm: false,
        distinct: false,
        workers: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        let num = |it: &mut dyn Iterator<Item = String>| -> usize {
            it.next().and_then(|v| v.parse().ok()).expect("a number")
        };
        match x.as_str() {
            "--runs" => a.runs = num(&mut it),
            "--clients" => a.clients = num(&mut it),
            "--rounds" => a.rounds = num(&mut it),
            "--only" => a.only = it.next(),
            "--warm" => a.warm = true,
            "--distinct" => a.distinct = true,
            "--workers" => a.workers = Some(num(&mut it)),
            _ => a.index = x,
        }
    }
    assert!(!a.index.is_empty(), "usage: explore_bench INDEX [options]");
    a
}

fn main() {
    let a = args();
    let bytes = kifudex::open_index_file(std::path::Path::new(&a.index)).expect("index");
    let explorer = Explorer::open(keep(bytes), a.index.clone()).expect("open the index");
    let games = explorer.game_count();
    // The filters' values and the deep position, from game 0.
    let g0 = explorer.game(0).expect("game 0");
    let info = &g0.info;
    let moves: Vec<String> = g0.moves.iter().map(|m| sgf(m.mv)).collect();
    let deep = moves[..moves.len().min(30)].join(",");
    let field = |v: &Option<String>| v.clone().unwrap_or_default();
    let player: String = field(&info.black).chars().take(6).collect();
    let event: String = field(&info.event).chars().take(6).collect();
    let rules = field(&info.rules);
    let date = field(&info.date);
    let year: String = date.chars().take(4).collect();
    eprintln!(
        "explore_bench: {games} games; player {player:?}, event {event:?}, rules {rules:?}, year {year:?}; deep: {} moves",
        moves.len().min(30)
    );
    if a.warm {
        let t = Instant::now();
        let w = explorer.warm();
        eprintln!(
            "explore_bench: warmed {} positions, {} occurrences, in {:.0} ms",
            w.positions,
            w.occurrences,
            t.elapsed().as_secs_f64() * 1e3
        );
    }
    let mut limits = Limits::default();
    if let Some(w) = a.workers {
        limits.workers = w;
    }
    let server = RunningServer::start("127.0.0.1:0".parse().unwrap(), Arc::new(explorer), limits)
        .expect("server");
    let addr = server.addr();

    let mut filters: Vec<(&str, String)> = vec![
        ("none", String::new()),
        ("winner", "&winner=B".into()),
        ("year", format!("&year_from={year}&year_to={year}")),
        ("month range", format!("&from={year}-03&to={year}-09")),
        ("rank", "&min_rank=5d&max_rank=9d".into()),
        ("komi", "&komi=6.5".into()),
        ("handicap", "&handicap=0".into()),
        ("player", format!("&player={}", enc(&player))),
        ("event", format!("&event={}", enc(&event))),
    ];
    if !rules.is_empty() {
        filters.push(("rules", format!("&rules={}", enc(&rules))));
    }
    filters.push((
        "combined",
        format!(
            "&winner=B&year_from={}&min_rank=1d&komi=6.5&handicap=0",
            year.parse::<u32>().unwrap_or(2000).saturating_sub(10)
        ),
    ));
    let positions = [
        ("empty board", String::new()),
        ("after pd", "pd".into()),
        ("deep (30 moves)", deep),
    ];
    let sorts = [
        "newest", "date", "-date", "black", "white", "result", "event", "move", "-move",
    ];
    let mut questions: Vec<(String, String)> = Vec::new();
    let mut probe = Conn::open(addr);
    let mut firsts: Vec<(String, Duration)> = Vec::new();
    for (pname, moves) in &positions {
        let m = format!("moves={moves}");
        let t = Instant::now();
        for (fname, f) in &filters {
            questions.push((
                format!("{pname} | search | {fname}"),
                format!("/api/search?{m}{f}"),
            ));
        }
        let (_, body) = probe.get(&format!("/api/games?{m}&limit=1"));
        firsts.push((pname.to_string(), t.elapsed()));
        let matching = json_number(&body, "matching").unwrap_or(0);
        let last = matching.saturating_sub(1) / 50 * 50;
        for s in sorts {
            for off in [0, 100_000, last] {
                if off == 100_000 && matching <= 100_000 {
                    continue;
                }
                questions.push((
                    format!("{pname} | games sort={s} offset={off} | none"),
                    format!("/api/games?{m}&sort={s}&limit=50&offset={off}"),
                ));
            }
        }
        for (fname, f) in filters.iter().filter(|(n, _)| *n != "none") {
            questions.push((
                format!("{pname} | games newest offset=0 | {fname}"),
                format!("/api/games?{m}&limit=50{f}"),
            ));
        }
        questions.push((
            format!("{pname} | games sort=black offset=0 | player"),
            format!("/api/games?{m}&limit=50&sort=black&player={}", enc(&player)),
        ));
        for route in ["years", "ranks"] {
            questions.push((
                format!("{pname} | {route} | none"),
                format!("/api/{route}?{m}&top=5"),
            ));
            questions.push((
                format!("{pname} | {route} | winner"),
                format!("/api/{route}?{m}&top=5&winner=W"),
            ));
        }
    }
    if let Some(o) = &a.only {
        questions.retain(|(n, _)| n.contains(o.as_str()));
    }
    println!(
        "| position | route | filter | 1 client p50 | p99 | {} clients{} p50 | p99 | status |",
        a.clients,
        if a.distinct { " (distinct)" } else { "" }
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (p, t) in &firsts {
        let ms = t.as_secs_f64() * 1e3;
        println!(
            "| {p} | games limit=1, the first question | none | {ms:.1} | {ms:.1} | - | - | once |"
        );
    }
    let start = Instant::now();
    for (qi, (name, target)) in questions.iter().enumerate() {
        let mut one = Vec::new();
        let mut status = 0;
        for _ in 0..a.runs {
            let t = Instant::now();
            let (s, _) = probe.get(target);
            one.push(t.elapsed());
            status = s;
        }
        one.sort();
        let mut many: Vec<Duration> = Vec::new();
        if a.clients > 0 && a.rounds > 0 {
            let handles: Vec<_> = (0..a.clients)
                .map(|c| {
                    let target = if a.distinct {
                        questions[(qi + c) % questions.len()].1.clone()
                    } else {
                        target.clone()
                    };
                    let rounds = a.rounds;
                    std::thread::spawn(move || {
                        let mut c = Conn::open(addr);
                        (0..rounds)
                            .map(|_| {
                                let t = Instant::now();
                                c.get(&target);
                                t.elapsed()
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for h in handles {
                many.extend(h.join().unwrap());
            }
            many.sort();
        }
        let mut cols = name.splitn(3, " | ");
        let (p, r, f) = (
            cols.next().unwrap_or(""),
            cols.next().unwrap_or(""),
            cols.next().unwrap_or(""),
        );
        let (mp50, mp99) = if many.is_empty() {
            ("-".into(), "-".into())
        } else {
            (
                format!("{:.1}", pct(&many, 0.5)),
                format!("{:.1}", pct(&many, 0.99)),
            )
        };
        println!(
            "| {p} | {r} | {f} | {:.1} | {:.1} | {mp50} | {mp99} | {status} |",
            pct(&one, 0.5),
            pct(&one, 0.99)
        );
    }
    eprintln!(
        "explore_bench: {} questions in {:.1} s",
        questions.len(),
        start.elapsed().as_secs_f64()
    );
    drop(server);
}
