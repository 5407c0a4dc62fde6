//! Pattern search results as JSON for programs: the contract's object (`kifudex pattern
//! --json` and the web API's `/api/pattern`, one function for both), hit lists and game
//! lists (`docs/JSON.md`).

use kifudex_core::index::Index;
use kifudex_core::notation::Sgf;
use kifudex_core::pattern::{ContinuationClass, Hit, PatternQuery};
use kifudex_core::{Move, Point};
use serde_json::{json, Map, Value};

use super::search::{GameHits, PatternReport};
use crate::present::{color_letter, result_text};

/// A pattern cell in SGF letters (`aa` is the pattern's top-left cell).
pub fn letters(p: Point) -> String {
    Sgf(Move::Play(p)).to_string()
}

fn class_json(q: &PatternQuery, c: &ContinuationClass) -> Value {
    let eq: Vec<String> = q.equivalent(c.cell).iter().map(|&p| letters(p)).collect();
    json!({
        "move": letters(c.cell),
        "equivalent": eq,
        "color": color_letter(c.color),
        "count": c.counts.count,
        "immediate": c.counts.immediate,
        "tenuki": c.counts.tenuki,
        "black_wins": c.counts.black_wins,
        "white_wins": c.counts.white_wins,
    })
}

/// The contract's `pattern --json` object (`docs/CONTRACTS.md`): games, hits,
/// continuations (with `by_year` counts per continuation and a `years` object when the search counted by year).
pub fn report(q: &PatternQuery, r: &PatternReport) -> Value {
    let by_year = !r.years.is_empty();
    let conts: Vec<Value> = r
        .stats
        .classes()
        .iter()
        .map(|c| {
            let mut v = class_json(q, c);
            if by_year {
                let mut years = Map::new();
                for (y, counts) in &r.years {
                    if let Some(&n) = counts.classes.get(&(c.color, c.cell)) {
                        years.insert(y.to_string(), json!(n));
                    }
                }
                v["by_year"] = Value::Object(years);
            }
            v
        })
        .collect();
    let mut out = json!({
        "games": r.games,
        "hits": r.hits,
        "continuations": conts,
    });
    if by_year {
        let years: Map<String, Value> = r
            .years
            .iter()
            .map(|(y, c)| {
                let conts: u64 = c.classes.values().sum();
                (
                    y.to_string(),
                    json!({"games": c.games, "hits": c.hits, "continuations": conts}),
                )
            })
            .collect();
        out["years"] = Value::Object(years);
    }
    out
}

/// One hit as JSON, with its game's information.
pub fn hit(index: &Index<'_>, q: &PatternQuery, game: u32, h: &Hit) -> Value {
    let v = q.variants().get(h.variant as usize);
    let g = index.game(game);
    let r = h.region;
    json!({
        "game": game,
        "move_number": h.move_number,
        "region": [r.left, r.top, r.right, r.bottom],
        "transform": v.map(|v| v.transform.index()),
        "colors_exchanged": v.map(|v| v.swapped),
        "continuation": h.continuation.map(|c| json!({
            "move": letters(c.cell),
            "color": color_letter(c.color),
            "move_number": c.move_number,
            "immediate": c.immediate,
        })),
        "black": g.map(|g| g.black), "black_rank": g.map(|g| g.black_rank),
        "white": g.map(|g| g.white), "white_rank": g.map(|g| g.white_rank),
        "date": g.map(|g| g.date), "event": g.map(|g| g.event),
        "result": g.map(|g| result_text(&g)),
        "file": g.map(|g| g.path), "member": g.map(|g| g.member), "tree": g.map(|g| g.tree),
    })
}

/// The hits object: the search's totals and `list`, each hit with its game's information.
pub fn hits(index: &Index<'_>, q: &PatternQuery, r: &PatternReport, list: &[(u32, Hit)]) -> Value {
    let list: Vec<Value> = list.iter().map(|(g, h)| hit(index, q, *g, h)).collect();
    json!({"games": r.games, "hits": r.hits, "list": list})
}

/// The games with hits (as `games --json` lists games).
pub fn games(index: &Index<'_>, list: &[GameHits], matching: usize) -> Value {
    let games: Vec<Value> = list
        .iter()
        .filter_map(|gh| {
            let g = index.game(gh.game)?;
            Some(json!({
                "id": g.id,
                "black": g.black, "black_rank": g.black_rank,
                "white": g.white, "white_rank": g.white_rank,
                "date": g.date, "event": g.event, "round": g.round, "place": g.place,
                "result": result_text(&g),
                "winner": g.winner.map(color_letter),
                "handicap": g.handicap,
                "komi": g.komi.map(|k| k as f64 / 100.0),
                "move_number": gh.first_move_number,
                "hits": gh.hits,
                "moves": g.move_count,
                "file": g.path, "member": g.member, "tree": g.tree,
            }))
        })
        .collect();
    json!({ "matching": matching, "games": games })
}
