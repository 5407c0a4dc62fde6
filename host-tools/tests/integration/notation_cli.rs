//! One move notation on the command line: `--moves` in SGF letters (either case), human
//! coordinates and spaces; errors naming the move number and the move in words; `--sgf
//! FILE [--move N]` (handicap stones included); rectangular `--size WxH`; a position beyond
//! an index's `--max-moves`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn kifudex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(args)
        .output()
        .expect("run kifudex")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn corpus(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(rel)
}

fn sample_archive() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/sample/TestSGF.tgz")
}

fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.push("--json");
    let o = kifudex(&a);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn build(inputs: &[&Path], out: &Path, extra: &[&str]) {
    let mut a = vec!["build"];
    a.extend(inputs.iter().map(|p| s(p)));
    a.extend(["-o", s(out), "-q"]);
    a.extend(extra);
    let o = kifudex(&a);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn every_notation_reaches_the_same_answer() {
    let want = json(&["search", "--moves", "pd,dp,pp"]);
    // bGo's answer on its test archive (the bundled sample).
    assert_eq!(want["hash"], 959678554);
    assert_eq!(want["total"], 7);
    for moves in [
        "Q16,D4,Q4",
        "q16,d4,q4",
        "PD,DP,PP",
        "pd dp pp",
        "Q16 dp PP",
        " pd , dp,pp ",
    ] {
        assert_eq!(json(&["search", "--moves", moves]), want, "{moves}");
    }
    let games = json(&["games", "--moves", "pd,dp,pp"]);
    assert_eq!(json(&["games", "--moves", "Q16 D4 Q4"]), games);
}

#[test]
fn errors_name_the_move_number_and_the_move() {
    for (moves, want) in [
        ("pd,pd", "move 2, White pd: the point is occupied"),
        ("Q16,D4,q16", "move 3, Black q16: the point is occupied"),
        (
            "pd,dp,hello",
            "move 3: `hello` is not a move (expected an SGF point like pd, a coordinate like Q16, or pass)",
        ),
        ("pd,,dp", "move 2 is empty"),
        ("pd,Z5", "move 2: `Z5` is not a move"),
        ("pd,Q20", "move 2, White Q20: the point is off the board"),
    ] {
        let o = kifudex(&["search", "--moves", moves]);
        assert_eq!(o.status.code(), Some(2), "{moves}");
        let e = stderr(&o);
        assert!(e.contains(want), "{moves}: {e}");
        assert!(!e.contains("Occupied") && !e.contains("bad-request"), "{e}");
    }
}

#[test]
fn an_sgf_position_with_its_handicap_stones_is_searchable() {
    // A real 9-stone handicap game (GNU Go's regression set), indexed with a real even
    // game from fox_pro.
    let handicap = corpus("gnugo_regression/9handicap.sgf");
    let even = corpus("fox_pro/1p/1377954818019999562.sgf");
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("two.kdx");
    build(&[&handicap, &even], &index, &[]);
    // Move 0: the nine stones. The same board set up by playing them with White passing
    // (an independent way to reach it) has the same bGo hashes.
    let at0 = json(&[
        "search",
        "--index",
        s(&index),
        "--sgf",
        s(&handicap),
        "--move",
        "0",
    ]);
    let played = json(&[
        "search",
        "--index",
        s(&index),
        "--moves",
        "jj,pass,jd,pass,jp,pass,dj,pass,pj,pass,pp,pass,dd,pass,pd,pass,dp",
    ]);
    assert_eq!(at0["hashes"], played["hashes"]);
    // The game's first move (W ec) follows that position in the index.
    assert_eq!(at0["total"], 1, "{at0}");
    assert_eq!(at0["next"][0]["color"], "W");
    // (The nine stones are symmetric under all 8 transforms: ec is one of 8 equivalents.)
    let eq = at0["next"][0]["equivalent"].as_array().unwrap();
    assert_eq!(eq.len(), 8, "{at0}");
    assert!(eq.contains(&Value::from("ec")), "{at0}");
    // After 3 moves (W ec, B dc, W db) the next is B cb.
    let at3 = json(&[
        "search",
        "--index",
        s(&index),
        "--sgf",
        s(&handicap),
        "--move",
        "3",
    ]);
    assert_eq!(at3["next"][0]["move"], "cb", "{at3}");
    assert_eq!(at3["next"][0]["color"], "B");
    // The games list finds it too.
    let g = json(&[
        "games",
        "--index",
        s(&index),
        "--sgf",
        s(&handicap),
        "--move",
        "3",
    ]);
    assert_eq!(g["games"].as_array().map(Vec::len), Some(1), "{g}");
    // An even game: --sgf --move N is --moves with its first N moves.
    let text = std::fs::read_to_string(&even).unwrap();
    let first: Vec<String> = text
        .split(';')
        .filter_map(|n| n.get(..5))
        .filter(|n| n.starts_with("B[") || n.starts_with("W["))
        .map(|n| n[2..4].to_owned())
        .take(20)
        .collect();
    assert_eq!(first.len(), 20);
    assert_eq!(
        json(&[
            "search",
            "--index",
            s(&index),
            "--sgf",
            s(&even),
            "--move",
            "20"
        ]),
        json(&["search", "--index", s(&index), "--moves", &first.join(",")])
    );
    // Past the end of the main line: an error naming its length.
    let o = kifudex(&["search", "--sgf", s(&handicap), "--move", "100000"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("the main line has only"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn rectangular_boards_are_searchable() {
    // A 19x9 record (made here: the corpus's rectangular records have no moves).
    let dir = tempfile::tempdir().unwrap();
    let rect = dir.path().join("wide.sgf");
    std::fs::write(
        &rect,
        "(;GM[1]FF[4]SZ[19:9]RE[B+R];B[cc];W[qg];B[qc];W[cg];B[jd])",
    )
    .unwrap();
    let index = dir.path().join("wide.kdx");
    build(&[&rect], &index, &[]);
    let v = json(&[
        "search",
        "--index",
        s(&index),
        "--size",
        "19x9",
        "--moves",
        "cc",
    ]);
    assert_eq!(v["total"], 1, "{v}");
    assert_eq!(v["next"][0]["move"], "qg");
    // Human coordinates count rows from the bottom of the 9-row board: C7 is cc.
    assert_eq!(
        json(&[
            "search",
            "--index",
            s(&index),
            "--size",
            "19x9",
            "--moves",
            "C7"
        ]),
        v
    );
    assert_eq!(
        json(&[
            "search",
            "--index",
            s(&index),
            "--sgf",
            s(&rect),
            "--move",
            "1"
        ]),
        v
    );
    for bad in ["19x20", "0", "x9", "nine"] {
        let o = kifudex(&["search", "--index", s(&index), "--size", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn a_position_beyond_max_moves_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("four.kdx");
    build(&[&sample_archive()], &index, &["--max-moves", "4"]);
    // Three moves deep: indexed (bGo's answer: dd 6, dc 1 after pd,dp,pp).
    let o = kifudex(&[
        "search",
        "--index",
        s(&index),
        "--moves",
        "pd,dp,pp",
        "--json",
    ]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["total"], 7);
    assert!(o.stderr.is_empty());
    // Four moves deep: not indexed, and the user is told why.
    for cmd in ["search", "games"] {
        let o = kifudex(&[cmd, "--index", s(&index), "--moves", "pd,dp,pp,dd"]);
        assert!(o.status.success());
        let e = stderr(&o);
        assert!(
            e.contains("4 moves deep") && e.contains("--max-moves 4"),
            "{cmd}: {e}"
        );
    }
    // An index of every move says nothing of the kind.
    let all = dir.path().join("all.kdx");
    build(&[&sample_archive()], &all, &[]);
    let o = kifudex(&["search", "--index", s(&all), "--moves", "pd,dp,pp,dd,qq,qp"]);
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}
