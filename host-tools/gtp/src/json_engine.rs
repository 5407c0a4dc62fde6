//! KataGo's JSON analysis protocol (`katago analysis`), answered from the index: one JSON
//! query per input line, one JSON answer per analysed turn on its own output line. This
//! is how KaTrain talks to its engine.
//!
//! A query sets up a game (`boardXSize`, `boardYSize`, `initialStones`, `moves`, `rules`)
//! and names the turns to analyse (`analyzeTurns`, default: the last). Each answer holds
//! `id`, `isDuringSearch` (always false: an answer is final at once), `turnNumber`,
//! `moveInfos` (one per database move of the side to move: `move`, `visits` = games,
//! `winrate` = wins of the reported colour among them, `prior` = share of the side's
//! moves, `order`, `pv` = the move, `scoreLead`/`scoreMean` = 0 since the database has no
//! score estimate), `rootInfo` (`currentPlayer`, `visits` = all those games, `winrate`
//! over all of them, `scoreLead` 0) and, with `includePolicy`, `policy` (the shares on
//! the board, 0 for another legal move, -1 for an illegal one, the pass last).
//! `docs/GTP.md` lists every field.

use std::collections::BTreeSet;

use kifudex_core::board::{Board, KoRule, Rules};
use kifudex_core::{Color, Move, Point, Size};
use serde_json::{Map, Value};

use super::database::{self, DbMove};
use super::json_reply::{line, ErrorReply, MoveInfo, RootInfo, TurnReply, WarningReply};
use super::protocol::{self, RawLine};
use crate::explore::request::GameFilter;
use crate::explore::Explorer;

/// Whose win rate the answers report (KataGo's `reportAnalysisWinratesAs`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Perspective {
    Black,
    White,
    SideToMove,
}

/// A query's problem, answered as KataGo answers one: `{"error": ..., "field": ..., "id":
/// ...}`.
struct QueryError {
    message: String,
    field: Option<&'static str>,
}

fn bad(field: &'static str, message: impl Into<String>) -> QueryError {
    QueryError {
        message: message.into(),
        field: Some(field),
    }
}

/// The engine: the explorer, the games that count, the sizes the index holds.
pub struct JsonEngine<'a> {
    explorer: &'a Explorer<'a>,
    filter: GameFilter,
    sizes: Option<BTreeSet<(u8, u8)>>,
}

