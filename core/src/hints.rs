//! The hint protocol (SPEC.md, "The hint protocol"): requests read line by line from a byte
//! stream, answered from a microcontroller [`Book`] with one reply line each. The same code
//! serves `kifudex hints` on the desktop (standard input and output) and the firmware (its
//! UART), so both answer with the same bytes.
//!
//! **Requests**, one per line, ASCII, ended by `\n` (a `\r` before it is ignored):
//!
//! - `moves pd,dp,pp`: the 19x19 position after these moves, as `kifudex search --moves`
//!   reads them (Black first, colours alternating, captures, suicide forbidden, simple ko);
//!   `moves` alone is the empty board.
//! - `board N <cells>`: an `N` x `N` snapshot from the board's sensors, the `N * N` cells
//!   row by row from the top: `.` empty, `X` black, `O` white.
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
//! - `error <reason>`, the reason one of these stable words:
//!
//! | reason | when |
//! |---|---|
//! | `bad-request` | an unknown or empty request, a malformed move list or cell list, a wrong count of cells, an overlong line, bytes that are not ASCII text |
//! | `illegal-move` | a move of `moves` that is not legal in its position (occupied, suicide, ko, off the board) |
//! | `unsupported-size` | `board N` with `N` outside `1..=19` |
//! | `bad-book` | the book failed validation ([`Book::open`]); every request gets this reply |
//! | `unsupported-book` | the book is valid but a position may hold more next moves (its `max_run`) than this handler's capacity `N`; every request gets this reply |
//! | `too-many-classes` | a position yields more classes than `N` (cannot happen with a book accepted at start) |
//!
//! Without a usable book every request but `quit` gets the book's error, whatever the
//! request.
//!
//! **LEDs.** Every reply also lights the board: a [`LedFrame`] holding the points of the
//! replied classes (passes have no LED) with a brightness by count, or an empty frame after
//! an error, goes to a [`Leds`] implementation.

use core::fmt;

use embedded_io::{Read, Write};

use crate::board::{Board, Rules, StonesOnly};
use crate::book::Book;
use crate::format::FormatError;
use crate::notation::{sgf_letter, Sgf};
use crate::point::{Color, Move, Point, Size};
use crate::query::{play_moves, set_cells, QueryError};
use crate::search::{next_moves_into, Lookup, NextMoves, SearchError};

/// The most bytes of a request line before its `\n` (a `\r` included).
pub const MAX_LINE: usize = 1024;

/// The most classes in a `hints` reply (and points in an LED frame).
pub const MAX_HINTS: usize = 10;

/// The class capacity `N` of `kifudex hints` and of the example firmware, so that both
/// accept the same books (`max_run` at most 256; `kifudex build --max-next` caps it).
pub const CAPACITY: usize = 256;

/// The handler of `kifudex hints` and of the example firmware.
pub type StandardHints<'a> = Hints<'a, CAPACITY>;

/// The longest reply line, `\n` included: `hints`, a 64-bit hash, a 64-bit total and
/// [`MAX_HINTS`] classes of at most `pass:B:4294967295`.
pub const MAX_REPLY: usize = 6 + 21 + 21 + MAX_HINTS * 18 + 1;

/// A request line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Request<'l> {
    /// `moves ...`: the moves (comma-separated), empty for the empty board.
    Moves(&'l str),
    /// `board N <cells>`.
    Board {
        /// The board size.
        size: Size,
        /// The cells row by row from the top (their count and values not yet checked).
        cells: &'l [u8],
    },
    /// `quit`.
    Quit,
}

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

/// Parses one request line (without its `\n`; a trailing `\r` is ignored).
pub fn parse_request(line: &[u8]) -> Result<Request<'_>, Reason> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = trim(line);
    let (word, rest) = split_word(line);
    match word {
        b"moves" => core::str::from_utf8(rest)
            .map(Request::Moves)
            .map_err(|_| Reason::BadRequest),
        b"board" => {
            // The cells are the rest of the line: a blank among them (a word too many)
            // is a bad request, found here only when the size fails, otherwise by
            // `set_cells`, which reads every cell anyway (361 bytes are not scanned twice).
            let (n, cells) = split_word(rest);
            match parse_size(n) {
                Ok(size) => Ok(Request::Board { size, cells }),
                Err(_) if cells.iter().any(|&c| is_blank(c)) => Err(Reason::BadRequest),
                Err(e) => Err(e),
            }
        }
        b"quit" if rest.is_empty() => Ok(Request::Quit),
        _ => Err(Reason::BadRequest),
    }
}

fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

fn trim(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|&c| !is_blank(c)).unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|&c| !is_blank(c))
        .map_or(start, |i| i + 1);
    s.get(start..end).unwrap_or(&[])
}

/// The first word of `s` (which starts with no blank) and the rest after the blanks that
/// follow it.
fn split_word(s: &[u8]) -> (&[u8], &[u8]) {
    let end = s.iter().position(|&c| is_blank(c)).unwrap_or(s.len());
    let (word, rest) = s.split_at(end);
    let skip = rest
        .iter()
        .position(|&c| !is_blank(c))
        .unwrap_or(rest.len());
    (word, rest.get(skip..).unwrap_or(&[]))
}

/// A board size in decimal: not digits is a bad request, outside `1..=19` unsupported.
fn parse_size(n: &[u8]) -> Result<Size, Reason> {
    if n.is_empty() || !n.iter().all(u8::is_ascii_digit) {
        return Err(Reason::BadRequest);
    }
    let v = n.iter().fold(0u32, |v, &d| {
        v.saturating_mul(10).saturating_add((d - b'0') as u32)
    });
    u8::try_from(v)
        .ok()
        .and_then(Size::square)
        .ok_or(Reason::UnsupportedSize)
}

// ---------------------------------------------------------------------------------------------
// LED frames
// ---------------------------------------------------------------------------------------------

/// One lit point of an LED frame.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LedPoint {
    /// The point.
    pub point: Point,
    /// Who would play there.
    pub color: Color,
    /// 1 to 255: the class's count scaled to the top class's count (rounded, at least 1).
    pub brightness: u8,
}

/// What the board's LEDs show after a reply: the points of the replied classes, brightest
/// first (SPEC order), at most [`MAX_HINTS`]. Empty after an error.
///
/// Displayed as `leds pd:255 dp:120` (the word `leds`, then `point:brightness`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LedFrame {
    points: heapless::Vec<LedPoint, MAX_HINTS>,
}

impl LedFrame {
    /// A frame with nothing lit.
    pub const fn new() -> Self {
        LedFrame {
            points: heapless::Vec::new(),
        }
    }

    /// The frame for the first [`MAX_HINTS`] of `classes` (sorted, highest count first).
    pub fn from_classes(classes: &[crate::search::NextMove]) -> Self {
        let mut frame = LedFrame::new();
        let top = classes.iter().map(|c| c.count).max().unwrap_or(0) as u64;
        for c in classes.iter().take(MAX_HINTS) {
            if let (Move::Play(p), true) = (c.mv, top > 0) {
                let b = ((c.count as u64 * 255 + top / 2) / top).clamp(1, 255) as u8;
                // Cannot overflow: at most MAX_HINTS classes are taken.
                let _ = frame.points.push(LedPoint {
                    point: p,
                    color: c.color,
                    brightness: b,
                });
            }
        }
        frame
    }

    /// The lit points.
    pub fn points(&self) -> &[LedPoint] {
        &self.points
    }
}

impl fmt::Display for LedFrame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("leds")?;
        for p in &self.points {
            write!(f, " {}:{}", Sgf(Move::Play(p.point)), p.brightness)?;
        }
        Ok(())
    }
}

/// The board's hint LEDs, as a real board drives them.
pub trait Leds {
    /// Shows `frame` (replacing the previous one).
    fn show(&mut self, frame: &LedFrame);
}

/// No LEDs.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoLeds;

impl Leds for NoLeds {
    fn show(&mut self, _frame: &LedFrame) {}
}

