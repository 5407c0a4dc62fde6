//! Pattern search on the desktop: the acceleration data of an index ([`data`]), the
//! search over all games in parallel ([`search`](mod@search)), and the ways a user gives a
//! pattern (`ROWS`, or a rectangle cut from a game record or a board). The explorer answers
//! pattern questions with these (`docs/PATTERNS.md`).

pub mod data;
pub mod search;

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use kifudex_core::board::{Board, Rules, Tracking};
use kifudex_core::pattern::{Area, Cell, Pattern};
use kifudex_core::Point;

pub use data::PatternData;
pub use search::{search, PatternReport, PatternRequest};

use crate::sgf::parse_file;
use kifudex_core::Event;

impl PatternRequest {
    /// A request from the pattern's parameters: `ROWS`, `L,T,R,B` (optional) and the
    /// fixed-colour switch. The error names the parameter and what is wrong with it.
    pub fn parse(rows: &str, area: Option<&str>, fixed_color: bool) -> Result<PatternRequest> {
        let pattern = Pattern::parse(rows).map_err(|e| anyhow!("pattern {rows:?}: {e}"))?;
        let mut req = PatternRequest::new(pattern);
        if let Some(a) = area {
            req.area = Area::parse(a).map_err(|e| anyhow!("area {a:?}: {e}"))?;
        }
        req.fixed_color = fixed_color;
        Ok(req)
    }

    /// A request for the rectangle `region` (`L,T,R,B`) cut from a game record: the
    /// position of the first game of `sgf` after `move_number` moves of its main line
    /// (default: its end), as [`pattern_from_sgf`] cuts it; then `area` and the
    /// fixed-colour switch as [`PatternRequest::parse`] reads them. What `kifudex pattern
    /// --sgf FILE [--move N] --region L,T,R,B` asks; the error names the file, the move or
    /// the parameter.
    pub fn cut(
        sgf: &Path,
        move_number: Option<u32>,
        region: &str,
        area: Option<&str>,
        fixed_color: bool,
    ) -> Result<PatternRequest> {
        let rect = parse_region(region)?;
        let pattern = pattern_from_sgf(sgf, move_number, rect)?;
        PatternRequest::parse(&pattern.to_string(), area, fixed_color)
    }
}

/// A rectangle `L,T,R,B` of board points (corners included), as `--region` gives it.
pub fn parse_region(s: &str) -> Result<kifudex_core::pattern::Rect> {
    let a = Area::parse(s).map_err(|e| anyhow!("region {s:?}: {e}"))?;
    if a.left > a.right || a.top > a.bottom || a.right > 18 || a.bottom > 18 {
        bail!("region {s:?}: expected L,T,R,B with L <= R and T <= B on the 19x19 board (0 to 18)");
    }
    Ok(kifudex_core::pattern::Rect {
        left: a.left,
        top: a.top,
        right: a.right,
        bottom: a.bottom,
    })
}

/// The pattern cut from a game record: the rectangle `region` of the position of the
/// first game of `path` after `move_number` moves of its main line (default: its end),
/// setup stones included; every cell `.`, `X` or `O` as the board holds it.
pub fn pattern_from_sgf(
    path: &Path,
    move_number: Option<u32>,
    region: kifudex_core::pattern::Rect,
) -> Result<Pattern> {
    let bytes = crate::input::read_record_file(path, &crate::input::Limits::DEFAULT)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let name = path.display().to_string();
    let parsed = parse_file(&bytes, &name, None);
    let Some(game) = parsed.games.into_iter().next() else {
        match parsed.rejected.first() {
            Some(e) => bail!("{e}"),
            None => bail!("{name}: no game in the file"),
        }
    };
    if game.size != kifudex_core::Size::STANDARD {
        bail!(
            "{name}: the board is {}x{}; patterns are cut from 19x19 games",
            game.size.width(),
            game.size.height()
        );
    }
    let mut board = Board::with_rules(game.size, Rules::RECORD);
    let mut played = 0u32;
    for ev in &game.events {
        match *ev {
            Event::Setup { point, stone } => {
                let _ = board.set_stone(point, stone);
            }
            Event::Play { color, mv } => {
                if Some(played) == move_number {
                    break;
                }
                board
                    .play(color, mv)
                    .map_err(|e| anyhow!("{name}: move {}: {e}", played + 1))?;
                played += 1;
            }
        }
    }
    if let Some(n) = move_number {
        if n > played {
            bail!("{name}: --move {n}: the main line has only {played} moves");
        }
    }
    pattern_from_board(&board, region)
}

/// The pattern of the rectangle `region` of a board: every cell `.`, `X` or `O` as the
/// board holds it.
pub fn pattern_from_board<T: Tracking>(
    board: &Board<T>,
    region: kifudex_core::pattern::Rect,
) -> Result<Pattern> {
    let size = board.size();
    if region.right >= size.width() || region.bottom >= size.height() {
        bail!(
            "region {},{},{},{} lies off the {}x{} board",
            region.left,
            region.top,
            region.right,
            region.bottom,
            size.width(),
            size.height()
        );
    }
    let (w, h) = (
        region.right - region.left + 1,
        region.bottom - region.top + 1,
    );
    let mut cells = Vec::with_capacity(w as usize * h as usize);
    for y in region.top..=region.bottom {
        for x in region.left..=region.right {
            cells.push(Cell::of_stone(board.get(Point::new(x, y))));
        }
    }
    Pattern::from_cells(w, h, &cells).map_err(|e| anyhow!("{e}"))
}
