//! The games a predictor learns from and is tested on: each game's setup and moves, read
//! from an index, and the split into disjoint training and test games.

use kifudex_core::board::{Board, Rules, StonesOnly};
use kifudex_core::index::{Index, Step};
use kifudex_core::predict::History;
use kifudex_core::{Color, Move, Size};

/// One game: its board size and its record as replay steps (setup stones and moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The board size.
    pub size: Size,
    /// Setup stones and moves in order.
    pub steps: Vec<Step>,
}

impl Game {
    /// The moves of the game.
    pub fn moves(&self) -> impl Iterator<Item = (Color, Move)> + '_ {
        self.steps.iter().filter_map(|s| match *s {
            Step::Move(c, m) => Some((c, m)),
            Step::Setup(..) => None,
        })
    }

    /// Replays the game as recorded, calling `f(move_number, board, history, colour,
    /// move)` before each move (0-based move number); stops at the first move the board
    /// refuses (the index never stores one).
    pub fn replay(&self, mut f: impl FnMut(usize, &Board<StonesOnly>, History, Color, Move)) {
        let mut board = Board::<StonesOnly>::empty(self.size, Rules::RECORD);
        let mut history = History::default();
        let mut n = 0usize;
        for step in &self.steps {
            match *step {
                Step::Setup(p, s) => {
                    if board.set_stone(p, s).is_err() {
                        return;
                    }
                }
                Step::Move(c, m) => {
                    f(n, &board, history, c, m);
                    if board.play(c, m).is_err() {
                        return;
                    }
                    history = History {
                        last: Some(m),
                        before: history.last,
                    };
                    n += 1;
                }
            }
        }
    }
}

/// Every game of an index, in the index's order.
pub fn from_index(index: &Index<'_>) -> Vec<Game> {
    (0..index.game_count())
        .filter_map(|id| {
            let g = index.game(id)?;
            Some(Game {
                size: g.size,
                steps: index.steps(id).collect(),
            })
        })
        .collect()
}

/// How many moves of a game decide its side of the split.
pub const SPLIT_PREFIX: usize = 40;

/// The split key of a game: FNV-1a over its board size, its setup stones and its first
/// [`SPLIT_PREFIX`] moves. Two records of one game (the same game in two collections,
/// whatever their length, comments or game information) have the same key, so they land
/// on the same side of the split.
pub fn split_key(game: &Game) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |v: u32| {
        for b in v.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(game.size.width() as u32 | (game.size.height() as u32) << 8);
    let mut moves = 0;
    for step in &game.steps {
        match *step {
            Step::Setup(p, s) => eat(0x1_0000 | p.index19() as u32 | (s as u32) << 9),
            Step::Move(c, m) => {
                if moves == SPLIT_PREFIX {
                    break;
                }
                moves += 1;
                eat(0x2_0000 | m.code() as u32 | (c.index() as u32) << 9);
            }
        }
    }
    h
}

/// Whether a game is a test game: one in `every` by its [`split_key`] (a mixing step
/// first, so that the low bits depend on every byte).
pub fn is_test(game: &Game, every: u64) -> bool {
    let mut z = split_key(game);
    z = (z ^ (z >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    z ^= z >> 33;
    every > 0 && z.is_multiple_of(every)
}
