//! A build depends only on its inputs and options: never on the thread count, the run or
//! the machine. Runs the real `kifudex` binary on a real subset of the corpus.

use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(rel)
}

/// Builds with the CLI and returns the file's bytes.
fn cli_build(out: &Path, extra: &[&str]) -> Vec<u8> {
    let status = Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .arg("build")
        .arg(corpus("aeb_9x9"))
        .arg(corpus("bgo_testsgf/TestSGF.tgz"))
        .arg("-o")
        .arg(out)
        .args(extra)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("run kifudex");
    assert!(status.success(), "kifudex build {extra:?} failed: {status}");
    std::fs::read(out).unwrap()
}

fn assert_same(a: &[u8], b: &[u8], what: &str) {
    assert!(
        a == b,
        "{what}: {} vs {} bytes, first difference at {:?}",
        a.len(),
        b.len(),
        a.iter().zip(b).position(|(x, y)| x != y)
    );
}

fn check_profile(extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let one = cli_build(
        &dir.path().join("t1"),
        &[extra, &["--threads", "1"]].concat(),
    );
    let default = cli_build(&dir.path().join("td"), extra);
    let again = cli_build(&dir.path().join("td2"), extra);
    let four = cli_build(
        &dir.path().join("t4"),
        &[extra, &["--threads", "4"]].concat(),
    );
    assert!(one.len() > 1000);
    assert_same(&one, &default, "--threads 1 vs default");
    assert_same(&default, &again, "two runs");
    assert_same(&one, &four, "--threads 1 vs --threads 4");
}

#[test]
fn index_is_identical_across_threads_and_runs() {
    check_profile(&[]);
}

#[test]
fn book_is_identical_across_threads_and_runs() {
    check_profile(&["--profile", "mcu"]);
}

#[test]
fn limited_index_is_identical_across_threads_and_runs() {
    check_profile(&["--max-moves", "30"]);
}

/// The memory budget (`--memory`) changes where the occurrences are sorted (in memory, or
/// spilled to temporary files and sorted in slices of keys), never the index: fox_pro built
/// with the default budget, with 8 MiB on one and on three threads, and with 1 MiB gives
/// the same bytes, and the spilling builds say they spilled. (Slices smaller than a
/// partition, split again by the next key bits, are tested in `indexing::occurrences::spill`.)
#[test]
fn the_memory_budget_does_not_change_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let build = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        let o = Command::new(env!("CARGO_BIN_EXE_kifudex"))
            .arg("build")
            .arg(corpus("fox_pro"))
            .arg("-o")
            .arg(&out)
            .args(extra)
            .output()
            .expect("run kifudex");
        assert!(o.status.success(), "kifudex build {extra:?}: {o:?}");
        let summary =
            String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
        (std::fs::read(out).unwrap(), summary.contains("spilled:"))
    };
    let (default, spilled) = build("default", &[]);
    assert!(!spilled, "fox_pro fits the default budget");
    for (i, extra) in [
        &["--memory", "8M", "--threads", "1"][..],
        &["--memory", "8M", "--threads", "3"],
        &["--memory", "1M"],
    ]
    .iter()
    .enumerate()
    {
        let (bytes, spilled) = build(&format!("b{i}"), extra);
        assert!(spilled, "{extra:?} spilled");
        assert_same(&default, &bytes, &format!("{extra:?}"));
    }
}
