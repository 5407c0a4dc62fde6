//! The API's requests: query strings read into typed values.
//!
//! This layer knows the parameters' syntax (numbers, `B`/`W`, flags), not Go: points and
//! moves stay text for the [`super::Backend`], which reads them with the same functions as
//! the command line. Every parameter is checked: an unknown or repeated name, a malformed
//! value or an out-of-range number is a [`ApiError::bad_request`] naming it.

use super::ApiError;

/// A side, as the API writes it (`B` or `W`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Side {
    /// Black (`B`).
    Black,
    /// White (`W`).
    White,
}

impl Side {
    fn parse(name: &str, v: &str) -> Result<Side, ApiError> {
        match v {
            "B" | "b" => Ok(Side::Black),
            "W" | "w" => Ok(Side::White),
            _ => Err(ApiError::bad_request(format!(
                "{name}: expected B or W, not {v:?}"
            ))),
        }
    }
}

/// A position on a board: setup stones, then moves played from it.
///
/// `moves=pd,dp,pp` alone is the SPEC's query: moves from the empty 19x19 board, Black
/// first, colours alternating. Setup mode adds `ab=` and `aw=` (black and white stones put
/// on the board first, comma-separated SGF points, as SGF's `AB`/`AW`) and `to_move=B|W`
/// (who plays the first of `moves`, and who is to move when there are none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Board size (`size=`, square, 1 to 19; default 19): its width.
    pub size: u8,
    /// The height of a rectangular board (`None`: square).
    pub height: Option<u8>,
    /// Black setup stones (`ab=`), comma-separated points.
    pub black: String,
    /// White setup stones (`aw=`), comma-separated points.
    pub white: String,
    /// The side to move first (`to_move=`); `None`: Black.
    pub to_move: Option<Side>,
    /// The moves (`moves=`), comma-separated points or `pass`.
    pub moves: String,
}

impl Default for Position {
    fn default() -> Self {
        Position {
            size: 19,
            height: None,
            black: String::new(),
            white: String::new(),
            to_move: None,
            moves: String::new(),
        }
    }
}

/// Which games count (`year_from`, `year_to`, `player`, `handicap`, `winner`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only games from this year on.
    pub year_from: Option<u16>,
    /// Only games up to this year.
    pub year_to: Option<u16>,
    /// Only games with a player whose name contains this (case-insensitive).
    pub player: Option<String>,
    /// Only games with this many handicap stones (0: even games).
    pub handicap: Option<u8>,
    /// Only games won by this side.
    pub winner: Option<Side>,
}

impl Filter {
    /// Whether the filter keeps every game.
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }
}

/// `GET /api/search`: next moves of a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchRequest {
    /// The position.
    pub position: Position,
    /// Also count the colour-exchanged position (`swap=1`).
    pub swap: bool,
    /// Which games count.
    pub filter: Filter,
}

/// The orders a game list can be sorted in (`sort=`; a leading `-` reverses).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SortKey {
    /// The index's order: newest game first (the default).
    Newest,
    /// Date.
    Date,
    /// Black's name.
    Black,
    /// White's name.
    White,
    /// Result text.
    Result,
    /// Event.
    Event,
    /// The move where the position occurred.
    Move,
}

/// A sort order: the key and whether it is reversed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sort {
    /// What is compared.
    pub key: SortKey,
    /// Descending instead of ascending.
    pub descending: bool,
}

impl Default for Sort {
    fn default() -> Self {
        Sort {
            key: SortKey::Newest,
            descending: false,
        }
    }
}

impl Sort {
    /// Reads `date`, `-date`, `black`, `white`, `result`, `event`, `move`, `newest`.
    pub fn parse(v: &str) -> Option<Sort> {
        let (descending, name) = match v.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, v),
        };
        let key = match name {
            "newest" => SortKey::Newest,
            "date" => SortKey::Date,
            "black" => SortKey::Black,
            "white" => SortKey::White,
            "result" => SortKey::Result,
            "event" => SortKey::Event,
            "move" => SortKey::Move,
            _ => return None,
        };
        Some(Sort { key, descending })
    }
}

/// `GET /api/games`: the games that reached a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamesRequest {
    /// The position.
    pub position: Position,
    /// Also list the games that reached the colour-exchanged position (`swap=1`).
    pub swap: bool,
    /// Which games.
    pub filter: Filter,
    /// Order.
    pub sort: Sort,
    /// At most this many (`limit=`, default 100, at most [`MAX_LIMIT`]).
    pub limit: usize,
    /// Skip this many first (`offset=`).
    pub offset: usize,
}

/// The largest page of games one request may ask for.
pub const MAX_LIMIT: usize = 1000;

