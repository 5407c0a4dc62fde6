//! The arguments several commands share: a position (`--moves`, `--ab`, `--aw`,
//! `--to-move`, `--size`, or `--sgf FILE --move N`) and the filters of the games that
//! count, read into the explorer's requests.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use kifudex::explore::request::{
    parse_komi, parse_month, At, GameFilter, Position, Rank, RankRange, Sort,
};
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
    /// Only games whose players are both this strong or stronger (30k .. 1k, 1d .. 9d,
    /// 1p .. 9p; any form records use). A game with a rank that cannot be read is left out.
    #[arg(long, value_name = "RANK")]
    pub min_rank: Option<Rank>,
    /// Only games whose players are both this strong or weaker.
    #[arg(long, value_name = "RANK")]
    pub max_rank: Option<Rank>,
    /// With --min-rank/--max-rank: bound only the player of this colour (`B` or `W`, the
    /// player to move, say) instead of both.
    #[arg(long, value_name = "B|W", value_parser = parse_side)]
    pub rank_of: Option<Color>,
    /// Only games with this komi (`6.5`, `7`, `0`).
    #[arg(long, value_parser = parse_komi, allow_hyphen_values = true)]
    pub komi: Option<i32>,
    /// Only games whose rules (`RU`) contain this (case-insensitive: `japanese`, `chinese`).
    #[arg(long)]
    pub rules: Option<String>,
    /// Only games whose event (`EV`) contains this (case-insensitive).
    #[arg(long)]
    pub event: Option<String>,
    /// Only games from this month on: `YYYY-MM` (or a year: its January).
    #[arg(long, value_name = "YYYY-MM", value_parser = parse_month_from)]
    pub from: Option<u32>,
    /// Only games up to this month: `YYYY-MM` (or a year: its December).
    #[arg(long, value_name = "YYYY-MM", value_parser = parse_month_to)]
    pub to: Option<u32>,
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
            ranks: RankRange {
                min: self.min_rank,
                max: self.max_rank,
            },
            rank_of: self.rank_of,
            komi: self.komi,
            rules: self.rules.clone(),
            event: self.event.clone(),
            month_from: self.from,
            month_to: self.to,
        }
    }
}

/// `--from YYYY-MM` (a year alone: its January).
fn parse_month_from(s: &str) -> Result<u32, String> {
    parse_month(s, false)
}

/// `--to YYYY-MM` (a year alone: its December).
fn parse_month_to(s: &str) -> Result<u32, String> {
    parse_month(s, true)
}

/// `B` or `W` (either case).
pub fn parse_side(s: &str) -> Result<Color, String> {
    kifudex::position::parse_side(s).ok_or_else(|| format!("expected B or W, not {s:?}"))
}

/// A `--sort` order.
pub fn parse_sort(s: &str) -> Result<Sort, String> {
    Sort::parse(s).ok_or_else(|| format!("unknown order {s:?}"))
}
