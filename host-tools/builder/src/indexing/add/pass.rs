//! The one pass over the old index's occurrences: decoded slice by slice (in parallel),
//! their move numbers shifted past the added games' moves, the placed new positions
//! inserted (or merged into the old position they are, by move number), and each slice
//! handed to the [`IndexWriter`] with its shared positions' next moves: an old shared
//! position's from its stored row (plus the new occurrences' moves), a position that
//! becomes shared from its old occurrences' moves.

use anyhow::Result;
use kifudex_core::fingerprint::fingerprint;
use rayon::prelude::*;

use super::old::OldIndex;
use super::place::NewPosition;
use crate::indexing::occurrence::{NextCode, Occ};
use crate::indexing::write::index::{next_counts, NextCount};
use crate::indexing::write::{IndexWriter, SliceView};

/// Old move numbers to merged ones: the old games keep their order, the added games
/// are inserted between them, so an old move moves up by the added moves before its game.
pub(super) struct Shift {
    /// Old move numbers from which a shift applies (increasing; the first is 0).
    from: Vec<u64>,
    /// The shift from each.
    by: Vec<u64>,
    /// For every block of [`Shift::BLOCK`] old moves, the last `from` at or before its
    /// start (so a lookup scans a few entries, not the whole list).
    blocks: Vec<u32>,
}

impl Shift {
    /// Old moves per entry of [`Shift::blocks`] (as a power of 2).
    const BLOCK: u32 = 12;

    /// No shift yet.
    pub fn new() -> Shift {
        Shift {
            from: vec![0],
            by: vec![0],
            blocks: Vec::new(),
        }
    }

    /// From old move `from` on, old moves are `by` higher (`from` not decreasing).
    pub fn push(&mut self, from: u64, by: u64) {
        if self.by.last() == Some(&by) {
            return;
        }
        self.from.push(from);
        self.by.push(by);
    }

    /// Prepares the lookup for old move numbers below `moves`.
    pub fn finish(&mut self, moves: u64) {
        let n = (moves >> Shift::BLOCK) as usize + 1;
        let mut k = 0usize;
        self.blocks = (0..n)
            .map(|b| {
                let start = (b as u64) << Shift::BLOCK;
                while self.from.get(k + 1).is_some_and(|&f| f <= start) {
                    k += 1;
                }
                k as u32
            })
            .collect();
    }

    /// The merged number of old move `ply`.
    pub fn apply(&self, ply: u64) -> u64 {
        let mut k = match self.blocks.get((ply >> Shift::BLOCK) as usize) {
            Some(&k) => k as usize,
            None => self.from.partition_point(|&f| f <= ply).saturating_sub(1),
        };
        while self.from.get(k + 1).is_some_and(|&f| f <= ply) {
            k += 1;
        }
        ply + self.by[k]
    }
}

/// Where an output position's occurrences come from (for its next moves).
#[derive(Copy, Clone)]
enum Source {
    /// An old position: its occurrences `start..end` in the old index, its shared row.
    Old(usize, usize, Option<usize>),
    /// A new position (index into the new positions).
    New(usize),
    /// An old position (as [`Source::Old`]) and the new one that is the same.
    Both(usize, usize, Option<usize>, usize),
}

/// The pass's inputs.
pub(super) struct Pass<'a> {
    /// The old index.
    pub old: &'a OldIndex<'a>,
    /// Its move numbers to the merged ones.
    pub shift: &'a Shift,
    /// The added occurrences (merged move numbers), by position.
    pub new_occs: &'a [Occ],
    /// The added positions, in key order, placed.
    pub new: &'a [NewPosition],
    /// Positions with at least this many occurrences are shared.
    pub shared_min: u32,
    /// Old occurrences per slice (about).
    pub slice: usize,
}

