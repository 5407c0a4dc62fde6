//! What pattern search keeps of each game besides its moves, computed by one replay of
//! its setup and moves with captures ([`summarize`], the function the index builder calls
//! per game), and the byte layouts of these records (encoders here and in
//! [`super::first`], beside the reader in [`super::reader`]).
//!
//! - [`GameSummary`]: the points that ever held a black / a white stone, whether the game
//!   is searched (19x19) and its winner, and its first stones ([`FirstStones`]);
//! - the removed stones: every stone a move removed, as (move number, point).

use crate::board::{Board, Captures, Rules, StonesOnly};
use crate::event::Event;
use crate::format::Field;
use crate::point::{Color, Move, Point, Size, Stone, MAX_POINTS};
use crate::pointset::PointSet;
use crate::stored::StoredGame;

use super::corner::{CornerBoxes, CornerNotes};
use super::first::{FirstStoneNotes, FirstStones, UNSETTLED_ROW_BYTES};

/// What the pattern data holds of one game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSummary {
    /// Whether pattern search reads the game (a 19x19 board).
    pub searched: bool,
    /// The winner by the record.
    pub winner: Option<Color>,
    /// Points that ever held a black stone (setup included).
    pub ever_black: PointSet,
    /// Points that ever held a white stone.
    pub ever_white: PointSet,
    /// The first stones.
    pub first: FirstStones,
    /// The corner boxes (empty for a game not searched).
    pub corners: CornerBoxes,
}

/// Notes what pattern search keeps of a game while something else replays it (the index
/// builder's replay, [`summarize`]): call [`Summarizer::setup`] after each setup stone
/// the board accepted, [`Summarizer::play`] after each move it accepted (a move it refused
/// must end the replay, as it ends the stored main line), then [`Summarizer::finish`].
#[derive(Clone, Debug)]
pub struct Summarizer {
    summary: GameSummary,
    first: FirstStoneNotes,
    corners: CornerNotes,
    /// Moves played so far.
    moves: u32,
}

impl Summarizer {
    /// A game on a board of `size` won by `winner`. Games not on a 19x19 board are not
    /// searched: they note nothing (an empty summary, no removals).
    pub fn new(size: Size, winner: Option<Color>) -> Summarizer {
        Summarizer {
            summary: GameSummary {
                searched: size == Size::STANDARD,
                winner,
                ..GameSummary::default()
            },
            first: FirstStoneNotes::new(),
            corners: CornerNotes::new(),
            moves: 0,
        }
    }

    fn ever(&mut self, p: Point, new: Stone) {
        match new {
            Stone::Black => self.summary.ever_black.insert(p),
            Stone::White => self.summary.ever_white.insert(p),
            Stone::Empty => false,
        };
    }

    /// A setup stone `new` was put on `p`, which held `old`.
    pub fn setup(&mut self, p: Point, old: Stone, new: Stone) {
        if !self.summary.searched || old == new {
            return;
        }
        self.ever(p, new);
        self.corners.change(p, old, new, self.moves, true);
        if self.moves == 0 {
            self.first.start(p, new);
        } else {
            self.first.change(p, new, self.moves, true);
        }
    }

    /// `color` played `mv`, removing `caps`; every removed stone is passed to `removed`
    /// as (move number, point), in order.
    pub fn play(
        &mut self,
        color: Color,
        mv: Move,
        caps: &Captures,
        mut removed: impl FnMut(u32, Point),
    ) {
        if !self.summary.searched {
            return;
        }
        self.moves += 1;
        let n = self.moves;
        if let Move::Play(p) = mv {
            // A suicide removes the played stone with its group: it comes and goes.
            self.ever(p, Stone::of(color));
            self.first.change(p, Stone::of(color), n, false);
            self.corners
                .change(p, Stone::Empty, Stone::of(color), n, false);
        }
        if caps.count == 0 {
            return;
        }
        for p in caps.points.iter() {
            self.first.change(p, Stone::Empty, n, false);
            let owner = if caps.own { color } else { color.opponent() };
            self.corners
                .change(p, Stone::of(owner), Stone::Empty, n, false);
            removed(n, p);
        }
    }

    /// The summary, once the replay is over.
    pub fn finish(mut self) -> GameSummary {
        if self.summary.searched {
            self.summary.first = self.first.finish();
            self.summary.corners = self.corners.finish();
        }
        self.summary
    }
}

/// Replays a stored game with captures (its events, [`StoredGame::events`]): its summary,
/// and every removed stone passed to `removed` as (move number, point) in order. Games not
/// on a 19x19 board are not searched: an empty summary, no removals.
pub fn summarize<G: StoredGame>(
    game: &G,
    winner: Option<Color>,
    mut removed: impl FnMut(u32, Point),
) -> GameSummary {
    let size = game.size();
    let mut notes = Summarizer::new(size, winner);
    if size != Size::STANDARD {
        return notes.finish();
    }
    let mut board: Board<StonesOnly> = Board::empty(size, Rules::RECORD);
    for event in game.events() {
        match event {
            Event::Setup { point: p, stone } => {
                let old = board.get(p);
                if board.set_stone(p, stone).is_ok() {
                    notes.setup(p, old, stone);
                }
            }
            Event::Play { color, mv } => {
                // (A stored game's moves are all legal: a refused one is skipped, as
                // the replay of a damaged index must still end.)
                if let Ok(caps) = board.play(color, mv) {
                    notes.play(color, mv, &caps, &mut removed);
                }
            }
        }
    }
    notes.finish()
}

