//! What the line-based record formats (Tygem's `.gib`, WBaduk's `.ngf`, PandaNet's `.ugf`)
//! share: the file's lines with their byte offsets, its charset, the text of a value, the
//! handicap stones a format places itself, and a [`GameRecord`] built move by move.
//!
//! The lines are cut from the raw bytes (every charset met, UTF-8, EUC-KR, GBK, Shift_JIS,
//! keeps `\n` and ASCII as they are), so that a place named in a warning or an error is the
//! byte offset of its line in the file, and the line number counts from 1.

use encoding_rs::{Encoding, UTF_8};
use kifudex_core::{Color, Move, Point, Size, Stone};

use super::{
    text, ErrorKind, Event, FileError, GameInfo, GameRecord, LineEnd, ParsedFile, SourceRef,
    Warning, WarningKind,
};

/// One line of a record: its 1-based number, the byte offset of its start, its bytes
/// (without the line break).
#[derive(Copy, Clone, Debug)]
pub(super) struct Line<'a> {
    /// The line number, from 1.
    pub number: usize,
    /// Where the line starts in the file.
    pub offset: usize,
    /// The line, its `\r\n` or `\n` taken off.
    pub bytes: &'a [u8],
}

impl<'a> Line<'a> {
    /// The line without the white space around it.
    pub fn trimmed(&self) -> &'a [u8] {
        self.bytes.trim_ascii()
    }
}

/// The lines of a file (a UTF-8 byte order mark taken off the first).
pub(super) fn lines(bytes: &[u8]) -> Vec<Line<'_>> {
    let (body, start) = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => (rest, 3),
        None => (bytes, 0),
    };
    let mut out = Vec::new();
    let mut offset = start;
    for (i, raw) in body.split(|&c| c == b'\n').enumerate() {
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        out.push(Line {
            number: i + 1,
            offset,
            bytes: line,
        });
        offset += raw.len() + 1;
    }
    if out.last().is_some_and(|l| l.bytes.is_empty()) {
        out.pop();
    }
    out
}

/// The charset of a whole file: UTF-8 when it is valid UTF-8, else the one its header
/// names (`declared`, a label such as `SJIS`), else the one `chardetng` guesses (EUC-KR,
/// GBK, Shift_JIS, Big5, ...), with a warning.
pub(super) fn file_encoding(
    bytes: &[u8],
    declared: Option<&[u8]>,
    warnings: &mut Vec<Warning>,
) -> &'static Encoding {
    if std::str::from_utf8(bytes).is_ok() {
        return UTF_8;
    }
    if let Some(e) = declared.and_then(text::encoding_for_label) {
        return e;
    }
    let mut det = chardetng::EncodingDetector::new();
    det.feed(bytes, true);
    warnings.push(Warning {
        byte_offset: 0,
        kind: WarningKind::CharsetGuessed,
    });
    det.guess(None, false)
}

/// A value's text in the file's charset: control characters and white space as spaces,
/// trimmed; `None` when nothing is left.
pub(super) fn text_of(raw: &[u8], enc: &'static Encoding) -> Option<String> {
    let (s, _) = enc.decode_without_bom_handling(raw);
    let t: String = s
        .chars()
        // White space of any kind is a space, as the SGF reader's SimpleText makes it (a
        // no-break space was kept, and read back as a space once written as SGF: found by
        // fuzzing).
        .map(|c| {
            if c.is_control() || c.is_whitespace() {
                ' '
            } else {
                c
            }
        })
        .collect();
    let t = t.trim();
    (!t.is_empty()).then(|| t.to_owned())
}

/// A decimal number of ASCII digits (with an optional sign), `None` for anything else.
pub(super) fn number(raw: &[u8]) -> Option<i64> {
    let t = raw.trim_ascii();
    let (neg, digits) = match t.first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() || digits.len() > 12 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let v: i64 = std::str::from_utf8(digits).ok()?.parse().ok()?;
    Some(if neg { -v } else { v })
}

/// A margin in tenths of a point as a result's text: `65` is `6.5`, `110` is `11`.
pub(super) fn tenths_text(tenths: i64) -> String {
    let sign = if tenths < 0 { "-" } else { "" };
    let a = tenths.unsigned_abs();
    if a.is_multiple_of(10) {
        format!("{sign}{}", a / 10)
    } else {
        format!("{sign}{}.{}", a / 10, a % 10)
    }
}

