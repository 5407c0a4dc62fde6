//! A [`GameFilter`] compiled over an index's game columns ([`Selection`]): the names it
//! looks for matched once against each dictionary (players, events, rules), its komi
//! turned into a komi id; then whether a game counts is a few reads of its columns,
//! exactly [`GameFilter::accepts`] of its row (a test compares them on every game).

use kifudex_core::columns::Facts;
use kifudex_core::columns::GameColumns;
use kifudex_core::Color;

use std::sync::Arc;

use super::hot::Hot;
use super::mask::GameMask;
use super::names::{matching_names, Field};
use super::unpacked::{bits, winner_code, Unpacked};
use super::{within_months, GameFilter};
use crate::rank::{Rank, RankRange};

/// Values `at..end` of a field (none where it is shorter).
#[inline]
fn part<T>(values: &[T], at: usize, end: usize) -> &[T] {
    values.get(at..end).unwrap_or(&[])
}

/// A filter ready to test games by id ([`Selection::keeps`]).
pub struct Selection<'a> {
    /// The filter compiled (the key of its mask).
    filter: GameFilter,
    columns: GameColumns<'a>,
    /// Every game passes.
    all: bool,
    year_from: Option<u16>,
    year_to: Option<u16>,
    month_from: Option<u32>,
    month_to: Option<u32>,
    /// By player id: the name contains the player filter's text.
    players: Option<Arc<Vec<bool>>>,
    handicap: Option<u8>,
    winner: Option<Color>,
    /// The komi id asked for (`Some(None)`: a komi no game has).
    komi: Option<Option<u32>>,
    rules: Option<Arc<Vec<bool>>>,
    events: Option<Arc<Vec<bool>>>,
    ranks: RankRange,
    rank_of: Option<Color>,
    /// By rank code (0-63, [`Rank::from_index`]): whether the rank lies within `ranks`.
    rank_in: [bool; 64],
    /// The hot positions' occurrences of the index, if kept.
    hot: Option<Arc<Hot>>,
}

impl<'a> Selection<'a> {
    /// Compiles `filter` over `columns`.
    pub fn new(filter: &GameFilter, columns: &GameColumns<'a>) -> Selection<'a> {
        Selection::of(filter, columns, None)
    }

    /// Compiles `filter` over `columns`, reading the occurrences and masks `hot` keeps (as
    /// [`Selection::with_hot`]) and the names its texts match from those it keeps
    /// ([`super::Hot::matches`]).
    pub fn of(
        filter: &GameFilter,
        columns: &GameColumns<'a>,
        hot: Option<&Arc<Hot>>,
    ) -> Selection<'a> {
        let komi = filter
            .komi
            .map(|k| (1..=columns.komi_count()).find(|&id| columns.komi_value(id) == Some(k)));
        let names = |field: Field, text: &Option<String>| {
            let d = match field {
                Field::Players => columns.players(),
                Field::Events => columns.events(),
                Field::Rules => columns.rules(),
            };
            text.as_deref().map(|t| match hot {
                Some(h) => h.matches().get(field, t, d),
                None => Arc::new(matching_names(d, t)),
            })
        };
        Selection {
            filter: filter.clone(),
            columns: *columns,
            all: filter.keeps_all(),
            year_from: filter.year_from,
            year_to: filter.year_to,
            month_from: filter.month_from,
            month_to: filter.month_to,
            players: names(Field::Players, &filter.player),
            handicap: filter.handicap,
            winner: filter.winner,
            komi,
            rules: names(Field::Rules, &filter.rules),
            events: names(Field::Events, &filter.event),
            ranks: filter.ranks,
            rank_of: filter.rank_of,
            rank_in: std::array::from_fn(|code| {
                filter.ranks.contains(Rank::from_index(code as u8))
            }),
            hot: hot.cloned(),
        }
    }

