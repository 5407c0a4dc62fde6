//! Snapshot streams of real games ([`stream`]): what an electronic board would send while
//! a game is played on it, with the noise real sensors and real hands add, made
//! deterministically from a seed. The tests feed them to the hint protocol's tracker
//! and `kifudex predict --eval --streams` measures its hints on them.
//!
//! For each move of the game: the stone is placed (sometimes first on a neighbouring
//! point for one snapshot, slid into place after), the snapshot shows it with the stones it
//! captures, which are then lifted one to three at a time over the next snapshots (then
//! [`STABLE`] quiet snapshots: lifting stones takes a moment); a few idle snapshots follow. Throughout, a point may misread (flicker) for one or two
//! snapshots (fewer than [`STABLE`]): an empty point as a stone of either colour, a stone
//! as empty or as the other colour. Between moves, after [`STABLE`]` + 1` clean
//! snapshots, sometimes a recorded stone is lifted and put back, or a hand covers a few
//! points (the stones under it read empty) for one to six snapshots.

use kifudex_core::board::{Board, Rules, StonesOnly};
use kifudex_core::{Color, Event, Move, Point, PointSet, Size, Stone};

mod cadence;
mod timeline;

pub use cadence::{render, Cadence, Rendered};
pub use timeline::{timeline, Change, Game, Noise, Protocol, TimedChange, Timeline};

/// How many snapshots in a row this generator's streams keep a change (the tracker's
/// count when the generator was written): a misreading lasts fewer, the next stone comes
/// this many snapshots after the last captured stone is lifted.
pub const STABLE: u8 = 3;

/// A game as a tracker can follow it: setup stones, then moves of alternating colours
/// (no passes: a board cannot see one), each legal under simple ko without suicide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trackable {
    /// The board size.
    pub size: Size,
    /// The setup stones.
    pub setup: Vec<(Point, Color)>,
    /// The moves.
    pub moves: Vec<(Color, Point)>,
}

