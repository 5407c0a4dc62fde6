//! The request handler ([`Hints`]): a book, the working memory of one request
//! ([`Workspace`]), and the loop over a byte stream ([`Hints::serve`]).

use core::fmt;

use embedded_io::{Read, Write};

use crate::board::{Board, Rules, StonesOnly};
use crate::book::Book;
use crate::format::FormatError;
use crate::point::{Color, Size};
use crate::pointset::PointSet;
use crate::predict::features::default_to_move;
use crate::predict::{best, Analysis, Guess, History, MAX_GUESSES};
use crate::query::{play_moves_recent, set_cells};
use crate::search::{next_moves_into, Lookup, NextMoves};
use crate::track::{Condition, Fix, Record, Seen, Tracker};

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

    /// Answers a plain position request into `ws`: the position's book classes
    /// (`ws.next`) or, when the book holds no next move of the side to move and it has a
    /// predictor, the predictor's guesses (`ws.guesses`).
    fn answer(&self, request: &Request<'_>, ws: &mut Workspace<N>) -> Result<Answer, Reason> {
        // `ws.next` and `ws.guesses` will hold this request's answer, not the record's.
        ws.answered = None;
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
                ..
            } => {
                *board = Board::empty(size, Rules::RECORD);
                set_cells(board, cells)?;
                check_snapshot(board)?;
                (
                    to_move.unwrap_or_else(|| default_to_move(board)),
                    History::default(),
                )
            }
            _ => return Err(Reason::BadRequest),
        };
        self.answer_position(ws, to_move, history)
    }

    /// Answers the position on `ws.board`, `to_move` to play after the moves `history`
    /// knows of.
    fn answer_position(
        &self,
        ws: &mut Workspace<N>,
        to_move: Color,
        history: History,
    ) -> Result<Answer, Reason> {
        let book = self.book.as_ref().map_err(|e| e.reason())?;
        let board = &ws.board;
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

    /// A `board` request while tracking: the snapshot goes to the tracker; a board that
    /// holds the record's position gets the record's answer (the one of its last
    /// computation while the position lasts), any other a fix.
    fn track_board(&self, request: &Request<'_>, ws: &mut Workspace<N>) -> Outcome {
        let Request::Board {
            size,
            cells,
            to_move,
            time,
        } = *request
        else {
            return Outcome::Error(Reason::BadRequest);
        };
        ws.board = Board::empty(size, Rules::RECORD);
        if let Err(e) = set_cells(&mut ws.board, cells) {
            return Outcome::Error(e.into());
        }
        let seen = if ws.tracker.is_waiting() {
            if ws.tracker.wanted_size().is_some_and(|w| w != size) {
                return Outcome::Error(Reason::UnsupportedSize);
            }
            if let Err(reason) = check_snapshot(&ws.board) {
                return Outcome::Error(reason);
            }
            ws.tracker.start(&ws.board, to_move);
            if ws.tracker.is_placing_handicap() {
                // The first handicap stones may be on the first snapshot already.
                ws.tracker.see_at(&ws.board, time)
            } else {
                Seen::Consistent
            }
        } else if size != ws.tracker.record().size() {
            return Outcome::Error(Reason::UnsupportedSize);
        } else {
            ws.tracker.see_at(&ws.board, time)
        };
        if let Seen::Fix(fix) = seen {
            // Restore puts back the record's stones; the others concern the board's.
            let shown = match fix.condition {
                Condition::Restore => ws.tracker.board().stones(Color::Black),
                _ => ws.board.stones(Color::Black),
            };
            return Outcome::Fix(fix, *shown);
        }
        let generation = ws.tracker.generation();
        if let Some((g, answer)) = ws.answered {
            if g == generation {
                return Outcome::Answer(answer);
            }
        }
        ws.board = ws.tracker.board().clone();
        let (to_move, history) = (ws.tracker.to_move(), ws.tracker.history());
        let answer = self.answer_position(ws, to_move, history);
        ws.answered = Some((generation, answer));
        Outcome::Answer(answer)
    }

    /// What a request (with a usable book) is answered with.
    fn handle(&self, request: Request<'_>, ws: &mut Workspace<N>) -> Outcome {
        match request {
            Request::Board { .. } if ws.tracking => self.track_board(&request, ws),
            Request::Moves(_) | Request::Board { .. } => Outcome::Answer(self.answer(&request, ws)),
            Request::Track => {
                ws.tracking = true;
                ws.tracker.reset();
                Outcome::Ok
            }
            Request::New { size, handicap } => {
                ws.tracker.reset_to(size, handicap);
                Outcome::Ok
            }
            Request::Pass => {
                if ws.tracking {
                    ws.tracker.pass();
                }
                Outcome::Ok
            }
            Request::Undo => {
                if ws.tracking {
                    ws.tracker.undo();
                }
                Outcome::Ok
            }
            Request::Untrack => {
                ws.tracking = false;
                Outcome::Ok
            }
            Request::Game => Outcome::Game,
            Request::Quit => Outcome::Error(Reason::BadRequest),
        }
    }

    /// Answers one request line (without its `\n`): formats the reply in `ws` (or, for
    /// `game`, names the record to write) and shows its LED frame. Returns the reply, or
    /// `None` for `quit`.
    pub fn reply<'w>(
        &self,
        line: &[u8],
        ws: &'w mut Workspace<N>,
        leds: &mut impl Leds,
    ) -> Option<Output<'w>> {
        let outcome = match (parse_request(line), self.book.as_ref()) {
            (Ok(Request::Quit), _) => return None,
            (_, Err(e)) => Outcome::Error(e.reason()),
            (Ok(req), Ok(_)) => self.handle(req, ws),
            (Err(r), Ok(_)) => Outcome::Error(r),
        };
        match outcome {
            Outcome::Answer(Ok(Answer::Hints(hash))) => {
                ws.reply.hints(hash, &ws.next);
                leds.show(&LedFrame::from_classes(ws.next.classes()));
            }
            Outcome::Answer(Ok(Answer::Guess(hash, color))) => {
                ws.reply.guess(hash, color, &ws.guesses);
                leds.show(&LedFrame::from_guesses(&ws.guesses, color));
            }
            Outcome::Answer(Err(reason)) | Outcome::Error(reason) => {
                ws.reply.error(reason);
                leds.show(&LedFrame::new());
            }
            Outcome::Fix(fix, black) => {
                ws.reply.fix(&fix);
                leds.show(&LedFrame::from_fix(&fix, black));
            }
            Outcome::Ok => {
                ws.reply.ok();
                leds.show(&LedFrame::new());
            }
            Outcome::Game => {
                leds.show(&LedFrame::new());
                return Some(Output::Game(ws.tracker.record()));
            }
        }
        Some(Output::Line(ws.reply.as_bytes()))
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
    /// 1,100-byte [`Reply`], a 164-byte board of stones only and `N` x 16 bytes of classes;
    /// the predictor's analysis of a position, about 3.7 KiB, and its guesses; the tracked
    /// game's [`Tracker`], 2,560 bytes).
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
                Line::Overlong => Output::Line(self.reply_overlong(&mut ws, leds)),
                Line::Text(line) => match self.reply(line, &mut ws, leds) {
                    Some(reply) => reply,
                    None => return Ok(End::Quit),
                },
            };
            match reply {
                Output::Line(bytes) => w.write_all(bytes),
                Output::Game(record) => record.write_sgf(w),
            }
            .map_err(ServeError::Write)?;
            w.flush().map_err(ServeError::Write)?;
        }
    }
}

