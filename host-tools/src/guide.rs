//! kifudex as a library: building an index, opening it, asking the explorer and reading
//! records, in one example that runs as a test (`cargo test --doc -p kifudex`).
//!
//! The command line, the shell, the web server and the Python package are thin front ends
//! over these calls: [`indexing::build`](crate::indexing::build) writes an index as `kifudex
//! build` does; [`explore::load`](crate::explore::load) maps it and
//! [`Explorer::open`](crate::explore::Explorer::open) opens it (time independent of its
//! size); every question is one [`Explorer`](crate::explore::Explorer) method taking a
//! request ([`explore::request`](crate::explore::request)) and returning an answer
//! ([`explore::answer`](crate::explore::answer)), which
//! [`print::json`](crate::print::json) prints as `--json` does and
//! [`print::text`](crate::print::text) for people; [`sgf`](crate::sgf) reads records.
//!
//! ```
//! use kifudex::indexing::{self, BuildOptions};
//! use kifudex::explore::request::{
//!     At, GameFilter, GamesRequest, Page, PatternRequest, Position, SearchRequest, Sort,
//! };
//! use kifudex::explore::{self, Explorer};
//! use kifudex::print::json;
//!
//! # fn main() -> anyhow::Result<()> {
//! // Records: here the archive bundled with kifudex (bGo's test archive of professional
//! // games); any files, archives or folders.
//! let dir = tempfile::tempdir()?;
//! let records = dir.path().join("TestSGF.tgz");
//! std::fs::write(&records, kifudex::sample::SAMPLE_TGZ)?;
//!
//! // Build an index, as `kifudex build TestSGF.tgz -o games.kdx` (written atomically).
//! let index = dir.path().join("games.kdx");
//! let report = indexing::build(&[records], &index, &BuildOptions::default())?;
//! println!("{}", report.summary());
//!
//! // Open it and ask: the next moves after Q16, D4, Q4 (bGo counts 7 in this archive).
//! let (bytes, name) = explore::load(Some(&index))?;
//! let explorer = Explorer::open(&bytes, name)?;
//! let at = At::Stated(Position {
//!     moves: "pd,dp,pp".into(),
//!     ..Position::default()
//! });
//! let search = SearchRequest {
//!     at: at.clone(),
//!     ..SearchRequest::default()
//! };
//! let answer = explorer.search(&search)?;
//! assert_eq!(answer.total, 7);
//! let top = &answer.next[0];
//! println!("{:?} {:?} played {} times", top.color, top.mv, top.count);
//! // What `kifudex search --moves pd,dp,pp --json` prints.
//! assert!(json::to_line(&answer).starts_with("{\"hash\":"));
//!
//! // The same question counting only the games White won.
//! let won_by_white = SearchRequest {
//!     filter: GameFilter {
//!         winner: Some(kifudex_core::Color::White),
//!         ..GameFilter::default()
//!     },
//!     ..search.clone()
//! };
//! assert!(explorer.search(&won_by_white)?.total <= answer.total);
//!
//! // The games that reached the position, oldest first, five of them.
//! let games = explorer.games(&GamesRequest {
//!     at,
//!     sort: Sort::parse("date").expect("an order"),
//!     page: Page { limit: 5, offset: 0 },
//!     ..GamesRequest::default()
//! })?;
//! assert_eq!(games.matching, 7);
//! let first = &games.games[0];
//! println!("{} - {}, {}", first.black, first.white, first.date);
//!
//! // A pattern: a white stone on the 3-3 point of an empty top-left corner (every corner,
//! // orientation and colour), and what was played next in its region.
//! let pattern = PatternRequest::parse(".../.../..O", Some("0,0,0,0"), false)?;
//! let found = explorer.pattern(&pattern);
//! assert!(found.hits >= found.games && found.games > 0);
//! println!("{} hits in {} games", found.hits, found.games);
//!
//! // A stored game: its information and moves, or its SGF, which `sgf` reads back.
//! let record = explorer.game(first.id)?;
//! let sgf = explorer.game_sgf(first.id)?;
//! let parsed = kifudex::sgf::parse_file(sgf.as_bytes(), "game.sgf", None);
//! let game = &parsed.games[0];
//! assert_eq!(game.move_count(), record.moves.len());
//! assert_eq!(game.info.black.as_deref(), Some(first.black));
//! # Ok(())
//! # }
//! ```
