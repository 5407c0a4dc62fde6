//! What a user meets when inputs or outputs are wrong: `kifudex build` with missing,
//! unusable and special inputs, outputs that cannot be written, `--report FILE` and
//! `--verbose`; exit codes as the README documents them (0 done, 1 failed, 2 usage).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn kifudex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(args)
        .output()
        .expect("run kifudex")
}

/// Runs kifudex, killing it if it has not ended after `limit` (a hang fails the test
/// instead of blocking it).
fn kifudex_within(args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kifudex");
    let t0 = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if t0.elapsed() > limit {
            child.kill().ok();
            let o = child.wait_with_output().expect("output");
            panic!(
                "kifudex {args:?} still running after {limit:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn sample_archive() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/sample/TestSGF.tgz")
}

fn corpus(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(rel)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn mkfifo(p: &Path) {
    let st = Command::new("mkfifo").arg(p).status().expect("mkfifo");
    assert!(st.success());
}

#[test]
fn a_missing_input_is_an_error_whatever_quiet_says() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.kdx");
    let missing = dir.path().join("no-such-collection");
    let sample = sample_archive();
    for quiet in [false, true] {
        let mut args = vec!["build", s(&sample), s(&missing), "-o", s(&out)];
        if quiet {
            args.push("-q");
        }
        let o = kifudex(&args);
        assert_eq!(o.status.code(), Some(1), "quiet {quiet}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(s(&missing)), "{e}");
        assert!(e.contains("no such file or folder"), "{e}");
        assert!(
            !out.exists(),
            "no index is written when an input is missing"
        );
    }
    // Two missing inputs: both named.
    let other = dir.path().join("other.sgf");
    let o = kifudex(&["build", s(&missing), s(&other), "-o", s(&out), "-q"]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("cannot read 2 inputs"), "{e}");
    assert!(e.contains(s(&missing)) && e.contains(s(&other)), "{e}");
}

/// A folder of inputs none of which holds a game: real broken files from the corpus (an
/// empty file, a file of prose) and made ones (junk, `(;`, a fake zip, a cut archive).
fn unusable_inputs(dir: &Path) -> Vec<(PathBuf, &'static str)> {
    let f = |name: &str| dir.join(name);
    std::fs::write(f("junk.sgf"), b"hello, this is not a game record\n").unwrap();
    std::fs::write(f("open.sgf"), b"(;").unwrap();
    std::fs::write(f("fake.zip"), b"PK but not really a zip file").unwrap();
    let tgz = std::fs::read(sample_archive()).unwrap();
    std::fs::write(f("cut.tgz"), &tgz[..100]).unwrap();
    std::fs::write(f("notes.txt"), b"notes").unwrap();
    let empty = corpus("tricky/in-corpus-examples/gnugo_nightmare_empty.sgf");
    assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);
    vec![
        (f("junk.sgf"), "no SGF game tree found"),
        (f("open.sgf"), "no move"),
        (f("fake.zip"), "broken archive"),
        (f("cut.tgz"), "broken archive"),
        (f("notes.txt"), "not an SGF file or archive (.txt)"),
        (empty, "no SGF game tree found"),
    ]
}

#[test]
fn no_game_found_names_every_input_and_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = unusable_inputs(dir.path());
    let out = dir.path().join("out.kdx");
    let mut args: Vec<&str> = vec!["build"];
    args.extend(inputs.iter().map(|(p, _)| s(p)));
    args.extend(["-o", s(&out), "-q"]);
    let o = kifudex(&args);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains("no game found") || e.contains("no game with a legal move"),
        "{e}"
    );
    for (p, why) in &inputs {
        let line = e
            .lines()
            .find(|l| l.contains(s(p)))
            .unwrap_or_else(|| panic!("{} not named in:\n{e}", p.display()));
        assert!(line.contains(why), "{line} (want {why})");
    }
    assert!(!out.exists());
}

