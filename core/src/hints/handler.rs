//! The request handler ([`Hints`]): a book, the working memory of one request
//! ([`Workspace`]), and the loop over a byte stream ([`Hints::serve`]).

use core::fmt;

use embedded_io::{Read, Write};

use crate::board::{Board, Rules, StonesOnly};
use crate::book::Book;
use crate::format::FormatError;
use crate::point::{Color, Size};
use crate::predict::features::default_to_move;
use crate::predict::{best, Analysis, Guess, History, MAX_GUESSES};
use crate::query::{play_moves_recent, set_cells};
use crate::search::{next_moves_into, Lookup, NextMoves};

use super::{parse_request, LedFrame, Leds, Line, LineReader, Reason, Reply, Request};

/// Why the book cannot answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum BookProblem {
    /// [`Book::open`] failed.
    Format(FormatError),
    /// The book's `max_run` exceeds the handler's class capacity.
    TooManyMoves {
        /// The book's `max_run`.
        max_run: u32,
        /// The handler's capacity `N`.
        capacity: usize,
    },
}

impl BookProblem {
    /// The reason replied to every request.
    pub const fn reason(self) -> Reason {
        match self {
            BookProblem::Format(_) => Reason::BadBook,
            BookProblem::TooManyMoves { .. } => Reason::UnsupportedBook,
        }
    }
}

impl fmt::Display for BookProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookProblem::Format(e) => write!(f, "bad book: {e}"),
            BookProblem::TooManyMoves { max_run, capacity } => write!(
                f,
                "book positions hold up to {max_run} next moves, more than the {capacity} this handler holds"
            ),
        }
    }
}

/// How [`Hints::serve`] ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum End {
    /// A `quit` request.
    Quit,
    /// The end of the input.
    Eof,
}

/// A read or write error of [`Hints::serve`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ServeError<R, W> {
    /// Reading requests failed.
    Read(R),
    /// Writing a reply failed.
    Write(W),
}

/// The request handler: a book (or why there is none) and a class capacity `N`.
///
/// `N` bounds the classes of one position held on the stack (`NextMoves<N>`, about 20
/// bytes each). A position's classes never outnumber its stored next moves, so a book
/// whose `max_run` is at most `N` is always answered completely; a book with a larger
/// `max_run` is refused at [`Hints::new`] (`error unsupported-book`).
/// [`crate::search::MAX_CLASSES`] accepts every book.
#[derive(Clone, Debug)]
pub struct Hints<'a, const N: usize> {
    book: Result<Book<'a>, BookProblem>,
}

impl<'a, const N: usize> Hints<'a, N> {
    /// A handler for a book as [`Book::open`] returned it.
    pub fn new(book: Result<Book<'a>, FormatError>) -> Self {
        let book = match book {
            Ok(b) if b.header().max_run as usize > N => Err(BookProblem::TooManyMoves {
                max_run: b.header().max_run,
                capacity: N,
            }),
            Ok(b) => Ok(b),
            Err(e) => Err(BookProblem::Format(e)),
        };
        Hints { book }
    }

