//! Packed arrays of fixed-width records and byte rows, read in place (see the container in
//! [`super`]); their writer is [`super::BitWriter`] (feature `alloc`).

use super::{FormatError, Section};

/// A read-only array of `len` records of `width` bits each, packed little-endian: record
/// `i` occupies bits `i * width .. (i + 1) * width` of the byte string read as one
/// little-endian number. Validated at construction ([`Section::packed`]) so that every
/// index below `len` can be read with one 8-byte load.
#[derive(Copy, Clone, Debug)]
pub struct Packed<'a> {
    bytes: &'a [u8],
    width: u32,
    len: usize,
}

impl<'a> Packed<'a> {
    /// The array of `len` records of `width` bits in `bytes` (checked by
    /// [`Section::packed`]).
    pub(super) const fn new(bytes: &'a [u8], width: u32, len: usize) -> Packed<'a> {
        Packed { bytes, width, len }
    }

    /// An empty array.
    pub const EMPTY: Packed<'static> = Packed {
        bytes: &[],
        width: 8,
        len: 0,
    };

    /// Number of records.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no records.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Width of a record in bits.
    #[inline]
    pub const fn width(&self) -> u32 {
        self.width
    }

    /// Record `i`, or `None` past the end.
    #[inline]
    pub fn get(&self, i: usize) -> Option<u64> {
        if i >= self.len {
            return None;
        }
        let w = self.width;
        // In `usize`: 32-bit arithmetic on a microcontroller (a record's bit offset past
        // `usize` cannot be inside the slice anyway).
        let bit = i.checked_mul(w as usize)?;
        let byte = bit / 8;
        let shift = (bit % 8) as u32;
        if w + shift <= 32 {
            // Most records (moves, next moves, offsets) fit one 32-bit word.
            let b: &[u8; 4] = self.bytes.get(byte..byte + 4)?.try_into().ok()?;
            let v = u32::from_le_bytes(*b) >> shift;
            Some(if w == 32 { v } else { v & ((1u32 << w) - 1) } as u64)
        } else if w + shift <= 64 {
            let b = self.bytes.get(byte..byte + 8)?;
            let mut a = [0u8; 8];
            a.copy_from_slice(b);
            let v = u64::from_le_bytes(a) >> shift;
            Some(if w == 64 { v } else { v & ((1u64 << w) - 1) })
        } else {
            // A record straddling 9 bytes (only for widths above 56 bits).
            let b = self.bytes.get(byte..byte + 9)?;
            let mut a = [0u8; 16];
            a[..9].copy_from_slice(b);
            let v = (u128::from_le_bytes(a) >> shift) as u64;
            Some(if w == 64 { v } else { v & ((1u64 << w) - 1) })
        }
    }

    /// Record `i`, or 0 past the end (for loops whose bounds were already checked).
    #[inline]
    pub fn at(&self, i: usize) -> u64 {
        self.get(i).unwrap_or(0)
    }

