//! Occurrences spilled to disk when they outgrow the build's memory budget (`--memory`),
//! and read back in slices of keys, each small enough to sort in memory.
//!
//! An external distribution sort: the position keys are uniform hashes, so their top bits
//! split the occurrences into [`PARTS`] partitions of about equal size. While the inputs
//! are read, a build worker whose occurrences push the build over its budget appends them
//! to the partitions' files (through small per-partition buffers) and frees them. After
//! reading, consecutive partitions are read back in key order as **slices** that fit the
//! budget; a partition too big for one is split again by the next 8 key bits, and so on.
//! Each slice is then sorted, checked and encoded like the occurrences of a build that
//! never spilled, and the slices' encodings, in key order, are the file's: the output does
//! not depend on the budget (tested).
//!
//! The files are anonymous temporary files (`O_TMPFILE` on Linux, through
//! [`crate::indexing::output::scratch_file`]) in the output's folder: they have no name, so nothing
//! is left behind whatever ends the process (success, error, a signal, SIGKILL).
//!
//! A spilled occurrence is a [`RECORD`]-byte little-endian record: key high and low
//! halves, check value (8 bytes each), the game's number among its build worker's games
//! (4 bytes), the worker's number times 8 plus the orientation (4 bytes), the next move
//! and winner ([`Occ::next`], 2 bytes), the move's number in its game (2 bytes).

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use anyhow::{Context, Result};
use rayon::prelude::*;

use crate::indexing::occurrence::Occ;

/// Key bits that choose a partition at each level.
const PART_BITS: u32 = 8;
/// Partitions per level.
pub(super) const PARTS: usize = 1 << PART_BITS;
/// Bytes of a spilled occurrence.
pub(super) const RECORD: usize = 36;
/// Bytes a worker buffers per partition before writing them.
const BUFFER: usize = 32 << 10;

/// An occurrence as spilled: the occurrence (its move number left out), the build worker
/// that replayed it, the game among that worker's (as the worker read them), and the move
/// within the game; with them the final move number is one table lookup away.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Spilled {
    /// The occurrence; its `ply` is not stored (read back as 0).
    pub occ: Occ,
    /// The build worker that replayed it (below 2^29).
    pub worker: u32,
    /// The game's number among the worker's games.
    pub game: u32,
    /// The move's number within its game.
    pub mv: u16,
}

impl Spilled {
    /// The record's bytes.
    pub fn encode(&self) -> [u8; RECORD] {
        let mut r = [0u8; RECORD];
        r[0..8].copy_from_slice(&self.occ.hi.to_le_bytes());
        r[8..16].copy_from_slice(&self.occ.lo.to_le_bytes());
        r[16..24].copy_from_slice(&self.occ.check.to_le_bytes());
        r[24..28].copy_from_slice(&self.game.to_le_bytes());
        r[28..32].copy_from_slice(&(self.worker << 3 | (self.occ.orient as u32 & 7)).to_le_bytes());
        r[32..34].copy_from_slice(&self.occ.next.to_le_bytes());
        r[34..36].copy_from_slice(&self.mv.to_le_bytes());
        r
    }

    /// The record written by [`Spilled::encode`].
    pub fn decode(r: &[u8; RECORD]) -> Spilled {
        let u64_at = |i: usize| u64::from_le_bytes(r[i..i + 8].try_into().unwrap_or([0; 8]));
        let u32_at = |i: usize| u32::from_le_bytes(r[i..i + 4].try_into().unwrap_or([0; 4]));
        let tail = u32_at(28);
        Spilled {
            occ: Occ {
                hi: u64_at(0),
                lo: u64_at(8),
                check: u64_at(16),
                ply: 0,
                orient: (tail & 7) as u8,
                next: u16::from_le_bytes([r[32], r[33]]),
            },
            worker: tail >> 3,
            game: u32_at(24),
            mv: u16::from_le_bytes([r[34], r[35]]),
        }
    }
}

/// The partition of `hi` at `level` (level 0: the top 8 bits).
fn part_of(hi: u64, level: u32) -> usize {
    let shift = 64 - PART_BITS * (level + 1);
    ((hi >> shift) as usize) & (PARTS - 1)
}

/// One partition's file and how many bytes it holds.
#[derive(Default)]
struct Part {
    file: Option<BufWriter<File>>,
    bytes: u64,
}

/// The occurrences spilled so far, in [`PARTS`] partitions of the top key bits.
pub(super) struct Spill {
    dir: PathBuf,
    parts: Vec<Mutex<Part>>,
    /// Bytes spilled.
    bytes: AtomicU64,
}

impl Spill {
    /// A spill that writes its files into `dir` (created when the first occurrence is
    /// spilled).
    pub fn new(dir: &Path) -> Spill {
        Spill {
            dir: dir.to_path_buf(),
            parts: (0..PARTS).map(|_| Mutex::new(Part::default())).collect(),
            bytes: AtomicU64::new(0),
        }
    }

    /// Bytes spilled so far.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Whether anything was spilled.
    pub fn used(&self) -> bool {
        self.bytes() > 0
    }