#[test]
fn report_and_verbose_list_every_problem_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("in");
    std::fs::create_dir(&bad).unwrap();
    let inputs = unusable_inputs(&bad);
    // One good real game beside them, and a real game whose main line plays onto an
    // occupied point.
    std::fs::copy(
        corpus("tricky/in-corpus-examples/gnugo_nightmare_empty.sgf"),
        bad.join("empty.sgf"),
    )
    .unwrap();
    let out = dir.path().join("out.kdx");
    let report = dir.path().join("report.json");
    let o = kifudex(&[
        "build",
        s(&bad),
        s(&sample_archive()),
        "-o",
        s(&out),
        "--report",
        s(&report),
        "--verbose",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let problems = v["problems"].as_array().unwrap();
    let e = stderr(&o);
    for (p, _) in inputs.iter().filter(|(p, _)| p.starts_with(&bad)) {
        let listed: Vec<&Value> = problems.iter().filter(|q| q["path"] == s(p)).collect();
        assert!(!listed.is_empty(), "{} not in the report", p.display());
        for q in listed {
            assert!(q["reason"].is_string() && q["message"].is_string(), "{q}");
            assert!(
                ["skipped", "rejected", "recovered"].contains(&q["outcome"].as_str().unwrap()),
                "{q}"
            );
        }
        // --verbose names it too, and so does the summary (three per reason, then a count).
        assert!(e.contains(s(p)), "{} not in --verbose:\n{e}", p.display());
    }
    // Rejected trees carry their byte offset; the counts add up.
    let rejected = problems.iter().filter(|q| q["outcome"] == "rejected");
    assert!(rejected.clone().all(|q| q["byte"].is_u64()));
    assert_eq!(
        v["counts"]["rejected"].as_u64().unwrap() as usize,
        rejected.count()
    );
    // Every line of --verbose is one problem of the report.
    let verbose_lines = e
        .lines()
        .filter(|l| {
            l.contains(": skipped: ")
                || l.contains(": rejected: ")
                || l.contains(": recovered: ")
                || l.contains(": truncated: ")
        })
        .count();
    assert!(
        verbose_lines >= problems.len(),
        "{verbose_lines} < {}",
        problems.len()
    );
}

#[test]
fn truncated_main_lines_name_the_file_game_and_move() {
    // Real records from the tricky corpus: littlego's illegal-move.sgf plays onto an
    // occupied point at move 16, gogui's invalidmove.sgf plays off the board at move 3.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.kdx");
    let report = dir.path().join("report.json");
    let o = kifudex(&[
        "build",
        s(&corpus("tricky")),
        "-o",
        s(&out),
        "--report",
        s(&report),
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stderr.is_empty(), "-q: {}", stderr(&o));
    let v: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let truncated: Vec<(String, String, u64, u64)> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|q| q["outcome"] == "truncated")
        .map(|q| {
            let path = q["path"].as_str().unwrap();
            let file = path.rsplit('/').next().unwrap().to_owned();
            (
                file,
                q["reason"].as_str().unwrap().to_owned(),
                q["game"].as_u64().unwrap(),
                q["move"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        truncated,
        [
            // In path order: Remi-Coulom+gogui before herzbube+littlego.
            ("invalidmove.sgf".into(), "off-board".into(), 1, 3),
            ("illegal-move.sgf".into(), "occupied".into(), 1, 16),
        ]
    );
    // The recovered defects are all listed, and counted as the summary counts them.
    let recovered = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|q| q["outcome"] == "recovered")
        .count();
    assert_eq!(
        v["counts"]["recovered"].as_u64().unwrap() as usize,
        recovered
    );
    let o = kifudex(&["build", s(&corpus("tricky")), "-o", s(&out)]);
    let summary = stderr(&o);
    let line = summary
        .lines()
        .find_map(|l| l.trim().strip_prefix("recovered defects: "))
        .unwrap_or_else(|| panic!("{summary}"));
    let counted: usize = line
        .split(", ")
        .map(|kn| kn.rsplit(' ').next().unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(recovered, counted, "{line}");
}

#[test]
fn a_fifo_inside_an_input_folder_is_skipped_not_opened() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    std::fs::copy(sample_archive(), games.join("TestSGF.tgz")).unwrap();
    mkfifo(&games.join("x.sgf"));
    let out = dir.path().join("out.kdx");
    let o = kifudex_within(
        &["build", s(&games), "-o", s(&out)],
        Duration::from_secs(120),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("x.sgf"), "{e}");
    assert!(e.contains("not a regular file (a FIFO)"), "{e}");
}

#[test]
fn the_output_is_checked_before_any_input_is_read() {
    let dir = tempfile::tempdir().unwrap();
    // An input that would block whoever reads it: a FIFO named on the command line.
    let fifo = dir.path().join("wait.sgf");
    mkfifo(&fifo);
    let limit = Duration::from_secs(60);
    // Into a missing folder.
    let o = kifudex_within(
        &["build", s(&fifo), "-o", s(&dir.path().join("nope/out.kdx"))],
        limit,
    );
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains("nope") && e.contains("no such file or folder"),
        "{e}"
    );
    // An existing folder as the output.
    let o = kifudex_within(&["build", s(&fifo), "-o", s(dir.path())], limit);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("it is a folder"), "{e}");
    assert!(!e.contains("os error"), "{e}");
    // A folder where no file can be created (even as root).
    let o = kifudex_within(&["build", s(&fifo), "-o", "/proc/kifudex.kdx"], limit);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("cannot create a file in /proc"), "{e}");
}

