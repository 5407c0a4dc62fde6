//! Pattern search's stored data: what is kept of each game for the search, its layout in
//! blocks of 64 games, its encoder and its reader.
//!
//! - [`summary`]: what is kept of each game (points that ever held a stone, its first
//!   stones, the stones each move removed), computed by one replay; [`first`] the first
//!   stones (where each point first holds a stone, of which colour, which points change
//!   again); [`corner`] the 7x7 box at each corner summed up by its first stones;
//! - [`block_games`]: games in blocks of 64 (ids to blocks and back); [`block`] a block's
//!   layout, its encoder and the parts a search reads; [`header`] where the sections lie;
//! - [`reader`]: the sections opened, checked and read back; `writer` (feature `alloc`):
//!   the encoder of the whole; `verify`: every record checked against a fresh summary.

pub mod block;
pub mod block_games;
pub mod corner;
pub mod first;
pub mod header;
pub mod reader;
pub mod summary;
mod verify;
#[cfg(feature = "alloc")]
pub mod writer;
