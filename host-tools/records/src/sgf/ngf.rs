//! WBaduk's (Cyberoro's) `.ngf` records.
//!
//! A header of 12 lines, then one `PM` line per move. The header: the game's title, the
//! board size, White (`name   rank`), Black, the site, the handicap, a number the reader
//! does not use, the komi's whole points (half a point more in an even game: `7` is 7.5),
//! the date (`20170316 [09:37]`), the time in minutes, the result in words (`Black wins by
//! 0.5!`, `White wins by resign!`, `黒中押し勝ち!`), the number of moves. A move line is
//! `PM`, two letters of move number, `B` or `W`, then the point as four letters `XYYX`, `B`
//! for the first line (`A` for a pass, `AAAA`). Handicap stones stand where they usually do
//! (the third in the lower right corner).
//!
//! Some files put `GI` before each header line, in another order (title, two players, two
//! unused lines, date, size, handicap, an unused line, komi, moves) and end with the result
//! as `IDB[moves] result[EndTxt]`; their two players are named without their colours,
//! so the reader keeps them as the game's name (`A - B`) and sets no player.

use kifudex_core::{Color, Size};

use super::lines::{self, Line, Placement, Record};
use super::{info, ParsedFile};

/// The format's name in errors.
const FORMAT: &str = "WBaduk .ngf";

/// Reads a `.ngf` file: one game, or a rejection naming the line.
pub(super) fn parse(bytes: &[u8], path: &str, member: Option<&str>) -> ParsedFile {
    let mut out = ParsedFile::default();
    let lines = lines::lines(bytes);
    let mut rec = Record::new(path, member);
    rec.encoding = lines::file_encoding(bytes, None, &mut rec.warnings);
    let gi = lines.first().is_some_and(|l| l.bytes.starts_with(b"GI"));
    let header: Vec<&Line<'_>> = if gi {
        lines
            .iter()
            .filter(|l| l.bytes.starts_with(b"GI"))
            .collect()
    } else {
        lines.iter().take_while(|l| !is_move(l)).collect()
    };
    let need = 11;
    if header.len() < need {
        let why = format!(
            "a header of {} lines, not {need} or more (title, size, players, ...)",
            header.len()
        );
        lines::reject(&mut out, path, member, FORMAT, header.last().copied(), &why);
        return out;
    }
    let ok = if gi {
        read_gi_header(&mut rec, &header)
    } else {
        read_header(&mut rec, &header)
    };
    if let Err((line, why)) = ok {
        lines::reject(&mut out, path, member, FORMAT, Some(line), &why);
        return out;
    }
    for l in lines.iter().filter(|l| is_move(l)) {
        read_move(&mut rec, l);
    }
    if gi {
        if let Some(l) = lines.iter().rev().find(|l| l.bytes.starts_with(b"IDB")) {
            let text = l.bytes.trim_ascii();
            let text = text.strip_suffix(b"[EndTxt]").unwrap_or(text);
            let text = match text.iter().position(|&c| c == b']') {
                Some(p) => &text[p + 1..],
                None => text,
            };
            rec.info.result = result(text, rec.encoding);
        }
    }
    rec.finish(&mut out);
    out
}

/// Whether a line is a move.
fn is_move(l: &Line<'_>) -> bool {
    l.bytes.starts_with(b"PM")
}

/// The value of a `GI` line (the line itself otherwise).
fn value<'a>(l: &Line<'a>) -> &'a [u8] {
    let t = l.bytes;
    t.strip_prefix(b"GI").unwrap_or(t).trim_ascii()
}

/// A header line that must hold a whole number.
fn whole<'l>(l: &'l Line<'_>, what: &str) -> Result<i64, (&'l Line<'l>, String)> {
    lines::number(value(l)).ok_or_else(|| {
        (
            l,
            format!(
                "the {what} is not a number: {:?}",
                String::from_utf8_lossy(value(l))
            ),
        )
    })
}

/// The board size, 2 to 19.
fn size<'l>(l: &'l Line<'_>) -> Result<Size, (&'l Line<'l>, String)> {
    let n = whole(l, "board size")?;
    u8::try_from(n)
        .ok()
        .and_then(Size::square)
        .filter(|_| n >= 2)
        .ok_or_else(|| (l, format!("unsupported board size {n}")))
}

/// Komi in hundredths from the whole points a file writes (half a point more in an even
/// game).
fn komi(points: i64, handicap: i64) -> Option<i32> {
    let half = if handicap == 0 { 50 } else { 0 };
    i32::try_from(points.checked_mul(100)?.checked_add(half)?).ok()
}

fn read_header<'l>(rec: &mut Record<'_>, h: &[&'l Line<'l>]) -> Result<(), (&'l Line<'l>, String)> {
    let enc = rec.encoding;
    rec.size = size(h[1])?;
    rec.info.game_name = lines::text_of(value(h[0]), enc);
    let (w, wr) = name_and_rank(value(h[2]));
    let (b, br) = name_and_rank(value(h[3]));
    rec.info.white = lines::text_of(w, enc);
    rec.info.white_rank = wr.and_then(|r| lines::text_of(r, enc));
    rec.info.black = lines::text_of(b, enc);
    rec.info.black_rank = br.and_then(|r| lines::text_of(r, enc));
    rec.info.place = lines::text_of(value(h[4]), enc);
    let handicap = whole(h[5], "handicap")?;
    rec.info.komi = komi(whole(h[7], "komi")?, handicap);
    rec.info.date = date(value(h[8]));
    rec.info.year = rec.info.date.as_deref().and_then(info::parse_year);
    rec.info.result = result(value(h[10]), enc);
    rec.handicap(handicap, Placement::Standard, h[5].offset);
    Ok(())
}

