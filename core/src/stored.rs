//! Stored games: a game's main line as an index keeps it — its moves, and its setup stones
//! each with the number of moves played before it is set — read back as [`Event`]s
//! ([`StoredGame::events`]) or replayed position by position ([`GameReplay`]).
//!
//! One trait, [`StoredGame`], for every place a stored game lives: the games of an index
//! ([`crate::index::Index::stored_game`]) and the builder's games in memory. One replay for
//! every reader: the index's exact position check, the build's collision check, the
//! shell's replay of a listed game, pattern search and the move predictor.
//!
//! The two record kinds are encoded here, encoder beside decoder (layout: `docs/FORMAT.md`):
//!
//! | record | bits | fields |
//! |---|---|---|
//! | move ([`encode_move`], [`decode_move`]) | 10 | code 0-8 (`y * 19 + x`, 361 a pass), colour 9 (1 White) |
//! | setup stone ([`SetupRecord`]) | 32 | moves played before it 0-15, point code 16-24, stone 25-26 ([`Stone::code`]), 27-31 zero |
//!
//! A replay plays every move as recorded ([`Rules::RECORD`]: suicide applied, no ko check).
//! Position `n` is the board after the first `n` moves and the setup stones set before move
//! `n`: position 0 holds the setup of the root (handicap stones), the last position the
//! board after the last move.

use crate::board::{Board, Hashed, MoveError, Rules, Tracking};
use crate::event::Event;
use crate::format::Field;
use crate::point::{Color, Move, Point, Size, Stone, MAX_POINTS};

/// Width in bits of a move record.
pub const MOVE_BITS: u32 = 10;
/// The move's code ([`Move::code`]).
const MOVE_CODE: Field = Field::new(0, 9);
/// The mover's colour: 0 Black, 1 White.
const MOVE_COLOR: Field = MOVE_CODE.then(1);

/// A move as a [`MOVE_BITS`]-bit record.
#[inline]
pub const fn encode_move(color: Color, mv: Move) -> u64 {
    MOVE_CODE.put(mv.code() as u64) | MOVE_COLOR.put(color.index() as u64)
}

/// The move of a record; `None` for a code above 361 (bits above [`MOVE_BITS`] are ignored).
#[inline]
pub const fn decode_move(v: u64) -> Option<(Color, Move)> {
    let color = if MOVE_COLOR.get(v) == 1 {
        Color::White
    } else {
        Color::Black
    };
    match Move::from_code(MOVE_CODE.get(v) as u16) {
        Some(mv) => Some((color, mv)),
        None => None,
    }
}

/// The move code of a record (`y * 19 + x`, 361 a pass, up to 511 in a damaged record),
/// without making a [`Move`]: for readers that decode records in bulk (pattern search).
#[inline(always)]
pub const fn move_record_code(v: u64) -> u16 {
    MOVE_CODE.get(v) as u16
}

/// Whether a move record is White's (see [`move_record_code`]).
#[inline(always)]
pub const fn move_record_white(v: u64) -> bool {
    MOVE_COLOR.get(v) == 1
}

/// The most moves a stored game holds: a setup record names the moves played before it in
/// 16 bits ([`SetupRecord::before`]), so the builder ends a longer main line there.
pub const MAX_GAME_MOVES: usize = u16::MAX as usize;

/// A setup stone (SGF `AB`/`AW`/`AE`) with the number of moves played before it is set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SetupRecord {
    /// Moves played before the stone is set (0: the root's setup).
    pub before: u16,
    /// The point.
    pub point: Point,
    /// What is put there ([`Stone::Empty`] clears it).
    pub stone: Stone,
}

impl SetupRecord {
    /// Width in bits of a setup record.
    pub const BITS: u32 = 32;
    const BEFORE: Field = Field::new(0, 16);
    const POINT: Field = SetupRecord::BEFORE.then(9);
    const STONE: Field = SetupRecord::POINT.then(2);
    const RESERVED: Field = SetupRecord::STONE.then(5);

    /// The record's [`SetupRecord::BITS`] bits (the point must lie on a 19x19 board).
    #[inline]
    pub const fn encode(self) -> u64 {
        SetupRecord::BEFORE.put(self.before as u64)
            | SetupRecord::POINT.put(self.point.index19() as u64)
            | SetupRecord::STONE.put(self.stone.code() as u64)
    }

