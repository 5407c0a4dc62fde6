//! Which games count, in which order, which page of them, and the games that reached a
//! position: filtered, sorted, paged. The explorer's requests take these types, and the
//! pattern scan its filter.
//!
//! Filters, sorts and profiles read the index's game columns
//! ([`kifudex_core::columns::GameColumns`]), not the game rows: a filter is compiled once
//! over them (`select.rs`: [`Selection`]), a position's next moves are tallied in one walk
//! over its occurrences (`count.rs`: [`Tallies`]), and a sorted list is read off the
//! columns' precomputed orders when it holds a large share of the games. The occurrences
//! of the positions most games reach are kept in memory once walked (`hot.rs`: [`Hot`]),
//! and so are the games the filters asked lately keep, one bit per game (`mask.rs`:
//! [`GameMask`]), and the names their texts match (`names.rs`: [`Matches`]), each list of
//! the most recently used (`recent.rs`).

mod count;
mod hot;
mod mask;
mod names;
mod pieces;
mod recent;
mod select;
mod tally;
mod unpacked;

pub use hot::{Hot, HotPosition, ProfileKey, Warmed, HOT_CAPACITY, HOT_MIN, PROFILES};
pub use mask::{GameMask, Masks, MASKS};
pub use names::{Field, Matches, MATCHES};
pub use select::Selection;
pub use tally::Tallies;
pub use unpacked::Unpacked;

use std::sync::Arc;

use kifudex_core::board::Board;
use kifudex_core::columns::{GameColumns, SortColumn};
use kifudex_core::index::{swapped_board, Game, Index, Occurrence};
use kifudex_core::outcome::ShortResult;
use kifudex_core::search::{NextMoves, SearchError};
use kifudex_core::Color;
use rayon::prelude::*;

use crate::rank::{GameRanks, RankRange};

/// Which games count: by year or month, player, handicap, winner, players' ranks, komi,
/// rules, event (`None` everywhere: every game). Equal filters select the same games (a
/// filter is part of a query's key).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct GameFilter {
    /// Only games from this year on.
    pub year_from: Option<u16>,
    /// Only games up to this year.
    pub year_to: Option<u16>,
    /// Only games with a player whose name contains this (case-insensitive).
    pub player: Option<String>,
    /// Only games with this handicap (0 for even games).
    pub handicap: Option<u8>,
    /// Only games won by this colour.
    pub winner: Option<Color>,
    /// Only games whose players' ranks lie within these bounds (`--min-rank`,
    /// `--max-rank`): both players', or with [`GameFilter::rank_of`] one player's. A rank
    /// that cannot be read passes only when no bound is given.
    pub ranks: RankRange,
    /// With rank bounds: bound only this colour's player (the player to move, say);
    /// `None`: both players.
    pub rank_of: Option<Color>,
    /// Only games with this komi, in hundredths of a point (`650` for 6.5).
    pub komi: Option<i32>,
    /// Only games whose rules (`RU`) contain this (case-insensitive).
    pub rules: Option<String>,
    /// Only games whose event (`EV`) contains this (case-insensitive).
    pub event: Option<String>,
    /// Only games from this month on, as `yyyymm` (a game whose month is unknown counts
    /// from January of its year).
    pub month_from: Option<u32>,
    /// Only games up to this month, as `yyyymm` (a game whose month is unknown counts up
    /// to December of its year).
    pub month_to: Option<u32>,
}

/// Whether `text` contains `part`, case-insensitive (without allocating for ASCII).
fn contains_ignoring_case(text: &str, part: &str) -> bool {
    if text.is_ascii() && part.is_ascii() {
        let (t, p) = (text.as_bytes(), part.as_bytes());
        p.is_empty() || t.windows(p.len()).any(|w| w.eq_ignore_ascii_case(p))
    } else {
        text.to_lowercase().contains(&part.to_lowercase())
    }
}

/// Reads a month bound as users write it: `2019-03` (or `2019/03`, `201903`), or a year
/// alone, `2019`, which stands for January of it (`end` false) or December (`end` true).
/// The answer is `yyyymm`.
pub fn parse_month(text: &str, end: bool) -> Result<u32, String> {
    let t = text.trim();
    let bad = || format!("{text:?} is not a month: give YYYY-MM (e.g. 2019-03) or a year");
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (year, month) = match t.split_once(['-', '/', '.']) {
        Some((y, m)) if digits(y) && digits(m) && y.len() == 4 && m.len() <= 2 => (
            y.parse::<u32>().map_err(|_| bad())?,
            m.parse::<u32>().map_err(|_| bad())?,
        ),
        None if digits(t) && t.len() == 4 => (
            t.parse::<u32>().map_err(|_| bad())?,
            if end { 12 } else { 1 },
        ),
        None if digits(t) && t.len() == 6 => {
            let n: u32 = t.parse().map_err(|_| bad())?;
            (n / 100, n % 100)
        }
        _ => return Err(bad()),
    };
    if year == 0 || !(1..=12).contains(&month) {
        return Err(bad());
    }
    Ok(year * 100 + month)
}

/// Reads a komi as users write it (`6.5`, `7`, `-3.25`, `0`) into hundredths of a point.
pub fn parse_komi(text: &str) -> Result<i32, String> {
    let bad = || format!("{text:?} is not a komi: give points like 6.5, 7 or 0");
    let t = text.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    if whole.is_empty()
        || whole.len() > 4
        || frac.len() > 2
        || !whole
            .bytes()
            .chain(frac.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let whole: i32 = whole.parse().map_err(|_| bad())?;
    let frac: i32 = match frac.len() {
        0 => 0,
        1 => frac.parse::<i32>().map_err(|_| bad())? * 10,
        _ => frac.parse().map_err(|_| bad())?,
    };
    let v = whole * 100 + frac;
    Ok(if neg { -v } else { v })
}

/// Which of the matching games to list: at most `limit`, after skipping `offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Page {
    /// At most this many games.
    pub limit: usize,
    /// Skip this many matching games first.
    pub offset: usize,
}

impl Page {
    /// The first `limit` games.
    pub const fn first(limit: usize) -> Page {
        Page { limit, offset: 0 }
    }
}