impl<'a> JsonEngine<'a> {
    /// An engine answering from the games of the explorer's index that `filter` keeps.
    pub fn new(explorer: &'a Explorer<'a>, filter: GameFilter) -> JsonEngine<'a> {
        JsonEngine {
            explorer,
            filter,
            sizes: None,
        }
    }

    /// The answer lines (each one JSON object, without its line feed) to one input line;
    /// none for an empty line.
    pub fn answer(&mut self, line: &RawLine) -> Vec<String> {
        if line.overlong {
            return vec![refusal(
                &format!("query too long (more than {} bytes)", protocol::MAX_LINE),
                None,
                None,
            )];
        }
        let text = String::from_utf8_lossy(&line.bytes);
        if text.trim().is_empty() {
            return Vec::new();
        }
        let query: Map<String, Value> = match serde_json::from_str(&text) {
            Ok(Value::Object(m)) => m,
            Ok(_) => return vec![refusal("a query must be a JSON object", None, None)],
            Err(e) => return vec![refusal(&format!("could not parse JSON: {e}"), None, None)],
        };
        let Some(id) = query.get("id").and_then(Value::as_str).map(str::to_owned) else {
            return vec![refusal("the query has no id (a string)", None, Some("id"))];
        };
        let answers = match query.get("action") {
            Some(action) => self.action(&query, action),
            None => self.analyse(&query, &id),
        };
        match answers {
            Ok(lines) => lines,
            Err(e) => vec![refusal(&e.message, Some(&id), e.field)],
        }
    }

    /// The special actions: each answered by the query itself, `query_version` with the
    /// version added. Every analysis is answered at once, so `terminate` has nothing
    /// left to stop, and there is no cache to clear.
    fn action(
        &self,
        query: &Map<String, Value>,
        action: &Value,
    ) -> Result<Vec<String>, QueryError> {
        let mut echo = query.clone();
        match action.as_str() {
            Some("query_version") => {
                echo.insert("version".into(), Value::from(env!("CARGO_PKG_VERSION")));
                echo.insert("git_hash".into(), Value::from("<omitted>"));
            }
            Some("clear_cache") | Some("terminate") | Some("terminate_all") => {}
            _ => return Err(bad("action", format!("unknown action {action}"))),
        }
        Ok(vec![Value::Object(echo).to_string()])
    }

    /// An analysis query: one answer per turn asked for.
    fn analyse(&mut self, q: &Map<String, Value>, id: &str) -> Result<Vec<String>, QueryError> {
        let dim = |field: &'static str| {
            q.get(field)
                .and_then(Value::as_u64)
                .filter(|n| (1..=19).contains(n))
                .map(|n| n as u8)
                .ok_or_else(|| bad(field, "must be an integer from 1 to 19"))
        };
        let size = Size::new(dim("boardXSize")?, dim("boardYSize")?)
            .ok_or_else(|| bad("boardXSize", "not a board size"))?;
        let rules = rules(q.get("rules").ok_or_else(|| bad("rules", "missing"))?)?;
        if let Some(k) = q.get("komi") {
            if !k.as_f64().is_some_and(|k| k.abs() <= 150.0) {
                return Err(bad("komi", "must be a number from -150 to 150"));
            }
        }
        let perspective = match q
            .get("overrideSettings")
            .and_then(|s| s.get("reportAnalysisWinratesAs"))
        {
            None => Perspective::Black,
            Some(v) => match v.as_str().map(str::to_ascii_uppercase).as_deref() {
                Some("BLACK") => Perspective::Black,
                Some("WHITE") => Perspective::White,
                Some("SIDETOMOVE") => Perspective::SideToMove,
                _ => {
                    return Err(bad(
                        "overrideSettings",
                        "reportAnalysisWinratesAs must be BLACK, WHITE or SIDETOMOVE",
                    ))
                }
            },
        };
        let stones = moves_list(q.get("initialStones"), "initialStones", size, true)?;
        let moves = moves_list(
            Some(q.get("moves").ok_or_else(|| bad("moves", "missing"))?),
            "moves",
            size,
            false,
        )?;
        let initial_player = match q.get("initialPlayer") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                v.as_str()
                    .and_then(protocol::parse_color)
                    .ok_or_else(|| bad("initialPlayer", "must be \"B\" or \"W\""))?,
            ),
        };
        let turns: Vec<usize> = match q.get("analyzeTurns") {
            None => vec![moves.len()],
            Some(v) => v
                .as_array()
                .ok_or_else(|| bad("analyzeTurns", "must be a list of turn numbers"))?
                .iter()
                .map(|t| {
                    t.as_u64()
                        .map(|t| t as usize)
                        .filter(|&t| t <= moves.len())
                        .ok_or_else(|| {
                            bad(
                                "analyzeTurns",
                                format!("turns are integers from 0 to {}", moves.len()),
                            )
                        })
                })
                .collect::<Result<_, _>>()?,
        };
        let include_policy = q.get("includePolicy").and_then(Value::as_bool) == Some(true);
        let avoid = avoided(q, size)?;

        // The positions, turn by turn.
        let mut board = Board::with_rules(size, rules);
        for &(color, mv) in &stones {
            if let Move::Play(p) = mv {
                let _ = board.set_stone(p, kifudex_core::Stone::of(color));
            }
        }
        let mut boards = vec![board.clone()];
        for (i, &(color, mv)) in moves.iter().enumerate() {
            board.play(color, mv).map_err(|e| {
                bad(
                    "moves",
                    format!(
                        "Illegal move {}: {} {} ({})",
                        i + 1,
                        protocol::color_letter(color),
                        protocol::vertex(mv, size),
                        e.words()
                    ),
                )
            })?;
            boards.push(board.clone());
        }

        let mut out = Vec::new();
        let held = self.holds(size);
        if !held {
            out.push(line(&WarningReply {
                warning: format!(
                    "the index holds no game on a {}x{} board: no move to report",
                    size.width(),
                    size.height()
                ),
                field: "boardXSize",
                id,
            }));
        }
        for &turn in &turns {
            let to_move = match turn.checked_sub(1) {
                Some(prev) => moves[prev].0.opponent(),
                None => initial_player
                    .or(moves.first().map(|m| m.0))
                    .unwrap_or(Color::Black),
            };
            let board = &boards[turn];
            let mut next = if held {
                database::next_moves(self.explorer, board, &self.filter, to_move).map_err(|e| {
                    QueryError {
                        message: e.to_string(),
                        field: None,
                    }
                })?
            } else {
                Vec::new()
            };
            next.retain(|m| !avoid.avoids(to_move, m.mv));
            let reported = match perspective {
                Perspective::Black => Color::Black,
                Perspective::White => Color::White,
                Perspective::SideToMove => to_move,
            };
            let mut reply = turn_reply(id, turn, to_move, reported, &next, size);
            if include_policy {
                reply.policy = Some(policy(board, to_move, &next));
            }
            out.push(line(&reply));
        }
        Ok(out)
    }

    fn holds(&mut self, size: Size) -> bool {
        let explorer = self.explorer;
        self.sizes
            .get_or_insert_with(|| explorer.board_sizes())
            .contains(&(size.width(), size.height()))
    }
}

