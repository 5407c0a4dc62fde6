//! The explorer: every question about an index, answered in one place.
//!
//! An [`Explorer`] holds an opened index (and, given a book, its move predictor). The
//! command line, the shell and the web API turn what a user typed into a request
//! ([`request`]), call the explorer, and print its answer ([`answer`]) with the JSON or the
//! text printer (`crate::print`); none of them opens an index or computes an answer itself.
//! So `kifudex search --json` and `/api/search` print one object by construction, and a
//! feature of the answers (a filter, a profile, a cache of pattern scans) is added here once
//! for every front end.
//!
//! Each question is one method, taking a request and returning an answer or an
//! [`ExploreError`]; the methods take `&self` (the explorer is shared by the server's
//! workers). The work is done by the modules below: the game lists (`crate::games`), the
//! pattern scan (`crate::pattern`), the predictor (`crate::predict`), and here the set-up
//! of positions ([`position`]), records ([`record`]), the year profile ([`years`]), the
//! rank profile ([`ranks`]), the pattern answers ([`pattern`]) over one cached,
//! cancellable scan per query ([`scan_cache`]) and their export ([`export`]), and the analyses
//! of all games (shapes, the predictor's evaluation: [`analysis`]).

pub mod analysis;
pub mod answer;
mod error;
pub mod export;
pub mod pattern;
pub mod play;
pub mod position;
pub mod ranks;
pub mod record;
pub mod request;
pub mod scan_cache;
pub mod years;

use std::path::Path;
use std::sync::Arc;

use anyhow::{anyhow, Result};
use kifudex_core::board::Board;
use kifudex_core::columns::GameColumns;
use kifudex_core::index::Index;
use kifudex_core::index_file::IndexFile;
use kifudex_core::pattern::{PatternHeader, PatternIndex};
use kifudex_core::predict::{best, Analysis, History, Predictor};
use kifudex_core::search::NextMoves;
use kifudex_core::stored::StoredGame;
use kifudex_core::Color;

pub use error::ExploreError;
pub use play::PlayBoard;

use crate::games::{self, GameFilter, Hot, Page};
use crate::pattern::PatternRequest;
use crate::IndexBytes;
use answer::{
    Captured, ColoredMove, GameEntry, GameView, GamesAnswer, Guessed, HitsAnswer, InfoAnswer,
    NextClass, PatternAnswer, PatternProgress, PatternTimings, PlayedEntry, PositionAnswer,
    PredictAnswer, RecordAnswer, SearchAnswer, Suggested, Suggestions, YearsAnswer,
};
use position::set_up;
use request::{
    At, GamesRequest, Position, RanksRequest, SearchRequest, SuggestRequest, YearsRequest,
};
use scan_cache::{Cancel, PatternScan, ScanOptions, ScanProgress, Scans, Stopped};

/// The index file's bytes (memory-mapped, [`crate::open_index_file`]), or without a path
/// the bundled sample's index built in memory; and the index's name for messages.
pub fn load(path: Option<&Path>) -> Result<(IndexBytes, String)> {
    match path {
        Some(p) => Ok((crate::open_index_file(p)?, p.display().to_string())),
        None => Ok((
            crate::sample::sample_index()?.into(),
            format!("the bundled sample ({})", crate::sample::SAMPLE_NAME),
        )),
    }
}

/// Keeps `bytes` for the rest of the process and lends them for as long: the server's
/// index and book, shared by every request without a copy.
pub fn keep(bytes: impl Into<IndexBytes>) -> &'static [u8] {
    let kept: &'static IndexBytes = Box::leak(Box::new(bytes.into()));
    kept
}

/// The questions about one index (see the module documentation).
pub struct Explorer<'a> {
    index: Index<'a>,
    /// What filters, sorts and profiles read of the games.
    columns: GameColumns<'a>,
    /// The index file's pattern search data and where its sections lie.
    pattern: PatternIndex<'a>,
    pattern_header: PatternHeader,
    name: String,
    predictor: Option<Predictor<'a>>,
    /// The pattern scans: kept, counted, run on their pool.
    scans: Scans,
    /// The occurrences of the positions most games reach, kept once walked.
    hot: Arc<Hot>,
}

/// The next moves of `board`, counting the games `filter` keeps.
fn next_moves(
    index: &Index<'_>,
    columns: &GameColumns<'_>,
    board: &Board,
    swap: bool,
    filter: &GameFilter,
    hot: Option<&Arc<Hot>>,
) -> Result<NextMoves, ExploreError> {
    filter
        .next_moves(index, columns, board, swap, hot)
        .map_err(ExploreError::Search)
}