impl<L: Leds + ?Sized> Leds for &mut L {
    fn show(&mut self, frame: &LedFrame) {
        (**self).show(frame)
    }
}

// ---------------------------------------------------------------------------------------------
// Lines in, replies out
// ---------------------------------------------------------------------------------------------

/// A line read by [`LineReader::next_line`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Line<'b> {
    /// A line without its `\n` (the last one of the input may have had none).
    Text(&'b [u8]),
    /// A line longer than [`MAX_LINE`] bytes, read to its end and dropped.
    Overlong,
    /// The end of the input.
    Eof,
}

/// Splits a byte stream into lines in a fixed buffer of [`MAX_LINE`] `+ 1` bytes.
#[derive(Clone, Debug)]
pub struct LineReader {
    buf: [u8; MAX_LINE + 1],
    /// Unconsumed bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    /// `buf[start..scanned]` holds no `\n`.
    scanned: usize,
    /// Bytes of the current line were dropped because it is too long.
    overlong: bool,
    eof: bool,
}

impl Default for LineReader {
    fn default() -> Self {
        Self::new()
    }
}

impl LineReader {
    /// An empty reader.
    pub const fn new() -> Self {
        LineReader {
            buf: [0; MAX_LINE + 1],
            start: 0,
            end: 0,
            scanned: 0,
            overlong: false,
            eof: false,
        }
    }

    /// The next line of `r`, reading as much as needed (each read fills what the buffer
    /// has room for, so bytes after the line stay buffered for the next call).
    pub fn next_line<R: Read>(&mut self, r: &mut R) -> Result<Line<'_>, R::Error> {
        loop {
            let pending = self.buf.get(self.scanned..self.end).unwrap_or(&[]);
            if let Some(i) = pending.iter().position(|&c| c == b'\n') {
                let nl = self.scanned + i;
                let (s, overlong) = (self.start, self.overlong);
                self.start = nl + 1;
                self.scanned = self.start;
                self.overlong = false;
                return Ok(if overlong {
                    Line::Overlong
                } else {
                    Line::Text(self.buf.get(s..nl).unwrap_or(&[]))
                });
            }
            self.scanned = self.end;
            if self.eof {
                let (s, e, overlong) = (self.start, self.end, self.overlong);
                self.start = e;
                self.overlong = false;
                return Ok(if overlong {
                    Line::Overlong
                } else if e > s {
                    Line::Text(self.buf.get(s..e).unwrap_or(&[]))
                } else {
                    Line::Eof
                });
            }
            if self.end - self.start > MAX_LINE {
                // No `\n` in more than MAX_LINE bytes: drop them, remember the line is bad.
                self.overlong = true;
                self.start = 0;
                self.end = 0;
                self.scanned = 0;
            } else if self.end == self.buf.len() {
                // Room is left only before the line: move it to the front.
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.scanned = self.end;
                self.start = 0;
            }
            let room = self.buf.get_mut(self.end..).unwrap_or(&mut []);
            let n = r.read(room)?;
            if n == 0 {
                self.eof = true;
            }
            self.end = (self.end + n).min(self.buf.len());
        }
    }
}

/// A reply line being formatted (at most [`MAX_REPLY`] bytes).
#[derive(Clone, Debug)]
pub struct Reply {
    buf: [u8; MAX_REPLY],
    len: usize,
}

impl Default for Reply {
    fn default() -> Self {
        Self::new()
    }
}

impl Reply {
    /// An empty reply.
    pub const fn new() -> Self {
        Reply {
            buf: [0; MAX_REPLY],
            len: 0,
        }
    }