impl Pass<'_> {
    /// Writes every occurrence through `w`, slice by slice; returns the number of
    /// positions with more than one occurrence (what the build's collision check counts).
    /// The next slice is decoded and assembled while `w` encodes and writes the last.
    pub fn run(&self, w: &mut IndexWriter) -> Result<u64> {
        let mut repeated = 0u64;
        // Buffers go round (a fresh one would be faulted in again for every slice).
        let mut spare = Buffers::default();
        let mut next = Some(self.slice_from(0, 0, Buffers::default())?);
        while let Some(mut s) = next.take() {
            repeated += s.out.repeated;
            let view = SliceView {
                occs: &s.out.occs,
                groups: &s.out.groups,
            };
            let buffers = std::mem::take(&mut spare);
            let (following, added) = rayon::join(
                || {
                    (!s.last)
                        .then(|| self.slice_from(s.end, s.new_end, buffers))
                        .transpose()
                },
                || w.add_with(&view, || self.next_moves(&s.out.sources)),
            );
            added?;
            spare = Buffers {
                decoded: std::mem::take(&mut s.decoded),
                occs: std::mem::take(&mut s.out.occs),
            };
            next = following?;
        }
        Ok(repeated)
    }

    /// The slice of the merged occurrences from old occurrence `a` (which starts a
    /// position) and new position `j` on, in `buffers`.
    fn slice_from(&self, a: usize, j: usize, buffers: Buffers) -> Result<Slice> {
        let n = self.old.occurrences() as usize;
        let mut b = (a + self.slice.max(1)).min(n);
        while b < n && !self.old.starts_position(b) {
            b += 1;
        }
        let last = b == n;
        let Buffers { mut decoded, occs } = buffers;
        let starts = self.decode(a..b, &mut decoded);
        let new_end = if last {
            self.new.len()
        } else {
            j + self.new[j..].partition_point(|p| p.at < b)
        };
        let out = self.assemble(a, b, &decoded, &starts, &self.new[j..new_end], j, occs)?;
        Ok(Slice {
            out,
            decoded,
            end: b,
            new_end,
            last,
        })
    }

    /// Decodes old occurrences `range` into `out` in parallel; returns their position
    /// starts.
    fn decode(&self, range: std::ops::Range<usize>, out: &mut Vec<Occ>) -> Vec<usize> {
        const PIECE: usize = 1 << 16;
        out.clear();
        out.resize(range.len(), Occ::ZERO);
        let base = range.start;
        let end = range.end;
        let starts: Vec<Vec<usize>> = out
            .par_chunks_mut(PIECE)
            .enumerate()
            .map(|(k, piece)| {
                let s = base + k * PIECE;
                let e = (s + PIECE).min(end);
                self.old.decode(s..e, piece, |p| self.shift.apply(p))
            })
            .collect();
        starts.concat()
    }

    /// The slice of old occurrences `a..b` (`decoded`, positions starting at `starts`)
    /// with the new positions `new` (the first is new position `j0`) put in (into `occs`,
    /// a buffer to reuse).
    #[allow(clippy::too_many_arguments)]
    fn assemble(
        &self,
        a: usize,
        b: usize,
        decoded: &[Occ],
        starts: &[usize],
        new: &[NewPosition],
        j0: usize,
        mut occs: Vec<Occ>,
    ) -> Result<Assembled> {
        let added: usize = new.iter().map(|p| p.occs.len()).sum();
        occs.clear();
        occs.reserve(decoded.len() + added);
        let mut out = Assembled {
            occs,
            groups: Vec::with_capacity(starts.len() + new.len() + 1),
            sources: Vec::new(),
            repeated: 0,
            min: self.shared_min as usize,
            next_old: 0,
            copied: a,
            shared_row: self.old.first_shared_row(a),
        };
        let old = OldSlice {
            index: self.old,
            a,
            b,
            decoded,
            starts,
        };
        for (k, p) in new.iter().enumerate() {
            let at = p.at.clamp(out.copied, b);
            out.copy_old(&old, at)?;
            let mine = &self.new_occs[p.occs.clone()];
            let gi = out.groups.len();
            out.groups.push(out.occs.len() as u32);
            let s = out.next_old;
            if p.joins && starts.get(s) == Some(&at) {
                // The old position and the new occurrences, by move number.
                let (ps, pe) = (at, old.end_of(s));
                let theirs = &decoded[ps - a..pe - a];
                let (mut x, mut y) = (0, 0);
                while x < theirs.len() || y < mine.len() {
                    let take_old =
                        y == mine.len() || (x < theirs.len() && theirs[x].ply < mine[y].ply);
                    if take_old {
                        out.occs.push(Occ {
                            hi: fingerprint(p.key),
                            ..theirs[x]
                        });
                        x += 1;
                    } else {
                        out.occs.push(mine[y]);
                        y += 1;
                    }
                }
                if pe - ps + mine.len() >= out.min {
                    let row = self.old.shared_row(&mut out.shared_row, ps, pe);
                    out.sources.push((gi, Source::Both(ps, pe, row, j0 + k)));
                }
                out.repeated += 1;
                out.next_old += 1;
                out.copied = pe;
            } else {
                out.occs.extend_from_slice(mine);
                if mine.len() >= out.min {
                    out.sources.push((gi, Source::New(j0 + k)));
                }
                out.repeated += (mine.len() > 1) as u64;
            }
        }
        out.copy_old(&old, b)?;
        out.groups.push(out.occs.len() as u32);
        Ok(out)
    }

    /// The next moves of the slice's shared positions (`sources`: each with where its
    /// occurrences come from), in parallel.
    fn next_moves(&self, sources: &[(usize, Source)]) -> Vec<(usize, Vec<NextCount>)> {
        sources
            .par_iter()
            .map(|&(gi, src)| {
                let rows = match src {
                    Source::Old(s, e, row) => self.old.next_moves(s, e, row),
                    Source::New(j) => self.new_next(j),
                    Source::Both(s, e, row, j) => {
                        add_rows(self.old.next_moves(s, e, row), self.new_next(j))
                    }
                };
                (gi, rows)
            })
            .collect()
    }

    /// The next moves of new position `j`'s occurrences.
    fn new_next(&self, j: usize) -> Vec<NextCount> {
        let mut codes: Vec<NextCode> = self.new_occs[self.new[j].occs.clone()]
            .iter()
            .map(Occ::next_code)
            .collect();
        next_counts(&mut codes)
    }
}

