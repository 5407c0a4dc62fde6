//! Corner boxes: for each corner of a game's 19x19 board, the 7x7 box at that corner
//! summed up by its first stones, so that a corner pattern without wildcards in the box
//! is looked up instead of searched.
//!
//! Until a stone leaves a box, every stone put in it lands on a point it never held, and
//! the box's content after `k` stones is the set of its first `k` stones. A box's
//! [`CornerBoxes::hash`] holds, for `k` = 1 to [`BOX_STONES`], an order-free hash of that
//! set (the exclusive or of one 16-bit key per point and colour, [`key`]), so that a box
//! that ever holds exactly a pattern's `k` stones (and nothing else) has the pattern's hash
//! at `k`. After a stone leaves, the box can hold any set; but the count of its stones
//! from then on never goes below some least count `m`, so a box still never holds `k`
//! stones other than its first `k` for `k < m`: [`CornerBoxes::decided`] is the largest
//! `k` the hashes decide this way (at most [`BOX_STONES`]). A search keeps a game for a
//! corner pattern of `k` stones in a box when its hash at `k` is the pattern's or the box
//! is not decided that far: a filter that never drops a hit (the decisions from the
//! first stones then find the hits), kept by a test against a replay of real games.
//!
//! The notes are taken during the replay that summarizes a game ([`CornerNotes`], called by
//! [`super::summary::Summarizer`]); the block layout ([`encode_corner_block`]) sits beside
//! its reader ([`CornerBlock`]).

use crate::point::{Point, Stone};

use super::block_games::BLOCK_GAMES;
use super::first::{first_byte, FIRST_NEVER};

/// Side of a corner box.
pub const BOX: u8 = 7;
/// First stones hashed per box: patterns of 1 to 8 stones in the box are looked up.
pub const BOX_STONES: usize = 8;
/// Corners of a board: 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right.
pub const CORNERS: usize = 4;
/// Bytes of the hashes of a block of 64 games: for each `k` (1 to 8), each corner, each
/// game, a little-endian `u16`.
const HASH_BYTES: usize = BOX_STONES * CORNERS * BLOCK_GAMES * 2;
/// Placements noted per box: the first 9, so that a hit at 8 stones knows what follows.
pub const BOX_PLACED: usize = BOX_STONES + 1;
/// Where the words "not decided" start: for each corner and each `k` a little-endian
/// `u64` whose bit `g` says game `g`'s box is not decided for `k` stones.
const OPEN_AT: usize = HASH_BYTES;
/// Where the placements' first-stone bytes start: for each `k` (1 to 9), each corner,
/// each game, the first-stone byte of the `k`-th stone put in the box.
const TIME_AT: usize = OPEN_AT + CORNERS * BOX_STONES * 8;
/// Where the placements' stones start, laid out as their times: the cell and colour of the
/// `k`-th stone ([`CornerBoxes::stone`]).
const STONE_AT: usize = TIME_AT + BOX_PLACED * CORNERS * BLOCK_GAMES;
/// Bytes of one block's corner boxes: hashes, words, times, stones.
pub const CORNER_BLOCK_BYTES: usize = STONE_AT + BOX_PLACED * CORNERS * BLOCK_GAMES;
/// [`CornerBoxes::stone`] of a placement that does not come because a stone leaves the box
/// first.
pub const LEFT_FIRST: u8 = 254;
/// [`CornerBoxes::stone`] of a placement that never comes, nothing leaving the box before.
pub const NO_STONE: u8 = 255;
/// Board side the boxes are taken on (the searched games').
pub const SIDE: u8 = 19;