    /// The bytes written so far.
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }

    /// Empties the reply.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a byte (dropped if the reply is full, which a reply line never is).
    #[inline]
    pub fn push(&mut self, b: u8) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    /// Appends bytes. (A byte loop: the pieces are a few bytes, shorter than a `memcpy`
    /// call's own cost on a Cortex-M.)
    pub fn push_bytes(&mut self, s: &[u8]) {
        for &b in s {
            self.push(b);
        }
    }

    /// Appends `v` in decimal, as `Display` writes it, without 64-bit divisions for values
    /// that fit 32 bits. (The digits are written in place, lowest first, then reversed.)
    pub fn push_u64(&mut self, mut v: u64) {
        let start = self.len;
        // At most two 64-bit divisions, then 32-bit ones.
        while v > u32::MAX as u64 {
            let mut low = (v % 1_000_000_000) as u32;
            v /= 1_000_000_000;
            for _ in 0..9 {
                self.push(b'0' + (low % 10) as u8);
                low /= 10;
            }
        }
        let mut v = v as u32;
        loop {
            self.push(b'0' + (v % 10) as u8);
            v /= 10;
            if v == 0 {
                break;
            }
        }
        if let Some(digits) = self.buf.get_mut(start..self.len) {
            digits.reverse();
        }
    }

    /// Appends `v` in decimal, as `Display` writes it.
    pub fn push_i64(&mut self, v: i64) {
        if v < 0 {
            self.push(b'-');
        }
        self.push_u64(v.unsigned_abs());
    }

    /// Appends a move as [`Sgf`] displays it: `pd`, `pass`.
    pub fn push_move(&mut self, mv: Move) {
        match mv {
            Move::Play(p) => {
                for v in [p.x, p.y] {
                    self.push(sgf_letter(v).map_or(b'?', |c| c as u8));
                }
            }
            Move::Pass => self.push_bytes(b"pass"),
        }
    }

    /// `error <reason>\n`.
    fn error(&mut self, reason: Reason) {
        self.clear();
        self.push_bytes(b"error ");
        self.push_bytes(reason.as_str().as_bytes());
        self.push(b'\n');
    }

    /// `hints <hash> <total> <move>:<color>:<count> ...\n`.
    fn hints<const N: usize>(&mut self, hash: i64, next: &NextMoves<N>) {
        self.clear();
        self.push_bytes(b"hints ");
        self.push_i64(hash);
        self.push(b' ');
        self.push_u64(next.total());
        for c in next.classes().iter().take(MAX_HINTS) {
            self.push(b' ');
            self.push_move(c.mv);
            self.push(b':');
            self.push(c.color.letter() as u8);
            self.push(b':');
            self.push_u64(c.count as u64);
        }
        self.push(b'\n');
    }
}

impl fmt::Write for Reply {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(fmt::Error)?;
        let dst = self.buf.get_mut(self.len..end).ok_or(fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
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

    /// Answers a position request into `next`: returns the bGo hash of the position
    /// (transform 0); `next` holds its classes, sorted.
    fn answer(
        &self,
        request: &Request<'_>,
        board: &mut Board<StonesOnly>,
        next: &mut NextMoves<N>,
    ) -> Result<i64, Reason> {
        let book = self.book.as_ref().map_err(|e| e.reason())?;
        // Set up in place (no copies of the board), as `position_after` and
        // `position_from_cells` do, on a board of stones only: the keys of the one
        // position asked for are computed once, at the end.
        match *request {
            Request::Moves(moves) => {
                *board = Board::empty(Size::STANDARD, Rules::default());
                play_moves(board, moves)?;
            }
            Request::Board { size, cells } => {
                *board = Board::empty(size, Rules::RECORD);
                set_cells(board, cells)?;
            }
            Request::Quit => return Err(Reason::BadRequest),
        }
        let key = board.position_key();
        next_moves_into(book, &Lookup::of_position_key(board, &key), None, next)?;
        Ok(key.bgo)
    }

    /// Answers one request line (without its `\n`): formats the reply in `ws` and shows its
    /// LED frame. Returns the reply line (`\n` included), or `None` for `quit`.
    pub fn reply<'w>(
        &self,
        line: &[u8],
        ws: &'w mut Workspace<N>,
        leds: &mut impl Leds,
    ) -> Option<&'w [u8]> {
        let Workspace {
            reply: out,
            next,
            board,
        } = ws;
        let answer = match (parse_request(line), self.book.as_ref()) {
            (Ok(Request::Quit), _) => return None,
            (_, Err(e)) => Err(e.reason()),
            (Ok(req), Ok(_)) => self.answer(&req, board, next),
            (Err(r), Ok(_)) => Err(r),
        };
        match answer {
            Ok(hash) => {
                out.hints(hash, next);
                leds.show(&LedFrame::from_classes(next.classes()));
            }
            Err(reason) => {
                out.error(reason);
                leds.show(&LedFrame::new());
            }
        }
        Some(out.as_bytes())
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
    /// bytes for [`CAPACITY`] on a 64-bit machine).
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

/// The working memory of [`Hints::reply`]: the reply line, the board and the classes of one
/// position, reused from request to request.
#[derive(Clone, Debug)]
pub struct Workspace<const N: usize> {
    reply: Reply,
    next: NextMoves<N>,
    board: Board<StonesOnly>,
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
        }
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