/// `GET /api/years`: the popularity of the top next moves, year by year.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct YearsRequest {
    /// The search whose top next moves are followed.
    pub search: SearchRequest,
    /// How many of the top next moves (`top=`, 1 to 10, default 5).
    pub top: usize,
}

/// `GET /api/pattern`: a wildcard pattern search (the SPEC's "Pattern search"), with the
/// parameters of `kifudex pattern`: `pattern=ROWS`, `area=L,T,R,B`, `fixed_color=1`, the
/// filters, and `by_year=1` for the date profile. The rows and the area stay text for the
/// [`super::Backend`], which reads them as the command line does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatternSearch {
    /// The pattern's rows, top to bottom, separated by `/` (`pattern=`).
    pub pattern: String,
    /// The allowed placements of the pattern's top-left cell (`area=L,T,R,B`); `None`:
    /// everywhere on the board.
    pub area: Option<String>,
    /// Search the colours only as given (`fixed_color=1`).
    pub fixed_color: bool,
    /// Which games.
    pub filter: Filter,
    /// Also count hits and continuations by year (`by_year=1`).
    pub by_year: bool,
}

/// The longest `pattern=` (19 rows of 19 cells and their 18 separators).
pub const MAX_PATTERN: usize = 19 * 19 + 18;

/// `GET /api/pattern/games`: the games with hits of a pattern, as `kifudex games --pattern`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternGamesRequest {
    /// The pattern search (`by_year` is not used).
    pub search: PatternSearch,
    /// At most this many (`limit=`, default 100, at most [`MAX_LIMIT`]).
    pub limit: usize,
    /// Skip this many first (`offset=`).
    pub offset: usize,
}

/// A query string's parameters, each readable once.
struct Params {
    pairs: Vec<(String, String, bool)>,
}

impl Params {
    /// Splits and decodes a query string; a repeated name is an error.
    fn new(query: &str) -> Result<Params, ApiError> {
        let mut pairs: Vec<(String, String, bool)> = Vec::new();
        for (k, v) in form_urlencoded::parse(query.as_bytes()) {
            if k.is_empty() && v.is_empty() {
                continue;
            }
            if pairs.iter().any(|(name, _, _)| *name == k) {
                return Err(ApiError::bad_request(format!(
                    "parameter {k:?} is given more than once"
                )));
            }
            pairs.push((k.into_owned(), v.into_owned(), false));
        }
        Ok(Params { pairs })
    }

    fn take(&mut self, name: &str) -> Option<String> {
        self.pairs
            .iter_mut()
            .find(|(k, _, used)| k == name && !*used)
            .map(|(_, v, used)| {
                *used = true;
                std::mem::take(v)
            })
    }

    fn text(&mut self, name: &str) -> String {
        self.take(name).unwrap_or_default()
    }

    fn number<T: std::str::FromStr>(
        &mut self,
        name: &str,
        range: std::ops::RangeInclusive<u64>,
    ) -> Result<Option<T>, ApiError> {
        let Some(v) = self.take(name) else {
            return Ok(None);
        };
        if v.is_empty() {
            return Ok(None);
        }
        let n: u64 = v
            .parse()
            .map_err(|_| ApiError::bad_request(format!("{name}: expected a number, not {v:?}")))?;
        if !range.contains(&n) {
            return Err(ApiError::bad_request(format!(
                "{name}: {n} is out of range ({}..={})",
                range.start(),
                range.end()
            )));
        }
        // In range, so it fits every type used here.
        v.parse()
            .map(Some)
            .map_err(|_| ApiError::bad_request(format!("{name}: {v:?} is out of range")))
    }

    fn flag(&mut self, name: &str) -> Result<bool, ApiError> {
        match self.take(name).as_deref() {
            None | Some("" | "0" | "false" | "off") => Ok(false),
            Some("1" | "true" | "on") => Ok(true),
            Some(v) => Err(ApiError::bad_request(format!(
                "{name}: expected 1 or 0, not {v:?}"
            ))),
        }
    }

    fn position(&mut self) -> Result<Position, ApiError> {
        let size = self.number::<u8>("size", 1..=19)?.unwrap_or(19);
        let to_move = match self.take("to_move") {
            None => None,
            Some(v) if v.is_empty() => None,
            Some(v) => Some(Side::parse("to_move", &v)?),
        };
        Ok(Position {
            size,
            height: None,
            black: self.text("ab"),
            white: self.text("aw"),
            to_move,
            moves: self.text("moves"),
        })
    }

