//! The web server's soak (`kifudex_tests::soak`): starts `kifudex serve` on an index (a
//! loopback port of its choosing), drives it with mixed traffic for a while, stops it, and
//! prints per kind of request the requests, failures of good ones, p50/p99/max latency, and
//! the server's memory (`VmRSS` at the start, after warm-up and at the end), its CPU time
//! and the machine's load, as Markdown. Exits with 1 if a request did not get what it must.
//!
//! ```text
//! cargo build --release -p kifudex -p kifudex-bench --bin kifudex --bin web_soak
//! target/release/web_soak INDEX [--seconds 1200] [--clients 8] [--slow 2]
//!     [--warmup 120] [--think-ms 10] [--scan-every-ms 2000] [--kifudex PATH]
//!     [--seed N] [-- SERVE-OPTIONS...]
//! ```
//!
//! Options after `--` go to `kifudex serve` (e.g. `--pattern-cache-mb 64`). Numbers are
//! reported, never asserted (but failures).

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use kifudex_tests::soak::{self, Options};

fn main() -> ExitCode {
    let mut opts = Options {
        duration: Duration::from_secs(1200),
        warmup: Duration::from_secs(120),
        progress: Duration::from_secs(60),
        ..Options::default()
    };
    let mut index = None;
    let mut kifudex = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.join("kifudex")))
        .unwrap_or_else(|| PathBuf::from("kifudex"));
    let mut serve_args: Vec<String> = Vec::new();
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut num = || -> u64 {
            it.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{a}: a number"))
        };
        match a.as_str() {
            "--seconds" => opts.duration = Duration::from_secs(num()),
            "--clients" => opts.clients = num() as usize,
            "--slow" => opts.slow_clients = num() as usize,
            "--warmup" => opts.warmup = Duration::from_secs(num()),
            "--think-ms" => opts.think = Duration::from_millis(num()),
            "--scan-every-ms" => opts.scan_interval = Duration::from_millis(num()),
            "--seed" => opts.seed = num(),
            "--kifudex" => kifudex = it.next().map(PathBuf::from).expect("--kifudex PATH"),
            "--" => serve_args.extend(it.by_ref()),
            _ if index.is_none() && !a.starts_with('-') => index = Some(a),
            _ => {
                eprintln!("web_soak: unknown argument {a}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(index) = index else {
        eprintln!("usage: web_soak INDEX [--seconds N] [--clients N] [--slow N] [--warmup S] [--think-ms MS] [--scan-every-ms MS] [--kifudex PATH] [-- SERVE-OPTIONS]");
        return ExitCode::from(2);
    };
    let mut child = match Command::new(&kifudex)
        .args(["serve", "--index", &index, "--addr", "127.0.0.1:0"])
        .args(&serve_args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("web_soak: cannot run {}: {e}", kifudex.display());
            return ExitCode::from(2);
        }
    };
    // The server's standard error: its address first, then its log (scans' ends; a
    // panicking answer would show here), counted.
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel::<SocketAddr>();
    let log = std::thread::spawn(move || {
        let mut lines = 0u64;
        let mut bad = Vec::new();
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            lines += 1;
            if let Some(at) = line.find("http://") {
                let addr = line[at + 7..].split('/').next().unwrap_or("");
                if let Ok(a) = addr.parse() {
                    let _ = tx.send(a);
                }
            }
            let error =
                line.contains("panicked") || line.contains("failed") || line.contains("accept:");
            if error && bad.len() < 20 {
                bad.push(line);
            }
        }
        (lines, bad)
    });
    let addr = match rx.recv_timeout(Duration::from_secs(120)) {
        Ok(a) => a,
        Err(_) => {
            eprintln!("web_soak: the server did not start");
            let _ = child.kill();
            return ExitCode::from(2);
        }
    };
    opts.server_pid = Some(child.id());
    eprintln!(
        "web_soak: kifudex serve (pid {}) at {addr}; {} s, {} clients, {} slow",
        child.id(),
        opts.duration.as_secs(),
        opts.clients,
        opts.slow_clients
    );
    let report = soak::run(addr, &opts);
    let _ = child.kill();
    let _ = child.wait();
    let (lines, bad) = log.join().unwrap_or_default();
    match report {
        Ok(r) => {
            print!("{}", r.markdown(opts.warmup));
            println!("Server log: {lines} lines, {} of them errors.", bad.len());
            for l in &bad {
                println!("server: {l}");
            }
            if r.failures() == 0 && bad.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("web_soak: {e}");
            ExitCode::from(2)
        }
    }
}
