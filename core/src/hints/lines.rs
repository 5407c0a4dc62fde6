//! Splitting a byte stream into request lines in a fixed buffer ([`LineReader`]).

use embedded_io::Read;

use super::MAX_LINE;

/// A line read by [`LineReader::next_line`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Line<'b> {
    /// A line without its `\n` (the last one of the input may have had none).
    Text(&'b [u8]),
    /// A line longer than [`MAX_LINE`] bytes, read to its end and dropped.
    Overlong,
    /// The end of the input.
    Eof,
}

/// Splits a byte stream into lines in a fixed buffer of [`MAX_LINE`] `+ 1` bytes.
#[derive(Clone, Debug)]
pub struct LineReader {
    buf: [u8; MAX_LINE + 1],
    /// Unconsumed bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    /// `buf[start..scanned]` holds no `\n`.
    scanned: usize,
    /// Bytes of the current line were dropped because it is too long.
    overlong: bool,
    eof: bool,
}

impl Default for LineReader {
    fn default() -> Self {
        Self::new()
    }
}

impl LineReader {
    /// An empty reader.
    pub const fn new() -> Self {
        LineReader {
            buf: [0; MAX_LINE + 1],
            start: 0,
            end: 0,
            scanned: 0,
            overlong: false,
            eof: false,
        }
    }

    /// The next line of `r`, reading as much as needed (each read fills what the buffer
    /// has room for, so bytes after the line stay buffered for the next call).
    pub fn next_line<R: Read>(&mut self, r: &mut R) -> Result<Line<'_>, R::Error> {
        loop {
            let pending = self.buf.get(self.scanned..self.end).unwrap_or(&[]);
            if let Some(i) = pending.iter().position(|&c| c == b'\n') {
                let nl = self.scanned + i;
                let (s, overlong) = (self.start, self.overlong);
                self.start = nl + 1;
                self.scanned = self.start;
                self.overlong = false;
                return Ok(if overlong {
                    Line::Overlong
                } else {
                    Line::Text(self.buf.get(s..nl).unwrap_or(&[]))
                });
            }
            self.scanned = self.end;
            if self.eof {
                let (s, e, overlong) = (self.start, self.end, self.overlong);
                self.start = e;
                self.overlong = false;
                return Ok(if overlong {
                    Line::Overlong
                } else if e > s {
                    Line::Text(self.buf.get(s..e).unwrap_or(&[]))
                } else {
                    Line::Eof
                });
            }
            if self.end - self.start > MAX_LINE {
                // No `\n` in more than MAX_LINE bytes: drop them, remember the line is bad.
                self.overlong = true;
                self.start = 0;
                self.end = 0;
                self.scanned = 0;
            } else if self.end == self.buf.len() {
                // Room is left only before the line: move it to the front.
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.scanned = self.end;
                self.start = 0;
            }
            let room = self.buf.get_mut(self.end..).unwrap_or(&mut []);
            let n = r.read(room)?;
            if n == 0 {
                self.eof = true;
            }
            self.end = (self.end + n).min(self.buf.len());
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use std::vec::Vec;

    use super::*;

    /// A reader handing out at most `chunk` bytes per read.
    struct Chunked<'a> {
        data: &'a [u8],
        chunk: usize,
    }

    impl embedded_io::ErrorType for Chunked<'_> {
        type Error = core::convert::Infallible;
    }

    impl Read for Chunked<'_> {
        fn read(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error> {
            let n = self.chunk.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[derive(Debug, PartialEq)]
    enum L {
        T(Vec<u8>),
        Over,
    }

    fn lines(data: &[u8], chunk: usize) -> Vec<L> {
        let mut r = Chunked { data, chunk };
        let mut lr = LineReader::new();
        let mut out = Vec::new();
        loop {
            match lr.next_line(&mut r).unwrap() {
                Line::Text(t) => out.push(L::T(t.to_vec())),
                Line::Overlong => out.push(L::Over),
                Line::Eof => return out,
            }
        }
    }

    fn t(s: &str) -> L {
        L::T(s.as_bytes().to_vec())
    }

    #[test]
    fn line_reader_splits_lines_in_any_chunking() {
        let data = b"moves pd\n\nquit\r\nlast";
        for chunk in [1, 2, 3, 7, 64, 5000] {
            assert_eq!(
                lines(data, chunk),
                [t("moves pd"), t(""), t("quit\r"), t("last")],
                "chunk {chunk}"
            );
        }
        assert_eq!(lines(b"", 1), []);
        assert_eq!(lines(b"\n", 1), [t("")]);
    }

    #[test]
    fn line_reader_drops_overlong_lines() {
        let mut data = Vec::new();
        data.extend_from_slice(b"moves\n");
        data.extend(core::iter::repeat_n(b'a', MAX_LINE));
        data.push(b'\n');
        data.extend(core::iter::repeat_n(b'b', MAX_LINE + 1));
        data.push(b'\n');
        data.extend(core::iter::repeat_n(b'c', 5 * MAX_LINE + 17));
        data.extend_from_slice(b"\nquit\n");
        data.extend(core::iter::repeat_n(b'd', 3 * MAX_LINE));
        for chunk in [1, 5, 100, MAX_LINE, 100_000] {
            let got = lines(&data, chunk);
            assert_eq!(got.len(), 6, "chunk {chunk}");
            assert_eq!(got[0], t("moves"));
            assert_eq!(got[1], L::T(std::vec![b'a'; MAX_LINE]));
            assert_eq!(got[2], L::Over);
            assert_eq!(got[3], L::Over);
            assert_eq!(got[4], t("quit"));
            assert_eq!(got[5], L::Over);
        }
    }
}
