//! JSON for programs (`--json`, the web board's API): the objects `docs/JSON.md` describes.

use kifudex_core::board::Board;
use kifudex_core::index::Index;
use kifudex_core::notation::Sgf;
use kifudex_core::search::NextMoves;
use serde_json::{json, Value};

use super::{color_letter, result_text};
use crate::games::GameList;

/// The search object (`kifudex search --json`, `/api/search`): the position's bGo hashes,
/// the total and the next-move classes (`docs/JSON.md`).
pub fn search<const N: usize>(board: &Board, next: &NextMoves<N>) -> Value {
    let hashes = board.bgo_hashes().0;
    let classes: Vec<Value> = next
        .classes()
        .iter()
        .map(|c| {
            let eq: Vec<String> = next
                .equivalent(c)
                .iter()
                .map(|m| Sgf(*m).to_string())
                .collect();
            json!({
                "move": Sgf(c.mv).to_string(),
                "color": color_letter(c.color),
                "count": c.count,
                "equivalent": eq,
                "black_wins": c.black_wins,
                "white_wins": c.white_wins,
            })
        })
        .collect();
    json!({
        "hash": hashes[0],
        "hashes": hashes,
        "total": next.total(),
        "next": classes,
    })
}

/// The games object (`kifudex games --json`, `/api/games`): how many games match and
/// the page of games (`docs/JSON.md`).
pub fn games(index: &Index<'_>, list: &GameList) -> Value {
    let games: Vec<Value> = list
        .games
        .iter()
        .filter_map(|l| {
            let g = index.game(l.occurrence.game)?;
            let o = &l.occurrence;
            Some(json!({
                "id": g.id,
                "black": g.black, "black_rank": g.black_rank,
                "white": g.white, "white_rank": g.white_rank,
                "date": g.date, "event": g.event, "round": g.round, "place": g.place,
                "result": result_text(&g),
                "winner": g.winner.map(color_letter),
                "handicap": g.handicap,
                "komi": g.komi.map(|k| k as f64 / 100.0),
                "move_number": o.move_number + 1,
                "orientation": o.orientation.index(),
                "moves": g.move_count,
                "file": g.path, "member": g.member, "tree": g.tree,
                "colors_swapped": l.swapped,
            }))
        })
        .collect();
    json!({ "matching": list.matching, "games": games })
}
