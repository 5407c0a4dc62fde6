//! `kifudex.Index`: an opened index and its explorer, asked the command line's questions.
//!
//! Each method reads its arguments into the explorer's request ([`crate::args`]), asks the
//! explorer with the GIL released (another Python thread runs meanwhile), prints the answer
//! with the JSON printer the command line's `--json` uses, and gives Python that JSON read
//! by `json.loads`: the same dicts and lists `kifudex ... --json` prints, by construction.

use std::path::PathBuf;

use kifudex::explore::request::{GamesRequest, RanksRequest, SearchRequest, YearsRequest};
use kifudex::explore::{self, ExploreError, Explorer};
use kifudex::print::json;
use kifudex::IndexBytes;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::Kwargs;
use crate::error::error;

self_cell::self_cell!(
    /// An index file's bytes and the explorer that reads them.
    struct Opened {
        owner: IndexBytes,
        #[covariant]
        dependent: Explorer,
    }
);

/// An opened index: `kifudex.open(path)`.
#[pyclass(frozen, module = "kifudex", name = "Index")]
pub struct Index {
    opened: Opened,
}

/// The JSON line `answer` (or the explorer's refusal, as `kifudex.Error`), read into Python
/// values.
fn to_python(py: Python<'_>, answer: Result<String, ExploreError>) -> PyResult<PyObject> {
    let line = answer.map_err(|e| error(e.to_string()))?;
    Ok(py.import("json")?.call_method1("loads", (line,))?.unbind())
}

/// Runs `work` in `pool` if one was asked for (`threads=`), else on rayon's global pool.
fn on_pool<T: Send>(pool: Option<rayon::ThreadPool>, work: impl FnOnce() -> T + Send) -> T {
    match pool {
        Some(p) => p.install(work),
        None => work(),
    }
}

impl Index {
    /// The explorer.
    fn explorer(&self) -> &Explorer<'_> {
        self.opened.borrow_dependent()
    }

    /// Opens the index at `path` (memory-mapped: time independent of its size).
    pub fn open(path: PathBuf) -> PyResult<Index> {
        let (bytes, label) = explore::load(Some(&path)).map_err(|e| error(format!("{e:#}")))?;
        let opened = Opened::try_new(bytes, |b| Explorer::open(b, label))
            .map_err(|e| error(format!("{e:#}")))?;
        Ok(Index { opened })
    }
}

#[pymethods]
impl Index {
    /// The next moves of a position, as `kifudex search --json` prints them.
    ///
    /// `moves`: the CLI's comma-separated moves (`"pd,dd"`, `"Q16,D4"`) or a list of points.
    /// Keywords: `ab`, `aw`, `to_move`, `size` (or `sgf` and `move`), `swap`, `by_rank`,
    /// and the filters (`year_from`, `year_to`, `player`, `winner`, `handicap`,
    /// `min_rank`, `max_rank`, `rank_of`, `komi`, `rules`, `event`, `from_`, `to`).
    #[pyo3(signature = (moves=None, **kwargs))]
    fn search(
        &self,
        py: Python<'_>,
        moves: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let mut k = Kwargs::new("search", kwargs)?;
        let at = k.position(moves)?;
        let swap = k.flag("swap")?;
        let by_rank = k.flag("by_rank")?;
        let filter = k.filter()?;
        k.finish()?;
        let q = SearchRequest { at, swap, filter };
        let explorer = self.explorer();
        let answer = py.allow_threads(|| {
            explorer.search(&q).and_then(|mut answer| {
                // As `kifudex search --by-rank`: the top five moves by the players' ranks.
                if by_rank {
                    let r = RanksRequest {
                        search: q.clone(),
                        top: 5,
                    };
                    answer.by_rank = Some(explorer.ranks(&r)?);
                }
                Ok(json::to_line(&answer))
            })
        });
        to_python(py, answer)
    }

    /// The games that reached a position, as `kifudex games --json` prints them: the
    /// position's keywords as `search`'s, `limit` (100), `offset` (0), `sort` (`"newest"`;
    /// `date`, `black`, `white`, `result`, `event`, `move`, a leading `-` reverses) and the
    /// filters. With `pattern=` (and `area`, `fixed_color`): the games holding a pattern.
    #[pyo3(signature = (moves=None, **kwargs))]
    fn games(
        &self,
        py: Python<'_>,
        moves: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let mut k = Kwargs::new("games", kwargs)?;
        let page = k.page()?;
        let explorer = self.explorer();
        if let Some(rows) = k.text("pattern")? {
            if moves.is_some_and(|m| !m.is_none()) {
                return Err(pyo3::exceptions::PyTypeError::new_err(
                    "games: give moves or pattern, not both",
                ));
            }
            let req = k.pattern(Some(&rows))?;
            let pool = k.threads()?;
            k.finish()?;
            let answer = py.allow_threads(|| {
                on_pool(pool, || json::to_line(&explorer.pattern_games(&req, page)))
            });
            return to_python(py, Ok(answer));
        }
        let at = k.position(moves)?;
        let swap = k.flag("swap")?;
        let sort = k.sort()?;
        let filter = k.filter()?;
        k.finish()?;
        let q = GamesRequest {
            at,
            swap,
            filter,
            sort,
            page,
        };
        let answer = py.allow_threads(|| explorer.games(&q).map(|a| json::to_line(&a)));
        to_python(py, answer)
    }