    /// The index of the first record in `lo..hi` for which `pred` is false, assuming
    /// `pred` is true then false over that range (a binary search).
    #[inline]
    pub fn partition_point(
        &self,
        mut lo: usize,
        mut hi: usize,
        mut pred: impl FnMut(u64) -> bool,
    ) -> usize {
        hi = hi.min(self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if pred(self.at(mid)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

impl Packed<'_> {
    /// Whether the array is a column of starts into `total` records (one more entry than
    /// the things it indexes): it starts at 0, never decreases and ends at `total`.
    pub fn is_offsets_of(&self, total: u64) -> bool {
        let n = self.len;
        if n == 0 || self.at(0) != 0 || self.at(n - 1) != total {
            return false;
        }
        let (mut prev, mut seen) = (0, 0);
        self.for_each_in(0..n, |_, v| {
            let ok = v >= prev;
            prev = v;
            seen += ok as usize;
            ok
        });
        seen == n
    }

    /// Whether the first entry is 0 and the last `total` (what a column of starts announces,
    /// checked in constant time when a file is opened; [`Packed::is_offsets_of`] checks the
    /// rest).
    pub fn ends_are(&self, total: u64) -> bool {
        self.at(0) == 0 && self.at(self.len.saturating_sub(1)) == total
    }
}

impl<'a> Packed<'a> {
    /// Records `range` in order (ending early past the end): one 8-byte load gives several
    /// records, for scanning long runs such as a game's moves.
    pub fn iter_range(&self, range: core::ops::Range<usize>) -> PackedIter<'a> {
        let end = range.end.min(self.len);
        PackedIter {
            wide: *self,
            next: range.start,
            end,
            buf: 0,
            in_buf: 0,
        }
    }
}

impl Packed<'_> {
    /// Calls `f(i, record)` for the records `i` of `range` in order until it returns
    /// `false`: a tight loop that reads several records per 8-byte load.
    #[inline]
    pub fn for_each_in(
        &self,
        range: core::ops::Range<usize>,
        mut f: impl FnMut(usize, u64) -> bool,
    ) {
        let end = range.end.min(self.len);
        let w = self.width;
        let mut i = range.start;
        if w == 0 || w > 56 {
            while i < end {
                if !f(i, self.at(i)) {
                    return;
                }
                i += 1;
            }
            return;
        }
        let mask = (1u64 << w) - 1;
        while i < end {
            let bit = i.saturating_mul(w as usize);
            let (byte, shift) = (bit / 8, (bit % 8) as u32);
            let Some(b) = self.bytes.get(byte..byte + 8) else {
                return;
            };
            let mut a = [0u8; 8];
            a.copy_from_slice(b);
            let mut word = u64::from_le_bytes(a) >> shift;
            let take = (((64 - shift) / w) as usize).min(end - i);
            for _ in 0..take {
                if !f(i, word & mask) {
                    return;
                }
                word >>= w;
                i += 1;
            }
        }
    }
}

/// The iterator of [`Packed::iter_range`].
#[derive(Clone, Debug)]
pub struct PackedIter<'a> {
    wide: Packed<'a>,
    /// The next record to return.
    next: usize,
    end: usize,
    /// Records `next..next + in_buf`, lowest first.
    buf: u64,
    in_buf: u32,
}

impl PackedIter<'_> {
    /// Loads the records from `next` on that one 8-byte load holds.
    #[inline]
    fn refill(&mut self) -> bool {
        let w = self.wide.width;
        if w == 0 || w > 56 {
            return false;
        }
        let Some(bit) = self.next.checked_mul(w as usize) else {
            return false;
        };
        let (byte, shift) = (bit / 8, (bit % 8) as u32);
        let Some(b) = self.wide.bytes.get(byte..byte + 8) else {
            return false;
        };
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        self.buf = u64::from_le_bytes(a) >> shift;
        self.in_buf = (64 - shift) / w;
        true
    }
}

impl Iterator for PackedIter<'_> {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        if self.next >= self.end {
            return None;
        }
        if self.in_buf == 0 && !self.refill() {
            let v = self.wide.get(self.next);
            self.next += 1;
            return v;
        }
        let w = self.wide.width;
        let v = self.buf & ((1u64 << w) - 1);
        self.buf >>= w;
        self.in_buf -= 1;
        self.next += 1;
        Some(v)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.end.saturating_sub(self.next);
        (n, Some(n))
    }
}

/// Extracts the bit field `[shift, shift + bits)` of `v`.
#[inline(always)]
pub const fn field(v: u64, shift: u32, bits: u32) -> u64 {
    if bits == 0 || shift >= 64 {
        0
    } else if bits >= 64 {
        v >> shift
    } else {
        (v >> shift) & ((1u64 << bits) - 1)
    }
}

/// A named bit field of a packed record: `bits` bits from bit `shift`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's first bit.
    pub shift: u32,
    /// Its width in bits (0 to 64).
    pub bits: u32,
}

impl Field {
    /// The field of `bits` bits at `shift`.
    pub const fn new(shift: u32, bits: u32) -> Field {
        Field { shift, bits }
    }

    /// The field right after this one, `bits` wide.
    pub const fn then(self, bits: u32) -> Field {
        Field::new(self.shift + self.bits, bits)
    }

    /// The first bit after the field.
    pub const fn end(self) -> u32 {
        self.shift + self.bits
    }

    /// The largest value the field holds.
    pub const fn max(self) -> u64 {
        if self.bits >= 64 {
            u64::MAX
        } else {
            (1u64 << self.bits) - 1
        }
    }

    /// The field's value in record `v`.
    #[inline(always)]
    pub const fn get(self, v: u64) -> u64 {
        field(v, self.shift, self.bits)
    }

    /// `x` in place in a record (to OR with the other fields). `x` must fit the field
    /// (at most [`Field::max`]); wider bits would spill into the next field, as encoders
    /// are written not to do (their loopback tests and the readers' validation would
    /// show it).
    #[inline(always)]
    pub const fn put(self, x: u64) -> u64 {
        debug_assert!(x <= self.max(), "value wider than its field");
        if self.shift >= 64 {
            0
        } else {
            x << self.shift
        }
    }
}