/// A reply to one request line ([`Hints::reply`]).
#[derive(Copy, Clone, Debug)]
pub enum Output<'w> {
    /// One line, `\n` included.
    Line(&'w [u8]),
    /// The `game` reply: the record as one SGF line, written by [`Record::write_sgf`].
    Game(&'w Record),
}

/// What a request is answered with, before it is formatted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Outcome {
    /// A position's answer (or why there is none).
    Answer(Result<Answer, Reason>),
    /// An error.
    Error(Reason),
    /// The tracked board must be fixed; the stones at the points (black ones given) are
    /// shown.
    Fix(Fix, PointSet),
    /// `ok`.
    Ok,
    /// The record as SGF.
    Game,
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
/// position, and the predictor's analysis and guesses, reused from request to request; and
/// the tracked game (whether `board` requests feed it, its [`Tracker`], and which of its
/// positions `next` and `guesses` answer).
#[derive(Clone, Debug)]
pub struct Workspace<const N: usize> {
    reply: Reply,
    next: NextMoves<N>,
    board: Board<StonesOnly>,
    analysis: Analysis,
    guesses: heapless::Vec<Guess, MAX_GUESSES>,
    tracking: bool,
    tracker: Tracker,
    /// The tracker's generation whose answer `next` and `guesses` hold, with the answer.
    answered: Option<(u32, Result<Answer, Reason>)>,
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
            tracking: false,
            tracker: Tracker::new(),
            answered: None,
        }
    }

    /// Whether `board` requests feed the tracked game.
    pub fn is_tracking(&self) -> bool {
        self.tracking
    }

    /// The tracked game.
    pub fn tracker(&self) -> &Tracker {
        &self.tracker
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

#[cfg(test)]
mod track_tests {
    extern crate std;

    use std::string::String;
    use std::vec::Vec;

    use super::*;

    const GOLDEN: &[u8] = include_bytes!("../../tests/data/golden.kdb");

    /// Serves `input` on the golden book; returns the reply lines and the LED frames.
    fn serve(input: &str) -> (Vec<String>, Vec<String>) {
        struct Frames(Vec<String>);
        impl Leds for Frames {
            fn show(&mut self, frame: &LedFrame) {
                self.0.push(std::format!("{frame}"));
            }
        }
        let hints: Hints<'_, 64> = Hints::new(Book::open(GOLDEN));
        let mut out = std::vec![0u8; 1 << 16];
        let mut w = &mut out[..];
        let mut frames = Frames(Vec::new());
        hints
            .serve(&mut input.as_bytes(), &mut w, &mut frames)
            .unwrap();
        let left = w.len();
        let text = String::from_utf8(out[..(1 << 16) - left].to_vec()).unwrap();
        (text.lines().map(String::from).collect(), frames.0)
    }

    fn nine(stones: &[(usize, u8)]) -> String {
        let mut cells = std::vec![b'.'; 81];
        for &(i, c) in stones {
            cells[i] = c;
        }
        std::format!("board 9 {}", String::from_utf8(cells).unwrap())
    }

    #[test]
    fn tracking_records_the_game_and_names_what_to_fix() {
        let ee = 4 * 9 + 4;
        let cc = 2 * 9 + 2;
        let requests = [
            nine(&[]),
            "track".into(),
            nine(&[]),
            nine(&[(ee, b'X')]),
            nine(&[(ee, b'X'), (cc, b'O')]),
            nine(&[(ee, b'X'), (cc, b'O')]),
            nine(&[(ee, b'X'), (cc, b'O')]),
            nine(&[(cc, b'O')]),
            "game".into(),
            nine(&[(ee, b'X'), (cc, b'O')]),
            nine(&[(ee, b'X'), (cc, b'O'), (0, b'O')]),
            "untrack".into(),
            nine(&[(ee, b'X'), (cc, b'O'), (0, b'O')]),
            "game".into(),
            "new".into(),
            "game".into(),
            "track extra".into(),
        ];
        let (replies, frames) = serve(&(requests.join("\n") + "\n"));
        let (plain, _) = serve(&std::format!(
            "{}\n{} W\n{} B\n",
            nine(&[]),
            nine(&[(ee, b'X')]),
            nine(&[(ee, b'X'), (cc, b'O')])
        ));
        assert_eq!(replies.len(), requests.len());
        assert_eq!(replies[0], plain[0]);
        assert_eq!(replies[1], "ok");
        // The golden book has no predictor: the record's answers are the book's, as for
        // the same snapshots naming the side to move.
        assert_eq!(replies[2], plain[0]);
        assert_eq!(replies[3], plain[1]);
        assert_eq!(replies[4], plain[2]);
        assert_eq!(replies[5], plain[2]);
        assert_eq!(replies[6], plain[2]);
        // Both moves are settled (seen on 3 snapshots): a missing stone is to be restored.
        assert_eq!(replies[7], "fix restore ee");
        assert_eq!(frames[7], "leds fix restore ee:B");
        assert_eq!(replies[8], "(;GM[1]FF[4]SZ[9];B[ee];W[cc])");
        assert_eq!(frames[8], "leds");
        assert_eq!(replies[9], plain[2]);
        assert_eq!(replies[10], "fix wrong-color aa");
        assert_eq!(frames[10], "leds fix wrong-color aa:W");
        assert_eq!(replies[11], "ok");
        // Alone again: a snapshot with more white than black stones, White to move.
        assert!(replies[12].starts_with("hints "), "{}", replies[12]);
        assert_eq!(replies[13], replies[8]);
        assert_eq!(replies[14], "ok");
        assert_eq!(replies[15], "(;GM[1]FF[4]SZ[19])");
        assert_eq!(replies[16], "error bad-request");
        assert_eq!(frames.len(), replies.len());
    }

    #[test]
    fn buttons_sizes_and_handicaps_are_followed() {
        let (ee, cc, gg, cg) = (4 * 9 + 4, 2 * 9 + 2, 6 * 9 + 6, 6 * 9 + 2);
        let requests = [
            "track".into(),
            "new 9".into(),
            "game".into(),
            String::from("board 19 ") + &".".repeat(361),
            nine(&[]) + " t=0",
            nine(&[(ee, b'X')]) + " t=100",
            "pass".into(),
            nine(&[(ee, b'X')]) + " t=900",
            nine(&[(ee, b'X'), (cc, b'X')]) + " t=1500",
            "undo".into(),
            nine(&[(ee, b'X'), (cc, b'X')]) + " t=2000",
            nine(&[(ee, b'X')]) + " t=2100",
            "pass 2".into(),
            "new 9 handicap 2".into(),
            nine(&[(gg, b'X')]) + " t=3000",
            nine(&[(gg, b'X'), (cc, b'X')]) + " t=3100",
            nine(&[(gg, b'X'), (cc, b'X'), (ee, b'O')]) + " t=3200",
            "game".into(),
            "new 9 handicap 1".into(),
            nine(&[(gg, b'X'), (cc, b'X'), (ee, b'O'), (cg, b'O')]) + " t=x",
        ];
        let (replies, _) = serve(&(requests.join("\n") + "\n"));
        let (plain, _) = serve(&std::format!(
            "{}\n{} W\n{} B\n{} B\n{} W\n",
            nine(&[]),
            nine(&[(ee, b'X')]),
            nine(&[(ee, b'X')]),
            nine(&[(gg, b'X'), (cc, b'X'), (ee, b'O')]),
            nine(&[(ee, b'X'), (cc, b'X')]),
        ));
        assert_eq!(replies.len(), requests.len());
        assert_eq!(replies[..2], ["ok", "ok"]);
        assert_eq!(replies[2], "(;GM[1]FF[4]SZ[9])");
        assert_eq!(replies[3], "error unsupported-size");
        assert_eq!(replies[4], plain[0]);
        assert_eq!(replies[5], plain[1]);
        assert_eq!(replies[6], "ok");
        // After White's pass, Black to move on the same stones.
        assert_eq!(replies[7], plain[2]);
        assert_eq!(replies[8], plain[4]);
        assert_eq!(replies[9], "ok");
        // The undo takes Black's cc back: to lift.
        assert_eq!(replies[10], "fix remove cc");
        assert_eq!(replies[11], plain[2]);
        assert_eq!(replies[12], "error bad-request");
        assert_eq!(replies[13], "ok");
        assert!(replies[14].starts_with("hints "), "{}", replies[14]);
        assert!(replies[15].starts_with("hints "), "{}", replies[15]);
        assert_eq!(replies[16], plain[3]);
        assert_eq!(replies[17], "(;GM[1]FF[4]SZ[9]HA[2]AB[cc][gg]PL[W];W[ee])");
        assert_eq!(replies[18], "error bad-request");
        assert_eq!(replies[19], "error bad-request");
    }
}
