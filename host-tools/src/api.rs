//! The web board's answers over an index, one function per question, used both by
//! `kifudex serve` (through [`IndexBackend`], the [`crate::web::Backend`] of an index) and
//! by the command line (`search --json`, `games --json`), so that both print the same
//! object for the same query by construction.
//!
//! A query position is a [`Position`]: setup stones (`ab`, `aw`), the side to move and the
//! moves played from there, set up by [`set_up`] with the core's board (captures, no
//! suicide, simple ko). The page learns every position from [`position`]: it has no rules
//! of its own.

use std::collections::BTreeMap;

use crate::web::{
    ApiError, Filter, GamesRequest, PatternGamesRequest, PatternSearch, Position, SearchRequest,
    Side, Sort, YearsRequest,
};
use kifudex_core::board::Board;
use kifudex_core::index::{Game, Index};
use kifudex_core::notation::{parse_moves, NotationError, Sgf};
use kifudex_core::search::NextMoves;
use kifudex_core::{Color, Move, MoveError, Point, PointSet, Rules, Size, Stone};
use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::games::{self, GameFilter, GameList, Page};
use crate::pattern::{self, PatternRequest};
use crate::present::{self, color_letter};
use crate::sgf::{self, Event, GameInfo};
use kifudex_core::book::Book;
use kifudex_core::pattern::PatternIndex;
use kifudex_core::predict::{best, Analysis, History, Predictor};

/// One move played on a query position, with the stones it removed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// Who played.
    pub color: Color,
    /// What.
    pub mv: Move,
    /// The stones it captured.
    pub captures: PointSet,
}

/// A query position set up and played.
#[derive(Clone, Debug)]
pub struct Played {
    /// The position.
    pub board: Board,
    /// Who is to move.
    pub to_move: Color,
    /// The moves, in order.
    pub moves: Vec<PlayedMove>,
}

/// Why a query position cannot be set up: each names the list, the entry and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A board size outside 1 to 19.
    #[error("board size {0} is not supported (1 to 19)")]
    BadSize(u8),
    /// An entry of a list is not a point or move (in any notation of `--moves`).
    #[error("{}", entry_words(list, *number, text))]
    BadEntry {
        /// `moves`, `ab` or `aw`.
        list: &'static str,
        /// 1-based.
        number: usize,
        /// The entry as given.
        text: String,
    },
    /// A setup list holds a pass or a point off the board.
    #[error("{list}: entry {number} ({text:?}) is not a point of the {size} board")]
    BadSetupPoint {
        /// `ab` or `aw`.
        list: &'static str,
        /// 1-based.
        number: usize,
        /// The entry as given.
        text: String,
        /// The board size, as `19x19`.
        size: String,
    },
    /// A point given for both colours.
    #[error("ab and aw both hold {point}")]
    BothColours {
        /// The point (SGF letters).
        point: String,
    },
    /// A move the rules refuse.
    #[error("move {number}, {} {mv}: {}", color_word(color), reason.words())]
    Illegal {
        /// 1-based.
        number: usize,
        /// `B` or `W`.
        color: &'static str,
        /// The move as SGF letters (or as given, when off the board).
        mv: String,
        /// Why.
        reason: MoveError,
    },
}

impl From<PositionError> for ApiError {
    fn from(e: PositionError) -> ApiError {
        let message = e.to_string();
        match e {
            PositionError::Illegal {
                number,
                color,
                mv,
                reason,
            } => ApiError::bad_request(message)
                .with("move_number", number)
                .with("move", mv)
                .with("color", color)
                .with("reason", reason.name()),
            _ => ApiError::bad_request(message),
        }
    }
}

fn color_of(side: Side) -> Color {
    match side {
        Side::Black => Color::Black,
        Side::White => Color::White,
    }
}

/// The entry of a list that holds byte `at` (split as the core's `parse_moves` splits):
/// its 1-based number and text.
fn entry_at(list: &str, at: usize) -> (usize, String) {
    let (number, text) = kifudex_core::notation::entry_at(list, at);
    (number, text.to_owned())
}

/// The byte where entry `i` (0-based) of a list starts.
fn entry_start(list: &str, i: usize) -> usize {
    (0..=list.len())
        .find(|&at| kifudex_core::notation::entry_at(list, at).0 == i + 1)
        .unwrap_or(0)
}