    /// The book, or why it cannot answer.
    pub fn book(&self) -> Result<&Book<'a>, BookProblem> {
        self.book.as_ref().map_err(|e| *e)
    }

    /// Answers a position request into `ws`: the position's book classes (`ws.next`) or,
    /// when the book holds no next move of the side to move and it has a predictor, the
    /// predictor's guesses (`ws.guesses`).
    fn answer(&self, request: &Request<'_>, ws: &mut Workspace<N>) -> Result<Answer, Reason> {
        let book = self.book.as_ref().map_err(|e| e.reason())?;
        let board = &mut ws.board;
        // Set up in place (no copies of the board), as `position_after` and
        // `position_from_cells` do, on a board of stones only: the keys of the one
        // position asked for are computed once, at the end.
        let (to_move, history) = match *request {
            Request::Moves(moves) => {
                *board = Board::empty(Size::STANDARD, Rules::default());
                let (to_move, recent) = play_moves_recent(board, moves)?;
                let history = History {
                    last: recent[0],
                    before: recent[1],
                };
                (to_move, history)
            }
            Request::Board {
                size,
                cells,
                to_move,
            } => {
                *board = Board::empty(size, Rules::RECORD);
                set_cells(board, cells)?;
                check_snapshot(board)?;
                (
                    to_move.unwrap_or_else(|| default_to_move(board)),
                    History::default(),
                )
            }
            Request::Quit => return Err(Reason::BadRequest),
        };
        if !book.header().has_size(board.size()) {
            return Err(Reason::UnsupportedSize);
        }
        let key = board.position_key();
        next_moves_into(
            book,
            &Lookup::of_position_key(board, &key),
            None,
            &mut ws.next,
        )?;
        let Some(predictor) = book.predictor() else {
            return Ok(Answer::Hints(key.bgo));
        };
        if ws.next.classes().iter().any(|c| c.color == to_move) {
            return Ok(Answer::Hints(key.bgo));
        }
        ws.analysis.reset(board, to_move, history);
        ws.guesses = best(&ws.analysis, predictor, ws.next.symmetries());
        Ok(Answer::Guess(key.bgo, to_move))
    }

    /// Answers one request line (without its `\n`): formats the reply in `ws` and shows its
    /// LED frame. Returns the reply line (`\n` included), or `None` for `quit`.
    pub fn reply<'w>(
        &self,
        line: &[u8],
        ws: &'w mut Workspace<N>,
        leds: &mut impl Leds,
    ) -> Option<&'w [u8]> {
        let answer = match (parse_request(line), self.book.as_ref()) {
            (Ok(Request::Quit), _) => return None,
            (_, Err(e)) => Err(e.reason()),
            (Ok(req), Ok(_)) => self.answer(&req, ws),
            (Err(r), Ok(_)) => Err(r),
        };
        match answer {
            Ok(Answer::Hints(hash)) => {
                ws.reply.hints(hash, &ws.next);
                leds.show(&LedFrame::from_classes(ws.next.classes()));
            }
            Ok(Answer::Guess(hash, color)) => {
                ws.reply.guess(hash, color, &ws.guesses);
                leds.show(&LedFrame::from_guesses(&ws.guesses, color));
            }
            Err(reason) => {
                ws.reply.error(reason);
                leds.show(&LedFrame::new());
            }
        }
        Some(ws.reply.as_bytes())
    }

    /// The reply to an overlong line: `error bad-request` (or the book's error).
    fn reply_overlong<'w>(&self, ws: &'w mut Workspace<N>, leds: &mut impl Leds) -> &'w [u8] {
        let reason = match self.book.as_ref() {
            Err(e) => e.reason(),
            Ok(_) => Reason::BadRequest,
        };
        ws.reply.error(reason);
        leds.show(&LedFrame::new());
        ws.reply.as_bytes()
    }

    /// Answers the requests read from `r` on `w`, one reply line each (flushed after each
    /// reply), lighting `leds`, until `quit` or the end of the input. Its working
    /// memory is on the stack: a [`LineReader`] (1,056 bytes) and a [`Workspace`] (a
    /// [`Reply`], a 164-byte board of stones only and `N` x 16 bytes of classes: 4,528
    /// bytes for [`CAPACITY`](super::CAPACITY) on a 64-bit machine; and the predictor's
    /// analysis of a position, about 3.7 KiB, and its guesses).
    pub fn serve<R: Read, W: Write, L: Leds>(
        &self,
        r: &mut R,
        w: &mut W,
        leds: &mut L,
    ) -> Result<End, ServeError<R::Error, W::Error>> {
        let mut lines = LineReader::new();
        let mut ws = Workspace::new();
        loop {
            let reply = match lines.next_line(r).map_err(ServeError::Read)? {
                Line::Eof => return Ok(End::Eof),
                Line::Overlong => self.reply_overlong(&mut ws, leds),
                Line::Text(line) => match self.reply(line, &mut ws, leds) {
                    Some(reply) => reply,
                    None => return Ok(End::Quit),
                },
            };
            w.write_all(reply).map_err(ServeError::Write)?;
            w.flush().map_err(ServeError::Write)?;
        }
    }
}

