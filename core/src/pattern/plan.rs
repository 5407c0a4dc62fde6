//! How a block of 64 games is narrowed down to the games and placements worth replaying,
//! prepared once per query ([`ScanPlan`]).
//!
//! - A pattern without stones can match anywhere: every allowed placement of every game
//!   ([`Strategy::All`]).
//! - With few placements (corner and side patterns), each placement is a **pair**
//!   (variant, placement) with the block words of its `X` and `O` cells, ANDed for 64
//!   games at once, then, for the games left, the logs of the corner boxes its region
//!   overlaps ([`Strategy::Pairs`]).
//! - With many placements, each game's ever-black and ever-white points are shifted over
//!   all placements at once ([`Strategy::PerGame`]).
//! - A pattern of at most 3x3 cells with many placements (or without stones): every game,
//!   scanned with a code of each point's neighbourhood ([`Strategy::Local`]).

use crate::point::Point;

use super::corner::{corner_origin, BoxMasks, CORNER_BOX};
use super::local::{self, LocalTable};
use super::pairscan::PairTables;
use super::query::{PatternQuery, Variant};
use super::scan::Candidates;

/// The most placements the pair strategy handles.
pub const MAX_PAIRS: usize = 128;

/// How the candidate placements of a block's games are found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// The pattern has no stone: every allowed placement of every game.
    All,
    /// Few placements: word ANDs per placement for 64 games at once, then corner logs.
    Pairs,
    /// Many placements: each game's ever-black and ever-white points, shifted.
    PerGame,
    /// At most 3x3 cells: every game, scanned with local codes ([`super::local`]).
    Local,
}

/// The constraints of a region on one corner box.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BoxCheck {
    /// The corner box (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right).
    pub corner: u8,
    /// The region's masks on the box.
    pub masks: BoxMasks,
}

/// One placement of one variant, with what the block filter reads for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The variant's index.
    pub variant: u8,
    /// The placement (top-left of the region on the board).
    pub placement: Point,
    /// The corner boxes the region constrains.
    pub boxes: [BoxCheck; 4],
    /// How many of `boxes` are used.
    pub box_count: u8,
    /// Whether the whole region lies in `boxes[0]`: its hits can be read from the log.
    pub inside: bool,
    /// Block words of the points under its `X` and `O` cells (ever black, ever white),
    /// at most [`MAX_WORDS`] of them: a game whose bit is clear in one of them cannot match.
    pub words: heapless::Vec<u16, MAX_WORDS>,
}

/// The most block words a pair ANDs (more stones make a filter no better in practice).
pub const MAX_WORDS: usize = 8;

/// A query prepared for scanning blocks.
#[derive(Clone, Debug)]
pub struct ScanPlan<'q> {
    pub(crate) query: &'q PatternQuery,
    pub(crate) strategy: Strategy,
    pub(crate) all: Candidates,
    pub(crate) pairs: heapless::Vec<Pair, MAX_PAIRS>,
    pub(crate) use_corners: bool,
    /// The pair strategy's tables, or the local strategy's (one plan uses one of them:
    /// a plan is copied when returned, and the larger it is, the more that costs).
    pub(crate) tables: PlanTables,
}

/// The per-point tables of a plan, by strategy (one at a time: a plan holds the largest,
/// with no heap to box it in).
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub(crate) enum PlanTables {
    /// No tables (the other strategies).
    None,
    /// The pairs by board point (pair strategy).
    Pairs(PairTables),
    /// The codes that match and the anchors allowed (local strategy).
    Local(LocalTable),
}

