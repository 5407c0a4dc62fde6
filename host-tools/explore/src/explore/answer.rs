//! The explorer's answers: plain values, one type per kind of answer, each deriving
//! `Serialize` in the shape `docs/JSON.md` and `docs/WEB.md` describe (field order
//! included), so the JSON printer ([`crate::print::json`]) only serializes them and the
//! text printer ([`crate::print::text`]) reads the same values. Points and moves are core
//! values, written in SGF letters ([`letters`]); colours are `"B"`/`"W"`. What only the
//! text needs (the board of a search, the pattern drawn) is kept beside, skipped in JSON.
//!
//! Strings of the index (players, events, files) are borrowed from it (`'a`).

use std::borrow::Cow;
use std::collections::BTreeMap;

use kifudex_core::board::Board;
use kifudex_core::index::Game;
use kifudex_core::pattern::{Area, Pattern};
use kifudex_core::{Color, Move, Point};
use serde::Serialize;

use crate::games::result_text;
use crate::tracking::eval::StreamCounts;

/// How the answers write core values in JSON: colours as `"B"`/`"W"`, moves as SGF letters
/// or `pass`, points (on the board, or in a pattern's grid) as SGF letters.
pub mod letters {
    use kifudex_core::notation::Sgf;
    use kifudex_core::{Color, Move, Point};
    use serde::ser::SerializeSeq;
    use serde::Serializer;

    /// `"B"` or `"W"`.
    pub fn color_letter(c: Color) -> &'static str {
        match c {
            Color::Black => "B",
            Color::White => "W",
        }
    }

    /// A move (or a point) in SGF letters, `pass` for a pass.
    pub fn sgf(m: Move) -> String {
        Sgf(m).to_string()
    }

    /// A point in SGF letters.
    pub fn point_letters(p: Point) -> String {
        sgf(Move::Play(p))
    }

    /// Serializes a colour as its letter.
    pub fn color<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(color_letter(*c))
    }

    /// Serializes an optional colour as its letter or `null`.
    pub fn color_opt<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
        match c {
            Some(c) => s.serialize_str(color_letter(*c)),
            None => s.serialize_none(),
        }
    }

    /// Serializes a move in SGF letters.
    pub fn mv<S: Serializer>(m: &Move, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&sgf(*m))
    }

    /// Serializes moves in SGF letters.
    pub fn moves<S: Serializer>(ms: &[Move], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(ms.len()))?;
        for m in ms {
            seq.serialize_element(&sgf(*m))?;
        }
        seq.end()
    }

    /// Serializes a point in SGF letters.
    pub fn point<S: Serializer>(p: &Point, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&point_letters(*p))
    }

    /// Serializes an optional point in SGF letters or `null`.
    pub fn point_opt<S: Serializer>(p: &Option<Point>, s: S) -> Result<S::Ok, S::Error> {
        match p {
            Some(p) => s.serialize_str(&point_letters(*p)),
            None => s.serialize_none(),
        }
    }

    /// Serializes points in SGF letters.
    pub fn points<S: Serializer>(ps: &[Point], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(ps.len()))?;
        for p in ps {
            seq.serialize_element(&point_letters(*p))?;
        }
        seq.end()
    }
}

/// `GET /api/info`: what is served.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InfoAnswer {
    /// The index's name (its file, or the bundled sample).
    pub name: String,
    /// Its games.
    pub games: u32,
    /// kifudex's version.
    pub version: &'static str,
    /// The pattern scans so far: running, completed, cancelled, answered from the cache.
    pub scans: super::scan_cache::ScanCounts,
}

/// One class of next moves (`docs/JSON.md`, the search object).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NextClass {
    /// The move shown for the class, on the query's orientation.
    #[serde(rename = "move", serialize_with = "letters::mv")]
    pub mv: Move,
    /// Who played it.
    #[serde(serialize_with = "letters::color")]
    pub color: Color,
    /// Occurrences followed by a move of the class.
    pub count: u32,
    /// Every move of the class, sorted.
    #[serde(serialize_with = "letters::moves")]
    pub equivalent: Vec<Move>,
    /// Of those, from games Black won.
    pub black_wins: u32,
    /// Of those, from games White won.
    pub white_wins: u32,
}

