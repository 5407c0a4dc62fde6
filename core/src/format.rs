//! The container shared by kifudex's files (the desktop index and the microcontroller
//! book): a fixed preamble, a postcard header, and sections of fixed-width records that
//! are read in place, zero-copy, without allocation.
//!
//! ```text
//! offset  size  field
//! 0       8     magic  b"KIFUDEX\x1a"
//! 8       4     u32 LE format version (FORMAT_VERSION)
//! 12      4     u32 LE kind (1 = index, 2 = book)
//! 16      4     u32 LE header length H
//! 20      4     u32 LE CRC-32 (IEEE) of the header bytes
//! 24      8     u64 LE body length B
//! 32      4     u32 LE CRC-32 (IEEE) of the body bytes
//! 36      4     zero (checked: a reader refuses any other value)
//! 40      H     header (postcard)
//! ..            zero padding to a multiple of 8 (checked likewise)
//! body    B     sections, each at an 8-aligned offset from the body start
//! ```
//!
//! Every multi-byte number is little-endian, whatever the machine. A reader checks the
//! magic, version, kind, both checksums and every section's bounds and record count before
//! it hands out a single record, so a truncated, corrupted or hostile file is an error
//! value, never a panic or an out-of-bounds read. `docs/FORMAT.md` describes each kind.

use serde::{Deserialize, Serialize};

/// The first 8 bytes of every kifudex file.
pub const MAGIC: [u8; 8] = *b"KIFUDEX\x1a";
/// The container and section layout version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Size of the fixed preamble before the header.
pub const PREAMBLE_LEN: usize = 40;

/// What a kifudex file holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u32)]
pub enum Kind {
    /// A desktop index: positions, next moves, games and their moves.
    Index = 1,
    /// A microcontroller book: position keys and next-move counts only.
    Book = 2,
}

/// Why a file was refused. A fieldless code, so it fits a one-word reply on a
/// microcontroller (see [`FormatError::as_str`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum FormatError {
    /// Shorter than the preamble, or than the lengths it announces.
    Truncated,
    /// Not a kifudex file.
    BadMagic,
    /// A format version this reader does not know.
    UnsupportedVersion,
    /// An index where a book was expected, or the reverse.
    WrongKind,
    /// The header checksum does not match.
    HeaderChecksum,
    /// The body checksum does not match.
    BodyChecksum,
    /// The header does not decode.
    BadHeader,
    /// A section lies outside the body, is misaligned, or is too short for its records.
    BadSection,
    /// A record holds a value that cannot be (an unknown move code, an unsorted key...).
    BadRecord,
    /// Bytes are left over after the header and body.
    TrailingBytes,
}

impl FormatError {
    /// A short, stable, one-word name (used in the hint protocol's `error` replies).
    pub const fn as_str(self) -> &'static str {
        match self {
            FormatError::Truncated => "truncated",
            FormatError::BadMagic => "bad-magic",
            FormatError::UnsupportedVersion => "unsupported-version",
            FormatError::WrongKind => "wrong-kind",
            FormatError::HeaderChecksum => "header-checksum",
            FormatError::BodyChecksum => "body-checksum",
            FormatError::BadHeader => "bad-header",
            FormatError::BadSection => "bad-section",
            FormatError::BadRecord => "bad-record",
            FormatError::TrailingBytes => "trailing-bytes",
        }
    }
}

impl core::fmt::Display for FormatError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a section lies in the body and how its records are laid out.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Section {
    /// Byte offset from the start of the body (a multiple of 8).
    pub offset: u64,
    /// Length in bytes.
    pub len: u64,
    /// Number of records.
    pub count: u64,
    /// Width of one record in bits (1..=64 for packed arrays; byte rows use multiples of 8).
    pub width_bits: u32,
}

impl Section {
    /// Bytes needed for `count` records of `width_bits` bits, with 8 bytes of zero padding
    /// so that any record can be read with one 8-byte load.
    pub const fn bytes_needed(count: u64, width_bits: u32) -> Option<u64> {
        match count.checked_mul(width_bits as u64) {
            Some(bits) => match bits.checked_add(7) {
                Some(b) => (b / 8).checked_add(8),
                None => None,
            },
            None => None,
        }
    }

    /// The section's bytes within `body`, after checking bounds, alignment and that the
    /// records fit.
    pub fn slice<'a>(&self, body: &'a [u8]) -> Result<&'a [u8], FormatError> {
        if !self.offset.is_multiple_of(8) || self.width_bits == 0 {
            return Err(FormatError::BadSection);
        }
        let need =
            Section::bytes_needed(self.count, self.width_bits).ok_or(FormatError::BadSection)?;
        if self.len < need {
            return Err(FormatError::BadSection);
        }
        let start = usize::try_from(self.offset).map_err(|_| FormatError::BadSection)?;
        let len = usize::try_from(self.len).map_err(|_| FormatError::BadSection)?;
        let end = start.checked_add(len).ok_or(FormatError::BadSection)?;
        body.get(start..end).ok_or(FormatError::BadSection)
    }

    /// The section as a packed array of its records.
    pub fn packed<'a>(&self, body: &'a [u8]) -> Result<Packed<'a>, FormatError> {
        if self.width_bits > 64 {
            return Err(FormatError::BadSection);
        }
        let bytes = self.slice(body)?;
        let len = usize::try_from(self.count).map_err(|_| FormatError::BadSection)?;
        Ok(Packed {
            bytes,
            width: self.width_bits,
            len,
        })
    }
}

