//! A deliberately simple Go board and bGo's transforms, written from
//! `docs/CONTRACTS.md` and `docs/HASH.md` and sharing no code with the core: the second, independent way of
//! computing what the tests check (next moves in `brute_force.rs`, patterns in
//! `pattern_naive.rs`).

/// An empty point of the naive board.
pub const EMPTY: u8 = 0;
/// A black stone.
pub const BLACK: u8 = 1;
/// A white stone.
pub const WHITE: u8 = 2;

/// A plain array board: `cells[y * w + x]`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Naive {
    /// Width.
    pub w: usize,
    /// Height.
    pub h: usize,
    /// `cells[y * w + x]`: [`EMPTY`], [`BLACK`] or [`WHITE`].
    pub cells: Vec<u8>,
}

impl Naive {
    /// An empty `w` x `h` board.
    pub fn new(w: usize, h: usize) -> Naive {
        Naive {
            w,
            h,
            cells: vec![EMPTY; w * h],
        }
    }

    /// Number of stones.
    pub fn stones(&self) -> usize {
        self.cells.iter().filter(|&&c| c != EMPTY).count()
    }

    /// The points next to `i`.
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        let (w, h) = (self.w, self.h);
        let (x, y) = (i % w, i / w);
        let mut v = [usize::MAX; 4];
        if x > 0 {
            v[0] = i - 1;
        }
        if x + 1 < w {
            v[1] = i + 1;
        }
        if y > 0 {
            v[2] = i - w;
        }
        if y + 1 < h {
            v[3] = i + w;
        }
        v.into_iter().filter(|&n| n != usize::MAX)
    }

    /// The group at `i` (flood fill) and whether it has a liberty.
    pub fn group(&self, i: usize) -> (Vec<usize>, bool) {
        let c = self.cells[i];
        let mut seen = vec![false; self.cells.len()];
        let mut stack = vec![i];
        let mut group = Vec::new();
        let mut free = false;
        seen[i] = true;
        while let Some(j) = stack.pop() {
            group.push(j);
            for n in self.neighbours(j) {
                if self.cells[n] == EMPTY {
                    free = true;
                } else if self.cells[n] == c && !seen[n] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        (group, free)
    }

    /// Plays a stone: opponent groups without liberties are removed, then the own group
    /// if it has none (suicide as recorded). `false` if the point is occupied.
    pub fn play(&mut self, color: u8, x: usize, y: usize) -> bool {
        let i = y * self.w + x;
        if self.cells[i] != EMPTY {
            return false;
        }
        self.cells[i] = color;
        let opp = if color == BLACK { WHITE } else { BLACK };
        let ns: Vec<usize> = self.neighbours(i).collect();
        for n in ns {
            if self.cells[n] == opp {
                let (g, free) = self.group(n);
                if !free {
                    for j in g {
                        self.cells[j] = EMPTY;
                    }
                }
            }
        }
        let (g, free) = self.group(i);
        if !free {
            for j in g {
                self.cells[j] = EMPTY;
            }
        }
        true
    }
}

/// bGo's transform `t` of (x, y) on a `w` x `h` board (table of `docs/HASH.md`);
/// `None` for transforms that a non-square board does not have.
pub fn transform(t: usize, x: usize, y: usize, w: usize, h: usize) -> Option<(usize, usize)> {
    let (mx, my) = (w - 1, h - 1);
    let square = w == h;
    match t {
        0 => Some((x, y)),
        1 => Some((mx - x, y)),
        2 => Some((x, my - y)),
        3 if square => Some((y, mx - x)),
        4 => Some((mx - x, my - y)),
        5 if square => Some((my - y, x)),
        6 if square => Some((y, x)),
        7 if square => Some((my - y, mx - x)),
        _ => None,
    }
}

/// Transforms that exist for the size.
pub fn valid(t: usize, w: usize, h: usize) -> bool {
    transform(t, 0, 0, w, h).is_some()
}
