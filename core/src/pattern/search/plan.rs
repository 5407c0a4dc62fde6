//! How a block of 64 games is narrowed down to the games and placements worth replaying,
//! prepared once per query ([`ScanPlan`]).
//!
//! - A pattern without stones can match anywhere: every allowed placement of every game
//!   ([`Strategy::All`]).
//! - With few placements (corner and side patterns), each placement is a **pair**
//!   (variant, placement) with the block words of its `X` and `O` cells, ANDed for 64
//!   games at once; for the games left, each pair is decided from the games' first stones
//!   ([`super::decide`]), and the few it leaves open are scanned ([`Strategy::Pairs`]).
//! - With many placements, each game's ever-black and ever-white points are shifted over
//!   all placements at once ([`Strategy::PerGame`]).
//! - A pattern of at most 3x3 cells with many placements (or without stones): every game,
//!   scanned with a code of each point's neighbourhood ([`Strategy::Local`]).

use crate::point::{Point, Stone};

use super::corner_key::CornerKey;
use super::decide::{QueryCells, VariantCells};
use super::hits::Candidates;
use super::local::{self, LocalTable};
use super::pair_tables::PairTables;
use crate::pattern::cells::Rect;
use crate::pattern::query::PatternQuery;

/// The most placements the pair strategy handles.
pub const MAX_PAIRS: usize = 128;

/// How the candidate placements of a block's games are found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// The pattern has no stone: every allowed placement of every game.
    All,
    /// Few placements: word ANDs per placement for 64 games at once, then first stones.
    Pairs,
    /// Many placements: each game's ever-black and ever-white points, shifted.
    PerGame,
    /// At most 3x3 cells: every game, scanned with local codes ([`super::local`]).
    Local,
}

/// One placement of one variant, with what the block filter reads for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The variant's index.
    pub variant: u8,
    /// The placement (top-left of the region on the board).
    pub placement: Point,
    /// Block words of the points under its `X` and `O` cells (ever black, ever white),
    /// at most [`MAX_WORDS`] of them: a game whose bit is clear in one of them cannot match.
    pub words: heapless::Vec<u16, MAX_WORDS>,
    /// Its region.
    pub region: Rect,
    /// Its variant's group (regions of different groups never coincide).
    pub group: u8,
    /// The next pair at the same placement whose variant the first stones rule out in the
    /// same games (the same cells need a stone, the same empty cells in the same order:
    /// the variant with colours exchanged), or [`NO_TWIN`]; `led` when an earlier pair
    /// leads its chain.
    pub twin: u8,
    /// Whether an earlier pair's chain holds this one.
    pub led: bool,
    /// What the pair asks of a corner box, when its region covers one without wildcards
    /// (the games whose box never holds that are left out at once).
    pub corner: Option<CornerKey>,
}

/// [`Pair::twin`] of a pair without a later twin.
pub const NO_TWIN: u8 = u8::MAX;

/// The most block words a pair ANDs (more stones make a filter no better in practice).
pub const MAX_WORDS: usize = 8;

/// A query prepared for scanning blocks.
#[derive(Clone, Debug)]
pub struct ScanPlan<'q> {
    pub(crate) query: &'q PatternQuery,
    pub(crate) strategy: Strategy,
    pub(crate) all: Candidates,
    pub(crate) pairs: heapless::Vec<Pair, MAX_PAIRS>,
    pub(crate) use_first_stones: bool,
    /// The pair strategy's tables, or the local strategy's (one plan uses one of them:
    /// a plan is copied when returned, and the larger it is, the more that costs).
    pub(crate) tables: PlanTables,
    /// Bit `vi`: the cells of variant `vi` are in the tables (pair strategy): not when
    /// every pair of the variant is a corner box's whole region, whose games the box
    /// decides (or leaves to a scan).
    pub(crate) with_cells: u16,
}

/// The per-point tables of a plan, by strategy (one at a time: a plan holds the largest,
/// with no heap to box it in).
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub(crate) enum PlanTables {
    /// No tables (the other strategies).
    None,
    /// The pairs by board point, and each variant's cells (pair strategy).
    Pairs(PairTables, QueryCells),
    /// The codes that match and the anchors allowed (local strategy).
    Local(LocalTable),
}

impl<'q> ScanPlan<'q> {
    /// Chooses the strategy for `query`.
    pub fn new(query: &'q PatternQuery) -> ScanPlan<'q> {
        ScanPlan::with(query, choose(query), true)
    }

    /// A plan with a given strategy, with or without the first stones (the pair
    /// strategy's decisions; tests compare them; the pair strategy falls back to per-game
    /// above [`MAX_PAIRS`] placements, the local one for a pattern past 3x3 cells).
    pub fn with(
        query: &'q PatternQuery,
        strategy: Strategy,
        use_first_stones: bool,
    ) -> ScanPlan<'q> {
        let mut plan = ScanPlan::blank(query, strategy, use_first_stones);
        plan.build();
        plan
    }