impl Default for Page {
    /// The first 100 games.
    fn default() -> Page {
        Page::first(100)
    }
}

/// Whether a date (`yyyymmdd`, 0 when unknown) passes the month bounds (`yyyymm`): the
/// months the game may be of are its month, or its whole year when the month is unknown.
fn within_months(date: u32, from: Option<u32>, to: Option<u32>) -> bool {
    if from.is_none() && to.is_none() {
        return true;
    }
    let (year, month) = (date / 10_000, date / 100 % 100);
    if year == 0 {
        return false;
    }
    let (first, last) = match month {
        1..=12 => (year * 100 + month, year * 100 + month),
        _ => (year * 100 + 1, year * 100 + 12),
    };
    !(from.is_some_and(|f| first < f) || to.is_some_and(|t| last > t))
}

impl GameFilter {
    /// Whether the filter keeps every game.
    pub fn keeps_all(&self) -> bool {
        *self == GameFilter::default()
    }

    /// Whether a game passes the filter.
    pub fn accepts(&self, g: &Game<'_>) -> bool {
        if self.year_from.is_some() || self.year_to.is_some() {
            let Some(y) = g.year() else { return false };
            if self.year_from.is_some_and(|f| y < f) || self.year_to.is_some_and(|t| y > t) {
                return false;
            }
        }
        if let Some(p) = &self.player {
            let p = p.to_lowercase();
            if !g.black.to_lowercase().contains(&p) && !g.white.to_lowercase().contains(&p) {
                return false;
            }
        }
        if self.handicap.is_some_and(|h| h != g.handicap) {
            return false;
        }
        if self.winner.is_some() && self.winner != g.winner {
            return false;
        }
        if self.komi.is_some() && self.komi != g.komi {
            return false;
        }
        if self
            .rules
            .as_deref()
            .is_some_and(|r| !contains_ignoring_case(g.rules, r))
        {
            return false;
        }
        if self
            .event
            .as_deref()
            .is_some_and(|e| !contains_ignoring_case(g.event, e))
        {
            return false;
        }
        if !within_months(g.date_key, self.month_from, self.month_to) {
            return false;
        }
        if !self.ranks.is_open() {
            let ranks = GameRanks::of(g);
            let kept = match self.rank_of {
                None => self.ranks.accepts(&ranks),
                Some(c) => self.ranks.contains(ranks.of_color(c)),
            };
            if !kept {
                return false;
            }
        }
        true
    }

    /// The next moves of `board` (in any orientation; with `swap`, the colour-swapped
    /// position's too, colours exchanged back), counting only the games the filter
    /// accepts: from the index's precomputed statistics when it keeps every game, else
    /// tallied over the game columns (reading the occurrences `hot` keeps, if given).
    pub fn next_moves(
        &self,
        index: &Index<'_>,
        columns: &GameColumns<'_>,
        board: &Board,
        swap: bool,
        hot: Option<&Arc<Hot>>,
    ) -> Result<NextMoves, SearchError> {
        if self.keeps_all() {
            index.next_moves(board, swap)
        } else {
            let selection = Selection::of(self, columns, hot);
            Tallies::count_kept(index, board, swap, &selection).next_moves(index, board, swap, &[0])
        }
    }
}

/// The orders a game list can be sorted in (`sort=`; a leading `-` reverses).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
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
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
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

/// The result as a short text (`B+R`, `W+6.5`...), from the parsed result when it is
/// understood, else as written ([`ShortResult`]).
pub fn result_text(g: &Game<'_>) -> String {
    ShortResult {
        winner: g.winner,
        margin: g.margin,
        raw: g.result,
    }
    .to_string()
}

/// One game of a list: where the position (or, `swapped`, its colour-exchanged twin)
/// occurred first in it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The occurrence: the game, the move number, the orientation.
    pub occurrence: Occurrence,
    /// Whether it is the colour-exchanged position that occurred.
    pub swapped: bool,
}

/// A page of the matching games (one entry per game: its first occurrence), and how many
/// games match in all.
pub struct GameList {
    /// The page of games.
    pub games: Vec<Listed>,
    /// Matching games in all.
    pub matching: usize,
}

/// Lists the games that reached `board` (in any orientation; with `swap`, those that
/// reached the colour-exchanged position too) and pass `filter`, one entry per game, in
/// the `sort` order, the `page` of them (reading the occurrences `hot` keeps, if given).
#[allow(clippy::too_many_arguments)]
pub fn list(
    index: &Index<'_>,
    columns: &GameColumns<'_>,
    board: &Board,
    swap: bool,
    filter: &GameFilter,
    sort: Sort,
    page: Page,
    hot: Option<&Arc<Hot>>,
) -> GameList {
    let selection = Selection::of(filter, columns, hot);
    if sort.key == SortKey::Newest && !swap {
        if let Some(l) = newest_page(index, &selection, board, sort.descending, page) {
            return l;
        }
    }
    if let (Some(column), false) = (sort_column(sort.key), swap) {
        if let Some(l) = column_page_of_kept(index, &selection, board, column, sort, page) {
            return l;
        }
    }
    let all = matching(index, &selection, board, swap);
    GameList {
        matching: all.len(),
        games: sorted_page(columns, &all, sort, page),
    }
}

/// The kept position of `board` if its occurrences are in game order
/// ([`HotPosition::ordered`]), with the mask of `selection`'s games for a walk of them
/// ([`Selection::mask_for`]; none: [`Selection::keeps`] tests each game).
fn ordered_kept(
    index: &Index<'_>,
    selection: &Selection<'_>,
    board: &Board,
) -> Option<(
    std::sync::Arc<HotPosition>,
    Option<std::sync::Arc<GameMask>>,
)> {
    let found = index.find(board)?;
    let h = selection.hot()?.get(index, &found)?;
    if !h.ordered {
        return None;
    }
    let mask = selection.mask_for(h.len());
    Some((h, mask))
}

