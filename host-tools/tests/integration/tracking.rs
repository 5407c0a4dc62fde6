//! Tracking real games as a board in players' hands shows them: physical timelines of real
//! games (`kifudex::hints::stream::timeline`: noise, throw-ins at once, two moves between
//! two readings, fixes ignored, passes, takebacks, handicap stones placed one by one, 9x9
//! boards) rendered as the snapshot streams of a periodic board and of a board that reports
//! only changes, with and without `t=`, fed to the hint protocol's handler; every record
//! checked against its game by the project's SGF reader and, independently, by sgfmill.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use rayon::prelude::*;

use kifudex::hints::stream::{
    check_record, render, timeline, Cadence, Change, Game, Mismatch, Noise, NoiseCount, Protocol,
    Timeline,
};
use kifudex::input::collect_sources;
use kifudex_core::hints::{NoLeds, Output as Reply, StandardHints, Workspace, CAPACITY};
use kifudex_core::notation::Sgf;
use kifudex_core::{Move, Size};

fn shared(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared")
        .join(rel)
}

/// The games: professional 19x19 games (fox_pro/2p: 46 handicap games among them with their
/// stones, and every 20th file of fox_pro/9p, most of them handicap games), AI games
/// (yenw_ai: tournaments whose games end with passes, or hold one), 9x9 games, and the
/// 13x13 games of GNU Go's regression games (the corpus's only 13x13 games); each input
/// with the step of the files taken and the board size kept (`None`: any).
const INPUTS: [(&str, usize, Option<u8>); 9] = [
    ("corpus/fox_pro/2p", 1, None),
    ("corpus/fox_pro/9p", 20, None),
    ("corpus/yenw_ai/The 11th Computer Go UEC Cup", 1, None),
    (
        "corpus/yenw_ai/2018 Tencent World AI WEIQI Competition",
        1,
        None,
    ),
    ("corpus/yenw_ai/AlphaGo Zero", 1, None),
    (
        "corpus/yenw_ai/2019 China Securities Cup World AI WEIQI Open",
        1,
        None,
    ),
    ("corpus/yenw_ai/master", 1, None),
    ("corpus/aeb_9x9", 1, None),
    ("corpus/gnugo_regression", 1, Some(13)),
];

/// A real game and its file.
pub struct Case {
    /// The file (one game).
    pub path: PathBuf,
    /// The game as a board shows it.
    pub game: Game,
}

/// The games of [`INPUTS`] a board can show, and how many it cannot, by reason.
pub fn cases() -> &'static (Vec<Case>, BTreeMap<&'static str, usize>) {
    static CASES: OnceLock<(Vec<Case>, BTreeMap<&'static str, usize>)> = OnceLock::new();
    CASES.get_or_init(|| {
        let mut sources = Vec::new();
        for (input, step, size) in INPUTS {
            let (found, _) = collect_sources(&[shared(input)]);
            sources.extend(found.into_iter().step_by(step).map(|f| (f, size)));
        }
        let parsed: Vec<_> = sources.par_iter().map(|s| s.0.parse()).collect();
        let mut out = Vec::new();
        let mut rejected = BTreeMap::new();
        for ((s, size), p) in sources.iter().zip(parsed) {
            let [g] = p.games.as_slice() else {
                *rejected.entry("not one game in the file").or_default() += 1;
                continue;
            };
            if size.is_some_and(|w| g.size.width() != w || g.size.height() != w) {
                continue;
            }
            if g.end.is_some() {
                *rejected.entry("a move off the board").or_default() += 1;
                continue;
            }
            match Game::of(g.size, &g.events) {
                Ok(game) if game.moves.len() >= 10 => out.push(Case {
                    path: PathBuf::from(&s.path),
                    game,
                }),
                Ok(_) => *rejected.entry("fewer than 10 moves").or_default() += 1,
                Err(e) => *rejected.entry(e).or_default() += 1,
            }
        }
        (out, rejected)
    })
}

/// A small book of 19x19, 13x13 and 9x9 games (its replies do not matter here, only that
/// it answers the three sizes).
fn book() -> &'static [u8] {
    static BOOK: OnceLock<Vec<u8>> = OnceLock::new();
    BOOK.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tracking");
        std::fs::create_dir_all(&dir).unwrap();
        let book = dir.join("book.kdb");
        let o = Command::new(env!("CARGO_BIN_EXE_kifudex"))
            .arg("build")
            .arg(shared("corpus/fox_pro/1p"))
            .arg(shared("corpus/aeb_9x9"))
            .arg(shared("corpus/gnugo_regression"))
            .args(["-o", book.to_str().unwrap(), "--quiet", "--profile", "mcu"])
            .args(["--max-moves", "20"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read(&book).unwrap()
    })
}