    /// [`ScanPlan::new`] built into `slot`, where the caller keeps it (a plan is large: one
    /// returned by value is copied).
    pub fn new_in<'s>(
        slot: &'s mut Option<ScanPlan<'q>>,
        query: &'q PatternQuery,
    ) -> &'s ScanPlan<'q> {
        ScanPlan::with_in(slot, query, choose(query), true)
    }

    /// [`ScanPlan::with`] built into `slot`, where the caller keeps it.
    pub fn with_in<'s>(
        slot: &'s mut Option<ScanPlan<'q>>,
        query: &'q PatternQuery,
        strategy: Strategy,
        use_first_stones: bool,
    ) -> &'s ScanPlan<'q> {
        let plan = slot.insert(ScanPlan::blank(query, strategy, use_first_stones));
        plan.build();
        plan
    }

    /// The plan's small fields, its tables not built.
    #[inline]
    fn blank(query: &'q PatternQuery, strategy: Strategy, use_first_stones: bool) -> Self {
        let strategy = match strategy {
            Strategy::Pairs if pair_count(query) > MAX_PAIRS => Strategy::PerGame,
            Strategy::Local if !local::fits(query) => Strategy::PerGame,
            s => s,
        };
        ScanPlan {
            query,
            strategy,
            all: Candidates::NONE,
            pairs: heapless::Vec::new(),
            use_first_stones,
            tables: PlanTables::None,
            with_cells: 0,
        }
    }

    /// Builds the plan's tables where it lies (the tables are large: built elsewhere and
    /// moved here, they would be copied).
    fn build(&mut self) {
        match self.strategy {
            // Only the plan without stones reads every placement (computing it costs more
            // than a corner search's blocks on a small collection).
            Strategy::All => self.all = Candidates::all(self.query),
            Strategy::Pairs => {
                self.tables = PlanTables::Pairs(PairTables::EMPTY, QueryCells::default());
                self.add_pairs();
            }
            Strategy::PerGame => {}
            Strategy::Local => {
                self.tables = PlanTables::Local(LocalTable::EMPTY);
                if let PlanTables::Local(t) = &mut self.tables {
                    t.fill(self.query);
                }
            }
        }
    }

    /// Adds a pair per placement of each variant, with its block words and its bits in the
    /// tables, and each variant's cells.
    fn add_pairs(&mut self) {
        let query = self.query;
        for (vi, v) in query.variants().iter().enumerate() {
            let mut boxed = true;
            for p in v.allowed.iter() {
                let region = v.region(p);
                let corner = CornerKey::of(&region, |q| {
                    let cell = Point::new(q.x.checked_sub(p.x)?, q.y.checked_sub(p.y)?);
                    // `X`, `O`, `.`; the cells that accept two contents are wildcards.
                    if v.need_black.contains(cell) {
                        Some(Stone::Black)
                    } else if v.need_white.contains(cell) {
                        Some(Stone::White)
                    } else if v.care_black.contains(cell) && v.care_white.contains(cell) {
                        Some(Stone::Empty)
                    } else {
                        None
                    }
                });
                let mut pair = Pair {
                    variant: vi as u8,
                    placement: p,
                    words: heapless::Vec::new(),
                    region,
                    group: v.group,
                    twin: NO_TWIN,
                    led: false,
                    corner,
                };
                boxed &= corner.is_some_and(|k| k.whole);
                for (cells, first) in [(&v.need_black, 0u16), (&v.need_white, 361)] {
                    for c in cells.iter() {
                        let at = Point::new(p.x + c.x, p.y + c.y).index19();
                        let _ = pair.words.push(first + at);
                    }
                }
                if let PlanTables::Pairs(t, _) = &mut self.tables {
                    t.add(self.pairs.len(), v, p);
                }
                if self.pairs.push(pair).is_err() {
                    return;
                }
            }
            if let (PlanTables::Pairs(_, cells), Some(first), false) =
                (&mut self.tables, v.allowed.first(), boxed)
            {
                cells.add(vi, v, first);
                self.with_cells |= 1 << vi;
            }
        }
        self.link_twins();
    }

    /// Links each pair to the next pair at its placement that the first stones rule out in
    /// the same games ([`Pair::twin`]).
    fn link_twins(&mut self) {
        let PlanTables::Pairs(_, cells) = &self.tables else {
            return;
        };
        let n = self.pairs.len();
        for i in 0..n {
            if self.pairs.get(i).is_none_or(|p| p.led) {
                continue;
            }
            let mut last = i;
            for j in i + 1..n {
                let (Some(a), Some(b)) = (self.pairs.get(i), self.pairs.get(j)) else {
                    break;
                };
                if b.led
                    || a.placement != b.placement
                    || !cells.same_rule_out(a.variant as usize, b.variant as usize)
                {
                    continue;
                }
                if let Some(l) = self.pairs.get_mut(last) {
                    l.twin = j as u8;
                }
                if let Some(b) = self.pairs.get_mut(j) {
                    b.led = true;
                }
                last = j;
            }
        }
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// Whether every placement is a corner box that the boxes look up (pair strategy):
    /// a block then costs a few compares, not a search.
    pub fn looked_up(&self) -> bool {
        self.strategy == Strategy::Pairs
            && !self.pairs.is_empty()
            && self.pairs.iter().all(|p| p.corner.is_some_and(|k| k.whole))
    }

    /// The query.
    pub fn query(&self) -> &'q PatternQuery {
        self.query
    }

    /// The pairs (pair strategy).
    pub fn pairs(&self) -> &[Pair] {
        &self.pairs
    }

    /// The pairs by board point (pair strategy).
    pub fn tables(&self) -> &PairTables {
        match &self.tables {
            PlanTables::Pairs(t, _) => t,
            _ => &PairTables::EMPTY,
        }
    }

    /// The cells of variant `vi` (pair strategy).
    #[inline]
    pub(crate) fn variant_cells(&self, vi: usize) -> Option<VariantCells<'_>> {
        match &self.tables {
            PlanTables::Pairs(_, cells) if self.with_cells >> vi & 1 == 1 => {
                Some(cells.variant(vi))
            }
            _ => None,
        }
    }

    /// The local strategy's table.
    pub(crate) fn local_table(&self) -> Option<&LocalTable> {
        match &self.tables {
            PlanTables::Local(t) => Some(t),
            _ => None,
        }
    }
}