/// Runs `kifudex ARGS` with its standard output a pipe whose reader has already gone
/// (`kifudex ... | true`, started late); returns kifudex's own exit status and its
/// standard error.
fn into_closed_pipe(args: &[&str], stdin: &str) -> (i32, String) {
    let o = Command::new("bash")
        .arg("-c")
        .arg(r#"(sleep 0.5; printf '%s' "$STDIN_TEXT" | "$0" "$@") | true; echo "status ${PIPESTATUS[0]}" >&2"#)
        .arg(env!("CARGO_BIN_EXE_kifudex"))
        .args(args)
        .env("STDIN_TEXT", stdin)
        .output()
        .expect("bash");
    let e = stderr(&o);
    let status = e
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("status "))
        .expect("status line")
        .parse()
        .unwrap();
    (status, e)
}

/// The commands that print, each with what it reads on standard input.
fn printing_commands(book: &Path) -> Vec<(Vec<String>, &'static str)> {
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        (v(&["search", "--moves", "pd"]), ""),
        (v(&["search", "--moves", "pd", "--json"]), ""),
        (v(&["games", "--moves", "pd"]), ""),
        (v(&["games", "--moves", "pd", "--json"]), ""),
        (v(&["info", "--index", s(book)]), ""),
        (v(&["shell"]), "play pd\nsearch\nquit\n"),
        (v(&["hints", "--index", s(book)]), "moves pd\nmoves\nquit\n"),
    ]
}

fn sample_book(dir: &Path) -> PathBuf {
    let book = dir.join("sample.kdb");
    let o = kifudex(&[
        "build",
        s(&sample_archive()),
        "-o",
        s(&book),
        "--profile",
        "mcu",
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    book
}

#[test]
fn a_closed_pipe_ends_every_printing_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let book = sample_book(dir.path());
    for (args, input) in printing_commands(&book) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (status, e) = into_closed_pipe(&args, input);
        assert_eq!(status, 0, "{args:?}: {e}");
        assert!(!e.contains("panicked"), "{args:?}: {e}");
        assert_eq!(e.lines().count(), 1, "{args:?}: only the status line: {e}");
    }
}

#[test]
fn a_full_disk_on_standard_output_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let book = sample_book(dir.path());
    for (args, input) in printing_commands(&book) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kifudex"))
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input.as_bytes()).ok();
        let o = child.wait_with_output().unwrap();
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {e}");
        assert!(!e.contains("panicked"), "{args:?}: {e}");
        assert!(e.contains("No space left on device"), "{args:?}: {e}");
    }
}

#[test]
fn usage_errors_exit_2_and_failures_exit_1() {
    // Usage: clap's own errors, a bad size, an illegal or malformed position.
    for args in [
        &["search", "--no-such-option"][..],
        &["search", "--size", "25"],
        &["games", "--size", "0"],
        &["search", "--moves", "pd,pd"],
        &["search", "--moves", "hello"],
    ] {
        let o = kifudex(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).is_empty());
    }
    // Failures: a missing index, a file that is no index.
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.kdx");
    std::fs::write(&junk, b"not an index").unwrap();
    for args in [
        &["search", "--index", "/no/such/index.kdx"][..],
        &["info", "--index", s(&junk)],
    ] {
        let o = kifudex(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
    }
}