    /// Reads the occurrences of the positions `hot` keeps (of the same index) from it.
    pub fn with_hot(mut self, hot: Option<&Arc<Hot>>) -> Selection<'a> {
        self.hot = hot.cloned();
        self
    }

    /// The hot positions' occurrences it reads, if any.
    pub fn hot(&self) -> Option<&Hot> {
        self.hot.as_deref()
    }

    /// The same, shared.
    pub fn hot_arc(&self) -> Option<&Arc<Hot>> {
        self.hot.as_ref()
    }

    /// The filter it tests.
    pub fn filter(&self) -> &GameFilter {
        &self.filter
    }

    /// The mask of the games it keeps, for a walk of `occurrences` occurrences: the one the
    /// hot cache keeps for the same filter; else made now (and kept) when the walk has at
    /// least [`Hot::min`] occurrences (a mask tests every game once: it pays for walks of
    /// many); else `None` (also without a hot cache, and when every game passes).
    pub fn mask_for(&self, occurrences: usize) -> Option<std::sync::Arc<GameMask>> {
        let hot = self.hot.as_deref()?;
        if self.all {
            return None;
        }
        hot.masks()
            .get(&self.filter, occurrences >= hot.min(), || self.mask())
    }

    /// The mask of the games it keeps, made now (one test of each game): from the fields the
    /// hot cache keeps unpacked, if it reads one ([`Selection::mask_of`]); else from the
    /// columns, on all cores.
    pub fn mask(&self) -> GameMask {
        match self.hot.as_deref() {
            Some(hot) => self.mask_of(&hot.unpacked(&self.columns)),
            None => GameMask::of(self.columns.len(), |id| self.kept(id).map(|f| f.winner)),
        }
    }

    /// The mask of the games it keeps, from the unpacked fields `u` (of its columns' games),
    /// 64 games at a time: each test the filter makes is one loop over its field (`bits`;
    /// names by their ids, matched once), skipped once no game of the 64 is kept. In the
    /// calling thread: a mask at a million games is a millisecond or two of one core, and
    /// made on all cores, eight new filters at once took both cores from every other
    /// question.
    pub fn mask_of(&self, u: &Unpacked) -> GameMask {
        let n = u.len().min(self.columns.len() as usize);
        let dated = self.year_from.is_some()
            || self.year_to.is_some()
            || self.month_from.is_some()
            || self.month_to.is_some();
        let within = |code: u8| self.rank_in[code as usize & 63];
        GameMask::from_words((0..n.div_ceil(64)).map(|w| {
            let at = w * 64;
            let end = (at + 64).min(n);
            let winners = part(&u.winners, at, end);
            let black = bits(winners, |x| x == winner_code(Some(Color::Black)));
            let white = bits(winners, |x| x == winner_code(Some(Color::White)));
            let mut kept = if end - at == 64 {
                !0
            } else {
                (1u64 << (end - at)) - 1
            };
            if self.all {
                // Every game (not asked of a mask by the walks; kept exact all the same).
            } else {
                if dated && kept != 0 {
                    let dates = part(&u.dates, at, end);
                    kept &= bits(dates, |d| self.dates_keep(d));
                }
                if let Some(h) = self.handicap.filter(|_| kept != 0) {
                    kept &= bits(part(&u.handicaps, at, end), |x| x == h);
                }
                match self.winner {
                    Some(Color::Black) => kept &= black,
                    Some(Color::White) => kept &= white,
                    None => {}
                }
                match self.komi.filter(|_| kept != 0) {
                    Some(Some(k)) => kept &= bits(part(&u.komis, at, end), |x| x == k),
                    // A komi no game has.
                    Some(None) => kept = 0,
                    None => {}
                }
                if let Some(m) = self.rules.as_ref().filter(|_| kept != 0) {
                    let rules = part(&u.rules, at, end);
                    kept &= bits(rules, |r| m.get(r as usize).copied().unwrap_or(false));
                }
                if !self.ranks.is_open() && kept != 0 {
                    let black = part(&u.black_ranks, at, end);
                    let white = part(&u.white_ranks, at, end);
                    kept &= match self.rank_of {
                        None => bits(black, within) & bits(white, within),
                        Some(Color::Black) => bits(black, within),
                        Some(Color::White) => bits(white, within),
                    };
                }
                let named =
                    |m: &Arc<Vec<bool>>, id: u32| m.get(id as usize).copied().unwrap_or(false);
                if let Some(m) = self.events.as_ref().filter(|_| kept != 0) {
                    kept &= bits(part(&u.events, at, end), |e| named(m, e));
                }
                if let Some(m) = self.players.as_ref().filter(|_| kept != 0) {
                    kept &= bits(part(&u.blacks, at, end), |p| named(m, p))
                        | bits(part(&u.whites, at, end), |p| named(m, p));
                }
            }
            (kept, black, white)
        }))
    }

    /// Whether every game passes.
    pub fn keeps_all(&self) -> bool {
        self.all
    }

    /// The columns it reads.
    pub fn columns(&self) -> &GameColumns<'a> {
        &self.columns
    }

    /// Whether game `id` passes (as [`GameFilter::accepts`] its row).
    #[inline]
    pub fn keeps(&self, id: u32) -> bool {
        self.all || self.kept(id).is_some()
    }

    /// Whether game `id` passes, read from `mask` (its bit) when there is one
    /// ([`Selection::mask_for`]), else as [`Selection::keeps`].
    #[inline]
    pub fn keeps_by(&self, mask: Option<&GameMask>, id: u32) -> bool {
        match mask {
            Some(m) => m.has(id),
            None => self.keeps(id),
        }
    }

    /// Game `id`'s facts if it passes ([`Selection::keeps`]): what a loop that reads them
    /// next (its winner, its ranks) would decode again.
    #[inline]
    pub fn kept(&self, id: u32) -> Option<Facts> {
        let c = &self.columns;
        if self.all {
            return Some(c.facts(id));
        }
        self.passes(id, || c.date(id), || c.facts(id))
    }

    /// [`Selection::kept`] of game `id` whose date and facts are `date()` and `facts()`
    /// (read only if a test needs them).
    #[inline]
    fn passes(
        &self,
        id: u32,
        date: impl FnOnce() -> u32,
        facts: impl FnOnce() -> Facts,
    ) -> Option<Facts> {
        let c = &self.columns;
        let dated = self.year_from.is_some()
            || self.year_to.is_some()
            || self.month_from.is_some()
            || self.month_to.is_some();
        if dated && !self.dates_keep(date()) {
            return None;
        }
        let f: Facts = facts();
        if self.handicap.is_some_and(|h| h != f.handicap) {
            return None;
        }
        if self.winner.is_some() && self.winner != f.winner {
            return None;
        }
        if let Some(k) = self.komi {
            if k != Some(f.komi) {
                return None;
            }
        }
        if let Some(m) = &self.rules {
            if !m.get(f.rules as usize).copied().unwrap_or(false) {
                return None;
            }
        }
        if let Some(m) = &self.events {
            if !m.get(c.event(id) as usize).copied().unwrap_or(false) {
                return None;
            }
        }
        if let Some(m) = &self.players {
            let has = |p: u32| m.get(p as usize).copied().unwrap_or(false);
            if !has(c.black(id)) && !has(c.white(id)) {
                return None;
            }
        }
        if !self.ranks.is_open() {
            let within = |code: u8| self.rank_in[code as usize & 63];
            let kept = match self.rank_of {
                None => within(f.black_rank) && within(f.white_rank),
                Some(Color::Black) => within(f.black_rank),
                Some(Color::White) => within(f.white_rank),
            };
            if !kept {
                return None;
            }
        }
        Some(f)
    }

    /// Whether a date (`yyyymmdd`) passes the year and month bounds.
    fn dates_keep(&self, date: u32) -> bool {
        if self.year_from.is_some() || self.year_to.is_some() {
            let y = date / 10_000;
            if y == 0 {
                return false;
            }
            let y = y as u16;
            if self.year_from.is_some_and(|f| y < f) || self.year_to.is_some_and(|t| y > t) {
                return false;
            }
        }
        within_months(date, self.month_from, self.month_to)
    }
}