/// The corner box holding `p` on a 19x19 board, and `p`'s cell in the box's own frame
/// (`y * 7 + x`, the corner point 0, reflected so that every corner reads like the
/// top-left one); `None` for a point in no box.
#[inline]
pub const fn box_of(p: Point) -> Option<(usize, u8)> {
    let (x, y) = (p.x, p.y);
    if x >= SIDE || y >= SIDE {
        return None;
    }
    let (right, bx) = if x < BOX {
        (0, x)
    } else if x >= SIDE - BOX {
        (1, SIDE - 1 - x)
    } else {
        return None;
    };
    let (bottom, by) = if y < BOX {
        (0, y)
    } else if y >= SIDE - BOX {
        (2, SIDE - 1 - y)
    } else {
        return None;
    };
    Some((right + bottom, by * BOX + bx))
}

/// The key of a stone of `black`ness on cell `cell` of a box (49 cells), 0 past them:
/// fixed 16-bit values (SplitMix64 from a fixed seed), never 0.
#[inline]
pub const fn key(cell: u8, black: bool) -> u16 {
    let i = cell as usize * 2 + black as usize;
    if i < KEYS.len() {
        KEYS[i]
    } else {
        0
    }
}

/// Cells of a corner box.
pub const CELLS: usize = (BOX as usize) * (BOX as usize);

const KEYS: [u16; CELLS * 2] = {
    let mut keys = [0u16; CELLS * 2];
    let mut state: u64 = 0x6b69_6675_6465_7821;
    let mut i = 0;
    while i < keys.len() {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        let k = (z >> 48) as u16;
        if k != 0 {
            keys[i] = k;
            i += 1;
        }
    }
    keys
};

/// The corner boxes of one game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CornerBoxes {
    /// For each corner, entry `k - 1`: the hash of the box's first `k` stones (0 for a box
    /// that never held `k` stones before one left it).
    pub hash: [[u16; BOX_STONES]; CORNERS],
    /// For each corner, the largest `k` (0 to 8) for which the box holds `k` stones only
    /// as its first `k`.
    pub decided: [u8; CORNERS],
    /// For each corner, entry `k - 1` (`k` 1 to 9): the first-stone byte of the position
    /// where the `k`-th stone comes into the box, before any leaves it
    /// ([`super::first::first_byte`]; [`FIRST_NEVER`] if it does not come so).
    pub time: [[u8; BOX_PLACED]; CORNERS],
    /// For each corner, entry `k - 1`: that stone, `cell * 2 + white` (below 98);
    /// [`LEFT_FIRST`] if a stone leaves the box before it comes, [`NO_STONE`] if it never
    /// comes and none leaves.
    pub stone: [[u8; BOX_PLACED]; CORNERS],
}

impl Default for CornerBoxes {
    /// Four empty boxes (a game without stones, or not searched).
    fn default() -> Self {
        CornerBoxes {
            hash: [[0; BOX_STONES]; CORNERS],
            decided: [BOX_STONES as u8; CORNERS],
            time: [[FIRST_NEVER; BOX_PLACED]; CORNERS],
            stone: [[NO_STONE; BOX_PLACED]; CORNERS],
        }
    }
}

/// The corner boxes noted stone by stone during a replay.
#[derive(Copy, Clone, Debug)]
pub struct CornerNotes {
    boxes: CornerBoxes,
    /// Stones in each box now.
    count: [u8; CORNERS],
    /// First stones hashed so far in each box (before one left it).
    placed: [u8; CORNERS],
    /// Since a stone left the box, the least count it had; `u8::MAX` before.
    least: [u8; CORNERS],
}

impl Default for CornerNotes {
    fn default() -> Self {
        CornerNotes {
            boxes: CornerBoxes::default(),
            count: [0; CORNERS],
            placed: [0; CORNERS],
            least: [u8::MAX; CORNERS],
        }
    }
}

impl CornerNotes {
    /// Empty boxes.
    pub fn new() -> CornerNotes {
        CornerNotes::default()
    }

