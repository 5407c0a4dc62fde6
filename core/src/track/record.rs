//! The game record a tracker keeps ([`Record`]): the setup stones (of its first snapshot,
//! or the handicap stones placed one by one), who moved first, and every move since,
//! passes included, in a fixed budget of [`MAX_MOVES`] moves; and the record as one line of
//! SGF ([`Record::write_sgf`]).

use embedded_io::Write;

use crate::board::{Board, MoveError, Rules, StonesOnly};
use crate::notation::sgf_letter;
use crate::point::{Color, Move, Point, Size, Stone};
use crate::pointset::PointSet;

/// The most moves a record holds: 2 bytes each, 2,048 bytes (the longest of the 17,607
/// games of fox_pro and yenw_ai has 456).
pub const MAX_MOVES: usize = 1024;

/// A tracked game: the setup stones, the colour of the first move and the moves played
/// (a pass is a move: the `pass` button), Black and White alternating. 2,208 bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    size: Size,
    /// The setup stones, black then white.
    setup: [PointSet; 2],
    first: Color,
    /// Whether the first snapshot has been seen (the setup is known).
    started: bool,
    /// The handicap of a record started by `new ... handicap H` (`HA[H]`), else 0.
    handicap: u8,
    /// The moves' points as `y * 19 + x`, a pass as [`PASS`].
    moves: [u16; MAX_MOVES],
    len: u16,
}

impl Default for Record {
    fn default() -> Self {
        Self::new()
    }
}

impl Record {
    /// An empty record that has not seen its first snapshot (a 19x19 board, Black first).
    pub const fn new() -> Record {
        Record {
            size: Size::STANDARD,
            setup: [PointSet::EMPTY; 2],
            first: Color::Black,
            started: false,
            handicap: 0,
            moves: [0; MAX_MOVES],
            len: 0,
        }
    }

    /// Empties the record: it waits for its first snapshot again (the moves' storage is
    /// not cleared: only the first `len` count).
    pub fn clear(&mut self) {
        self.clear_to(Size::STANDARD, 0);
    }

    /// Empties the record as [`Record::clear`] does, on a board of `size` (printed as such
    /// before the first snapshot), with `handicap` stones to come (`HA`, 0 for none).
    pub fn clear_to(&mut self, size: Size, handicap: u8) {
        self.size = size;
        self.setup = [PointSet::EMPTY; 2];
        self.first = Color::Black;
        self.started = false;
        self.handicap = handicap;
        self.len = 0;
    }

    /// The handicap (`HA`) of a record started with handicap stones, else 0.
    pub fn handicap(&self) -> u8 {
        self.handicap
    }

    /// Adds a black setup stone (a handicap stone placed before any move).
    pub fn add_setup(&mut self, p: Point) {
        if self.len == 0 {
            self.setup[0].insert(p);
        }
    }

    /// Sets the black setup stones (the handicap stones placed so far), before any move.
    pub fn set_black_setup(&mut self, stones: PointSet) {
        if self.len == 0 {
            self.setup[0] = stones;
        }
    }

    /// Starts the record from `board`'s stones (the setup), `first` to move.
    pub fn start<T: crate::board::Tracking>(&mut self, board: &Board<T>, first: Color) {
        self.size = board.size();
        self.setup = [*board.stones(Color::Black), *board.stones(Color::White)];
        self.first = first;
        self.started = true;
        self.len = 0;
    }

    /// Whether the setup is known (the first snapshot was seen).
    pub fn is_started(&self) -> bool {
        self.started
    }

    /// The board size (19x19 until the first snapshot).
    pub fn size(&self) -> Size {
        self.size
    }

    /// The setup stones of a colour.
    pub fn setup(&self, color: Color) -> &PointSet {
        &self.setup[color.index()]
    }