/// The list of [`list`] sorted by a column, read off a kept position whose occurrences
/// are in game order ([`HotPosition::ordered`]) and that holds a large share of the games
/// (as [`sorted_page`] walks the column's order): the kept games marked in a bitset from
/// the occurrences and the page's found by a binary search of them, without making the
/// list. `None` when the position is not kept so or holds few games.
fn column_page_of_kept(
    index: &Index<'_>,
    selection: &Selection<'_>,
    board: &Board,
    column: SortColumn,
    sort: Sort,
    page: Page,
) -> Option<GameList> {
    let (h, mask) = ordered_kept(index, selection, board)?;
    let columns = selection.columns();
    let games = columns.len() as usize;
    let keeps = |game: u32| selection.keeps_by(mask.as_deref(), game);
    // The kept games, one bit each; the occurrences of a game set the same bit.
    let mut held = vec![0u64; games.div_ceil(64)];
    for o in &h.occurrences {
        if let Some(w) = held.get_mut(o.game as usize / 64) {
            let bit = 1u64 << (o.game % 64);
            if *w & bit == 0 && keeps(o.game) {
                *w |= bit;
            }
        }
    }
    let n: usize = held.iter().map(|w| w.count_ones() as usize).sum();
    if n.saturating_mul(16) < games {
        return None;
    }
    // A game's first occurrence: the first of its (consecutive) occurrences.
    let first = |id: u64| {
        let i = h.occurrences.partition_point(|o| (o.game as u64) < id);
        h.occurrences
            .get(i)
            .filter(|o| o.game as u64 == id)
            .map(|&occurrence| Listed {
                occurrence,
                swapped: false,
            })
    };
    Some(GameList {
        games: column_page(columns, column, &held, n, sort.descending, page, first),
        matching: n,
    })
}

/// The list of [`list`] in the index's order (reversed with `descending`), read off a
/// kept position whose occurrences are in game order ([`HotPosition::ordered`]): the kept
/// games counted and the page's taken, without making the list (at the empty board of a
/// million games, 591,000 entries). `None` when the position is not kept so.
fn newest_page(
    index: &Index<'_>,
    selection: &Selection<'_>,
    board: &Board,
    descending: bool,
    page: Page,
) -> Option<GameList> {
    let (h, mask) = ordered_kept(index, selection, board)?;
    let keeps = |i: usize| {
        h.first(i)
            && h.occurrences
                .get(i)
                .is_some_and(|o| selection.keeps_by(mask.as_deref(), o.game))
    };
    let n = h.len();
    let matching = if selection.keeps_all() && h.firsts {
        n
    } else {
        pieces::pieces(0..n)
            .into_par_iter()
            .map(|piece| piece.filter(|&i| keeps(i)).count())
            .sum()
    };
    let listed = |i: usize| {
        h.occurrences.get(i).map(|&occurrence| Listed {
            occurrence,
            swapped: false,
        })
    };
    let games = if descending {
        let kept = (0..n).rev().filter(|&i| keeps(i));
        kept.skip(page.offset)
            .take(page.limit)
            .filter_map(listed)
            .collect()
    } else {
        let kept = (0..n).filter(|&i| keeps(i));
        kept.skip(page.offset)
            .take(page.limit)
            .filter_map(listed)
            .collect()
    };
    Some(GameList { games, matching })
}

/// Every game that reached the position (see [`list`]) and that `selection` keeps, each
/// once, in the index's order (newest first).
pub fn matching(
    index: &Index<'_>,
    selection: &Selection<'_>,
    board: &Board,
    swap: bool,
) -> Vec<Listed> {
    if !swap {
        // A kept position whose occurrences are in game order: its games' first
        // occurrences, filtered in parallel (in order).
        if let Some((h, mask)) = ordered_kept(index, selection, board) {
            let keeps = |game: u32| selection.keeps_by(mask.as_deref(), game);
            // In pieces on all cores, concatenated in order.
            let parts: Vec<Vec<Listed>> = pieces::pieces(0..h.len())
                .into_par_iter()
                .map(|piece| {
                    let mut part = Vec::with_capacity(piece.len());
                    for i in piece {
                        match h.occurrences.get(i) {
                            Some(&occurrence) if h.first(i) && keeps(occurrence.game) => {
                                part.push(Listed {
                                    occurrence,
                                    swapped: false,
                                })
                            }
                            _ => {}
                        }
                    }
                    part
                })
                .collect();
            return parts.concat();
        }
    }
    let mut list: Vec<Listed> = Vec::new();
    let mut add = |b: &Board, swapped: bool| {
        if let Some(found) = index.find(b) {
            if let Some(h) = selection.hot().and_then(|h| h.get(index, &found)) {
                list.extend(h.occurrences.iter().map(|&occurrence| Listed {
                    occurrence,
                    swapped,
                }));
                return;
            }
            // In pieces on all cores, concatenated in order.
            let parts: Vec<Vec<Listed>> = pieces::pieces(found.start..found.end)
                .into_par_iter()
                .map(|piece| {
                    let mut part = Vec::with_capacity(piece.len());
                    index.for_each_occurrence_in(piece, |occurrence, _| {
                        part.push(Listed {
                            occurrence,
                            swapped,
                        })
                    });
                    part
                })
                .collect();
            list.reserve(found.count());
            for p in parts {
                list.extend(p);
            }
        }
    };
    add(board, false);
    if swap {
        add(&swapped_board(board), true);
    }
    // Each game once, where the position occurs first in it (already in this order but for
    // the colour-exchanged part, so the sort costs little).
    list.sort_by_key(|l| (l.occurrence.game, l.occurrence.move_number, l.swapped));
    list.dedup_by_key(|l| l.occurrence.game);
    if !selection.keeps_all() {
        let mask = selection.mask_for(list.len());
        let kept: Vec<bool> = list
            .par_iter()
            .map(|l| match &mask {
                Some(m) => m.has(l.occurrence.game),
                None => selection.keeps(l.occurrence.game),
            })
            .collect();
        let mut keep = kept.into_iter();
        list.retain(|_| keep.next().unwrap_or(false));
    }
    list
}

/// The column whose precomputed order a sort key follows.
fn sort_column(key: SortKey) -> Option<SortColumn> {
    match key {
        SortKey::Date => Some(SortColumn::Date),
        SortKey::Black => Some(SortColumn::Black),
        SortKey::White => Some(SortColumn::White),
        SortKey::Result => Some(SortColumn::Result),
        SortKey::Event => Some(SortColumn::Event),
        SortKey::Newest | SortKey::Move => None,
    }
}