/// A refused query's line.
fn refusal(error: &str, id: Option<&str>, field: Option<&str>) -> String {
    line(&ErrorReply { error, id, field })
}

/// The answer for one turn (see the module documentation), without its policy.
fn turn_reply<'a>(
    id: &'a str,
    turn: usize,
    to_move: Color,
    reported: Color,
    next: &[DbMove],
    size: Size,
) -> TurnReply<'a> {
    use super::analysis::fraction;
    let total: u64 = next.iter().map(|m| m.games as u64).sum();
    let wins: u64 = next.iter().map(|m| m.wins(reported) as u64).sum();
    let infos: Vec<MoveInfo> = next
        .iter()
        .enumerate()
        .map(|(order, m)| {
            let v = protocol::vertex(m.mv, size);
            MoveInfo {
                mv: v.clone(),
                visits: m.games,
                winrate: fraction(m.wins(reported) as u64, m.games as u64),
                prior: fraction(m.games as u64, total),
                order,
                pv: [v],
                score_lead: 0.0,
                score_mean: 0.0,
            }
        })
        .collect();
    TurnReply {
        id,
        is_during_search: false,
        turn_number: turn,
        move_infos: infos,
        root_info: RootInfo {
            current_player: protocol::color_letter(to_move),
            visits: total,
            winrate: fraction(wins, total),
            score_lead: 0.0,
        },
        policy: None,
    }
}

/// `policy`: row-major from the top left, then the pass: each database move's share, 0 for
/// another legal move, -1 for an illegal one.
fn policy(board: &Board, to_move: Color, next: &[DbMove]) -> Vec<f64> {
    use super::analysis::fraction;
    let size = board.size();
    let total: u64 = next.iter().map(|m| m.games as u64).sum();
    let share = |mv: Move| {
        next.iter()
            .find(|m| m.mv == mv)
            .map(|m| fraction(m.games as u64, total))
    };
    let mut out = Vec::with_capacity(size.points() + 1);
    for y in 0..size.height() {
        for x in 0..size.width() {
            let mv = Move::Play(Point::new(x, y));
            out.push(share(mv).unwrap_or(if board.is_legal(to_move, mv) {
                0.0
            } else {
                -1.0
            }));
        }
    }
    out.push(share(Move::Pass).unwrap_or(0.0));
    out
}

/// The board rules of `rules` (a KataGo shorthand or a JSON object): whether a suicide is
/// played (and its stones removed) or refused. The ko rule is always the simple one: the
/// position is looked up by its stones alone.
fn rules(v: &Value) -> Result<Rules, QueryError> {
    let suicide = match v {
        Value::String(s) => match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "tromp-taylor" | "new-zealand" => true,
            "chinese" | "chinese-ogs" | "chinese-kgs" | "japanese" | "korean" | "stone-scoring"
            | "aga" | "bga" | "aga-button" => false,
            _ => return Err(bad("rules", format!("unknown rules {s:?}"))),
        },
        Value::Object(m) => m.get("suicide").and_then(Value::as_bool).unwrap_or(false),
        _ => return Err(bad("rules", "must be a name or an object")),
    };
    Ok(Rules {
        suicide_allowed: suicide,
        ko: KoRule::Simple,
    })
}

