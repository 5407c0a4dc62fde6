//! Writing files (feature `alloc`): packed records ([`BitWriter`], the writer of
//! [`super::Packed`]) and the body of sections with the container around it ([`Body`],
//! [`EncodedFile`], the writer of [`super::Container`]).

use alloc::vec;
use alloc::vec::Vec;

use serde::Serialize;

use super::{align8, Container, Crc32, FormatError, Kind, Section, PREAMBLE_LEN};

/// Fixed-width records packed little-endian, `width` bits each, as [`super::Packed`]
/// reads them.
#[derive(Clone, Debug)]
pub struct BitWriter {
    bytes: Vec<u8>,
    width: u32,
    count: u64,
    acc: u128,
    acc_bits: u32,
}

/// The bytes of a finished [`BitWriter`], padded as the readers expect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedBytes {
    /// The records, then zero bytes to the next byte and 8 more.
    pub bytes: Vec<u8>,
    /// Record width in bits.
    pub width: u32,
    /// Number of records.
    pub count: u64,
}

impl BitWriter {
    /// An empty array of `width`-bit records (1..=64; other widths are taken as the nearest).
    pub fn new(width: u32) -> BitWriter {
        BitWriter::with_capacity(width, 0)
    }

    /// An empty array of `width`-bit records with room for `records` of them.
    pub fn with_capacity(width: u32, records: usize) -> BitWriter {
        debug_assert!((1..=64).contains(&width), "record width {width}");
        let width = width.clamp(1, 64);
        BitWriter {
            bytes: Vec::with_capacity(
                records
                    .saturating_mul(width as usize)
                    .div_ceil(8)
                    .saturating_add(16),
            ),
            width,
            count: 0,
            acc: 0,
            acc_bits: 0,
        }
    }

    /// Record width in bits.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Number of records pushed.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Appends a record (its bits above `width` must be zero).
    #[inline]
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

    /// The bytes of records that fill whole 64-bit words (none left over), for a writer
    /// that packs an array in pieces ([`BitWriter::after_words`]); `None` if bits are left.
    pub fn into_words(self) -> Option<Vec<u8>> {
        (self.acc_bits == 0).then_some(self.bytes)
    }

    /// The array of `prefix_count` records already packed in `prefix` (whole 64-bit words,
    /// as [`BitWriter::into_words`] gives them) followed by the records of `tail`, as if
    /// they had all been pushed to one writer. `None` if `prefix` is not exactly
    /// `prefix_count` records of `tail`'s width in whole words.
    pub fn after_words(
        mut prefix: Vec<u8>,
        prefix_count: u64,
        tail: BitWriter,
    ) -> Option<BitWriter> {
        let bits = prefix_count.checked_mul(tail.width as u64)?;
        if !bits.is_multiple_of(64) || prefix.len() as u64 * 8 != bits {
            return None;
        }
        prefix.extend_from_slice(&tail.bytes);
        Some(BitWriter {
            bytes: prefix,
            width: tail.width,
            count: prefix_count.checked_add(tail.count)?,
            acc: tail.acc,
            acc_bits: tail.acc_bits,
        })
    }

    /// The bytes, padded as the readers expect (zero bits to the next byte, then 8 zero
    /// bytes), with the record width and count.
    pub fn finish(mut self) -> PackedBytes {
        while self.acc_bits > 0 {
            self.bytes.push(self.acc as u8);
            self.acc >>= 8;
            self.acc_bits = self.acc_bits.saturating_sub(8);
        }
        self.bytes.extend_from_slice(&[0u8; 8]);
        PackedBytes {
            bytes: self.bytes,
            width: self.width,
            count: self.count,
        }
    }
}

/// The body of a file under construction: its sections as separate pieces (never copied
/// into one buffer), with the running length and CRC-32.
#[derive(Debug, Default)]
pub struct Body {
    pieces: Vec<Vec<u8>>,
    len: usize,
    crc: Crc32,
}

impl Body {
    /// An empty body.
    pub fn new() -> Body {
        Body::default()
    }

