//! Keyword arguments read into the explorer's requests, as the command line reads its
//! flags: the same value parsers (ranks, komi, months, sorts, sizes, patterns), so a value
//! the CLI refuses is refused here with the parser's own words, prefixed by the keyword.
//!
//! Every keyword is read at most once ([`Kwargs::take`]); one that nobody read is a
//! `TypeError` naming it ([`Kwargs::finish`]), as Python says of an unexpected keyword
//! argument. A keyword given `None` counts as not given.

use std::path::PathBuf;

use kifudex::explore::request::{
    parse_komi, parse_month, At, GameFilter, Page, PatternRequest, Position, Rank, RankRange, Sort,
};
use kifudex_core::Color;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use crate::error::error;

/// A method's keyword arguments, each readable once.
pub struct Kwargs<'py> {
    /// The method, for messages (`search()`).
    method: &'static str,
    /// Name, value and whether it was read.
    pairs: Vec<(String, Bound<'py, PyAny>, bool)>,
}

impl<'py> Kwargs<'py> {
    /// The keywords of a call of `method` (none when `kwargs` is `None`).
    pub fn new(method: &'static str, kwargs: Option<&Bound<'py, PyDict>>) -> PyResult<Self> {
        let mut pairs = Vec::new();
        if let Some(d) = kwargs {
            for (k, v) in d.iter() {
                pairs.push((k.extract::<String>()?, v, false));
            }
        }
        Ok(Kwargs { method, pairs })
    }