    /// The setup stone of a record; `None` for a point code past 19x19, a stone code 3 or
    /// reserved bits set.
    #[inline]
    pub const fn decode(v: u64) -> Option<SetupRecord> {
        if SetupRecord::RESERVED.get(v) != 0 || v >> SetupRecord::BITS != 0 {
            return None;
        }
        let code = SetupRecord::POINT.get(v);
        if code >= MAX_POINTS as u64 {
            return None;
        }
        let (Some(point), Some(stone)) = (
            Point::from_index19(code as u16),
            Stone::from_code(SetupRecord::STONE.get(v) as u8),
        ) else {
            return None;
        };
        Some(SetupRecord {
            before: SetupRecord::BEFORE.get(v) as u16,
            point,
            stone,
        })
    }

    /// The setup as an event.
    #[inline]
    pub const fn event(self) -> Event {
        Event::Setup {
            point: self.point,
            stone: self.stone,
        }
    }
}

/// A game's stored main line: what [`StoredGame::events`] and [`GameReplay`] read.
///
/// Setup stones come in order of [`SetupRecord::before`].
pub trait StoredGame {
    /// The board size.
    fn size(&self) -> Size;
    /// Number of moves.
    fn move_count(&self) -> u32;
    /// Move `i` (0-based) and its colour; `None` past the end or for a record that holds no
    /// move.
    fn move_at(&self, i: u32) -> Option<(Color, Move)>;
    /// Number of setup stones.
    fn setup_count(&self) -> u32;
    /// Setup stone `i`; `None` past the end or for a record that holds no setup stone.
    fn setup_at(&self, i: u32) -> Option<SetupRecord>;

    /// The game's events in order: each move after the setup stones set before it.
    fn events(&self) -> Events<&Self> {
        Events::new(self)
    }

    /// The game replayed from its first position on a board that keeps what `T` tracks
    /// ([`crate::board::StonesOnly`] for a replay that only looks at the stones).
    /// ([`GameReplay::new`] makes a replay that owns its game.)
    fn replay<T: Tracking>(&self) -> GameReplay<&Self, T> {
        GameReplay::new(self)
    }
}

impl<G: StoredGame + ?Sized> StoredGame for &G {
    #[inline]
    fn size(&self) -> Size {
        (**self).size()
    }
    #[inline]
    fn move_count(&self) -> u32 {
        (**self).move_count()
    }
    #[inline]
    fn move_at(&self, i: u32) -> Option<(Color, Move)> {
        (**self).move_at(i)
    }
    #[inline]
    fn setup_count(&self) -> u32 {
        (**self).setup_count()
    }
    #[inline]
    fn setup_at(&self, i: u32) -> Option<SetupRecord> {
        (**self).setup_at(i)
    }
}

/// The iterator of [`StoredGame::events`]; it ends at the first record that holds nothing.
#[derive(Clone, Debug)]
pub struct Events<G> {
    game: G,
    moves: u32,
    setup: u32,
}

impl<G: StoredGame> Events<G> {
    /// The events of `game` (a reference, or a game that is cheap to copy).
    pub fn new(game: G) -> Self {
        Events {
            game,
            moves: 0,
            setup: 0,
        }
    }
}

impl<G: StoredGame> Iterator for Events<G> {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        if self.setup < self.game.setup_count() {
            let r = self.game.setup_at(self.setup)?;
            if r.before as u32 <= self.moves {
                self.setup += 1;
                return Some(r.event());
            }
        }
        if self.moves < self.game.move_count() {
            let (color, mv) = self.game.move_at(self.moves)?;
            self.moves += 1;
            return Some(Event::Play { color, mv });
        }
        None
    }
}

/// One position of a [`GameReplay`], as [`GameReplay::next_position`] yields it.
#[derive(Debug)]
pub struct Position<'r, T: Tracking = Hashed> {
    /// Moves played before it (0: the start, its setup stones set).
    pub move_number: u32,
    /// The board.
    pub board: &'r Board<T>,
    /// The move played from it, `None` after the last move.
    pub next: Option<(Color, Move)>,
}