/// A game's summary as the sections store it: its bits in the block words, its first-stone
/// bytes and its unsettled row as bytes (less memory than [`GameSummary`] for a builder
/// holding the summaries of a million games until they are ordered).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PackedSummary {
    /// [`GameSummary::searched`].
    pub searched: bool,
    /// [`GameSummary::winner`].
    pub winner: Option<Color>,
    /// [`GameSummary::ever_black`], bit `i` of word `i / 64` for the point `i`.
    pub ever_black: [u64; SET_WORDS],
    /// [`GameSummary::ever_white`], the same way.
    pub ever_white: [u64; SET_WORDS],
    /// [`FirstStones::first_white`], the same way.
    pub first_white: [u64; SET_WORDS],
    /// [`FirstStones::first`].
    pub first: [u8; MAX_POINTS],
    /// [`FirstStones::unsettled_row`], encoded.
    pub unsettled: [u8; UNSETTLED_ROW_BYTES],
    /// [`GameSummary::corners`].
    pub corners: CornerBoxes,
}

/// Words of a set of points packed one bit a point.
pub const SET_WORDS: usize = MAX_POINTS.div_ceil(64);

/// `set` packed one bit a point (bit `i % 64` of word `i / 64` for the point `i`).
pub fn pack_set(set: &PointSet) -> [u64; SET_WORDS] {
    let mut out = [0u64; SET_WORDS];
    for p in set.iter() {
        let i = p.index19() as usize;
        if let Some(w) = out.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }
    out
}

/// The set of [`pack_set`]'s words (bits past the board ignored).
pub fn unpack_set(words: &[u64; SET_WORDS]) -> PointSet {
    let mut s = PointSet::EMPTY;
    for (k, &w) in words.iter().enumerate() {
        let mut left = w;
        while left != 0 {
            let i = k * 64 + left.trailing_zeros() as usize;
            left &= left - 1;
            if let Some(p) = Point::from_index19(i as u16) {
                s.insert(p);
            }
        }
    }
    s
}

/// Whether point `i` is in a packed set.
#[inline]
pub fn packed_contains(words: &[u64; SET_WORDS], i: usize) -> bool {
    words.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
}

impl From<&GameSummary> for PackedSummary {
    fn from(s: &GameSummary) -> PackedSummary {
        PackedSummary {
            searched: s.searched,
            winner: s.winner,
            ever_black: pack_set(&s.ever_black),
            ever_white: pack_set(&s.ever_white),
            first_white: pack_set(&s.first.first_white),
            first: s.first.first,
            unsettled: s.first.unsettled_row().encode(),
            corners: s.corners,
        }
    }
}

/// A removal record: bits 0-8 the point code, bits 9-24 the move number (the encoder of
/// [`RemovalRecord`]; `move_number` must fit 16 bits).
pub fn removal_record(move_number: u32, p: Point) -> u64 {
    RemovalRecord::POINT.put(p.index19() as u64) | RemovalRecord::MOVE.put(move_number as u64)
}

/// A removal record read back: the stone a move removed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RemovalRecord {
    /// The (1-based) number of the move that removed it.
    pub move_number: u32,
    /// Its point's code `y * 19 + x` (below 361 in a validated index).
    pub code: u16,
}

impl RemovalRecord {
    /// Width in bits of a removal record.
    pub const BITS: u32 = 25;
    const POINT: Field = Field::new(0, 9);
    const MOVE: Field = RemovalRecord::POINT.then(16);

    /// The fields of record `v` as they are (bits above [`RemovalRecord::BITS`] ignored).
    #[inline(always)]
    pub const fn decode(v: u64) -> RemovalRecord {
        RemovalRecord {
            move_number: RemovalRecord::MOVE.get(v) as u32,
            code: RemovalRecord::POINT.get(v) as u16,
        }
    }

    /// Its point (`None` for a code past the board, which only a damaged file holds).
    #[inline]
    pub const fn point(self) -> Option<Point> {
        Point::from_index19(self.code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removal_records_round_trip() {
        for code in 0..361u16 {
            for n in [1u32, 2, 255, 256, 65_535] {
                let p = Point::from_index19(code).unwrap();
                let v = removal_record(n, p);
                assert!(v >> RemovalRecord::BITS == 0);
                let r = RemovalRecord::decode(v);
                assert_eq!((r.move_number, r.code, r.point()), (n, code, Some(p)));
            }
        }
        assert_eq!(RemovalRecord::decode(361 | 7 << 9).point(), None);
    }
}