    /// `p` went from `old` to `new` at position `n` (a move's stone or a capture by move
    /// `n`, a setup stone before move `n + 1`), in the order of the replay. A setup after
    /// the first move leaves the box undecided.
    pub fn change(&mut self, p: Point, old: Stone, new: Stone, n: u32, setup: bool) {
        let Some((c, cell)) = box_of(p) else {
            return;
        };
        if setup && n > 0 {
            if let Some(least) = self.least.get_mut(c) {
                *least = 0;
            }
            self.mark_left(c);
        }
        if old != Stone::Empty {
            self.leave(c);
        }
        if new != Stone::Empty {
            self.enter(c, cell, new == Stone::White, n);
        }
    }

    /// Notes that the next placement of box `c` comes after a stone left (once).
    fn mark_left(&mut self, c: usize) {
        let placed = self.placed.get(c).copied().unwrap_or(0) as usize;
        if let Some(s) = self.boxes.stone.get_mut(c).and_then(|s| s.get_mut(placed)) {
            if *s == NO_STONE {
                *s = LEFT_FIRST;
            }
        }
    }

    fn leave(&mut self, c: usize) {
        if let (Some(n), Some(least)) = (self.count.get_mut(c), self.least.get_mut(c)) {
            *n = n.saturating_sub(1);
            *least = (*least).min(*n);
        }
        self.mark_left(c);
    }

    fn enter(&mut self, c: usize, cell: u8, white: bool, n: u32) {
        let (Some(count), Some(least), Some(placed), Some(hash), Some(time), Some(stone)) = (
            self.count.get_mut(c),
            self.least.get(c),
            self.placed.get_mut(c),
            self.boxes.hash.get_mut(c),
            self.boxes.time.get_mut(c),
            self.boxes.stone.get_mut(c),
        ) else {
            return;
        };
        *count = count.saturating_add(1);
        let i = *placed as usize;
        if *least != u8::MAX || i >= BOX_PLACED {
            return;
        }
        if let (Some(t), Some(s)) = (time.get_mut(i), stone.get_mut(i)) {
            *t = first_byte(n);
            *s = cell * 2 + white as u8;
        }
        if i < BOX_STONES {
            let before = match i.checked_sub(1) {
                Some(j) => hash.get(j).copied().unwrap_or(0),
                None => 0,
            };
            if let Some(h) = hash.get_mut(i) {
                *h = before ^ key(cell, !white);
            }
        }
        *placed += 1;
    }

    /// The boxes, once the replay is over.
    pub fn finish(mut self) -> CornerBoxes {
        for c in 0..CORNERS {
            let least = self.least.get(c).copied().unwrap_or(0);
            if let Some(d) = self.boxes.decided.get_mut(c) {
                // Before a stone leaves, the first `k` stones are the only `k`; after,
                // counts below `least` never come back.
                *d = least.saturating_sub(1).min(BOX_STONES as u8);
            }
        }
        self.boxes
    }
}

/// Writes the corner boxes of `games` (at most 64, game `g` of the block at `g`) into
/// `out` ([`CORNER_BLOCK_BYTES`]); slots past them hold empty boxes. Returns `false`
/// (writing nothing) for other lengths.
pub fn encode_corner_block(games: &[CornerBoxes], out: &mut [u8]) -> bool {
    if games.len() > BLOCK_GAMES || out.len() != CORNER_BLOCK_BYTES {
        return false;
    }
    out.fill(0);
    let (hashes, rest) = out.split_at_mut(OPEN_AT);
    let (words, places) = rest.split_at_mut(TIME_AT - OPEN_AT);
    let (times, stones) = places.split_at_mut(STONE_AT - TIME_AT);
    times.fill(FIRST_NEVER);
    stones.fill(NO_STONE);
    let mut open = [[0u64; BOX_STONES]; CORNERS];
    for (g, b) in games.iter().enumerate() {
        for (c, open) in open.iter_mut().enumerate() {
            let decided = b.decided.get(c).copied().unwrap_or(0) as usize;
            let hash = b.hash.get(c).copied().unwrap_or_default();
            for (k, (&h, open)) in hash.iter().zip(open.iter_mut()).enumerate() {
                let at = hash_at(k + 1, c, g);
                if let Some(o) = hashes.get_mut(at..at + 2) {
                    o.copy_from_slice(&h.to_le_bytes());
                }
                if decided < k + 1 {
                    *open |= 1 << g;
                }
            }
            let (time, stone) = (b.time.get(c), b.stone.get(c));
            for (k, (&bt, &bs)) in time
                .iter()
                .flat_map(|t| t.iter())
                .zip(stone.iter().flat_map(|s| s.iter()))
                .enumerate()
            {
                let at = place_at(k + 1, c, g);
                if let (Some(t), Some(s)) = (times.get_mut(at), stones.get_mut(at)) {
                    *t = bt;
                    *s = bs;
                }
            }
        }
    }
    for (chunk, w) in words.chunks_exact_mut(8).zip(open.iter().flatten()) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    true
}