/// A stored game being replayed: a board at one of the game's positions, moved forward
/// move by move (see the module documentation). No allocation: the board and a few
/// counters.
///
/// ```
/// use kifudex_core::board::StonesOnly;
/// use kifudex_core::stored::{encode_move, StoredGame, SetupRecord};
/// use kifudex_core::{Color, Move, Point, Size, Stone};
///
/// /// A game in memory: moves as records, setup stones as they are.
/// struct Game(Vec<u64>, Vec<SetupRecord>);
///
/// impl StoredGame for Game {
///     fn size(&self) -> Size { Size::STANDARD }
///     fn move_count(&self) -> u32 { self.0.len() as u32 }
///     fn move_at(&self, i: u32) -> Option<(Color, Move)> {
///         kifudex_core::stored::decode_move(*self.0.get(i as usize)?)
///     }
///     fn setup_count(&self) -> u32 { self.1.len() as u32 }
///     fn setup_at(&self, i: u32) -> Option<SetupRecord> { self.1.get(i as usize).copied() }
/// }
///
/// let pd = Move::Play(Point::new(15, 3));
/// let dp = Move::Play(Point::new(3, 15));
/// let handicap = SetupRecord { before: 0, point: Point::new(15, 15), stone: Stone::Black };
/// let game = Game(
///     vec![encode_move(Color::White, pd), encode_move(Color::Black, dp)],
///     vec![handicap],
/// );
/// let mut replay = game.replay::<StonesOnly>();
/// let mut seen = Vec::new();
/// while let Some(p) = replay.next_position() {
///     seen.push((p.move_number, p.board.stone_count(), p.next));
/// }
/// assert_eq!(
///     seen,
///     [(0, 1, Some((Color::White, pd))), (1, 2, Some((Color::Black, dp))), (2, 3, None)]
/// );
/// ```
#[derive(Clone, Debug)]
pub struct GameReplay<G, T: Tracking = Hashed> {
    game: G,
    board: Board<T>,
    /// Moves played.
    played: u32,
    /// Setup stones set.
    setup: u32,
    /// [`GameReplay::next_position`] yielded the current position.
    yielded: bool,
    /// Why the replay cannot go on (a record that cannot be played).
    stuck: Option<MoveError>,
}

impl<G: StoredGame, T: Tracking> GameReplay<G, T> {
    /// The game at its first position (its root's setup stones set).
    pub fn new(game: G) -> Self {
        let board = Board::empty(game.size(), Rules::RECORD);
        let mut r = GameReplay {
            game,
            board,
            played: 0,
            setup: 0,
            yielded: false,
            stuck: None,
        };
        r.set_up();
        r
    }

    /// Sets the setup stones set before the next move.
    #[inline]
    fn set_up(&mut self) {
        while self.setup < self.game.setup_count() {
            let Some(r) = self.game.setup_at(self.setup) else {
                self.stuck = Some(MoveError::OffBoard);
                return;
            };
            if r.before as u32 > self.played {
                return;
            }
            if let Err(e) = self.board.set_stone(r.point, r.stone) {
                self.stuck = Some(e);
                return;
            }
            self.setup += 1;
        }
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The board at the current position.
    #[inline]
    pub fn board(&self) -> &Board<T> {
        &self.board
    }

    /// The board at the current position, taken out of the replay.
    pub fn into_board(self) -> Board<T> {
        self.board
    }

    /// Moves played so far: the current position's number.
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.played
    }

    /// The move played from the current position, `None` after the last one.
    #[inline]
    pub fn next_move(&self) -> Option<(Color, Move)> {
        self.game.move_at(self.played)
    }

    /// Why the replay stopped before the end: a move or a setup stone that cannot be
    /// played (only in a game that no validated index holds).
    pub fn stuck(&self) -> Option<MoveError> {
        self.stuck
    }

    /// Plays the next move (and sets the setup stones set before the one after it);
    /// returns it. `None` at the end of the game or when the replay is stuck (the board
    /// then stays as it was).
    #[inline]
    pub fn advance(&mut self) -> Option<(Color, Move)> {
        if self.stuck.is_some() {
            return None;
        }
        let (color, mv) = self.next_move()?;
        if let Err(e) = self.board.place(color, mv) {
            self.stuck = Some(e);
            return None;
        }
        self.played += 1;
        self.yielded = false;
        self.set_up();
        Some((color, mv))
    }

    /// Moves forward to position `n` (after `n` moves). Returns whether the replay is
    /// there: `false` if `n` is behind the current position, past the last move, or a
    /// record on the way cannot be played.
    pub fn seek(&mut self, n: u32) -> bool {
        while self.played < n {
            if self.advance().is_none() {
                return false;
            }
        }
        self.played == n && self.stuck.is_none()
    }