    fn filter(&mut self) -> Result<Filter, ApiError> {
        let player = self.take("player").filter(|p| !p.trim().is_empty());
        if player.as_ref().is_some_and(|p| p.chars().count() > 100) {
            return Err(ApiError::bad_request("player: at most 100 characters"));
        }
        let winner = match self.take("winner") {
            None => None,
            Some(v) if v.is_empty() => None,
            Some(v) => Some(Side::parse("winner", &v)?),
        };
        Ok(Filter {
            year_from: self.number("year_from", 0..=9999)?,
            year_to: self.number("year_to", 0..=9999)?,
            player: player.map(|p| p.trim().to_owned()),
            handicap: self.number("handicap", 0..=255)?,
            winner,
        })
    }

    fn search(&mut self) -> Result<SearchRequest, ApiError> {
        Ok(SearchRequest {
            position: self.position()?,
            swap: self.flag("swap")?,
            filter: self.filter()?,
        })
    }

    fn pattern(&mut self) -> Result<PatternSearch, ApiError> {
        let pattern = self
            .take("pattern")
            .filter(|p| !p.is_empty())
            .ok_or_else(|| ApiError::bad_request("pattern: the rows are missing (pattern=ROWS)"))?;
        if pattern.len() > MAX_PATTERN {
            return Err(ApiError::bad_request(format!(
                "pattern: at most 19 rows of 19 cells ({MAX_PATTERN} characters)"
            )));
        }
        let area = self.take("area").filter(|a| !a.is_empty());
        if area.as_ref().is_some_and(|a| a.len() > 20) {
            return Err(ApiError::bad_request("area: expected L,T,R,B"));
        }
        Ok(PatternSearch {
            pattern,
            area,
            fixed_color: self.flag("fixed_color")?,
            filter: self.filter()?,
            by_year: false,
        })
    }

    fn page(&mut self) -> Result<(usize, usize), ApiError> {
        let limit = self
            .number::<usize>("limit", 0..=MAX_LIMIT as u64)?
            .unwrap_or(100);
        let offset = self
            .number::<usize>("offset", 0..=u32::MAX as u64)?
            .unwrap_or(0);
        Ok((limit, offset))
    }

    /// Ends reading: a parameter nobody read is an error.
    fn finish<T>(self, value: T) -> Result<T, ApiError> {
        match self.pairs.iter().find(|(_, _, used)| !used) {
            Some((k, _, _)) => Err(ApiError::bad_request(format!("unknown parameter {k:?}"))),
            None => Ok(value),
        }
    }
}

/// Reads `/api/position`'s query.
pub fn position(query: &str) -> Result<Position, ApiError> {
    let mut p = Params::new(query)?;
    let v = p.position()?;
    p.finish(v)
}

/// Reads `/api/search`'s query.
pub fn search(query: &str) -> Result<SearchRequest, ApiError> {
    let mut p = Params::new(query)?;
    let v = p.search()?;
    p.finish(v)
}

/// Reads `/api/games`'s query.
pub fn games(query: &str) -> Result<GamesRequest, ApiError> {
    let mut p = Params::new(query)?;
    let position = p.position()?;
    let swap = p.flag("swap")?;
    let filter = p.filter()?;
    let sort = match p.take("sort") {
        None => Sort::default(),
        Some(v) if v.is_empty() => Sort::default(),
        Some(v) => Sort::parse(&v).ok_or_else(|| {
            ApiError::bad_request(format!(
                "sort: expected newest, date, black, white, result, event or move (- to reverse), not {v:?}"
            ))
        })?,
    };
    let (limit, offset) = p.page()?;
    p.finish(GamesRequest {
        position,
        swap,
        filter,
        sort,
        limit,
        offset,
    })
}

/// Reads `/api/years`' query.
pub fn years(query: &str) -> Result<YearsRequest, ApiError> {
    let mut p = Params::new(query)?;
    let search = p.search()?;
    let top = p.number::<usize>("top", 1..=10)?.unwrap_or(5);
    p.finish(YearsRequest { search, top })
}

/// Reads `/api/pattern`'s query.
pub fn pattern(query: &str) -> Result<PatternSearch, ApiError> {
    let mut p = Params::new(query)?;
    let mut v = p.pattern()?;
    v.by_year = p.flag("by_year")?;
    p.finish(v)
}

/// Reads `/api/pattern/games`' query.
pub fn pattern_games(query: &str) -> Result<PatternGamesRequest, ApiError> {
    let mut p = Params::new(query)?;
    let search = p.pattern()?;
    let (limit, offset) = p.page()?;
    p.finish(PatternGamesRequest {
        search,
        limit,
        offset,
    })
}

