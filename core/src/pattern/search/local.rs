//! The scan of a game for a pattern that fits in 3x3 (the centre and anywhere searches of
//! small shapes), with incremental local codes.
//!
//! Every board point is the *anchor* of its 3x3 neighbourhood, whose contents are kept as
//! one base-3 code (cell `j = (dy + 1) * 3 + (dx + 1)` of the neighbourhood, digit 0 empty,
//! 1 black, 2 white, weight `3^j`; cells off the board stay empty). A variant of at most
//! 3x3 cells lies in the neighbourhood of one anchor per placement (its top-left cell at
//! offset `(-1, -1)`, or `0` along an axis where it is one cell long), the other cells
//! its wildcards; so a table of the `3^9` codes ([`LocalTable`]) says which variants match
//! a neighbourhood, and a mask per anchor which variants may be placed there.
//!
//! A stone put on an empty point changes the codes of the nine anchors around it by a
//! constant: the scan adds it and asks, for each, `matching[new] & !matching[old] &
//! allowed[anchor]`, the variants that match now and did not one position earlier. That
//! is a few instructions per anchor and no branch; only a hit (rare beside the moves)
//! looks at which anchor and variant it is, and reads the moves after it for its
//! continuation. A position with removed stones or setup compares, for every anchor it
//! touches, the code before the position with the code after it. Captured stones come
//! from the stored removal list, as in the other scans.
//!
//! Among variants newly matching at one anchor, those of one shape share the region:
//! the first in preference order (smallest transform, as-is before colour-exchanged) is
//! the hit's match, as [`super::hits`] decides.

use crate::point::{Point, MAX_POINTS};

use super::hits::{emit_hit, moves_buffered, GameSource, Hit, MoveRecord};
use crate::pattern::query::{PatternQuery, Variant, MAX_VARIANTS};

/// Side of the padded board of anchors: the board and a border of one point.
const SIDE: usize = 21;
/// Entries of the padded arrays (indices below 441, a power of two to read without a
/// bounds check).
const PADDED: usize = 512;
/// Entries of the code table: every `u16`, so that a code indexes it without a check.
const CODES: usize = 1 << 16;
/// Added to the code of an anchor where no variant is placed: its codes then lie in
/// `BIAS..BIAS + 3^9`, where the table is zero, and the fast path needs no other test
/// (without it, moves near such anchors, on the edges of an area, took the slow path
/// when a pattern matched there: 3x3 C XO on fox_pro 431 M instructions with the bias,
/// 461 M without).
const BIAS: u16 = 1 << 15;
/// A mask that keeps every code (the table has an entry for each `u16`).
const CODE_MASK: u16 = u16::MAX;
/// Stone code of the padded point 0 (a border point, where passes and codes past the
/// board are put): never empty, so that they take the general path, which puts nothing.
const NOWHERE: u8 = 3;

/// Padded index of each move code (`y * 19 + x` to `(y + 1) * 21 + x + 1`); 0 (a border
/// point, never a board point) for a pass and the codes past the board.
const PAD: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut c = 0;
    while c < MAX_POINTS {
        t[c] = ((c / 19 + 1) * SIDE + c % 19 + 1) as u16;
        c += 1;
    }
    t
};

/// The first padded index of a board point (`PAD[0]`): points below are borders.
const FIRST: usize = SIDE + 1;

/// For cell `j` of a neighbourhood, `(dy + 1) * 21 + (dx + 1)`: the anchor of a point `p`
/// seen as cell `j` is `p + 22 - ADJ[j]`.
const ADJ: [usize; 9] = [
    0,
    1,
    2,
    SIDE,
    SIDE + 1,
    SIDE + 2,
    2 * SIDE,
    2 * SIDE + 1,
    2 * SIDE + 2,
];

/// `DELTA[s][j]`: the code of a neighbourhood whose cell `j` holds stone code `s`.
const DELTA: [[u16; 9]; 4] = {
    let mut t = [[0u16; 9]; 4];
    let mut s = 0;
    while s < 3 {
        let (mut j, mut w) = (0, 1u16);
        while j < 9 {
            t[s][j] = s as u16 * w;
            w *= 3;
            j += 1;
        }
        s += 1;
    }
    t
};