/// The board a question looks at.
fn board_at(at: &At) -> Result<Board, ExploreError> {
    match at {
        At::Stated(p) => Ok(set_up(p)?.board),
        At::Board(b) => Ok((**b).clone()),
    }
}

/// Whether a position was set up with stones before its moves (a handicap, a problem): such
/// a position is not named after a whole-board opening, which players reach by moves.
fn has_setup(at: &At) -> bool {
    match at {
        At::Stated(p) => !p.black.trim().is_empty() || !p.white.trim().is_empty(),
        At::Board(_) => false,
    }
}

impl<'a> Explorer<'a> {
    /// Opens the index file in `bytes` (the structure of both its parts checked,
    /// [`IndexFile::open`]: time independent of its size); `name` names it in messages (its
    /// file, or the bundled sample).
    pub fn open(bytes: &'a [u8], name: impl Into<String>) -> Result<Explorer<'a>> {
        let name = name.into();
        let file =
            IndexFile::open(bytes).map_err(|e| anyhow!("{name}: {}", crate::invalid_index(e)))?;
        let pattern_header = file.pattern_header().clone();
        Ok(Explorer {
            index: file.index,
            columns: file.columns,
            pattern: file.pattern,
            pattern_header,
            name,
            predictor: None,
            scans: Scans::new(ScanOptions::default())?,
            hot: Arc::new(Hot::default()),
        })
    }

    /// Runs pattern scans as `options` say (the cache's bound, their own pool of threads).
    pub fn with_scan_options(mut self, options: ScanOptions) -> Result<Explorer<'a>> {
        self.scans = Scans::new(options)?;
        Ok(self)
    }

