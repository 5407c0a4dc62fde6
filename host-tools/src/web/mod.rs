//! kifudex's web board (`kifudex serve`): an HTTP server for the search board, the game
//! list and the replay board in the browser, over a JSON API.
//!
//! This module knows HTTP, not Go: the page and its assets (embedded in the binary), the
//! routes, the parameters' syntax ([`request`]) and the limits every request is held to
//! ([`Limits`]). What the answers hold comes from a [`Backend`], which the `kifudex` library
//! implements over an index with the same functions as its command line, so that
//! `/api/search` and `kifudex search --json` print one and the same object.
//!
//! The server is read-only, serves only its embedded assets and the API, answers a bad
//! request with a 4xx status and `{"error": "..."}`, and listens on loopback unless told
//! otherwise ([`is_loopback`]).
#![forbid(unsafe_code)]

mod assets;
mod line_limit;
pub mod request;
mod server;

use serde_json::{Map, Value};

pub use request::{
    Filter, GamesRequest, PatternGamesRequest, PatternSearch, Position, SearchRequest, Side, Sort,
    SortKey, YearsRequest,
};
pub use server::{is_loopback, router, Limits, RunningServer, Server};

/// What the API answers with: the `kifudex` library implements it over an index.
///
/// Each method is called on a blocking thread (the answers are computed, not awaited) and
/// returns the answer's JSON text (the SGF text for [`Backend::game_sgf`]) or an
/// [`ApiError`]; none may panic on any input.
pub trait Backend: Send + Sync + 'static {
    /// `GET /api/info`: what is served (the index's name and game count).
    fn info(&self) -> String;

    /// `GET /api/position`: the position itself, as the core's rules make it: the stones
    /// after the setup and moves, each move's captures, the side to move, the ko point.
    /// An illegal move is an error naming its number, the move and the reason. The page
    /// learns every position from here: it has no rules of its own.
    fn position(&self, q: &Position) -> Result<String, ApiError>;

    /// `GET /api/search`: the object `kifudex search --json` prints for the same query.
    fn search(&self, q: &SearchRequest) -> Result<String, ApiError>;

    /// `GET /api/games`: the object `kifudex games --json` prints for the same query.
    fn games(&self, q: &GamesRequest) -> Result<String, ApiError>;

    /// `GET /api/years`: the top next moves' counts year by year.
    fn years(&self, q: &YearsRequest) -> Result<String, ApiError>;

    /// `GET /api/game/ID`: one stored game (information, setup, moves with their captures).
    fn game(&self, id: u32) -> Result<String, ApiError>;

    /// `GET /api/game/ID.sgf`: one stored game as SGF.
    fn game_sgf(&self, id: u32) -> Result<String, ApiError>;

    /// `GET /api/pattern`: the object `kifudex pattern --json` prints for the same query
    /// (with `by_year`, as `--by-year` prints it).
    fn pattern(&self, q: &PatternSearch) -> Result<String, ApiError>;

    /// `GET /api/pattern/games`: the object `kifudex games --pattern --json` prints.
    fn pattern_games(&self, q: &PatternGamesRequest) -> Result<String, ApiError>;

    /// `GET /api/predict`: the move predictor's guesses for the side to move in the
    /// position (for positions the index has no next move for), as `kifudex hints` answers
    /// `guess` from a book with a predictor; a 404 when the server has no predictor.
    fn predict(&self, q: &Position) -> Result<String, ApiError>;

    /// `GET /api/sgf?sgf=TEXT`: a game record pasted or dropped on the page, read with the
    /// project's SGF reader: its first game, in the shape of [`Backend::game`].
    fn sgf(&self, text: &str) -> Result<String, ApiError>;
}

/// The kind of a refused request, which gives its HTTP status.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// 400: a malformed or impossible request (a bad parameter, an illegal move).
    BadRequest,
    /// 404: nothing there (an unknown path, a game id past the last game).
    NotFound,
    /// 405: a method other than GET or HEAD.
    MethodNotAllowed,
    /// 413: a request with a body.
    PayloadTooLarge,
    /// 414: a request line longer than [`Limits::max_uri`].
    UriTooLong,
    /// 503: the answer took longer than [`Limits::request_timeout`].
    Timeout,
    /// 500: a bug (a backend call that panicked); no input is meant to get here.
    Internal,
}

impl ErrorKind {
    /// The HTTP status code.
    pub fn status(self) -> u16 {
        match self {
            ErrorKind::BadRequest => 400,
            ErrorKind::NotFound => 404,
            ErrorKind::MethodNotAllowed => 405,
            ErrorKind::PayloadTooLarge => 413,
            ErrorKind::UriTooLong => 414,
            ErrorKind::Timeout => 503,
            ErrorKind::Internal => 500,
        }
    }
}

/// A refused request: its kind, a message for the user, and optional extra fields for the
/// page (an illegal move's number and reason). Answered as
/// `{"error": message, ...fields}`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    /// What kind of refusal (the status).
    pub kind: ErrorKind,
    /// The reason, one line.
    pub message: String,
    /// More fields of the answer's object.
    pub fields: Map<String, Value>,
}

impl ApiError {
    /// A refusal of `kind`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> ApiError {
        ApiError {
            kind,
            message: message.into(),
            fields: Map::new(),
        }
    }

    /// A 400.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::BadRequest, message)
    }

    /// A 404.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::NotFound, message)
    }

    /// Adds a field to the answer's object.
    pub fn with(mut self, name: &str, value: impl Into<Value>) -> ApiError {
        self.fields.insert(name.to_owned(), value.into());
        self
    }

    /// The answer's object: `{"error": message, ...fields}`.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("error".into(), Value::String(self.message.clone()));
        for (k, v) in &self.fields {
            m.insert(k.clone(), v.clone());
        }
        Value::Object(m)
    }
}