/// Puts a stone of code `S` on the empty padded point `p` (a board point): adds it to the
/// codes of the nine anchors around it, and returns the variants that match at one of
/// them now where some variant is placed (whether newly, and which, is for the caller to
/// see: rare).
///
/// Not inlined: on its own, each colour's copy keeps its constants and the codes in
/// registers (inlined, the two copies were merged with a conditional move per anchor:
/// 12 instructions an anchor instead of 8).
#[inline(never)]
fn place<const S: u16>(codes: &mut [u16; PADDED], matching: &[u16; CODES], p: usize) -> u16 {
    // The anchors from p - 22 to p + 22, read at constant offsets.
    let Some(w) = p
        .checked_sub(FIRST)
        .and_then(|first| codes.get_mut(first..first + 45))
    else {
        return 0;
    };
    let Ok(w): Result<&mut [u16; 45], _> = w.try_into() else {
        return 0;
    };
    let mut now = 0u16;
    let mut weight = S;
    for adj in ADJ {
        let at = 44 - adj;
        let new = w[at].wrapping_add(weight);
        w[at] = new;
        now |= matching[(new & CODE_MASK) as usize];
        weight = weight.wrapping_mul(3);
    }
    now
}

/// Whether every variant of `q` fits in 3x3 cells (the local scan applies).
pub fn fits(q: &PatternQuery) -> bool {
    q.pattern().width() <= 3 && q.pattern().height() <= 3
}

/// The offset of a variant's anchor from its placement: 1 along an axis where the variant
/// is longer than one cell, else 0.
fn anchor_offset(v: &Variant) -> (u8, u8) {
    ((v.width > 1) as u8, (v.height > 1) as u8)
}

/// A pattern compiled for the local scan: which variants match each code, which may be
/// placed at each anchor, and how a variant's anchor lies from its placement.
#[derive(Clone, Debug)]
pub struct LocalTable {
    /// Bit `i` of `matching[code]`: variant `i` matches a neighbourhood of that code (zero
    /// from [`BIAS`] on, where the codes of anchors without a placement lie).
    matching: [u16; CODES],
    /// The code of each anchor on an empty board: 0, or [`BIAS`] where no variant is
    /// placed.
    start: [u16; PADDED],
    /// Bit `i` of `allowed[anchor]` (padded index): variant `i` has the placement whose
    /// anchor that is.
    allowed: [u16; PADDED],
    /// The variants of each shape (bit `i` for variant `i`): shape 0 the pattern's own,
    /// 1 its axes exchanged.
    groups: [u16; 2],
    /// Each variant's anchor offset.
    offsets: [(u8, u8); MAX_VARIANTS],
    /// The variants allowed somewhere that an empty neighbourhood matches.
    empty: u16,
}

impl LocalTable {
    /// No variant anywhere.
    pub const EMPTY: LocalTable = LocalTable {
        matching: [0; CODES],
        allowed: [0; PADDED],
        start: [BIAS; PADDED],
        groups: [0; 2],
        offsets: [(0, 0); MAX_VARIANTS],
        empty: 0,
    };

    /// Fills the table for `q` (whose variants must fit in 3x3 cells, [`fits`]).
    pub fn fill(&mut self, q: &PatternQuery) {
        // accept[j][d]: the variants whose cell at neighbourhood cell j accepts digit d.
        let mut accept = [[0u16; 3]; 9];
        let mut any = 0u16;
        for (i, v) in q.variants().iter().enumerate().take(MAX_VARIANTS) {
            let bit = 1u16 << i;
            if let Some(g) = self.groups.get_mut(v.group as usize) {
                *g |= bit;
            }
            let (ax, ay) = anchor_offset(v);
            if let Some(o) = self.offsets.get_mut(i) {
                *o = (ax, ay);
            }
            for (j, acc) in accept.iter_mut().enumerate() {
                let (dx, dy) = ((j % 3) as u8, (j / 3) as u8);
                // The variant's cell there: (dx - 1 + ax, dy - 1 + ay), if inside it.
                let (cx, cy) = ((dx + ax).wrapping_sub(1), (dy + ay).wrapping_sub(1));
                if cx >= v.width || cy >= v.height {
                    acc.iter_mut().for_each(|a| *a |= bit);
                    continue;
                }
                let c = Point::new(cx, cy);
                let (cb, nb) = (v.care_black.contains(c), v.need_black.contains(c));
                let (cw, nw) = (v.care_white.contains(c), v.need_white.contains(c));
                let ok = [!nb && !nw, (!cb || nb) && !nw, (!cw || nw) && !nb];
                for (a, ok) in acc.iter_mut().zip(ok) {
                    if ok {
                        *a |= bit;
                    }
                }
            }
            for p in v.allowed.iter() {
                let anchor = Point::new(p.x + ax, p.y + ay);
                if anchor.x < 19 && anchor.y < 19 {
                    let at = PAD[anchor.index19() as usize] as usize;
                    if let (Some(a), Some(s)) = (self.allowed.get_mut(at), self.start.get_mut(at)) {
                        *a |= bit;
                        *s = 0;
                        any |= bit;
                    }
                }
            }
        }
        // Each row of three cells: its 27 codes.
        let mut rows = [[0u16; 27]; 3];
        for (r, row) in rows.iter_mut().enumerate() {
            for (c, slot) in row.iter_mut().enumerate() {
                let d = [c % 3, c / 3 % 3, c / 9];
                *slot = (0..3).fold(!0u16, |m, k| m & accept[r * 3 + k][d[k]]);
            }
        }
        for (h, &top) in rows[2].iter().enumerate() {
            for (m, &mid) in rows[1].iter().enumerate() {
                let both = top & mid;
                let at = h * 729 + m * 27;
                if let Some(out) = self.matching.get_mut(at..at + 27) {
                    for (slot, &low) in out.iter_mut().zip(&rows[0]) {
                        *slot = both & low;
                    }
                }
            }
        }
        self.empty = self.matching[0] & any;
    }
}

