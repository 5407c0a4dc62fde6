//! Ranked predictions for one position, for the shell and the web board (shown as
//! predictions, never as moves of the games): every legal move of the side to move with
//! the model's probability, in the order of the `guess` replies.

use kifudex_core::board::{Board, Tracking};
use kifudex_core::book::Book;
use kifudex_core::predict::{score, Analysis, Guess, History, Predictor, Weights};
use kifudex_core::{Color, Point};

/// One predicted move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Prediction {
    /// Where.
    pub point: Point,
    /// Who plays it (the side to move).
    pub color: Color,
    /// The model's probability that it is the move played: its strength over the sum of
    /// the strengths of all legal moves (Coulom's model).
    pub probability: f64,
    /// Its log-strength in the table's units (1/1024 natural log).
    pub score: i32,
}

/// The legal moves of `to_move` on `board`, best first, at most `max` (0: all): the
/// predictor's ranking with `weights` (a book's [`kifudex_core::predict::Predictor`]),
/// ties broken as the `guess` reply breaks them (the smaller `y * 19 + x` first).
/// `history` holds the last two moves when they are known (`History::default()` for a
/// board snapshot). Unlike a `guess` reply, moves that the position's symmetry makes
/// equal are listed each; on a position without symmetry the first five are the moves
/// of the `guess` reply.
///
/// ```no_run
/// # fn f(book_bytes: &[u8]) -> anyhow::Result<()> {
/// use kifudex_builder::predict::suggest::{book_predictor, predictions};
/// use kifudex_core::notation::Sgf;
/// use kifudex_core::predict::History;
/// use kifudex_core::query::position_after;
/// use kifudex_core::{Color, Move, Size};
///
/// let predictor = book_predictor(book_bytes, "book.kdb")?;
/// let (board, _) = position_after("pd,dp,pp", Size::STANDARD)
///     .map_err(|e| anyhow::anyhow!("{e:?}"))?;
/// for p in predictions(&predictor, &board, Color::White, History::default(), 5) {
///     println!("{} {:.1}%", Sgf(Move::Play(p.point)), p.probability * 100.0);
/// }
/// # Ok(()) }
/// ```
pub fn predictions<T: Tracking, W: Weights + ?Sized>(
    weights: &W,
    board: &Board<T>,
    to_move: Color,
    history: History,
    max: usize,
) -> Vec<Prediction> {
    let analysis = Analysis::new(board, to_move, history);
    let size = board.size();
    let mut scored: Vec<Guess> = Vec::new();
    for y in 0..size.height() {
        for x in 0..size.width() {
            let point = Point::new(x, y);
            if let Some(score) = score(&analysis, weights, point) {
                scored.push(Guess { point, score });
            }
        }
    }
    scored.sort_by_key(|g| (std::cmp::Reverse(g.score), g.point.index19()));
    // Probabilities from log-strengths in 1/1024 nat, relative to the best (no overflow).
    let top = scored.first().map_or(0, |g| g.score);
    let strength = |g: &Guess| ((g.score as i64 - top as i64) as f64 / 1024.0).exp();
    let total: f64 = scored.iter().map(strength).sum();
    let keep = if max == 0 {
        scored.len()
    } else {
        max.min(scored.len())
    };
    scored[..keep]
        .iter()
        .map(|g| Prediction {
            point: g.point,
            color: to_move,
            probability: strength(g) / total,
            score: g.score,
        })
        .collect()
}

/// The move predictor of a book file's bytes (`kifudex build --profile mcu --predictor`),
/// validated; errors name `label` (the file).
pub fn book_predictor<'a>(bytes: &'a [u8], label: &str) -> anyhow::Result<Predictor<'a>> {
    let book = Book::open(bytes).map_err(|e| anyhow::anyhow!("{label}: not a valid book: {e}"))?;
    book.predictor().cloned().ok_or_else(|| {
        anyhow::anyhow!("{label}: the book holds no move predictor (build it with --predictor)")
    })
}