/// The `page` of `list` (in the index's order) sorted by `sort`: stably, so equal keys keep
/// the newest game first, ascending or descending. A sort by a column reads the column's
/// precomputed order when the list holds a large share of the games (the page then costs
/// a walk of the order up to it), else sorts the list by the column's keys.
fn sorted_page(columns: &GameColumns<'_>, list: &[Listed], sort: Sort, page: Page) -> Vec<Listed> {
    let take = |it: &mut dyn Iterator<Item = Listed>| -> Vec<Listed> {
        it.skip(page.offset).take(page.limit).collect()
    };
    let Some(column) = sort_column(sort.key) else {
        return match (sort.key, sort.descending) {
            (SortKey::Move, descending) => match page_by_move(list, descending, page) {
                Some(v) => v,
                None => {
                    let mut v = list.to_vec();
                    if descending {
                        v.sort_by_key(|l| std::cmp::Reverse(l.occurrence.move_number));
                    } else {
                        v.sort_by_key(|l| l.occurrence.move_number);
                    }
                    take(&mut v.into_iter())
                }
            },
            (_, false) => take(&mut list.iter().copied()),
            (_, true) => take(&mut list.iter().rev().copied()),
        };
    };
    let games = columns.len() as usize;
    if list.len().saturating_mul(16) < games {
        let key = |l: &Listed| columns.key(column, l.occurrence.game);
        let mut v: Vec<(u64, Listed)> = list.iter().map(|l| (key(l), *l)).collect();
        if sort.descending {
            v.sort_unstable_by(|a, b| {
                b.0.cmp(&a.0)
                    .then(a.1.occurrence.game.cmp(&b.1.occurrence.game))
            });
        } else {
            v.sort_unstable_by_key(|(k, l)| (*k, l.occurrence.game));
        }
        return take(&mut v.into_iter().map(|(_, l)| l));
    }
    // Which games the list holds, one bit each (small enough to stay in cache while the
    // order is walked); the list is in game order, so a game of the page is found in it
    // by a binary search.
    let mut held = vec![0u64; games.div_ceil(64)];
    for l in list {
        if let Some(w) = held.get_mut(l.occurrence.game as usize / 64) {
            *w |= 1 << (l.occurrence.game % 64);
        }
    }
    let of = |id: u64| {
        list.binary_search_by_key(&id, |l| l.occurrence.game as u64)
            .ok()
            .and_then(|i| list.get(i).copied())
    };
    column_page(
        columns,
        column,
        &held,
        list.len(),
        sort.descending,
        page,
        of,
    )
}

/// The `page` of the `n` games `held` marks (one bit a game) in the order of `column`
/// (reversed with `descending`, the games of one key newest first either way), each given
/// by `of`: the column's precomputed order walked up to the page, from its start or, for a
/// page in the second half, from its end.
fn column_page(
    columns: &GameColumns<'_>,
    column: SortColumn,
    held: &[u64],
    n: usize,
    descending: bool,
    page: Page,
    of: impl Fn(u64) -> Option<Listed>,
) -> Vec<Listed> {
    let order = columns.order(column);
    let last = page.offset.saturating_add(page.limit).min(n);
    if page.offset >= last {
        return Vec::new();
    }
    // A page in the second half of the list is read walking the sorted list from its end
    // (the order walked the other way), skipping the games after it, and turned around.
    let from_end = page.offset > n / 2;
    let skip = if from_end { n - last } else { page.offset };
    let wanted = last - page.offset;
    let mut out = Vec::with_capacity(wanted);
    let mut seen = 0usize;
    let mut emit = |id: u64| -> bool {
        let has = held
            .get(id as usize / 64)
            .is_some_and(|w| (w >> (id % 64)) & 1 == 1);
        if has {
            if seen >= skip {
                if let Some(l) = of(id) {
                    out.push(l);
                }
            }
            seen += 1;
        }
        seen < skip + wanted
    };
    match (descending, from_end) {
        (false, false) => {
            for i in 0..order.len() {
                if !emit(order.at(i)) {
                    break;
                }
            }
        }
        (false, true) => {
            for i in (0..order.len()).rev() {
                if !emit(order.at(i)) {
                    break;
                }
            }
        }
        (true, false) => {
            // Keys from the largest down, the games of one key newest first: each run of
            // equal keys, from the end, read forward.
            let mut end = order.len();
            'runs: while end > 0 {
                let k = columns.key(column, order.at(end - 1) as u32);
                let mut start = end - 1;
                while start > 0 && columns.key(column, order.at(start - 1) as u32) == k {
                    start -= 1;
                }
                for i in start..end {
                    if !emit(order.at(i)) {
                        break 'runs;
                    }
                }
                end = start;
            }
        }
        (true, true) => {
            // That list from its end: keys from the smallest up, each run of equal keys
            // read backward.
            let mut start = 0;
            'back: while start < order.len() {
                let k = columns.key(column, order.at(start) as u32);
                let mut end = start + 1;
                while end < order.len() && columns.key(column, order.at(end) as u32) == k {
                    end += 1;
                }
                for i in (start..end).rev() {
                    if !emit(order.at(i)) {
                        break 'back;
                    }
                }
                start = end;
            }
        }
    }
    if from_end {
        out.reverse();
    }
    out
}

