//! A connection's incoming bytes, watched for request lines and header lines longer than
//! their limits.
//!
//! The HTTP layer (hyper) refuses a request line longer than 64 KiB with a bare `414` and
//! no body, and holds a request's head to its read buffer only when a read leaves the head
//! unfinished: a head that arrives in one read may pass the buffer's size (a soak found
//! 200 KB of headers answered now and then, refused with `431` other times). So that such
//! requests get the API's JSON refusal like every other bad request, and at an exact
//! bound, the connection is read through [`LineLimit`]: it follows where each request
//! line starts and ends (a request line, header lines, an empty line, the next request
//! line: requests here have no body) and, once a request line or the header lines of one
//! request grow past their limit, stops passing bytes on, writes `414` or `431` with
//! `{"error": ...}` itself and ends the input, which closes the connection.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// Where the scan is in the request head.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Scan {
    /// In a request line, this many bytes into it.
    RequestLine(usize),
    /// In the header lines, this many bytes into the current one.
    Headers(usize),
}

/// What passed its limit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Over {
    /// The request line.
    RequestLine,
    /// The header lines of one request, in all.
    Headers,
}

/// A stream whose request lines are held to `limit` bytes and whose header lines to
/// `header_limit` bytes a request (see the module).
pub struct LineLimit<T> {
    inner: T,
    limit: usize,
    header_limit: usize,
    scan: Scan,
    /// Bytes of the current request's header lines so far (their line ends included).
    header_bytes: usize,
    /// The refusal being written, and how much of it is written.
    refusal: Option<(Vec<u8>, usize)>,
}

impl<T> LineLimit<T> {
    /// Watches `inner`'s request lines for more than `limit` bytes and its requests'
    /// header lines for more than `header_limit` bytes in all (line ends and the empty
    /// line that ends them included).
    pub fn new(inner: T, limit: usize, header_limit: usize) -> LineLimit<T> {
        LineLimit {
            inner,
            limit,
            header_limit,
            scan: Scan::RequestLine(0),
            header_bytes: 0,
            refusal: None,
        }
    }

    /// Follows `bytes`; `Some((i, what))` if a limit is passed at byte `i`.
    fn follow(&mut self, bytes: &[u8]) -> Option<(usize, Over)> {
        for (i, &b) in bytes.iter().enumerate() {
            if let Scan::Headers(_) = self.scan {
                if self.header_bytes >= self.header_limit {
                    return Some((i, Over::Headers));
                }
                self.header_bytes += 1;
            }
            self.scan = match (self.scan, b) {
                // Empty lines before a request line are allowed (RFC 9112, 2.2).
                (Scan::RequestLine(0), b'\r' | b'\n') => Scan::RequestLine(0),
                (Scan::RequestLine(_), b'\n') => {
                    self.header_bytes = 0;
                    Scan::Headers(0)
                }
                (Scan::RequestLine(n), _) if n >= self.limit => {
                    return Some((i, Over::RequestLine))
                }
                (Scan::RequestLine(n), _) => Scan::RequestLine(n + 1),
                (Scan::Headers(0), b'\n') => Scan::RequestLine(0),
                (Scan::Headers(_), b'\n') => Scan::Headers(0),
                (Scan::Headers(n), b'\r') => Scan::Headers(n),
                (Scan::Headers(n), _) => Scan::Headers(n + 1),
            };
        }
        None
    }

    /// The answer to a request past a limit.
    fn refusal(&self, over: Over) -> Vec<u8> {
        let (kind, status, message) = match over {
            Over::RequestLine => (
                super::ErrorKind::UriTooLong,
                "414 URI Too Long",
                format!("the request line is longer than {} bytes", self.limit),
            ),
            Over::Headers => (
                super::ErrorKind::HeadersTooLarge,
                "431 Request Header Fields Too Large",
                format!(
                    "the request's header lines are longer than {} bytes",
                    self.header_limit
                ),
            ),
        };
        let body = super::ApiError::new(kind, message).to_json();
        format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nx-content-type-options: nosniff\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    }
}

impl<T: AsyncRead + AsyncWrite + Unpin> AsyncRead for LineLimit<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if let Some((bytes, sent)) = &mut this.refusal {
            // Write the refusal, then end the input (the HTTP layer then closes).
            while *sent < bytes.len() {
                match ready!(Pin::new(&mut this.inner).poll_write(cx, &bytes[*sent..])) {
                    Ok(0) => break,
                    Ok(n) => *sent += n,
                    Err(e) => return Poll::Ready(Err(e)),
                }
            }
            return Poll::Ready(Ok(()));
        }
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        let passed = this.follow(&buf.filled()[before..]);
        if let Some((i, over)) = passed {
            buf.set_filled(before + i);
            this.refusal = Some((this.refusal(over), 0));
            if i == 0 {
                // Nothing to hand on: start writing the refusal now.
                return Pin::new(this).poll_read(cx, buf);
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + AsyncWrite + Unpin> AsyncWrite for LineLimit<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, data)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_lines_are_followed_across_requests() {
        let mut l = LineLimit::new((), 10, 100);
        assert_eq!(
            l.follow(b"GET /a HTTP/1.1\r\n"),
            Some((10, Over::RequestLine))
        );
        let mut l = LineLimit::new((), 20, 100);
        let two = b"\r\nGET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nX-Long: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
        assert_eq!(l.follow(two), None);
        assert_eq!(l.scan, Scan::RequestLine(0));
        assert_eq!(l.follow(b"GET /"), None);
        assert_eq!(l.follow(b"0123456789abcdef"), Some((15, Over::RequestLine)));
    }

    /// Header lines count in all, line ends and the closing empty line included, afresh
    /// for each request: exactly the limit passes, one byte more is refused at that byte.
    #[test]
    fn header_lines_are_held_to_their_limit() {
        // "Host: x\r\n" (9) + "\r\n" (2): 11 bytes of header lines.
        let request = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n";
        let mut l = LineLimit::new((), 100, 11);
        assert_eq!(l.follow(request), None);
        assert_eq!(l.follow(request), None, "counted afresh for each request");
        let mut l = LineLimit::new((), 100, 10);
        assert_eq!(l.follow(request), Some((request.len() - 1, Over::Headers)));
        // In pieces, a long header line.
        let mut l = LineLimit::new((), 100, 1000);
        assert_eq!(l.follow(b"GET / HTTP/1.1\r\nX-Big: "), None);
        let pad = [b'a'; 600];
        assert_eq!(l.follow(&pad), None);
        assert_eq!(l.follow(&pad), Some((1000 - 7 - 600, Over::Headers)));
    }
}
