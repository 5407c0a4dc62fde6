//! The "Pattern search" section of `docs/CONTRACTS.md`, sentence by sentence, on hand-made game records:
//! `kifudex build`, then `kifudex pattern --json` (and `--hits --json` for the regions,
//! transforms and colour choices of the hits), every answer worked out by hand.

use std::process::{Command, Output};

use serde_json::{json, Value};

fn kifudex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(args)
        .output()
        .expect("run kifudex")
}

/// A 19x19 record: root properties, then nodes (`"B[dd]"`, `"AB[cc]W[dd]"`, ...).
fn game(root: &str, nodes: &[&str]) -> String {
    let mut s = format!("(;GM[1]FF[4]SZ[19]{root}");
    for n in nodes {
        s.push(';');
        s.push_str(n);
    }
    s.push(')');
    s
}

/// An index of `records` (one file each) built with `extra` build arguments.
struct Fixture {
    _dir: tempfile::TempDir,
    index: String,
}

fn index(records: &[String], extra: &[&str]) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    for (i, r) in records.iter().enumerate() {
        std::fs::write(dir.path().join(format!("g{i:02}.sgf")), r).unwrap();
    }
    let index = dir.path().join("t.kdx").to_str().unwrap().to_string();
    let src = dir.path().to_str().unwrap().to_string();
    let mut args = vec!["build", src.as_str(), "-o", index.as_str(), "--quiet"];
    args.extend_from_slice(extra);
    let out = kifudex(&args);
    assert!(
        out.status.success(),
        "build: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Fixture { _dir: dir, index }
}

fn run(f: &Fixture, rows: &str, args: &[&str]) -> Value {
    let mut a = vec![
        "pattern",
        "--index",
        f.index.as_str(),
        "--pattern",
        rows,
        "--json",
    ];
    a.extend_from_slice(args);
    let out = kifudex(&a);
    assert!(
        out.status.success(),
        "pattern {rows} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// (move number, region, transform, colours exchanged, continuation) of every hit.
fn hits(f: &Fixture, rows: &str, args: &[&str]) -> Vec<(u64, Value, u64, bool, Value)> {
    let mut a = vec!["--hits"];
    a.extend_from_slice(args);
    let v = run(f, rows, &a);
    v["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["move_number"].as_u64().unwrap(),
                h["region"].clone(),
                h["transform"].as_u64().unwrap(),
                h["colors_exchanged"].as_bool().unwrap(),
                h["continuation"].clone(),
            )
        })
        .collect()
}

fn counts(v: &Value) -> (u64, u64) {
    (v["games"].as_u64().unwrap(), v["hits"].as_u64().unwrap())
}