/// One request answered by the handler (the firmware's code), the reply without its `\n`.
pub fn ask(hints: &StandardHints<'_>, ws: &mut Workspace<CAPACITY>, line: &str) -> String {
    match hints.reply(line.as_bytes(), ws, &mut NoLeds) {
        Some(Reply::Line(b)) => String::from_utf8_lossy(b).trim_end().to_string(),
        Some(Reply::Game(record)) => {
            let mut v = Vec::new();
            record
                .write_sgf(&mut embedded_io_adapters::std::FromStd::new(&mut v))
                .unwrap();
            String::from_utf8_lossy(&v).trim_end().to_string()
        }
        None => String::new(),
    }
}

/// What one stream gave.
struct Run {
    record: String,
    check: Result<(), Mismatch>,
    snapshots: usize,
    fixes: usize,
    with_times: bool,
}

/// The timeline of game `i` (every noise kind, the full protocol).
fn timeline_of(i: usize, game: &Game) -> Timeline {
    timeline(game, 0x5eed + i as u64, Protocol::Full, &Noise::ALL)
}

/// `track`, the stream of game `i` as a board of `cadence` sends it (with `t=` for every
/// other game), `game`.
fn run(hints: &StandardHints<'_>, i: usize, game: &Game, cadence: Cadence) -> Run {
    let tl = timeline_of(i, game);
    let with_times = i.is_multiple_of(2);
    let r = render(&tl, cadence, with_times, i as u64);
    let mut ws: Box<Workspace<CAPACITY>> = Box::default();
    let mut fixes = 0;
    ask(hints, &mut ws, "track");
    for line in &r.lines {
        fixes += ask(hints, &mut ws, line).starts_with("fix ") as usize;
    }
    let record = ask(hints, &mut ws, "game");
    Run {
        check: check_record(game, &record, true),
        record,
        snapshots: r.times.iter().filter(|t| t.is_some()).count(),
        fixes,
        with_times,
    }
}

/// The noise kinds (flicker only when there is no other) of the moves before and at move
/// `at` (the first move recorded wrong): where to look first in a wrong stream.
fn noise_near(tl: &Timeline, at: usize) -> String {
    let none = NoiseCount::default();
    let from = tl.noise_before.get(at.saturating_sub(1)).unwrap_or(&none);
    let to = tl.noise_before.get(at + 1).unwrap_or(&tl.noise);
    let kinds = to.since(from).kinds();
    let named: Vec<&str> = kinds
        .iter()
        .filter(|k| k.0 != "flicker" && k.1 > 0)
        .map(|k| k.0)
        .collect();
    match (named.is_empty(), kinds[0].1 > 0) {
        (false, _) => named.join("+"),
        (true, true) => "flicker".to_string(),
        (true, false) => "none".to_string(),
    }
}

/// Writes the stream of game `i` that was recorded wrong, each line with its reply and the
/// record's moves after it, to `CARGO_TARGET_TMPDIR/tracking/wrong-<cadence>-<i>.txt`.
fn dump(hints: &StandardHints<'_>, i: usize, case: &Case, cadence: Cadence, wrong: &Mismatch) {
    let tl = timeline_of(i, &case.game);
    let r = render(&tl, cadence, i.is_multiple_of(2), i as u64);
    let mut ws: Box<Workspace<CAPACITY>> = Box::default();
    let mut out = format!(
        "{:?}\nnoise {:?}\nwrong: {wrong}; noise of moves {} and {}: {}\n",
        case.path,
        tl.noise,
        wrong.at.saturating_sub(1),
        wrong.at,
        noise_near(&tl, wrong.at)
    );
    for (k, (c, m)) in case.game.moves.iter().enumerate() {
        out += &format!("move {k}: {c:?} {} at {} ms\n", Sgf(*m), tl.move_at[k]);
    }
    ask(hints, &mut ws, "track");
    let mut next = 0;
    for (k, line) in r.lines.iter().enumerate() {
        while r.before_move.get(next).is_some_and(|&b| b < k) {
            out += &format!("-- move {next} begins\n");
            next += 1;
        }
        let reply = ask(hints, &mut ws, line);
        let len = ws.tracker().record().len();
        out += &format!("{line}\n    -> {reply} [record {len}]\n");
    }
    out += &format!("{}\n", ask(hints, &mut ws, "game"));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tracking");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("wrong-{cadence:?}-{i}.txt")), out).unwrap();
}

