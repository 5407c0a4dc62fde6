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
        (f("notes.txt"), "not a game record or archive (.txt)"),
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

/// The subcommands that `kifudex --help` lists.
fn subcommands() -> Vec<String> {
    let o = kifudex(&["--help"]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    let list: Vec<String> = text
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_owned)
        .collect();
    assert!(list.len() >= 14, "{text}");
    list
}

/// Every `.md` file a text names (`docs/HINTS.md`, `JSON.md`...).
fn cited_docs(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || "/._-".contains(c)))
        .filter(|w| w.ends_with(".md"))
        .map(|w| w.trim_start_matches("./").to_owned())
        .collect()
}

#[test]
fn help_texts_cite_only_the_projects_own_docs() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut texts = vec![("kifudex --help".to_string(), kifudex(&["--help"]))];
    for c in subcommands() {
        texts.push((format!("kifudex {c} --help"), kifudex(&[&c, "--help"])));
    }
    let mut cited = 0;
    for (what, o) in &texts {
        assert!(o.status.success(), "{what}: {}", stderr(o));
        let text = String::from_utf8_lossy(&o.stdout);
        for outside in ["reference/", "../shared", "seeds/"] {
            assert!(!text.contains(outside), "{what} cites {outside}:\n{text}");
        }
        for doc in cited_docs(&text) {
            let found = [root.join(&doc), root.join("docs").join(&doc)]
                .iter()
                .any(|p| p.is_file());
            assert!(found, "{what} cites {doc}, which is not in the repository");
            cited += 1;
        }
    }
    // The help of `hints` and of `--json` cite docs/HINTS.md and docs/JSON.md.
    assert!(cited >= 3, "{cited}");
    // Error hints are in the code's string literals (not its comments): none cites a file
    // outside the repository (the shared folder or its reference folder).
    let sources = [
        "src",
        "records/src",
        "builder/src",
        "explore/src",
        "web/src",
        "gtp/src",
    ]
    .iter()
    .flat_map(|d| walk(&root.join("host-tools").join(d)));
    for entry in sources {
        let code = std::fs::read_to_string(&entry).unwrap();
        for (n, line) in code.lines().enumerate() {
            let t = line.trim_start();
            if t.starts_with("//") || !t.contains('"') {
                continue;
            }
            for outside in ["../shared", "reference/README"] {
                let quoted = line.split('"').skip(1).step_by(2);
                assert!(
                    !quoted.clone().any(|q| q.contains(outside)),
                    "{}:{}: a message cites {outside}: {line}",
                    entry.display(),
                    n + 1
                );
            }
        }
    }
}

/// The `.rs` files under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out
}