    /// A reader handing out at most `chunk` bytes per read.
    struct Chunked<'a> {
        data: &'a [u8],
        chunk: usize,
    }

    impl embedded_io::ErrorType for Chunked<'_> {
        type Error = core::convert::Infallible;
    }

    impl Read for Chunked<'_> {
        fn read(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error> {
            let n = self.chunk.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[derive(Debug, PartialEq)]
    enum L {
        T(Vec<u8>),
        Over,
    }

    fn lines(data: &[u8], chunk: usize) -> Vec<L> {
        let mut r = Chunked { data, chunk };
        let mut lr = LineReader::new();
        let mut out = Vec::new();
        loop {
            match lr.next_line(&mut r).unwrap() {
                Line::Text(t) => out.push(L::T(t.to_vec())),
                Line::Overlong => out.push(L::Over),
                Line::Eof => return out,
            }
        }
    }

    fn t(s: &str) -> L {
        L::T(s.as_bytes().to_vec())
    }

    #[test]
    fn line_reader_splits_lines_in_any_chunking() {
        let data = b"moves pd\n\nquit\r\nlast";
        for chunk in [1, 2, 3, 7, 64, 5000] {
            assert_eq!(
                lines(data, chunk),
                [t("moves pd"), t(""), t("quit\r"), t("last")],
                "chunk {chunk}"
            );
        }
        assert_eq!(lines(b"", 1), []);
        assert_eq!(lines(b"\n", 1), [t("")]);
    }

    #[test]
    fn line_reader_drops_overlong_lines() {
        let mut data = Vec::new();
        data.extend_from_slice(b"moves\n");
        data.extend(core::iter::repeat_n(b'a', MAX_LINE));
        data.push(b'\n');
        data.extend(core::iter::repeat_n(b'b', MAX_LINE + 1));
        data.push(b'\n');
        data.extend(core::iter::repeat_n(b'c', 5 * MAX_LINE + 17));
        data.extend_from_slice(b"\nquit\n");
        data.extend(core::iter::repeat_n(b'd', 3 * MAX_LINE));
        for chunk in [1, 5, 100, MAX_LINE, 100_000] {
            let got = lines(&data, chunk);
            assert_eq!(got.len(), 6, "chunk {chunk}");
            assert_eq!(got[0], t("moves"));
            assert_eq!(got[1], L::T(std::vec![b'a'; MAX_LINE]));
            assert_eq!(got[2], L::Over);
            assert_eq!(got[3], L::Over);
            assert_eq!(got[4], t("quit"));
            assert_eq!(got[5], L::Over);
        }
    }

    #[test]
    fn parses_requests() {
        assert_eq!(parse_request(b"moves"), Ok(Request::Moves("")));
        assert_eq!(parse_request(b"moves\r"), Ok(Request::Moves("")));
        assert_eq!(
            parse_request(b"moves pd,dp,pp\r"),
            Ok(Request::Moves("pd,dp,pp"))
        );
        assert_eq!(
            parse_request(b"  moves \tpd, dp  "),
            Ok(Request::Moves("pd, dp"))
        );
        assert_eq!(parse_request(b"quit"), Ok(Request::Quit));
        assert_eq!(parse_request(b"quit\r"), Ok(Request::Quit));
        assert_eq!(
            parse_request(b"board 2 X..O"),
            Ok(Request::Board {
                size: Size::square(2).unwrap(),
                cells: b"X..O"
            })
        );
        assert_eq!(
            parse_request(b"board 19"),
            Ok(Request::Board {
                size: Size::STANDARD,
                cells: b""
            })
        );
        for bad in [
            &b""[..],
            b"\r",
            b"   ",
            b"quit now",
            b"Quit",
            b"move pd",
            b"movespd",
            b"hints",
            b"board",
            b"board x9 .........",
            b"board -1 .",
            b"board 99 X. .O",
            b"moves \xff",
            b"\x00\x01\x02",
        ] {
            assert_eq!(parse_request(bad), Err(Reason::BadRequest), "{bad:?}");
        }
        // A word too many on a board line: the cells hold a blank, which `set_cells`
        // refuses (it reads every cell anyway).
        let Ok(Request::Board { size, cells }) = parse_request(b"board 2 X. .O") else {
            panic!("a board line with a blank among its cells");
        };
        let mut board = Board::<StonesOnly>::empty(size, Rules::RECORD);
        assert_eq!(
            crate::query::set_cells(&mut board, cells),
            Err(QueryError::BadRequest)
        );
        for unsupported in [
            &b"board 0 "[..],
            b"board 20 .",
            b"board 99999999999999999999 .",
        ] {
            assert_eq!(
                parse_request(unsupported),
                Err(Reason::UnsupportedSize),
                "{unsupported:?}"
            );
        }
    }

    #[test]
    fn led_frames_scale_to_the_top_count() {
        use crate::search::NextMove;
        let class = |mv: &str, color, count| NextMove {
            color,
            mv: crate::notation::parse_moves(mv, Size::STANDARD)
                .next()
                .unwrap()
                .unwrap(),
            count,
            black_wins: 0,
            white_wins: 0,
        };
        let classes = [
            class("pd", Color::Black, 400),
            class("dp", Color::Black, 188),
            class("pass", Color::Black, 100),
            class("qc", Color::White, 1),
        ];
        let f = LedFrame::from_classes(&classes);
        assert_eq!(f.points().len(), 3);
        assert_eq!(std::format!("{f}"), "leds pd:255 dp:120 qc:1");
        assert_eq!(std::format!("{}", LedFrame::new()), "leds");
        let many: Vec<NextMove> = (0..20).map(|_| class("aa", Color::White, 5)).collect();
        assert_eq!(LedFrame::from_classes(&many).points().len(), MAX_HINTS);
    }

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

    #[test]
    fn numbers_and_moves_print_as_display_does() {
        use std::string::ToString;
        let mut r = Reply::new();
        for v in [
            0i64,
            7,
            -1,
            959678554,
            -2119680312,
            4294967295,
            4294967296,
            -4294967296,
            1_000_000_000,
            999_999_999_999_999_999,
            1_000_000_000_000_000_000,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ] {
            r.clear();
            r.push_i64(v);
            assert_eq!(r.as_bytes(), v.to_string().as_bytes());
        }
        for v in [u64::MAX, u32::MAX as u64 + 1, 10_000_000_000_000_000_000] {
            r.clear();
            r.push_u64(v);
            assert_eq!(r.as_bytes(), v.to_string().as_bytes());
        }
        for mv in [
            Move::Pass,
            Move::Play(Point::new(15, 3)),
            Move::Play(Point::new(0, 18)),
        ] {
            r.clear();
            r.push_move(mv);
            assert_eq!(r.as_bytes(), Sgf(mv).to_string().as_bytes());
        }
    }

    #[test]
    fn replies_fit() {
        use core::fmt::Write as _;
        let mut r = Reply::new();
        let long = "hints -9223372036854775808 18446744073709551615";
        r.write_str(long).unwrap();
        for _ in 0..MAX_HINTS {
            r.write_str(" pass:B:4294967295").unwrap();
        }
        r.write_str("\n").unwrap();
        assert_eq!(r.as_bytes().len(), MAX_REPLY - 1);
        assert!(r.write_str("xx").is_err());
    }
}