    /// Pattern search, as `kifudex pattern --json` prints it: `pattern` the rows (`"..X/.O."`)
    /// or, instead, `sgf` a record's path and `region` `"L,T,R,B"` the rectangle cut from
    /// its position after `move` moves (default: the end), as `--sgf FILE --move N --region
    /// L,T,R,B`; `area` `"L,T,R,B"`, `fixed_color`, `by_year` (the date profile), the filters;
    /// `hits=True` lists the hits (`limit`, `offset`) as `--hits --json`. `threads`: worker
    /// threads (default all cores). The GIL is released during the scan; the scan is kept
    /// for the questions that follow (the same query's `games(pattern=...)`).
    #[pyo3(signature = (pattern=None, **kwargs))]
    fn pattern(
        &self,
        py: Python<'_>,
        pattern: Option<&str>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let mut k = Kwargs::new("pattern", kwargs)?;
        let by_year = k.flag("by_year")?;
        let hits = k.flag("hits")?;
        let page = k.page()?;
        let pool = k.threads()?;
        let req = k.pattern(pattern)?;
        k.finish()?;
        let req = kifudex::explore::request::PatternRequest { by_year, ..req };
        let explorer = self.explorer();
        let answer = py.allow_threads(|| {
            on_pool(pool, || {
                if hits {
                    json::to_line(&explorer.pattern_hits(&req, page))
                } else {
                    json::to_line(&explorer.pattern(&req))
                }
            })
        });
        to_python(py, Ok(answer))
    }

    /// One stored game (`id`: 0 is the newest), as `kifudex game ID` prints it (information,
    /// setup, moves with captures); with `sgf=True` its SGF text, as `kifudex game ID --sgf`.
    #[pyo3(signature = (id, *, sgf=false))]
    fn game(&self, py: Python<'_>, id: u32, sgf: bool) -> PyResult<PyObject> {
        let explorer = self.explorer();
        if sgf {
            let text = py
                .allow_threads(|| explorer.game_sgf(id))
                .map_err(|e| error(e.to_string()))?;
            return Ok(text.trim_end().into_pyobject(py)?.into_any().unbind());
        }
        let answer = py.allow_threads(|| explorer.game(id).map(|r| json::to_line(&r)));
        to_python(py, answer)
    }

    /// How often the `top` (5, at most 10) next moves of a position were played, year by
    /// year, as the web API's `/api/years` answers: the position's keywords and filters as
    /// `search`'s.
    #[pyo3(signature = (moves=None, **kwargs))]
    fn years(
        &self,
        py: Python<'_>,
        moves: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let (search, top) = profile_request(Kwargs::new("years", kwargs)?, moves)?;
        let explorer = self.explorer();
        let q = YearsRequest { search, top };
        let answer = py.allow_threads(|| explorer.years(&q).map(|a| json::to_line(&a)));
        to_python(py, answer)
    }

    /// How often the `top` (5, at most 10) next moves of a position were played by
    /// players of each range of ranks, as `/api/ranks` answers (and `search(by_rank=True)`
    /// holds).
    #[pyo3(signature = (moves=None, **kwargs))]
    fn ranks(
        &self,
        py: Python<'_>,
        moves: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let (search, top) = profile_request(Kwargs::new("ranks", kwargs)?, moves)?;
        let explorer = self.explorer();
        let q = RanksRequest { search, top };
        let answer = py.allow_threads(|| explorer.ranks(&q).map(|a| json::to_line(&a)));
        to_python(py, answer)
    }

    /// Local shape statistics of all games, as `kifudex shapes --json` prints them: `top`
    /// (20) patterns per shape, `opening_moves` (10), `openings` (10), `max_moves`.
    #[pyo3(signature = (*, top=20, opening_moves=10, openings=10, max_moves=None))]
    fn shapes(
        &self,
        py: Python<'_>,
        top: usize,
        opening_moves: usize,
        openings: usize,
        max_moves: Option<usize>,
    ) -> PyResult<PyObject> {
        let opts = kifudex::shapes::ShapeOptions {
            top,
            opening_moves,
            openings,
            max_moves,
        };
        let explorer = self.explorer();
        let answer = py.allow_threads(|| json::to_line(&explorer.shapes(&opts)));
        to_python(py, Ok(answer))
    }

    /// The index's name (its path), as messages give it.
    #[getter]
    fn name(&self) -> String {
        self.explorer().name().to_owned()
    }

    /// How many games the index holds.
    fn __len__(&self) -> usize {
        self.explorer().game_count() as usize
    }

    fn __repr__(&self) -> String {
        format!(
            "<kifudex.Index {:?}: {} games>",
            self.explorer().name(),
            self.explorer().game_count()
        )
    }
}

/// A profile's question: the search (position, `swap`, filters) and `top` (1 to 10,
/// default 5, as the web API's).
fn profile_request<'py>(
    mut k: Kwargs<'py>,
    moves: Option<&Bound<'py, PyAny>>,
) -> PyResult<(SearchRequest, usize)> {
    let at = k.position(moves)?;
    let swap = k.flag("swap")?;
    let top = k.number::<usize>("top")?.unwrap_or(5);
    if !(1..=10).contains(&top) {
        return Err(error(format!("top: {top} is out of range (1..=10)")));
    }
    let filter = k.filter()?;
    k.finish()?;
    Ok((SearchRequest { at, swap, filter }, top))
}