/// The next moves of a position (`kifudex search`, `/api/search`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SearchAnswer {
    /// The position searched (for the text board).
    #[serde(skip)]
    pub board: Board,
    /// bGo's hash of the position (transform 0).
    pub hash: i64,
    /// bGo's hashes under transforms 0 to 7.
    pub hashes: [i64; 8],
    /// Occurrences followed by a move.
    pub total: u64,
    /// The classes, in search order.
    pub next: Vec<NextClass>,
    /// The named whole-board opening of the position (`docs/OPENINGS.md`), if any.
    pub opening: Option<OpeningName>,
    /// With `--by-rank`: the top next moves by the players' ranks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_rank: Option<RanksAnswer>,
}

/// A player's rank as game lists show it: on the project's scale (`30k` .. `1k`, `1d` ..
/// `9d`, `1p` .. `9p`) whatever form the record used (`P9段`, `9단`, `九段`, `7 dan`), as
/// written when it is not a rank of the scale (empty when absent).
pub fn shown_rank(written: &str) -> Cow<'_, str> {
    match crate::rank::Rank::parse(written) {
        Some(r) => Cow::Owned(r.to_string()),
        None => Cow::Borrowed(written),
    }
}

/// A named whole-board opening: `{"name": "Sanrensei"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpeningName {
    /// Its name, as the table writes it.
    pub name: &'static str,
}

/// One game of a list: its information and where the position or pattern was found in it
/// (`docs/JSON.md`, the games object). The games of a position have `orientation` and
/// `colors_swapped`, the games of a pattern `hits`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameEntry<'a> {
    /// The game's id (0 is the newest game).
    pub id: u32,
    /// `PB`.
    pub black: &'a str,
    /// `BR` on the project's scale (`9d`, `3k`, `2p`: [`shown_rank`]), as written when it is
    /// not a rank of the scale.
    pub black_rank: Cow<'a, str>,
    /// `PW`.
    pub white: &'a str,
    /// `WR`, as `black_rank`.
    pub white_rank: Cow<'a, str>,
    /// `DT`.
    pub date: &'a str,
    /// `EV`.
    pub event: &'a str,
    /// `RO`.
    pub round: &'a str,
    /// `PC`.
    pub place: &'a str,
    /// The result as a short text ([`result_text`]).
    pub result: String,
    /// Who won, if the record says.
    #[serde(serialize_with = "letters::color_opt")]
    pub winner: Option<Color>,
    /// `HA` (0 when absent).
    pub handicap: u8,
    /// `KM` in points.
    pub komi: Option<f64>,
    /// A position's game: the number (from 1) of the move played from the position. A
    /// pattern's game: the moves played before its first hit.
    pub move_number: u32,
    /// A position's game: the transform to the position's canonical orientation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub orientation: Option<usize>,
    /// A pattern's game: its hits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hits: Option<u32>,
    /// The moves of its main line that the index holds.
    pub moves: u32,
    /// The record's file.
    pub file: &'a str,
    /// The archive member, or empty.
    pub member: &'a str,
    /// The game tree's number in the file.
    pub tree: u64,
    /// A position's game: whether it reached the colour-exchanged position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colors_swapped: Option<bool>,
}

impl<'a> GameEntry<'a> {
    /// Game `g` found at `move_number`; where it was found is left for the caller to set.
    pub fn new(g: &Game<'a>, move_number: u32) -> GameEntry<'a> {
        GameEntry {
            id: g.id,
            black: g.black,
            black_rank: shown_rank(g.black_rank),
            white: g.white,
            white_rank: shown_rank(g.white_rank),
            date: g.date,
            event: g.event,
            round: g.round,
            place: g.place,
            result: result_text(g),
            winner: g.winner,
            handicap: g.handicap,
            komi: g.komi.map(|k| k as f64 / 100.0),
            move_number,
            orientation: None,
            hits: None,
            moves: g.move_count,
            file: g.path,
            member: g.member,
            tree: g.tree,
            colors_swapped: None,
        }
    }
}

/// A page of games (`kifudex games`, `/api/games`, `/api/pattern/games`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GamesAnswer<'a> {
    /// Games that match in all (before the page).
    pub matching: usize,
    /// The page.
    pub games: Vec<GameEntry<'a>>,
}