    /// The next position, for a `while let` loop over the game: the first call yields the
    /// current position, each later call plays a move first. `None` after the last
    /// position (or where the replay is stuck).
    pub fn next_position(&mut self) -> Option<Position<'_, T>> {
        if self.yielded {
            self.advance()?;
        }
        if self.stuck.is_some() {
            return None;
        }
        self.yielded = true;
        Some(Position {
            move_number: self.played,
            next: self.next_move(),
            board: &self.board,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::StonesOnly;

    struct Mem {
        size: Size,
        moves: [u64; 4],
        n: u32,
        setup: [SetupRecord; 2],
        s: u32,
    }

    impl StoredGame for Mem {
        fn size(&self) -> Size {
            self.size
        }
        fn move_count(&self) -> u32 {
            self.n
        }
        fn move_at(&self, i: u32) -> Option<(Color, Move)> {
            decode_move(*self.moves.get(i as usize).filter(|_| i < self.n)?)
        }
        fn setup_count(&self) -> u32 {
            self.s
        }
        fn setup_at(&self, i: u32) -> Option<SetupRecord> {
            self.setup.get(i as usize).copied().filter(|_| i < self.s)
        }
    }

    fn pt(x: u8, y: u8) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn move_records_round_trip() {
        for code in 0..=361u16 {
            let mv = Move::from_code(code).unwrap();
            for color in [Color::Black, Color::White] {
                let v = encode_move(color, mv);
                assert!(v >> MOVE_BITS == 0);
                assert_eq!(decode_move(v), Some((color, mv)));
                assert_eq!(move_record_code(v), code);
                assert_eq!(move_record_white(v), color == Color::White);
            }
        }
        assert_eq!(decode_move(362), None);
        assert_eq!(decode_move(511 | 512), None);
        assert_eq!(encode_move(Color::White, Move::Pass), 361 | 512);
    }

    #[test]
    fn setup_records_round_trip() {
        for (before, code, stone) in [
            (0u16, 0u16, Stone::Empty),
            (u16::MAX, 360, Stone::White),
            (7, 60, Stone::Black),
        ] {
            let r = SetupRecord {
                before,
                point: Point::from_index19(code).unwrap(),
                stone,
            };
            let v = r.encode();
            assert!(v >> SetupRecord::BITS == 0);
            assert_eq!(SetupRecord::decode(v), Some(r));
        }
        // The field layout of docs/FORMAT.md.
        let r = SetupRecord {
            before: 3,
            point: pt(1, 1),
            stone: Stone::White,
        };
        assert_eq!(r.encode(), 3 | 20 << 16 | 2 << 25);
        assert_eq!(SetupRecord::decode(361 << 16), None);
        assert_eq!(SetupRecord::decode(3 << 25), None);
        assert_eq!(SetupRecord::decode(1 << 27), None);
        assert_eq!(SetupRecord::decode(1 << 32), None);
    }

    fn game() -> Mem {
        // Setup B at (1,1) before move 0, W at (2,2) before move 2; moves B aa, W ba, B pass.
        Mem {
            size: Size::square(5).unwrap(),
            moves: [
                encode_move(Color::Black, Move::Play(pt(0, 0))),
                encode_move(Color::White, Move::Play(pt(1, 0))),
                encode_move(Color::Black, Move::Pass),
                0,
            ],
            n: 3,
            setup: [
                SetupRecord {
                    before: 0,
                    point: pt(1, 1),
                    stone: Stone::Black,
                },
                SetupRecord {
                    before: 2,
                    point: pt(2, 2),
                    stone: Stone::White,
                },
            ],
            s: 2,
        }
    }

    #[test]
    fn events_put_setup_before_its_move() {
        let g = game();
        let ev: heapless::Vec<Event, 8> = g.events().collect();
        assert_eq!(ev.len(), 5);
        assert_eq!(ev[0], g.setup[0].event());
        assert!(ev[1].is_play() && ev[2].is_play());
        assert_eq!(ev[3], g.setup[1].event());
        assert_eq!(ev[4].play(), Some((Color::Black, Move::Pass)));
    }

    #[test]
    fn replay_visits_every_position() {
        let g = game();
        let mut r = g.replay::<StonesOnly>();
        let mut counts: heapless::Vec<(u32, u16, bool), 8> = heapless::Vec::new();
        while let Some(p) = r.next_position() {
            counts
                .push((p.move_number, p.board.stone_count(), p.next.is_some()))
                .unwrap();
        }
        assert_eq!(
            &counts[..],
            &[(0, 1, true), (1, 2, true), (2, 4, true), (3, 4, false)]
        );
        assert_eq!(r.stuck(), None);
        // Seeking gives the same positions; backwards is refused.
        let mut s = g.replay::<Hashed>();
        assert!(s.seek(2));
        assert_eq!(s.board().get(pt(2, 2)), Stone::White);
        assert!(!s.seek(1));
        assert!(s.seek(3));
        assert!(!s.seek(4));
    }

    #[test]
    fn a_move_that_cannot_be_played_stops_the_replay() {
        let mut g = game();
        g.moves[1] = encode_move(Color::White, Move::Play(pt(1, 1))); // occupied
        let mut r = g.replay::<StonesOnly>();
        assert!(r.next_position().is_some());
        assert!(r.next_position().is_some());
        assert!(r.next_position().is_none());
        assert_eq!(r.stuck(), Some(MoveError::Occupied));
        assert_eq!(r.move_number(), 1);
        assert!(!g.replay::<StonesOnly>().seek(2));
    }
}
