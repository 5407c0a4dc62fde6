//! What `kifudex pattern` offers beyond its contract (`docs/CONTRACTS.md`), on the bundled sample (286 professional
//! games): hit lists and their paging, game filters, the date profile, `games --pattern`,
//! and a pattern cut from a game record. Each is checked against another way of getting
//! the same answer from the same command.

use std::process::{Command, Output};

use serde_json::Value;

fn kifudex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(args)
        .output()
        .expect("run kifudex")
}

fn json(args: &[&str]) -> Value {
    let out = kifudex(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The 4-4 point with an approach at the 3-5 point (a frequent corner shape).
const SHAPE: &str = "....../....../...X../....../..O.../......";

#[test]
fn hit_lists_page_through_all_hits() {
    let all = json(&[
        "pattern",
        "--pattern",
        SHAPE,
        "--area",
        "0,0,0,0",
        "--hits",
        "--json",
        "--limit",
        "100000",
    ]);
    let list = all["list"].as_array().unwrap();
    assert!(list.len() > 10, "only {} hits", list.len());
    assert_eq!(list.len() as u64, all["hits"].as_u64().unwrap());
    let games: std::collections::BTreeSet<u64> =
        list.iter().map(|h| h["game"].as_u64().unwrap()).collect();
    assert_eq!(games.len() as u64, all["games"].as_u64().unwrap());
    // Game by game, position by position.
    let keys: Vec<(u64, u64)> = list
        .iter()
        .map(|h| {
            (
                h["game"].as_u64().unwrap(),
                h["move_number"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]));
    // Pages of 7 put together are the whole list.
    let mut paged = Vec::new();
    let mut offset = 0;
    loop {
        let page = json(&[
            "pattern",
            "--pattern",
            SHAPE,
            "--area",
            "0,0,0,0",
            "--hits",
            "--json",
            "--limit",
            "7",
            "--offset",
            &offset.to_string(),
        ]);
        let items = page["list"].as_array().unwrap().clone();
        if items.is_empty() {
            break;
        }
        offset += items.len();
        paged.extend(items);
    }
    assert_eq!(&paged, list);
    // Every hit's continuation is counted in the summary.
    let summary = json(&["pattern", "--pattern", SHAPE, "--area", "0,0,0,0", "--json"]);
    let with_cont = list.iter().filter(|h| !h["continuation"].is_null()).count() as u64;
    let counted: u64 = summary["continuations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["count"].as_u64().unwrap())
        .sum();
    assert_eq!(with_cont, counted);
}

#[test]
fn filters_date_profile_and_game_lists_agree() {
    let all = json(&[
        "pattern",
        "--pattern",
        SHAPE,
        "--area",
        "0,0,0,0",
        "--json",
        "--by-year",
    ]);
    // The date profile adds up to the totals, year by year and class by class.
    let years = all["years"].as_object().unwrap();
    let hits: u64 = years.values().map(|y| y["hits"].as_u64().unwrap()).sum();
    let games: u64 = years.values().map(|y| y["games"].as_u64().unwrap()).sum();
    assert_eq!(hits, all["hits"].as_u64().unwrap());
    assert_eq!(games, all["games"].as_u64().unwrap());
    for c in all["continuations"].as_array().unwrap() {
        let by_year: u64 = c["by_year"]
            .as_object()
            .unwrap()
            .values()
            .map(|n| n.as_u64().unwrap())
            .sum();
        assert_eq!(by_year, c["count"].as_u64().unwrap(), "{c}");
    }
    // The sample's games are of 2011 and 2012: a year filter keeps that year's column.
    let (year, counts) = years
        .iter()
        .max_by_key(|(_, y)| y["hits"].as_u64())
        .unwrap();
    let one = json(&[
        "pattern",
        "--pattern",
        SHAPE,
        "--area",
        "0,0,0,0",
        "--json",
        "--year-from",
        year,
        "--year-to",
        year,
    ]);
    assert_eq!(one["hits"], counts["hits"]);
    assert_eq!(one["games"], counts["games"]);
    // games --pattern lists the same games, each with its first hit.
    let list = json(&[
        "games",
        "--pattern",
        SHAPE,
        "--area",
        "0,0,0,0",
        "--json",
        "--limit",
        "100000",
    ]);
    assert_eq!(list["matching"], all["games"]);
    let hits = json(&[
        "pattern",
        "--pattern",
        SHAPE,
        "--area",
        "0,0,0,0",
        "--hits",
        "--json",
        "--limit",
        "100000",
    ]);
    let first: std::collections::BTreeMap<u64, u64> = hits["list"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .map(|h| {
            (
                h["game"].as_u64().unwrap(),
                h["move_number"].as_u64().unwrap(),
            )
        })
        .collect();
    for g in list["games"].as_array().unwrap() {
        let id = g["id"].as_u64().unwrap();
        assert_eq!(Some(&g["move_number"].as_u64().unwrap()), first.get(&id));
    }
    // A player filter keeps exactly the games with that player.
    let player = list["games"][0]["black"].as_str().unwrap().to_string();
    let theirs = json(&[
        "games",
        "--pattern",
        SHAPE,
        "--area",
        "0,0,0,0",
        "--json",
        "--player",
        &player,
    ]);
    assert!(theirs["matching"].as_u64().unwrap() >= 1);
    for g in theirs["games"].as_array().unwrap() {
        assert!(
            g["black"] == player.as_str() || g["white"] == player.as_str(),
            "{g}"
        );
    }
    let filtered = json(&[
        "pattern",
        "--pattern",
        SHAPE,
        "--area",
        "0,0,0,0",
        "--json",
        "--player",
        &player,
    ]);
    assert_eq!(filtered["games"], theirs["matching"]);
}

#[test]
fn a_pattern_cut_from_a_game_record() {
    let dir = tempfile::tempdir().unwrap();
    let sgf = dir.path().join("g.sgf");
    // After 3 moves: Black pd and dp, White dd. The top-left 6x6: White at (3, 3).
    std::fs::write(&sgf, "(;GM[1]FF[4]SZ[19];B[pd];W[dd];B[dp];W[pp])").unwrap();
    let sgf = sgf.to_str().unwrap();
    let cut = json(&[
        "pattern", "--sgf", sgf, "--move", "3", "--region", "0,0,5,5", "--area", "0,0,0,0",
        "--json",
    ]);
    let rows = json(&[
        "pattern",
        "--pattern",
        "....../....../....../...O../....../......",
        "--area",
        "0,0,0,0",
        "--json",
    ]);
    assert_eq!(cut, rows);
    assert!(cut["hits"].as_u64().unwrap() > 0);
    // A move past the end, a region off the board: errors naming the problem.
    for (args, why) in [
        (vec!["--move", "9", "--region", "0,0,5,5"], "only 4 moves"),
        (vec!["--region", "0,0,19,5"], "region"),
    ] {
        let mut a = vec!["pattern", "--sgf", sgf];
        a.extend(args);
        let out = kifudex(&a);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{err}");
    }
}

/// `--export` writes the games with hits as SGF (the project's writer); indexed again,
/// the exported games give the very same answer, as a folder and as a zip; a folder that
/// holds files is refused and left alone.
#[test]
fn exported_games_hold_the_same_hits() {
    let dir = tempfile::tempdir().unwrap();
    let base = ["pattern", "--pattern", SHAPE, "--area", "0,0,0,0"];
    let want = json(&[&base[..], &["--json"]].concat());
    for name in ["games", "games.zip"] {
        let out = dir.path().join(name);
        let msg = kifudex(&[&base[..], &["--export", out.to_str().unwrap()]].concat());
        assert!(
            msg.status.success(),
            "{}",
            String::from_utf8_lossy(&msg.stderr)
        );
        let text = String::from_utf8(msg.stdout).unwrap();
        assert!(
            text.starts_with(&format!("{} games written", want["games"])),
            "{text}"
        );
        let index = dir.path().join(format!("{name}.kdx"));
        let built = kifudex(&[
            "build",
            out.to_str().unwrap(),
            "-o",
            index.to_str().unwrap(),
        ]);
        assert!(
            built.status.success(),
            "{}",
            String::from_utf8_lossy(&built.stderr)
        );
        let again = json(&[&base[..], &["--json", "--index", index.to_str().unwrap()]].concat());
        assert_eq!(again, want, "{name}");
    }
    // An existing folder with files is not touched.
    let full = dir.path().join("games");
    let before = std::fs::read_dir(&full).unwrap().count();
    let refused = kifudex(&[&base[..], &["--export", full.to_str().unwrap()]].concat());
    assert!(!refused.status.success());
    assert_eq!(std::fs::read_dir(&full).unwrap().count(), before);
    // Nothing temporary is left beside the outputs.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(".kifudex"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
