//! Query positions as a user states them beside a moves list (which the explorer sets up,
//! through the core's `parse_moves`): the position of an SGF record's main line after N moves, setup and handicap stones included
//! ([`from_sgf`], [`from_sgf_file`]); board sizes as `19` or `19x9` ([`parse_size`]); what
//! to say when an index's `--max-moves` cuts a position off ([`beyond_max_moves`]); a
//! colour in words ([`color_name`]).

use std::path::Path;

use kifudex_core::board::{Board, Rules};
use kifudex_core::notation::Sgf;
use kifudex_core::{Color, Event, Size};

use crate::sgf::parse_file;

/// `Black` or `White`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// A side as users write it: `B` or `W`, in either case (the command line's `--side`, the
/// web API's sides; GTP's colours build on it). `None` for anything else: the caller's
/// message names the option.
pub fn parse_side(s: &str) -> Option<Color> {
    match s {
        "B" | "b" => Some(Color::Black),
        "W" | "w" => Some(Color::White),
        _ => None,
    }
}

/// The position of the first game of an SGF file's bytes (`name` labels errors): its
/// setup stones and main line after `moves` moves (`None`: all of them), replayed as the
/// index replays records (captures applied, a recorded suicide removes the group).
/// Returns the board, the colour to move and the number of moves played.
pub fn from_sgf(
    bytes: &[u8],
    name: &str,
    moves: Option<usize>,
) -> anyhow::Result<(Board, Color, usize)> {
    let parsed = parse_file(bytes, name, None);
    let Some(game) = parsed.games.into_iter().next() else {
        match parsed.rejected.first() {
            Some(e) => anyhow::bail!("{e}"),
            None => anyhow::bail!("{name}: no game found"),
        }
    };
    let mut board = Board::with_rules(game.size, Rules::RECORD);
    let total = game.move_count();
    let want = moves.unwrap_or(total);
    if want > total {
        anyhow::bail!(
            "{name}: --move {want}: the main line has only {total} move{}",
            if total == 1 { "" } else { "s" }
        );
    }
    let mut played = 0;
    let mut to_move = None;
    for ev in &game.events {
        match *ev {
            // Setup stones (handicap in the root) count from where they stand in the
            // main line, up to the move that would follow the position.
            Event::Setup { point, stone } => {
                let _ = board.set_stone(point, stone);
            }
            Event::Play { color, mv } => {
                if played == want {
                    to_move = Some(color);
                    break;
                }
                board.play(color, mv).map_err(|reason| {
                    anyhow::anyhow!(
                        "{name}: move {}, {} {}: {}",
                        played + 1,
                        color_name(color),
                        Sgf(mv),
                        reason.words()
                    )
                })?;
                to_move = Some(color.opponent());
                played += 1;
            }
        }
    }
    Ok((board, to_move.unwrap_or(Color::Black), played))
}

/// [`from_sgf`] on a file.
pub fn from_sgf_file(path: &Path, moves: Option<usize>) -> anyhow::Result<(Board, Color, usize)> {
    use anyhow::Context;
    let bytes = crate::input::read_record_file(path, &crate::input::Limits::DEFAULT)
        .with_context(|| format!("cannot read {}", path.display()))?;
    from_sgf(&bytes, &path.display().to_string(), moves)
}

/// What to tell a user whose position has no next move in an index built with
/// `--max-moves` (`max_moves`, 0 for all) when the position lies `depth` moves deep:
/// `None` if the index holds positions that deep.
pub fn beyond_max_moves(max_moves: u32, depth: usize) -> Option<String> {
    (max_moves != 0 && depth >= max_moves as usize).then(|| {
        format!(
            "this position is {depth} moves deep, and the index holds only positions fewer \
             than {max_moves} moves deep (built with --max-moves {max_moves})"
        )
    })
}

/// A board size as `19` or `19x9` (width x height, 1 to 19 each).
pub fn parse_size(s: &str) -> Result<Size, String> {
    let bad = || format!("{s:?}: a board size is N or WxH, 1 to 19 each (19, 9, 19x9)");
    let (w, h) = match s.split_once(['x', 'X']) {
        Some((w, h)) => (w.trim(), h.trim()),
        None => (s.trim(), s.trim()),
    };
    let w: u8 = w.parse().map_err(|_| bad())?;
    let h: u8 = h.parse().map_err(|_| bad())?;
    Size::new(w, h).ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("19"), Ok(Size::STANDARD));
        assert_eq!(parse_size("19x9"), Size::new(19, 9).ok_or(String::new()));
        assert!(parse_size("20").is_err());
        assert!(parse_size("9x0").is_err());
        assert!(parse_size("nine").is_err());
    }
}