/// Where the hash of `k` stones of corner `c` of game `g` lies in a block.
#[inline]
const fn hash_at(k: usize, c: usize, g: usize) -> usize {
    (((k - 1) * CORNERS + c) * BLOCK_GAMES + g) * 2
}

/// Where the `k`-th placement of corner `c` of game `g` lies among a block's times (and
/// its stones).
#[inline]
const fn place_at(k: usize, c: usize, g: usize) -> usize {
    ((k - 1) * CORNERS + c) * BLOCK_GAMES + g
}

/// One block's corner boxes as stored ([`CORNER_BLOCK_BYTES`], or fewer: reads past the
/// bytes give 0 and "not decided").
#[derive(Copy, Clone, Debug)]
pub struct CornerBlock<'a>(pub &'a [u8]);

impl CornerBlock<'_> {
    /// The games whose corner `c` may hold exactly the `k` stones hashing to `hash`: the
    /// hash at `k` is `hash`, or the box is not decided for `k` (every game for `k`
    /// outside 1 to 8 or `c` past the corners).
    #[inline]
    pub fn games(&self, c: usize, k: usize, hash: u16) -> u64 {
        self.same(c, k, hash) | self.open(c, k)
    }

    /// The games whose corner `c` has the hash `hash` at `k` (every game for `k` outside 1
    /// to 8 or `c` past the corners).
    #[inline]
    pub fn same(&self, c: usize, k: usize, hash: u16) -> u64 {
        if c >= CORNERS || !(1..=BOX_STONES).contains(&k) {
            return u64::MAX;
        }
        let at = hash_at(k, c, 0);
        let Some(column) = self.0.get(at..at + BLOCK_GAMES * 2) else {
            return u64::MAX;
        };
        // Four games a word: a lane equal to the hash is zero after the exclusive or, and
        // then exactly its top bit is set in `zero`. Equal hashes are rare: the words are
        // only gathered into game bits when one has a lane set.
        const LOW: u64 = 0x7fff_7fff_7fff_7fff;
        let wide = hash as u64 * 0x0001_0001_0001_0001;
        let mut zeros = [0u64; BLOCK_GAMES / 4];
        let mut any = 0u64;
        for (z, w) in zeros.iter_mut().zip(column.chunks_exact(8)) {
            let mut a = [0u8; 8];
            a.copy_from_slice(w);
            let v = u64::from_le_bytes(a) ^ wide;
            *z = !(((v & LOW) + LOW) | v | LOW);
            any |= *z;
        }
        if any == 0 {
            return 0;
        }
        let mut same = 0u64;
        for (i, &z) in zeros.iter().enumerate() {
            for lane in 0..4 {
                same |= (z >> (16 * lane + 15) & 1) << (4 * i + lane);
            }
        }
        same
    }

    /// The games whose corner `c` is not decided for `k` stones (1 to 8).
    #[inline]
    pub fn open(&self, c: usize, k: usize) -> u64 {
        let at = OPEN_AT + (c * BOX_STONES + k.saturating_sub(1)) * 8;
        self.0
            .get(at..at + 8)
            .and_then(|b| b.try_into().ok())
            .map_or(u64::MAX, u64::from_le_bytes)
    }

    /// Game `g`'s boxes, read back (empty boxes past the bytes).
    pub fn get(&self, g: usize) -> CornerBoxes {
        let mut b = CornerBoxes::default();
        let boxes = b.hash.iter_mut().zip(b.decided.iter_mut());
        for (c, ((hash, decided), (time, stone))) in boxes
            .zip(b.time.iter_mut().zip(b.stone.iter_mut()))
            .enumerate()
        {
            for (k, h) in (1..).zip(hash.iter_mut()) {
                let at = hash_at(k, c, g);
                if let Some(v) = self.0.get(at..at + 2) {
                    *h = u16::from_le_bytes([v[0], v[1]]);
                }
            }
            let open = (1..=BOX_STONES).find(|&k| self.open(c, k) >> g & 1 == 1);
            *decided = open.map_or(BOX_STONES, |k| k - 1) as u8;
            for (k, (t, s)) in (1..).zip(time.iter_mut().zip(stone.iter_mut())) {
                *t = self.time(c, k, g);
                *s = self.stone(c, k, g);
            }
        }
        b
    }

    /// [`CornerBoxes::time`] of the `k`-th placement of corner `c` of game `g`.
    #[inline]
    pub fn time(&self, c: usize, k: usize, g: usize) -> u8 {
        let at = TIME_AT + place_at(k, c, g);
        self.0.get(at).copied().unwrap_or(FIRST_NEVER)
    }

    /// [`CornerBoxes::stone`] of the `k`-th placement of corner `c` of game `g`.
    #[inline]
    pub fn stone(&self, c: usize, k: usize, g: usize) -> u8 {
        let at = STONE_AT + place_at(k, c, g);
        self.0.get(at).copied().unwrap_or(NO_STONE)
    }

    /// The bytes of a block's corner boxes that a search for `k` stones in corner `c` reads
    /// (one of each line): the hash column, the word of undecided games, and when the
    /// region is the box itself (`whole`) the times and stones of the `k`-th and next
    /// placements.
    pub fn lines_read(c: usize, k: usize, whole: bool) -> impl Iterator<Item = usize> {
        let k = k.clamp(1, BOX_STONES);
        let column = hash_at(k, c, 0);
        let places = [k, k + 1].map(|i| place_at(i, c, 0));
        [column, column + 64, OPEN_AT + (c * BOX_STONES + k - 1) * 8]
            .into_iter()
            .chain(
                places
                    .into_iter()
                    .flat_map(|p| [TIME_AT + p, STONE_AT + p])
                    .filter(move |_| whole),
            )
    }

    /// Whether the block is well formed for games `live` (bit `g`: game `g` is searched):
    /// a box not decided for `k` stones is not decided for more, and a slot that is not
    /// live holds empty boxes.
    pub fn valid(&self, live: u64) -> bool {
        if self.0.len() != CORNER_BLOCK_BYTES {
            return false;
        }
        for c in 0..CORNERS {
            let mut before = 0u64;
            for k in 1..=BOX_STONES {
                let open = self.open(c, k);
                if open & !live != 0 || before & !open != 0 {
                    return false;
                }
                before = open;
            }
        }
        (0..BLOCK_GAMES).all(|g| {
            let b = self.get(g);
            if live >> g & 1 == 0 {
                return b == CornerBoxes::default();
            }
            // Placements in order of time, each a stone of a cell, then at most one "a
            // stone left first", then none.
            b.time.iter().zip(&b.stone).all(|(time, stone)| {
                let mut ended = false;
                let mut last = 0u8;
                time.iter().zip(stone).all(|(&t, &s)| {
                    let placed = (s as usize) < CELLS * 2;
                    let ok = if ended {
                        s == NO_STONE && t == FIRST_NEVER
                    } else if placed {
                        t != FIRST_NEVER && t >= last
                    } else {
                        (s == NO_STONE || s == LEFT_FIRST) && t == FIRST_NEVER
                    };
                    ended |= !placed;
                    last = t;
                    ok
                })
            })
        })
    }
}