/// The main line of SGF games as sgfmill reads them, one line per game: the size, `HA`,
/// the setup stones (`AB`/`AW` of the nodes before the first move, sorted), the moves
/// (passes included), or an error. The games are the files named in `argv[1]` (one path
/// a line), then the lines of the file `argv[2]` (one SGF a line).
const SGFMILL_BATCH: &str = r#"
import sys
from sgfmill import sgf
def main_line(data):
    try:
        game = sgf.Sgf_game.from_bytes(data)
        black, white, moves = set(), set(), []
        for node in game.get_main_sequence():
            colour, move = node.get_move()
            if colour is not None:
                moves.append((colour, move))
            elif not moves:
                b, w, _ = node.get_setup_stones()
                black |= b
                white |= w
        return "%d %s %s %s %s" % (game.get_size(), game.get_handicap() or 0, sorted(black), sorted(white), moves)
    except Exception as e:
        return "error " + type(e).__name__
for path in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    if path:
        print(main_line(open(path, "rb").read()))
for line in open(sys.argv[2], "rb").read().split(b"\n"):
    if line:
        print(main_line(line))
"#;

/// sgfmill's main lines of the files `originals` then of the SGF lines `records`, or
/// `None` without python3 and sgfmill (an error with `KIFUDEX_REQUIRE_QEMU=1`).
fn sgfmill_batch(originals: &[&PathBuf], records: &[&str]) -> Option<(Vec<String>, Vec<String>)> {
    let have = Command::new("python3")
        .args(["-c", "import sgfmill"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        assert!(
            std::env::var_os("KIFUDEX_REQUIRE_QEMU").is_none_or(|v| v != "1"),
            "sgfmill is not installed (scripts/setup.sh)"
        );
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let paths = dir.path().join("paths.txt");
    let sgfs = dir.path().join("records.sgf");
    let list: Vec<&str> = originals.iter().map(|p| p.to_str().unwrap()).collect();
    std::fs::write(&paths, list.join("\n")).unwrap();
    std::fs::write(&sgfs, records.join("\n")).unwrap();
    let out = Command::new("python3")
        .arg("-c")
        .arg(SGFMILL_BATCH)
        .arg(&paths)
        .arg(&sgfs)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), originals.len() + records.len());
    let (a, b) = lines.split_at(originals.len());
    Some((a.to_vec(), b.to_vec()))
}

/// The most records of [`streams_of_both_cadences_record_real_games`] not their game's, as
/// last measured (with a last move slid onto a point where it captures moved there, a
/// phantom just before `pass` taken back with the pass given to its side, and the last
/// handicap stone read with White's first move, an exchange of captures between two
/// readings followed, a retake that never read empty answered by a pass or after a phantom,
/// a phantom below a move pair whose second takes the first):
/// periodic (with t=, without), change-only (with t=, without).
const WRONG_AT_MOST: [(usize, usize); 2] = [(1, 0), (0, 0)];