/// What a position request is answered with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Answer {
    /// The book's classes, with the position's bGo hash.
    Hints(i64),
    /// The predictor's guesses for the side to move, with the position's bGo hash.
    Guess(i64, Color),
}

/// A snapshot as a board reads it must be a position of a game: every group with a
/// liberty (a group without one is stones captured but not yet lifted) and, so, an empty
/// point somewhere.
fn check_snapshot(board: &Board<StonesOnly>) -> Result<(), Reason> {
    let size = board.size();
    let empty = board.empty_points();
    if empty.is_empty() {
        return Err(Reason::ImpossibleCount);
    }
    let near_empty = empty.neighbours(size);
    for color in [Color::Black, Color::White] {
        let stones = *board.stones(color);
        // The stones joined to a liberty: those next to an empty point, grown through
        // their own colour.
        let mut alive = stones & near_empty;
        loop {
            let grown = (alive.neighbours(size) & stones) | alive;
            if grown == alive {
                break;
            }
            alive = grown;
        }
        if alive != stones {
            return Err(Reason::NoLiberties);
        }
    }
    Ok(())
}

/// The working memory of [`Hints::reply`]: the reply line, the board and the classes of one
/// position, and the predictor's analysis and guesses, reused from request to request.
#[derive(Clone, Debug)]
pub struct Workspace<const N: usize> {
    reply: Reply,
    next: NextMoves<N>,
    board: Board<StonesOnly>,
    analysis: Analysis,
    guesses: heapless::Vec<Guess, MAX_GUESSES>,
}

impl<const N: usize> Default for Workspace<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Workspace<N> {
    /// An empty workspace.
    pub fn new() -> Self {
        Workspace {
            reply: Reply::new(),
            next: NextMoves::new(Size::STANDARD, crate::transform::TransformSet::IDENTITY),
            board: Board::empty(Size::STANDARD, Rules::default()),
            analysis: Analysis::empty(),
            guesses: heapless::Vec::new(),
        }
    }

    /// The guesses of the last position answered with a `guess` reply.
    pub fn guesses(&self) -> &[Guess] {
        &self.guesses
    }

    /// The classes of the last position answered (all of them, not only the replied ones).
    pub fn next_moves(&self) -> &NextMoves<N> {
        &self.next
    }

    /// The board of the last request (the position answered, or as far as it was set up).
    pub fn board(&self) -> &Board<StonesOnly> {
        &self.board
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use std::vec::Vec;

    use super::*;

    struct Recorder(Vec<std::string::String>);

    impl Leds for Recorder {
        fn show(&mut self, frame: &LedFrame) {
            self.0.push(std::format!("{frame}"));
        }
    }

    fn serve_bad_book(book: &[u8], input: &[u8]) -> (End, Vec<u8>, usize) {
        let hints: Hints<'_, 64> = Hints::new(Book::open(book));
        let mut out = [0u8; 4096];
        let mut w = &mut out[..];
        let mut r = input;
        let mut leds = Recorder(Vec::new());
        let end = hints.serve(&mut r, &mut w, &mut leds).unwrap();
        let left = w.len();
        (end, out[..4096 - left].to_vec(), leds.0.len())
    }

    #[test]
    fn a_bad_book_answers_every_request_but_quit() {
        let (end, out, frames) = serve_bad_book(
            b"not a book",
            b"moves pd\nboard 2 ....\nnonsense\n\nquit\nmoves\n",
        );
        assert_eq!(end, End::Quit);
        assert_eq!(out, b"error bad-book\n".repeat(4));
        assert_eq!(frames, 4);
        let mut long = std::vec![b'x'; 3000];
        long.push(b'\n');
        let (end, out, _) = serve_bad_book(b"", &long);
        assert_eq!(end, End::Eof);
        assert_eq!(out, b"error bad-book\n");
    }
}