/// `Black` for `B`, `White` for `W`.
fn color_word(letter: &str) -> &'static str {
    if letter == "W" {
        "White"
    } else {
        "Black"
    }
}

/// A bad entry in words: ``move 3: `hello` is not a move (expected ...)``.
fn entry_words(list: &str, number: usize, text: &str) -> String {
    let what = if list == "moves" {
        format!("move {number}")
    } else {
        format!("{list}: entry {number}")
    };
    if text.is_empty() {
        format!("{what} is empty (two commas in a row, or a comma at the end)")
    } else if list == "moves" {
        format!(
            "{what}: `{text}` is not a move (expected an SGF point like pd, a coordinate like \
             Q16, or pass)"
        )
    } else {
        format!("{what}: `{text}` is not a point (expected an SGF point like pd or a coordinate like Q16)")
    }
}

/// Sets up a query position: the setup stones on the empty board of its size, then the
/// moves, the first by `to_move` (Black when not given), colours alternating, captures
/// applied, suicide and an immediate ko recapture refused. `moves` alone is the SPEC's
/// `--moves` query.
pub fn set_up(q: &Position) -> Result<Played, PositionError> {
    let size =
        Size::new(q.size, q.height.unwrap_or(q.size)).ok_or(PositionError::BadSize(q.size))?;
    let mut board = Board::new(size);
    for (list, text, stone) in [
        ("ab", &q.black, Stone::Black),
        ("aw", &q.white, Stone::White),
    ] {
        for (i, p) in parse_moves(text, size).enumerate() {
            let p = match p {
                Ok(Move::Play(p)) => p,
                Ok(Move::Pass) | Err(NotationError::OffBoard { .. }) => {
                    return Err(PositionError::BadSetupPoint {
                        list,
                        number: i + 1,
                        text: entry_at(text, entry_start(text, i)).1,
                        size: format!("{}x{}", size.width(), size.height()),
                    });
                }
                Err(e) => {
                    let (number, text) = entry_at(text, e.at());
                    return Err(PositionError::BadEntry { list, number, text });
                }
            };
            if stone == Stone::White && board.get(p) == Stone::Black {
                return Err(PositionError::BothColours {
                    point: Sgf(Move::Play(p)).to_string(),
                });
            }
            // On the board (checked by the parser), so this cannot fail.
            let _ = board.set_stone(p, stone);
        }
    }
    let mut color = q.to_move.map_or(Color::Black, color_of);
    let mut moves = Vec::new();
    for (i, mv) in parse_moves(&q.moves, size).enumerate() {
        let mv = match mv {
            Ok(mv) => mv,
            Err(NotationError::OffBoard { at }) => {
                return Err(PositionError::Illegal {
                    number: i + 1,
                    color: color_letter(color),
                    mv: entry_at(&q.moves, at).1,
                    reason: MoveError::OffBoard,
                })
            }
            Err(e) => {
                let (number, text) = entry_at(&q.moves, e.at());
                return Err(PositionError::BadEntry {
                    list: "moves",
                    number,
                    text,
                });
            }
        };
        let captures = board
            .play(color, mv)
            .map_err(|reason| PositionError::Illegal {
                number: i + 1,
                color: color_letter(color),
                // As the user wrote it (`Q16`, `PD` or `pd`).
                mv: entry_at(&q.moves, entry_start(&q.moves, i)).1,
                reason,
            })?;
        moves.push(PlayedMove {
            color,
            mv,
            captures: captures.points,
        });
        color = color.opponent();
    }
    Ok(Played {
        board,
        to_move: color,
        moves,
    })
}

fn points_json(set: &PointSet) -> Value {
    Value::Array(
        set.iter()
            .map(|p| Value::String(Sgf(Move::Play(p)).to_string()))
            .collect(),
    )
}