/// Number of bits needed to hold `max` (at least 1).
pub const fn bits_for(max: u64) -> u32 {
    if max == 0 {
        1
    } else {
        64 - max.leading_zeros()
    }
}

/// The little-endian `u32` at byte `at` of `row` (0 where the row is too short).
#[inline]
pub fn le_u32(row: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    if let Some(b) = row.get(at..at + 4) {
        a.copy_from_slice(b);
    }
    u32::from_le_bytes(a)
}

/// The little-endian `u64` at byte `at` of `row` (0 where the row is too short).
#[inline]
pub fn le_u64(row: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    if let Some(b) = row.get(at..at + 8) {
        a.copy_from_slice(b);
    }
    u64::from_le_bytes(a)
}

/// The byte at `at` of `row` (0 where the row is too short).
#[inline]
pub fn byte_at(row: &[u8], at: usize) -> u8 {
    row.get(at).copied().unwrap_or(0)
}

/// A section of byte rows of a fixed width, read in place.
#[derive(Copy, Clone, Debug)]
pub struct Rows<'a> {
    bytes: &'a [u8],
    width: usize,
    len: usize,
}

impl<'a> Rows<'a> {
    /// The rows of `sec` in `body`, each `width` bytes (the section's record width must say
    /// so).
    pub fn new(sec: &Section, body: &'a [u8], width: usize) -> Result<Rows<'a>, FormatError> {
        if sec.width_bits as usize != width * 8 {
            return Err(FormatError::BadSection);
        }
        let bytes = sec.slice(body)?;
        let len = usize::try_from(sec.count).map_err(|_| FormatError::BadSection)?;
        Ok(Rows { bytes, width, len })
    }

    /// Number of rows.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no rows.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Row `i`, or `None` past the end.
    #[inline]
    pub fn row(&self, i: usize) -> Option<&'a [u8]> {
        if i >= self.len {
            return None;
        }
        let start = i.checked_mul(self.width)?;
        self.bytes.get(start..start + self.width)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_put_and_get() {
        let a = Field::new(0, 9);
        let b = a.then(1);
        let c = b.then(54);
        assert_eq!((b.shift, c.shift, c.end()), (9, 10, 64));
        let v = a.put(361) | b.put(1) | c.put(c.max());
        assert_eq!((a.get(v), b.get(v), c.get(v)), (361, 1, (1 << 54) - 1));
        assert_eq!(Field::new(0, 64).put(u64::MAX), u64::MAX);
        assert_eq!(Field::new(3, 0).put(0), 0);
        assert_eq!(Field::new(64, 0).put(0), 0);
    }

    fn pack(values: &[u64], width: u32, out: &mut [u8]) -> usize {
        let n = Section::bytes_needed(values.len() as u64, width).unwrap() as usize;
        for (i, &v) in values.iter().enumerate() {
            for b in 0..width {
                if v >> b & 1 == 1 {
                    let bit = i * width as usize + b as usize;
                    out[bit / 8] |= 1 << (bit % 8);
                }
            }
        }
        n
    }

    #[test]
    fn packed_roundtrip_all_widths() {
        let mut buf = [0u8; 2048];
        for width in 1..=64u32 {
            buf.iter_mut().for_each(|b| *b = 0);
            let mask = if width == 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            let mut vals = [0u64; 100];
            let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ width as u64;
            for v in vals.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *v = x & mask;
            }
            let n = pack(&vals, width, &mut buf);
            let sec = Section {
                offset: 0,
                len: n as u64,
                count: 100,
                width_bits: width,
            };
            let p = sec.packed(&buf[..n]).unwrap();
            for (i, v) in vals.iter().enumerate() {
                assert_eq!(p.get(i), Some(*v), "width {width} record {i}");
            }
            assert_eq!(p.get(100), None);
            // Sequential reads agree with random access, whatever the range.
            for (s, e) in [(0, 100), (37, 61), (99, 140), (5, 5)] {
                assert!(
                    p.iter_range(s..e).eq((s..e.min(100)).map(|i| p.at(i))),
                    "{width}"
                );
                let mut seen = 0;
                p.for_each_in(s..e, |i, v| {
                    assert_eq!((i, v), (s + seen, p.at(s + seen)), "{width}");
                    seen += 1;
                    true
                });
                assert_eq!(seen, e.min(100).saturating_sub(s));
            }
        }
    }
}
