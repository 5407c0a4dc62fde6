//! `kifudex shell` driven through a pipe, on the bundled sample (bGo's TestSGF archive,
//! indexed in memory) and on the same archive built to a file with `kifudex build`; its
//! answers checked against bGo's published ones and against `kifudex search` / `games`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn kifudex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(args)
        .output()
        .expect("run kifudex")
}

/// Runs `kifudex shell [index]` with `input` on standard input.
fn shell(index: Option<&Path>, input: &[u8]) -> (String, Output) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifudex"));
    cmd.arg("shell");
    if let Some(i) = index {
        cmd.arg(i);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start kifudex shell");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "shell failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (String::from_utf8(out.stdout.clone()).unwrap(), out)
}

/// One search as the shell prints it: the hash under the board, the table's rows
/// (letter, move, colour, count) and the total.
#[derive(Debug, Default, Clone, PartialEq)]
struct Search {
    hash: i64,
    rows: Vec<(char, String, String, u64)>,
    total: u64,
}

/// Every search block in a transcript, in order.
fn searches(out: &str) -> Vec<Search> {
    let mut found = Vec::new();
    let mut cur: Option<Search> = None;
    let mut prev = "";
    for line in out.lines() {
        let t = line.trim();
        if prev.trim_start().starts_with("A B C") {
            // `hash N (bGo's additive position hash, docs/HASH.md)`.
            let hash = t
                .strip_prefix("hash ")
                .and_then(|r| r.split_whitespace().next());
            if let Some(Ok(h)) = hash.map(str::parse::<i64>) {
                cur = Some(Search {
                    hash: h,
                    ..Search::default()
                });
            }
        }
        prev = line;
        let Some(s) = cur.as_mut() else { continue };
        if let Some(n) = t.strip_prefix("Total count: ") {
            s.total = n.parse().unwrap();
            found.push(cur.take().unwrap());
        } else if t == "No games reach this position." {
            found.push(cur.take().unwrap());
        } else if t.ends_with('%') {
            let w: Vec<&str> = t.split_whitespace().collect();
            let (letter, rest) = if w.len() == 7 {
                (w[0].chars().next().unwrap(), &w[1..])
            } else {
                (' ', &w[..])
            };
            s.rows.push((
                letter,
                rest[0].into(),
                rest[1].into(),
                rest[2].parse().unwrap(),
            ));
        }
    }
    found
}

/// The shell line that shows the search of a `--moves` list.
fn search_line(moves: &str) -> String {
    if moves.is_empty() {
        "search\n".to_string()
    } else {
        format!("play {}\n", moves.replace(',', " "))
    }
}

fn sample_archive() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/sample/TestSGF.tgz")
}