/// Every record of both cadences equals its game (the project's SGF reader: size, setup,
/// handicap, moves and passes), and sgfmill reads the same main line from the record as
/// from the game's file.
#[test]
fn streams_of_both_cadences_record_real_games() {
    let (cases, rejected) = cases();
    let book = book();
    let hints = StandardHints::new(kifudex_core::book::Book::open(book));
    assert!(hints.book().is_ok());
    let count = |f: &dyn Fn(&Game) -> bool| cases.iter().filter(|c| f(&c.game)).count();
    let with_passes = count(&|g| g.moves.iter().any(|m| m.1 == Move::Pass));
    let handicap = count(&|g| !g.handicap.is_empty());
    let nine = count(&|g| g.size == Size::square(9).unwrap());
    let thirteen = count(&|g| g.size == Size::square(13).unwrap());
    eprintln!(
        "tracking: {} games ({with_passes} with passes, {handicap} with handicap stones, {nine} \
         on 9x9, {thirteen} on 13x13); not shown on a board: {rejected:?}",
        cases.len()
    );
    assert!(cases.len() >= 1000, "{} games", cases.len());
    assert!(with_passes >= 30 && handicap >= 100 && nine >= 400 && thirteen >= 100);
    // Every noise kind in the streams with t= (even games) and in those without (odd).
    let mut noise = [NoiseCount::default(); 2];
    for (i, c) in cases.iter().enumerate() {
        noise[i % 2] += timeline_of(i, &c.game).noise;
    }
    for (n, times) in noise.iter().zip(["with t=", "without t="]) {
        eprintln!("tracking: the timelines {times} hold {n:?}");
        for (kind, count) in n.kinds() {
            assert!(count > 0, "no {kind} in the streams {times}");
        }
    }
    // The dumps of an earlier run would be taken for this one's.
    let dumps = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tracking");
    if let Ok(entries) = std::fs::read_dir(&dumps) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with("wrong-") {
                std::fs::remove_file(e.path()).unwrap();
            }
        }
    }
    let mut wrong_by_cadence = Vec::new();
    let mut records_right: Vec<(&PathBuf, String)> = Vec::new();
    for cadence in [Cadence::Periodic, Cadence::ChangeOnly] {
        let t0 = std::time::Instant::now();
        let runs: Vec<Run> = cases
            .par_iter()
            .enumerate()
            .map(|(i, c)| run(&hints, i, &c.game, cadence))
            .collect();
        let took = t0.elapsed();
        let snapshots: usize = runs.iter().map(|r| r.snapshots).sum();
        let fixes: usize = runs.iter().map(|r| r.fixes).sum();
        let wrong: Vec<(usize, &Run)> = runs
            .iter()
            .enumerate()
            .filter(|(_, r)| r.check.is_err())
            .collect();
        let timed_wrong = wrong.iter().filter(|(_, r)| r.with_times).count();
        eprintln!(
            "tracking, {cadence:?}: {} games, {} records equal to their game ({} wrong: {} with \
             t=, {} without), {snapshots} snapshots, {fixes} answered fix; {took:.1?}",
            cases.len(),
            cases.len() - wrong.len(),
            wrong.len(),
            timed_wrong,
            wrong.len() - timed_wrong
        );
        for (i, r) in wrong.iter().take(10) {
            eprintln!(
                "  {:?} (game {i}, t= {}): {}",
                cases[*i].path,
                r.with_times,
                r.check.as_ref().unwrap_err()
            );
        }
        // The wrong records by the noise near their first wrong move (with t=, without).
        let mut kinds: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for (i, r) in &wrong {
            let at = r.check.as_ref().unwrap_err().at;
            let k = kinds
                .entry(noise_near(&timeline_of(*i, &cases[*i].game), at))
                .or_default();
            if r.with_times {
                k.0 += 1;
            } else {
                k.1 += 1;
            }
        }
        for (k, (t, no_t)) in &kinds {
            eprintln!("  wrong near {k}: {t} with t=, {no_t} without");
        }
        for (i, r) in wrong.iter().take(80) {
            dump(
                &hints,
                *i,
                &cases[*i],
                cadence,
                r.check.as_ref().unwrap_err(),
            );
        }
        wrong_by_cadence.push((cadence, timed_wrong, wrong.len() - timed_wrong));
        for (c, r) in cases.iter().zip(runs) {
            if r.check.is_ok() {
                records_right.push((&c.path, r.record));
            }
        }
    }
    // sgfmill, the independent reader: the records against their games' files.
    let originals: Vec<&PathBuf> = records_right.iter().map(|r| r.0).collect();
    let records: Vec<&str> = records_right.iter().map(|r| r.1.as_str()).collect();
    if let Some((a, b)) = sgfmill_batch(&originals, &records) {
        let mut compared = 0;
        for (k, (x, y)) in a.iter().zip(&b).enumerate() {
            if x.starts_with("error") {
                continue;
            }
            assert_eq!(x, y, "{:?}", originals[k]);
            compared += 1;
        }
        assert!(compared * 10 >= a.len() * 9, "sgfmill read {compared}");
        eprintln!("sgfmill: {compared} records equal to their games' main lines");
    } else {
        eprintln!("skipped the sgfmill comparison: python3 with sgfmill is not installed");
    }
    // Issue 33 is still open: the tracker records some of these streams wrong (the kinds
    // are listed in docs/HINTS.md, "Streams still recorded wrong"). These bounds are the
    // counts last measured (periodic, change-only; each with t=, without): a tracker that
    // gets more wrong fails (a regression); one that gets fewer should lower them, down to
    // 0, the goal.
    for ((cadence, timed, plain), (at_most_timed, at_most_plain)) in
        wrong_by_cadence.iter().zip(WRONG_AT_MOST)
    {
        assert!(
            *timed <= at_most_timed && *plain <= at_most_plain,
            "{cadence:?}: {timed} records with t= and {plain} without not their game's, more \
             than the {at_most_timed} and {at_most_plain} last measured (see above)"
        );
    }
}