/// The board point of cell `cell` of corner `c`'s box.
#[inline]
pub const fn cell_point(c: usize, cell: u8) -> Option<Point> {
    if cell as usize >= CELLS || c >= CORNERS {
        return None;
    }
    let (bx, by) = (cell % BOX, cell / BOX);
    let x = if c & 1 == 0 { bx } else { SIDE - 1 - bx };
    let y = if c & 2 == 0 { by } else { SIDE - 1 - by };
    Some(Point::new(x, y))
}

/// The stones a corner pattern asks for in corner `c`'s box: `stone(p)` is the content
/// the pattern needs on board point `p` (`None`: a wildcard, no lookup). Returns `(k, hash,
/// set)` with `k` the stones, their hash and their set (bit `cell * 2 + white`), or `None`
/// when a cell of the box is a wildcard.
pub fn pattern_key(
    c: usize,
    mut stone: impl FnMut(Point) -> Option<Stone>,
) -> Option<(u8, u16, u128)> {
    let (mut k, mut hash, mut set) = (0u8, 0u16, 0u128);
    for cell in 0..CELLS as u8 {
        match stone(cell_point(c, cell)?)? {
            Stone::Empty => {}
            s => {
                let white = s == Stone::White;
                k += 1;
                hash ^= key(cell, !white);
                set |= 1 << (cell * 2 + white as u8);
            }
        }
    }
    Some((k, hash, set))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_corner_point_has_one_cell_and_the_middle_none() {
        let mut seen = [[false; CELLS]; CORNERS];
        for y in 0..SIDE {
            for x in 0..SIDE {
                let p = Point::new(x, y);
                let near = |v: u8| !(BOX..SIDE - BOX).contains(&v);
                match box_of(p) {
                    Some((c, cell)) => {
                        assert!(near(x) && near(y));
                        assert!(!seen[c][cell as usize], "{p:?}");
                        seen[c][cell as usize] = true;
                        // The pattern side maps the cell back to the point.
                        let mut hit = None;
                        pattern_key(c, |q| {
                            if q == p {
                                hit = Some(q);
                            }
                            Some(Stone::Empty)
                        });
                        assert_eq!(hit, Some(p));
                    }
                    None => assert!(!(near(x) && near(y))),
                }
            }
        }
        assert!(seen.iter().flatten().all(|&s| s));
        assert_eq!(box_of(Point::new(19, 0)), None);
    }

    #[test]
    fn keys_are_distinct_and_never_zero() {
        for (i, a) in KEYS.iter().enumerate() {
            assert_ne!(*a, 0);
            assert!(KEYS[i + 1..].iter().all(|b| b != a));
        }
    }

    #[test]
    fn a_capture_and_a_recapture_leave_the_box_undecided_below_their_count() {
        let mut n = CornerNotes::new();
        let (b, w, e) = (Stone::Black, Stone::White, Stone::Empty);
        n.change(Point::new(3, 3), e, b, 1, false);
        n.change(Point::new(2, 3), e, w, 2, false);
        n.change(Point::new(18, 18), e, w, 4, false);
        n.change(Point::new(2, 3), w, e, 5, false);
        n.change(Point::new(2, 3), e, b, 7, false);
        let boxes = n.finish();
        // Top-left: two stones, then one (a capture): one stone is its first only.
        assert_eq!(boxes.decided[0], 0);
        assert_eq!(boxes.hash[0][0], key(24, true));
        assert_eq!(boxes.hash[0][1], key(24, true) ^ key(23, false));
        assert_eq!(boxes.hash[0][2], 0);
        assert_eq!(boxes.time[0][..3], [1, 2, FIRST_NEVER]);
        assert_eq!(boxes.stone[0][..3], [48, 47, LEFT_FIRST]);
        // Bottom-right: one white stone on its corner point, nothing left it.
        assert_eq!(boxes.decided[3], 8);
        assert_eq!(boxes.hash[3][0], key(0, false));
        assert_eq!(boxes.time[3][..2], [4, FIRST_NEVER]);
        assert_eq!(boxes.stone[3][..2], [1, NO_STONE]);
        // The others: empty.
        assert_eq!(boxes.decided[1], 8);
        assert_eq!(boxes.hash[1], [0; BOX_STONES]);
    }

    #[test]
    fn the_games_of_a_hash_are_those_a_plain_comparison_finds() {
        // Hashes with every top bit and carry pattern: equal, one apart, high bits.
        let values = [0u16, 1, 0x7fff, 0x8000, 0xffff, 0x8001, 0x1234, 0xfffe];
        let mut games = [CornerBoxes::default(); BLOCK_GAMES];
        for (g, b) in games.iter_mut().enumerate() {
            b.hash[2][4] = values[g % values.len()] ^ if g % 5 == 0 { 0x8000 } else { 0 };
        }
        let mut out = [0u8; CORNER_BLOCK_BYTES];
        assert!(encode_corner_block(&games, &mut out));
        let block = CornerBlock(&out);
        for h in values.iter().chain(&[0x9234, 0x2a2a]) {
            let want = games
                .iter()
                .enumerate()
                .filter(|(_, b)| b.hash[2][4] == *h)
                .fold(0u64, |m, (g, _)| m | 1 << g);
            assert_eq!(block.games(2, 5, *h), want, "{h:#x}");
        }
    }

    #[test]
    fn blocks_read_back_and_damage_is_seen() {
        let mut games = [CornerBoxes::default(); 5];
        for (g, b) in games.iter_mut().enumerate() {
            for c in 0..CORNERS {
                b.decided[c] = ((g + c) % 9) as u8;
                for k in 0..BOX_STONES {
                    b.hash[c][k] = (1000 * g + 100 * c + k) as u16;
                }
                // g + c placements at positions 10, 20, ..., then one left.
                for k in 0..(g + c).min(BOX_PLACED) {
                    b.time[c][k] = 10 * (k as u8 + 1);
                    b.stone[c][k] = (k * 7 + c) as u8;
                }
                if let Some(s) = b.stone[c].get_mut(g + c) {
                    *s = LEFT_FIRST;
                }
            }
        }
        let mut out = [0u8; CORNER_BLOCK_BYTES];
        assert!(encode_corner_block(&games, &mut out));
        let block = CornerBlock(&out);
        let live = 0b11111;
        assert!(block.valid(live));
        for (g, b) in games.iter().enumerate() {
            assert_eq!(block.get(g), *b);
            for c in 0..CORNERS {
                for k in 1..=BOX_STONES {
                    let open = (b.decided[c] as usize) < k;
                    assert_eq!(block.games(c, k, b.hash[c][k - 1]) >> g & 1, 1);
                    assert_eq!(block.games(c, k, 7) >> g & 1, open as u64);
                }
            }
        }
        assert_eq!(block.get(5), CornerBoxes::default());
        assert!(!encode_corner_block(
            &[CornerBoxes::default(); 65],
            &mut out
        ));
        // A slot past the games that is not empty, a box open for 2 stones but not 3.
        let mut bad = out;
        bad[hash_at(1, 0, 7)] = 1;
        assert!(!CornerBlock(&bad).valid(live));
        let mut bad = out;
        let at = OPEN_AT + 2 * 8; // corner 0, k = 3
        bad[at..at + 8].fill(0);
        assert!(!CornerBlock(&bad).valid(live));
        // A placement after "a stone left first", placements out of order.
        let mut bad = out;
        bad[STONE_AT + place_at(2, 1, 0)] = 3;
        assert!(!CornerBlock(&bad).valid(live));
        let mut bad = out;
        bad[TIME_AT + place_at(1, 0, 3)] = 200;
        assert!(!CornerBlock(&bad).valid(live));
        assert!(!CornerBlock(&out[1..]).valid(live));
    }
}
