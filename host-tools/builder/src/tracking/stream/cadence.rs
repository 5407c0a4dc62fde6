//! A [`Timeline`] as the request lines of a board of one cadence ([`render`]): a board that
//! scans periodically (a snapshot every 50 to 200 ms, most of them repeating the last) or
//! one that reports only changes (one snapshot per change of its reading, as DGT-style
//! boards do), each with or without the time of its reading (`t=<ms>`).
//!
//! A reading is what the sensors see: a point misread shows the misreading, a point under
//! a hand reads empty, any other point shows its stone. Changes of one moment are read
//! together (two moves between two readings); a button's line comes where it was pressed
//! (after the readings before it).

use kifudex_core::{Point, Stone};

use super::timeline::{Change, Timeline};
use super::Rng;

/// How often a board sends its reading.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cadence {
    /// A snapshot every 50 to 200 ms, whether the reading changed or not.
    Periodic,
    /// A snapshot whenever the reading changes, none otherwise.
    ChangeOnly,
}

impl std::str::FromStr for Cadence {
    type Err = String;

    fn from_str(s: &str) -> Result<Cadence, String> {
        match s {
            "periodic" => Ok(Cadence::Periodic),
            "change-only" => Ok(Cadence::ChangeOnly),
            _ => Err(format!("{s:?}: not periodic or change-only")),
        }
    }
}

/// The request lines of one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    /// The lines: the timeline's start lines, `board` snapshots and button lines.
    pub lines: Vec<String>,
    /// The time of each line's reading (`None` for the other lines).
    pub times: Vec<Option<u32>>,
    /// For each move, the index in `lines` of the last snapshot read before the move began.
    pub before_move: Vec<usize>,
}

/// The sensors' reading of a timeline as it goes.
struct Reading<'t> {
    tl: &'t Timeline,
    stones: Vec<Stone>,
    misread: Vec<Option<Stone>>,
    hands: Vec<u8>,
    /// The cells as a `board` line lists them.
    cells: Vec<u8>,
    next: usize,
}

impl Reading<'_> {
    fn at(&self, p: Point) -> usize {
        p.y as usize * self.tl.size.width() as usize + p.x as usize
    }

    fn refresh(&mut self, i: usize) {
        let s = match (self.misread[i], self.hands[i]) {
            (Some(s), _) => s,
            (None, 0) => self.stones[i],
            _ => Stone::Empty,
        };
        self.cells[i] = match s {
            Stone::Empty => b'.',
            Stone::Black => b'X',
            Stone::White => b'O',
        };
    }

    /// Applies the changes up to time `t` (included); a button pressed meanwhile is
    /// passed to `button` with the reading just before it.
    fn advance(&mut self, t: u32, mut button: impl FnMut(&'static str, &[u8])) {
        while let Some(c) = self.tl.changes.get(self.next).filter(|c| c.t <= t) {
            self.next += 1;
            let i = match c.change {
                Change::Stone(p, s) => {
                    let i = self.at(p);
                    self.stones[i] = s;
                    i
                }
                Change::Misread(p, s) => {
                    let i = self.at(p);
                    self.misread[i] = s;
                    i
                }
                Change::Hand(p, on) => {
                    let i = self.at(p);
                    self.hands[i] = if on {
                        self.hands[i].saturating_add(1)
                    } else {
                        self.hands[i].saturating_sub(1)
                    };
                    i
                }
                Change::Button(line) => {
                    button(line, &self.cells);
                    continue;
                }
            };
            self.refresh(i);
        }
    }
}

/// The lines a board of `cadence` sends for `tl`, with `t=<ms>` if `times`; `seed` draws
/// the periodic board's intervals.
pub fn render(tl: &Timeline, cadence: Cadence, times: bool, seed: u64) -> Rendered {
    let n = tl.size.points();
    let mut r = Reading {
        tl,
        stones: tl.initial.clone(),
        misread: vec![None; n],
        hands: vec![0; n],
        cells: vec![b'.'; n],
        next: 0,
    };
    for i in 0..n {
        r.refresh(i);
    }
    let mut out = Rendered {
        lines: tl.start.clone(),
        times: vec![None; tl.start.len()],
        before_move: Vec::with_capacity(tl.move_at.len()),
    };
    let w = tl.size.width();
    let snapshot = |out: &mut Rendered, cells: &[u8], t: u32, first: bool| {
        let mut line = format!("board {w} {}", String::from_utf8_lossy(cells));
        if let (true, Some(c)) = (first, tl.named) {
            line.push(' ');
            line.push(c.letter());
        }
        if times {
            line += &format!(" t={t}");
        }
        out.lines.push(line);
        out.times.push(Some(t));
    };
    r.advance(0, |_, _| {});
    snapshot(&mut out, &r.cells, 0, true);
    let mut shown = r.cells.clone();
    match cadence {
        Cadence::ChangeOnly => {
            while let Some(c) = tl.changes.get(r.next) {
                let t = c.t;
                r.advance(t, |line, cells| {
                    if cells != shown.as_slice() {
                        snapshot(&mut out, cells, t, false);
                        shown = cells.to_vec();
                    }
                    out.lines.push(line.to_string());
                    out.times.push(None);
                });
                if r.cells != shown {
                    snapshot(&mut out, &r.cells, t, false);
                    shown.clone_from(&r.cells);
                }
            }
        }
        Cadence::Periodic => {
            let mut rng = Rng::new(seed ^ 0x7065_7269_6f64);
            let mut t = 0;
            while t < tl.end {
                t += rng.range(50, 200);
                r.advance(t, |line, _| {
                    out.lines.push(line.to_string());
                    out.times.push(None);
                });
                snapshot(&mut out, &r.cells, t, false);
            }
        }
    }
    // The last snapshot before each move began.
    let mut last = 0;
    let mut k = 0;
    for &m in &tl.move_at {
        while k < out.lines.len() && out.times[k].is_none_or(|t| t < m) {
            if out.times[k].is_some() {
                last = k;
            }
            k += 1;
        }
        out.before_move.push(last);
    }
    out
}