/// A move with the stones it captured (and, in a record, the setup of its node).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayedEntry {
    /// Who played.
    #[serde(serialize_with = "letters::color")]
    pub color: Color,
    /// What.
    #[serde(rename = "move", serialize_with = "letters::mv")]
    pub mv: Move,
    /// The stones it removed.
    #[serde(serialize_with = "letters::points")]
    pub captures: Vec<Point>,
    /// Setup in the move's node, placed before it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<SetupEntry>,
}

/// The prisoners each side took.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Captured {
    /// By Black.
    #[serde(rename = "B")]
    pub black: usize,
    /// By White.
    #[serde(rename = "W")]
    pub white: usize,
}

/// A position set up and played (`/api/position`): the page learns every position here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionAnswer {
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// Who is to move.
    #[serde(serialize_with = "letters::color")]
    pub to_move: Color,
    /// Black stones.
    #[serde(serialize_with = "letters::points")]
    pub black: Vec<Point>,
    /// White stones.
    #[serde(serialize_with = "letters::points")]
    pub white: Vec<Point>,
    /// Where the side to move may not play (ko), if anywhere.
    #[serde(serialize_with = "letters::point_opt")]
    pub ko: Option<Point>,
    /// The moves, each with its captures.
    pub moves: Vec<PlayedEntry>,
    /// Prisoners.
    pub captured: Captured,
    /// bGo's hash (transform 0).
    pub hash: i64,
}

/// A top next move followed through the years.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TopMove {
    /// The class's move.
    #[serde(rename = "move", serialize_with = "letters::mv")]
    pub mv: Move,
    /// Its colour.
    #[serde(serialize_with = "letters::color")]
    pub color: Color,
    /// Its count over all years.
    pub count: u32,
}

/// The next moves of a range of years.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct YearBin {
    /// First year.
    pub from: u32,
    /// Last year.
    pub to: u32,
    /// Next moves in those years.
    pub total: u64,
    /// Of each top move.
    pub counts: Vec<u32>,
}

/// `/api/years`: the popularity of the top next moves, year by year.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct YearsAnswer {
    /// All next moves.
    pub total: u64,
    /// The moves followed.
    pub top: Vec<TopMove>,
    /// The ranges of years.
    pub bins: Vec<YearBin>,
    /// Next moves from games without a date.
    pub unknown_year: u64,
}

/// `/api/ranks`, `search --by-rank`: the popularity of the top next moves by the players'
/// ranks, from kyu to dan to professional.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RanksAnswer {
    /// All next moves (of the games the filter keeps).
    pub total: u64,
    /// The moves followed.
    pub top: Vec<TopMove>,
    /// The rank ranges, weakest first, then `mixed` and `unknown`.
    pub bins: Vec<RankBin>,
}

/// The next moves of the games whose players' ranks fall in one range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RankBin {
    /// The range in words: `30k-10k`, ..., `1p-9p`; `mixed` (the two players in different
    /// ranges), `unknown` (a rank that cannot be read).
    pub ranks: &'static str,
    /// Its weakest rank (`null` for `mixed` and `unknown`).
    pub min: Option<String>,
    /// Its strongest rank.
    pub max: Option<String>,
    /// Next moves of those games.
    pub total: u64,
    /// Of each top move.
    pub counts: Vec<u32>,
}

/// Setup stones: `{"B": [...], "W": [...]}` (and `"E"` for emptied points, if any).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SetupEntry {
    /// Black stones.
    #[serde(rename = "B", serialize_with = "letters::points")]
    pub black: Vec<Point>,
    /// White stones.
    #[serde(rename = "W", serialize_with = "letters::points")]
    pub white: Vec<Point>,
    /// Emptied points.
    #[serde(
        rename = "E",
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "letters::points"
    )]
    pub empty: Vec<Point>,
}

