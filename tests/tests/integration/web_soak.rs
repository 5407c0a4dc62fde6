//! The web server's soak in short (`kifudex_tests::soak`; the long run is the `web_soak`
//! binary, its figures in the README): a server in this process on an index of real games
//! of `../shared/corpus`, 8 clients sending at least 200 requests of every kind (searches
//! and game lists at positions of the index's own games, stored games, profiles, pattern
//! scans read and abandoned, malformed requests, clients gone in the middle of an answer)
//! and 4 slow clients sending a byte every 50 ms to a server that cuts headers off after
//! 300 ms. No good request fails, every malformed one gets exactly its 4xx, every slow client
//! is cut off. Run with `cargo test --release -p kifudex-tests --test integration web_soak::`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use kifudex::explore::{keep, Explorer};
use kifudex::indexing::{build_in_memory, BuildOptions};
use kifudex::input::collect_sources;
use kifudex::web::{Limits, RunningServer};
use kifudex_tests::soak::{self, Kind, Options, KINDS};

fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(rel)
}

#[test]
fn mixed_traffic_gets_what_it_must() {
    let paths: Vec<PathBuf> = ["bgo_testsgf", "aeb_alphago", "gnugo_regression"]
        .iter()
        .map(|f| corpus(f))
        .collect();
    let (sources, skipped) = collect_sources(&paths);
    let (bytes, _) = build_in_memory(sources, &skipped, &BuildOptions::default()).unwrap();
    let explorer = Explorer::open(keep(bytes), "soak.kdx").unwrap();
    let header_timeout = Duration::from_millis(300);
    let server = RunningServer::start(
        "127.0.0.1:0".parse().unwrap(),
        Arc::new(explorer),
        Limits {
            header_timeout,
            ..Limits::default()
        },
    )
    .unwrap();
    let opts = Options {
        clients: 8,
        slow_clients: 4,
        slow_interval: Duration::from_millis(50),
        cut_off: header_timeout + Duration::from_secs(3),
        duration: Duration::from_secs(120),
        per_kind: Some(200),
        slow_count: 20,
        warmup: Duration::ZERO,
        scan_interval: Duration::ZERO,
        think: Duration::ZERO,
        sample_games: 100,
        server_pid: Some(std::process::id()),
        ..Options::default()
    };
    let report = soak::run(server.addr(), &opts).unwrap();
    let text = report.markdown(opts.warmup);
    eprintln!("{text}");
    assert_eq!(report.failures(), 0, "{text}");
    for k in KINDS {
        let want = if k == Kind::Slow { 20 } else { 200 };
        assert!(report.of(k).requests >= want, "{}: {text}", k.name());
    }
    // Scans ran to their answer (not all refused as busy).
    let p = report.of(Kind::Pattern);
    assert!(p.requests > p.busy, "{text}");
    drop(server);
}