/// The strategy for `query`.
fn choose(query: &PatternQuery) -> Strategy {
    if local::fits(query) && (!query.has_stones() || pair_count(query) > MAX_PAIRS) {
        Strategy::Local
    } else if !query.has_stones() {
        Strategy::All
    } else if pair_count(query) <= MAX_PAIRS {
        Strategy::Pairs
    } else {
        Strategy::PerGame
    }
}

fn pair_count(q: &PatternQuery) -> usize {
    q.variants().iter().map(|v| v.allowed.len()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::cells::{Area, Pattern};

    fn plan_keys(rows: &str, area: &str) -> (usize, usize, usize, u16, bool) {
        let q = PatternQuery::new(
            &Pattern::parse(rows).unwrap(),
            Area::parse(area).unwrap(),
            false,
        );
        let plan = ScanPlan::new(&q);
        let pairs = plan.pairs();
        let keyed = pairs.iter().filter(|p| p.corner.is_some()).count();
        let whole = pairs
            .iter()
            .filter(|p| p.corner.is_some_and(|k| k.whole))
            .count();
        (pairs.len(), keyed, whole, plan.with_cells, plan.looked_up())
    }

    #[test]
    fn corner_regions_without_wildcards_are_looked_up_in_their_boxes() {
        // The 7x7 of the benchmarks: every pair (16 variants, one placement each) is a
        // box, looked up with its three stones; no variant needs its cells.
        let (n, keyed, whole, cells, looked_up) = plan_keys(
            "......./......./...X.../..X..../..O..../......./.......",
            "0,0,0,0",
        );
        assert_eq!((n, keyed, whole, cells, looked_up), (16, 16, 16, 0, true));
        // A wildcard in the box: no key.
        let (_, keyed, _, _, looked_up) = plan_keys("..../..../..X*/..*O", "0,0,0,0");
        assert_eq!((keyed, looked_up), (0, false));
        // A wildcard outside the box: keyed, not whole, its cells kept.
        let (n, keyed, whole, cells, looked_up) = plan_keys(
            "......../......../...X..../..X....*/..O...../......../........",
            "0,0,0,0",
        );
        assert_eq!((keyed, whole, looked_up), (n, 0, false));
        assert_ne!(cells, 0);
        // An empty box asks for no stone there: no key (every game starts so).
        let (_, keyed, _, _, _) = plan_keys(
            "......./......./......./......./......./......./.......",
            "0,0,0,0",
        );
        assert_eq!(keyed, 0);
        // Nine stones are past what a box keeps: no key.
        let (_, keyed, _, _, _) = plan_keys(
            "XXX..../XXX..../XXX..../......./......./......./.......",
            "0,0,0,0",
        );
        assert_eq!(keyed, 0);
    }
}