/// The game-information properties as SGF names them (only those given).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[allow(missing_docs)]
pub struct InfoEntry {
    #[serde(rename = "PB", skip_serializing_if = "Option::is_none")]
    pub black: Option<String>,
    #[serde(rename = "BR", skip_serializing_if = "Option::is_none")]
    pub black_rank: Option<String>,
    #[serde(rename = "PW", skip_serializing_if = "Option::is_none")]
    pub white: Option<String>,
    #[serde(rename = "WR", skip_serializing_if = "Option::is_none")]
    pub white_rank: Option<String>,
    #[serde(rename = "DT", skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(rename = "EV", skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    #[serde(rename = "RO", skip_serializing_if = "Option::is_none")]
    pub round: Option<String>,
    #[serde(rename = "PC", skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
    #[serde(rename = "RE", skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    #[serde(rename = "KM", skip_serializing_if = "Option::is_none")]
    pub komi: Option<String>,
    #[serde(rename = "HA", skip_serializing_if = "Option::is_none")]
    pub handicap: Option<String>,
    #[serde(rename = "RU", skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    #[serde(rename = "GN", skip_serializing_if = "Option::is_none")]
    pub game_name: Option<String>,
    #[serde(rename = "SZ")]
    pub size: String,
}

/// A record for the replay board (`kifudex game ID`, `/api/game/ID`, `/api/sgf`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecordAnswer {
    /// The stored game's id (`null` for a pasted record).
    pub id: Option<u32>,
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// The game-information properties.
    pub info: InfoEntry,
    /// The setup before the first move.
    pub setup: SetupEntry,
    /// The main line.
    pub moves: Vec<PlayedEntry>,
    /// Setup after the last move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_setup: Option<SetupEntry>,
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

/// A move and its colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ColoredMove {
    /// Who.
    #[serde(serialize_with = "letters::color")]
    pub color: Color,
    /// What.
    #[serde(rename = "move", serialize_with = "letters::mv")]
    pub mv: Move,
}

/// A stored game at one of its positions (the shell's replay).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameView<'a> {
    /// The game, `move_number` the move played from this position (as in a position's
    /// game list).
    pub game: GameEntry<'a>,
    /// Moves played.
    pub at: u32,
    /// The game's moves.
    pub moves: u32,
    /// The position after `at` moves.
    #[serde(skip)]
    pub board: Board,
    /// The move that led to it.
    pub last: Option<ColoredMove>,
    /// The move played from it.
    pub next: Option<ColoredMove>,
}

/// One of the predictor's guesses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Guessed {
    /// Where.
    #[serde(rename = "move", serialize_with = "letters::point")]
    pub point: Point,
    /// The model's log-strength.
    pub score: i32,
}

/// `/api/predict`: the predictor's guesses for the side to move, best first, as the hint
/// handler ranks them for a `guess` reply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PredictAnswer {
    /// Who is to move.
    #[serde(serialize_with = "letters::color")]
    pub to_move: Color,
    /// The guesses.
    pub predicted: Vec<Guessed>,
}

/// One legal move ranked by the predictor, with its probability.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Suggested {
    /// Where.
    #[serde(rename = "move", serialize_with = "letters::point")]
    pub point: Point,
    /// The model's probability that it is the move played.
    pub probability: f64,
    /// Its log-strength.
    pub score: i32,
}

/// The predictor's ranking of a position's legal moves (the shell's `predict`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Suggestions {
    /// Who is to move.
    #[serde(serialize_with = "letters::color")]
    pub to_move: Color,
    /// The games the predictor learnt from.
    pub learnt_from: u32,
    /// The position's board size (for coordinates).
    #[serde(skip)]
    pub size: kifudex_core::Size,
    /// The moves, best first.
    pub moves: Vec<Suggested>,
}