/// The bundled archive built to a file with `kifudex build`.
fn built_index(dir: &tempfile::TempDir) -> PathBuf {
    let out = dir.path().join("testsgf.kdx");
    let o = kifudex(&[
        "build",
        sample_archive().to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

/// `kifudex search` without `--index`: the bundled default.
fn search_json_bundled(moves: &str) -> Value {
    let o = kifudex(&["search", "--moves", moves, "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn search_json(index: &Path, moves: &str, swap: bool) -> Value {
    let mut args = vec![
        "search",
        "--index",
        index.to_str().unwrap(),
        "--moves",
        moves,
        "--json",
    ];
    if swap {
        args.push("--swap");
    }
    let o = kifudex(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// (move, colour, count) of every class and the total.
fn json_rows(v: &Value) -> (Vec<(String, String, u64)>, u64) {
    let rows = v["next"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["move"].as_str().unwrap().to_string(),
                c["color"].as_str().unwrap().to_string(),
                c["count"].as_u64().unwrap(),
            )
        })
        .collect();
    (rows, v["total"].as_u64().unwrap())
}

fn shell_rows(s: &Search) -> (Vec<(String, String, u64)>, u64) {
    let rows = s
        .rows
        .iter()
        .map(|(_, m, c, n)| (m.clone(), c.clone(), *n))
        .collect();
    (rows, s.total)
}

fn games_matching(index: Option<&Path>, moves: &str, from: u16, to: u16) -> u64 {
    let (from, to) = (from.to_string(), to.to_string());
    let mut args = vec![
        "games",
        "--moves",
        moves,
        "--year-from",
        &from,
        "--year-to",
        &to,
        "--json",
    ];
    let path;
    if let Some(i) = index {
        path = i.to_str().unwrap().to_string();
        args.extend(["--index", &path]);
    }
    let o = kifudex(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    v["matching"].as_u64().unwrap()
}

#[test]
fn piped_session_on_the_bundled_sample() {
    let input = "play pd dp pp\nsearch\nplay a\nundo\nyear 2012\ngames 3\nreplay id 0 10\nnext\n\
                 bogus\nplay zz\nrotations\nquit\nsearch\n";
    let (out, o) = shell(None, input.as_bytes());
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.starts_with("kifudex shell: the bundled sample (TestSGF.tgz), 286 games."));
    let s = searches(&out);
    // play pd dp pp, search, play a, undo (the search after `quit` never runs).
    assert_eq!(s.len(), 4, "{out}");
    // bGo's README hash and bGo's answer on its own archive: W dd 6, W dc 1.
    assert_eq!(s[0].hash, 959678554);
    assert_eq!(s[0].rows[0], ('a', "dd".into(), "W".into(), 6));
    assert_eq!(s[0].rows[1], ('b', "dc".into(), "W".into(), 1));
    assert_eq!(s[0].total, 7);
    assert_eq!(s[1], s[0]);
    // `play a` = W dd; bGo: B fq (= fc by symmetry) 3, B pj 2, B cn (= cf) 1.
    assert_eq!(s[2].hash, 731239216);
    assert_eq!(
        shell_rows(&s[2]),
        (
            vec![
                ("fc".into(), "B".into(), 3),
                ("pj".into(), "B".into(), 2),
                ("cf".into(), "B".into(), 1)
            ],
            6
        )
    );
    assert_eq!(s[3], s[0]);
    assert!(out.contains("\nYear filter: 2012\n"));
    // games 3: all 7 games of the position are from 2012; 3 listed.
    let games_at = out.find("\n7 games\n").expect("games header");
    let listed = out[games_at..]
        .lines()
        .skip(3)
        .take_while(|l| l.starts_with("  "))
        .count();
    assert_eq!(listed, 3, "{out}");
    assert!(out.contains("Game 0: "));
    assert!(out.contains("\nMove 10 of "));
    assert!(out.contains("\nMove 11 of "));
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(
        errors,
        [
            "error: unknown command \"bogus\" (try `help`)",
            "error: move 1, White zz: the point is off the board"
        ]
    );
    // The shell went on after the errors.
    assert!(out.contains("Symmetry: none (only 0, the identity)"));
    assert!(out
        .lines()
        .any(|l| l.split_whitespace().eq(["6", "transpose", "1098653216"])));
}

#[test]
fn shell_agrees_with_search_cli() {
    let dir = tempfile::tempdir().unwrap();
    let index = built_index(&dir);
    let positions = [
        "",
        "pd",
        "pd,dp,pp",
        "pd,dp,pp,dd",
        "pd,dp,pp,dd,fq",
        "qd,dd,pq",
    ];
    let mut input = String::from("marks 52\n");
    for m in positions {
        input.push_str("board reset\n");
        input.push_str(&search_line(m));
    }
    input.push_str("board reset\nswap on\nplay pd dp pp\nquit\n");
    let (from_file, _) = shell(Some(&index), input.as_bytes());
    let (bundled, _) = shell(None, input.as_bytes());
    let a = searches(&from_file);
    let b = searches(&bundled);
    assert_eq!(a.len(), positions.len() + 1);
    assert_eq!(a, b, "the bundled index and the built file answer alike");
    for (i, m) in positions.iter().enumerate() {
        let v = search_json(&index, m, false);
        assert_eq!(a[i].hash, v["hash"].as_i64().unwrap(), "{m}");
        let (rows, total) = json_rows(&v);
        // The shell's table shows the first `marks` (52) classes.
        let (srows, stotal) = shell_rows(&a[i]);
        assert_eq!(stotal, total, "{m}");
        assert_eq!(srows[..], rows[..rows.len().min(52)], "{m}");
    }
    // bGo's published counts after pd dp pp dd fq: W cn 3.
    assert_eq!(a[4].rows[0], ('a', "cn".into(), "W".into(), 3));
    // Colour swap, as `search --swap`.
    let v = search_json(&index, "pd,dp,pp", true);
    assert_eq!(shell_rows(&a[positions.len()]), json_rows(&v));
    assert!(a[positions.len()].total >= 7);
}

#[test]
fn year_filter_agrees_with_games_cli() {
    let dir = tempfile::tempdir().unwrap();
    let index = built_index(&dir);
    let positions = ["", "pd", "qd", "pd,dp"];
    let ranges = [(2011u16, 2011u16), (2012, 2012), (2011, 2012), (2013, 2020)];
    let mut input = String::new();
    for m in positions {
        for (f, t) in ranges {
            input.push_str(&format!(
                "board reset\nyear {f} {t}\n{}games 1\n",
                search_line(m)
            ));
        }
        input.push_str(&format!("board reset\nyear off\n{}", search_line(m)));
    }
    input.push_str("quit\n");
    let (out, _) = shell(Some(&index), input.as_bytes());
    // Every round: a search of the position, then `games 1` prints "N games".
    let s = searches(&out);
    let game_counts: Vec<u64> = out
        .lines()
        .filter_map(|l| l.strip_suffix(" games")?.parse().ok())
        .collect();
    let per_position = ranges.len() + 1;
    assert_eq!(s.len(), positions.len() * per_position, "{out}");
    assert_eq!(game_counts.len(), positions.len() * ranges.len());
    let mut changed = false;
    for (pi, m) in positions.iter().enumerate() {
        let moves = if m.is_empty() { "" } else { m };
        let all = s[pi * per_position + ranges.len()].total;
        assert_eq!(
            all,
            search_json(&index, moves, false)["total"].as_u64().unwrap()
        );
        let mut sum_by_year = 0;
        for (ri, &(f, t)) in ranges.iter().enumerate() {
            let filtered = s[pi * per_position + ri].total;
            let cli = games_matching(Some(&index), moves, f, t);
            assert_eq!(filtered, cli, "{m:?} years {f}-{t}");
            assert_eq!(game_counts[pi * ranges.len() + ri], cli, "{m:?} {f}-{t}");
            if (f, t) == (2011, 2011) || (f, t) == (2012, 2012) {
                sum_by_year += filtered;
            }
            if (f, t) == (2011, 2012) {
                assert_eq!(filtered, all, "{m:?}: every game is from 2011 or 2012");
            }
            if filtered != all {
                changed = true;
            }
        }
        assert_eq!(sum_by_year, all, "{m:?}");
    }
    assert!(changed, "the filter changed some counts");
    // The empty board: 1 game from 2011, 285 from 2012 (also through the bundled default).
    assert_eq!(games_matching(None, "", 2011, 2011), 1);
    assert_eq!(s[0].total, 1);
    assert_eq!(s[1].total, 285);
}

#[test]
fn bad_input_never_ends_the_shell() {
    let mut input: Vec<u8> = Vec::new();
    let bad = [
        "bogus",
        "play",
        "play zz",
        "play pd pd",
        "play q99",
        "play Z",
        "undo",
        "undo 0",
        "year 2013 2012",
        "marks 99",
        "games 0",
        "replay 99999",
        "replay 0 99999",
        "next",
        "swap maybe",
        "play \u{1F600}",
    ];
    for l in bad {
        input.extend_from_slice(l.as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(b"play \xff\xfe pd\n");
    input.extend_from_slice(b"   \n\nplay pd\n");
    // No `quit`: the end of input ends the shell.
    let (out, _) = shell(None, &input);
    let errors = out.lines().filter(|l| l.starts_with("error: ")).count();
    assert_eq!(errors, bad.len() + 1, "{out}");
    let s = searches(&out);
    assert_eq!(s.len(), 1, "{out}");
    let v = search_json_bundled("pd");
    assert_eq!(s[0].hash, v["hash"].as_i64().unwrap());
    // bGo: 210 games open on a 4-4 point.
    assert_eq!(s[0].total, 210);
}

/// `predict` with a book's move predictor (`shell --predictor BOOK`): the shell's moves are
/// those of the `guess` reply that `kifudex hints` gives for the same moves (the shell's
/// board knows the last two moves, as a `moves` request does); without a predictor the
/// command is one error line.
#[test]
fn predict_lists_the_guesses_of_the_hint_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.kdb");
    let archive = sample_archive();
    let o = kifudex(&[
        "build",
        archive.to_str().unwrap(),
        "-o",
        book.to_str().unwrap(),
        "--quiet",
        "--profile",
        "mcu",
        "--max-moves",
        "2",
        "--predictor",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    // Not in the book (two moves at most), no symmetry.
    let moves = "pd,dp,pp,dc,qf";
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(["hints", "--index", book.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("moves {moves}\nquit\n").as_bytes())
        .unwrap();
    let reply = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    let guesses: Vec<String> = reply
        .trim_end()
        .strip_prefix("guess ")
        .unwrap_or_else(|| panic!("{reply}"))
        .split(' ')
        .skip(1)
        .map(|g| g.split(':').next().unwrap().to_string())
        .collect();
    assert_eq!(guesses.len(), 5, "{reply}");

    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifudex"));
    let mut child = cmd
        .args(["shell", "--predictor", book.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = format!("play {}\npredict 5\n", moves.replace(',', " "));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    let at = out.find("Predictions for White").expect(&out);
    let listed: Vec<String> = out[at..]
        .lines()
        .skip(1)
        .take(5)
        .map(|l| l.split_whitespace().nth(2).unwrap().to_string())
        .collect();
    assert_eq!(listed, guesses, "{out}");
    assert!(out[at..].contains("not moves of the games"), "{out}");

    let (out, _) = shell(None, b"predict\n");
    assert!(
        out.contains("error: no move predictor"),
        "without a predictor: {out}"
    );
}

/// The rows of the last game list in a transcript: (list place, game id, move number of
/// the move played from the position).
fn listed_games(out: &str) -> Vec<(usize, u32, u32)> {
    let at = out.rfind("game id  date").expect("a game list header");
    out[at..]
        .lines()
        .skip(1)
        .map_while(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            Some((
                w.first()?.parse().ok()?,
                w[1].parse().ok()?,
                w[4].parse().ok()?,
            ))
        })
        .collect()
}

/// The point marked as the last move on the first board of `text` (`(X)` or `(O)`): its
/// column, row and stone.
fn marked(text: &str) -> Option<(usize, usize, char)> {
    let rows = text
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("A B C"))
        .skip(1)
        .take(19);
    for (y, row) in rows.enumerate() {
        let b = row.as_bytes();
        if let Some(i) = row.find('(') {
            assert_eq!(b[i + 2], b')', "{row}");
            // ` A ` then two characters a point: the point's character is at 3 + 2x.
            return Some(((i + 1 - 3) / 2, y, b[i + 1] as char));
        }
    }
    None
}

/// `games` numbers its list (`#`) beside the game ids; `replay N` takes a place in that list
/// (at the position searched), `replay id ID` a game id (from the start); the board marks
/// the last move. Checked against `kifudex games --json` (the same games in the same order)
/// and `kifudex game ID` (the moves).
#[test]
fn replay_by_list_place_or_game_id_with_the_last_move_marked() {
    let input = "play pd dp pp\ngames 3\nreplay 2\nreplay id 5\nreplay 3 10\nquit\n";
    let (out, _) = shell(None, input.as_bytes());
    let v = search_json_bundled("pd,dp,pp");
    assert_eq!(v["total"], 7);
    // The search board marks the last move played: Black pp (column 15, row 15).
    assert_eq!(marked(&out), Some((15, 15, 'X')), "{out}");
    let list = listed_games(&out);
    let o = kifudex(&["games", "--moves", "pd,dp,pp", "--limit", "3", "--json"]);
    let cli: Value = serde_json::from_slice(&o.stdout).unwrap();
    let cli: Vec<(u32, u32)> = cli["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["id"].as_u64().unwrap() as u32,
                g["move_number"].as_u64().unwrap() as u32,
            )
        })
        .collect();
    assert_eq!(
        list.iter().map(|&(_, id, m)| (id, m)).collect::<Vec<_>>(),
        cli
    );
    assert_eq!(list.iter().map(|r| r.0).collect::<Vec<_>>(), [1, 2, 3]);
    // The three replays, in order.
    let replays: Vec<&str> = out.split("\nGame ").skip(1).collect();
    assert_eq!(replays.len(), 3, "{out}");
    let (id2, move2) = (list[1].1, list[1].2);
    assert!(
        replays[0].starts_with(&format!("{id2}: ")),
        "{}",
        replays[0]
    );
    // At the position searched: moves played before the listed move.
    assert!(
        replays[0].contains(&format!("\nMove {} of ", move2 - 1)),
        "{}",
        replays[0]
    );
    assert!(replays[1].starts_with("5: "), "{}", replays[1]);
    assert!(replays[1].contains("\nMove 0 of "), "{}", replays[1]);
    assert_eq!(marked(replays[1]), None, "nothing played yet");
    let id3 = list[2].1;
    assert!(replays[2].starts_with(&format!("{id3}: ")));
    assert!(replays[2].contains("\nMove 10 of "), "{}", replays[2]);
    // The 10th move of game id3, from `kifudex game ID`, is the one marked.
    let o = kifudex(&["game", &id3.to_string()]);
    let game: Value = serde_json::from_slice(&o.stdout).unwrap();
    let tenth = &game["moves"][9];
    let mv = tenth["move"].as_str().unwrap().as_bytes();
    let stone = if tenth["color"] == "B" { 'X' } else { 'O' };
    assert_eq!(
        marked(replays[2]),
        Some(((mv[0] - b'a') as usize, (mv[1] - b'a') as usize, stone)),
        "{}",
        replays[2]
    );
    // A list place that the list does not hold, and replay before any list.
    let (out, _) = shell(None, b"replay 2\nplay pd dp pp\ngames 3\nreplay 4\n");
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 2, "{out}");
    assert!(errors[0].contains("no game list"), "{}", errors[0]);
    assert!(errors[1].contains("has 3 games, not 4"), "{}", errors[1]);
}

fn corpus_alphago() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/aeb_alphago")
        .canonicalize()
        .expect("the corpus at ../shared/corpus")
}

/// The number in "... the index holds N games." after an import.
fn held_after_import(out: &str) -> Vec<u64> {
    out.lines()
        .filter(|l| l.starts_with("Imported "))
        .map(|l| {
            let at = l.rfind("holds ").unwrap() + "holds ".len();
            l[at..].split_whitespace().next().unwrap().parse().unwrap()
        })
        .collect()
}

/// bGo's `cd`, `cwd`, `ls` and `import` on the bundled sample (indexed in memory): the
/// corpus folders found with `ls`, imported by paths relative to the shell's folder; the
/// board, filter and folder are kept. Checked against `kifudex build` of the sample and the
/// same folders: the same number of games and the same search answers.
#[test]
fn import_adds_corpus_games_to_the_in_memory_index() {
    let corpus = corpus_alphago();
    let input = format!(
        "cd {}\ncwd\nls\nplay pd dp pp\nimport LeeSedol FanHui\nsearch\nimport no-such-folder\nls no-such-folder\nquit\n",
        corpus.display()
    );
    let (out, _) = shell(None, input.as_bytes());
    assert!(
        out.contains(&format!("\n{}\n{}\n", corpus.display(), corpus.display())),
        "{out}"
    );
    for entry in ["FanHui/", "LeeSedol/", "selfplay/"] {
        assert!(out.lines().any(|l| l == entry), "ls: {entry}: {out}");
    }
    let dir = tempfile::tempdir().unwrap();
    let both = dir.path().join("both.kdx");
    let o = kifudex(&[
        "build",
        sample_archive().to_str().unwrap(),
        corpus.join("LeeSedol").to_str().unwrap(),
        corpus.join("FanHui").to_str().unwrap(),
        "-o",
        both.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let info =
        String::from_utf8(kifudex(&["info", "--index", both.to_str().unwrap()]).stdout).unwrap();
    // `games kept:          N` (thousands separated).
    let games: u64 = info
        .split("games kept:")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap();
    assert!(games > 286, "{info}");
    assert_eq!(held_after_import(&out), [games], "{out}");
    assert!(
        out.contains(&format!("{} games added", games - 286)),
        "{out}"
    );
    // The search after the import: the board kept (pd dp pp), the answer of the one build.
    let s = searches(&out);
    assert_eq!(s.len(), 2, "{out}");
    let v = search_json(&both, "pd,dp,pp", false);
    assert_eq!(shell_rows(&s[1]), json_rows(&v));
    assert_eq!(s[0].total, 7);
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 2, "{out}");
    assert!(errors
        .iter()
        .all(|e| e.contains("no-such-folder: no such file or folder")));
}

/// `import` into an index file: the file is rewritten as `kifudex add` does, byte for byte
/// the index one build of its inputs and the imported ones gives; the shell reopens it.
#[test]
fn import_into_an_index_file_equals_one_build() {
    let corpus = corpus_alphago();
    let dir = tempfile::tempdir().unwrap();
    let index = built_index(&dir);
    let input = format!(
        "cd {}\nimport LeeSedol\nplay pd\ngames 1\nquit\n",
        corpus.display()
    );
    let (out, _) = shell(Some(&index), input.as_bytes());
    let one = dir.path().join("one.kdx");
    let o = kifudex(&[
        "build",
        sample_archive().to_str().unwrap(),
        corpus.join("LeeSedol").to_str().unwrap(),
        "-o",
        one.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        std::fs::read(&index).unwrap() == std::fs::read(&one).unwrap(),
        "the imported index differs from one build"
    );
    let held = held_after_import(&out);
    assert_eq!(held.len(), 1, "{out}");
    assert!(held[0] > 286, "{out}");
    let v = games_count(&one, "pd");
    assert!(out.contains(&format!("\n{v} games\n")), "{out}");
}

fn games_count(index: &Path, moves: &str) -> u64 {
    let o = kifudex(&[
        "games",
        "--index",
        index.to_str().unwrap(),
        "--moves",
        moves,
        "--json",
    ]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    v["matching"].as_u64().unwrap()
}
