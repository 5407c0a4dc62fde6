//! The games a predictor learns from and is tested on: any [`StoredGame`] (the games of an
//! index, or the builder's games in memory), replayed position by position by the core's
//! [`GameReplay`](kifudex_core::stored::GameReplay), and the split into disjoint training
//! and test games.

use kifudex_core::board::{Board, StonesOnly};
use kifudex_core::event::Event;
use kifudex_core::index::{Index, IndexGame};
use kifudex_core::predict::History;
use kifudex_core::stored::StoredGame;
use kifudex_core::{Color, Move};

/// Every game of an index, in the index's order.
pub fn from_index<'a>(index: &Index<'a>) -> Vec<IndexGame<'a>> {
    (0..index.game_count())
        .filter_map(|id| index.stored_game(id))
        .collect()
}

/// Replays `game` as recorded, calling `f(move_number, board, history, colour, move)` at
/// each position followed by a move (0-based move number): the board before the move and
/// what is known of the two moves before it.
pub fn each_position<G: StoredGame>(
    game: &G,
    mut f: impl FnMut(usize, &Board<StonesOnly>, History, Color, Move),
) {
    let mut replay = game.replay::<StonesOnly>();
    let mut history = History::default();
    while let Some(pos) = replay.next_position() {
        let Some((color, mv)) = pos.next else { break };
        f(pos.move_number as usize, pos.board, history, color, mv);
        history = History {
            last: Some(mv),
            before: history.last,
        };
    }
}

/// How many moves of a game decide its side of the split.
pub const SPLIT_PREFIX: usize = 40;

/// The split key of a game: FNV-1a over its board size, its setup stones and its first
/// [`SPLIT_PREFIX`] moves. Two records of one game (the same game in two collections,
/// whatever their length, comments or game information) have the same key, so they land
/// on the same side of the split.
pub fn split_key<G: StoredGame>(game: &G) -> u64 {
    split_key_of(game.size(), game.events())
}

/// [`split_key`] of a game given by its size and main line (a record read from SGF).
pub fn split_key_of(size: kifudex_core::Size, events: impl IntoIterator<Item = Event>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |v: u32| {
        for b in v.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(size.width() as u32 | (size.height() as u32) << 8);
    let mut moves = 0;
    for ev in events {
        match ev {
            Event::Setup { point, stone } => {
                eat(0x1_0000 | point.index19() as u32 | (stone.code() as u32) << 9)
            }
            Event::Play { color, mv } => {
                if moves == SPLIT_PREFIX {
                    break;
                }
                moves += 1;
                eat(0x2_0000 | mv.code() as u32 | (color.index() as u32) << 9);
            }
        }
    }
    h
}

/// Whether a game is a test game: one in `every` by its [`split_key`] (a mixing step
/// first, so that the low bits depend on every byte).
pub fn is_test<G: StoredGame>(game: &G, every: u64) -> bool {
    is_test_key(split_key(game), every)
}

/// [`is_test`] of a game's [`split_key`].
pub fn is_test_key(key: u64, every: u64) -> bool {
    let mut z = key;
    z = (z ^ (z >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    z ^= z >> 33;
    every > 0 && z.is_multiple_of(every)
}
