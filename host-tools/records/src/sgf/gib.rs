//! Tygem's `.gib` records.
//!
//! A header of `\[KEY=VALUE\]` lines between `\HS` and `\HE`, then the game between `\GS`
//! and `\GE`: `INI 0 1 H ...` (H handicap stones, placed by Tygem's rule: the third in the
//! upper left corner) and one `STO 0 N C X Y` line per move (C 1 for Black, 2 for White; X
//! and Y from 0 at the top left). What is kept:
//!
//! - players and ranks from `GAMEBLACKNAME` / `GAMEWHITENAME` (`name (rank)`);
//! - the date from `GAMETAG`'s `C2016:03:26:...`, else `GAMEINFOSUB`'s `GDATE:`, else the
//!   first three numbers of `GAMEDATE`;
//! - the result from `GRLT` (0 Black and 1 White by `ZIPSU` tenths of a point, 3 and 4 by
//!   resignation, 7 and 8 on time) in `GAMEINFOMAIN` (else `GAMETAG`'s `W` and `Z`), else the
//!   text of `GAMERESULT`;
//! - komi from `GONGJE` (tenths of a point, what Black gives), when `DUM` (a komi the file
//!   does not say who gives) is 0; else unknown;
//! - `GAMEPLACE` as the place, `GAMENAME` as the game's name.
//!
//! The board is 19x19. Lines the reader does not know are passed over; a `STO` line that
//! names no point of the board ends the main line there (a warning at its line).

use kifudex_core::Color;

use super::lines::{self, Line, Placement, Record};
use super::{info, ParsedFile};

/// The format's name in errors.
const FORMAT: &str = "Tygem .gib";

/// Reads a `.gib` file: one game, or a rejection naming the line.
pub(super) fn parse(bytes: &[u8], path: &str, member: Option<&str>) -> ParsedFile {
    let mut out = ParsedFile::default();
    let lines = lines::lines(bytes);
    let mut rec = Record::new(path, member);
    rec.encoding = lines::file_encoding(bytes, None, &mut rec.warnings);
    let enc = rec.encoding;

    let mut header: Vec<(&[u8], &[u8])> = Vec::new();
    let mut game_start: Option<usize> = None;
    for (i, l) in lines.iter().enumerate() {
        let t = l.trimmed();
        if t == b"\\GS" {
            game_start = Some(i);
            break;
        }
        if let Some(kv) = t.strip_prefix(b"\\[").and_then(|r| r.strip_suffix(b"\\]")) {
            if let Some(eq) = kv.iter().position(|&c| c == b'=') {
                header.push((&kv[..eq], &kv[eq + 1..]));
            }
        }
    }
    let Some(game_start) = game_start else {
        let why = if header.is_empty() {
            "no header line (\\[KEY=VALUE\\]) and no game section (\\GS)"
        } else {
            "no game section (\\GS)"
        };
        lines::reject(&mut out, path, member, FORMAT, lines.last(), why);
        return out;
    };
    let get = |key: &[u8]| {
        header
            .iter()
            .find(|(k, _)| k.trim_ascii() == key)
            .map(|(_, v)| *v)
    };

    read_header(&mut rec, &get, enc);
    for l in &lines[game_start + 1..] {
        let t = l.trimmed();
        if t == b"\\GE" {
            break;
        }
        read_game_line(&mut rec, l, t);
    }
    rec.finish(&mut out);
    out
}

/// The game information of the header.
fn read_header<'a>(
    rec: &mut Record<'_>,
    get: &impl Fn(&[u8]) -> Option<&'a [u8]>,
    enc: &'static encoding_rs::Encoding,
) {
    for (key, black) in [(&b"GAMEBLACKNAME"[..], true), (b"GAMEWHITENAME", false)] {
        let Some(v) = get(key) else { continue };
        let (name, rank) = name_and_rank(v);
        let (n, r) = (
            lines::text_of(name, enc),
            rank.and_then(|r| lines::text_of(r, enc)),
        );
        if black {
            (rec.info.black, rec.info.black_rank) = (n, r);
        } else {
            (rec.info.white, rec.info.white_rank) = (n, r);
        }
    }
    rec.info.place = get(b"GAMEPLACE").and_then(|v| lines::text_of(v, enc));
    rec.info.game_name = get(b"GAMENAME").and_then(|v| lines::text_of(v, enc));

    let main = get(b"GAMEINFOMAIN").unwrap_or(b"");
    let tag = get(b"GAMETAG").unwrap_or(b"");
    let sub = get(b"GAMEINFOSUB").unwrap_or(b"");

    rec.info.date = tag_field(tag, b'C')
        .and_then(|c| lines::ymd(c, 3))
        .or_else(|| field(sub, b"GDATE").and_then(|d| lines::ymd(d, 3)))
        .or_else(|| get(b"GAMEDATE").and_then(|d| lines::ymd(d, 3)));
    rec.info.year = rec.info.date.as_deref().and_then(info::parse_year);

    let grlt = field(main, b"GRLT")
        .and_then(lines::number)
        .or_else(|| tag_field(tag, b'W').and_then(lines::number));
    let zipsu = field(main, b"ZIPSU")
        .and_then(lines::number)
        .or_else(|| tag_field(tag, b'Z').and_then(lines::number));
    let result = match (grlt, zipsu) {
        (Some(0), Some(z)) => Some(format!("B+{}", lines::tenths_text(z))),
        (Some(1), Some(z)) => Some(format!("W+{}", lines::tenths_text(z))),
        (Some(3), _) => Some("B+R".to_owned()),
        (Some(4), _) => Some("W+R".to_owned()),
        (Some(7), _) => Some("B+T".to_owned()),
        (Some(8), _) => Some("W+T".to_owned()),
        _ => get(b"GAMERESULT").and_then(|v| lines::text_of(v, enc)),
    };
    rec.info.result = result.map(|r| info::parse_result(&r));

    let gongje = field(main, b"GONGJE")
        .or_else(|| get(b"GAMEGONGJE"))
        .or_else(|| tag_field(tag, b'G'))
        .and_then(lines::number);
    let dum = field(main, b"DUM")
        .or_else(|| get(b"GAMEDUM"))
        .and_then(lines::number);
    if let (Some(g), Some(0) | None) = (gongje, dum) {
        rec.info.komi = i32::try_from(g * 10).ok();
    }
}

