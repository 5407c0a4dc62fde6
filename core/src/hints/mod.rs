//! The hint protocol (`docs/HINTS.md`): requests read line by line from a byte
//! stream, answered from a microcontroller [`Book`](crate::book::Book) with one reply line each. The same code
//! serves `kifudex hints` on the desktop (standard input and output) and the firmware (its
//! UART), so both answer with the same bytes.
//!
//! **Requests**, one per line, ASCII, ended by `\n` (a `\r` before it is ignored):
//!
//! - `moves pd,dp,pp`: the 19x19 position after these moves, as `kifudex search --moves`
//!   reads them (Black first, colours alternating, captures, suicide forbidden, simple ko);
//!   `moves` alone is the empty board.
//! - `board N <cells> [B|W]`: an `N` x `N` snapshot from the board's sensors, the `N * N`
//!   cells row by row from the top: `.` empty, `X` black, `O` white; then, optionally, the
//!   side to move (by default Black when both colours have as many stones, else White).
//! - `quit`: no reply; [`Hints::serve`] returns [`End::Quit`].
//!
//! Words are separated by spaces or tabs; leading and trailing spaces and tabs are ignored.
//! A line holds at most [`MAX_LINE`] bytes before its `\n`; a longer line is read to its
//! `\n`, dropped, and answered `error bad-request`. At the end of the input an unfinished
//! last line is answered like a finished one, then [`Hints::serve`] returns [`End::Eof`].
//!
//! **Replies**, one line each, ended by `\n`:
//!
//! - `hints <hash> <total> <move>:<color>:<count> ...`: the bGo hash of the position
//!   (transform 0), the sum of all next-move counts, then at most [`MAX_HINTS`] classes in
//!   `kifudex search` order (count, highest first; Black first; `y * 19 + x`; a pass last),
//!   `move` in SGF letters or `pass`, `color` `B` or `W`. A position that is not in the book
//!   is `hints <hash> 0`.
//! - `guess <hash> <move>:<color> ...`: for a book with a move predictor
//!   ([`crate::predict`]), when the book holds no next move of the side to move: 1 to
//!   [`MAX_GUESSES`](crate::predict::MAX_GUESSES) distinct legal moves of the side to move,
//!   best first (moves that the position's symmetry makes equivalent are one, shown as
//!   `hints` shows a class); `hints <hash> 0` if the side to move has no legal move.
//! - `error <reason>`, the reason one of these stable words:
//!
//! | reason | when |
//! |---|---|
//! | `bad-request` | an unknown or empty request, a malformed move list or cell list, a wrong count of cells, an overlong line, bytes that are not ASCII text |
//! | `illegal-move` | a move of `moves` that is not legal in its position (occupied, suicide, ko, off the board) |
//! | `unsupported-size` | `board N` with `N` outside `1..=19`, or a size the book holds no positions of |
//! | `no-liberties` | a `board` snapshot with a group without liberties (captured stones not yet lifted) |
//! | `impossible-count` | a `board` snapshot with a stone on every point (no legal position has as many) |
//! | `bad-book` | the book failed validation ([`Book::open`](crate::book::Book::open)); every request gets this reply |
//! | `unsupported-book` | the book is valid but a position may hold more next moves (its `max_run`) than this handler's capacity `N`; every request gets this reply |
//! | `too-many-classes` | a position yields more classes than `N` (cannot happen with a book accepted at start) |
//!
//! Without a usable book every request but `quit` gets the book's error, whatever the
//! request.
//!
//! **LEDs.** Every reply also lights the board: a [`LedFrame`] holding the points of the
//! replied classes (passes have no LED) with a brightness by count, or of the guesses
//! (marked as guesses) with a brightness by their predicted strength, or an empty frame
//! after an error, goes to a [`Leds`] implementation.

use core::fmt;

use crate::query::QueryError;
use crate::search::SearchError;

