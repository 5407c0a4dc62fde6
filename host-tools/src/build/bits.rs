//! Writing kifudex files: packed fixed-width records and the section layout of
//! [`kifudex_core::format`].

use kifudex_core::format::{align8, Container, Kind, Section};

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

/// The body of a file under construction.
#[derive(Default)]
pub struct Body {
    bytes: Vec<u8>,
}

impl Body {
    /// Adds packed records as a section.
    pub fn packed(&mut self, w: BitWriter) -> Section {
        let (bytes, width, count) = w.finish();
        self.raw(&bytes, width, count)
    }

    /// Adds fixed-width byte rows (`width_bytes` each) as a section.
    pub fn rows(&mut self, bytes: &[u8], width_bytes: usize) -> Section {
        let count = bytes.len().checked_div(width_bytes).unwrap_or(0) as u64;
        let mut padded = bytes.to_vec();
        padded.extend_from_slice(&[0u8; 8]);
        self.raw(&padded, width_bytes as u32 * 8, count)
    }

    fn raw(&mut self, bytes: &[u8], width_bits: u32, count: u64) -> Section {
        let offset = align8(self.bytes.len());
        self.bytes.resize(offset, 0);
        self.bytes.extend_from_slice(bytes);
        Section {
            offset: offset as u64,
            len: bytes.len() as u64,
            count,
            width_bits,
        }
    }

    /// The whole file: preamble, header, padding, body.
    pub fn file(self, kind: Kind, header: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + header.len() + self.bytes.len());
        out.extend_from_slice(&Container::preamble(kind, header, &self.bytes));
        out.extend_from_slice(header);
        out.resize(align8(out.len()), 0);
        out.extend_from_slice(&self.bytes);
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
            let p = sec.packed(&body.bytes).unwrap();
            for (i, &v) in vals.iter().enumerate() {
                assert_eq!(p.get(i), Some(v));
            }
        }
    }
}