    /// Appends occurrences to the partitions.
    pub fn write(&self, occs: impl IntoIterator<Item = Spilled>) -> Result<()> {
        let mut buffers: Vec<Vec<u8>> = vec![Vec::new(); PARTS];
        for s in occs {
            let p = part_of(s.occ.hi, 0);
            let b = &mut buffers[p];
            if b.capacity() == 0 {
                b.reserve_exact(BUFFER);
            }
            b.extend_from_slice(&s.encode());
            if b.len() + RECORD > BUFFER {
                self.append(p, b)?;
                b.clear();
            }
        }
        for (p, b) in buffers.iter().enumerate() {
            if !b.is_empty() {
                self.append(p, b)?;
            }
        }
        Ok(())
    }

    fn append(&self, p: usize, bytes: &[u8]) -> Result<()> {
        let mut part = self.parts[p].lock().unwrap_or_else(|e| e.into_inner());
        if part.file.is_none() {
            part.file = Some(BufWriter::with_capacity(
                BUFFER,
                crate::indexing::output::scratch_file(&self.dir)?,
            ));
        }
        if let Some(f) = part.file.as_mut() {
            f.write_all(bytes).with_context(|| {
                format!("cannot write a temporary file in {}", self.dir.display())
            })?;
        }
        part.bytes += bytes.len() as u64;
        self.bytes.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        Ok(())
    }

    /// The partitions' files, in key order, ready to be read ([`Slices`]).
    pub fn finish(self, slice_bytes: u64) -> Result<Slices> {
        let mut parts = Vec::with_capacity(PARTS);
        for m in self.parts {
            let part = m.into_inner().unwrap_or_else(|e| e.into_inner());
            parts.push(match part.file {
                Some(w) => {
                    let mut f = w.into_inner().map_err(|e| e.into_error())?;
                    f.seek(SeekFrom::Start(0))?;
                    Some((f, part.bytes))
                }
                None => None,
            });
        }
        Ok(Slices {
            dir: self.dir,
            slice_bytes: slice_bytes.max(RECORD as u64),
            stack: vec![(0, parts.into_iter().rev().collect())],
        })
    }
}

/// Partitions still to read at one level: (level, the partitions in reverse key order).
type Level = (u32, Vec<Option<(File, u64)>>);

/// The spilled occurrences read back in key order, as slices of at most `slice_bytes`
/// (but for one key's occurrences, which are never split).
pub(super) struct Slices {
    dir: PathBuf,
    slice_bytes: u64,
    stack: Vec<Level>,
}

impl Slices {
    /// The next slice's records (whole partitions, in key order) through `map` (which may
    /// leave some out), or `None` at the end.
    pub fn next_slice<T: Copy + Send + Sync>(
        &mut self,
        blank: T,
        map: impl Fn(Spilled) -> Option<T> + Sync,
    ) -> Result<Option<Vec<T>>> {
        loop {
            let Some((level, parts)) = self.stack.last_mut() else {
                return Ok(None);
            };
            let level = *level;
            let Some(first) = parts.pop() else {
                self.stack.pop();
                continue;
            };
            let Some((file, bytes)) = first else { continue };
            // A partition bigger than a slice is split by the next key bits (while bits
            // remain to split by).
            if bytes > self.slice_bytes && level + 1 < 64 / PART_BITS {
                let split = self.split(file, level + 1)?;
                self.stack.push((level + 1, split));
                continue;
            }
            // Whole partitions after it, while they fit.
            let mut files: Vec<(File, u64)> = vec![(file, bytes)];
            let mut total = bytes;
            while let Some(Some((_, b))) = parts.last() {
                if total + b > self.slice_bytes {
                    break;
                }
                total += b;
                if let Some(Some(next)) = parts.pop() {
                    files.push(next);
                }
            }
            while let Some(None) = parts.last() {
                parts.pop();
            }
            let sizes: Vec<u64> = files.iter().map(|f| f.1).collect();
            // The partitions are read in parallel, each into its place; records `map`
            // leaves out are squeezed out after.
            let mut out = vec![blank; (total / RECORD as u64) as usize];
            let mut places = Vec::with_capacity(files.len());
            let mut rest: &mut [T] = &mut out;
            for (f, b) in files {
                let (head, tail) =
                    std::mem::take(&mut rest).split_at_mut((b / RECORD as u64) as usize);
                places.push((f, b, head));
                rest = tail;
            }
            let kept: Vec<Result<usize>> = places
                .into_par_iter()
                .map(|(f, b, place)| {
                    let mut n = 0;
                    read_records(f, b, |s| {
                        if let Some(t) = map(s) {
                            place[n] = t;
                            n += 1;
                        }
                    })?;
                    Ok(n)
                })
                .collect();
            let mut at = 0;
            let mut from = 0;
            for (k, b) in kept.into_iter().zip(&sizes) {
                let n = k?;
                out.copy_within(from..from + n, at);
                at += n;
                from += (*b / RECORD as u64) as usize;
            }
            out.truncate(at);
            return Ok(Some(out));
        }
    }

