//! A small HTTP/1.1 client over std's `TcpStream`, for the programs that drive `kifudex
//! serve` from outside (`explore_bench`, `web_soak`, the soak's test): keep-alive GETs whose
//! replies are read by `Content-Length` or chunks, raw bytes sent as they are (no
//! normalisation: malformed requests stay malformed), and the few helpers their reports
//! share (percentiles, percent-encoding, a number out of a JSON text).

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// How long a reply may take before the client gives up on it.
pub const READ_TIMEOUT: Duration = Duration::from_secs(120);

/// One reply: its status, its head (status line and headers) and its body.
#[derive(Clone, Debug, Default)]
pub struct Reply {
    /// The status code (0 when the status line was not HTTP).
    pub status: u16,
    /// The status line and the header lines, as sent.
    pub head: String,
    /// The body, chunks joined.
    pub body: Vec<u8>,
}

impl Reply {
    /// A header's value (the first of that name, any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

/// Reads one reply from `r`: the head, then the body by `Content-Length` or chunked
/// transfer coding (none for `HEAD`-like replies without either: an empty body).
pub fn read_reply(r: &mut impl BufRead) -> io::Result<Reply> {
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_owned());
    let mut head = String::new();
    let mut line = String::new();
    r.read_line(&mut line)?;
    if line.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the connection closed before a reply",
        ));
    }
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    head.push_str(&line);
    let mut len: Option<usize> = None;
    let mut chunked = false;
    loop {
        line.clear();
        r.read_line(&mut line)?;
        if line == "\r\n" || line == "\n" || line.is_empty() {
            break;
        }
        head.push_str(&line);
        if let Some((k, v)) = line.split_once(':') {
            let (k, v) = (k.trim(), v.trim());
            if k.eq_ignore_ascii_case("content-length") {
                len = Some(v.parse().map_err(|_| bad("a bad Content-Length"))?);
            } else if k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked") {
                chunked = true;
            }
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            r.read_line(&mut line)?;
            let size = line.trim().split(';').next().unwrap_or("");
            let size = usize::from_str_radix(size, 16).map_err(|_| bad("a bad chunk size"))?;
            if size == 0 {
                // Trailers (none here) and the last empty line.
                loop {
                    line.clear();
                    r.read_line(&mut line)?;
                    if line == "\r\n" || line.is_empty() {
                        break;
                    }
                }
                break;
            }
            let at = body.len();
            body.resize(at + size, 0);
            r.read_exact(&mut body[at..])?;
            let mut crlf = [0u8; 2];
            r.read_exact(&mut crlf)?;
        }
    } else if let Some(len) = len {
        body.resize(len, 0);
        r.read_exact(&mut body)?;
    }
    Ok(Reply {
        status,
        head: head.trim_end().to_owned(),
        body,
    })
}

/// One keep-alive connection.
pub struct Conn {
    addr: SocketAddr,
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Conn {
    /// Connects to `addr` (no Nagle delay, replies awaited up to [`READ_TIMEOUT`]).
    pub fn connect(addr: SocketAddr) -> io::Result<Conn> {
        let stream = TcpStream::connect(addr)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(READ_TIMEOUT))?;
        let reader = BufReader::new(stream.try_clone()?);
        Ok(Conn {
            addr,
            stream,
            reader,
        })
    }

    /// Connects to `addr`, or panics (for benchmarks, where no connection is no result).
    pub fn open(addr: SocketAddr) -> Conn {
        Conn::connect(addr).expect("connect")
    }

    /// One GET on this connection: its reply, or why there is none (the connection is
    /// then of no further use: see [`Conn::reopen`]).
    pub fn request(&mut self, target: &str) -> io::Result<Reply> {
        // One write per request (several small ones would wait for delayed ACKs).
        let request = format!("GET {target} HTTP/1.1\r\nHost: kifudex\r\n\r\n");
        self.stream.write_all(request.as_bytes())?;
        read_reply(&mut self.reader)
    }

    /// Opens the connection again (after a failed request, or a server that closed it).
    pub fn reopen(&mut self) -> io::Result<()> {
        *self = Conn::connect(self.addr)?;
        Ok(())
    }

    /// One GET: its status and body (status 0 when the connection broke: then it is
    /// opened again).
    pub fn get(&mut self, target: &str) -> (u16, Vec<u8>) {
        match self.request(target) {
            Ok(r) => (r.status, r.body),
            Err(_) => {
                *self = Conn::open(self.addr);
                (0, Vec::new())
            }
        }
    }
}

/// Sends `request` as it is on a new connection and reads until the server closes (or
/// `timeout` passes): all the bytes it answered. (The sending side stays open: a server
/// may take a half-closed connection for a client gone, and drop its answer.)
pub fn raw(addr: SocketAddr, request: &[u8], timeout: Duration) -> io::Result<Vec<u8>> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(timeout))?;
    // A server may answer (and close) before it has read everything: a failed write is
    // then no failure of the exchange, the answer is.
    let _ = s.write_all(request);
    let mut buf = Vec::new();
    match s.read_to_end(&mut buf) {
        Ok(_) => Ok(buf),
        // Reset after the answer was written (unread request bytes): keep what came.
        Err(_) if !buf.is_empty() => Ok(buf),
        Err(e) => Err(e),
    }
}

/// The status of the first reply in `bytes` (0 if they hold none).
pub fn status_of(bytes: &[u8]) -> u16 {
    let line = bytes.split(|&b| b == b'\n').next().unwrap_or(b"");
    std::str::from_utf8(line)
        .ok()
        .filter(|l| l.starts_with("HTTP/1."))
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// Percentile `p` (0-1) of sorted times, in ms (0 for none).
pub fn pct(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i].as_secs_f64() * 1e3
}

/// Percent-encodes a query value.
pub fn enc(v: &str) -> String {
    let mut out = String::new();
    for b in v.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The number after `"key":` in a JSON text.
pub fn json_number(body: &[u8], key: &str) -> Option<u64> {
    let text = std::str::from_utf8(body).ok()?;
    let at = text.find(&format!("\"{key}\":"))? + key.len() + 3;
    let digits: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_by_length_and_by_chunks() {
        let bytes = b"HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\nabcHTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\nx: y\r\n\r\n2\r\nde\r\n3;ext\r\nfgh\r\n0\r\n\r\n";
        let mut r = BufReader::new(&bytes[..]);
        let a = read_reply(&mut r).unwrap();
        assert_eq!((a.status, &a.body[..]), (200, &b"abc"[..]));
        let b = read_reply(&mut r).unwrap();
        assert_eq!((b.status, &b.body[..]), (404, &b"defgh"[..]));
        assert_eq!(b.header("X"), Some("y"));
        assert!(read_reply(&mut r).is_err());
        assert_eq!(status_of(b"HTTP/1.1 431 Too Large\r\n"), 431);
        assert_eq!(status_of(b"garbage"), 0);
        assert_eq!(enc("a b/c"), "a%20b%2Fc");
        assert_eq!(json_number(br#"{"total":12,"x":1}"#, "total"), Some(12));
        let times: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert_eq!(pct(&times, 0.5), 50.0);
        assert_eq!(pct(&times, 0.99), 99.0);
    }
}