/// One timeline gives the same streams for the same seeds, other streams for others, and
/// its periodic and change-only renderings describe the same physical states: every
/// periodic snapshot shows what the last change-only snapshot before it showed, and both
/// send the same other lines in the same order.
#[test]
fn both_cadences_describe_one_timeline() {
    let (cases, _) = cases();
    let mut compared = 0;
    let mut kinds = NoiseCount::default();
    for (i, c) in cases.iter().enumerate().step_by(cases.len() / 60) {
        let tl = timeline_of(i, &c.game);
        assert_eq!(tl, timeline_of(i, &c.game));
        assert_ne!(
            tl.changes,
            timeline(&c.game, 1, Protocol::Full, &Noise::ALL).changes
        );
        assert!(tl.changes.windows(2).all(|w| w[0].t <= w[1].t));
        assert_eq!(tl.move_at.len(), c.game.moves.len());
        kinds += tl.noise;
        let periodic = render(&tl, Cadence::Periodic, true, 3);
        assert_eq!(periodic, render(&tl, Cadence::Periodic, true, 3));
        assert_ne!(
            periodic.lines,
            render(&tl, Cadence::Periodic, true, 4).lines
        );
        let changes = render(&tl, Cadence::ChangeOnly, true, 3);
        // No repeated reading in a change-only stream; most repeated in a periodic one.
        let boards = |r: &kifudex::hints::stream::Rendered| -> Vec<(u32, String)> {
            r.lines
                .iter()
                .zip(&r.times)
                .filter_map(|(l, t)| Some((t.as_ref().copied()?, cells(l).to_string())))
                .collect()
        };
        let (p, k) = (boards(&periodic), boards(&changes));
        assert!(k.windows(2).all(|w| w[0].1 != w[1].1));
        let repeats = p.windows(2).filter(|w| w[0].1 == w[1].1).count();
        assert!(repeats * 2 > p.len(), "{repeats} of {}", p.len());
        for (t, shown) in &p {
            let last = k.iter().rev().find(|(u, _)| u <= t).unwrap();
            assert_eq!(&last.1, shown, "game {i} at {t} ms");
            compared += 1;
        }
        let others = |r: &kifudex::hints::stream::Rendered| -> Vec<String> {
            r.lines
                .iter()
                .zip(&r.times)
                .filter(|(_, t)| t.is_none())
                .map(|(l, _)| l.clone())
                .collect()
        };
        assert_eq!(others(&periodic), others(&changes));
        let buttons = tl
            .changes
            .iter()
            .filter(|c| matches!(c.change, Change::Button(_)))
            .count();
        assert_eq!(others(&changes).len(), tl.start.len() + buttons);
        // The times and the lines agree; without t= the same cells.
        for (l, t) in periodic.lines.iter().zip(&periodic.times) {
            if let Some(t) = t {
                assert!(l.ends_with(&format!(" t={t}")), "{l}");
            }
        }
        let plain = render(&tl, Cadence::Periodic, false, 3);
        assert_eq!(plain.times, periodic.times);
        for (a, b) in plain.lines.iter().zip(&periodic.lines) {
            assert!(b.starts_with(a.as_str()));
        }
    }
    eprintln!("both cadences: {compared} periodic snapshots equal to the change-only reading; noise {kinds:?}");
    assert!(kinds.flickers > 0 && kinds.slow_captures > 0 && kinds.throw_ins > 0);
}

/// The cells word of a `board` line.
fn cells(line: &str) -> &str {
    line.split(' ').nth(2).unwrap_or("")
}
