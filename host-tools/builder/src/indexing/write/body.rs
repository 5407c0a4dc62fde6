//! A file's body written as a stream, section after section, into memory or a scratch
//! file, laid out exactly as the core's [`kifudex_core::format::Body`] lays out the same
//! sections (tested): so that an index larger than the memory budget is never held whole,
//! and a packed section can be appended to slice by slice ([`PackedStream`]).
//!
//! The header comes first in the file but depends on every section, so the body is
//! written first and the finished file ([`Streamed`]) is the header followed by a copy of
//! the body.

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

use anyhow::{Context, Result};
use kifudex_core::format::{align8, BitWriter, Container, Crc32, Kind, Section, PREAMBLE_LEN};
use serde::Serialize;

/// Where the body's bytes go.
enum Sink {
    Memory(Vec<u8>),
    File(BufWriter<File>),
}

/// A body under construction: its sections written in order, with the running length and
/// CRC-32.
pub struct StreamBody {
    sink: Sink,
    len: u64,
    crc: Crc32,
}

impl StreamBody {
    /// A body kept in memory.
    pub fn in_memory() -> StreamBody {
        StreamBody {
            sink: Sink::Memory(Vec::new()),
            len: 0,
            crc: Crc32::new(),
        }
    }

    /// A body written to a scratch file in `dir`.
    pub fn in_file(dir: &Path) -> Result<StreamBody> {
        Ok(StreamBody {
            sink: Sink::File(BufWriter::with_capacity(
                1 << 20,
                crate::indexing::output::scratch_file(dir)?,
            )),
            len: 0,
            crc: Crc32::new(),
        })
    }

    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.crc.update(bytes);
        self.len += bytes.len() as u64;
        match &mut self.sink {
            Sink::Memory(v) => v.extend_from_slice(bytes),
            Sink::File(f) => f
                .write_all(bytes)
                .context("cannot write a temporary file")?,
        }
        Ok(())
    }

    /// Zero bytes to the next multiple of 8; the offset reached.
    fn align(&mut self) -> Result<u64> {
        let offset = align8(self.len as usize) as u64;
        let pad = [0u8; 8];
        self.put(&pad[..(offset - self.len) as usize])?;
        Ok(offset)
    }

    /// Adds packed records as a section (as `Body::packed`).
    pub fn packed(&mut self, w: BitWriter) -> Result<Section> {
        let p = w.finish();
        let offset = self.align()?;
        self.put(&p.bytes)?;
        Ok(Section {
            offset,
            len: p.bytes.len() as u64,
            count: p.count,
            width_bits: p.width,
        })
    }

    /// Adds fixed-width byte rows (`width_bytes` each) as a section (as `Body::rows`).
    pub fn rows(&mut self, bytes: &[u8], width_bytes: usize) -> Result<Section> {
        let count = bytes.len().checked_div(width_bytes).unwrap_or(0) as u64;
        let offset = self.align()?;
        self.put(bytes)?;
        self.put(&[0u8; 8])?;
        Ok(Section {
            offset,
            len: bytes.len() as u64 + 8,
            count,
            width_bits: width_bytes as u32 * 8,
        })
    }

    /// Starts a packed section of `width`-bit records written in pieces; nothing else
    /// may be added to the body until [`PackedStream::finish`].
    pub fn packed_stream(&mut self, width: u32) -> Result<PackedStream> {
        Ok(PackedStream {
            offset: self.align()?,
            width,
            count: 0,
            acc: 0,
            acc_bits: 0,
            out: Vec::with_capacity(1 << 16),
        })
    }

    /// The whole file: preamble, `header` (postcard), padding, then this body.
    pub fn file<H: Serialize>(self, kind: Kind, header: &H) -> Result<Streamed> {
        let header = postcard::to_allocvec(header).context("encoding the file's header")?;
        let preamble = Container::preamble_for(kind, &header, self.len, self.crc.finalize());
        let mut head = Vec::with_capacity(align8(PREAMBLE_LEN + header.len()));
        head.extend_from_slice(&preamble);
        head.extend_from_slice(&header);
        head.resize(align8(head.len()), 0);
        let body = match self.sink {
            Sink::Memory(v) => Body::Memory(v),
            Sink::File(f) => {
                let mut f = f.into_inner().map_err(|e| e.into_error())?;
                f.seek(SeekFrom::Start(0))?;
                Body::File(f)
            }
        };
        Ok(Streamed {
            head,
            body,
            body_len: self.len,
        })
    }
}

/// A packed section written in pieces of whole records ([`PackedStream::append`]), the
/// same bytes as one [`BitWriter`] of all of them.
pub struct PackedStream {
    offset: u64,
    width: u32,
    count: u64,
    acc: u128,
    acc_bits: u32,
    /// Whole words waiting to be written.
    out: Vec<u8>,
}

