//! Writing kifudex files: packed fixed-width records and the section layout of
//! [`kifudex_core::format`].

use std::ops::Range;

use kifudex_core::format::{align8, Container, Kind, Section, PREAMBLE_LEN};
use rayon::prelude::*;

/// Records per piece of [`BitWriter::pack_parallel`]: a multiple of 64, so that every
/// piece but the last fills whole 64-bit words whatever the record width.
const PACK_CHUNK: usize = 1 << 16;

/// Fixed-width records packed little-endian, `width` bits each.
pub struct BitWriter {
    bytes: Vec<u8>,
    width: u32,
    count: u64,
    acc: u128,
    acc_bits: u32,
}

impl BitWriter {
    /// An empty array of `width`-bit records (1..=64).
    pub fn new(width: u32) -> BitWriter {
        BitWriter::with_capacity(width, 0)
    }

    /// An empty array of `width`-bit records with room for `records` of them.
    pub fn with_capacity(width: u32, records: usize) -> BitWriter {
        assert!((1..=64).contains(&width), "record width {width}");
        BitWriter {
            bytes: Vec::with_capacity((records * width as usize).div_ceil(8) + 16),
            width,
            count: 0,
            acc: 0,
            acc_bits: 0,
        }
    }

    /// `count` records of `width` bits packed in parallel, the same bytes as pushing them
    /// one by one: `fill(range, w)` pushes the records of `range` to `w`, for ranges of
    /// [`PACK_CHUNK`] records (the last one shorter).
    pub fn pack_parallel<F>(width: u32, count: usize, fill: F) -> BitWriter
    where
        F: Fn(Range<usize>, &mut BitWriter) + Sync,
    {
        let piece = |r: Range<usize>| {
            let mut w = BitWriter::with_capacity(width, r.len());
            let n = r.len() as u64;
            fill(r, &mut w);
            assert_eq!(w.count, n, "records pushed for a piece");
            w
        };
        if count <= PACK_CHUNK {
            return piece(0..count);
        }
        // Every full piece is exactly `chunk_bytes` long (its bits fill whole words).
        let full = (count - 1) / PACK_CHUNK;
        let chunk_bytes = PACK_CHUNK * width as usize / 8;
        let last_start = full * PACK_CHUNK;
        let mut bytes = Vec::with_capacity((count * width as usize).div_ceil(8) + 16);
        bytes.resize(full * chunk_bytes, 0);
        let ((), last) = rayon::join(
            || {
                bytes
                    .par_chunks_mut(chunk_bytes)
                    .enumerate()
                    .for_each(|(k, out)| {
                        let w = piece(k * PACK_CHUNK..(k + 1) * PACK_CHUNK);
                        out.copy_from_slice(&w.bytes);
                    })
            },
            || piece(last_start..count),
        );
        bytes.extend_from_slice(&last.bytes);
        BitWriter {
            bytes,
            width,
            count: count as u64,
            acc: last.acc,
            acc_bits: last.acc_bits,
        }
    }

    /// Appends a record (its bits above `width` must be zero).
    pub fn push(&mut self, v: u64) {
        debug_assert!(
            self.width == 64 || v >> self.width == 0,
            "value {v} wider than {} bits",
            self.width
        );
        self.acc |= (v as u128) << self.acc_bits;
        self.acc_bits += self.width;
        if self.acc_bits >= 64 {
            self.bytes
                .extend_from_slice(&(self.acc as u64).to_le_bytes());
            self.acc >>= 64;
            self.acc_bits -= 64;
        }
        self.count += 1;
    }

    /// The bytes, padded as the readers expect, with the record width and count.
    pub fn finish(mut self) -> (Vec<u8>, u32, u64) {
        while self.acc_bits > 0 {
            self.bytes.push(self.acc as u8);
            self.acc >>= 8;
            self.acc_bits = self.acc_bits.saturating_sub(8);
        }
        self.bytes.extend_from_slice(&[0u8; 8]);
        (self.bytes, self.width, self.count)
    }
}