/// `/api/position`: the stones, each move with its captures, the side to move, the ko
/// point (where the side to move may not play), the prisoners each side took, the hash.
pub fn position(q: &Position) -> Result<Value, ApiError> {
    let played = set_up(q)?;
    let b = &played.board;
    let (mut by_black, mut by_white) = (0usize, 0usize);
    let moves: Vec<Value> = played
        .moves
        .iter()
        .map(|m| {
            match m.color {
                Color::Black => by_black += m.captures.len(),
                Color::White => by_white += m.captures.len(),
            }
            json!({
                "color": color_letter(m.color),
                "move": Sgf(m.mv).to_string(),
                "captures": points_json(&m.captures),
            })
        })
        .collect();
    let ko = b
        .ko()
        .filter(|&(_, c)| c == played.to_move)
        .map(|(p, _)| Sgf(Move::Play(p)).to_string());
    Ok(json!({
        "width": b.size().width(),
        "height": b.size().height(),
        "to_move": color_letter(played.to_move),
        "black": points_json(b.stones(Color::Black)),
        "white": points_json(b.stones(Color::White)),
        "ko": ko,
        "moves": moves,
        "captured": {"B": by_black, "W": by_white},
        "hash": b.bgo_hashes().0[0],
    }))
}

/// The request's filter as the library's: where the command line's and the API's
/// filters become a [`GameFilter`].
impl From<&Filter> for GameFilter {
    fn from(f: &Filter) -> GameFilter {
        GameFilter {
            year_from: f.year_from,
            year_to: f.year_to,
            player: f.player.clone(),
            handicap: f.handicap,
            winner: f.winner.map(color_of),
        }
    }
}

fn next_moves(
    index: &Index<'_>,
    board: &Board,
    swap: bool,
    filter: &GameFilter,
) -> Result<NextMoves, ApiError> {
    filter
        .next_moves(index, board, swap)
        .map_err(|e| ApiError::bad_request(format!("the search cannot be completed ({e:?})")))
}

/// The position of a search and its next moves, counting the games the filter keeps (all
/// of them by default, from the precomputed statistics).
pub fn search_next(index: &Index<'_>, q: &SearchRequest) -> Result<(Played, NextMoves), ApiError> {
    let played = set_up(&q.position)?;
    let next = next_moves(index, &played.board, q.swap, &(&q.filter).into())?;
    Ok((played, next))
}

/// `/api/search` and `kifudex search --json`: the SPEC's object for the position.
pub fn search(index: &Index<'_>, q: &SearchRequest) -> Result<Value, ApiError> {
    let (played, next) = search_next(index, q)?;
    Ok(present::json::search(&played.board, &next))
}

/// `kifudex games` and `/api/games`: the page of games a request asks for, and how many
/// games match in all.
pub fn game_list(index: &Index<'_>, q: &GamesRequest) -> Result<GameList, ApiError> {
    let played = set_up(&q.position)?;
    let page = Page {
        limit: q.limit,
        offset: q.offset,
    };
    Ok(games::list(
        index,
        &played.board,
        q.swap,
        &(&q.filter).into(),
        q.sort,
        page,
    ))
}

/// `/api/games` and `kifudex games --json`: `{"matching": N, "games": [...]}`, each game
/// with its information, the move where the position occurred and whether it occurred
/// with colours exchanged.
pub fn games(index: &Index<'_>, q: &GamesRequest) -> Result<Value, ApiError> {
    Ok(present::json::games(index, &game_list(index, q)?))
}

/// The year ranges of the popularity chart: one per year when the years span at most
/// this many, else wider ranges (2, 5, 10, ... years) so there are at most this many.
const MAX_BINS: u32 = 40;

