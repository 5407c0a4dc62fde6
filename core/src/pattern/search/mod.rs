//! The search: a pattern's plan over a block of games, the decisions from first stones and
//! corner boxes, the scans of single games, and the continuations counted.
//!
//! - [`plan`]: how a block of games is narrowed to the games and placements to replay;
//!   [`pair_tables`] its per-point masks for few placements, [`corner_key`] what a corner
//!   placement asks of a corner box, [`lines`] the lines of a block the search reads;
//! - [`decide`]: a corner or side placement decided in one game from its first stones;
//! - [`hits`]: the hits of one game (a match newly appearing on a region) and their
//!   continuations; [`local`] the scan for a pattern that fits in 3x3 (a base-3 code of
//!   every point's neighbourhood kept up to date move by move); [`pairscan`] the scan for
//!   few placements (corner and side patterns), each a bit of a `u128`;
//! - [`blocks`]: the search of one block of 64 games with the stored data;
//!   [`indexed_game`] a stored game as the scan reads it;
//! - [`stats`]: continuations counted by class, in the contract's order.

pub mod blocks;
pub mod corner_key;
pub mod decide;
pub mod hits;
pub mod indexed_game;
pub mod lines;
pub mod local;
pub mod pair_tables;
pub mod pairscan;
pub mod plan;
pub mod stats;