/// One class of continuations of a pattern (`docs/JSON.md`, the pattern object).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ContinuationEntry {
    /// The cell shown for the class (the pattern's grid).
    #[serde(rename = "move", serialize_with = "letters::point")]
    pub cell: Point,
    /// Every cell of the class.
    #[serde(serialize_with = "letters::points")]
    pub equivalent: Vec<Point>,
    /// Its colour as the pattern sees it.
    #[serde(serialize_with = "letters::color")]
    pub color: Color,
    /// Continuations of the class.
    pub count: u64,
    /// Of those, played right after the hit's position.
    pub immediate: u64,
    /// Of those, played later.
    pub tenuki: u64,
    /// Of those, from games Black won.
    pub black_wins: u64,
    /// Of those, from games White won.
    pub white_wins: u64,
    /// With the date profile: its count by the games' year (0: unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_year: Option<BTreeMap<u16, u64>>,
}

/// One year of a pattern's date profile.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct YearTotals {
    /// Games with a hit.
    pub games: u64,
    /// Hits.
    pub hits: u64,
    /// Continuations.
    pub continuations: u64,
}

/// A pattern's hits and continuations (`kifudex pattern`, `/api/pattern`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PatternAnswer {
    /// The pattern searched (for the text drawing).
    #[serde(skip)]
    pub pattern: Pattern,
    /// Its area.
    #[serde(skip)]
    pub area: Area,
    /// Whether colours were searched only as given.
    #[serde(skip)]
    pub fixed_color: bool,
    /// Games with at least one hit.
    pub games: u64,
    /// All hits.
    pub hits: u64,
    /// The classes of continuations, in search order.
    pub continuations: Vec<ContinuationEntry>,
    /// With the date profile (and hits): each year's totals (0: unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub years: Option<BTreeMap<u16, YearTotals>>,
}

/// How far a running pattern scan has come (`/api/pattern/stream`'s progress lines).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PatternProgress {
    /// Games scanned.
    pub scanned: u64,
    /// Games to scan in all.
    pub total: u64,
    /// Games with a hit so far.
    pub games: u64,
    /// Hits so far.
    pub hits: u64,
    /// The classes of continuations so far, in search order (no date profile).
    pub continuations: Vec<ContinuationEntry>,
}

/// A hit's continuation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HitContinuation {
    /// Its cell in the pattern's grid.
    #[serde(rename = "move", serialize_with = "letters::point")]
    pub cell: Point,
    /// Its colour as the pattern sees it.
    #[serde(serialize_with = "letters::color")]
    pub color: Color,
    /// Its move number (1-based).
    pub move_number: u32,
    /// Whether it is the move right after the hit.
    pub immediate: bool,
}

/// One hit with its game's information (`None` where the game is missing).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[allow(missing_docs)]
pub struct HitEntry<'a> {
    /// The game's id.
    pub game: u32,
    /// Moves played before the hit's position.
    pub move_number: u32,
    /// `[left, top, right, bottom]` on the board.
    pub region: [u8; 4],
    /// The match's transform.
    pub transform: Option<usize>,
    /// Whether the match exchanged colours.
    pub colors_exchanged: Option<bool>,
    /// The first later move in the region.
    pub continuation: Option<HitContinuation>,
    pub black: Option<&'a str>,
    pub black_rank: Option<Cow<'a, str>>,
    pub white: Option<&'a str>,
    pub white_rank: Option<Cow<'a, str>>,
    pub date: Option<&'a str>,
    pub event: Option<&'a str>,
    pub result: Option<String>,
    pub file: Option<&'a str>,
    pub member: Option<&'a str>,
    pub tree: Option<u64>,
}

/// A page of a pattern's hits (`kifudex pattern --hits`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HitsAnswer<'a> {
    /// Games with at least one hit.
    pub games: u64,
    /// All hits.
    pub hits: u64,
    /// The page of hits, in game and position order.
    pub list: Vec<HitEntry<'a>>,
}

/// Where a pattern search's time went (`kifudex pattern --timings`), for standard error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternTimings {
    /// Each search's wall time, sorted.
    pub searches: Vec<std::time::Duration>,
    /// The CPU time of all threads over all searches, where the system tells it.
    pub cpu: Option<std::time::Duration>,
    /// The compiled query's variants.
    pub variants: usize,
    /// Worker threads.
    pub threads: usize,
    /// The index's games.
    pub games: u32,
    /// The pattern sections' bytes: blocks, removals, their starts, corner boxes.
    pub sections: [u64; 4],
    /// Stones removed, as the removals section counts them.
    pub removed_stones: u64,
}