/// `/api/years`: how often the top next moves were played, year by year: `top` (the
/// classes followed, as in `search`), `bins` (`from`, `to`, the `total` of next moves in
/// those years and the `counts` of each top class), `unknown_year` (next moves from
/// games without a date).
pub fn years(index: &Index<'_>, q: &YearsRequest) -> Result<Value, ApiError> {
    let s = &q.search;
    let played = set_up(&s.position)?;
    let board = &played.board;
    let filter = GameFilter::from(&s.filter);
    let next = next_moves(index, board, s.swap, &filter)?;
    let top: Vec<_> = next.classes().iter().take(q.top).copied().collect();
    // The years that occur, from the games the filter keeps.
    let all = Page {
        limit: usize::MAX,
        offset: 0,
    };
    let mut years: BTreeMap<u16, ()> = BTreeMap::new();
    for l in games::list(index, board, s.swap, &filter, Sort::default(), all).games {
        if let Some(y) = index.game(l.occurrence.game).and_then(|g| g.year()) {
            years.insert(y, ());
        }
    }
    let mut bins = Vec::new();
    let mut dated = 0u64;
    if let (Some((&lo, _)), Some((&hi, _))) = (years.first_key_value(), years.last_key_value()) {
        let span = (hi - lo) as u32 + 1;
        let width = [1u32, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10_000]
            .into_iter()
            .find(|w| span.div_ceil(*w) <= MAX_BINS)
            .unwrap_or(10_000);
        let start = lo as u32 - lo as u32 % width;
        let mut from = start;
        while from <= hi as u32 {
            let to = from + width - 1;
            let any = years
                .range(from as u16..=to.min(u16::MAX as u32) as u16)
                .next();
            let (total, counts) = if any.is_some() {
                // The filter's games of these years.
                let year = |y: u32| u16::try_from(y).unwrap_or(u16::MAX);
                let in_bin = GameFilter {
                    year_from: Some(filter.year_from.map_or(year(from), |f| f.max(year(from)))),
                    year_to: Some(filter.year_to.map_or(year(to), |t| t.min(year(to)))),
                    ..filter.clone()
                };
                let n = next_moves(index, board, s.swap, &in_bin)?;
                let counts: Vec<u32> = top
                    .iter()
                    .map(|t| {
                        n.classes()
                            .iter()
                            .find(|c| c.color == t.color && c.mv == t.mv)
                            .map_or(0, |c| c.count)
                    })
                    .collect();
                (n.total(), counts)
            } else {
                (0, vec![0; top.len()])
            };
            dated += total;
            bins.push(json!({"from": from, "to": to, "total": total, "counts": counts}));
            from += width;
        }
    }
    let top: Vec<Value> = top
        .iter()
        .map(|c| {
            json!({"move": Sgf(c.mv).to_string(), "color": color_letter(c.color), "count": c.count})
        })
        .collect();
    Ok(json!({
        "total": next.total(),
        "top": top,
        "bins": bins,
        "unknown_year": next.total().saturating_sub(dated),
    }))
}

/// A stored game as a record: its size, game information and events (setup and moves),
/// for the SGF writer and the replay board.
pub fn stored_record<'a>(index: &Index<'a>, id: u32) -> Option<(Game<'a>, GameInfo)> {
    let g = index.game(id)?;
    let info = GameInfo::from_stored(&g);
    Some((g, info))
}

/// A stored game's setup and moves as record events.
pub fn stored_events(index: &Index<'_>, id: u32) -> Vec<Event> {
    index.events(id).collect()
}

/// The game-information properties as SGF names them (only those given).
pub fn info_json(size: Size, info: &GameInfo) -> Value {
    let mut m = Map::new();
    let mut put = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            m.insert(k.into(), Value::String(v));
        }
    };
    put("PB", info.black.clone());
    put("BR", info.black_rank.clone());
    put("PW", info.white.clone());
    put("WR", info.white_rank.clone());
    put("DT", info.date.clone());
    put("EV", info.event.clone());
    put("RO", info.round.clone());
    put("PC", info.place.clone());
    put("RE", info.result.as_ref().map(|r| r.raw.clone()));
    put("KM", info.komi.map(sgf::write::komi_text));
    put("HA", info.handicap.map(|h| h.to_string()));
    put("RU", info.rules.clone());
    put("GN", info.game_name.clone());
    put(
        "SZ",
        Some(if size.is_square() {
            size.width().to_string()
        } else {
            format!("{}:{}", size.width(), size.height())
        }),
    );
    Value::Object(m)
}

/// Setup stones as `{"B": [...], "W": [...]}` (and `"E"` for emptied points, if any).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SetupJson {
    /// Black stones.
    #[serde(rename = "B")]
    pub black: Vec<String>,
    /// White stones.
    #[serde(rename = "W")]
    pub white: Vec<String>,
    /// Emptied points.
    #[serde(rename = "E", skip_serializing_if = "Vec::is_empty")]
    pub empty: Vec<String>,
}

