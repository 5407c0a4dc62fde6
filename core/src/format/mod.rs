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
//! magic, version, kind, the header's checksum and every section's bounds and record count
//! before it hands out a single record, so a truncated, corrupted or hostile file is an
//! error value, never a panic or an out-of-bounds read. The body's checksum is checked by
//! [`Container::open`] (the book, `kifudex verify`); [`Container::open_structure`] skips it,
//! so that opening a large index memory-mapped costs time independent of its size (its
//! readers then clamp every read). `docs/FORMAT.md` describes each kind.

use serde::{Deserialize, Serialize};

mod crc;
mod packed;
#[cfg(feature = "alloc")]
mod writer;

pub use crc::{crc32, crc32_small, Crc32};
pub use packed::{bits_for, byte_at, field, le_u32, le_u64, Field, Packed, Rows};
#[cfg(feature = "alloc")]
pub use writer::{BitWriter, Body, EncodedFile};

/// The first 8 bytes of every kifudex file.
pub const MAGIC: [u8; 8] = *b"KIFUDEX\x1a";
/// The container and section layout version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 2;
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
        Ok(Packed::new(bytes, self.width_bits, len))
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
    /// The body's CRC-32 as the preamble states it ([`Container::check_body`]).
    pub body_crc: u32,
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

/// Rounds `n` up to a multiple of 8.
pub const fn align8(n: usize) -> usize {
    (n + 7) & !7
}

impl<'a> Container<'a> {
    /// Checks the preamble, both checksums and the lengths of `file`, expecting `kind`.
    pub fn open(file: &'a [u8], kind: Kind) -> Result<Container<'a>, FormatError> {
        let c = Container::open_structure(file, kind)?;
        c.check_body()?;
        Ok(c)
    }

    /// Checks the body's checksum (a pass over the whole body).
    pub fn check_body(&self) -> Result<(), FormatError> {
        if crc32(self.body) != self.body_crc {
            return Err(FormatError::BodyChecksum);
        }
        Ok(())
    }

    /// [`Container::open`] without the body's checksum: the preamble, the header's checksum,
    /// the padding and the lengths, in time independent of the body's size.
    pub fn open_structure(file: &'a [u8], kind: Kind) -> Result<Container<'a>, FormatError> {
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
        Ok(Container {
            kind,
            header,
            body,
            body_crc,
        })
    }

    /// Decodes the postcard header into `H` followed by an optional part `E`: a file
    /// without that part ends its header after `H` (so adding the part to a format keeps
    /// the files without it byte for byte).
    pub fn header_with<H: Deserialize<'a>, E: Deserialize<'a>>(
        &self,
    ) -> Result<(H, Option<E>), FormatError> {
        let (h, rest) =
            postcard::take_from_bytes::<H>(self.header).map_err(|_| FormatError::BadHeader)?;
        if rest.is_empty() {
            return Ok((h, None));
        }
        let (e, rest) = postcard::take_from_bytes::<E>(rest).map_err(|_| FormatError::BadHeader)?;
        if !rest.is_empty() {
            return Err(FormatError::BadHeader);
        }
        Ok((h, Some(e)))
    }

    /// Decodes the start of the postcard header into `H`; returns it with the header's
    /// remaining bytes (the headers of sections that other readers of the file own).
    pub fn header_prefix<H: Deserialize<'a>>(&self) -> Result<(H, &'a [u8]), FormatError> {
        postcard::take_from_bytes::<H>(self.header).map_err(|_| FormatError::BadHeader)
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

#[cfg(test)]
mod tests {
    use super::*;

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
