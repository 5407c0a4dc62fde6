//! Wildcard pattern search (`docs/CONTRACTS.md`, "Pattern search"): where a local shape
//! appeared, in any orientation and with colours exchanged, and what was played next in
//! that region.
//!
//! - [`cells`]: the pattern (`. X O x o *`), the search area, rectangles;
//! - [`query`]: the pattern compiled into board-frame variants with bit masks, its
//!   symmetry and continuation classes;
//! - [`stored`]: what is kept of each game for the search, in blocks of 64 games: its
//!   layout, encoder and reader;
//! - [`search`]: the plan of a query, the search of a block of games with the stored data,
//!   the scans of single games and the continuations counted.
//!
//! The layers run one way: `cells`, `query`, then `stored` (which knows no query), then
//! `search`; `ARCHITECTURE.md` lists each file, and a test checks that no import goes
//! against them or round in a circle.
//!
//! Everything here is `no_std` without allocation; the host runs the blocks in parallel
//! and aggregates.

pub mod cells;
pub mod query;
pub mod search;
pub mod stored;

pub use cells::{Area, Cell, Pattern, PatternError, Rect};
pub use query::{PatternQuery, Variant};
pub use search::hits::{scan_game, Candidates, Continuation, GameSource, Hit, SliceGame};
pub use search::lines::BlockLines;
pub use search::plan::{ScanPlan, Strategy};
pub use search::stats::{ClassCounts, ContinuationClass, ContinuationStats};
pub use stored::header::PatternHeader;
pub use stored::reader::PatternIndex;