impl<'q> ScanPlan<'q> {
    /// Chooses the strategy for `query`.
    pub fn new(query: &'q PatternQuery) -> ScanPlan<'q> {
        let strategy =
            if local::fits(query) && (!query.has_stones() || pair_count(query) > MAX_PAIRS) {
                Strategy::Local
            } else if !query.has_stones() {
                Strategy::All
            } else if pair_count(query) <= MAX_PAIRS {
                Strategy::Pairs
            } else {
                Strategy::PerGame
            };
        ScanPlan::with(query, strategy, true)
    }

    /// A plan with a given strategy, with or without the corner logs (tests compare
    /// them; the pair strategy falls back to per-game above [`MAX_PAIRS`] placements, the
    /// local one for a pattern past 3x3 cells).
    pub fn with(query: &'q PatternQuery, strategy: Strategy, use_corners: bool) -> ScanPlan<'q> {
        let strategy = match strategy {
            Strategy::Pairs if pair_count(query) > MAX_PAIRS => Strategy::PerGame,
            Strategy::Local if !local::fits(query) => Strategy::PerGame,
            s => s,
        };
        // Built in place: the plan is large (its pairs and tables), and moving it costs.
        let mut plan = ScanPlan {
            query,
            strategy,
            all: Candidates::NONE,
            pairs: heapless::Vec::new(),
            use_corners,
            tables: PlanTables::None,
        };
        match strategy {
            // Only the plan without stones reads every placement (computing it costs more
            // than a corner search's blocks on a small collection).
            Strategy::All => plan.all = Candidates::all(query),
            Strategy::Pairs => {
                plan.tables = PlanTables::Pairs(PairTables::EMPTY);
                plan.add_pairs();
            }
            Strategy::PerGame => {}
            Strategy::Local => {
                let mut t = LocalTable::EMPTY;
                t.fill(query);
                plan.tables = PlanTables::Local(t);
            }
        }
        plan
    }

    /// Adds a pair per placement of each variant, with its block words, its regions and
    /// trigger points, its corner boxes and its bits in the tables.
    fn add_pairs(&mut self) {
        let query = self.query;
        for (vi, v) in query.variants().iter().enumerate() {
            for p in v.allowed.iter() {
                let mut pair = Pair {
                    variant: vi as u8,
                    placement: p,
                    boxes: [BoxCheck::default(); 4],
                    box_count: 0,
                    inside: false,
                    words: heapless::Vec::new(),
                };
                for (cells, first) in [(&v.need_black, 0u16), (&v.need_white, 361)] {
                    for c in cells.iter() {
                        let at = Point::new(p.x + c.x, p.y + c.y).index19();
                        let _ = pair.words.push(first + at);
                    }
                }
                if self.use_corners {
                    for c in 0..4 {
                        if let Some(b) = box_check(v, p, c) {
                            pair.boxes[pair.box_count as usize] = b;
                            pair.box_count += 1;
                        }
                    }
                    let r = v.region(p);
                    pair.inside = pair.box_count == 1
                        && (r.right - r.left + 1) as u32 * (r.bottom - r.top + 1) as u32
                            == pair.boxes[0].masks.region.count_ones();
                }
                if let PlanTables::Pairs(t) = &mut self.tables {
                    t.add(self.pairs.len(), v, p);
                }
                if self.pairs.push(pair).is_err() {
                    return;
                }
            }
        }
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
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
            PlanTables::Pairs(t) => t,
            _ => &PairTables::EMPTY,
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

fn pair_count(q: &PatternQuery) -> usize {
    q.variants().iter().map(|v| v.allowed.len()).sum()
}

/// The constraints of variant `v` placed at `p` on corner box `c`, if its region
/// overlaps the box with a constrained cell.
fn box_check(v: &Variant, p: Point, c: usize) -> Option<BoxCheck> {
    let o = corner_origin(c);
    let mut m = BoxMasks::default();
    for ly in 0..CORNER_BOX {
        for lx in 0..CORNER_BOX {
            let (x, y) = (o.x + lx, o.y + ly);
            if x < p.x || y < p.y || x >= p.x + v.width || y >= p.y + v.height {
                continue;
            }
            let cell = Point::new(x - p.x, y - p.y);
            let bit = 1u64 << (ly * CORNER_BOX + lx);
            m.region |= bit;
            for (mask, set) in [
                (&mut m.care_black, &v.care_black),
                (&mut m.need_black, &v.need_black),
                (&mut m.care_white, &v.care_white),
                (&mut m.need_white, &v.need_white),
            ] {
                if set.contains(cell) {
                    *mask |= bit;
                }
            }
        }
    }
    (m.care_black | m.care_white != 0).then_some(BoxCheck {
        corner: c as u8,
        masks: m,
    })
}
