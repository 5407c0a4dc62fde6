//! The API's requests: query strings read into the explorer's requests
//! ([`crate::explore::request`]).
//!
//! This layer knows the parameters' syntax (numbers, `B`/`W`, flags), not Go: points and
//! moves stay text for the explorer, which reads them as the command line's; a pattern's
//! rows and area are read as `kifudex pattern` reads them. Every parameter is checked: an
//! unknown or repeated name, a malformed value or an out-of-range number is a
//! [`ApiError::bad_request`] naming it.
//!
//! ```
//! use kifudex_core::Color;
//! use kifudex_web::query_string;
//!
//! let q = query_string::search("moves=pd,dp,pp&winner=W&swap=1").unwrap();
//! assert_eq!(q.filter.winner, Some(Color::White));
//! assert!(q.swap);
//! // The same question as `kifudex search --moves pd,dp,pp --winner W --swap`.
//! let refused = query_string::search("moves=pd&winner=X").unwrap_err();
//! assert_eq!(refused.kind, kifudex_web::ErrorKind::BadRequest);
//! assert!(refused.answer.error.starts_with("winner"));
//! ```

use kifudex_core::Color;

use super::ApiError;
use crate::explore::request::{
    parse_komi, parse_month, At, GameFilter, GamesRequest, Page, PatternRequest, Position, Rank,
    RankRange, RanksRequest, SearchRequest, Sort, YearsRequest,
};

/// A side, as the API writes it (`B` or `W`).
fn side(name: &str, v: &str) -> Result<Color, ApiError> {
    crate::position::parse_side(v)
        .ok_or_else(|| ApiError::bad_request(format!("{name}: expected B or W, not {v:?}")))
}

/// The largest page of games one request may ask for.
pub const MAX_LIMIT: usize = 1000;

/// The longest `pattern=` (19 rows of 19 cells and their 18 separators).
pub const MAX_PATTERN: usize = 19 * 19 + 18;

/// A pattern query's text, read before the pattern itself (so that a malformed parameter
/// is named before a malformed pattern).
struct PatternText {
    rows: String,
    area: Option<String>,
    fixed_color: bool,
    filter: GameFilter,
}

impl PatternText {
    /// The query, its rows and area read as `kifudex pattern` reads `--pattern` and
    /// `--area`.
    fn request(self, by_year: bool) -> Result<PatternRequest, ApiError> {
        let req = PatternRequest::parse(&self.rows, self.area.as_deref(), self.fixed_color)
            .map_err(|e| ApiError::bad_request(format!("{e:#}")))?;
        Ok(PatternRequest {
            filter: self.filter,
            by_year,
            ..req
        })
    }
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
            Some(v) => Some(side("to_move", &v)?),
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

    fn filter(&mut self) -> Result<GameFilter, ApiError> {
        let player = self.take("player").filter(|p| !p.trim().is_empty());
        if player.as_ref().is_some_and(|p| p.chars().count() > 100) {
            return Err(ApiError::bad_request("player: at most 100 characters"));
        }
        let winner = match self.take("winner") {
            None => None,
            Some(v) if v.is_empty() => None,
            Some(v) => Some(side("winner", &v)?),
        };
        Ok(GameFilter {
            year_from: self.number("year_from", 0..=9999)?,
            year_to: self.number("year_to", 0..=9999)?,
            player: player.map(|p| p.trim().to_owned()),
            handicap: self.number("handicap", 0..=255)?,
            winner,
            ranks: RankRange {
                min: self.parsed("min_rank", |v| v.parse::<Rank>())?,
                max: self.parsed("max_rank", |v| v.parse::<Rank>())?,
            },
            rank_of: match self.take("rank_of") {
                None => None,
                Some(v) if v.is_empty() => None,
                Some(v) => Some(side("rank_of", &v)?),
            },
            komi: self.parsed("komi", parse_komi)?,
            rules: self.words("rules")?,
            event: self.words("event")?,
            month_from: self.parsed("from", |v| parse_month(v, false))?,
            month_to: self.parsed("to", |v| parse_month(v, true))?,
        })
    }

