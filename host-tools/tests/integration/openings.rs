//! Named whole-board openings (`kifudex_core::opening`) on real games: `docs/OPENINGS.md`
//! describes the rule and the table and shows how many fox_pro games reach each opening;
//! this test computes that table twice (with the core's recognizer on the board the core
//! replays, and a second way written here: each colour's stones as played, compared with
//! the 8 images of each opening's stones) and fails when the two differ or the file is not
//! current (run it with `KIFUDEX_WRITE_DOCS=1` to write the file).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use kifudex::input::collect_sources;
use kifudex::sgf::Event;
use kifudex_core::notation::Human;
use kifudex_core::opening::{of_board, OPENINGS};
use kifudex_core::{Board, Color, Move, Size, Stone};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A set of points `(x, y)` from the top left.
type Points = BTreeSet<(i32, i32)>;

/// A symmetry of a board of side `m + 1`.
type Symmetry = fn(i32, i32, i32) -> (i32, i32);

/// The 8 images of a point set under the board's symmetries, written out here.
fn images(points: &[(i32, i32)]) -> Vec<Points> {
    let m = 18;
    let maps: [Symmetry; 8] = [
        |x, y, _| (x, y),
        |x, y, m| (m - x, y),
        |x, y, m| (x, m - y),
        |x, y, m| (m - x, m - y),
        |x, y, _| (y, x),
        |x, y, m| (m - y, x),
        |x, y, m| (y, m - x),
        |x, y, m| (m - y, m - x),
    ];
    maps.iter()
        .map(|f| points.iter().map(|&(x, y)| f(x, y, m)).collect())
        .collect()
}

/// Per opening: (games reaching it, of which formed by Black, by White), by the core.
type Reached = BTreeMap<&'static str, (usize, usize, usize)>;