    /// The value of `name`, if given and not `None` (marked as read either way).
    pub fn take(&mut self, name: &str) -> Option<Bound<'py, PyAny>> {
        let (_, v, used) = self.pairs.iter_mut().find(|(k, _, _)| k == name)?;
        *used = true;
        (!v.is_none()).then(|| v.clone())
    }

    /// A value extracted as `T`; a value of another type is a `TypeError` naming the keyword.
    fn extract<T: for<'a> FromPyObject<'a>>(&mut self, name: &str) -> PyResult<Option<T>> {
        match self.take(name) {
            None => Ok(None),
            Some(v) => v
                .extract::<T>()
                .map(Some)
                .map_err(|e| PyTypeError::new_err(format!("{}: {name}: {e}", self.method))),
        }
    }

    /// A text argument.
    pub fn text(&mut self, name: &str) -> PyResult<Option<String>> {
        self.extract::<String>(name)
    }

    /// A file's path (a `str` or an `os.PathLike`).
    pub fn path(&mut self, name: &str) -> PyResult<Option<PathBuf>> {
        self.extract::<PathBuf>(name)
    }

    /// A whole number (`usize`, `u32`...); out of its range is a `kifudex.Error`.
    pub fn number<T: for<'a> FromPyObject<'a>>(&mut self, name: &str) -> PyResult<Option<T>> {
        let Some(v) = self.take(name) else {
            return Ok(None);
        };
        let n: i128 = v.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "{}: {name}: expected an int, not {}",
                self.method,
                type_name(&v)
            ))
        })?;
        v.extract::<T>()
            .map(Some)
            .map_err(|_| error(format!("{name}: {n} is out of range")))
    }

    /// A switch (`True`/`False`).
    pub fn flag(&mut self, name: &str) -> PyResult<bool> {
        Ok(self.extract::<bool>(name)?.unwrap_or(false))
    }

    /// A value written as the command line's flag takes it (`str()` of a number: `komi=6.5`,
    /// `to=2020`), read by the CLI's parser `parse`; its refusal is a `kifudex.Error`
    /// naming the keyword.
    pub fn parsed<T>(
        &mut self,
        name: &str,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> PyResult<Option<T>> {
        let Some(v) = self.take(name) else {
            return Ok(None);
        };
        let s = if v.is_instance_of::<PyString>() {
            v.extract::<String>()?
        } else if v.extract::<f64>().is_ok() && !v.is_instance_of::<pyo3::types::PyBool>() {
            v.str()?.extract::<String>()?
        } else {
            return Err(PyTypeError::new_err(format!(
                "{}: {name}: expected a str, not {}",
                self.method,
                type_name(&v)
            )));
        };
        parse(&s)
            .map(Some)
            .map_err(|e| error(format!("{name}: {e}")))
    }

    /// Ends reading: a keyword nobody read is a `TypeError`.
    pub fn finish(self) -> PyResult<()> {
        match self.pairs.iter().find(|(_, _, used)| !used) {
            Some((k, _, _)) => Err(PyTypeError::new_err(format!(
                "{}() got an unexpected keyword argument '{k}'",
                self.method
            ))),
            None => Ok(()),
        }
    }

    /// Which games count: the filters, named as the web API's parameters (`from_` or
    /// `from` for the first month), read as the command line's `--year-from` ... `--to`.
    pub fn filter(&mut self) -> PyResult<GameFilter> {
        let from_ = self.parsed("from_", |v| parse_month(v, false))?;
        let from = self.parsed("from", |v| parse_month(v, false))?;
        Ok(GameFilter {
            year_from: self.number("year_from")?,
            year_to: self.number("year_to")?,
            player: self.text("player")?,
            handicap: self.number("handicap")?,
            winner: self.parsed("winner", side)?,
            ranks: RankRange {
                min: self.parsed("min_rank", |v| v.parse::<Rank>())?,
                max: self.parsed("max_rank", |v| v.parse::<Rank>())?,
            },
            rank_of: self.parsed("rank_of", side)?,
            komi: self.parsed("komi", parse_komi)?,
            rules: self.text("rules")?,
            event: self.text("event")?,
            month_from: from_.or(from),
            month_to: self.parsed("to", |v| parse_month(v, true))?,
        })
    }

    /// The position a question looks at: `moves` (with `ab`, `aw`, `to_move`, `size`) as
    /// `--moves` states it, or `sgf` (and `move`) as `--sgf FILE --move N` reads a record.
    pub fn position(&mut self, moves: Option<&Bound<'py, PyAny>>) -> PyResult<At> {
        let size = self
            .parsed("size", kifudex::position::parse_size)?
            .unwrap_or(kifudex_core::Size::STANDARD);
        let black = self.points("ab")?.unwrap_or_default();
        let white = self.points("aw")?.unwrap_or_default();
        let to_move = self.parsed("to_move", side)?;
        let sgf = self.path("sgf")?;
        let move_number = self.number::<usize>("move")?;
        let moves = match moves.filter(|m| !m.is_none()) {
            Some(m) => points(self.method, "moves", m)?,
            None => String::new(),
        };
        if let Some(file) = sgf {
            if !moves.is_empty() || !black.is_empty() || !white.is_empty() || to_move.is_some() {
                return Err(PyTypeError::new_err(format!(
                    "{}: sgf cannot be given with moves, ab, aw or to_move",
                    self.method
                )));
            }
            let (board, _, _) = kifudex::position::from_sgf_file(&file, move_number)
                .map_err(|e| error(format!("{e:#}")))?;
            return Ok(board.into());
        }
        if move_number.is_some() {
            return Err(PyTypeError::new_err(format!(
                "{}: move needs sgf",
                self.method
            )));
        }
        Ok(At::Stated(Position {
            size: size.width(),
            height: Some(size.height()),
            black,
            white,
            to_move,
            moves,
        }))
    }

    /// Points given as text or as a list.
    fn points(&mut self, name: &str) -> PyResult<Option<String>> {
        match self.take(name) {
            None => Ok(None),
            Some(v) => points(self.method, name, &v).map(Some),
        }
    }

    /// The order of a game list (`sort`, default newest first).
    pub fn sort(&mut self) -> PyResult<Sort> {
        Ok(self
            .parsed("sort", |s| {
                Sort::parse(s).ok_or_else(|| format!("unknown order {s:?}"))
            })?
            .unwrap_or_default())
    }

    /// A page (`limit`, default 100; `offset`, default 0).
    pub fn page(&mut self) -> PyResult<Page> {
        Ok(Page {
            limit: self.number("limit")?.unwrap_or(100),
            offset: self.number("offset")?.unwrap_or(0),
        })
    }

    /// A pattern query, as `kifudex pattern` reads it (its message on a refusal): `rows`
    /// (`--pattern ROWS`), or, without rows, the rectangle `region` (`"L,T,R,B"`) cut from
    /// the first game of the record `sgf` after `move` moves (default: its end), as
    /// `--sgf FILE [--move N] --region L,T,R,B`; with `area`, `fixed_color` and the filters.
    pub fn pattern(&mut self, rows: Option<&str>) -> PyResult<PatternRequest> {
        let area = self.text("area")?;
        let fixed_color = self.flag("fixed_color")?;
        let filter = self.filter()?;
        let sgf = self.path("sgf")?;
        let move_number = self.number::<u32>("move")?;
        let region = self.text("region")?;
        let req = match (rows, sgf, region) {
            (Some(rows), None, None) if move_number.is_none() => {
                PatternRequest::parse(rows, area.as_deref(), fixed_color)
            }
            (None, Some(sgf), Some(region)) => {
                PatternRequest::cut(&sgf, move_number, &region, area.as_deref(), fixed_color)
            }
            (Some(_), _, _) => {
                return Err(PyTypeError::new_err(format!(
                    "{}: give the pattern's rows, or sgf and region, not both",
                    self.method
                )))
            }
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "{}: give the pattern's rows, or sgf=PATH and region=\"L,T,R,B\" \
                     (move=N: the position after N moves)",
                    self.method
                )))
            }
        }
        .map_err(|e| error(format!("{e:#}")))?;
        Ok(PatternRequest { filter, ..req })
    }

    /// The worker threads asked for (`threads`), as a pool of that many, or `None`: rayon's
    /// global pool (all cores).
    pub fn threads(&mut self) -> PyResult<Option<rayon::ThreadPool>> {
        match self.number::<usize>("threads")? {
            None => Ok(None),
            Some(n) => rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map(Some)
                .map_err(|e| error(format!("threads: {e}"))),
        }
    }
}