/// One line of the game section: the handicap (`INI`) or a move (`STO`); others are
/// passed over.
fn read_game_line(rec: &mut Record<'_>, l: &Line<'_>, t: &[u8]) {
    let mut words = t
        .split(|c| c.is_ascii_whitespace())
        .filter(|w| !w.is_empty());
    match words.next() {
        Some(b"INI") => {
            let handicap = words.nth(2).and_then(lines::number).unwrap_or(0);
            if rec.info.handicap.is_none() {
                rec.handicap(handicap, Placement::Tygem, l.offset);
            }
        }
        Some(b"STO") => {
            let w: Vec<&[u8]> = words.take(5).collect();
            let n = |i: usize| w.get(i).copied().and_then(lines::number);
            let color = match n(2) {
                Some(1) => Some(Color::Black),
                Some(2) => Some(Color::White),
                _ => None,
            };
            match (color, n(3), n(4)) {
                (Some(c), Some(x), Some(y)) => rec.play(c, Some((x, y)), l.offset),
                _ => rec.invalid_move(l.offset),
            }
        }
        _ => {}
    }
}

/// `name (rank)` split at its last `(`, when the value ends with `)`.
fn name_and_rank(v: &[u8]) -> (&[u8], Option<&[u8]>) {
    let t = v.trim_ascii();
    if let Some(inner) = t.strip_suffix(b")") {
        if let Some(open) = inner.iter().rposition(|&c| c == b'(') {
            return (&inner[..open], Some(&inner[open + 1..]));
        }
    }
    (t, None)
}

/// The value of `KEY:value` in a comma-separated list (`GAMEINFOMAIN`, `GAMEINFOSUB`).
fn field<'a>(list: &'a [u8], key: &[u8]) -> Option<&'a [u8]> {
    list.split(|&c| c == b',').find_map(|item| {
        let item = item.trim_ascii();
        item.strip_prefix(key)?.strip_prefix(b":")
    })
}

/// The value of the item of `GAMETAG` that starts with the letter `key` (`C2016:03:...`).
fn tag_field(tag: &[u8], key: u8) -> Option<&[u8]> {
    tag.split(|&c| c == b',').find_map(|item| {
        let item = item.trim_ascii();
        (item.first() == Some(&key) && item.get(1).is_some_and(u8::is_ascii_digit))
            .then(|| &item[1..])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_values() {
        assert_eq!(
            name_and_rank(b"leejw977 (10K)"),
            (&b"leejw977 "[..], Some(&b"10K"[..]))
        );
        assert_eq!(name_and_rank(b"kim"), (&b"kim"[..], None));
        let main = b"GBKIND:3,GTYPE:1,GRLT:255,ZIPSU:0,DUM:5,GONGJE:0,TCNT:0";
        assert_eq!(field(main, b"GRLT"), Some(&b"255"[..]));
        assert_eq!(field(main, b"DUM"), Some(&b"5"[..]));
        assert_eq!(field(main, b"UM"), None);
        let tag = b"S0,R0,D0,G65,W7,Z0,T30-3-1200,\t\tC2015:08:29:22:56,\t\tI:dongjik";
        assert_eq!(tag_field(tag, b'C'), Some(&b"2015:08:29:22:56"[..]));
        assert_eq!(tag_field(tag, b'G'), Some(&b"65"[..]));
        assert_eq!(tag_field(tag, b'I'), None);
        assert_eq!(
            lines::ymd(b"2016- 3-26-17-29-25", 3).as_deref(),
            Some("2016-03-26")
        );
        assert_eq!(
            lines::ymd(b"2015:08:29:22:56", 3).as_deref(),
            Some("2015-08-29")
        );
        assert_eq!(lines::ymd(b"16-3-26", 3), None);
    }
}
