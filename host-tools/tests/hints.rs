//! `kifudex hints`: the hint protocol (SPEC.md) on books built from real games, checked
//! against `kifudex search --json` on a desktop index of the same games and, where QEMU is
//! installed, against the firmware's UART replies byte for byte.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn shared(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared")
        .join(rel)
}

fn kifudex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(args)
        .output()
        .expect("run kifudex")
}

fn build(inputs: &[PathBuf], out: &Path, extra: &[&str]) {
    let mut args: Vec<&str> = vec!["build"];
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    args.extend(["-o", out.to_str().unwrap(), "--quiet"]);
    args.extend(extra);
    let o = kifudex(&args);
    assert!(
        o.status.success(),
        "build: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Runs `kifudex hints` with `requests` on standard input.
fn hints(book: &Path, requests: &[u8], extra: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(["hints", "--index", book.to_str().unwrap()])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kifudex hints");
    let mut stdin = child.stdin.take().unwrap();
    let input = requests.to_vec();
    let writer = std::thread::spawn(move || {
        // The handler may stop reading at `quit`: a broken pipe is fine.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn hints_protocol_on_bgo_test_archive() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("bgo.kdb");
    build(
        &[shared("corpus/bgo_testsgf/TestSGF.tgz")],
        &book,
        &["--profile", "mcu", "--max-moves", "30"],
    );
    let mut req = Vec::new();
    req.extend_from_slice(b"moves\n");
    req.extend_from_slice(b"moves \r\n");
    req.extend_from_slice(b"moves pd,dp,pp\n");
    req.extend_from_slice(b"moves pd,pd\n");
    req.extend_from_slice(b"moves pd,,dp\n");
    req.extend_from_slice(b"moves zz\n");
    // The empty 19x19 board as a sensor snapshot, and one with a stone at pd.
    req.extend_from_slice(format!("board 19 {}\n", ".".repeat(361)).as_bytes());
    let mut cells = vec![b'.'; 361];
    cells[3 * 19 + 15] = b'X';
    req.extend_from_slice(b"board 19 ");
    req.extend_from_slice(&cells);
    req.push(b'\n');
    req.extend_from_slice(format!("board 19 {}\n", ".".repeat(360)).as_bytes());
    req.extend_from_slice(b"board 20 .\n");
    req.extend_from_slice(b"board 9 .........\n");
    req.extend_from_slice(format!("board 9 {}\n", ".".repeat(81)).as_bytes());
    req.extend_from_slice(b"hello\n\n");
    req.extend_from_slice(&[b'm'; 5000]);
    req.extend_from_slice(b"\n\x00\xff\x01\x1b[A\n");
    req.extend_from_slice(b"quit\nmoves\n");
    let out = hints(&book, &req, &["--leds"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    // bGo's answer for the empty board: the pd class 210, qd 74, qe 2 (total 286).
    let empty = "hints 0 286 pd:B:210 qd:B:74 qe:B:2";
    assert_eq!(
        lines,
        [
            empty,
            empty,
            "hints 959678554 7 dd:W:6 dc:W:1",
            "error illegal-move",
            "error bad-request",
            "error illegal-move",
            empty,
            lines[7].as_str(),
            "error bad-request",
            "error unsupported-size",
            "error bad-request",
            "hints 0 0",
            "error bad-request",
            "error bad-request",
            "error bad-request",
            "error bad-request",
        ]
    );
    assert!(lines[7].starts_with("hints "), "{}", lines[7]);
    // The LED frames, one per reply, on standard error only.
    let frames: Vec<&str> = std::str::from_utf8(&out.stderr).unwrap().lines().collect();
    assert_eq!(frames.len(), lines.len());
    assert_eq!(frames[0], "leds pd:255 qd:90 qe:2");
    assert_eq!(frames[3], "leds");
}

#[test]
fn hints_with_a_bad_book_answer_bad_book() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.kdb");
    std::fs::write(&bad, b"KIFUDEX\x1a this is not a book").unwrap();
    let out = hints(&bad, b"moves\nmoves pd\nnonsense\nquit\nmoves\n", &[]);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "error bad-book\n".repeat(3));
    assert!(
        text(&out.stderr).contains("bad book"),
        "{}",
        text(&out.stderr)
    );
    // A desktop index is not a book either.
    let index = dir.path().join("bgo.kdx");
    build(&[shared("corpus/bgo_testsgf/TestSGF.tgz")], &index, &[]);
    let out = hints(&index, b"moves\n", &[]);
    assert_eq!(text(&out.stdout), "error bad-book\n");
    // A missing file is a command-line error.
    let out = hints(&dir.path().join("missing"), b"moves\n", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}