/// An opening as this test reads the table: its name, how many stones define it, and the
/// 8 images of (mine, theirs).
type Images = (&'static str, usize, Vec<(Points, Points)>);

/// The opening named by the rule, found the simple way: every table entry, every image,
/// both colour choices; the most defining stones wins, the first of the table on a tie.
fn simple_name(table: &[Images], stones: &[Points; 2]) -> Option<(&'static str, Color)> {
    if stones[0].len() + stones[1].len() > 30 || stones[0].len() + stones[1].len() == 0 {
        return None;
    }
    let mut best: Option<(&'static str, usize, Color)> = None;
    for (name, n, images) in table {
        if best.is_some_and(|b| b.1 >= *n) {
            continue;
        }
        'colours: for (color, mine, theirs) in [
            (Color::Black, &stones[0], &stones[1]),
            (Color::White, &stones[1], &stones[0]),
        ] {
            for (m, t) in images {
                if m.is_subset(mine) && t.is_subset(theirs) {
                    best = Some((name, *n, color));
                    break 'colours;
                }
            }
        }
    }
    best.map(|b| (b.0, b.2))
}

/// The games of fox_pro and the openings each reaches, both ways.
fn fox_pro_openings() -> (usize, Reached, Reached) {
    let (sources, _) = collect_sources(&[root().join("../shared/corpus/fox_pro")]);
    let table: Vec<Images> = OPENINGS
        .iter()
        .map(|o| {
            let xy = |ps: &[kifudex_core::Point]| -> Vec<(i32, i32)> {
                ps.iter().map(|p| (p.x as i32, p.y as i32)).collect()
            };
            let mine = images(&xy(o.stones));
            let theirs = images(&xy(o.theirs));
            (
                o.name,
                o.stones.len() + o.theirs.len(),
                mine.into_iter().zip(theirs).collect(),
            )
        })
        .collect();
    let mut games = 0;
    let mut core = Reached::new();
    let mut simple = Reached::new();
    let count = |table: &mut Reached, found: &BTreeSet<(&'static str, Color)>| {
        let names: BTreeSet<&'static str> = found.iter().map(|f| f.0).collect();
        for name in names {
            let e = table.entry(name).or_default();
            e.0 += 1;
            e.1 += found.contains(&(name, Color::Black)) as usize;
            e.2 += found.contains(&(name, Color::White)) as usize;
        }
    };
    for s in &sources {
        for g in s.parse().games {
            // Whole-board openings are reached by moves: a game set up with stones (a
            // handicap game) is not named, by the tools or here.
            if g.size != Size::STANDARD || g.events.iter().any(|e| matches!(e, Event::Setup { .. }))
            {
                continue;
            }
            games += 1;
            let mut board = Board::new(g.size);
            let mut found_core = BTreeSet::new();
            let mut found_simple = BTreeSet::new();
            let mut stones: [Points; 2] = Default::default();
            let mut look = |board: &Board, stones: &[Points; 2]| {
                if let Some(n) = of_board(board) {
                    found_core.insert((n.opening.name, n.color));
                }
                if let Some(found) = simple_name(&table, stones) {
                    found_simple.insert(found);
                }
            };
            look(&board, &stones);
            for ev in &g.events {
                match *ev {
                    Event::Setup { point, stone } => {
                        if board.set_stone(point, stone).is_err() {
                            break;
                        }
                        let xy = (point.x as i32, point.y as i32);
                        stones[0].remove(&xy);
                        stones[1].remove(&xy);
                        match stone {
                            Stone::Black => stones[0].insert(xy),
                            Stone::White => stones[1].insert(xy),
                            Stone::Empty => false,
                        };
                    }
                    Event::Play { color, mv } => {
                        let Ok(captured) = board.play(color, mv) else {
                            break;
                        };
                        if let Move::Play(p) = mv {
                            stones[color.index()].insert((p.x as i32, p.y as i32));
                        }
                        // Captures (the board's rules are not what is checked here).
                        for q in captured.points.iter() {
                            stones[color.opponent().index()].remove(&(q.x as i32, q.y as i32));
                        }
                        if stones[0].len() + stones[1].len() > 31 {
                            break;
                        }
                    }
                }
                look(&board, &stones);
            }
            count(&mut core, &found_core);
            count(&mut simple, &found_simple);
        }
    }
    (games, core, simple)
}

fn openings_doc() -> String {
    let (games, core, simple) = fox_pro_openings();
    assert_eq!(core, simple, "the recognizer and the simple count differ");
    let mut out = String::new();
    out += "# Named openings\n\n";
    out += "kifudex names a position after a whole-board opening from its own table\n";
    out += "(`core/src/opening.rs`, `kifudex_core::opening`): the formations one player's first\n";
    out +=
        "stones make, each by the points that define it. `search --json` and `/api/search` carry\n";
    out += "`\"opening\": {\"name\": ...}` for a named position (else `\"opening\": null`), and `kifudex\n";
    out += "shapes` names the most frequent opening sequences.\n\n";
    out += "## The rule\n\n";
    out += "Each opening of the table is defined by a few stones: those of the player who forms\n";
    out += "it and, for the formations played against the opponent's corner, the opponent's\n";
    out += "stone there. A position is named after an opening when **all its defining stones\n";
    out += "are on the board**, in any of the 8 orientations of the board and with the colours\n";
    out += "as defined or exchanged (16 choices); other stones may stand anywhere. When the\n";
    out += "stones of several openings are on the board, the most specific wins (the most\n";
    out += "defining stones: Cosmic style over Sanrensei over Nirensei), and among equally\n";
    out += "specific ones the first of the table. Only the opening is named: 19x19 positions\n";
    out += "with at most 30 stones on the board. A position is never named after an opening\n";
    out += "whose stones are not all there (the core's tests place every opening in its 16\n";
    out += "orientations and colours, and take away or turn one stone of it among random\n";
    out += "others). A position set up with stones before its moves (a handicap game, a\n";
    out += "problem) is not named: players reach these openings by moves (`search` and\n";
    out += "`shapes` leave such positions and sequences unnamed).\n\n";
    out += "A sequence of moves (the `shapes` openings list) is named after the last of its\n";
    out += "positions that has a name: the opening it passed through. `search --json` and\n";
    out += "`/api/search` name the position searched; the shell prints `Opening: NAME` under a\n";
    out += "search, the web board shows it above the board.\n\n";
    out += "The recognizer needs no allocation (a constant table, the board's stones of each\n";
    out += "colour as bit sets), so the firmware could name openings too.\n\n";
    out += "## The table\n\n";
    out += "Written for the project from the usual diagrams of each opening (the textbook\n";
    out +=
        "shapes, as a player would set them up); the coordinates are the project's definition.\n";
    out += "They are written with `A` at the left and `1` at the bottom, in the table's\n";
    out += "orientation; any of the 8 orientations and either colour count.\n\n";
    out += "| name | stones of the player forming it | opponent's stones | what they are |\n|---|---|---|---|\n";
    let what = [
        "three star points on one side",
        "Sanrensei and tengen (Takemiya Masaki's \"cosmic\" style)",
        "two star points on one side",
        "a star point, the 3-4 point of the next corner on that side turned towards the side, a stone between them on the fourth line",
        "the same with the stone between on the third line",
        "a 3-4 point turned towards the lower side, the low approach to the opponent's star point of the next corner on that side, a stone on the third line between them",
        "the same with the stone between one line closer to the 3-4 point",
        "a 3-4 point, the low approach to the next corner's star point, a stone on the fourth line in the middle of the side (Kobayashi Koichi's formation)",
        "Shusaku's 1-3-5: 3-4 points in three corners",
        "a 3-4 point and its small-knight enclosure: the corner of the orthodox opening",
        "the 3-3 point, the opposite star point and tengen, as Go Seigen opened against Honinbo Shusai (1933)",
    ];
    assert_eq!(what.len(), OPENINGS.len());
    let names = |ps: &[kifudex_core::Point]| -> String {
        let v: Vec<String> = ps
            .iter()
            .map(|&p| Human(Move::Play(p), Size::STANDARD).to_string())
            .collect();
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(", ")
        }
    };
    for (o, w) in OPENINGS.iter().zip(what) {
        out += &format!(
            "| {} | {} | {} | {w} |\n",
            o.name,
            names(o.stones),
            names(o.theirs)
        );
    }
    out += "\n";
    out += "## On real games\n\n";
    out += &format!(
        "How many of the {games} 19x19 games without setup stones of the fox_pro collection (Fox\n"
    );
    out +=
        "server games with a professional, 2013-2019; its handicap games left out) reach a position named after each\n";
    out += "opening, and whose stones formed it. Computed by the test `openings::` of\n";
    out +=
        "`host-tools/tests/integration/openings.rs` twice, with the recognizer and with a simple\n";
    out += "count written in the test, which agree (`KIFUDEX_WRITE_DOCS=1` writes this file again):\n\n";
    out += "| name | games | formed by Black | formed by White |\n|---|---:|---:|---:|\n";
    for o in &OPENINGS {
        let (n, b, w) = core.get(o.name).copied().unwrap_or_default();
        out += &format!("| {} | {n} | {b} | {w} |\n", o.name);
    }
    out
}

#[test]
fn the_openings_doc_is_current() {
    super::ranks::check_generated_doc("docs/OPENINGS.md", &openings_doc());
}