impl SetupJson {
    fn of(stones: &[(Point, Stone)]) -> SetupJson {
        let mut s = SetupJson::default();
        for &(p, st) in stones {
            let name = Sgf(Move::Play(p)).to_string();
            match st {
                Stone::Black => s.black.push(name),
                Stone::White => s.white.push(name),
                Stone::Empty => s.empty.push(name),
            }
        }
        s
    }
}

/// One move of a record: who, where, the stones it captured, the setup of its node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveJson {
    /// `B` or `W`.
    pub color: &'static str,
    /// SGF letters or `pass`.
    #[serde(rename = "move")]
    pub mv: String,
    /// The stones it removed.
    pub captures: Vec<String>,
    /// Setup in the move's node, placed before it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<SetupJson>,
}

/// A record for the replay board (`/api/game/ID`, `/api/sgf`, `kifudex game ID`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RecordJson {
    /// The stored game's id (`null` for a pasted record).
    pub id: Option<u32>,
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// The game-information properties ([`info_json`]).
    pub info: Value,
    /// The setup before the first move.
    pub setup: SetupJson,
    /// The main line.
    pub moves: Vec<MoveJson>,
    /// Setup after the last move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_setup: Option<SetupJson>,
    /// The number of the first move the replay could not make (the main line ends before).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<usize>,
    /// A stored game's file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// A stored game's archive member (or empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member: Option<String>,
    /// A stored game's tree within its file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<u64>,
    /// A pasted text's count of game trees.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games_in_text: Option<usize>,
}

/// A record for the replay board: `info`, `setup` (before the first move), `moves` (each
/// with the stones it captured, replayed with the core's board as recorded, and the setup
/// of its node, if any, under `setup`), `final_setup` (setup after the last move, if any).
/// The main line ends at a move the replay cannot make (off the board, occupied, not a
/// point); `truncated` then says at which move.
pub fn record_json(size: Size, info: &GameInfo, events: &[Event]) -> RecordJson {
    let mut board = Board::with_rules(size, Rules::RECORD);
    let mut setup: Vec<(Point, Stone)> = Vec::new();
    let mut root_setup: Option<SetupJson> = None;
    let mut moves: Vec<MoveJson> = Vec::with_capacity(events.len());
    let mut truncated = None;
    for ev in events {
        match *ev {
            Event::Setup { point, stone } => {
                if board.set_stone(point, stone).is_ok() {
                    setup.push((point, stone));
                }
            }
            Event::Play { color, mv: m } => {
                let Ok(captures) = board.play(color, m) else {
                    truncated = Some(moves.len() + 1);
                    break;
                };
                let node_setup = if root_setup.is_none() {
                    root_setup = Some(SetupJson::of(&setup));
                    None
                } else {
                    (!setup.is_empty()).then(|| SetupJson::of(&setup))
                };
                setup.clear();
                moves.push(MoveJson {
                    color: color_letter(color),
                    mv: Sgf(m).to_string(),
                    captures: captures
                        .points
                        .iter()
                        .map(|p| Sgf(Move::Play(p)).to_string())
                        .collect(),
                    setup: node_setup,
                });
            }
        }
    }
    let (root, last) = match root_setup {
        Some(root) => (root, (!setup.is_empty()).then(|| SetupJson::of(&setup))),
        None => (SetupJson::of(&setup), None),
    };
    RecordJson {
        id: None,
        width: size.width(),
        height: size.height(),
        info: info_json(size, info),
        setup: root,
        moves,
        final_setup: last,
        truncated,
        file: None,
        member: None,
        tree: None,
        games_in_text: None,
    }
}

/// `/api/game/ID`: a stored game for the replay board (see [`record_json`]), with its id
/// and where it came from.
pub fn game(index: &Index<'_>, id: u32) -> Result<RecordJson, ApiError> {
    let (g, info) = stored_record(index, id).ok_or_else(|| no_game(index, id))?;
    Ok(RecordJson {
        id: Some(id),
        file: Some(g.path.to_owned()),
        member: Some(g.member.to_owned()),
        tree: Some(g.tree),
        ..record_json(g.size, &info, &stored_events(index, id))
    })
}