    /// Adds the move predictor of a book built with `--profile mcu --predictor` (read and
    /// validated as `kifudex hints` reads it); `label` names the book in messages.
    pub fn with_predictor(mut self, book: &'a [u8], label: &str) -> Result<Explorer<'a>> {
        self.predictor = Some(crate::predict::suggest::book_predictor(book, label)?);
        Ok(self)
    }

    /// Walks now the positions the filters, sorts and profiles keep in memory once walked
    /// (those most games reach: [`Hot::warm`]), and unpacks the dates and facts the
    /// filters' masks read ([`Hot::unpacked`]), so that the first questions about them
    /// are answered as fast as the next ones; `kifudex serve` does it in the background
    /// at start. Answers are the same with or without it.
    pub fn warm(&self) -> games::Warmed {
        self.hot.unpacked(&self.columns);
        self.hot.warm(&self.index)
    }

    /// The index's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The index's games.
    pub fn game_count(&self) -> u32 {
        self.index.game_count()
    }

    /// The board sizes of the index's games, as (width, height).
    pub fn board_sizes(&self) -> std::collections::BTreeSet<(u8, u8)> {
        (0..self.index.game_count())
            .filter_map(|id| self.index.stored_game(id))
            .map(|g| (g.size().width(), g.size().height()))
            .collect()
    }

    /// What to tell a user whose position, `depth` moves deep, has no games when the index
    /// was built with `--max-moves` and holds no position that deep (`None` otherwise).
    pub fn beyond_max_moves(&self, depth: usize) -> Option<String> {
        crate::position::beyond_max_moves(self.index.header().max_moves, depth)
    }

    /// What is served: the index's name, its games, kifudex's version.
    pub fn info(&self) -> InfoAnswer {
        InfoAnswer {
            name: self.name.clone(),
            games: self.index.game_count(),
            version: env!("CARGO_PKG_VERSION"),
            scans: self.scans.counts(),
        }
    }

    /// A position as stated, set up with the core's rules: its stones, each move with its
    /// captures, the side to move, the ko point, the prisoners, the hash.
    pub fn position(&self, q: &Position) -> Result<PositionAnswer, ExploreError> {
        let played = set_up(q)?;
        let b = &played.board;
        let (mut by_black, mut by_white) = (0usize, 0usize);
        let moves = played
            .moves
            .iter()
            .map(|m| {
                match m.color {
                    Color::Black => by_black += m.captures.len(),
                    Color::White => by_white += m.captures.len(),
                }
                PlayedEntry {
                    color: m.color,
                    mv: m.mv,
                    captures: m.captures.iter().collect(),
                    setup: None,
                }
            })
            .collect();
        Ok(PositionAnswer {
            width: b.size().width(),
            height: b.size().height(),
            to_move: played.to_move,
            black: b.stones(Color::Black).iter().collect(),
            white: b.stones(Color::White).iter().collect(),
            ko: b.ko().filter(|&(_, c)| c == played.to_move).map(|(p, _)| p),
            moves,
            captured: Captured {
                black: by_black,
                white: by_white,
            },
            hash: b.bgo_hashes().0[0],
        })
    }

    /// The next moves of a position (in any orientation), counting the games the filter
    /// keeps (all of them by default, from the index's precomputed statistics).
    pub fn search(&self, q: &SearchRequest) -> Result<SearchAnswer, ExploreError> {
        let board = board_at(&q.at)?;
        let next = next_moves(
            &self.index,
            &self.columns,
            &board,
            q.swap,
            &q.filter,
            Some(&self.hot),
        )?;
        let hashes = board.bgo_hashes().0;
        let classes = next
            .classes()
            .iter()
            .map(|c| NextClass {
                mv: c.mv,
                color: c.color,
                count: c.count,
                equivalent: next.equivalent(c).to_vec(),
                black_wins: c.black_wins,
                white_wins: c.white_wins,
            })
            .collect();
        Ok(SearchAnswer {
            hash: hashes[0],
            hashes,
            total: next.total(),
            next: classes,
            opening: if has_setup(&q.at) {
                None
            } else {
                kifudex_core::opening::of_board(&board).map(|n| answer::OpeningName {
                    name: n.opening.name,
                })
            },
            by_rank: None,
            board,
        })
    }

    /// The games that reached a position (each once, where it occurs first), filtered,
    /// sorted, paged, and how many match in all.
    pub fn games(&self, q: &GamesRequest) -> Result<GamesAnswer<'a>, ExploreError> {
        let board = board_at(&q.at)?;
        let list = games::list(
            &self.index,
            &self.columns,
            &board,
            q.swap,
            &q.filter,
            q.sort,
            q.page,
            Some(&self.hot),
        );
        let games = list
            .games
            .iter()
            .filter_map(|l| {
                let g = self.index.game(l.occurrence.game)?;
                let o = &l.occurrence;
                Some(GameEntry {
                    orientation: Some(o.orientation.index()),
                    colors_swapped: Some(l.swapped),
                    ..GameEntry::new(&g, o.move_number + 1)
                })
            })
            .collect();
        Ok(GamesAnswer {
            matching: list.matching,
            games,
        })
    }

    /// How often the top next moves of a position were played, year by year.
    pub fn years(&self, q: &YearsRequest) -> Result<YearsAnswer, ExploreError> {
        let s = &q.search;
        let board = board_at(&s.at)?;
        let hot = Some(&self.hot);
        years::years(
            &self.index,
            &self.columns,
            &board,
            s.swap,
            &s.filter,
            q.top,
            hot,
        )
    }

    /// How often the top next moves of a position were played by players of each range of
    /// ranks (kyu to dan to professional).
    pub fn ranks(&self, q: &RanksRequest) -> Result<answer::RanksAnswer, ExploreError> {
        let s = &q.search;
        let board = board_at(&s.at)?;
        let hot = Some(&self.hot);
        ranks::ranks(
            &self.index,
            &self.columns,
            &board,
            s.swap,
            &s.filter,
            q.top,
            hot,
        )
    }

    /// A stored game for the replay board: information, setup, moves with their captures.
    pub fn game(&self, id: u32) -> Result<RecordAnswer, ExploreError> {
        record::stored_record(&self.index, id)
    }

    /// A stored game as SGF.
    pub fn game_sgf(&self, id: u32) -> Result<String, ExploreError> {
        record::stored_sgf(&self.index, id)
    }

    /// The first game of a pasted record, as [`Explorer::game`] shows a stored one.
    pub fn read_sgf(&self, text: &str) -> Result<RecordAnswer, ExploreError> {
        record::pasted_record(text)
    }