/// A validated view of a file: its kind, header bytes and body bytes.
#[derive(Copy, Clone, Debug)]
pub struct Container<'a> {
    /// What the file holds.
    pub kind: Kind,
    /// The postcard-encoded header.
    pub header: &'a [u8],
    /// The sections.
    pub body: &'a [u8],
}

fn u32_at(bytes: &[u8], at: usize) -> Result<u32, FormatError> {
    let b = bytes.get(at..at + 4).ok_or(FormatError::Truncated)?;
    let mut a = [0u8; 4];
    a.copy_from_slice(b);
    Ok(u32::from_le_bytes(a))
}

fn u64_at(bytes: &[u8], at: usize) -> Result<u64, FormatError> {
    let b = bytes.get(at..at + 8).ok_or(FormatError::Truncated)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    Ok(u64::from_le_bytes(a))
}

/// CRC-32 (IEEE) of `bytes`: `crc32fast` with the `fast-crc` feature (the default: SIMD on
/// desktops, 16 KiB of tables elsewhere), else [`crc32_small`].
#[cfg(feature = "fast-crc")]
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(bytes);
    h.finalize()
}

/// CRC-32 (IEEE) of `bytes`: `crc32fast` with the `fast-crc` feature (the default: SIMD on
/// desktops, 16 KiB of tables elsewhere), else [`crc32_small`].
#[cfg(not(feature = "fast-crc"))]
pub fn crc32(bytes: &[u8]) -> u32 {
    crc32_small(bytes)
}

/// The byte-at-a-time CRC-32 table (1 KiB), computed at compile time.
const CRC_TABLE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
};