/// `/api/game/ID.sgf`: a stored game as SGF.
pub fn game_sgf(index: &Index<'_>, id: u32) -> Result<String, ApiError> {
    let (g, info) = stored_record(index, id).ok_or_else(|| no_game(index, id))?;
    Ok(sgf::write_game(g.size, &info, &stored_events(index, id)))
}

fn no_game(index: &Index<'_>, id: u32) -> ApiError {
    ApiError::not_found(format!(
        "no game {id} (the index holds games 0 to {})",
        index.game_count().saturating_sub(1)
    ))
}

/// `/api/sgf`: the first game of a pasted record, read with the project's SGF reader, as
/// [`record_json`] shows it (`games_in_text` counts its game trees).
pub fn read_sgf(text: &str) -> Result<RecordJson, ApiError> {
    let parsed = sgf::parse_file(text.as_bytes(), "pasted", None);
    let Some(g) = parsed.games.first() else {
        let why = parsed
            .rejected
            .first()
            .map_or("no game tree".to_owned(), |r| {
                format!("byte {}: {}", r.byte_offset, r.kind)
            });
        return Err(ApiError::bad_request(format!(
            "no game in the SGF text ({why})"
        )));
    };
    let record = record_json(g.size, &g.info, &g.events);
    Ok(RecordJson {
        games_in_text: Some(parsed.games.len()),
        // The reader ended the main line at a move off the board or no move at all.
        truncated: record.truncated.or(g.end.map(|_| record.moves.len() + 1)),
        ..record
    })
}

/// JSON text of a serializable answer.
pub fn to_text(v: &impl Serialize) -> String {
    // Serializing these types (strings, numbers, maps with string keys) cannot fail.
    serde_json::to_string(v).unwrap_or_default()
}

/// `/api/predict`: the predictor's guesses for the side to move, best first, as the hint
/// handler ranks them for a `guess` reply (`kifudex_core::predict::best` over the position,
/// its last two moves and its symmetry): `{"to_move": "B", "predicted": [{"move": "pd",
/// "score": 1234}, ...]}` (`score`: the model's log-strength).
pub fn predict(predictor: &Predictor<'_>, q: &Position) -> Result<Value, ApiError> {
    let played = set_up(q)?;
    let n = played.moves.len();
    let history = History {
        last: n.checked_sub(1).map(|i| played.moves[i].mv),
        before: n.checked_sub(2).map(|i| played.moves[i].mv),
    };
    let analysis = Analysis::new(&played.board, played.to_move, history);
    let guesses = best(&analysis, predictor, played.board.symmetries());
    let predicted: Vec<Value> = guesses
        .iter()
        .map(|g| json!({"move": Sgf(Move::Play(g.point)).to_string(), "score": g.score}))
        .collect();
    Ok(json!({"to_move": color_letter(played.to_move), "predicted": predicted}))
}

/// A web pattern query as the library's request: `pattern=`, `area=` and `fixed_color=`
/// read by [`PatternRequest::parse`] (as `kifudex pattern` reads `--pattern`, `--area` and
/// `--fixed-color`), the filters by [`GameFilter::from`].
pub fn pattern_request(q: &PatternSearch) -> Result<PatternRequest, ApiError> {
    let req = PatternRequest::parse(&q.pattern, q.area.as_deref(), q.fixed_color)
        .map_err(|e| ApiError::bad_request(format!("{e:#}")))?;
    Ok(PatternRequest {
        filter: GameFilter::from(&q.filter),
        by_year: q.by_year,
        ..req
    })
}

/// `/api/pattern`: the object `kifudex pattern --json` prints for the same query
/// ([`pattern::pattern_json`]).
pub fn pattern_search(
    index: &Index<'_>,
    data: &PatternIndex<'_>,
    q: &PatternSearch,
) -> Result<Value, ApiError> {
    Ok(pattern::pattern_json(index, data, &pattern_request(q)?))
}

/// `/api/pattern/games`: the object `kifudex games --pattern --json` prints for the same
/// query ([`pattern::games_json`]).
pub fn pattern_games(
    index: &Index<'_>,
    data: &PatternIndex<'_>,
    q: &PatternGamesRequest,
) -> Result<Value, ApiError> {
    let page = Page {
        limit: q.limit,
        offset: q.offset,
    };
    Ok(pattern::games_json(
        index,
        data,
        &pattern_request(&q.search)?,
        page,
    ))
}

