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

/// The games of fox_pro and the openings each reaches, both ways.
fn fox_pro_openings() -> (usize, Reached, Reached) {
    let (sources, _) = collect_sources(&[root().join("../shared/corpus/fox_pro")]);
    let tables: Vec<(&'static str, Vec<Points>)> = OPENINGS
        .iter()
        .map(|o| {
            let pts: Vec<(i32, i32)> = o.stones.iter().map(|p| (p.x as i32, p.y as i32)).collect();
            (o.name, images(&pts))
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
            if g.size != Size::STANDARD {
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
                for (i, color) in [Color::Black, Color::White].into_iter().enumerate() {
                    if let Some((name, _)) = tables.iter().find(|(_, im)| im.contains(&stones[i])) {
                        found_simple.insert((*name, color));
                        break;
                    }
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
                        if board.play(color, mv).is_err() {
                            break;
                        }
                        if let Move::Play(p) = mv {
                            stones[color.index()].insert((p.x as i32, p.y as i32));
                        }
                        // Past 3 stones of each colour no opening can be named (no
                        // capture happens that early in these games: checked by the equality).
                        if stones[0].len() > 4 && stones[1].len() > 4 {
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
    out += "A position is named after an opening when **the stones of one colour are exactly the\n";
    out += "opening's defining stones**, in any of the 8 orientations of the board. The other\n";
    out += "colour's stones may stand anywhere (they are the opponent's answers). Black's stones are\n";
    out += "looked at first, then White's: the colour-exchanged opening has the same name. A\n";
    out += "defining stone missing, or one more stone of that colour, and the position is not\n";
    out += "named so; a position is never named where the opening's stones are not all on the\n";
    out += "board (the core's tests check every opening in its 16 orientations and colours, and\n";
    out += "that a missing or an extra stone undoes the name). Only 19x19 positions are named.\n\n";
    out += "A sequence of moves (the `shapes` openings list) is named after the last of its\n";
    out += "positions that has a name: the opening it passed through.\n\n";
    out += "The recognizer needs no allocation (a constant table, the board's stones of each\n";
    out +=
        "colour as bit sets) and reads a colour's stones only when it has as many as an opening\n";
    out += "defines, so the firmware could name openings too.\n\n";
    out += "## The table\n\n";
    out += "Coordinates as on a board with `A` at the left and `1` at the bottom, in the table's\n";
    out += "orientation; any of the 8 orientations and either colour count.\n\n";
    out += "| name | defining stones | what they are |\n|---|---|---|\n";
    let what = [
        "three star points on one side",
        "two star points on one side",
        "a star point, the 3-4 point of the next corner on that side, a stone between them on the fourth line",
        "the same with the stone between on the third line",
        "a 3-4 point, an approach to the opponent's star point in the next corner from the side between them, a stone on the third line between the two",
        "Shusaku's 1-3-5: 3-4 points in three corners",
    ];
    for (o, w) in OPENINGS.iter().zip(what) {
        let pts: Vec<String> = o
            .stones
            .iter()
            .map(|&p| Human(Move::Play(p), Size::STANDARD).to_string())
            .collect();
        out += &format!("| {} | {} | {w} |\n", o.name, pts.join(", "));
    }
    out += "\nNot in the table yet: the Kobayashi and orthodox formations and the variants of\n";
    out +=
        "Sanrensei, whose defining stones the project has not yet fixed from a checked source.\n\n";
    out += "## On real games\n\n";
    out += &format!(
        "How many of the {games} 19x19 games of the fox_pro collection (Fox server games with a\n"
    );
    out +=
        "professional, 2013-2019, most of them handicap games) reach a position named after each\n";
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