/// The hits of `game` for the variants of `table` (compiled from `q`), in order of
/// position (within a position, in no particular order), passed to `on_hit`.
pub fn scan_local<G: GameSource>(
    q: &PatternQuery,
    table: &LocalTable,
    game: &G,
    on_hit: &mut impl FnMut(&Hit),
) {
    LocalScanner::new().scan(q, table, game, on_hit);
}

/// The state of the local scan, made once for many games ([`LocalScanner::scan`]).
#[derive(Clone, Debug)]
pub struct LocalScanner {
    /// The code of each anchor's neighbourhood (padded index).
    codes: [u16; PADDED],
    /// The stone code of each point (padded index).
    board: [u8; PADDED],
    /// The anchors a position with several changes touched, with their codes before it.
    touched: [(u16, u16); PADDED],
    /// Per anchor, the last position with several changes that touched it (its number
    /// among all such positions of the scanner's games).
    stamps: [u32; PADDED],
    /// The number of the current position with several changes.
    epoch: u32,
}

impl Default for LocalScanner {
    fn default() -> Self {
        LocalScanner::new()
    }
}

impl LocalScanner {
    /// A scanner for any number of games.
    pub const fn new() -> LocalScanner {
        LocalScanner {
            codes: [0; PADDED],
            board: [0; PADDED],
            touched: [(0, 0); PADDED],
            stamps: [0; PADDED],
            epoch: 0,
        }
    }