/// Reads `/api/sgf`'s query: the record's text (`sgf=`).
pub fn sgf_text(query: &str) -> Result<String, ApiError> {
    let mut p = Params::new(query)?;
    let text = p
        .take("sgf")
        .ok_or_else(|| ApiError::bad_request("sgf: the record's text is missing"))?;
    p.finish(text)
}

/// Reads a query that takes no parameters.
pub fn none(query: &str) -> Result<(), ApiError> {
    Params::new(query)?.finish(())
}

/// Reads a game id from `/api/game/ID` or `/api/game/ID.sgf`: the id and whether the SGF
/// is asked for.
pub fn game_id(segment: &str) -> Result<(u32, bool), ApiError> {
    let (digits, sgf) = match segment.strip_suffix(".sgf") {
        Some(d) => (d, true),
        None => (segment, false),
    };
    if digits.is_empty() || digits.len() > 10 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::bad_request(format!(
            "game id: expected a number, not {segment:?}"
        )));
    }
    let id = digits
        .parse()
        .map_err(|_| ApiError::not_found(format!("no game {digits}")))?;
    Ok((id, sgf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_query_is_moves_alone() {
        let s = search("moves=pd,dp,pp").unwrap();
        assert_eq!(s.position.moves, "pd,dp,pp");
        assert_eq!(s.position.size, 19);
        assert!(!s.swap && s.filter.is_empty());
        let s = search("").unwrap();
        assert_eq!(s, SearchRequest::default());
    }

    #[test]
    fn setup_filters_and_paging() {
        let s = search(
            "ab=pd%2Cdp&aw=dd&to_move=W&moves=pp&swap=1&year_from=2015&year_to=2020&player=Ke+Jie&winner=B&handicap=0",
        )
        .unwrap();
        assert_eq!(s.position.black, "pd,dp");
        assert_eq!(s.position.white, "dd");
        assert_eq!(s.position.to_move, Some(Side::White));
        assert!(s.swap);
        assert_eq!(s.filter.player.as_deref(), Some("Ke Jie"));
        assert_eq!(s.filter.year_from, Some(2015));
        assert_eq!(s.filter.winner, Some(Side::Black));
        let g = games("moves=pd&limit=10&offset=20&sort=-date").unwrap();
        assert_eq!((g.limit, g.offset), (10, 20));
        assert_eq!(
            g.sort,
            Sort {
                key: SortKey::Date,
                descending: true
            }
        );
        assert_eq!(games("").unwrap().limit, 100);
    }

    #[test]
    fn bad_parameters_are_named() {
        for (q, word) in [
            ("mvoes=pd", "mvoes"),
            ("moves=pd&moves=dp", "more than once"),
            ("limit=abc", "limit"),
            ("limit=1001", "out of range"),
            ("offset=-1", "offset"),
            ("size=20", "size"),
            ("to_move=X", "to_move"),
            ("swap=yes", "swap"),
            ("sort=elo", "sort"),
        ] {
            let e = games(q).unwrap_err();
            assert!(e.message.contains(word), "{q}: {}", e.message);
        }
        assert!(years("top=11").is_err());
        assert!(none("x=1").is_err());
        assert!(sgf_text("").is_err());
    }

    #[test]
    fn pattern_parameters() {
        let q = pattern("pattern=..X%2F.O.&area=0,0,0,0&fixed_color=1&year_from=2000&by_year=1")
            .unwrap();
        assert_eq!(q.pattern, "..X/.O.");
        assert_eq!(q.area.as_deref(), Some("0,0,0,0"));
        assert!(q.fixed_color && q.by_year);
        assert_eq!(q.filter.year_from, Some(2000));
        let g = pattern_games("pattern=X&limit=5&offset=2").unwrap();
        assert_eq!((g.search.pattern.as_str(), g.limit, g.offset), ("X", 5, 2));
        assert!(g.search.area.is_none() && !g.search.fixed_color);
        for bad in [
            "",
            "pattern=",
            "pattern=X&by_year=2",
            "pattern=X&moves=pd",
            "pattern=X&area=0,0,0,0,0,0,0,0,0,0,0,0",
        ] {
            assert!(pattern(bad).is_err(), "{bad}");
        }
        assert!(pattern(&format!("pattern={}", "X".repeat(MAX_PATTERN + 1))).is_err());
        assert!(pattern_games("pattern=X&by_year=1").is_err());
    }

    #[test]
    fn game_ids() {
        assert_eq!(game_id("12").unwrap(), (12, false));
        assert_eq!(game_id("0.sgf").unwrap(), (0, true));
        for bad in [
            "",
            "-1",
            "1e3",
            "..%2F",
            "12.SGF",
            "12.sgf.sgf",
            "99999999999",
        ] {
            assert!(game_id(bad).is_err(), "{bad}");
        }
    }
}