mod handler;
mod leds;
mod lines;
mod reply;
mod request;

pub use handler::{BookProblem, End, Hints, Output, ServeError, Workspace};
pub use leds::{FixFrame, LedFrame, LedPoint, Leds, NoLeds};
pub use lines::{Line, LineReader};
pub use reply::Reply;
pub use request::{parse_request, Request, MAX_HANDICAP, MIN_HANDICAP};

/// The most bytes of a request line before its `\n` (a `\r` included).
pub const MAX_LINE: usize = 1024;

/// The most classes in a `hints` reply (and points in an LED frame).
pub const MAX_HINTS: usize = 10;

/// The class capacity `N` of `kifudex hints` and of the example firmware, so that both
/// accept the same books (`max_run` at most 256; `kifudex build --max-next` caps it).
pub const CAPACITY: usize = 256;

/// The handler of `kifudex hints` and of the example firmware.
pub type StandardHints<'a> = Hints<'a, CAPACITY>;

/// The longest `hints` line, `\n` included: `hints`, a 64-bit hash, a 64-bit total and
/// [`MAX_HINTS`] classes of at most `pass:B:4294967295`.
pub const MAX_HINTS_REPLY: usize = 6 + 21 + 21 + MAX_HINTS * 18 + 1;

/// The longest `fix` line, `\n` included: `fix`, the longest condition word
/// (`illegal-move`) and every point of a 19x19 board, comma-separated.
pub const MAX_FIX_REPLY: usize = 4 + 12 + 1 + crate::point::MAX_POINTS * 3;

/// The longest reply line the handler formats in its buffer, `\n` included (`game`, longer,
/// is written in pieces: at most [`MAX_GAME_REPLY`]).
pub const MAX_REPLY: usize = if MAX_FIX_REPLY > MAX_HINTS_REPLY {
    MAX_FIX_REPLY
} else {
    MAX_HINTS_REPLY
};

/// The longest `game` line, `\n` included: the root with every point but one set up, then
/// [`MAX_MOVES`](crate::track::MAX_MOVES) moves of 6 bytes.
pub const MAX_GAME_REPLY: usize =
    18 + 4 + (crate::point::MAX_POINTS - 1) * 4 + 5 + crate::track::MAX_MOVES * 6 + 2;

/// Why a request has an `error` reply (see the module documentation for each word).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Reason {
    /// The request is malformed (also an overlong line).
    BadRequest,
    /// A move is illegal.
    IllegalMove,
    /// The board size is not 1 to 19.
    UnsupportedSize,
    /// The book failed validation.
    BadBook,
    /// The book's positions may hold more next moves than the handler's capacity.
    UnsupportedBook,
    /// More classes than the handler's capacity.
    TooManyClasses,
    /// A snapshot holds a group without liberties (captured stones not yet lifted).
    NoLiberties,
    /// A snapshot holds a stone on every point: no game reaches that count.
    ImpossibleCount,
}

impl Reason {
    /// The word of the `error` reply.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::BadRequest => "bad-request",
            Reason::IllegalMove => "illegal-move",
            Reason::UnsupportedSize => "unsupported-size",
            Reason::BadBook => "bad-book",
            Reason::UnsupportedBook => "unsupported-book",
            Reason::TooManyClasses => "too-many-classes",
            Reason::NoLiberties => "no-liberties",
            Reason::ImpossibleCount => "impossible-count",
        }
    }
}

impl From<QueryError> for Reason {
    fn from(e: QueryError) -> Self {
        match e {
            QueryError::BadRequest => Reason::BadRequest,
            QueryError::IllegalMove(_) => Reason::IllegalMove,
            QueryError::UnsupportedSize => Reason::UnsupportedSize,
        }
    }
}

impl From<SearchError> for Reason {
    fn from(e: SearchError) -> Self {
        match e {
            SearchError::TooManyClasses => Reason::TooManyClasses,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