/// docs/WEB.md's table of refused positions: each request, given to `kifudex search` as
/// the same options, is refused (exit 2) with exactly the error the table shows (the web API
/// and the command line set positions up with one function, `kifudex::explore::position::set_up`).
#[test]
fn the_refusals_documented_in_web_md_are_todays() {
    let doc =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/WEB.md"))
            .unwrap();
    let mut rows = 0;
    let table = doc
        .lines()
        .skip_while(|l| !l.starts_with("| request | `error` |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'));
    for line in table {
        let cells: Vec<&str> = line.split(" | ").collect();
        let [request, error] = cells[..] else {
            continue;
        };
        let (Some(request), Some(error)) = (
            request
                .strip_prefix("| `")
                .and_then(|r| r.strip_suffix('`')),
            error.strip_suffix(" |"),
        ) else {
            continue;
        };
        let error = error.trim_matches('`').trim();
        let mut args = vec!["search".to_string()];
        for param in request.split('&') {
            let (name, value) = param.split_once('=').unwrap();
            args.push(format!("--{name}"));
            args.push(value.to_string());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = kifudex(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o).trim(), format!("kifudex: {error}"), "{args:?}");
        rows += 1;
    }
    assert_eq!(rows, 5, "the table of refusals in docs/WEB.md");
}

/// The number after `label` at the start of a line of `text` (thousands separators
/// dropped), and the rest of that line.
fn count_after<'t>(text: &'t str, label: &str) -> (u64, &'t str) {
    let line = text
        .lines()
        .map(str::trim_start)
        .find_map(|l| l.strip_prefix(label))
        .unwrap_or_else(|| panic!("no {label:?} in:\n{text}"));
    let line = line.trim_start();
    let end = line.find([' ', '(']).unwrap_or(line.len());
    let n = line[..end].replace(',', "").parse().unwrap();
    (n, &line[end..])
}

/// The numbers of `a = b word + c word...`: `[a, b, c...]`.
fn sum_parts(first: u64, rest: &str) -> Vec<u64> {
    let mut parts = vec![first];
    if let Some(rhs) = rest.trim_start().strip_prefix("= ") {
        for term in rhs.split(" + ") {
            let n = term.split_whitespace().next().unwrap();
            parts.push(n.replace(',', "").parse().unwrap());
        }
    }
    parts
}

/// The build summary and `kifudex info` on real corpus folders: the games read are the
/// games kept plus the duplicates left out, the games kept those with and without moves, in
/// the same words and with the same numbers in both; checked against a build that keeps the
/// duplicates (its games kept = the games read) and against `kifudex game ID` of every game
/// (the games without moves counted one by one). Unlimited limits say `all`, the rate is
/// rounded, the hash over a board says what it is.
#[test]
fn the_build_summary_and_info_agree_and_add_up() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.kdx");
    let inputs = [corpus("aeb_alphago"), corpus("tricky")];
    let build = |extra: &[&str], out: &Path| {
        let mut args = vec!["build", s(&inputs[0]), s(&inputs[1]), "-o", s(out)];
        args.extend(extra);
        let o = kifudex(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stderr(&o)
    };
    let summary = build(&[], &out);
    let (read, rest) = count_after(&summary, "games read:");
    let read_sum = sum_parts(read, rest);
    assert_eq!(read_sum.len(), 3, "{summary}");
    assert!(rest.contains(" kept + ") && rest.contains(" duplicates left out"));
    assert_eq!(read_sum[0], read_sum[1] + read_sum[2], "{summary}");
    let (kept, rest) = count_after(&summary, "games kept:");
    let kept_sum = sum_parts(kept, rest);
    assert_eq!(kept, read_sum[1]);
    assert_eq!(
        kept_sum.len(),
        3,
        "this corpus has games without moves: {summary}"
    );
    assert_eq!(kept_sum[0], kept_sum[1] + kept_sum[2]);
    assert!(read_sum[2] > 0, "this corpus has duplicates");
    let (occurrences, _) = count_after(&summary, "occurrences:");
    let (positions, _) = count_after(&summary, "positions:");

    let info = String::from_utf8(kifudex(&["info", "--index", s(&out)]).stdout).unwrap();
    let (info_kept, rest) = count_after(&info, "games kept:");
    assert_eq!(sum_parts(info_kept, rest), kept_sum, "{info}");
    assert_eq!(count_after(&info, "occurrences:").0, occurrences);
    assert_eq!(count_after(&info, "positions:").0, positions);
    assert!(info.contains("max moves all,"), "{info}");
    // Every section: `NAME COUNT records x BITS bits = BYTES bytes`, its bytes enough for
    // its records, all of them inside the file; the pattern search's four sections add up
    // to the line that sums them and to the size `pattern --timings` reads from the index.
    let file_len = std::fs::metadata(&out).unwrap().len();
    let sections: Vec<(String, u64)> = info
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let (name, rest) = l.split_at(l.find(|c: char| c.is_ascii_digit())?);
            let words: Vec<&str> = rest.split_whitespace().collect();
            let [count, "records", "x", bits, "bits", "=", bytes, "bytes"] = words[..] else {
                return None;
            };
            let number = |w: &str| w.parse::<u64>().unwrap();
            assert!(
                number(bytes) >= (number(count) * number(bits)).div_ceil(8),
                "{l}"
            );
            Some((name.trim().to_string(), number(bytes)))
        })
        .collect();
    assert_eq!(sections.len(), 40, "{info}");
    assert!(sections.iter().map(|(_, b)| b).sum::<u64>() < file_len);
    let pattern_sum: u64 = sections
        .iter()
        .filter(|(n, _)| {
            [
                "pattern blocks",
                "removals",
                "removal starts",
                "corner boxes",
            ]
            .contains(&n.as_str())
        })
        .map(|(_, b)| b)
        .sum();
    assert_eq!(
        count_after(&info, "pattern search:").0,
        pattern_sum,
        "{info}"
    );
    // The game columns' sections: the last 20, summed in their line.
    let columns_sum: u64 = sections[20..].iter().map(|(_, b)| b).sum();
    assert_eq!(count_after(&info, "game columns:").0, columns_sum, "{info}");
    let o = kifudex(&[
        "pattern",
        "--index",
        s(&out),
        "--pattern",
        "X",
        "--timings",
        "--json",
    ]);
    let timings = stderr(&o);
    assert!(
        timings.contains(&format!("in the index ({pattern_sum} bytes,")),
        "{timings}"
    );

    // The games without moves, one by one.
    let without = (0..kept)
        .filter(|id| {
            let o = kifudex(&["game", "--index", s(&out), &id.to_string()]);
            let v: Value = serde_json::from_slice(&o.stdout).unwrap();
            v["moves"].as_array().unwrap().is_empty()
        })
        .count() as u64;
    assert_eq!(without, kept_sum[2]);
    // Keeping the duplicates keeps every game read.
    let all = build(&["--keep-duplicates"], &dir.path().join("all.kdx"));
    assert_eq!(count_after(&all, "games kept:").0, read);
    assert_eq!(
        sum_parts(
            count_after(&all, "games read:").0,
            count_after(&all, "games read:").1
        )[2],
        0
    );

    // The rate: a whole number with separators, no decimals.
    let rate = summary.lines().find(|l| l.starts_with("time:")).unwrap();
    let per_second = rate
        .split('(')
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert!(
        per_second.chars().all(|c| c.is_ascii_digit() || c == ',')
            || per_second.contains('.') && per_second.len() <= 3,
        "{rate}"
    );
    assert!(rate.ends_with("games read per second)"), "{rate}");

    // A book: no limit says `all`; its games kept are the build's.
    let book = dir.path().join("c.kdb");
    let summary = build(&["--profile", "mcu"], &book);
    let info = String::from_utf8(kifudex(&["info", "--index", s(&book)]).stdout).unwrap();
    assert_eq!(
        count_after(&info, "games kept:").0,
        count_after(&summary, "games kept:").0
    );
    assert!(
        info.contains("max moves all, min count 1, max next all,"),
        "{info}"
    );

    // The hash under a board says what it is.
    let o = kifudex(&["search", "--index", s(&out), "--moves", "pd"]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.lines().any(|l| l.trim_start().starts_with("hash ")
            && l.ends_with("(bGo's additive position hash, docs/HASH.md)")),
        "{text}"
    );
}