    /// The hits of `game` for the variants of `table` (compiled from `q`), in order of
    /// position (within a position, in no particular order), passed to `on_hit`.
    pub fn scan<G: GameSource>(
        &mut self,
        q: &PatternQuery,
        t: &LocalTable,
        game: &G,
        on_hit: &mut impl FnMut(&Hit),
    ) {
        self.codes = t.start;
        self.board = [0; PADDED];
        self.board[0] = NOWHERE;
        let g = game;
        // Position 0: the setup of the start; every match is a hit.
        let (n_setup, n_rem) = (g.setup_count(), g.removal_count());
        let mut si = 0;
        let mut len = 0;
        self.next_epoch();
        while si < n_setup {
            let (before, p, st) = g.setup(si);
            if before != 0 {
                break;
            }
            len = self.change(PAD[p.index19() as usize] as usize, st.code(), len);
            si += 1;
        }
        let at_start = |s: &Self, a: usize| {
            let a = a & (PADDED - 1);
            t.matching[(s.codes[a] & CODE_MASK) as usize] & t.allowed[a]
        };
        if t.empty != 0 {
            for a in 0..PADDED {
                let m = at_start(self, a);
                if m != 0 {
                    self.emit(q, t, g, a, m, 0, on_hit);
                }
            }
        } else {
            for k in 0..len.min(PADDED) {
                let a = self.touched[k].0 as usize;
                let m = at_start(self, a);
                if m != 0 {
                    self.emit(q, t, g, a, m, 0, on_hit);
                }
            }
        }
        let mut ri = 0;
        let mut next_setup = if si < n_setup {
            g.setup(si).0
        } else {
            u32::MAX
        };
        let mut next_removal = if ri < n_rem {
            g.removal(ri).0
        } else {
            u32::MAX
        };
        let mut next_event = next_setup.min(next_removal);
        moves_buffered(g, 0, |i, record| {
            let n = i as u32 + 1;
            let rec = MoveRecord(record);
            let p = PAD[rec.code() as usize & 511] as usize;
            let s = 1 + rec.white() as u8;
            if n < next_event && self.board[p & (PADDED - 1)] == 0 {
                // The common move: one stone on an empty point, nothing removed.
                self.board[p & (PADDED - 1)] = s;
                let now = if s == 1 {
                    place::<1>(&mut self.codes, &t.matching, p)
                } else {
                    place::<2>(&mut self.codes, &t.matching, p)
                };
                if now != 0 {
                    // A match around the move: which ones are new, and allowed.
                    let delta = &DELTA[s as usize];
                    for (&adj, &d) in ADJ.iter().zip(delta) {
                        let a = (p + FIRST - adj) & (PADDED - 1);
                        let new = self.codes[a];
                        let old = new.wrapping_sub(d);
                        let m = t.matching[(new & CODE_MASK) as usize]
                            & !t.matching[(old & CODE_MASK) as usize]
                            & t.allowed[a];
                        if m != 0 {
                            self.emit(q, t, g, a, m, n, on_hit);
                        }
                    }
                }
                return true;
            }
            // A pass, a position with removed stones or setup (or a move onto a
            // stone, which only a damaged file holds): each anchor touched is compared
            // before and after.
            self.next_epoch();
            let mut len = self.change(p, s, 0);
            while next_removal <= n {
                let (_, q) = g.removal(ri);
                len = self.change(PAD[q.index19() as usize] as usize, 0, len);
                ri += 1;
                next_removal = if ri < n_rem {
                    g.removal(ri).0
                } else {
                    u32::MAX
                };
            }
            while next_setup <= n {
                let (_, q, st) = g.setup(si);
                len = self.change(PAD[q.index19() as usize] as usize, st.code(), len);
                si += 1;
                next_setup = if si < n_setup {
                    g.setup(si).0
                } else {
                    u32::MAX
                };
            }
            next_event = next_setup.min(next_removal);
            for k in 0..len.min(PADDED) {
                let (a, old) = self.touched[k];
                let a = a as usize & (PADDED - 1);
                let m = t.matching[(self.codes[a] & CODE_MASK) as usize]
                    & !t.matching[(old & CODE_MASK) as usize]
                    & t.allowed[a];
                if m != 0 {
                    self.emit(q, t, g, a, m, n, on_hit);
                }
            }
            true
        });
    }

    /// Starts a position with several changes (a new stamp for the anchors it touches).
    fn next_epoch(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamps = [0; PADDED];
            self.epoch = 1;
        }
    }

    /// Puts stone code `s` on padded point `p` (nothing for a border point); the anchors
    /// it touches for the first time in this position are added to `touched[len..]` with
    /// their codes before it. Returns the new length.
    fn change(&mut self, p: usize, s: u8, mut len: usize) -> usize {
        let p = p & (PADDED - 1);
        let old = self.board[p];
        if old == s || p < FIRST {
            return len;
        }
        self.board[p] = s;
        let (add, sub) = (&DELTA[s as usize & 3], &DELTA[old as usize & 3]);
        for ((&adj, &plus), &minus) in ADJ.iter().zip(add).zip(sub) {
            let a = (p + FIRST - adj) & (PADDED - 1);
            if self.stamps[a] != self.epoch {
                self.stamps[a] = self.epoch;
                if let Some(t) = self.touched.get_mut(len) {
                    *t = (a as u16, self.codes[a]);
                    len += 1;
                }
            }
            self.codes[a] = self.codes[a].wrapping_add(plus).wrapping_sub(minus);
        }
        len
    }

    /// Emits the hits of the variants `m` newly matching at `anchor` in position `n`: per
    /// shape, the first variant's.
    #[allow(clippy::too_many_arguments)]
    fn emit<G: GameSource>(
        &self,
        q: &PatternQuery,
        t: &LocalTable,
        game: &G,
        anchor: usize,
        m: u16,
        n: u32,
        on_hit: &mut impl FnMut(&Hit),
    ) {
        let (ax, ay) = ((anchor % SIDE) as u8, (anchor / SIDE) as u8);
        for group in t.groups {
            let mg = m & group;
            if mg == 0 {
                continue;
            }
            let vi = mg.trailing_zeros() as usize;
            let (Some(v), Some(&(ox, oy))) = (q.variants().get(vi), t.offsets.get(vi)) else {
                continue;
            };
            // Padded (ax, ay) is board (ax - 1, ay - 1); the placement lies (ox, oy) before.
            let (Some(px), Some(py)) = (ax.checked_sub(1 + ox), ay.checked_sub(1 + oy)) else {
                continue;
            };
            emit_hit(q, game, vi, v, Point::new(px, py), n, on_hit);
        }
    }
}
