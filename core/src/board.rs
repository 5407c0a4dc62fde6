//! Boards. TEMPORARY naive implementation with the agreed API, replaced by the real one.
#![allow(missing_docs)]
use crate::hash::{BgoHashes, Keys};
use crate::point::{Color, Move, Point, Size, Stone};
use crate::transform::{Transform, TransformSet};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum KoRule {
    None,
    Simple,
    PositionalSuperko,
}
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub suicide_allowed: bool,
    pub ko: KoRule,
}
impl Rules {
    pub const RECORD: Rules = Rules { suicide_allowed: true, ko: KoRule::None };
}
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum MoveError {
    OffBoard,
    Occupied,
    Suicide,
    Ko,
    Superko,
}
#[derive(Copy, Clone, Debug, Default)]
pub struct Captures {
    pub count: u16,
}
#[derive(Clone, Debug)]
pub struct Board {
    size: Size,
    rules: Rules,
    cells: [Stone; 361],
    bgo: BgoHashes,
    keys: Keys,
}
impl Board {
    pub fn with_rules(size: Size, rules: Rules) -> Board {
        Board { size, rules, cells: [Stone::Empty; 361], bgo: BgoHashes::default(), keys: Keys::default() }
    }
    pub fn new(size: Size) -> Board {
        Board::with_rules(size, Rules { suicide_allowed: false, ko: KoRule::Simple })
    }
    pub fn size(&self) -> Size {
        self.size
    }
    pub fn get(&self, p: Point) -> Stone {
        if self.size.contains(p) { self.cells[p.index19() as usize] } else { Stone::Empty }
    }
    pub fn bgo_hashes(&self) -> &BgoHashes {
        &self.bgo
    }
    pub fn keys(&self) -> &Keys {
        &self.keys
    }
    fn put(&mut self, p: Point, s: Stone) {
        let old = self.cells[p.index19() as usize];
        if let Some(c) = old.color() {
            self.bgo.toggle(c, p, self.size, -1);
            self.keys.toggle(c, p, self.size);
        }
        if let Some(c) = s.color() {
            self.bgo.toggle(c, p, self.size, 1);
            self.keys.toggle(c, p, self.size);
        }
        self.cells[p.index19() as usize] = s;
    }
    pub fn set_stone(&mut self, p: Point, s: Stone) -> Result<(), MoveError> {
        if !self.size.contains(p) {
            return Err(MoveError::OffBoard);
        }
        self.put(p, s);
        Ok(())
    }
    fn neighbours(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let (x, y) = (p.x as i16, p.y as i16);
        [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
            .into_iter()
            .filter(|&(a, b)| a >= 0 && b >= 0 && a < self.size.width() as i16 && b < self.size.height() as i16)
            .map(|(a, b)| Point::new(a as u8, b as u8))
    }
    fn group(&self, p: Point, out: &mut [bool; 361]) -> bool {
        let c = self.get(p);
        let mut stack = heapless::Vec::<Point, 361>::new();
        let _ = stack.push(p);
        out[p.index19() as usize] = true;
        let mut libs = false;
        while let Some(q) = stack.pop() {
            for n in self.neighbours(q) {
                let s = self.get(n);
                if s == Stone::Empty {
                    libs = true;
                } else if s == c && !out[n.index19() as usize] {
                    out[n.index19() as usize] = true;
                    let _ = stack.push(n);
                }
            }
        }
        libs
    }
    fn remove(&mut self, g: &[bool; 361]) -> u16 {
        let mut n = 0;
        for i in 0..361u16 {
            if g[i as usize] {
                if let Some(p) = Point::from_index19(i) {
                    self.put(p, Stone::Empty);
                    n += 1;
                }
            }
        }
        n
    }
    pub fn play(&mut self, color: Color, mv: Move) -> Result<Captures, MoveError> {
        let p = match mv {
            Move::Pass => return Ok(Captures::default()),
            Move::Play(p) => p,
        };
        if !self.size.contains(p) {
            return Err(MoveError::OffBoard);
        }
        if self.get(p) != Stone::Empty {
            return Err(MoveError::Occupied);
        }
        self.put(p, Stone::of(color));
        let mut caps = 0;
        let ns: heapless::Vec<Point, 4> = self.neighbours(p).collect();
        for n in ns {
            if self.get(n) == Stone::of(color.opponent()) {
                let mut g = [false; 361];
                if !self.group(n, &mut g) {
                    caps += self.remove(&g);
                }
            }
        }
        let mut g = [false; 361];
        if !self.group(p, &mut g) {
            if !self.rules.suicide_allowed {
                self.put(p, Stone::Empty);
                return Err(MoveError::Suicide);
            }
            caps += self.remove(&g);
        }
        Ok(Captures { count: caps })
    }
    pub fn symmetries(&self) -> TransformSet {
        let mut s = TransformSet::default();
        for &t in Transform::all_for(self.size) {
            let mut same = true;
            for i in 0..361u16 {
                if let Some(p) = Point::from_index19(i) {
                    if self.size.contains(p) && t.apply(p, self.size).map(|q| self.get(q)) != Some(self.get(p)) {
                        same = false;
                    }
                }
            }
            if same {
                s = s.with(t);
            }
        }
        s
    }
    pub fn stone_count(&self) -> u16 {
        self.cells.iter().filter(|c| **c != Stone::Empty).count() as u16
    }
}