#[test]
fn rows_are_read_as_the_contract_says() {
    let f = index(&[game("", &["B[dd]"])], &[]);
    // One width, 1 to 19 cells and rows, the six cell characters.
    for (rows, why) in [
        ("..X/.O", "row 2 has 2 cells, the first row has 3"),
        ("..Y", "row 1, column 3: 'Y' is not a pattern cell"),
        ("....................", "20 cells in a row: at most 19"),
        ("", "row 1 is empty"),
    ] {
        let out = kifudex(&["pattern", "--index", &f.index, "--pattern", rows, "--json"]);
        assert_eq!(out.status.code(), Some(2), "{rows}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{rows}: {err}");
    }
    let tall = vec!["."; 20].join("/");
    let out = kifudex(&["pattern", "--index", &f.index, "--pattern", &tall]);
    assert_eq!(out.status.code(), Some(2));
    let out = kifudex(&[
        "pattern",
        "--index",
        &f.index,
        "--pattern",
        "X",
        "--area",
        "1,2,3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    // A 19x19 pattern of wildcards matches once per game, at the start.
    let all = vec!["*".repeat(19); 19].join("/");
    assert_eq!(counts(&run(&f, &all, &[])), (1, 1));
    let mixed = run(&f, "xo*/.XO", &[]);
    assert!(mixed["hits"].is_u64());
}

#[test]
fn placements_lie_in_the_area_of_the_transformed_board() {
    // One black stone at cd (x 2, y 3).
    let f = index(&[game("RE[W+5.5]", &["B[cd]"])], &[]);
    // As is: the stone is the placement at (2, 3).
    let h = hits(&f, "X", &["--fixed-color", "--area", "2,3,2,3"]);
    assert_eq!(h, vec![(1, json!([2, 3, 2, 3]), 0, false, Value::Null)]);
    // Transform 1 (flip left-right) puts it at (16, 3): allowed there, its region is the
    // real point (2, 3).
    let h = hits(&f, "X", &["--fixed-color", "--area", "16,3,16,3"]);
    assert_eq!(h, vec![(1, json!([2, 3, 2, 3]), 1, false, Value::Null)]);
    // No transform puts it in columns 0 and 1.
    assert_eq!(
        counts(&run(&f, "X", &["--fixed-color", "--area", "0,0,1,18"])),
        (0, 0)
    );
    // Placements must lie inside the board: a 3-wide pattern cannot start at column 17.
    assert_eq!(counts(&run(&f, "X..", &["--area", "17,0,18,18"])), (0, 0));
    assert_eq!(counts(&run(&f, "X..", &["--area", "2,3,2,3"])), (1, 1));
    // By default every placement on the board.
    assert_eq!(counts(&run(&f, "X", &["--fixed-color"])), (1, 1));
}

#[test]
fn colours_are_exchanged_unless_fixed() {
    let f = index(&[game("", &["B[cd]"])], &[]);
    // `O` matches the black stone with colours exchanged.
    let h = hits(&f, "O", &["--area", "2,3,2,3"]);
    assert_eq!(h, vec![(1, json!([2, 3, 2, 3]), 0, true, Value::Null)]);
    assert_eq!(
        counts(&run(&f, "O", &["--area", "2,3,2,3", "--fixed-color"])),
        (0, 0)
    );
}

#[test]
fn only_19x19_games_and_their_whole_main_line() {
    let nine = "(;GM[1]FF[4]SZ[9];B[cc];W[ee];B[ge])".to_string();
    let long = game("", &["B[aa]", "W[sa]", "B[as]", "W[ss]", "B[ee]"]);
    // The index keeps only the first move's position for search; pattern search still
    // reads every move.
    let f = index(&[nine, long], &["--max-moves", "1"]);
    let h = hits(&f, "X", &["--fixed-color", "--area", "4,4,4,4"]);
    // (4, 4) is ee: Black's fifth move in the 19x19 game (move 5), and not the 9x9 game's
    // stone at its centre (4, 4).
    assert_eq!(h, vec![(5, json!([4, 4, 4, 4]), 0, false, Value::Null)]);
}

#[test]
fn a_hit_is_a_match_that_newly_appears() {
    // Handicap stone dd in the root: a hit at move 0. It stays: no other hit.
    let handicap = game("HA[2]AB[dd][pp]", &["W[qd]", "B[dp]", "W[cq]"]);
    let f = index(&[handicap], &[]);
    // At (3, 3) of the transformed board: dd as is (transform 0), pp under transform 4,
    // and Black's dp (move 2) under transform 2.
    let h = hits(&f, "X", &["--fixed-color", "--area", "3,3,3,3"]);
    assert_eq!(
        h,
        vec![
            (0, json!([3, 3, 3, 3]), 0, false, Value::Null),
            (0, json!([15, 15, 15, 15]), 4, false, Value::Null),
            (2, json!([3, 15, 3, 15]), 2, false, Value::Null),
        ]
    );

    // The centre point empty at the start, taken, captured at move 8: empty again.
    let capture = game(
        "RE[W+R]",
        &[
            "B[jj]", "W[ij]", "B[aa]", "W[kj]", "B[ab]", "W[ji]", "B[ac]", "W[jk]", "B[ad]",
        ],
    );
    let f = index(&[capture], &[]);
    let h = hits(&f, ".", &["--fixed-color", "--area", "9,9,9,9"]);
    assert_eq!(
        h,
        vec![
            (
                0,
                json!([9, 9, 9, 9]),
                0,
                false,
                json!({"move": "aa", "color": "B", "move_number": 1, "immediate": true})
            ),
            (8, json!([9, 9, 9, 9]), 0, false, Value::Null),
        ]
    );
    assert_eq!(
        run(&f, ".", &["--fixed-color", "--area", "9,9,9,9"]),
        json!({"games": 1, "hits": 2, "continuations": [
            {"move": "aa", "equivalent": ["aa"], "color": "B", "count": 1, "immediate": 1,
             "tenuki": 0, "black_wins": 0, "white_wins": 1}
        ]})
    );

    // Setup stones of a node are set before its move: AB[cc] in the node of move 2 is
    // part of the position after move 1 (and qq, move 3, is (2, 2) under transform 4).
    let setup = game("", &["B[pp]", "AB[cc]W[dd]", "B[qq]"]);
    let f = index(&[setup], &[]);
    let h = hits(&f, "X", &["--fixed-color", "--area", "2,2,2,2"]);
    assert_eq!(
        h,
        vec![
            (1, json!([2, 2, 2, 2]), 0, false, Value::Null),
            (3, json!([16, 16, 16, 16]), 4, false, Value::Null),
        ]
    );
}

#[test]
fn one_hit_per_region_with_the_smallest_transform_as_is_first() {
    // A black stone at the centre: all 8 transforms and both colour choices (for `.`)
    // give the same region; one hit, transform 0, as is.
    let f = index(&[game("", &["B[jj]", "W[kj]"])], &[]);
    let h = hits(&f, "X", &["--area", "9,9,9,9"]);
    assert_eq!(h, vec![(1, json!([9, 9, 9, 9]), 0, false, Value::Null)]);
    let dots = run(&f, ".", &["--area", "9,9,9,9"]);
    assert_eq!(counts(&dots), (1, 1));
    // XO on jj-kj: transform 0 as is, and transform 1 with colours exchanged, cover the
    // same region; the hit is transform 0's.
    let h = hits(&f, "XO", &[]);
    assert_eq!(h, vec![(2, json!([9, 9, 10, 9]), 0, false, Value::Null)]);
}

#[test]
fn continuations_in_pattern_coordinates() {
    // Black in the top-right corner (sa = (18, 0)): the pattern `X./..` at the top-left
    // placement matches under transform 1 (and 3, same region: 1 is the hit's). Black's
    // later move rb = (17, 1) is cell (1, 1) = bb of the pattern; a move elsewhere between
    // makes it a tenuki.
    let tenuki = game("RE[B+R]", &["B[sa]", "W[dd]", "B[rb]"]);
    // White in the corner, found with colours exchanged: White's rb is shown as Black's.
    let swapped = game("RE[W+R]", &["B[dd]", "W[sa]", "B[pp]", "W[rb]"]);
    // A pass is in no region: Black's rb after White's pass is still a tenuki.
    let pass = game("RE[B+R]", &["B[sa]", "W[]", "B[rb]"]);
    // No later move in the region: no continuation, the hit still counts.
    let none = game("", &["B[sa]", "W[dd]"]);
    // Immediate: White answers inside the region at once.
    let immediate = game("RE[W+1.5]", &["B[sa]", "W[ra]"]);
    let f = index(std::slice::from_ref(&tenuki), &[]);
    let h = hits(&f, "X./..", &["--area", "0,0,0,0"]);
    assert_eq!(
        h,
        vec![(
            1,
            json!([17, 0, 18, 1]),
            1,
            false,
            json!({"move": "bb", "color": "B", "move_number": 3, "immediate": false})
        )]
    );
    let f = index(&[swapped], &[]);
    let h = hits(&f, "X./..", &["--area", "0,0,0,0"]);
    assert_eq!(
        h,
        vec![(
            2,
            json!([17, 0, 18, 1]),
            1,
            true,
            json!({"move": "bb", "color": "B", "move_number": 4, "immediate": false})
        )]
    );
    let f = index(&[tenuki, pass, none, immediate], &[]);
    // ra = (17, 0) is cell (1, 0) = ba under transform 1.
    assert_eq!(
        run(&f, "X./..", &["--area", "0,0,0,0"]),
        json!({"games": 4, "hits": 4, "continuations": [
            {"move": "bb", "equivalent": ["bb"], "color": "B", "count": 2, "immediate": 0,
             "tenuki": 2, "black_wins": 2, "white_wins": 0},
            {"move": "ba", "equivalent": ["ba", "ab"], "color": "W", "count": 1, "immediate": 1,
             "tenuki": 0, "black_wins": 0, "white_wins": 1}
        ]})
    );
}

#[test]
fn classes_follow_the_symmetry_of_pattern_and_area() {
    // A black stone at the centre, then White next to it on each side in four games.
    let games: Vec<String> = ["W[ji]", "W[kj]", "W[jk]", "W[ij]"]
        .iter()
        .map(|w| game("RE[B+R]", &["B[jj]", w]))
        .collect();
    let f = index(&games, &[]);
    // `.../.X./...` anywhere: all 8 symmetries; the four sides are one class, shown as
    // in search (upper-right octant first): cb; listed by y * 3 + x.
    assert_eq!(
        run(&f, ".../.X./...", &[]),
        json!({"games": 4, "hits": 4, "continuations": [
            {"move": "cb", "equivalent": ["ba", "ab", "cb", "bc"], "color": "W", "count": 4,
             "immediate": 4, "tenuki": 0, "black_wins": 4, "white_wins": 0}
        ]})
    );
    // Placements at (8, 8) and (8, 9) only: a flip left-right maps them onto themselves, a
    // flip top-bottom or a transpose does not. ab and cb are one class, ba and bc not.
    let v = run(&f, ".../.X./...", &["--area", "8,8,8,9"]);
    let classes: Vec<(String, Value, u64)> = v["continuations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["move"].as_str().unwrap().to_string(),
                c["equivalent"].clone(),
                c["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        classes,
        vec![
            ("cb".to_string(), json!(["ab", "cb"]), 2),
            ("ba".to_string(), json!(["ba"]), 1),
            ("bc".to_string(), json!(["bc"]), 1),
        ]
    );
}