    /// Stored game `id` at its position after `at` moves (the shell's replay).
    pub fn view_game(&self, id: u32, at: u32) -> Result<GameView<'a>, ExploreError> {
        let game = self.index.game(id).ok_or_else(|| ExploreError::NoGame {
            id,
            last: self.index.game_count().saturating_sub(1),
        })?;
        if at > game.move_count {
            return Err(ExploreError::PastTheEnd {
                id,
                moves: game.move_count,
            });
        }
        let unplayable = ExploreError::Unplayable { id, at };
        let stored = self.index.stored_game(id).ok_or(unplayable.clone())?;
        let mut replay = self.index.replay(id).ok_or(unplayable.clone())?;
        if !replay.seek(at) {
            return Err(unplayable);
        }
        let colored = |(color, mv)| ColoredMove { color, mv };
        let next = replay.next_move().map(colored);
        Ok(GameView {
            game: GameEntry::new(&game, at + 1),
            at,
            moves: game.move_count,
            board: replay.into_board(),
            last: at
                .checked_sub(1)
                .and_then(|i| stored.move_at(i))
                .map(colored),
            next,
        })
    }

    /// The predictor's guesses for the side to move of a stated position, best first, as
    /// the hint handler ranks them for a `guess` reply (`kifudex_core::predict::best` over
    /// the position, its last two moves and its symmetry).
    pub fn predict(&self, q: &Position) -> Result<PredictAnswer, ExploreError> {
        let predictor = self.predictor.as_ref().ok_or(ExploreError::NoPredictor)?;
        let played = set_up(q)?;
        let n = played.moves.len();
        let history = History {
            last: n.checked_sub(1).map(|i| played.moves[i].mv),
            before: n.checked_sub(2).map(|i| played.moves[i].mv),
        };
        let analysis = Analysis::new(&played.board, played.to_move, history);
        let guesses = best(&analysis, predictor, played.board.symmetries());
        Ok(PredictAnswer {
            to_move: played.to_move,
            predicted: guesses
                .iter()
                .map(|g| Guessed {
                    point: g.point,
                    score: g.score,
                })
                .collect(),
        })
    }

    /// Every legal move of the side to move ranked by the predictor, with its probability
    /// (`crate::predict::suggest::predictions`).
    pub fn suggest(&self, q: &SuggestRequest) -> Result<Suggestions, ExploreError> {
        let predictor = self.predictor.as_ref().ok_or(ExploreError::NoPredictor)?;
        let list =
            crate::predict::suggest::predictions(predictor, &q.board, q.to_move, q.history, q.max);
        Ok(Suggestions {
            to_move: q.to_move,
            learnt_from: predictor.header().games,
            size: q.board.size(),
            moves: list
                .iter()
                .map(|p| Suggested {
                    point: p.point,
                    probability: p.probability,
                    score: p.score,
                })
                .collect(),
        })
    }

    /// The scan of a pattern query: the kept one, or a new one (then kept), which tells
    /// `progress` how far it has come after each slice of games and stops before the next
    /// slice once `cancel` is set ([`scan_cache`]).
    pub fn pattern_scan(
        &self,
        q: &PatternRequest,
        cancel: &Cancel,
        progress: impl FnMut(&ScanProgress<'_>),
    ) -> Result<std::sync::Arc<PatternScan>, Stopped> {
        self.scans
            .scan(&self.index, &self.pattern, q, cancel, progress)
    }

    /// The kept scan of a pattern query, if there is one (no scan runs).
    pub fn pattern_cached(&self, q: &PatternRequest) -> Option<std::sync::Arc<PatternScan>> {
        self.scans.cached(q)
    }

    /// The scan of `q`, never cancelled.
    fn scan_whole(&self, q: &PatternRequest) -> std::sync::Arc<PatternScan> {
        match self.pattern_scan(q, &Cancel::new(), |_| {}) {
            Ok(scan) => scan,
            // Nobody else holds the flag: it is never set.
            Err(Stopped) => unreachable!("a scan with a flag nobody sets was cancelled"),
        }
    }

    /// A pattern's hits and continuations (with the date profile when `q.by_year`), over
    /// the index's pattern sections.
    pub fn pattern(&self, q: &PatternRequest) -> PatternAnswer {
        self.pattern_answer(q, &self.scan_whole(q))
    }

    /// [`Explorer::pattern`]'s answer from a scan of `q` ([`Explorer::pattern_scan`]).
    pub fn pattern_answer(&self, q: &PatternRequest, scan: &PatternScan) -> PatternAnswer {
        pattern::answer(q, &scan.report)
    }

    /// How far a scan of `q` has come, as `/api/pattern/stream` shows it.
    pub fn pattern_progress(&self, q: &PatternRequest, p: &ScanProgress<'_>) -> PatternProgress {
        pattern::progress(q, p)
    }

    /// A pattern's totals and the `page` of its hits.
    pub fn pattern_hits(&self, q: &PatternRequest, page: Page) -> HitsAnswer<'a> {
        let scan = self.scan_whole(q);
        pattern::hits(&self.index, &self.pattern, q, &scan, page)
    }

    /// The `page` of the games with hits of a pattern, newest first.
    pub fn pattern_games(&self, q: &PatternRequest, page: Page) -> GamesAnswer<'a> {
        self.pattern_games_of(&self.scan_whole(q), page)
    }

    /// [`Explorer::pattern_games`] from a scan of the query.
    pub fn pattern_games_of(&self, scan: &PatternScan, page: Page) -> GamesAnswer<'a> {
        pattern::games(&self.index, scan, page)
    }

    /// [`Explorer::pattern`], searched `repeat` times, with the time it took.
    pub fn pattern_timed(
        &self,
        q: &PatternRequest,
        repeat: usize,
    ) -> (PatternAnswer, PatternTimings) {
        pattern::timed(&self.index, &self.pattern, &self.pattern_header, q, repeat)
    }

    /// Local shape statistics of the games: the most played patterns around the moves and
    /// the most frequent openings.
    pub fn shapes(&self, opts: &crate::shapes::ShapeOptions) -> answer::ShapesAnswer {
        analysis::shapes(&self.index, opts)
    }

    /// The move predictor learnt from all games but one in `test_every` and measured on the
    /// others (`log` hears the progress).
    pub fn evaluate_predictor(
        &self,
        test_every: u64,
        opts: &crate::predict::TrainOptions,
        log: impl FnMut(&str),
    ) -> Result<answer::EvaluationAnswer> {
        analysis::evaluate(&self.index, test_every, opts, log)
    }

    /// Writes every game with a hit of the pattern to `dest` as SGF (a folder, or a `.zip`),
    /// whole or not at all; returns how many.
    pub fn export_pattern_games(&self, q: &PatternRequest, dest: &Path) -> Result<usize> {
        let ids: Vec<u32> = self.scan_whole(q).games.iter().map(|g| g.game).collect();
        export::write_games(&self.index, &ids, dest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifudex_core::{Event, Move};

    #[test]
    fn an_opening_is_named_when_played_not_when_set_up() {
        let bytes = crate::sample::sample_index().unwrap();
        let explorer = Explorer::open(&bytes, "the sample").unwrap();
        let ask = |black: &str, moves: &str| {
            let at = At::Stated(Position {
                black: black.to_string(),
                moves: moves.to_string(),
                ..Position::default()
            });
            let q = SearchRequest {
                at,
                swap: false,
                filter: GameFilter::default(),
            };
            explorer.search(&q).unwrap().opening.map(|o| o.name)
        };
        // Black's two star points on the right side: Nirensei when played ...
        assert_eq!(ask("", "pd,dd,pp"), Some("Nirensei"));
        // ... the same stones as a handicap (set up before the moves) name nothing.
        assert_eq!(ask("pd,pp", "dd"), None);
        assert_eq!(ask("", "pd,dd"), None);
    }

    #[test]
    fn a_listed_game_replays_as_the_index_stores_it() {
        let bytes = crate::sample::sample_index().unwrap();
        let explorer = Explorer::open(&bytes, "the sample").unwrap();
        let index = Index::open(&bytes).unwrap();
        let v = explorer.view_game(3, 20).unwrap();
        assert_eq!(v.board, index.position(3, 20).unwrap());
        let moves: Vec<(Color, Move)> = index.events(3).filter_map(Event::play).collect();
        assert_eq!(v.last.map(|m| (m.color, m.mv)), Some(moves[19]));
        assert_eq!(v.next.map(|m| (m.color, m.mv)), Some(moves[20]));
        assert_eq!(v.game.move_number, 21);
        let end = explorer.view_game(3, v.moves).unwrap();
        assert_eq!((end.at, end.next), (v.moves, None));
        assert_eq!(end.board, index.position(3, v.moves).unwrap());
        assert!(matches!(
            explorer.view_game(3, v.moves + 1),
            Err(ExploreError::PastTheEnd { id: 3, .. })
        ));
        assert!(matches!(
            explorer.view_game(99_999, 0),
            Err(ExploreError::NoGame { .. })
        ));
    }
}