/// The body of a file under construction: its sections as separate pieces (never copied
/// into one buffer), with the running length and CRC-32.
#[derive(Default)]
pub struct Body {
    pieces: Vec<Vec<u8>>,
    len: usize,
    crc: crc32fast::Hasher,
}

impl Body {
    /// Adds packed records as a section.
    pub fn packed(&mut self, w: BitWriter) -> Section {
        let (bytes, width, count) = w.finish();
        self.raw(bytes, width, count)
    }

    /// Adds fixed-width byte rows (`width_bytes` each) as a section.
    pub fn rows(&mut self, mut bytes: Vec<u8>, width_bytes: usize) -> Section {
        let count = bytes.len().checked_div(width_bytes).unwrap_or(0) as u64;
        bytes.extend_from_slice(&[0u8; 8]);
        self.raw(bytes, width_bytes as u32 * 8, count)
    }

    fn raw(&mut self, bytes: Vec<u8>, width_bits: u32, count: u64) -> Section {
        let offset = align8(self.len);
        if offset > self.len {
            let pad = vec![0u8; offset - self.len];
            self.crc.update(&pad);
            self.pieces.push(pad);
        }
        self.crc.update(&bytes);
        self.len = offset + bytes.len();
        let section = Section {
            offset: offset as u64,
            len: bytes.len() as u64,
            count,
            width_bits,
        };
        self.pieces.push(bytes);
        section
    }

    /// The whole file: preamble, header, padding, body.
    pub fn file(self, kind: Kind, header: Vec<u8>) -> EncodedFile {
        let preamble = Container::preamble_for(kind, &header, self.len as u64, self.crc.finalize());
        let mut head = Vec::with_capacity(align8(PREAMBLE_LEN + header.len()));
        head.extend_from_slice(&preamble);
        head.extend_from_slice(&header);
        head.resize(align8(head.len()), 0);
        let mut pieces = self.pieces;
        pieces.insert(0, head);
        EncodedFile { pieces }
    }
}

/// A finished file, as the pieces to write one after the other.
pub struct EncodedFile {
    pieces: Vec<Vec<u8>>,
}

impl EncodedFile {
    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.pieces.iter().map(Vec::len).sum()
    }

    /// Whether the file is empty (never, for a finished file).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes the file to `w`.
    pub fn write_to(&self, w: &mut impl std::io::Write) -> std::io::Result<()> {
        for p in &self.pieces {
            w.write_all(p)?;
        }
        Ok(())
    }

    /// The file as one buffer.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len());
        for p in &self.pieces {
            out.extend_from_slice(p);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifudex_core::format::Section;

    #[test]
    fn packed_matches_the_core_reader() {
        for width in [1u32, 7, 10, 13, 32, 33, 57, 64] {
            let mut w = BitWriter::new(width);
            let vals: Vec<u64> = (0..50u64)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - width))
                .collect();
            for &v in &vals {
                w.push(v);
            }
            let mut body = Body::default();
            let sec: Section = body.packed(w);
            let bytes = body.pieces.concat();
            let p = sec.packed(&bytes).unwrap();
            for (i, &v) in vals.iter().enumerate() {
                assert_eq!(p.get(i), Some(v));
            }
        }
    }

    #[test]
    fn packing_in_parallel_gives_the_same_bytes() {
        for width in [1u32, 10, 13, 32, 57, 64] {
            for count in [
                0,
                5,
                PACK_CHUNK,
                PACK_CHUNK + 1,
                3 * PACK_CHUNK - 7,
                3 * PACK_CHUNK,
            ] {
                let val = |i: usize| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - width);
                let mut one = BitWriter::new(width);
                for i in 0..count {
                    one.push(val(i));
                }
                let par = BitWriter::pack_parallel(width, count, |r, w| {
                    for i in r {
                        w.push(val(i));
                    }
                });
                assert!(
                    one.finish() == par.finish(),
                    "width {width}, {count} records"
                );
            }
        }
    }
}