/// `B` or `W` (either case), with the command line's message otherwise.
fn side(s: &str) -> Result<Color, String> {
    match s.as_bytes() {
        [c] => Color::from_letter(*c),
        _ => None,
    }
    .ok_or_else(|| format!("expected B or W, not {s:?}"))
}

/// The name of a value's type, for messages.
fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// Moves or points as `--moves` takes them: a comma-separated string, or a list (or tuple)
/// of points, each a string (`"pd"`, `"Q16"`, `"pass"`) or an `(x, y)` pair of 0-based
/// coordinates.
pub fn points(method: &str, name: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = v.downcast::<PyString>() {
        return s.extract::<String>();
    }
    let items: Vec<Bound<'_, PyAny>> = if let Ok(l) = v.downcast::<PyList>() {
        l.iter().collect()
    } else if let Ok(t) = v.downcast::<PyTuple>() {
        t.iter().collect()
    } else {
        return Err(PyTypeError::new_err(format!(
            "{method}: {name}: expected a str or a list of points, not {}",
            type_name(v)
        )));
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        if let Ok(s) = item.extract::<String>() {
            out.push(s);
        } else if let Ok((x, y)) = item.extract::<(u8, u8)>() {
            out.push(sgf_point(x, y).ok_or_else(|| {
                error(format!("{name}: ({x}, {y}) is not a point (0 to 18 each)"))
            })?);
        } else {
            return Err(PyTypeError::new_err(format!(
                "{method}: {name}: a point is a str or an (x, y) pair, not {}",
                type_name(&item)
            )));
        }
    }
    Ok(out.join(","))
}

/// The SGF letters of 0-based (x, y).
fn sgf_point(x: u8, y: u8) -> Option<String> {
    (x < 19 && y < 19).then(|| format!("{}{}", (b'a' + x) as char, (b'a' + y) as char))
}
