//! Charsets and the decoding of the few text properties kept.

use super::WarningKind;
use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8};

/// `Some(UTF-16LE/BE)` when the file is UTF-16: by its BOM, or, without one, by the NUL bytes of
/// ASCII text (`(\0;\0` ...) in its first 512 bytes.
pub(super) fn utf16_kind(b: &[u8]) -> Option<&'static Encoding> {
    if b.starts_with(b"\xFF\xFE") {
        return Some(UTF_16LE);
    }
    if b.starts_with(b"\xFE\xFF") {
        return Some(UTF_16BE);
    }
    let head = &b[..b.len().min(512) & !1];
    if head.len() < 8 {
        return None;
    }
    let pairs = head.len() / 2;
    let (mut even0, mut odd0) = (0usize, 0usize);
    for p in head.chunks_exact(2) {
        even0 += (p[0] == 0) as usize;
        odd0 += (p[1] == 0) as usize;
    }
    // Mostly ASCII text: one byte of each pair is NUL, the other almost never.
    if odd0 * 10 >= pairs * 7 && even0 * 20 <= pairs && head.contains(&b'(') {
        Some(UTF_16LE)
    } else if even0 * 10 >= pairs * 7 && odd0 * 20 <= pairs && head.contains(&b'(') {
        Some(UTF_16BE)
    } else {
        None
    }
}

/// The encoding named by a `CA[]` value (WHATWG labels plus the spellings met in SGF files).
pub(super) fn encoding_for_label(raw: &[u8]) -> Option<&'static Encoding> {
    let label: Vec<u8> = raw
        .iter()
        .copied()
        .filter(|&c| c != b'\\' && !c.is_ascii_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if let Some(e) = Encoding::for_label(&label) {
        return Some(e);
    }
    let squashed: Vec<u8> = label
        .iter()
        .copied()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    let name: &[u8] = match squashed.as_slice() {
        b"utf8" => b"utf-8",
        b"utf16" | b"utf16le" => b"utf-16le",
        b"utf16be" => b"utf-16be",
        b"eucc" | b"euccn" | b"gb" | b"cp936" | b"ms936" | b"windows936" => b"gbk",
        b"mskanji" | b"sjis" | b"shiftjis" | b"cp932" | b"windows31j" => b"shift_jis",
        b"euckr" | b"cp949" | b"uhc" | b"ks5601" => b"euc-kr",
        b"big5" | b"big5hkscs" | b"cp950" => b"big5",
        b"eucjp" => b"euc-jp",
        b"latin1" | b"iso88591" | b"ascii" | b"usascii" => b"windows-1252",
        _ => {
            // iso8859X / iso-8859_X
            if let Some(rest) = squashed.strip_prefix(b"iso8859") {
                let mut l = b"iso-8859-".to_vec();
                l.extend_from_slice(rest);
                return Encoding::for_label(&l);
            }
            return None;
        }
    };
    Encoding::for_label(name)
}

/// Counts (well-formed multi-byte UTF-8 sequences, malformed bytes), where a `?` may stand for
/// any continuation byte: Fox wrote UTF-8 with bytes replaced by `?` (`E6 3F 8E`).
fn utf8_score(b: &[u8]) -> (usize, usize) {
    let (mut good, mut bad) = (0, 0);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c < 0x80 {
            i += 1;
            continue;
        }
        let len = match c {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => 0,
        };
        if len > 0
            && b.get(i + 1..i + len)
                .is_some_and(|t| t.iter().all(|&x| (0x80..0xC0).contains(&x) || x == b'?'))
        {
            good += 1;
            i += len;
        } else {
            bad += 1;
            i += 1;
        }
    }
    (good, bad)
}

/// The charset of a tree: `CA[]` when it names one; else UTF-8 when the kept text is valid UTF-8
/// (or the file had a UTF-8 BOM or was UTF-16); else UTF-8 when the text is mostly well-formed
/// UTF-8 with some bytes destroyed (Fox files: `?` in place of continuation bytes); else what
/// `chardetng` guesses from the whole tree.
pub(super) fn choose_encoding<'a>(
    ca: Option<&[u8]>,
    texts: impl Iterator<Item = &'a [u8]> + Clone,
    tree: &[u8],
    utf8_hint: bool,
    utf16: bool,
    mut warn: impl FnMut(WarningKind),
) -> &'static Encoding {
    if utf16 {
        return UTF_8;
    }
    let mut declared_utf8 = false;
    if let Some(ca) = ca {
        match encoding_for_label(ca) {
            // A file's own UTF-16 is transcoded beforehand; a CA[UTF-16] in a byte file is
            // honoured per value (mixed-encoding files).
            Some(e) if e == UTF_8 => declared_utf8 = true,
            // A declared legacy charset, but the text is non-ASCII valid UTF-8: the file was
            // converted to UTF-8 and the CA left as it was.
            Some(e)
                if e != UTF_16LE
                    && e != UTF_16BE
                    && texts.clone().any(|t| !t.is_ascii())
                    && texts.clone().all(|t| std::str::from_utf8(t).is_ok()) =>
            {
                warn(WarningKind::CharsetMismatch);
                return UTF_8;
            }
            Some(e) => return e,
            None => warn(WarningKind::UnknownCharset),
        }
    }
    let mut all_ascii = true;
    let mut valid = true;
    for t in texts.clone() {
        if !t.is_ascii() {
            all_ascii = false;
            if std::str::from_utf8(t).is_err() {
                valid = false;
            }
        }
    }
    if all_ascii || valid {
        return UTF_8;
    }
    let (mut good, mut bad) = (0, 0);
    for t in texts {
        let (g, b) = utf8_score(t);
        good += g;
        bad += b;
    }
    if good > 0 && good >= 2 * bad || utf8_hint || declared_utf8 {
        warn(WarningKind::BrokenUtf8);
        return UTF_8;
    }
    let mut det = chardetng::EncodingDetector::new();
    det.feed(tree, true);
    warn(WarningKind::CharsetGuessed);
    det.guess(None, false)
}

/// Decodes a SimpleText value: charset, then `\` escapes (an escaped line break is removed),
/// other line breaks and control whitespace become spaces, trimmed. `None` when empty.
pub(super) fn decode_simple(raw: &[u8], enc: &'static Encoding) -> Option<String> {
    // Fast path: plain printable ASCII without escapes.
    if raw.iter().all(|&c| (b' '..0x7F).contains(&c) && c != b'\\') {
        let s = std::str::from_utf8(raw).ok()?.trim();
        return (!s.is_empty()).then(|| s.to_owned());
    }
    let (s, _) = enc.decode_without_bom_handling(raw);
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(n @ ('\n' | '\r')) => {
                    // Soft line break: `\` + newline (+ the other half of CRLF/LFCR) vanish.
                    if let Some(&m) = chars.peek() {
                        if (m == '\n' || m == '\r') && m != n {
                            chars.next();
                        }
                    }
                }
                // Escaped or not, white space is a space (an escaped no-break space was
                // kept, and read back as a space once written unescaped: found by fuzzing).
                Some(n) if n.is_control() || n.is_whitespace() => out.push(' '),
                Some(n) => out.push(n),
                None => {}
            },
            '\0' => {}
            c if c.is_control() || c.is_whitespace() => out.push(' '),
            c => out.push(c),
        }
    }
    let t = out.trim();
    if t.is_empty() {
        None
    } else if t.len() == out.len() {
        Some(out)
    } else {
        Some(t.to_owned())
    }
}
