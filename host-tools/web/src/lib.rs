//! kifudex's web board (`kifudex serve`): an HTTP server for the search board, the game
//! list and the replay board in the browser, over a JSON API.
//!
//! This module knows HTTP, not Go: the page and its assets (embedded in the binary), the
//! routes, the parameters' syntax ([`query_string`]: query strings read into the explorer's
//! requests) and the limits every request is held to ([`Limits`]). Every answer comes from
//! the explorer ([`crate::explore::Explorer`]), printed by the JSON printer, the same calls
//! as the command line's, so that `/api/search` and `kifudex search --json` print one and
//! the same object.
//!
//! The server is read-only, serves only its embedded assets and the API, answers a bad
//! request with a 4xx status and `{"error": "..."}`, and listens on loopback unless told
//! otherwise ([`is_loopback`]).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod assets;
mod line_limit;
pub mod query_string;
mod scan_slots;
mod server;

// The modules of the crates below, under their own names (`crate::explore`, `crate::print`,
// `crate::position`).
use kifudex_explore::{explore, print};
use kifudex_records::position;

use crate::explore::answer::Refusal;
use crate::explore::ExploreError;

pub use server::{is_loopback, router, Limits, RunningServer, Server, Shared};

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
    /// 431: header lines longer than [`Limits::max_headers`] in all.
    HeadersTooLarge,
    /// 503: the answer took longer than [`Limits::request_timeout`].
    Timeout,
    /// 503 with `Retry-After`: [`Limits::max_scans`] pattern scans are running already.
    Busy,
    /// 500: a bug (an answer that panicked); no input is meant to get here.
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
            ErrorKind::HeadersTooLarge => 431,
            ErrorKind::Timeout | ErrorKind::Busy => 503,
            ErrorKind::Internal => 500,
        }
    }
}

/// A refused request: its kind and its answer, `{"error": message}` (with an illegal
/// move's number, move, colour and reason).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", answer.error)]
pub struct ApiError {
    /// What kind of refusal (the status).
    pub kind: ErrorKind,
    /// The answer's object.
    pub answer: Refusal,
}

impl ApiError {
    /// A refusal of `kind`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> ApiError {
        ApiError {
            kind,
            answer: Refusal {
                error: message.into(),
                illegal: None,
            },
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

    /// The reason, one line.
    pub fn message(&self) -> &str {
        &self.answer.error
    }

    /// The answer's JSON text.
    pub fn to_json(&self) -> String {
        crate::print::json::to_line(&self.answer)
    }
}

/// The explorer's refusals: a 404 for what is not there (with how to give the server a
/// predictor), else a 400.
impl From<ExploreError> for ApiError {
    fn from(e: ExploreError) -> ApiError {
        match e {
            ExploreError::NoPredictor => ApiError::not_found(
                "no move predictor (kifudex serve --book BOOK, a book built with --predictor)",
            ),
            e if e.is_not_found() => ApiError {
                kind: ErrorKind::NotFound,
                answer: e.refusal(),
            },
            e => ApiError {
                kind: ErrorKind::BadRequest,
                answer: e.refusal(),
            },
        }
    }
}