/// The first `n` runs of digits of a date (`2016- 3-26-17-29-25`, `2016:03:26:17:29`) as
/// `YYYY-MM-DD` (fewer parts when `n` is smaller); `None` unless the first is a year.
pub(super) fn ymd(v: &[u8], n: usize) -> Option<String> {
    let parts: Vec<&[u8]> = v
        .split(|c| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .take(n)
        .collect();
    let year = parts.first().filter(|y| y.len() == 4)?;
    let mut s = String::from_utf8_lossy(year).into_owned();
    for p in &parts[1..] {
        let v = number(p)?;
        if !(1..=31).contains(&v) {
            break;
        }
        s.push_str(&format!("-{v:02}"));
    }
    Some(s)
}

/// Where a format puts the handicap stones itself (2 to 9 stones on 19x19; none on
/// other boards or for other counts).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Placement {
    /// The usual placement: the third stone in the lower right corner.
    Standard,
    /// Tygem's: the third stone in the upper left corner.
    Tygem,
}

/// The handicap stones of `count` on a 19x19 board: the star points, corners first (the
/// upper right and lower left, then the third corner as `placement` says, then the
/// fourth), then the centre for an odd count, then the sides.
pub(super) fn handicap_stones(count: i64, size: Size, placement: Placement) -> Vec<Point> {
    if size != Size::STANDARD || !(2..=9).contains(&count) {
        return Vec::new();
    }
    let p = Point::new;
    let third = match placement {
        Placement::Standard => [p(15, 15), p(3, 3)],
        Placement::Tygem => [p(3, 3), p(15, 15)],
    };
    let mut stones = vec![p(15, 3), p(3, 15), third[0], third[1]];
    let centre = p(9, 9);
    let sides = [p(3, 9), p(15, 9), p(9, 3), p(9, 15)];
    match count {
        5 => stones.push(centre),
        6 => stones.extend(&sides[..2]),
        7 => {
            stones.extend(&sides[..2]);
            stones.push(centre);
        }
        8 => stones.extend(&sides),
        9 => {
            stones.extend(&sides);
            stones.push(centre);
        }
        _ => {}
    }
    stones.truncate(count as usize);
    stones
}

/// A game record built as a line-based file is read.
pub(super) struct Record<'s> {
    path: &'s str,
    member: Option<&'s str>,
    /// The board.
    pub size: Size,
    /// The charset of the text.
    pub encoding: &'static Encoding,
    /// The game information.
    pub info: GameInfo,
    events: Vec<Event>,
    end: Option<LineEnd>,
    /// What was repaired or found odd.
    pub warnings: Vec<Warning>,
}

impl<'s> Record<'s> {
    /// An empty record of the file `path` (`member` of an archive).
    pub fn new(path: &'s str, member: Option<&'s str>) -> Record<'s> {
        Record {
            path,
            member,
            size: Size::STANDARD,
            encoding: UTF_8,
            info: GameInfo::default(),
            events: Vec::new(),
            end: None,
            warnings: Vec::new(),
        }
    }

    /// Notes a warning at byte `offset`.
    pub fn warn(&mut self, offset: usize, kind: WarningKind) {
        if self.warnings.len() < 1000 {
            self.warnings.push(Warning {
                byte_offset: offset,
                kind,
            });
        }
    }

    /// A setup stone (dropped with a warning where it lies off the board).
    pub fn setup(&mut self, point: Point, stone: Stone, offset: usize) {
        if !self.size.contains(point) {
            return self.warn(offset, WarningKind::BadSetupPoint);
        }
        if self.end.is_none() {
            self.events.push(Event::Setup { point, stone });
        }
    }

    /// The handicap stones of `count` at the places `placement` gives, with the handicap.
    pub fn handicap(&mut self, count: i64, placement: Placement, offset: usize) {
        let stones = handicap_stones(count, self.size, placement);
        if !stones.is_empty() {
            self.info.handicap = Some(count as u16);
        }
        for p in stones {
            self.setup(p, Stone::Black, offset);
        }
    }

    /// A move at `(x, y)` from the top left, or a pass; a point off the board ends the main
    /// line there, with a warning at `offset` (the move's line).
    pub fn play(&mut self, color: Color, at: Option<(i64, i64)>, offset: usize) {
        if self.end.is_some() {
            return;
        }
        let mv = match at {
            None => Move::Pass,
            Some((x, y)) => {
                let fits = |v: i64, n: u8| (0..n as i64).contains(&v);
                if !fits(x, self.size.width()) || !fits(y, self.size.height()) {
                    self.warn(offset, WarningKind::OffBoardMove);
                    self.end = Some(match (u8::try_from(x), u8::try_from(y)) {
                        (Ok(x), Ok(y)) if x < 52 && y < 52 => LineEnd::OffBoard(Point::new(x, y)),
                        _ => LineEnd::Invalid,
                    });
                    return;
                }
                Move::Play(Point::new(x as u8, y as u8))
            }
        };
        self.events.push(Event::Play { color, mv });
    }

    /// A move line that names no move: the main line ends there, with a warning.
    pub fn invalid_move(&mut self, offset: usize) {
        if self.end.is_none() {
            self.warn(offset, WarningKind::InvalidMove);
            self.end = Some(LineEnd::Invalid);
        }
    }

    /// The file read: this game, or nothing but the warnings gathered.
    pub fn finish(mut self, out: &mut ParsedFile) {
        self.warnings.sort_by_key(|w| w.byte_offset);
        out.games.push(GameRecord {
            source: SourceRef {
                path: self.path.to_owned(),
                member: self.member.map(str::to_owned),
                tree_index: 0,
            },
            byte_offset: 0,
            size: self.size,
            encoding: self.encoding.name(),
            info: self.info,
            events: self.events,
            end: self.end,
            warnings: self.warnings,
        });
    }
}