/// The [`crate::web::Backend`] of an index.
pub struct IndexBackend {
    index: Index<'static>,
    label: String,
    /// The move predictor of a book (`kifudex serve --book`), if one was given.
    predictor: Option<&'static Predictor<'static>>,
}

impl IndexBackend {
    /// Opens an index (its structure checked, [`Index::open`]) held for the life of the
    /// process (the server's): memory-mapped ([`crate::open_index_file`]) or in memory,
    /// leaked on purpose, so the index can be shared by every request without a copy.
    pub fn new(bytes: impl Into<crate::IndexBytes>, label: String) -> anyhow::Result<IndexBackend> {
        let bytes: &'static crate::IndexBytes = Box::leak(Box::new(bytes.into()));
        let index =
            Index::open(bytes).map_err(|e| anyhow::anyhow!("{label}: not a valid index: {e}"))?;
        Ok(IndexBackend {
            index,
            label,
            predictor: None,
        })
    }

    /// Adds the move predictor of a book built with `--profile mcu --predictor` (read and
    /// validated as `kifudex hints` reads it; kept for the life of the process).
    pub fn with_predictor(
        mut self,
        book: impl Into<crate::IndexBytes>,
        label: &str,
    ) -> anyhow::Result<IndexBackend> {
        let bytes: &'static crate::IndexBytes = Box::leak(Box::new(book.into()));
        let book: &'static Book<'static> = Box::leak(Box::new(
            Book::open(bytes).map_err(|e| anyhow::anyhow!("{label}: not a valid book: {e}"))?,
        ));
        let predictor = book.predictor().ok_or_else(|| {
            anyhow::anyhow!("{label}: the book has no predictor (build it with --predictor)")
        })?;
        self.predictor = Some(predictor);
        Ok(self)
    }

    /// The pattern-search data of the index (its sections, read in place:
    /// [`Index::pattern`]).
    pub fn patterns(&self) -> Result<&PatternIndex<'static>, ApiError> {
        Ok(self.index.pattern())
    }

    /// The index.
    pub fn index(&self) -> &Index<'static> {
        &self.index
    }
}

impl crate::web::Backend for IndexBackend {
    fn info(&self) -> String {
        json!({
            "name": self.label,
            "games": self.index.game_count(),
            "version": env!("CARGO_PKG_VERSION"),
        })
        .to_string()
    }
    fn position(&self, q: &Position) -> Result<String, ApiError> {
        position(q).map(|v| v.to_string())
    }
    fn search(&self, q: &SearchRequest) -> Result<String, ApiError> {
        search(&self.index, q).map(|v| v.to_string())
    }
    fn games(&self, q: &GamesRequest) -> Result<String, ApiError> {
        games(&self.index, q).map(|v| v.to_string())
    }
    fn years(&self, q: &YearsRequest) -> Result<String, ApiError> {
        years(&self.index, q).map(|v| v.to_string())
    }
    fn game(&self, id: u32) -> Result<String, ApiError> {
        game(&self.index, id).map(|r| to_text(&r))
    }
    fn game_sgf(&self, id: u32) -> Result<String, ApiError> {
        game_sgf(&self.index, id)
    }
    fn pattern(&self, q: &PatternSearch) -> Result<String, ApiError> {
        // The query is checked before the data is computed.
        pattern_request(q)?;
        pattern_search(&self.index, self.patterns()?, q).map(|v| v.to_string())
    }
    fn pattern_games(&self, q: &PatternGamesRequest) -> Result<String, ApiError> {
        pattern_request(&q.search)?;
        pattern_games(&self.index, self.patterns()?, q).map(|v| v.to_string())
    }
    fn predict(&self, q: &Position) -> Result<String, ApiError> {
        let predictor = self.predictor.ok_or_else(|| {
            ApiError::not_found(
                "no move predictor (kifudex serve --book BOOK, a book built with --predictor)",
            )
        })?;
        predict(predictor, q).map(|v| v.to_string())
    }
    fn sgf(&self, text: &str) -> Result<String, ApiError> {
        read_sgf(text).map(|r| to_text(&r))
    }
}