/// A slice of the merged occurrences, ready for the writer.
struct Slice {
    out: Assembled,
    /// The old occurrences as decoded (a buffer to reuse).
    decoded: Vec<Occ>,
    /// The old occurrence after it.
    end: usize,
    /// The new position after it.
    new_end: usize,
    /// Whether it is the last.
    last: bool,
}

/// Buffers of a slice, reused.
#[derive(Default)]
struct Buffers {
    decoded: Vec<Occ>,
    occs: Vec<Occ>,
}

/// A slice of decoded old occurrences `a..b` with its position starts.
struct OldSlice<'a> {
    index: &'a OldIndex<'a>,
    a: usize,
    b: usize,
    decoded: &'a [Occ],
    starts: &'a [usize],
}

impl OldSlice<'_> {
    /// The end of the old position `starts[s]`.
    fn end_of(&self, s: usize) -> usize {
        self.starts.get(s + 1).copied().unwrap_or(self.b)
    }
}

/// A slice of the merged occurrences being assembled.
struct Assembled {
    occs: Vec<Occ>,
    /// Where each position starts in `occs` (then the total, once assembled).
    groups: Vec<u32>,
    /// The positions to be shared (by number) and where their occurrences come from.
    sources: Vec<(usize, Source)>,
    /// Positions with more than one occurrence.
    repeated: u64,
    /// Positions of at least this many occurrences are shared.
    min: usize,
    /// The next old position not yet copied (index into the slice's starts).
    next_old: usize,
    /// The next old occurrence not yet copied.
    copied: usize,
    /// A shared row of the old index at or before the next old position.
    shared_row: usize,
}

impl Assembled {
    /// Copies the old positions from the last copied up to occurrence `until`.
    /// A shared position's first occurrence gets its whole fingerprint (the shared table
    /// keeps it; the old occurrences only carry their kept bits).
    fn copy_old(&mut self, old: &OldSlice, until: usize) -> Result<()> {
        let from = self.copied;
        let mut shared = Vec::new();
        while self.next_old < old.starts.len() && old.starts[self.next_old] < until {
            let s = self.next_old;
            let (ps, pe) = (old.starts[s], old.end_of(s));
            let at = self.occs.len() + (ps - from);
            if pe - ps >= self.min {
                let row = old.index.shared_row(&mut self.shared_row, ps, pe);
                self.sources
                    .push((self.groups.len(), Source::Old(ps, pe, row)));
                shared.push((at, ps, row));
            }
            self.repeated += (pe - ps > 1) as u64;
            self.groups.push(at as u32);
            self.next_old += 1;
        }
        self.occs
            .extend_from_slice(&old.decoded[from - old.a..until - old.a]);
        self.copied = until;
        for (at, ps, row) in shared {
            self.occs[at].hi = old.index.fingerprint(ps, row).ok_or_else(|| {
                anyhow::anyhow!("occurrence {ps} of the index cannot be replayed")
            })?;
        }
        Ok(())
    }
}

/// Two lists of next moves (each by code) added up, by code.
fn add_rows(a: Vec<NextCount>, b: Vec<NextCount>) -> Vec<NextCount> {
    let mut all = a;
    all.extend(b);
    all.sort_unstable_by_key(|r| r.0);
    let mut out: Vec<NextCount> = Vec::with_capacity(all.len());
    for (code, c) in all {
        match out.last_mut() {
            Some((last, sum)) if *last == code => {
                for (s, v) in sum.iter_mut().zip(c) {
                    *s = s.saturating_add(v);
                }
            }
            _ => out.push((code, c)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block table gives what a search of the whole list gives, at every boundary.
    #[test]
    fn shifts_match_a_plain_search() {
        let mut s = Shift::new();
        let steps = [
            (0u64, 3u64),
            (5, 7),
            (5, 9),
            (4096, 10),
            (4097, 20),
            (20000, 21),
        ];
        for &(from, by) in &steps {
            s.push(from, by);
        }
        s.finish(30000);
        for ply in (0..30000).chain([4095, 4096, 4097, 8191, 8192]) {
            let want = steps
                .iter()
                .filter(|&&(f, _)| f <= ply)
                .map(|&(_, b)| b)
                .max()
                .unwrap_or(0);
            assert_eq!(s.apply(ply), ply + want, "{ply}");
        }
        // Past the table: still right.
        assert_eq!(s.apply(1 << 20), (1 << 20) + 21);
    }
}