impl PackedStream {
    /// Appends the records of `w` (of this stream's width).
    pub fn append(&mut self, body: &mut StreamBody, w: BitWriter) -> Result<()> {
        debug_assert_eq!(w.width(), self.width);
        let p = w.finish();
        self.count += p.count;
        let mut bits = p.count * p.width as u64;
        for chunk in p.bytes.chunks(8) {
            if bits == 0 {
                break;
            }
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            let k = bits.min(64) as u32;
            let v = u64::from_le_bytes(word) & (u64::MAX >> (64 - k));
            self.acc |= (v as u128) << self.acc_bits;
            self.acc_bits += k;
            if self.acc_bits >= 64 {
                self.out.extend_from_slice(&(self.acc as u64).to_le_bytes());
                self.acc >>= 64;
                self.acc_bits -= 64;
            }
            bits -= k as u64;
        }
        if self.out.len() >= 1 << 20 {
            body.put(&self.out)?;
            self.out.clear();
        }
        Ok(())
    }

    /// Ends the section: the bits left, zero bits to the next byte and 8 zero bytes (as
    /// [`BitWriter::finish`]).
    pub fn finish(mut self, body: &mut StreamBody) -> Result<Section> {
        while self.acc_bits > 0 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.acc_bits = self.acc_bits.saturating_sub(8);
        }
        self.out.extend_from_slice(&[0u8; 8]);
        body.put(&self.out)?;
        Ok(Section {
            offset: self.offset,
            len: body.len - self.offset,
            count: self.count,
            width_bits: self.width,
        })
    }
}

/// A finished body.
enum Body {
    Memory(Vec<u8>),
    File(File),
}

/// A finished file: its head (preamble, header, padding) and body.
pub struct Streamed {
    head: Vec<u8>,
    body: Body,
    body_len: u64,
}

impl Streamed {
    /// Length in bytes.
    pub fn len(&self) -> u64 {
        self.head.len() as u64 + self.body_len
    }

    /// Writes the file to `w`.
    pub fn write_to(&mut self, w: &mut impl Write) -> std::io::Result<()> {
        w.write_all(&self.head)?;
        match &mut self.body {
            Body::Memory(v) => w.write_all(v),
            Body::File(f) => {
                f.seek(SeekFrom::Start(0))?;
                let copied = std::io::copy(f, w)?;
                if copied != self.body_len {
                    return Err(std::io::Error::other("a temporary file was cut short"));
                }
                Ok(())
            }
        }
    }

    /// The file as one buffer.
    pub fn into_vec(mut self) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(self.len() as usize);
        self.write_to(&mut out)
            .context("cannot read back a temporary file")?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kifudex_core::format::Body as CoreBody;

    fn writer(width: u32, from: u64, n: u64) -> BitWriter {
        let mut w = BitWriter::new(width);
        for i in from..from + n {
            w.push(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - width));
        }
        w
    }

    /// The same sections give the same file as the core's `Body`, in memory and through
    /// a file, with a packed section written in pieces of any length.
    #[test]
    fn a_streamed_body_equals_the_cores() {
        let dir = tempfile::tempdir().unwrap();
        for width in [1u32, 10, 13, 43, 64] {
            for pieces in [
                vec![0u64],
                vec![5],
                vec![64, 1, 0, 130],
                vec![3, 3, 3, 1000],
            ] {
                let total: u64 = pieces.iter().sum();
                let mut core = CoreBody::new();
                let a = core.rows(vec![7u8; 30], 10);
                let b = core.packed(writer(width, 0, total));
                let c = core.packed(writer(9, 0, 11));
                let want = core.file(Kind::Index, &(a, b, c)).unwrap().to_vec();
                for in_file in [false, true] {
                    let mut body = if in_file {
                        StreamBody::in_file(dir.path()).unwrap()
                    } else {
                        StreamBody::in_memory()
                    };
                    let a2 = body.rows(&[7u8; 30], 10).unwrap();
                    let mut s = body.packed_stream(width).unwrap();
                    let mut from = 0;
                    for &n in &pieces {
                        s.append(&mut body, writer(width, from, n)).unwrap();
                        from += n;
                    }
                    let b2 = s.finish(&mut body).unwrap();
                    let c2 = body.packed(writer(9, 0, 11)).unwrap();
                    assert_eq!((a2, b2, c2), (a, b, c));
                    let got = body
                        .file(Kind::Index, &(a2, b2, c2))
                        .unwrap()
                        .into_vec()
                        .unwrap();
                    assert!(
                        got == want,
                        "width {width}, pieces {pieces:?}, file {in_file}"
                    );
                }
            }
        }
    }
}