    /// Splits a partition's records by the key bits of `level` into new partitions, in
    /// reverse key order.
    fn split(&self, file: File, level: u32) -> Result<Vec<Option<(File, u64)>>> {
        let sub = Spill::new(&self.dir);
        let mut buffers: Vec<Vec<u8>> = vec![Vec::new(); PARTS];
        let mut failed = Ok(());
        let bytes = file.metadata()?.len();
        read_records(file, bytes, |s| {
            let p = part_of(s.occ.hi, level);
            buffers[p].extend_from_slice(&s.encode());
            if buffers[p].len() >= BUFFER && failed.is_ok() {
                failed = sub.append(p, &buffers[p]);
                buffers[p].clear();
            }
        })?;
        failed?;
        for (p, b) in buffers.iter().enumerate() {
            if !b.is_empty() {
                sub.append(p, b)?;
            }
        }
        let mut parts = sub
            .finish(self.slice_bytes)?
            .stack
            .pop()
            .map(|l| l.1)
            .unwrap_or_default();
        // (`finish` gives them in reverse order already.)
        parts.shrink_to_fit();
        Ok(parts)
    }
}

/// Reads `bytes` bytes of records from `file` (from its start).
fn read_records(file: File, bytes: u64, mut each: impl FnMut(Spilled)) -> Result<()> {
    let mut r = BufReader::with_capacity(1 << 20, file);
    let mut rec = [0u8; RECORD];
    for _ in 0..bytes / RECORD as u64 {
        r.read_exact(&mut rec)
            .context("cannot read back a temporary file")?;
        each(Spilled::decode(&rec));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn occ(i: u64) -> Occ {
        let hi = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Occ {
            hi,
            lo: !hi,
            ply: i as u32,
            orient: (i % 8) as u8,
            check: hi.rotate_left(7),
            next: (i % 4096) as u16,
        }
    }

    fn spilled(o: Occ, worker: u32) -> Spilled {
        Spilled {
            occ: Occ { ply: 0, ..o },
            worker,
            game: o.ply / 7,
            mv: (o.ply % 7) as u16,
        }
    }

    #[test]
    fn records_read_back() {
        for (i, worker) in [(0u64, 0u32), (5, 1), (u64::MAX, (1 << 29) - 1)] {
            let s = Spilled {
                occ: Occ { ply: 0, ..occ(i) },
                worker,
                game: u32::MAX - i as u32,
                mv: u16::MAX - i as u16,
            };
            assert_eq!(Spilled::decode(&s.encode()), s);
        }
    }

    /// Whatever the slice size, the slices hold every record once, in key order by
    /// partition, each slice within its size unless one key fills it.
    #[test]
    fn slices_cover_the_records_in_key_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut all: Vec<Occ> = (0..20_000).map(occ).collect();
        // One key shared by many occurrences (as the empty board is).
        all.extend((0..3_000).map(|i| Occ {
            hi: 0x1234_5678_9abc_def0,
            lo: 1,
            ply: 100_000 + i,
            orient: 0,
            check: 9,
            next: 7,
        }));
        for slice_bytes in [1u64, 64 << 10, 256 << 10, 1 << 30] {
            let spill = Spill::new(dir.path());
            let (a, b) = all.split_at(7_000);
            spill.write(a.iter().map(|&o| spilled(o, 3))).unwrap();
            spill.write(b.iter().map(|&o| spilled(o, 4))).unwrap();
            assert_eq!(spill.bytes(), all.len() as u64 * RECORD as u64);
            let mut slices = spill.finish(slice_bytes).unwrap();
            let blank = spilled(occ(0), 0);
            let mut got = Vec::new();
            let mut last_top = 0u64;
            while let Some(s) = slices.next_slice(blank, Some).unwrap() {
                let keys: std::collections::BTreeSet<(u64, u64)> =
                    s.iter().map(|r| (r.occ.hi, r.occ.lo)).collect();
                assert!(
                    s.len() as u64 * RECORD as u64 <= slice_bytes.max(RECORD as u64)
                        || keys.len() == 1,
                    "slice of {} records for {slice_bytes} bytes",
                    s.len()
                );
                let lo = s.iter().map(|r| r.occ.hi).min().unwrap();
                let hi = s.iter().map(|r| r.occ.hi).max().unwrap();
                assert!(lo >= last_top, "slices out of order");
                last_top = hi;
                got.extend(s);
            }
            assert_eq!(got.len(), all.len());
            let key = |s: &Spilled| (s.occ, s.worker, s.game, s.mv);
            let mut want: Vec<_> = all
                .iter()
                .enumerate()
                .map(|(i, &o)| key(&spilled(o, if i < 7_000 { 3 } else { 4 })))
                .collect();
            want.sort_unstable();
            let mut got: Vec<_> = got.iter().map(key).collect();
            got.sort_unstable();
            assert!(got == want, "slice size {slice_bytes}");
        }
    }
}