fn read_gi_header<'l>(
    rec: &mut Record<'_>,
    h: &[&'l Line<'l>],
) -> Result<(), (&'l Line<'l>, String)> {
    let enc = rec.encoding;
    rec.size = size(h[6])?;
    rec.info.event = lines::text_of(value(h[0]), enc);
    let players: Vec<String> = [h[1], h[2]]
        .iter()
        .filter_map(|l| lines::text_of(value(l), enc))
        .collect();
    rec.info.game_name = (!players.is_empty()).then(|| players.join(" - "));
    rec.info.date = lines::ymd(value(h[5]), 3);
    rec.info.year = rec.info.date.as_deref().and_then(info::parse_year);
    let handicap = whole(h[7], "handicap")?;
    rec.info.komi = komi(whole(h[9], "komi")?, handicap);
    rec.handicap(handicap, Placement::Standard, h[7].offset);
    Ok(())
}

/// `name   rank`: the rank is the last word when there are two or more.
fn name_and_rank(v: &[u8]) -> (&[u8], Option<&[u8]>) {
    let t = v.trim_ascii();
    match t.iter().rposition(|&c| c == b' ' || c == b'\t') {
        Some(p) => (t[..p].trim_ascii(), Some(&t[p + 1..])),
        None => (t, None),
    }
}

/// `20170316 [09:37]` as `2017-03-16` (nothing for a date of zeros).
fn date(v: &[u8]) -> Option<String> {
    let d = v.get(..8).filter(|d| d.iter().all(u8::is_ascii_digit))?;
    let n = |r: std::ops::Range<usize>| lines::number(&d[r]).unwrap_or(0);
    let (y, m, day) = (n(0..4), n(4..6), n(6..8));
    if y == 0 {
        return None;
    }
    Some(match (m, day) {
        (1..=12, 1..=31) => format!("{y:04}-{m:02}-{day:02}"),
        (1..=12, _) => format!("{y:04}-{m:02}"),
        _ => format!("{y:04}"),
    })
}

/// The result in words: English sentences (`Black wins by 0.5!`, `White wins by resign!`,
/// `White loses on time`) as `B+0.5`, `W+R`, `B+T`; other words (`黒中押し勝ち!`) as the
/// result reader reads `RE[]`.
fn result(v: &[u8], enc: &'static encoding_rs::Encoding) -> Option<super::GameResult> {
    let text = lines::text_of(v, enc)?;
    let l = text.to_ascii_lowercase();
    let winner = if l.contains("black win") || l.contains("white lose") {
        Some('B')
    } else if l.contains("white win") || l.contains("black lose") {
        Some('W')
    } else {
        None
    };
    let Some(w) = winner else {
        return Some(info::parse_result(text.trim_end_matches(['!', '！'])));
    };
    let margin = if l.contains("resign") {
        "R".to_owned()
    } else if l.contains("time") {
        "T".to_owned()
    } else {
        // The first number: the points (`Black Win 6.5 >> White(50):Black(63)`).
        l.split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .find(|s| !s.is_empty() && s.parse::<f64>().is_ok())
            .unwrap_or("")
            .to_owned()
    };
    Some(info::parse_result(&format!("{w}+{margin}")))
}

/// One `PM` line: a move, a pass, or the end of the main line.
fn read_move(rec: &mut Record<'_>, l: &Line<'_>) {
    let t = l.bytes.trim_ascii();
    let color = match t.get(4) {
        Some(b'B') => Color::Black,
        Some(b'W') => Color::White,
        _ => return rec.invalid_move(l.offset),
    };
    let Some(&[a, b, c, d]) = t.get(5..9).and_then(|s| <&[u8; 4]>::try_from(s).ok()) else {
        return rec.invalid_move(l.offset);
    };
    if a != d || b != c || !a.is_ascii_uppercase() || !b.is_ascii_uppercase() {
        return rec.invalid_move(l.offset);
    }
    if a == b'A' && b == b'A' {
        rec.play(color, None, l.offset);
    } else {
        rec.play(color, Some((a as i64 - 66, b as i64 - 66)), l.offset);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_values() {
        assert_eq!(
            name_and_rank(b"LQC         9DP"),
            (&b"LQC"[..], Some(&b"9DP"[..]))
        );
        assert_eq!(name_and_rank(b"ace550"), (&b"ace550"[..], None));
        assert_eq!(date(b"20170316 [09:37]").as_deref(), Some("2017-03-16"));
        assert_eq!(date(b"00000000 [00:00]"), None);
        assert_eq!(date(b"2017"), None);
        assert_eq!(komi(7, 0), Some(750));
        assert_eq!(komi(0, 2), Some(0));
        let r = |s: &str| result(s.as_bytes(), encoding_rs::UTF_8).map(|r| r.raw);
        assert_eq!(r("Black wins by 0.5!").as_deref(), Some("B+0.5"));
        assert_eq!(r("White wins by  resign!").as_deref(), Some("W+R"));
        assert_eq!(r("White loses on time").as_deref(), Some("B+T"));
        assert_eq!(
            r("Black Win 6.5 >> White(50):Black(63)").as_deref(),
            Some("B+6.5")
        );
        assert_eq!(r("黒中押し勝ち!").as_deref(), Some("黒中押し勝ち"));
        assert_eq!(r(""), None);
    }
}
