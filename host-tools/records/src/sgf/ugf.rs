//! PandaNet's `.ugf` records (and `.ugi`, the same with a review after the game).
//!
//! Sections under `[Name]` lines. `[Header]` holds `Key=value` lines: `Lang` (the charset,
//! `SJIS`, ...), `Title`, `Place`, `Date` (`2019/03/08,22:09:00,...`), `Rule`, `Size`,
//! `Hdcp` (handicap, komi), `Winner` (`B,7.50`; `B,R`...), `PlayerB` and `PlayerW`
//! (`name,rank,...`). `[Data]` holds one line per stone, `QP,B1,1,0`: the point (a column
//! letter from `A` at the left, a row letter from `A` at the bottom), the colour, the move
//! number (0 for the handicap stones, set up before the first move), the time; a pass is
//! written `YA`. Other
//! sections (the review) are not read.

use kifudex_core::{Color, Point, Size, Stone};

use super::lines::{self, Line, Record};
use super::{info, ParsedFile};

/// The format's name in errors.
const FORMAT: &str = "PandaNet .ugf";

/// Reads a `.ugf` or `.ugi` file: one game, or a rejection naming the line.
pub(super) fn parse(bytes: &[u8], path: &str, member: Option<&str>) -> ParsedFile {
    let mut out = ParsedFile::default();
    let lines = lines::lines(bytes);
    let mut header: Vec<(&[u8], &[u8], &Line<'_>)> = Vec::new();
    let mut data: Vec<&Line<'_>> = Vec::new();
    let mut section: &[u8] = b"";
    let mut sections = 0;
    for l in &lines {
        let t = l.trimmed();
        if let Some(name) = t.strip_prefix(b"[").and_then(|r| r.strip_suffix(b"]")) {
            section = name;
            sections += 1;
            continue;
        }
        match section {
            b"Header" => {
                if let Some(eq) = t.iter().position(|&c| c == b'=') {
                    header.push((&t[..eq], &t[eq + 1..], l));
                }
            }
            b"Data" if !t.is_empty() => data.push(l),
            _ => {}
        }
    }
    if sections == 0 || header.is_empty() {
        lines::reject(
            &mut out,
            path,
            member,
            FORMAT,
            lines.last(),
            "no [Header] section with Key=value lines",
        );
        return out;
    }
    let get = |key: &[u8]| {
        header
            .iter()
            .find(|(k, _, _)| k.trim_ascii() == key)
            .map(|(_, v, l)| (*v, *l))
    };
    let mut rec = Record::new(path, member);
    rec.encoding = lines::file_encoding(bytes, get(b"Lang").map(|v| v.0), &mut rec.warnings);
    let enc = rec.encoding;
    if let Some((v, l)) = get(b"Size") {
        match lines::number(v)
            .and_then(|n| u8::try_from(n).ok())
            .and_then(Size::square)
        {
            Some(s) if s.width() >= 2 => rec.size = s,
            _ => {
                let why = format!("unsupported board size {:?}", String::from_utf8_lossy(v));
                lines::reject(&mut out, path, member, FORMAT, Some(l), &why);
                return out;
            }
        }
    }
    let text = |key: &[u8], k: usize| {
        get(key).and_then(|(v, _)| lines::text_of(v.split(|&c| c == b',').nth(k)?, enc))
    };
    rec.info.black = text(b"PlayerB", 0);
    rec.info.black_rank = text(b"PlayerB", 1);
    rec.info.white = text(b"PlayerW", 0);
    rec.info.white_rank = text(b"PlayerW", 1);
    rec.info.event = get(b"Title")
        .and_then(|(v, _)| lines::text_of(v.trim_ascii().trim_ascii_end(), enc))
        // The trailing commas of the line's empty fields, and the spaces between them (a
        // control character before a comma is a space once read: found by fuzzing).
        .map(|t| t.trim_end_matches([',', ' ']).to_owned())
        .filter(|t| !t.is_empty());
    rec.info.place = text(b"Place", 0);
    rec.info.rules = text(b"Rule", 0);
    rec.info.date = get(b"Date").and_then(|(v, _)| lines::ymd(v, 3));
    rec.info.year = rec.info.date.as_deref().and_then(info::parse_year);
    if let Some((v, _)) = get(b"Hdcp") {
        let mut f = v.split(|&c| c == b',');
        let handicap = f.next().and_then(lines::number).unwrap_or(0);
        if handicap >= 2 {
            rec.info.handicap = u16::try_from(handicap).ok();
        }
        rec.info.komi = f
            .next()
            .and_then(|k| std::str::from_utf8(k).ok())
            .and_then(info::parse_komi);
    }
    rec.info.result = get(b"Winner").and_then(|(v, _)| {
        let mut f = v.split(|&c| c == b',');
        let w = match f.next()?.trim_ascii() {
            b"B" => 'B',
            b"W" => 'W',
            _ => return None,
        };
        // As every text of the file: control characters as spaces, trimmed (the bytes as
        // they were kept control characters the SGF written of the game drops).
        let m = f
            .next()
            .and_then(|m| lines::text_of(m, enc))
            .unwrap_or_default();
        Some(info::parse_result(&format!("{w}+{m}")))
    });
    for l in data {
        read_stone(&mut rec, l);
    }
    rec.finish(&mut out);
    out
}

/// One `[Data]` line: a handicap stone (move number 0) or a move.
fn read_stone(rec: &mut Record<'_>, l: &Line<'_>) {
    let f: Vec<&[u8]> = l.trimmed().split(|&c| c == b',').collect();
    let color = match f.get(1).and_then(|c| c.first()) {
        Some(b'B') => Color::Black,
        Some(b'W') => Color::White,
        _ => return rec.invalid_move(l.offset),
    };
    let number = f.get(2).copied().and_then(lines::number);
    let point = f.first().map(|p| p.trim_ascii());
    if point == Some(b"YA") && number.is_some_and(|n| n > 0) {
        return rec.play(color, None, l.offset);
    }
    let at = match point {
        Some(&[c, r]) if c.is_ascii_uppercase() && r.is_ascii_uppercase() => {
            let x = (c - b'A') as i64;
            let y = rec.size.height() as i64 - 1 - (r - b'A') as i64;
            Some((x, y))
        }
        _ => None,
    };
    match (number, at) {
        (Some(0), Some((x, y))) if x >= 0 && y >= 0 && x < 52 && y < 52 => {
            let stone = Stone::of(color);
            rec.setup(Point::new(x as u8, y as u8), stone, l.offset);
        }
        (Some(0), _) => rec.warn(l.offset, super::WarningKind::BadSetupPoint),
        (Some(_), Some(at)) => rec.play(color, Some(at), l.offset),
        _ => rec.invalid_move(l.offset),
    }
}