/// A file of a line-based format that cannot be read as a game: what is wrong, and on which
/// line (at its byte offset).
pub(super) fn reject(
    out: &mut ParsedFile,
    path: &str,
    member: Option<&str>,
    format: &'static str,
    line: Option<&Line<'_>>,
    reason: &str,
) {
    out.rejected.push(FileError {
        path: path.to_owned(),
        member: member.map(str::to_owned),
        tree_index: Some(0),
        byte_offset: line.map_or(0, |l| l.offset),
        kind: ErrorKind::BadRecord {
            format,
            line: line.map_or(0, |l| l.number),
            reason: reason.to_owned(),
        },
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value's text as the SGF reader's SimpleText: control characters and white space
    /// of any kind (a no-break space in a single-byte charset, an ideographic space) are
    /// spaces, the ends trimmed.
    #[test]
    fn texts_are_simple_text() {
        let w = encoding_rs::WINDOWS_1256;
        assert_eq!(text_of(b" a\xA0b\x02c\t", w).as_deref(), Some("a b c"));
        assert_eq!(
            text_of("x\u{3000}y\u{a0}".as_bytes(), UTF_8).as_deref(),
            Some("x y")
        );
        assert_eq!(text_of(b"\xA0\x01", w), None);
    }

    #[test]
    fn lines_keep_their_offsets() {
        let b = b"\xEF\xBB\xBFab\r\ncd\n\nef";
        let l = lines(b);
        let got: Vec<(usize, usize, &[u8])> =
            l.iter().map(|l| (l.number, l.offset, l.bytes)).collect();
        assert_eq!(
            got,
            [
                (1, 3, &b"ab"[..]),
                (2, 7, &b"cd"[..]),
                (3, 10, &b""[..]),
                (4, 11, &b"ef"[..])
            ]
        );
        for l in &l {
            assert_eq!(&b[l.offset..l.offset + l.bytes.len()], l.bytes);
        }
        assert!(lines(b"").is_empty());
        assert_eq!(lines(b"x\n").len(), 1);
    }

    #[test]
    fn numbers_and_margins() {
        assert_eq!(number(b" 65 "), Some(65));
        assert_eq!(number(b"-5"), Some(-5));
        assert_eq!(number(b"6.5"), None);
        assert_eq!(number(b""), None);
        assert_eq!(number(b"99999999999999"), None);
        assert_eq!(tenths_text(110), "11");
        assert_eq!(tenths_text(65), "6.5");
        assert_eq!(tenths_text(-5), "-0.5");
        assert_eq!(tenths_text(-20), "-2");
    }

    /// The stones of every count are distinct star points, and each placement's first
    /// stones are those of the smaller counts (but for the centre of the odd counts).
    #[test]
    fn handicap_placements() {
        let stars: Vec<Point> = [3u8, 9, 15]
            .iter()
            .flat_map(|&x| [3u8, 9, 15].map(|y| Point::new(x, y)))
            .collect();
        for placement in [Placement::Standard, Placement::Tygem] {
            for n in 2..=9 {
                let s = handicap_stones(n, Size::STANDARD, placement);
                assert_eq!(s.len(), n as usize);
                assert!(s.iter().all(|p| stars.contains(p)));
                let mut d = s.clone();
                d.sort_by_key(|p| p.index19());
                d.dedup();
                assert_eq!(d.len(), s.len());
                assert_eq!(s.contains(&Point::new(9, 9)), n % 2 == 1 && n >= 5);
            }
            assert!(handicap_stones(1, Size::STANDARD, placement).is_empty());
            assert!(handicap_stones(2, Size::square(9).unwrap(), placement).is_empty());
        }
        assert_eq!(
            handicap_stones(3, Size::STANDARD, Placement::Standard)[2],
            Point::new(15, 15)
        );
        assert_eq!(
            handicap_stones(3, Size::STANDARD, Placement::Tygem)[2],
            Point::new(3, 3)
        );
    }
}