/// The `page` of `list` sorted by move number, stably (equal move numbers in the list's
/// order), ascending or descending, by counting: the games of each move number counted,
/// then each game's place in the sorted list is the games of the move numbers before its
/// own plus those of its own before it, and the page's games are put in their places in
/// one pass. `None` when a move number is too large to count by (the list is then sorted).
fn page_by_move(list: &[Listed], descending: bool, page: Page) -> Option<Vec<Listed>> {
    let max = list
        .iter()
        .map(|l| l.occurrence.move_number)
        .max()
        .unwrap_or(0) as usize;
    if max >= 1 << 16 {
        return None;
    }
    let mut place = vec![0usize; max + 1];
    for l in list {
        if let Some(c) = place.get_mut(l.occurrence.move_number as usize) {
            *c += 1;
        }
    }
    // Each move number's first place: the counts of those before it, in the sort's order.
    let mut before = 0usize;
    let mut first = |c: &mut usize| {
        let n = *c;
        *c = before;
        before += n;
    };
    if descending {
        place.iter_mut().rev().for_each(&mut first);
    } else {
        place.iter_mut().for_each(&mut first);
    }
    let last = page.offset.saturating_add(page.limit).min(list.len());
    let mut out: Vec<Option<Listed>> = vec![None; last.saturating_sub(page.offset)];
    for l in list {
        if let Some(p) = place.get_mut(l.occurrence.move_number as usize) {
            if let Some(slot) = p.checked_sub(page.offset).and_then(|i| out.get_mut(i)) {
                *slot = Some(*l);
            }
            *p += 1;
        }
    }
    Some(out.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::rank::RankRange;
    use kifudex_core::notation::parse_moves;
    use kifudex_core::Size;

    fn board(moves: &str) -> Board {
        let mut b = Board::new(Size::STANDARD);
        let mut color = Color::Black;
        for mv in parse_moves(moves, Size::STANDARD) {
            b.play(color, mv.unwrap()).unwrap();
            color = color.opponent();
        }
        b
    }

    fn ids(list: &GameList) -> Vec<u32> {
        list.games.iter().map(|l| l.occurrence.game).collect()
    }

    /// Months and komi as users write them; malformed values refused.
    #[test]
    fn months_and_komi_are_read() {
        assert_eq!(parse_month("2019-03", false), Ok(201903));
        assert_eq!(parse_month("2019/3", true), Ok(201903));
        assert_eq!(parse_month("201911", false), Ok(201911));
        assert_eq!(parse_month("2019", false), Ok(201901));
        assert_eq!(parse_month("2019", true), Ok(201912));
        for bad in ["2019-13", "2019-00", "19-03", "", "march", "2019-03-01"] {
            assert!(parse_month(bad, false).is_err(), "{bad}");
        }
        assert_eq!(parse_komi("6.5"), Ok(650));
        assert_eq!(parse_komi("7"), Ok(700));
        assert_eq!(parse_komi("-3.25"), Ok(-325));
        assert_eq!(parse_komi("0"), Ok(0));
        for bad in ["", "6.555", "x", "6,5", "-", "99999"] {
            assert!(parse_komi(bad).is_err(), "{bad}");
        }
        assert!(contains_ignoring_case("Japanese", "japan"));
        assert!(contains_ignoring_case("第4届Mlily梦百合杯", "mlily"));
        assert!(!contains_ignoring_case("Chinese", "japanese"));
    }

    /// With the colour swap, the list is the union of the two positions' lists, each game
    /// once; filters, sorting and paging apply to the union.
    #[test]
    fn the_swapped_list_is_the_union_of_both_lists() {
        let bytes = crate::sample::sample_index().unwrap();
        let file = kifudex_core::index_file::IndexFile::open(&bytes).unwrap();
        let (index, columns) = (&file.index, &file.columns);
        let all = Page::first(usize::MAX);
        let every = GameFilter::default();
        let mut checked = 0;
        for moves in ["pd", "pd,dp", "pd,dc", "qd,dp", "pd,dd,pp", "qd,dd,pp"] {
            let b = board(moves);
            let plain = list(
                index,
                columns,
                &b,
                false,
                &every,
                Sort::default(),
                all,
                None,
            );
            let swapped = list(
                index,
                columns,
                &swapped_board(&b),
                false,
                &every,
                Sort::default(),
                all,
                None,
            );
            let both = list(index, columns, &b, true, &every, Sort::default(), all, None);
            let union: BTreeSet<u32> = ids(&plain).into_iter().chain(ids(&swapped)).collect();
            assert_eq!(
                ids(&both),
                union.iter().copied().collect::<Vec<_>>(),
                "{moves}"
            );
            assert_eq!(both.matching, union.len());
            for l in &both.games {
                let in_plain = plain
                    .games
                    .iter()
                    .find(|p| p.occurrence.game == l.occurrence.game);
                let in_swapped = swapped
                    .games
                    .iter()
                    .find(|p| p.occurrence.game == l.occurrence.game);
                let first = match (in_plain, in_swapped) {
                    (Some(p), Some(s)) if s.occurrence.move_number < p.occurrence.move_number => {
                        (s.occurrence, true)
                    }
                    (Some(p), _) => (p.occurrence, false),
                    (None, Some(s)) => (s.occurrence, true),
                    (None, None) => unreachable!(),
                };
                assert_eq!((l.occurrence, l.swapped), first, "{moves}");
            }
            checked += both.matching - plain.matching;
            // Filters and pages apply to the union.
            let even = GameFilter {
                handicap: Some(0),
                ..GameFilter::default()
            };
            let kept: Vec<u32> = ids(&both)
                .into_iter()
                .filter(|&id| even.accepts(&index.game(id).unwrap()))
                .collect();
            let page = list(
                index,
                columns,
                &b,
                true,
                &even,
                Sort::default(),
                Page {
                    limit: 3,
                    offset: 1,
                },
                None,
            );
            assert_eq!(page.matching, kept.len());
            assert_eq!(
                ids(&page),
                kept.iter().skip(1).take(3).copied().collect::<Vec<_>>()
            );
            let oldest = list(
                index,
                columns,
                &b,
                true,
                &even,
                Sort::parse("-newest").unwrap(),
                all,
                None,
            );
            assert_eq!(ids(&oldest), kept.iter().rev().copied().collect::<Vec<_>>());
        }
        assert!(
            checked > 0,
            "no game reached only the colour-swapped positions"
        );
    }

    /// The filters the equivalence tests try: each field alone and some combined.
    fn filters() -> Vec<GameFilter> {
        let r = |s: &str| Some(s.parse::<crate::rank::Rank>().unwrap());
        let f = GameFilter::default;
        vec![
            f(),
            GameFilter {
                year_from: Some(1990),
                ..f()
            },
            GameFilter {
                year_to: Some(1980),
                ..f()
            },
            GameFilter {
                year_from: Some(2000),
                year_to: Some(2005),
                ..f()
            },
            GameFilter {
                player: Some("a".into()),
                ..f()
            },
            GameFilter {
                player: Some("KOBAYASHI".into()),
                ..f()
            },
            GameFilter {
                player: Some("zzz-nobody".into()),
                ..f()
            },
            GameFilter {
                handicap: Some(0),
                ..f()
            },
            GameFilter {
                handicap: Some(2),
                ..f()
            },
            GameFilter {
                winner: Some(Color::Black),
                ..f()
            },
            GameFilter {
                winner: Some(Color::White),
                ..f()
            },
            GameFilter {
                ranks: RankRange {
                    min: r("5d"),
                    max: None,
                },
                ..f()
            },
            GameFilter {
                ranks: RankRange {
                    min: None,
                    max: r("8p"),
                },
                ..f()
            },
            GameFilter {
                ranks: RankRange {
                    min: r("1p"),
                    max: r("9p"),
                },
                rank_of: Some(Color::White),
                ..f()
            },
            GameFilter {
                komi: Some(550),
                ..f()
            },
            GameFilter {
                komi: Some(650),
                ..f()
            },
            GameFilter {
                komi: Some(12345),
                ..f()
            },
            GameFilter {
                rules: Some("JAP".into()),
                ..f()
            },
            GameFilter {
                event: Some("e".into()),
                ..f()
            },
            GameFilter {
                event: Some("Cup".into()),
                ..f()
            },
            GameFilter {
                month_from: Some(199003),
                ..f()
            },
            GameFilter {
                month_to: Some(198506),
                ..f()
            },
            GameFilter {
                month_from: Some(197001),
                month_to: Some(200012),
                ..f()
            },
            GameFilter {
                winner: Some(Color::White),
                handicap: Some(0),
                year_from: Some(1970),
                player: Some("o".into()),
                ..f()
            },
            GameFilter {
                ranks: RankRange {
                    min: r("3d"),
                    max: r("9d"),
                },
                rank_of: Some(Color::Black),
                winner: Some(Color::Black),
                ..f()
            },
            GameFilter {
                event: Some("e".into()),
                player: Some("a".into()),
                komi: Some(650),
                ..f()
            },
            GameFilter {
                rules: Some("JAP".into()),
                ranks: RankRange {
                    min: r("1d"),
                    max: None,
                },
                month_from: Some(199001),
                ..f()
            },
        ]
    }

    /// The sort keys as the list compared them before the columns: texts without case,
    /// empty last; unknown dates last (the second computation the columns are checked
    /// against).
    fn reference_sort(index: &Index<'_>, list: &[Listed], sort: Sort) -> Vec<Listed> {
        #[derive(PartialEq, Eq, PartialOrd, Ord)]
        enum Key {
            Number(u64),
            Text(bool, String),
        }
        let key = |l: &Listed| {
            let g = index.game(l.occurrence.game).unwrap();
            let text = |s: &str| Key::Text(s.is_empty(), s.to_lowercase());
            match sort.key {
                SortKey::Newest => Key::Number(g.id as u64),
                SortKey::Date => Key::Number(if g.date_key == 0 {
                    u64::MAX
                } else {
                    g.date_key as u64
                }),
                SortKey::Black => text(g.black),
                SortKey::White => text(g.white),
                SortKey::Result => text(&result_text(&g)),
                SortKey::Event => text(g.event),
                SortKey::Move => Key::Number(l.occurrence.move_number as u64),
            }
        };
        let mut v: Vec<(Key, Listed)> = list.iter().map(|l| (key(l), *l)).collect();
        if sort.key == SortKey::Newest {
            if sort.descending {
                v.reverse();
            }
        } else {
            v.sort_by(|a, b| {
                let o = a.0.cmp(&b.0);
                if sort.descending {
                    o.reverse()
                } else {
                    o
                }
            });
        }
        v.into_iter().map(|(_, l)| l).collect()
    }

    /// Every filter keeps exactly the games `accepts` keeps from their rows; every sort,
    /// page and filtered next-move count equals the row-based computation; on positions
    /// reached by every game (the empty board: the columns' orders walked) and by few
    /// (sorted by keys).
    #[test]
    fn the_columns_answer_as_the_rows() {
        answers_as_the_rows(None);
    }

    /// The same with the positions' occurrences read from those [`Hot`] keeps: every
    /// position kept, and only some (the bound reached: the others walked).
    #[test]
    fn the_kept_occurrences_answer_as_the_rows() {
        let every = Arc::new(Hot::new(1, usize::MAX));
        answers_as_the_rows(Some(&every));
        assert!(every.held() > 600, "{}", every.held());
        // Every filter's walks read its mask (but the one that keeps every game: none).
        assert_eq!(every.masks().len(), (filters().len() - 1).min(MASKS));
        let some = Arc::new(Hot::new(2, 300));
        answers_as_the_rows(Some(&some));
        assert!(some.held() > 0 && some.held() <= 300, "{}", some.held());
    }

    /// A filter's mask keeps exactly the games `accepts` keeps from their rows: made from
    /// the columns, and from the dates and facts a hot cache keeps unpacked.
    #[test]
    fn a_mask_keeps_the_games_of_the_rows() {
        let bytes = crate::sample::sample_index().unwrap();
        let file = kifudex_core::index_file::IndexFile::open_verified(&bytes).unwrap();
        let (index, columns) = (&file.index, &file.columns);
        let hot = Arc::new(Hot::default());
        for (filter, hot) in filters()
            .into_iter()
            .flat_map(|f| [(f.clone(), None), (f, Some(&hot))])
        {
            let mask = Selection::of(&filter, columns, hot).mask();
            let mut kept = 0;
            for id in 0..index.game_count() {
                let accepted = filter.accepts(&index.game(id).unwrap());
                assert_eq!(mask.has(id), accepted, "{filter:?} game {id}");
                let row = index.game(id).unwrap();
                let winner = if accepted { row.winner } else { None };
                assert_eq!(mask.winner(id), winner, "{filter:?} game {id}");
                kept += accepted as usize;
            }
            assert_eq!(mask.count(), kept, "{filter:?}");
            assert!(!mask.has(index.game_count()) && !mask.has(u32::MAX));
        }
        assert_eq!(hot.unpacked(columns).len(), index.game_count() as usize);
    }

    /// The names a text matches are those whose lowercase name contains the lowercase
    /// text (a second computation: the game rows' names), kept per field and text, the
    /// most recently used within the capacity; a selection compiled with a hot cache reads
    /// them from it and keeps the games of the rows.
    #[test]
    fn matches_are_kept_per_text() {
        let bytes = crate::sample::sample_index().unwrap();
        let file = kifudex_core::index_file::IndexFile::open_verified(&bytes).unwrap();
        let (index, columns) = (&file.index, &file.columns);
        let matches = Matches::new(2);
        let players = columns.players();
        for text in ["a", "KOBAYASHI", "zzz-nobody", "a"] {
            let m = matches.get(Field::Players, text, players);
            assert_eq!(m.len(), players.len() as usize);
            // Every game's players, from its row: matched exactly when the name contains
            // the text, without case.
            for id in 0..index.game_count() {
                let g = index.game(id).unwrap();
                for (name, pid) in [(g.black, columns.black(id)), (g.white, columns.white(id))] {
                    let want = name.to_lowercase().contains(&text.to_lowercase());
                    assert_eq!(m[pid as usize], want, "{text:?} {name:?}");
                }
            }
        }
        // "a" asked again: read, not matched again; the least recently used dropped.
        assert_eq!(matches.len(), 2);
        let a = matches.get(Field::Players, "a", players);
        assert!(Arc::ptr_eq(&a, &matches.get(Field::Players, "a", players)));
        // The same text in another field is another match.
        let e = matches.get(Field::Events, "a", columns.events());
        assert_eq!(e.len(), columns.events().len() as usize);
        assert!(Matches::new(0).get(Field::Players, "a", players).len() == a.len());
        let hot = Arc::new(Hot::default());
        for filter in filters() {
            let s = Selection::of(&filter, columns, Some(&hot));
            for id in 0..index.game_count() {
                let accepted = filter.accepts(&index.game(id).unwrap());
                assert_eq!(s.keeps(id), accepted, "{filter:?} game {id}");
            }
        }
        assert!(hot.matches().len() >= 5, "{}", hot.matches().len());
    }

    /// A page by move number is the page of the list stably sorted by move number (a
    /// second computation: the standard library's stable sort), ascending and descending,
    /// at offsets in the first half, the second half and past the end.
    #[test]
    fn pages_by_move_number_are_those_of_a_stable_sort() {
        let at = |game: u32, move_number: u32| Listed {
            occurrence: Occurrence {
                game,
                move_number,
                orientation: kifudex_core::transform::Transform::IDENTITY,
            },
            swapped: game.is_multiple_of(3),
        };
        let list: Vec<Listed> = (0..500u32).map(|g| at(g, (g * 7919 + 13) % 23)).collect();
        for descending in [false, true] {
            let mut sorted = list.clone();
            if descending {
                sorted.sort_by_key(|l| std::cmp::Reverse(l.occurrence.move_number));
            } else {
                sorted.sort_by_key(|l| l.occurrence.move_number);
            }
            for (offset, limit) in [(0, 10), (0, 500), (37, 50), (480, 50), (499, 1), (500, 5)] {
                let page = Page { limit, offset };
                let want: Vec<Listed> = sorted.iter().skip(offset).take(limit).copied().collect();
                let got = page_by_move(&list, descending, page).unwrap();
                assert_eq!(got, want, "{descending} {page:?}");
            }
        }
        // A move number too large to count by: the list is sorted instead.
        assert!(page_by_move(&[at(0, 1 << 16)], false, Page::first(1)).is_none());
    }

    /// The masks kept are the most recently used, within the capacity; a mask is made
    /// only when asked to, and read when kept.
    #[test]
    fn masks_keep_the_most_recently_used() {
        let bytes = crate::sample::sample_index().unwrap();
        let file = kifudex_core::index_file::IndexFile::open(&bytes).unwrap();
        let columns = &file.columns;
        let fs = filters();
        let s: Vec<Selection<'_>> = fs[..3].iter().map(|f| Selection::new(f, columns)).collect();
        let masks = Masks::new(2);
        assert!(masks.get(s[0].filter(), false, || s[0].mask()).is_none() && masks.is_empty());
        let m0 = masks.get(s[0].filter(), true, || s[0].mask()).unwrap();
        masks.get(s[1].filter(), true, || s[1].mask()).unwrap();
        // Read, not made again: the same mask; s[0] is now the most recent.
        assert!(Arc::ptr_eq(
            &masks.get(s[0].filter(), false, || s[0].mask()).unwrap(),
            &m0
        ));
        masks.get(s[2].filter(), true, || s[2].mask()).unwrap();
        assert_eq!(masks.len(), 2);
        assert!(masks.get(s[1].filter(), false, || s[1].mask()).is_none());
        assert!(Arc::ptr_eq(
            &masks.get(s[0].filter(), false, || s[0].mask()).unwrap(),
            &m0
        ));
        assert!(masks.get(s[2].filter(), false, || s[2].mask()).is_some());
        assert!(Masks::new(0)
            .get(s[0].filter(), true, || s[0].mask())
            .is_none());
    }

    /// Warming keeps every position of at least [`Hot::min`] occurrences (as many as a
    /// walk of the index's positions finds), most occurrences first within the bound; a
    /// question then walks none, and the answers are those of the rows.
    #[test]
    fn warming_keeps_what_first_questions_would() {
        let bytes = crate::sample::sample_index().unwrap();
        let file = kifudex_core::index_file::IndexFile::open_verified(&bytes).unwrap();
        let index = &file.index;
        // Every position's occurrence count, from the occurrence table's position starts.
        let table = index.occurrence_table();
        let mut counts: Vec<usize> = Vec::new();
        for i in 0..table.len() {
            if table.starts_position(i) {
                counts.push(0);
            }
            if let Some(c) = counts.last_mut() {
                *c += 1;
            }
        }
        let min = 8;
        let mut big: Vec<usize> = counts.iter().copied().filter(|&c| c >= min).collect();
        assert!(big.len() >= 20, "{}", big.len());
        let hot = Arc::new(Hot::new(min, usize::MAX));
        let w = hot.warm(index);
        assert_eq!(w.positions, big.len());
        assert_eq!(w.occurrences, big.iter().sum::<usize>());
        assert_eq!(hot.held(), w.occurrences);
        // Within a bound: the largest first, a smaller one where the next does not fit.
        big.sort_unstable_by(|a, b| b.cmp(a));
        let capacity = big[0] + big[1] + big[2] - 1;
        let bounded = Hot::new(min, capacity);
        let w = bounded.warm(index);
        let mut fit = 0;
        for &n in &big {
            if fit + n <= capacity {
                fit += n;
            }
        }
        assert_eq!(w.occurrences, fit);
        assert!(w.positions >= 2 && bounded.held() == fit, "{w:?}");
        // Questions read what warming kept: nothing more is walked.
        answers_as_the_rows(Some(&hot));
        assert_eq!(hot.held(), big.iter().sum::<usize>());
    }

    /// A game that reaches a kept position more than once (the empty board of a game that
    /// opens with two passes): the kept occurrences are then not one per game, and the
    /// lists take the games' first occurrences off them, as the walk, sorted and each game
    /// kept once, does.
    #[test]
    fn a_position_reached_twice_in_a_game_is_listed_once() {
        let mut sources = crate::sample::sample_sources().unwrap();
        sources.push(crate::input::Source {
            path: "passes.sgf".into(),
            member: None,
            bytes: b"(;GM[1]FF[4]SZ[19]RE[W+R];B[];W[];B[pd];W[dd];B[pp])\
                (;GM[1]FF[4]SZ[19]RE[B+R];B[];W[];B[];W[];B[qd];W[dd];B[pp])"
                .to_vec(),
        });
        let options = kifudex_builder::indexing::BuildOptions::default();
        let (bytes, _) =
            kifudex_builder::indexing::build_in_memory(sources, &[], &options).unwrap();
        let file = kifudex_core::index_file::IndexFile::open_verified(&bytes).unwrap();
        let index = &file.index;
        let hot = Arc::new(Hot::new(1, usize::MAX));
        let empty = hot.get(index, &index.find(&board("")).unwrap()).unwrap();
        assert!(empty.ordered && !empty.firsts);
        // Each pass leaves the board empty (the player to move is not part of a position).
        let repeated = (0..empty.len()).filter(|&i| !empty.first(i)).count();
        assert_eq!(repeated, 2 + 4);
        answers_as_the_rows_of(&bytes, Some(&hot));
    }

    /// [`the_columns_answer_as_the_rows`], reading the occurrences `hot` keeps.
    fn answers_as_the_rows(hot: Option<&Arc<Hot>>) {
        answers_as_the_rows_of(&crate::sample::sample_index().unwrap(), hot);
    }

    /// [`answers_as_the_rows`] on the index `bytes` (`hot` keeps that index's occurrences).
    fn answers_as_the_rows_of(bytes: &[u8], hot: Option<&Arc<Hot>>) {
        let file = kifudex_core::index_file::IndexFile::open_verified(bytes).unwrap();
        let (index, columns) = (&file.index, &file.columns);
        let mut kept_some = 0;
        for filter in filters() {
            let selection = Selection::new(&filter, columns);
            let mut kept = 0;
            for id in 0..index.game_count() {
                let g = index.game(id).unwrap();
                assert_eq!(
                    selection.keeps(id),
                    filter.accepts(&g),
                    "{filter:?} game {id}"
                );
                kept += filter.accepts(&g) as u32;
            }
            kept_some += (kept > 0 && kept < index.game_count()) as u32;
            for moves in ["", "pd", "pd,dd", "qd,dd,pp"] {
                let b = board(moves);
                for swap in [false, true] {
                    let want: NextMoves = index
                        .next_moves_where(&b, swap, |g| filter.accepts(g))
                        .unwrap();
                    let got = filter.next_moves(index, columns, &b, swap, hot).unwrap();
                    assert_eq!(got.classes(), want.classes(), "{filter:?} {moves}");
                    assert_eq!(got.total(), want.total());
                }
            }
        }
        assert!(kept_some >= 10, "{kept_some}");
        let every = Page::first(usize::MAX);
        let mut walked = 0;
        for moves in ["", "pd", "qd,dd,pp"] {
            let b = board(moves);
            for filter in [
                GameFilter::default(),
                GameFilter {
                    winner: Some(Color::Black),
                    ..GameFilter::default()
                },
            ] {
                for swap in [false, true] {
                    // The reference walks the index's occurrences.
                    let selection = Selection::new(&filter, columns);
                    let all = matching(index, &selection, &b, swap);
                    walked += (all.len() * 16 >= index.game_count() as usize) as u32;
                    for name in [
                        "newest", "date", "black", "white", "result", "event", "move",
                    ] {
                        for descending in [false, true] {
                            let sort = Sort::parse(&format!(
                                "{}{name}",
                                if descending { "-" } else { "" }
                            ))
                            .unwrap();
                            let want = reference_sort(index, &all, sort);
                            let got = list(index, columns, &b, swap, &filter, sort, every, hot);
                            assert_eq!(got.games, want, "{moves} {sort:?}");
                            for page in [
                                Page::first(3),
                                Page {
                                    limit: 5,
                                    offset: 7,
                                },
                                Page {
                                    limit: 10,
                                    offset: want.len().saturating_sub(4),
                                },
                            ] {
                                let got = list(index, columns, &b, swap, &filter, sort, page, hot);
                                let want: Vec<Listed> = want
                                    .iter()
                                    .skip(page.offset)
                                    .take(page.limit)
                                    .copied()
                                    .collect();
                                assert_eq!(got.games, want, "{moves} {sort:?} {page:?}");
                                assert_eq!(got.matching, all.len());
                            }
                        }
                    }
                }
            }
        }
        assert!(walked >= 2, "{walked}");
    }

    /// The sample has ties in every sort key (so the order among equal keys is tested).
    #[test]
    fn the_sample_has_ties_in_every_key() {
        let bytes = crate::sample::sample_index().unwrap();
        let file = kifudex_core::index_file::IndexFile::open(&bytes).unwrap();
        let c = &file.columns;
        for column in SortColumn::ALL {
            let keys: Vec<u64> = (0..c.len()).map(|id| c.key(column, id)).collect();
            let distinct: BTreeSet<u64> = keys.iter().copied().collect();
            assert!(distinct.len() < keys.len(), "{column:?}");
        }
    }
}