    /// A parameter read by `parse` (empty: not given); a refusal names the parameter.
    fn parsed<T>(
        &mut self,
        name: &str,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<Option<T>, ApiError> {
        match self.take(name) {
            None => Ok(None),
            Some(v) if v.trim().is_empty() => Ok(None),
            Some(v) if v.len() > 20 => Err(ApiError::bad_request(format!(
                "{name}: at most 20 characters"
            ))),
            Some(v) => parse(&v)
                .map(Some)
                .map_err(|e| ApiError::bad_request(format!("{name}: {e}"))),
        }
    }

    /// A text to look for (trimmed; empty: not given; at most 100 characters).
    fn words(&mut self, name: &str) -> Result<Option<String>, ApiError> {
        let v = self.take(name).filter(|p| !p.trim().is_empty());
        if v.as_ref().is_some_and(|p| p.chars().count() > 100) {
            return Err(ApiError::bad_request(format!(
                "{name}: at most 100 characters"
            )));
        }
        Ok(v.map(|p| p.trim().to_owned()))
    }

    fn search(&mut self) -> Result<SearchRequest, ApiError> {
        Ok(SearchRequest {
            at: At::Stated(self.position()?),
            swap: self.flag("swap")?,
            filter: self.filter()?,
        })
    }

    fn pattern(&mut self) -> Result<PatternText, ApiError> {
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
        Ok(PatternText {
            rows: pattern,
            area,
            fixed_color: self.flag("fixed_color")?,
            filter: self.filter()?,
        })
    }

    fn page(&mut self) -> Result<Page, ApiError> {
        let limit = self
            .number::<usize>("limit", 0..=MAX_LIMIT as u64)?
            .unwrap_or(100);
        let offset = self
            .number::<usize>("offset", 0..=u32::MAX as u64)?
            .unwrap_or(0);
        Ok(Page { limit, offset })
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
    let page = p.page()?;
    p.finish(GamesRequest {
        at: At::Stated(position),
        swap,
        filter,
        sort,
        page,
    })
}

/// Reads `/api/years`' query.
pub fn years(query: &str) -> Result<YearsRequest, ApiError> {
    let mut p = Params::new(query)?;
    let search = p.search()?;
    let top = p.number::<usize>("top", 1..=10)?.unwrap_or(5);
    p.finish(YearsRequest { search, top })
}

/// Reads `/api/ranks`' query (as `/api/years`').
pub fn ranks(query: &str) -> Result<RanksRequest, ApiError> {
    let mut p = Params::new(query)?;
    let search = p.search()?;
    let top = p.number::<usize>("top", 1..=10)?.unwrap_or(5);
    p.finish(RanksRequest { search, top })
}

/// Reads `/api/pattern`'s query (`by_year=1` for the date profile).
pub fn pattern(query: &str) -> Result<PatternRequest, ApiError> {
    let mut p = Params::new(query)?;
    let text = p.pattern()?;
    let by_year = p.flag("by_year")?;
    p.finish(text)?.request(by_year)
}

/// Reads `/api/pattern/games`' query: the pattern query and the page of its games.
pub fn pattern_games(query: &str) -> Result<(PatternRequest, Page), ApiError> {
    let mut p = Params::new(query)?;
    let text = p.pattern()?;
    let page = p.page()?;
    let text = p.finish(text)?;
    Ok((text.request(false)?, page))
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

    /// The position of a request as stated.
    fn stated(at: &At) -> &Position {
        match at {
            At::Stated(p) => p,
            At::Board(_) => panic!("a query string states its position"),
        }
    }

    #[test]
    fn the_contract_query_is_moves_alone() {
        let s = search("moves=pd,dp,pp").unwrap();
        assert_eq!(stated(&s.at).moves, "pd,dp,pp");
        assert_eq!(stated(&s.at).size, 19);
        assert!(!s.swap && s.filter.keeps_all());
        let s = search("").unwrap();
        assert_eq!(s, SearchRequest::default());
    }

    #[test]
    fn setup_filters_and_paging() {
        let s = search(
            "ab=pd%2Cdp&aw=dd&to_move=W&moves=pp&swap=1&year_from=2015&year_to=2020&player=Ke+Jie&winner=B&handicap=0",
        )
        .unwrap();
        let p = stated(&s.at);
        assert_eq!(p.black, "pd,dp");
        assert_eq!(p.white, "dd");
        assert_eq!(p.to_move, Some(Color::White));
        assert!(s.swap);
        assert_eq!(s.filter.player.as_deref(), Some("Ke Jie"));
        assert_eq!(s.filter.year_from, Some(2015));
        assert_eq!(s.filter.winner, Some(Color::Black));
        let g = games("moves=pd&limit=10&offset=20&sort=-date").unwrap();
        assert_eq!(
            g.page,
            Page {
                limit: 10,
                offset: 20
            }
        );
        assert_eq!(g.sort, Sort::parse("-date").unwrap());
        assert_eq!(games("").unwrap().page, Page::first(100));
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
            assert!(e.message().contains(word), "{q}: {}", e.message());
        }
        assert!(years("top=11").is_err());
        assert!(none("x=1").is_err());
        assert!(sgf_text("").is_err());
    }

    #[test]
    fn pattern_parameters() {
        let q = pattern("pattern=..X%2F.O.&area=0,0,0,0&fixed_color=1&year_from=2000&by_year=1")
            .unwrap();
        let want = PatternRequest::parse("..X/.O.", Some("0,0,0,0"), true).unwrap();
        assert_eq!(q.pattern, want.pattern);
        assert_eq!(q.area, want.area);
        assert!(q.fixed_color && q.by_year);
        assert_eq!(q.filter.year_from, Some(2000));
        let (g, page) = pattern_games("pattern=X&limit=5&offset=2").unwrap();
        assert_eq!(g.pattern.to_string(), "X");
        assert_eq!((page.limit, page.offset), (5, 2));
        assert!(g.area == PatternRequest::parse("X", None, false).unwrap().area);
        assert!(!g.fixed_color && !g.by_year);
        for bad in [
            "",
            "pattern=",
            "pattern=X&by_year=2",
            "pattern=X&moves=pd",
            "pattern=X&area=0,0,0,0,0,0,0,0,0,0,0,0",
            "pattern=..Y",
            "pattern=X&area=1,2",
        ] {
            assert!(pattern(bad).is_err(), "{bad}");
        }
        assert!(pattern(&format!("pattern={}", "X".repeat(MAX_PATTERN + 1))).is_err());
        assert!(pattern_games("pattern=X&by_year=1").is_err());
        // A malformed parameter is named before a malformed pattern.
        let e = pattern("pattern=..Y&bogus=1").unwrap_err();
        assert!(e.message().contains("bogus"), "{}", e.message());
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