    /// Who played (or plays) the first move.
    pub fn first(&self) -> Color {
        self.first
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no move was played.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the budget is spent.
    pub fn is_full(&self) -> bool {
        self.len() >= MAX_MOVES
    }

    /// The colour of move `i` (0-based): the colours alternate from [`Record::first`].
    pub fn color_of(&self, i: usize) -> Color {
        if i.is_multiple_of(2) {
            self.first
        } else {
            self.first.opponent()
        }
    }

    /// The side to move after the record.
    pub fn to_move(&self) -> Color {
        self.color_of(self.len())
    }

    /// Move `i` (0-based), if there is one (a pass is [`Move::Pass`]).
    pub fn get(&self, i: usize) -> Option<(Color, Move)> {
        let code = *self.moves.get(..self.len()).and_then(|m| m.get(i))?;
        let mv = if code == PASS {
            Move::Pass
        } else {
            Move::Play(Point::from_index19(code)?)
        };
        Some((self.color_of(i), mv))
    }

    /// The point of move `i`, if there is such a move and it is not a pass.
    pub fn point(&self, i: usize) -> Option<Point> {
        match self.get(i)? {
            (_, Move::Play(p)) => Some(p),
            (_, Move::Pass) => None,
        }
    }

    /// The moves in order, passes included.
    pub fn moves(&self) -> impl Iterator<Item = (Color, Move)> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// How many passes end the record (0, 1, or 2 and more: the game is over).
    pub fn passes_at_end(&self) -> usize {
        (0..self.len())
            .rev()
            .take_while(|&i| matches!(self.get(i), Some((_, Move::Pass))))
            .count()
    }

    /// The last move, `back` moves back (0: the last one).
    pub fn back(&self, back: usize) -> Option<Move> {
        let i = self.len().checked_sub(back + 1)?;
        self.get(i).map(|(_, m)| m)
    }

    /// Appends a move at `p` (of the colour to move). `false` if the budget is spent.
    pub fn push(&mut self, p: Point) -> bool {
        self.push_code(p.index19())
    }

    /// Appends a pass of the colour to move. `false` if the budget is spent.
    pub fn push_pass(&mut self) -> bool {
        self.push_code(PASS)
    }

    fn push_code(&mut self, code: u16) -> bool {
        match self.moves.get_mut(self.len as usize) {
            Some(slot) => {
                *slot = code;
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// Keeps the first `len` moves.
    pub fn truncate(&mut self, len: usize) {
        if len < self.len() {
            self.len = len as u16;
        }
    }

    /// Puts the record's position on `board` (emptied first, simple ko, no suicide: the
    /// rules of a `moves` request): the setup stones, then the moves with their captures;
    /// `captured(move, stones)` is told what each move took. Stops at a move the board
    /// refuses (none: a tracker records only legal moves).
    pub fn replay(
        &self,
        board: &mut Board<StonesOnly>,
        captured: impl FnMut(usize, &PointSet),
    ) -> Result<(), MoveError> {
        self.replay_to(board, self.len(), captured)
    }

    /// As [`Record::replay`], the first `len` moves only.
    pub fn replay_to(
        &self,
        board: &mut Board<StonesOnly>,
        len: usize,
        mut captured: impl FnMut(usize, &PointSet),
    ) -> Result<(), MoveError> {
        *board = Board::empty(self.size, Rules::STANDARD);
        for color in [Color::Black, Color::White] {
            for p in self.setup(color).iter() {
                board.set_stone(p, Stone::of(color))?;
            }
        }
        for (i, (color, mv)) in self.moves().take(len).enumerate() {
            let caps = board.play(color, mv)?;
            captured(i, &caps.points);
        }
        Ok(())
    }

    /// Writes the record as one SGF line, `\n` included: `(;GM[1]FF[4]SZ[19]` with the
    /// handicap (`HA[H]`, a record started with handicap stones), the setup stones (`AB`,
    /// `AW`) and `PL[W]` when White moves first, then `;B[pd];W[dp]...)`, a pass `;B[]`.
    /// (In pieces: a long game's line is longer than any buffer of the handler.)
    pub fn write_sgf<W: Write>(&self, w: &mut W) -> Result<(), W::Error> {
        w.write_all(b"(;GM[1]FF[4]SZ[")?;
        let n = self.size.width();
        let digits = [b'0' + n / 10, b'0' + n % 10];
        w.write_all(if n >= 10 { &digits } else { &digits[1..] })?;
        w.write_all(b"]")?;
        if self.handicap > 0 {
            w.write_all(&[b'H', b'A', b'[', b'0' + self.handicap % 10, b']'])?;
        }
        for (color, tag) in [(Color::Black, b"AB"), (Color::White, b"AW")] {
            let stones = self.setup(color);
            if !stones.is_empty() {
                w.write_all(tag)?;
                for p in stones.iter() {
                    w.write_all(&[b'[', letter(p.x), letter(p.y), b']'])?;
                }
            }
        }
        if self.first == Color::White {
            w.write_all(b"PL[W]")?;
        }
        for (color, mv) in self.moves() {
            let c = color.letter() as u8;
            match mv {
                Move::Play(p) => w.write_all(&[b';', c, b'[', letter(p.x), letter(p.y), b']'])?,
                Move::Pass => w.write_all(&[b';', c, b'[', b']'])?,
            }
        }
        w.write_all(b")\n")
    }
}

/// How a pass is stored among the moves' points (no point's `y * 19 + x`).
const PASS: u16 = u16::MAX;

/// The SGF letter of a coordinate (below 19).
fn letter(v: u8) -> u8 {
    sgf_letter(v).map_or(b'?', |c| c as u8)
}

#[cfg(test)]
mod tests {
    extern crate std;

    use std::vec::Vec;

    use super::*;

    struct Out(Vec<u8>);

    impl embedded_io::ErrorType for Out {
        type Error = core::convert::Infallible;
    }

    impl Write for Out {
        fn write(&mut self, buf: &[u8]) -> Result<usize, Self::Error> {
            self.0.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> Result<(), Self::Error> {
            Ok(())
        }
    }

    fn sgf(r: &Record) -> std::string::String {
        let mut out = Out(Vec::new());
        r.write_sgf(&mut out).unwrap();
        std::string::String::from_utf8(out.0).unwrap()
    }

    #[test]
    fn records_print_as_sgf() {
        let mut r = Record::new();
        assert_eq!(sgf(&r), "(;GM[1]FF[4]SZ[19])\n");
        let mut b: Board<StonesOnly> = Board::empty(Size::STANDARD, Rules::STANDARD);
        b.set_stone(Point::new(3, 3), Stone::Black).unwrap();
        b.set_stone(Point::new(15, 15), Stone::Black).unwrap();
        r.start(&b, Color::White);
        assert!(r.push(Point::new(15, 3)));
        assert!(r.push(Point::new(2, 16)));
        assert_eq!(sgf(&r), "(;GM[1]FF[4]SZ[19]AB[dd][pp]PL[W];W[pd];B[cq])\n");
        assert_eq!(r.back(0), Some(Move::Play(Point::new(2, 16))));
        assert_eq!(r.back(1), Some(Move::Play(Point::new(15, 3))));
        assert_eq!(r.back(2), None);
        assert_eq!(r.to_move(), Color::White);
        let nine: Board<StonesOnly> = Board::empty(Size::square(9).unwrap(), Rules::STANDARD);
        r.start(&nine, Color::Black);
        assert!(r.push(Point::new(4, 4)));
        assert_eq!(sgf(&r), "(;GM[1]FF[4]SZ[9];B[ee])\n");
    }

    #[test]
    fn passes_and_handicaps_print_as_sgf() {
        let mut r = Record::new();
        r.clear_to(Size::square(13).unwrap(), 0);
        assert_eq!(sgf(&r), "(;GM[1]FF[4]SZ[13])\n");
        r.clear_to(Size::STANDARD, 4);
        assert_eq!(sgf(&r), "(;GM[1]FF[4]SZ[19]HA[4])\n");
        let b: Board<StonesOnly> = Board::empty(Size::STANDARD, Rules::STANDARD);
        r.start(&b, Color::White);
        for p in [Point::new(15, 15), Point::new(3, 3), Point::new(15, 3)] {
            r.add_setup(p);
        }
        r.add_setup(Point::new(3, 15));
        assert!(r.push_pass());
        assert!(r.push(Point::new(16, 2)));
        assert!(r.push_pass());
        assert!(r.push_pass());
        assert_eq!(
            sgf(&r),
            "(;GM[1]FF[4]SZ[19]HA[4]AB[dd][pd][dp][pp]PL[W];W[];B[qc];W[];B[])\n"
        );
        assert_eq!(r.passes_at_end(), 2);
        assert_eq!(r.back(0), Some(Move::Pass));
        assert_eq!(r.back(1), Some(Move::Pass));
        assert_eq!(r.back(2), Some(Move::Play(Point::new(16, 2))));
        assert_eq!(r.point(1), Some(Point::new(16, 2)));
        assert_eq!(r.point(0), None);
        // The setup is fixed once a move is recorded.
        r.add_setup(Point::new(9, 9));
        assert_eq!(r.setup(Color::Black).len(), 4);
        // A replay plays the passes (the board counts them).
        let mut board = Board::empty(Size::STANDARD, Rules::STANDARD);
        r.replay(&mut board, |_, _| {}).unwrap();
        assert_eq!(board.stone_count(), 5);
        assert!(board.is_game_over());
        r.truncate(3);
        assert_eq!(r.passes_at_end(), 1);
    }

    #[test]
    fn the_budget_is_kept() {
        let mut r = Record::new();
        let b: Board<StonesOnly> = Board::empty(Size::STANDARD, Rules::STANDARD);
        r.start(&b, Color::Black);
        for i in 0..MAX_MOVES {
            assert!(r.push(Point::new((i % 19) as u8, (i / 19 % 19) as u8)));
        }
        assert!(r.is_full());
        assert!(!r.push(Point::new(0, 0)));
        assert_eq!(r.len(), MAX_MOVES);
        r.truncate(3);
        assert_eq!(r.len(), 3);
        assert_eq!(core::mem::size_of::<Record>(), 2208);
    }
}
