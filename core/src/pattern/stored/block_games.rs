//! Games in blocks of 64, the unit of pattern search's stored data: bit `g` of a block's
//! words is game `64 * block + g`. Every place that turns a game id into its block and back
//! goes through these functions.

use core::ops::Range;

/// Games per block.
pub const BLOCK_GAMES: usize = 64;

/// The number of blocks that hold `games` games.
#[inline]
pub const fn block_count(games: u32) -> usize {
    (games as usize).div_ceil(BLOCK_GAMES)
}

/// The block of game `id` and the game's place in it (its bit in the block's words).
#[inline]
pub const fn block_of(id: u32) -> (usize, usize) {
    (id as usize / BLOCK_GAMES, id as usize % BLOCK_GAMES)
}

/// The id of game `g` of `block`.
#[inline]
pub const fn game_id(block: usize, g: usize) -> u32 {
    (block * BLOCK_GAMES + g) as u32
}

/// The ids of the games of `block` in a collection of `games` games (empty past the last
/// block).
#[inline]
pub fn games_of(block: usize, games: u32) -> Range<u32> {
    let first = (block as u64 * BLOCK_GAMES as u64).min(games as u64) as u32;
    let end = (first as u64 + BLOCK_GAMES as u64).min(games as u64) as u32;
    first..end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_blocks_and_ranges_agree() {
        for games in [0u32, 1, 63, 64, 65, 128, 1000] {
            let blocks = block_count(games);
            let mut seen = 0u32;
            for b in 0..blocks + 1 {
                for id in games_of(b, games) {
                    assert_eq!(id, seen, "games {games} block {b}");
                    let (bb, g) = block_of(id);
                    assert_eq!((bb, game_id(bb, g)), (b, id));
                    seen += 1;
                }
            }
            assert_eq!(seen, games);
            assert!(games_of(blocks, games).is_empty());
        }
    }
}
