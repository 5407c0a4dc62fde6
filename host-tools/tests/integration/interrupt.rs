//! Temporary files never outlive a build (`docs/CONTRACTS.md`, "At any scale"): an interrupted
//! build (SIGINT, SIGTERM) leaves the old index intact and no temporary file; the
//! temporary files of a killed build (SIGKILL) are removed by the next build into the same
//! folder; an index gets the mode the umask says. Runs the real binary on corpus folders.
#![cfg(target_os = "linux")]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(rel)
}

fn kifudex() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kifudex"))
}

/// The files in `dir` other than `keep`.
fn others(dir: &Path, keep: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != keep)
        .collect()
}

fn small_build(out: &Path) {
    let status = kifudex()
        .arg("build")
        .arg(corpus("aeb_9x9/NHK"))
        .arg("-o")
        .arg(out)
        .arg("--quiet")
        .status()
        .unwrap();
    assert!(status.success());
}

/// A build of two corpus folders (with `extra` options), interrupted by `signal` once its
/// temporary file exists (`when_written`) or early: the old index is intact and no
/// temporary file is left.
fn interrupt(signal: &str, when_written: bool, extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.kdx");
    small_build(&out);
    let old = std::fs::read(&out).unwrap();
    let mut child = kifudex()
        .arg("build")
        .arg(corpus("fox_pro"))
        .arg(corpus("yenw_ai"))
        .arg("-o")
        .arg(&out)
        .arg("--quiet")
        .args(extra)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    loop {
        let ready = if when_written {
            !others(dir.path(), "out.kdx").is_empty()
        } else {
            t0.elapsed() > Duration::from_millis(150)
        };
        if ready || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let sent = kifudex_kill(signal, child.id());
    let status = child.wait().unwrap();
    assert_eq!(others(dir.path(), "out.kdx"), Vec::<String>::new());
    if status.success() {
        // The build won the race (finished first): the new index is whole.
        eprintln!("{signal}: the build finished before the signal ({sent})");
        assert!(std::fs::read(&out).unwrap().len() > old.len());
    } else {
        assert_eq!(std::fs::read(&out).unwrap(), old, "the old index changed");
    }
}

fn kifudex_kill(signal: &str, pid: u32) -> bool {
    Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .unwrap()
        .success()
}

#[test]
fn sigint_while_writing_leaves_the_old_index() {
    interrupt("INT", true, &[]);
}

#[test]
fn sigterm_while_writing_leaves_the_old_index() {
    interrupt("TERM", true, &[]);
}

#[test]
fn sigint_while_reading_leaves_the_old_index() {
    interrupt("INT", false, &[]);
}

/// Interrupted while it spills occurrences to temporary files (a 4 MiB budget): nothing is
/// left in the folder (the spill files have no name) and the old index is intact.
#[test]
fn sigint_while_spilling_leaves_the_old_index() {
    interrupt("INT", false, &["--memory", "4M"]);
    interrupt("TERM", true, &["--memory", "4M"]);
}

/// A temporary file of a process that no longer runs is removed by the next build into the
/// folder; one of a running process, and other files, are left alone.
#[test]
fn stale_temporary_files_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    let mut gone = Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let dead = format!(".out.kdx.kifudex-{}-AbCdEf.tmp", gone.id());
    let alive = format!(".other.kdx.kifudex-{}-AbCdEf.tmp", std::process::id());
    let unrelated = ".out.kdx.tmp".to_string();
    for f in [&dead, &alive, &unrelated] {
        std::fs::write(dir.path().join(f), b"x").unwrap();
    }
    small_build(&dir.path().join("out.kdx"));
    let mut left = others(dir.path(), "out.kdx");
    left.sort();
    assert_eq!(left, [alive, unrelated]);
}

/// The index gets mode 0666 less the umask, as any file the user creates.
#[test]
fn index_mode_follows_the_umask() {
    for (umask, mode) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.kdx");
        let status = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "umask {umask} && exec \"$0\" build \"$1\" -o \"$2\" --quiet"
            ))
            .arg(env!("CARGO_BIN_EXE_kifudex"))
            .arg(corpus("aeb_9x9/NHK"))
            .arg(&out)
            .status()
            .unwrap();
        assert!(status.success());
        let got = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
        assert_eq!(got, mode, "umask {umask}");
    }
}
