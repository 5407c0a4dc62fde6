//! The arguments several commands share: a position (`--moves`, `--ab`, `--aw`,
//! `--to-move`, `--size`, or `--sgf FILE --move N`) and the filters of the games that
//! count, read into the explorer's requests.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use kifudex::explore::request::{At, GameFilter, Position, Sort};
use kifudex_core::notation::parse_moves;
use kifudex_core::{Color, Size};

#[derive(Args, Debug)]
pub struct PositionArgs {
    /// The index file (default: the bundled sample, indexed in memory).
    #[arg(long)]
    pub index: Option<PathBuf>,
    /// Moves from the empty board (or the setup), the first by Black (or `--to-move`),
    /// colours alternating: SGF points (`pd`, either case), coordinates (`Q16`: a column
    /// letter without I, the row from the bottom) or `pass`, separated by commas or spaces.
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub moves: String,
    /// Black stones set up before the moves (points as in --moves).
    #[arg(long, default_value = "")]
    pub ab: String,
    /// White stones set up before the moves (points as in --moves).
    #[arg(long, default_value = "")]
    pub aw: String,
    /// Who plays the first of the moves (and is to move if there are none): B or W.
    #[arg(long, value_parser = parse_side)]
    pub to_move: Option<Color>,
    /// Instead of --moves/--ab/--aw: the position of this SGF record's main line (its
    /// first game), setup and handicap stones included.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["moves", "ab", "aw", "to_move"])]
    pub sgf: Option<PathBuf>,
    /// With --sgf: the position after this many moves (default: the end of the main line).
    #[arg(long = "move", value_name = "N", requires = "sgf")]
    pub move_number: Option<usize>,
    /// Board size: 19, 13, 9... or width x height (`19x9`).
    #[arg(long, default_value = "19", value_parser = kifudex::position::parse_size)]
    pub size: Size,
}

impl PositionArgs {
    /// The query position (stated, or a record's board), and how many moves deep it is.
    pub fn position(&self) -> Result<(At, usize)> {
        if let Some(file) = &self.sgf {
            let (board, _, depth) = kifudex::position::from_sgf_file(file, self.move_number)?;
            return Ok((board.into(), depth));
        }
        let depth = parse_moves(&self.moves, self.size).count();
        Ok((
            At::Stated(Position {
                size: self.size.width(),
                height: Some(self.size.height()),
                black: self.ab.clone(),
                white: self.aw.clone(),
                to_move: self.to_move,
                moves: self.moves.clone(),
            }),
            depth,
        ))
    }
}

/// Which games count.
#[derive(Args, Debug)]
pub struct FilterArgs {
    /// Only games from this year on.
    #[arg(long)]
    pub year_from: Option<u16>,
    /// Only games up to this year.
    #[arg(long)]
    pub year_to: Option<u16>,
    /// Only games with a player whose name contains this (case-insensitive).
    #[arg(long)]
    pub player: Option<String>,
    /// Only games with this handicap (0 for even games).
    #[arg(long)]
    pub handicap: Option<u8>,
    /// Only games won by this colour (`B` or `W`).
    #[arg(long, value_parser = parse_side)]
    pub winner: Option<Color>,
}

impl FilterArgs {
    /// The filter the explorer applies.
    pub fn filter(&self) -> GameFilter {
        GameFilter {
            year_from: self.year_from,
            year_to: self.year_to,
            player: self.player.clone(),
            handicap: self.handicap,
            winner: self.winner,
        }
    }
}

/// `B` or `W` (either case).
pub fn parse_side(s: &str) -> Result<Color, String> {
    match s {
        "B" | "b" => Ok(Color::Black),
        "W" | "w" => Ok(Color::White),
        _ => Err(format!("expected B or W, not {s:?}")),
    }
}

/// A `--sort` order.
pub fn parse_sort(s: &str) -> Result<Sort, String> {
    Sort::parse(s).ok_or_else(|| format!("unknown order {s:?}"))
}
