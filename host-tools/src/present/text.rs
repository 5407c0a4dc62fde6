//! Text for people: bGo's board with lettered next moves, the table of counts and win
//! rates, and game lists.

use std::fmt::Write;

use kifudex_core::board::Board;
use kifudex_core::index::Index;
use kifudex_core::notation::Sgf;
use kifudex_core::search::{NextMove, NextMoves};
use kifudex_core::{Move, Point, Size, Stone};

use super::{color_letter, result_text};
use crate::games::GameList;

/// The star points of a board (none for unusual sizes, the centre for odd small ones).
pub fn is_star_point(p: Point, size: Size) -> bool {
    if !size.is_square() {
        return false;
    }
    let n = size.width();
    let lines: &[u8] = match n {
        19 => &[3, 9, 15],
        13 => &[3, 6, 9],
        9 => &[2, 4, 6],
        _ => &[],
    };
    if lines.is_empty() {
        return n % 2 == 1 && n >= 7 && p.x == n / 2 && p.y == n / 2;
    }
    lines.contains(&p.x) && lines.contains(&p.y) && (n != 9 || (p.x == 4) == (p.y == 4))
}

/// The letter of the `i`-th class (a, b, ..., z, then A..Z).
pub fn mark_letter(i: usize) -> char {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    LETTERS.get(i).map_or('?', |&b| b as char)
}

/// bGo's text board: X black, O white, + star points, letters for the first `marks`
/// next-move classes, and under it the position's hash (bGo's additive hash, `HASH.md`).
pub fn board(board: &Board, classes: &[NextMove], marks: usize) -> String {
    board_with_last(board, classes, marks, None)
}

/// [`board`] with the stone of the last move (if any) marked by parentheses: `(X)`.
pub fn board_with_last(
    board: &Board,
    classes: &[NextMove],
    marks: usize,
    last: Option<Point>,
) -> String {
    let size = board.size();
    let (w, h) = (size.width(), size.height());
    let letters: Vec<char> = (0..w.max(h)).map(|i| (b'A' + i) as char).collect();
    let mut s = String::new();
    let header: String = letters[..w as usize]
        .iter()
        .map(|c| format!("{c} "))
        .collect();
    let _ = writeln!(s, "   {header}");
    for y in 0..h {
        // Each cell is its character and the separator after it; the last move's cell
        // takes the separators on both sides: ` (X) `.
        let mut row = format!(" {} ", letters[y as usize]);
        for x in 0..w {
            let p = Point::new(x, y);
            let mark = classes
                .iter()
                .take(marks)
                .position(|c| c.mv == Move::Play(p));
            let ch = match (board.get(p), mark) {
                (Stone::Black, _) => 'X',
                (Stone::White, _) => 'O',
                (Stone::Empty, Some(i)) => mark_letter(i),
                (Stone::Empty, None) if is_star_point(p, size) => '+',
                (Stone::Empty, None) => '.',
            };
            if last == Some(p) {
                row.pop();
                let _ = write!(row, "({ch})");
            } else {
                let _ = write!(row, "{ch} ");
            }
        }
        let _ = writeln!(s, "{row}{}", letters[y as usize]);
    }
    let _ = writeln!(s, "   {header}");
    let _ = writeln!(s, "{}", hash_line(board));
    s
}

/// The line under a board: the position's hash, said what it is.
pub fn hash_line(board: &Board) -> String {
    format!(
        "   hash {} (bGo's additive position hash, docs/HASH.md)",
        board.bgo_hashes().0[0]
    )
}

/// The table of next moves: letter, move, colour, count, share of the total and the win
/// rates of the games they come from.
pub fn table<const N: usize>(next: &NextMoves<N>, marks: usize, limit: usize) -> String {
    let mut s = String::new();
    let total = next.total();
    if total == 0 {
        let _ = writeln!(s, "No games reach this position.");
        return s;
    }
    let _ = writeln!(s, "      move  col   count   share  B wins  W wins");
    for (i, c) in next.classes().iter().take(limit).enumerate() {
        let letter = if i < marks && c.mv != Move::Pass {
            mark_letter(i)
        } else {
            ' '
        };
        let pct = |n: u32| 100.0 * n as f64 / c.count.max(1) as f64;
        let _ = writeln!(
            s,
            "   {letter}  {:>4}  {:>3}  {:>6}  {:>5.1}%  {:>5.1}%  {:>5.1}%",
            Sgf(c.mv).to_string(),
            color_letter(c.color),
            c.count,
            100.0 * c.count as f64 / total as f64,
            pct(c.black_wins),
            pct(c.white_wins),
        );
    }
    let shown = next.classes().len().min(limit);
    if shown < next.classes().len() {
        let _ = writeln!(s, "   ... {} more", next.classes().len() - shown);
    }
    let _ = writeln!(s, "Total count: {total}");
    s
}

/// A game list as a text table: a line with how many games matched, a header line, then
/// one line per game (its id, date, result, the number of the move played from the
/// position, players, "colours swapped" when the colour-exchanged position came, event).
/// `numbered`: a first column `#` with the game's position in the list (1, 2, ...), as the
/// shell's `replay N` takes it.
pub fn games(index: &Index<'_>, list: &GameList) -> String {
    games_table(index, list, false)
}

/// [`games`], with the list positions in a first column if `numbered`.
pub fn games_table(index: &Index<'_>, list: &GameList, numbered: bool) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{} games", list.matching);
    if list.games.is_empty() {
        return s;
    }
    let number = |n: &str| {
        if numbered {
            format!("{n:>4}  ")
        } else {
            String::new()
        }
    };
    let _ = writeln!(
        s,
        "{}{:>7}  {:<10}  {:<7}  {:>5}  players, event",
        number("#"),
        "game id",
        "date",
        "result",
        "move"
    );
    for (i, l) in list.games.iter().enumerate() {
        let o = &l.occurrence;
        let Some(g) = index.game(o.game) else {
            continue;
        };
        let _ = writeln!(
            s,
            "{}{:>7}  {:<10}  {:<7}  {:>5}  {} {} - {} {}{}  {}",
            number(&(i + 1).to_string()),
            g.id,
            g.date,
            result_text(&g),
            o.move_number + 1,
            g.black,
            g.black_rank,
            g.white,
            g.white_rank,
            if l.swapped { " (colours swapped)" } else { "" },
            g.event
        );
    }
    s
}