    /// Adds packed records as a section.
    pub fn packed(&mut self, w: BitWriter) -> Section {
        let p = w.finish();
        self.raw(p.bytes, p.width, p.count)
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

    /// The body's bytes as one buffer, its sections at their offsets (for reading a part
    /// of a file before the file is made).
    pub fn to_vec(&self) -> Vec<u8> {
        self.pieces.concat()
    }

    /// The whole file: preamble, `header` (postcard), padding, body.
    pub fn file<H: Serialize>(self, kind: Kind, header: &H) -> Result<EncodedFile, FormatError> {
        let header = postcard::to_allocvec(header).map_err(|_| FormatError::BadHeader)?;
        let preamble = Container::preamble_for(kind, &header, self.len as u64, self.crc.finalize());
        let mut head = Vec::with_capacity(align8(PREAMBLE_LEN + header.len()));
        head.extend_from_slice(&preamble);
        head.extend_from_slice(&header);
        head.resize(align8(head.len()), 0);
        let mut pieces = self.pieces;
        pieces.insert(0, head);
        Ok(EncodedFile { pieces })
    }
}

/// A finished file, as the pieces to write one after the other.
#[derive(Clone, Debug)]
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

    /// The pieces, in order: written one after the other they are the file.
    pub fn pieces(&self) -> impl Iterator<Item = &[u8]> {
        self.pieces.iter().map(Vec::as_slice)
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

    fn values(width: u32, n: u64) -> Vec<u64> {
        (0..n)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - width))
            .collect()
    }

    #[test]
    fn packed_records_read_back() {
        for width in [1u32, 7, 10, 13, 32, 33, 57, 63, 64] {
            let vals = values(width, 50);
            let mut w = BitWriter::new(width);
            for &v in &vals {
                w.push(v);
            }
            let mut body = Body::new();
            let sec = body.packed(w);
            let bytes: Vec<u8> = body.pieces.concat();
            let p = sec.packed(&bytes).unwrap();
            assert_eq!(p.len(), vals.len());
            for (i, &v) in vals.iter().enumerate() {
                assert_eq!(p.get(i), Some(v), "width {width} record {i}");
            }
            // Every field at its maximum.
            let max = if width == 64 {
                u64::MAX
            } else {
                (1 << width) - 1
            };
            let mut w = BitWriter::new(width);
            (0..9).for_each(|_| w.push(max));
            let mut body = Body::new();
            let sec = body.packed(w);
            let bytes: Vec<u8> = body.pieces.concat();
            let p = sec.packed(&bytes).unwrap();
            assert!((0..9).all(|i| p.get(i) == Some(max)), "width {width}");
        }
    }

    #[test]
    fn a_writer_in_pieces_equals_one_writer() {
        for width in [1u32, 10, 13, 64] {
            let vals = values(width, 64 * 3 + 5);
            let mut one = BitWriter::new(width);
            vals.iter().for_each(|&v| one.push(v));
            let mut head = BitWriter::new(width);
            vals[..128].iter().for_each(|&v| head.push(v));
            let mut tail = BitWriter::new(width);
            vals[128..].iter().for_each(|&v| tail.push(v));
            let joined = BitWriter::after_words(head.into_words().unwrap(), 128, tail).unwrap();
            assert_eq!(joined.finish(), one.finish(), "width {width}");
        }
        let mut odd = BitWriter::new(10);
        odd.push(1);
        assert!(odd.into_words().is_none());
        assert!(BitWriter::after_words(vec![0; 8], 3, BitWriter::new(10)).is_none());
    }

    #[test]
    fn a_file_opens_as_written() {
        let mut body = Body::new();
        let mut w = BitWriter::new(9);
        (0..100).for_each(|v| w.push(v));
        let rows = body.rows(vec![7u8; 24], 12);
        let sec = body.packed(w);
        let header = (rows, sec, 42u32);
        let file = body.file(Kind::Book, &header).unwrap().to_vec();
        let c = Container::open(&file, Kind::Book).unwrap();
        let (rows, sec, n): (Section, Section, u32) = c.header().unwrap();
        assert_eq!((rows.count, rows.width_bits, n), (2, 96, 42));
        let p = sec.packed(c.body).unwrap();
        assert!((0..100).all(|i| p.get(i) == Some(i as u64)));
    }
}