impl Trackable {
    /// The main line of a record as a tracker would see it, or why it cannot: a pass, a
    /// setup stone after the first move, colours not alternating, a move the rules of a
    /// `moves` request refuse. Passes after the last stone are left out (nothing follows
    /// them on the board).
    pub fn of(size: Size, events: &[Event]) -> Result<Trackable, &'static str> {
        let mut setup = Vec::new();
        let mut moves: Vec<(Color, Point)> = Vec::new();
        let last_stone = events.iter().rposition(|e| {
            matches!(
                e,
                Event::Play {
                    mv: Move::Play(_),
                    ..
                }
            )
        });
        let mut board: Board<StonesOnly> = Board::empty(size, Rules::STANDARD);
        for (i, e) in events.iter().enumerate() {
            match *e {
                Event::Setup { point, stone } => {
                    let c = place_setup_stone(&mut board, !moves.is_empty(), point, stone)?;
                    setup.push((point, c));
                }
                Event::Play { color, mv } => {
                    if last_stone.is_none_or(|l| i > l) {
                        break;
                    }
                    let Move::Play(p) = mv else {
                        return Err("a pass before the last stone");
                    };
                    if moves.last().is_some_and(|&(c, _)| c == color) {
                        return Err("two moves of one colour in a row");
                    }
                    board
                        .play(color, mv)
                        .map_err(|_| "a move the rules refuse")?;
                    moves.push((color, p));
                }
            }
        }
        let game = Trackable { size, setup, moves };
        match game.moves.first() {
            Some(&(c, _)) if c != game.first_by_rule() && game.all_black() => {
                Err("Black moves first after black setup stones")
            }
            _ => Ok(game),
        }
    }

    /// Whether there are setup stones, all black.
    fn all_black(&self) -> bool {
        !self.setup.is_empty() && self.setup.iter().all(|s| s.1 == Color::Black)
    }

    /// Who moves first by the tracker's rule for a first snapshot that names no side:
    /// White if the setup stones are all black, else Black when both colours have as many
    /// stones, else White.
    pub fn first_by_rule(&self) -> Color {
        let black = self.setup.iter().filter(|s| s.1 == Color::Black).count();
        if self.all_black() || black * 2 != self.setup.len() {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The side the first snapshot names: the first mover when the rule would not give it.
    pub fn named_first(&self) -> Option<Color> {
        match self.moves.first() {
            Some(&(c, _)) if c != self.first_by_rule() => Some(c),
            _ => None,
        }
    }
}

/// Whether the `game` reply `sgf` is the record of `game`: read back by the project's SGF
/// reader, the same size, the same setup stones (handicap stones included, in any order),
/// the same handicap count (`HA`) when `handicap` (the stones were placed after `new N
/// handicap K`), and the same moves, passes included; else what differs.
pub fn check_record(game: &Game, sgf: &str, handicap: bool) -> Result<(), Mismatch> {
    let at_start = |what: String| Mismatch { at: 0, what };
    let parsed = crate::sgf::parse_file(sgf.as_bytes(), "record", None);
    let [back] = parsed.games.as_slice() else {
        return Err(at_start(format!(
            "{} games in the record",
            parsed.games.len()
        )));
    };
    if back.size != game.size {
        return Err(at_start(format!("size {}", back.size.width())));
    }
    let mut setup: Vec<(u16, Stone)> = Vec::new();
    let mut moves: Vec<(Color, Move)> = Vec::new();
    for e in &back.events {
        match *e {
            Event::Setup { point, stone } => setup.push((point.index19(), stone)),
            Event::Play { color, mv } => moves.push((color, mv)),
        }
    }
    setup.sort_unstable();
    let mut want: Vec<(u16, Stone)> = game
        .all_setup()
        .iter()
        .map(|&(p, c)| (p.index19(), Stone::of(c)))
        .collect();
    want.sort_unstable();
    if setup != want {
        return Err(at_start(format!("setup {setup:?}")));
    }
    let ha = back.info.handicap.unwrap_or(0) as usize;
    if handicap && ha != game.handicap.len() {
        return Err(at_start(format!("HA[{ha}]")));
    }
    if moves != game.moves {
        let k = moves
            .iter()
            .zip(&game.moves)
            .position(|(a, b)| a != b)
            .unwrap_or(moves.len().min(game.moves.len()));
        return Err(Mismatch {
            at: k,
            what: format!(
                "{} moves of {}, first different at move {k}: {:?} for {:?}",
                moves.len(),
                game.moves.len(),
                moves.get(k),
                game.moves.get(k)
            ),
        });
    }
    Ok(())
}

/// How a record differs from its game ([`check_record`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The first move that differs (0 when the size, setup or handicap differ).
    pub at: usize,
    /// What differs.
    pub what: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

/// A snapshot stream: the `board` request lines, and for each move the line the board
/// showed last before its stone was placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stream {
    /// `board N <cells>` lines (the first is the setup, read without noise, with the side
    /// to move when the setup rule would not give it).
    pub lines: Vec<String>,
    /// The reply to each line.
    pub replies: Vec<String>,
    /// For move `i`, the index in `lines` of the last snapshot before its stone appears.
    pub before_move: Vec<usize>,
    /// How many snapshots misread a point, lifted and put back a stone, held a hand over
    /// the board, slid a stone into place, lifted captured stones.
    pub noise: NoiseCount,
}

/// What a stream holds besides plain positions (the legacy [`stream`] counts the first
/// five kinds; a [`Timeline`] all of them).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct NoiseCount {
    /// Misread points (each for a short while).
    pub flickers: usize,
    /// Stones lifted and put back.
    pub lifts: usize,
    /// Hands over the board.
    pub hands: usize,
    /// Stones first placed on a neighbouring point.
    pub slides: usize,
    /// Captures whose stones left over more than one snapshot.
    pub slow_captures: usize,
    /// Stones played on a point a capture had just emptied, within one reading of the
    /// capture's last stone lifted (or before it).
    pub throw_ins: usize,
    /// Two moves, one of each side, between two readings.
    pub lost_readings: usize,
    /// Captured stones left on the board while play went on for a few moves (a `fix`
    /// ignored), then lifted.
    pub ignored_fixes: usize,
    /// Passes (the `pass` button).
    pub passes: usize,
    /// Takebacks (the `undo` button, the stone lifted, its captures put back).
    pub takebacks: usize,
    /// Handicap stones placed one by one.
    pub handicap_stones: usize,
    /// Dead stones taken off after two passes.
    pub dead_stones: usize,
}

