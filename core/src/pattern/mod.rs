//! Wildcard pattern search (`docs/CONTRACTS.md`, "Pattern search"): where a local shape
//! appeared, in any orientation and with colours exchanged, and what was played next in
//! that region.
//!
//! - [`cells`]: the pattern (`. X O x o *`), the search area, rectangles;
//! - [`query`]: the pattern compiled into board-frame variants with bit masks, its
//!   symmetry and continuation classes;
//! - [`scan`]: the hits of one game (a match newly appearing on a region) and their
//!   continuations;
//! - [`stats`]: continuations counted by class, in the contract's order;
//! - [`summary`]: what is kept of each game for the search (points that ever held a
//!   stone, its first stones, the stones each move removed), computed by one replay;
//! - [`corner`]: the 7x7 box at each corner summed up by its first stones, so that a
//!   corner pattern without wildcards there is looked up;
//! - [`first`]: the first stones of a game: where each point first holds a stone, of
//!   which colour, and which points change again;
//! - [`decide`]: a corner or side placement decided in one game from its first stones;
//! - [`local`]: the scan of a game for a pattern that fits in 3x3, with a base-3 code of
//!   every point's neighbourhood kept up to date move by move;
//! - [`pairscan`]: the scan of a game for few placements (corner and side patterns),
//!   each a bit of a `u128`;
//! - [`plan`]: how a block of games is narrowed to the games and placements to replay;
//! - [`accel`]: the reader of that data and the search of a block of 64 games with it;
//!   `writer` (feature `alloc`): its encoder.
//!
//! Everything here is `no_std` without allocation; the host runs the blocks in parallel
//! and aggregates.

pub mod accel;
pub mod cells;
pub mod corner;
pub mod decide;
pub mod first;
pub mod local;
pub mod pairscan;
pub mod plan;
pub mod query;
pub mod scan;
pub mod stats;
pub mod summary;
mod verify;
#[cfg(feature = "alloc")]
pub mod writer;

pub use accel::{BlockLines, PatternHeader, PatternIndex};
pub use cells::{Area, Cell, Pattern, PatternError, Rect};
pub use plan::{ScanPlan, Strategy};
pub use query::{PatternQuery, Variant};
pub use scan::{scan_game, Candidates, Continuation, GameSource, Hit, SliceGame};
pub use stats::{ClassCounts, ContinuationClass, ContinuationStats};
