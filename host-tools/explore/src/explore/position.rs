//! Query positions set up as users state them ([`Position`]): the setup stones on the
//! empty board of their size, then the moves, with the core's board (captures applied,
//! suicide and an immediate ko recapture refused); a refusal names the list, the entry and
//! the reason in words.

use kifudex_core::board::Board;
use kifudex_core::notation::{parse_moves, NotationError, Sgf};
use kifudex_core::{Color, Move, MoveError, PointSet, Size, Stone};

use super::answer::letters::color_letter;
use super::request::Position;

/// One move played on a query position, with the stones it removed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// Who played.
    pub color: Color,
    /// What.
    pub mv: Move,
    /// The stones it captured.
    pub captures: PointSet,
}

/// A query position set up and played.
#[derive(Clone, Debug)]
pub struct Played {
    /// The position.
    pub board: Board,
    /// Who is to move.
    pub to_move: Color,
    /// The moves, in order.
    pub moves: Vec<PlayedMove>,
}

/// Why a query position cannot be set up: each names the list, the entry and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A board size outside 1 to 19.
    #[error("board size {0} is not supported (1 to 19)")]
    BadSize(u8),
    /// An entry of a list is not a point or move (in any notation of `--moves`).
    #[error("{}", entry_words(list, *number, text))]
    BadEntry {
        /// `moves`, `ab` or `aw`.
        list: &'static str,
        /// 1-based.
        number: usize,
        /// The entry as given.
        text: String,
    },
    /// A setup list holds a pass or a point off the board.
    #[error("{list}: entry {number} ({text:?}) is not a point of the {size} board")]
    BadSetupPoint {
        /// `ab` or `aw`.
        list: &'static str,
        /// 1-based.
        number: usize,
        /// The entry as given.
        text: String,
        /// The board size, as `19x19`.
        size: String,
    },
    /// A point given for both colours.
    #[error("ab and aw both hold {point}")]
    BothColours {
        /// The point (SGF letters).
        point: String,
    },
    /// A move the rules refuse.
    #[error("move {number}, {} {mv}: {}", color_word(color), reason.words())]
    Illegal {
        /// 1-based.
        number: usize,
        /// `B` or `W`.
        color: &'static str,
        /// The move as SGF letters (or as given, when off the board).
        mv: String,
        /// Why.
        reason: MoveError,
    },
}

/// The entry of a list that holds byte `at` (split as the core's `parse_moves` splits):
/// its 1-based number and text.
fn entry_at(list: &str, at: usize) -> (usize, String) {
    let (number, text) = kifudex_core::notation::entry_at(list, at);
    (number, text.to_owned())
}

/// The byte where entry `i` (0-based) of a list starts.
fn entry_start(list: &str, i: usize) -> usize {
    (0..=list.len())
        .find(|&at| kifudex_core::notation::entry_at(list, at).0 == i + 1)
        .unwrap_or(0)
}

/// `Black` for `B`, `White` for `W`.
fn color_word(letter: &str) -> &'static str {
    if letter == "W" {
        "White"
    } else {
        "Black"
    }
}

/// A bad entry in words: ``move 3: `hello` is not a move (expected ...)``.
fn entry_words(list: &str, number: usize, text: &str) -> String {
    let what = if list == "moves" {
        format!("move {number}")
    } else {
        format!("{list}: entry {number}")
    };
    if text.is_empty() {
        format!("{what} is empty (two commas in a row, or a comma at the end)")
    } else if list == "moves" {
        format!(
            "{what}: `{text}` is not a move (expected an SGF point like pd, a coordinate like \
             Q16, or pass)"
        )
    } else {
        format!("{what}: `{text}` is not a point (expected an SGF point like pd or a coordinate like Q16)")
    }
}

/// Sets up a query position: the setup stones on the empty board of its size, then the
/// moves, the first by `to_move` (Black when not given), colours alternating, captures
/// applied, suicide and an immediate ko recapture refused. `moves` alone is the plain
/// `--moves` query.
pub fn set_up(q: &Position) -> Result<Played, PositionError> {
    let size =
        Size::new(q.size, q.height.unwrap_or(q.size)).ok_or(PositionError::BadSize(q.size))?;
    let mut board = Board::new(size);
    for (list, text, stone) in [
        ("ab", &q.black, Stone::Black),
        ("aw", &q.white, Stone::White),
    ] {
        for (i, p) in parse_moves(text, size).enumerate() {
            let p = match p {
                Ok(Move::Play(p)) => p,
                Ok(Move::Pass) | Err(NotationError::OffBoard { .. }) => {
                    return Err(PositionError::BadSetupPoint {
                        list,
                        number: i + 1,
                        text: entry_at(text, entry_start(text, i)).1,
                        size: format!("{}x{}", size.width(), size.height()),
                    });
                }
                Err(e) => {
                    let (number, text) = entry_at(text, e.at());
                    return Err(PositionError::BadEntry { list, number, text });
                }
            };
            if stone == Stone::White && board.get(p) == Stone::Black {
                return Err(PositionError::BothColours {
                    point: Sgf(Move::Play(p)).to_string(),
                });
            }
            // On the board (checked by the parser), so this cannot fail.
            let _ = board.set_stone(p, stone);
        }
    }
    let mut color = q.to_move.unwrap_or(Color::Black);
    let mut moves = Vec::new();
    for (i, mv) in parse_moves(&q.moves, size).enumerate() {
        let mv = match mv {
            Ok(mv) => mv,
            Err(NotationError::OffBoard { at }) => {
                return Err(PositionError::Illegal {
                    number: i + 1,
                    color: color_letter(color),
                    mv: entry_at(&q.moves, at).1,
                    reason: MoveError::OffBoard,
                })
            }
            Err(e) => {
                let (number, text) = entry_at(&q.moves, e.at());
                return Err(PositionError::BadEntry {
                    list: "moves",
                    number,
                    text,
                });
            }
        };
        let captures = board
            .play(color, mv)
            .map_err(|reason| PositionError::Illegal {
                number: i + 1,
                color: color_letter(color),
                // As the user wrote it (`Q16`, `PD` or `pd`).
                mv: entry_at(&q.moves, entry_start(&q.moves, i)).1,
                reason,
            })?;
        moves.push(PlayedMove {
            color,
            mv,
            captures: captures.points,
        });
        color = color.opponent();
    }
    Ok(Played {
        board,
        to_move: color,
        moves,
    })
}