impl NoiseCount {
    /// The counts as (name, count) pairs, in the order of the fields.
    pub fn kinds(&self) -> [(&'static str, usize); 12] {
        [
            ("flicker", self.flickers),
            ("lift", self.lifts),
            ("hand", self.hands),
            ("slide", self.slides),
            ("slow-capture", self.slow_captures),
            ("throw-in", self.throw_ins),
            ("lost-reading", self.lost_readings),
            ("ignored-fix", self.ignored_fixes),
            ("pass", self.passes),
            ("takeback", self.takebacks),
            ("handicap", self.handicap_stones),
            ("dead-stones", self.dead_stones),
        ]
    }

    /// What was counted since `before` (a count of the same stream made earlier).
    pub fn since(&self, before: &NoiseCount) -> NoiseCount {
        NoiseCount {
            flickers: self.flickers.saturating_sub(before.flickers),
            lifts: self.lifts.saturating_sub(before.lifts),
            hands: self.hands.saturating_sub(before.hands),
            slides: self.slides.saturating_sub(before.slides),
            slow_captures: self.slow_captures.saturating_sub(before.slow_captures),
            throw_ins: self.throw_ins.saturating_sub(before.throw_ins),
            lost_readings: self.lost_readings.saturating_sub(before.lost_readings),
            ignored_fixes: self.ignored_fixes.saturating_sub(before.ignored_fixes),
            passes: self.passes.saturating_sub(before.passes),
            takebacks: self.takebacks.saturating_sub(before.takebacks),
            handicap_stones: self.handicap_stones.saturating_sub(before.handicap_stones),
            dead_stones: self.dead_stones.saturating_sub(before.dead_stones),
        }
    }
}

impl std::ops::AddAssign for NoiseCount {
    fn add_assign(&mut self, o: NoiseCount) {
        self.flickers += o.flickers;
        self.lifts += o.lifts;
        self.hands += o.hands;
        self.slides += o.slides;
        self.slow_captures += o.slow_captures;
        self.throw_ins += o.throw_ins;
        self.lost_readings += o.lost_readings;
        self.ignored_fixes += o.ignored_fixes;
        self.passes += o.passes;
        self.takebacks += o.takebacks;
        self.handicap_stones += o.handicap_stones;
        self.dead_stones += o.dead_stones;
    }
}

/// A small deterministic generator (xorshift64*).
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed` (any value).
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// A number from `lo` to `hi`, both included.
    pub(crate) fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below((hi - lo + 1) as usize) as u32
    }

    /// `true` `per_mille` times in 1000.
    pub(crate) fn chance(&mut self, per_mille: usize) -> bool {
        self.below(1000) < per_mille
    }
}

/// A point misread for some snapshots.
struct Flicker {
    point: Point,
    reads: Stone,
    left: usize,
}

/// Builds the snapshot lines of a game, asking for each one's reply.
struct Writer<'r> {
    size: Size,
    rng: Rng,
    flickers: Vec<Flicker>,
    lines: Vec<String>,
    replies: Vec<String>,
    reply: &'r mut dyn FnMut(&str) -> String,
    noise: NoiseCount,
}

impl Writer<'_> {
    /// Appends a snapshot of `cells` (the stones physically there), with the points
    /// flickering now misread, `hidden` read empty; starts new flickers at random.
    fn snap(&mut self, cells: &[Stone], hidden: &PointSet, noisy: bool) {
        let w = self.size.width() as usize;
        let mut shown = cells.to_vec();
        for p in hidden.iter() {
            shown[p.y as usize * w + p.x as usize] = Stone::Empty;
        }
        if noisy && self.rng.chance(40) {
            let i = self.rng.below(cells.len());
            let point = Point::new((i % w) as u8, (i / w) as u8);
            let reads = match (cells[i], self.rng.below(2)) {
                (Stone::Empty, 0) => Stone::Black,
                (Stone::Empty, _) => Stone::White,
                (s, 0) => s.swapped(),
                _ => Stone::Empty,
            };
            let left = 1 + self.rng.below(STABLE as usize - 1);
            self.flickers.push(Flicker { point, reads, left });
            self.noise.flickers += 1;
        }
        for f in &mut self.flickers {
            shown[f.point.y as usize * w + f.point.x as usize] = f.reads;
            f.left -= 1;
        }
        self.flickers.retain(|f| f.left > 0);
        let mut line = format!("board {} ", self.size.width());
        line.extend(shown.iter().map(|s| match s {
            Stone::Empty => '.',
            Stone::Black => 'X',
            Stone::White => 'O',
        }));
        self.replies.push((self.reply)(&line));
        self.lines.push(line);
    }

    /// Snapshots until the last reply is not a `fix` (the players wait while the board
    /// asks for one), at most [`MAX_WAIT`].
    fn wait_while_fixing(&mut self, cells: &[Stone]) {
        for _ in 0..MAX_WAIT {
            if !self.replies.last().is_some_and(|r| r.starts_with("fix ")) {
                return;
            }
            self.snap(cells, &PointSet::EMPTY, true);
        }
    }

    /// Snapshots until every flicker is over, the last `clean` of them without any.
    fn settle(&mut self, cells: &[Stone], clean: usize) {
        while !self.flickers.is_empty() {
            self.snap(cells, &PointSet::EMPTY, false);
        }
        for _ in 0..clean {
            self.snap(cells, &PointSet::EMPTY, false);
        }
    }
}

/// The most snapshots the players wait for a board that asks for a fix before they play on.
pub const MAX_WAIT: usize = 40;

/// The snapshot stream of `game` with the noise of `seed` (see the module documentation),
/// each line answered by `reply` as it is made: the players place a stone only when the
/// board's last reply is not a `fix` (they see its LEDs), waiting up to [`MAX_WAIT`]
/// snapshots.
pub fn stream(game: &Trackable, seed: u64, mut reply: impl FnMut(&str) -> String) -> Stream {
    let size = game.size;
    let w = size.width() as usize;
    let at = |p: Point| p.y as usize * w + p.x as usize;
    let mut out = Writer {
        size,
        rng: Rng::new(seed),
        flickers: Vec::new(),
        lines: Vec::new(),
        replies: Vec::new(),
        reply: &mut reply,
        noise: NoiseCount::default(),
    };
    let mut board: Board<StonesOnly> = Board::empty(size, Rules::STANDARD);
    for &(p, c) in &game.setup {
        let _ = board.set_stone(p, Stone::of(c));
    }
    let mut cells = vec![Stone::Empty; size.points()];
    board.to_cells(&mut cells);
    let mut first = format!("board {} ", size.width());
    first.extend(cells.iter().map(|_| '.'));
    for &(p, c) in &game.setup {
        let k = first.len() - cells.len() + at(p);
        first.replace_range(k..k + 1, if c == Color::Black { "X" } else { "O" });
    }
    if let Some(c) = game.named_first() {
        first.push(' ');
        first.push(c.letter());
    }
    out.replies.push((out.reply)(&first));
    out.lines.push(first);
    let mut before_move = Vec::with_capacity(game.moves.len());
    for (i, &(color, p)) in game.moves.iter().enumerate() {
        // Between moves: idle snapshots; sometimes, after clean ones, a stone lifted and
        // put back or a hand over the board.
        for _ in 0..1 + out.rng.below(3) {
            out.snap(&cells, &PointSet::EMPTY, true);
        }
        if i > 0 && out.rng.chance(60) {
            out.settle(&cells, STABLE as usize + 1);
            let stones: Vec<Point> = (0..cells.len())
                .filter(|&k| cells[k] != Stone::Empty)
                .map(|k| Point::new((k % w) as u8, (k / w) as u8))
                .collect();
            let hidden = if out.rng.below(2) == 0 && !stones.is_empty() {
                out.noise.lifts += 1;
                PointSet::single(stones[out.rng.below(stones.len())])
            } else {
                out.noise.hands += 1;
                // A hand near the next move: up to 3x3 points around it.
                let (cx, cy) = (p.x as i32 + out.rng.below(3) as i32 - 1, p.y as i32);
                let mut s = PointSet::EMPTY;
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let (x, y) = (cx + dx, cy + dy);
                        if x >= 0 && y >= 0 && x < w as i32 && y < size.height() as i32 {
                            s.insert(Point::new(x as u8, y as u8));
                        }
                    }
                }
                s
            };
            for _ in 0..1 + out.rng.below(6) {
                out.snap(&cells, &hidden, false);
            }
            out.settle(&cells, 1);
        }
        out.wait_while_fixing(&cells);
        before_move.push(out.lines.len() - 1);
        // The stone, sometimes slid from a neighbouring empty point.
        if out.rng.chance(50) {
            let near = [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)]
                .into_iter()
                .map(|(dx, dy)| (p.x as i32 + dx, p.y as i32 + dy))
                .filter(|&(x, y)| x >= 0 && y >= 0 && x < w as i32 && y < size.height() as i32)
                .map(|(x, y)| Point::new(x as u8, y as u8))
                .find(|&q| cells[at(q)] == Stone::Empty);
            if let Some(q) = near {
                out.noise.slides += 1;
                let mut slid = cells.clone();
                slid[at(q)] = Stone::of(color);
                out.snap(&slid, &PointSet::EMPTY, true);
            }
        }
        let captures = board
            .play(color, Move::Play(p))
            .map(|c| c.points)
            .unwrap_or_default();
        // The stone on the board with the stones it captured, then these lifted.
        cells[at(p)] = Stone::of(color);
        out.snap(&cells, &PointSet::EMPTY, true);
        let mut left: Vec<Point> = captures.iter().collect();
        if left.len() > 1 {
            out.noise.slow_captures += 1;
        }
        while !left.is_empty() {
            let n = (1 + out.rng.below(3)).min(left.len());
            for _ in 0..n {
                let k = out.rng.below(left.len());
                let q = left.swap_remove(k);
                cells[at(q)] = Stone::Empty;
            }
            out.snap(&cells, &PointSet::EMPTY, true);
            if left.is_empty() {
                // Lifting stones takes a moment: the next stone comes [`STABLE`] snapshots
                // after the last captured one left (sooner, on a point just emptied, it
                // would be taken for that captured stone put back).
                out.settle(&cells, STABLE as usize);
            }
        }
    }
    out.settle(&cells, 1);
    out.wait_while_fixing(&cells);
    Stream {
        lines: out.lines,
        replies: out.replies,
        before_move,
        noise: out.noise,
    }
}

/// Puts a record's setup stone on `board` as a tracker would see it, or says why it cannot:
/// after the first move (`after_moves`), a point emptied, a stone on a stone, off the board.
/// Returns the stone's colour.
pub(crate) fn place_setup_stone(
    board: &mut Board<StonesOnly>,
    after_moves: bool,
    point: Point,
    stone: Stone,
) -> Result<Color, &'static str> {
    if after_moves {
        return Err("setup stones after the first move");
    }
    let Some(c) = stone.color() else {
        return Err("a setup point emptied");
    };
    if board.get(point) != Stone::Empty {
        return Err("a setup stone on a stone");
    }
    board
        .set_stone(point, stone)
        .map_err(|_| "a setup stone off the board")?;
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifudex_core::notation::parse_moves;

    #[test]
    fn streams_are_deterministic_and_end_on_the_game() {
        let moves: Vec<(Color, Point)> = parse_moves("pd,dp,pp,dd,fc,cf,jd", Size::STANDARD)
            .map(|m| m.unwrap().point().unwrap())
            .enumerate()
            .map(|(i, p)| {
                (
                    if i % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                    p,
                )
            })
            .collect();
        let game = Trackable {
            size: Size::STANDARD,
            setup: vec![],
            moves,
        };
        let echo = |_: &str| String::new();
        let a = stream(&game, 7, echo);
        assert_eq!(a, stream(&game, 7, echo));
        assert_ne!(a.lines, stream(&game, 8, echo).lines);
        assert_eq!(a.before_move.len(), 7);
        assert!(a.lines[0].ends_with(&".".repeat(361)));
        let last = a.lines.last().unwrap();
        assert_eq!(last.matches('X').count(), 4);
        assert_eq!(last.matches('O').count(), 3);
    }
}