/// A list of `[player, location]` pairs (`moves`, `initialStones`). Locations are GTP
/// vertices (`Q16`, `pass`) or `(x,y)` from the top left.
fn moves_list(
    v: Option<&Value>,
    field: &'static str,
    size: Size,
    stones: bool,
) -> Result<Vec<(Color, Move)>, QueryError> {
    let Some(v) = v else {
        return Ok(Vec::new());
    };
    let list = v
        .as_array()
        .ok_or_else(|| bad(field, "must be a list of [player, location] pairs"))?;
    list.iter()
        .enumerate()
        .map(|(i, pair)| {
            let entry = || format!("entry {}", i + 1);
            let (Some(player), Some(location)) = (
                pair.get(0).and_then(Value::as_str),
                pair.get(1).and_then(Value::as_str),
            ) else {
                return Err(bad(
                    field,
                    format!("{}: not a [player, location] pair", entry()),
                ));
            };
            let color = protocol::parse_color(player)
                .ok_or_else(|| bad(field, format!("{}: player {player:?}", entry())))?;
            let mv = location_of(location, size)
                .ok_or_else(|| bad(field, format!("{}: location {location:?}", entry())))?;
            if stones && mv == Move::Pass {
                return Err(bad(field, format!("{}: a stone cannot be a pass", entry())));
            }
            Ok((color, mv))
        })
        .collect()
}

/// A location: a GTP vertex or `(x,y)`.
fn location_of(s: &str, size: Size) -> Option<Move> {
    if let Some(inner) = s.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        let (x, y) = inner.split_once(',')?;
        let p = Point::new(x.trim().parse().ok()?, y.trim().parse().ok()?);
        return size.contains(p).then_some(Move::Play(p));
    }
    protocol::parse_vertex(s, size).ok()
}

/// The first moves `avoidMoves` forbids and `allowMoves` restricts to, by player (entries
/// with an `untilDepth` of 1 or more; the database answers the first move only).
#[derive(Default)]
struct Avoid {
    avoid: Vec<(Color, Move)>,
    allow: Vec<(Color, Vec<Move>)>,
}

impl Avoid {
    fn avoids(&self, color: Color, mv: Move) -> bool {
        self.avoid.contains(&(color, mv))
            || self
                .allow
                .iter()
                .any(|(c, ms)| *c == color && !ms.contains(&mv))
    }
}

fn avoided(q: &Map<String, Value>, size: Size) -> Result<Avoid, QueryError> {
    let mut out = Avoid::default();
    for field in ["avoidMoves", "allowMoves"] {
        let Some(v) = q.get(field) else { continue };
        let list = v
            .as_array()
            .ok_or_else(|| bad(field_name(field), "must be a list of objects"))?;
        for d in list {
            let color = d
                .get("player")
                .and_then(Value::as_str)
                .and_then(protocol::parse_color)
                .ok_or_else(|| bad(field_name(field), "player must be \"B\" or \"W\""))?;
            let depth = d.get("untilDepth").and_then(Value::as_u64).unwrap_or(0);
            let moves = d
                .get("moves")
                .and_then(Value::as_array)
                .ok_or_else(|| bad(field_name(field), "moves must be a list of locations"))?
                .iter()
                .map(|m| {
                    m.as_str()
                        .and_then(|m| location_of(m, size))
                        .ok_or_else(|| bad(field_name(field), format!("location {m}")))
                })
                .collect::<Result<Vec<Move>, _>>()?;
            if depth < 1 {
                continue;
            }
            if field == "avoidMoves" {
                out.avoid.extend(moves.into_iter().map(|m| (color, m)));
            } else {
                out.allow.push((color, moves));
            }
        }
    }
    Ok(out)
}

/// A field name with a static lifetime.
fn field_name(field: &str) -> &'static str {
    if field == "avoidMoves" {
        "avoidMoves"
    } else {
        "allowMoves"
    }
}

/// Answers the queries of `input` on `output`, one line each, until the end of the input.
/// A closed output ends the engine quietly; another write error is returned.
pub fn serve(
    engine: &mut JsonEngine<'_>,
    mut input: impl std::io::BufRead,
    mut output: impl std::io::Write,
) -> std::io::Result<()> {
    let mut go = || -> std::io::Result<()> {
        while let Some(line) = protocol::read_line(&mut input)? {
            for answer in engine.answer(&line) {
                output.write_all(answer.as_bytes())?;
                output.write_all(b"\n")?;
            }
            output.flush()?;
        }
        Ok(())
    };
    match go() {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

/// `kifudex analysis` on standard input and output.
pub fn run_stdio(explorer: &Explorer<'_>, filter: GameFilter) -> anyhow::Result<()> {
    let mut engine = JsonEngine::new(explorer, filter);
    serve(
        &mut engine,
        std::io::stdin().lock(),
        std::io::stdout().lock(),
    )
    .map_err(|e| anyhow::anyhow!("kifudex analysis: {e}"))
}