/// A refused request as the web API answers it: `{"error": "<reason>"}`, and for an illegal
/// move of a position where and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// The reason, one line.
    pub error: String,
    /// For an illegal move.
    #[serde(flatten)]
    pub illegal: Option<IllegalMove>,
}

/// Where a position's move is illegal, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IllegalMove {
    /// 1-based.
    pub move_number: usize,
    /// The move as given.
    #[serde(rename = "move")]
    pub mv: String,
    /// `B` or `W`.
    pub color: &'static str,
    /// Why (`occupied`, `suicide`, `ko`, `off-board`).
    pub reason: &'static str,
}

/// One pattern of a shape, seen by the player to move (`kifudex shapes`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShapeRow {
    /// Its rows: `X` the player to move, `O` the opponent, `*` the move, `#` off the board.
    pub rows: Vec<String>,
    /// The board size it was seen on (`19x19`).
    pub size: String,
    /// Moves played at its centre.
    pub played: u64,
    /// Empty points where it stood before a move, for the player to move.
    pub available: u64,
    /// Its stones.
    pub stones: u32,
}

/// The most played patterns of one shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShapeTable {
    /// The shape (`3x3`, `diamond`, `5x5`).
    pub shape: &'static str,
    /// Distinct patterns played.
    pub distinct: usize,
    /// The most played, most first.
    pub top: Vec<ShapeRow>,
}

/// One opening sequence, in its canonical orientation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpeningRow {
    /// The board size (`19x19`).
    pub size: String,
    /// The setup stones before the first move.
    pub setup: SetupEntry,
    /// The moves.
    pub moves: Vec<ColoredMove>,
    /// The opening as SGF nodes (`AB[dd][pp];W[pd];B[dp]...`).
    pub sgf: String,
    /// The named whole-board opening the sequence passes through (the last it reaches).
    pub name: Option<&'static str>,
    /// Games that opened so (in any orientation).
    pub count: u64,
}

/// The most frequent openings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Openings {
    /// Moves of a sequence.
    pub moves: usize,
    /// Games with at least that many moves.
    pub games: u64,
    /// Distinct sequences.
    pub distinct: usize,
    /// The most frequent, most first.
    pub top: Vec<OpeningRow>,
}

/// Local shape statistics of the games (`kifudex shapes`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShapesAnswer {
    /// Games read.
    pub games: usize,
    /// Played moves counted.
    pub moves: u64,
    /// Per shape.
    pub patterns: Vec<ShapeTable>,
    /// The openings.
    pub openings: Openings,
}

/// How well the predictor guessed the moves of one range of move numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GuessRate {
    /// Positions tested.
    pub positions: u64,
    /// The played move was the first guess.
    pub top1: u64,
    /// The played move was among the first five.
    pub top5: u64,
    /// Positions where the predictor named a move.
    pub covered: u64,
    /// The move numbers (`0-20`; `0-150` for all).
    pub moves: String,
}

/// The size of the predictor's table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableSize {
    /// Patterns stored.
    pub patterns: usize,
    /// Bytes.
    pub bytes: u64,
}

/// The predictor learnt from some games and measured on the others (`kifudex predict
/// --eval`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EvaluationAnswer {
    /// Training games.
    pub train_games: usize,
    /// Test games.
    pub test_games: usize,
    /// The table as a book holds it.
    pub table: TableSize,
    /// With the last two moves known, by move range, then all.
    pub moves: Vec<GuessRate>,
    /// As board snapshots, by move range, then all.
    pub snapshots: Vec<GuessRate>,
}

/// How good the hints of tracked games are (`kifudex predict --eval --streams`): the
/// replies to noisy snapshot streams of test games beside the same positions sent as plain
/// snapshots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StreamsAnswer {
    /// The book, the games, the snapshots and their noise.
    #[serde(flatten)]
    pub counts: StreamCounts,
    /// The tracked streams, by move range, then all.
    pub tracked: Vec<GuessRate>,
    /// The same positions as plain snapshots, by move range, then all.
    pub snapshots_alone: Vec<GuessRate>,
}