/// CRC-32 (IEEE) of `bytes`, one table lookup per byte: 1 KiB of table instead of
/// `crc32fast`'s 16 KiB, for microcontroller builds (`default-features = false`), where
/// a book is checked once at start.
pub fn crc32_small(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c = CRC_TABLE[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

/// Rounds `n` up to a multiple of 8.
pub const fn align8(n: usize) -> usize {
    (n + 7) & !7
}

impl<'a> Container<'a> {
    /// Checks the preamble, both checksums and the lengths of `file`, expecting `kind`.
    pub fn open(file: &'a [u8], kind: Kind) -> Result<Container<'a>, FormatError> {
        if file.len() < PREAMBLE_LEN {
            return Err(
                if file.get(..8.min(file.len())) == MAGIC.get(..8.min(file.len())) {
                    FormatError::Truncated
                } else {
                    FormatError::BadMagic
                },
            );
        }
        if file.get(0..8) != Some(&MAGIC[..]) {
            return Err(FormatError::BadMagic);
        }
        if u32_at(file, 8)? != FORMAT_VERSION {
            return Err(FormatError::UnsupportedVersion);
        }
        if u32_at(file, 12)? != kind as u32 {
            return Err(FormatError::WrongKind);
        }
        let header_len = u32_at(file, 16)? as usize;
        let header_crc = u32_at(file, 20)?;
        let body_len = usize::try_from(u64_at(file, 24)?).map_err(|_| FormatError::Truncated)?;
        let body_crc = u32_at(file, 32)?;
        // The reserved word is not covered by either checksum: only zero is valid.
        if u32_at(file, 36)? != 0 {
            return Err(FormatError::BadHeader);
        }
        let header_end = PREAMBLE_LEN
            .checked_add(header_len)
            .ok_or(FormatError::Truncated)?;
        let header = file
            .get(PREAMBLE_LEN..header_end)
            .ok_or(FormatError::Truncated)?;
        if crc32(header) != header_crc {
            return Err(FormatError::HeaderChecksum);
        }
        let body_start = align8(header_end);
        // The padding after the header is not covered by either checksum: only zeros.
        let padding = file
            .get(header_end..body_start)
            .ok_or(FormatError::Truncated)?;
        if padding.iter().any(|&b| b != 0) {
            return Err(FormatError::BadHeader);
        }
        let body_end = body_start
            .checked_add(body_len)
            .ok_or(FormatError::Truncated)?;
        let body = file
            .get(body_start..body_end)
            .ok_or(FormatError::Truncated)?;
        if file.len() > body_end {
            return Err(FormatError::TrailingBytes);
        }
        if crc32(body) != body_crc {
            return Err(FormatError::BodyChecksum);
        }
        Ok(Container { kind, header, body })
    }

    /// Decodes the postcard header into `H`.
    pub fn header<H: Deserialize<'a>>(&self) -> Result<H, FormatError> {
        let (h, rest) =
            postcard::take_from_bytes::<H>(self.header).map_err(|_| FormatError::BadHeader)?;
        if !rest.is_empty() {
            return Err(FormatError::BadHeader);
        }
        Ok(h)
    }

    /// Writes the preamble for a file of `kind` with this header and body into `out`
    /// (40 bytes). The caller writes the header, zero padding to a multiple of 8, then
    /// the body.
    pub fn preamble(kind: Kind, header: &[u8], body: &[u8]) -> [u8; PREAMBLE_LEN] {
        Container::preamble_for(kind, header, body.len() as u64, crc32(body))
    }

    /// [`Container::preamble`] for a body given by its length and CRC-32 (for a writer
    /// that streams the body in pieces).
    pub fn preamble_for(
        kind: Kind,
        header: &[u8],
        body_len: u64,
        body_crc: u32,
    ) -> [u8; PREAMBLE_LEN] {
        let mut p = [0u8; PREAMBLE_LEN];
        p[0..8].copy_from_slice(&MAGIC);
        p[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        p[12..16].copy_from_slice(&(kind as u32).to_le_bytes());
        p[16..20].copy_from_slice(&(header.len() as u32).to_le_bytes());
        p[20..24].copy_from_slice(&crc32(header).to_le_bytes());
        p[24..32].copy_from_slice(&body_len.to_le_bytes());
        p[32..36].copy_from_slice(&body_crc.to_le_bytes());
        p
    }
}

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

/// Extracts the bit field `[shift, shift + bits)` of `v`.
#[inline(always)]
pub const fn field(v: u64, shift: u32, bits: u32) -> u64 {
    if bits >= 64 {
        v >> shift
    } else {
        (v >> shift) & ((1u64 << bits) - 1)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_crc_matches_the_standard() {
        assert_eq!(crc32_small(b"123456789"), 0xcbf4_3926);
        assert_eq!(crc32_small(b""), 0);
        let data: [u8; 1000] = core::array::from_fn(|i| (i * 7 + i / 13) as u8);
        assert_eq!(crc32_small(&data), crc32(&data));
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
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
        }
    }

    #[test]
    fn section_bounds_are_checked() {
        let body = [0u8; 64];
        let ok = Section {
            offset: 8,
            len: 16,
            count: 2,
            width_bits: 32,
        };
        assert!(ok.slice(&body).is_ok());
        let past = Section { offset: 56, ..ok };
        assert_eq!(past.slice(&body), Err(FormatError::BadSection));
        let misaligned = Section { offset: 4, ..ok };
        assert_eq!(misaligned.slice(&body), Err(FormatError::BadSection));
        let short = Section { count: 3, ..ok };
        assert_eq!(short.slice(&body), Err(FormatError::BadSection));
        let huge = Section {
            count: u64::MAX,
            ..ok
        };
        assert_eq!(huge.slice(&body), Err(FormatError::BadSection));
    }

    #[test]
    fn container_checks() {
        let header = [1u8, 2, 3];
        let body = [7u8; 16];
        let mut file = [0u8; 72];
        file[..PREAMBLE_LEN].copy_from_slice(&Container::preamble(Kind::Book, &header, &body));
        file[40..43].copy_from_slice(&header);
        file[48..64].copy_from_slice(&body);
        let f = &file[..64];
        let c = Container::open(f, Kind::Book).unwrap();
        assert_eq!(c.header, &header);
        assert_eq!(c.body, &body);
        assert_eq!(
            Container::open(f, Kind::Index).err(),
            Some(FormatError::WrongKind)
        );
        assert_eq!(
            Container::open(&file, Kind::Book).err(),
            Some(FormatError::TrailingBytes)
        );
        for n in 0..64 {
            assert!(Container::open(&f[..n], Kind::Book).is_err());
        }
        let mut bad = [0u8; 64];
        bad.copy_from_slice(f);
        bad[50] ^= 1;
        assert_eq!(
            Container::open(&bad, Kind::Book).err(),
            Some(FormatError::BodyChecksum)
        );
        bad.copy_from_slice(f);
        bad[37] ^= 1;
        assert_eq!(
            Container::open(&bad, Kind::Book).err(),
            Some(FormatError::BadHeader)
        );
        bad.copy_from_slice(f);
        bad[44] ^= 1; // padding after the 3-byte header
        assert_eq!(
            Container::open(&bad, Kind::Book).err(),
            Some(FormatError::BadHeader)
        );
        bad.copy_from_slice(f);
        bad[41] ^= 1;
        assert_eq!(
            Container::open(&bad, Kind::Book).err(),
            Some(FormatError::HeaderChecksum)
        );
    }
}
