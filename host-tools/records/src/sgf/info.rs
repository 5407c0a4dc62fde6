//! Parsing of the game-info values: result, komi, year.

use super::{GameResult, Margin};
use kifudex_core::Color;

/// Parses a decimal number (`6.5`, `-1.5`, `7.500000`, `+3`, `6,5`) into hundredths, rounded.
fn hundredths(s: &str) -> Option<(i64, bool)> {
    let s = s.trim();
    let (neg, s) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (int, frac, has_point) = match s.find(['.', ',']) {
        Some(p) => (&s[..p], &s[p + 1..], true),
        None => (s, "", false),
    };
    if int.is_empty() && frac.is_empty()
        || !int.bytes().all(|c| c.is_ascii_digit())
        || !frac.bytes().all(|c| c.is_ascii_digit())
        || int.len() > 9
    {
        return None;
    }
    let mut v: i64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    v *= 100;
    let fb = frac.as_bytes();
    let digit = |i: usize| fb.get(i).map_or(0, |c| (c - b'0') as i64);
    v += digit(0) * 10 + digit(1);
    if digit(2) >= 5 {
        v += 1;
    }
    Some((if neg { -v } else { v }, has_point))
}

/// `KM[]` in hundredths of a point. Fox's komi ×100 (`KM[650]`, `KM[375]`): an integer komi of
/// absolute value 100 or more is taken as hundredths already (no real komi reaches 100 points).
pub fn parse_komi(raw: &str) -> Option<i32> {
    let (v, has_point) = hundredths(raw)?;
    let v = if !has_point && v.abs() >= 100 * 100 {
        v / 100
    } else {
        v
    };
    i32::try_from(v).ok()
}

/// The first run of exactly 4 digits in 1000..=2999.
pub fn parse_year(date: &str) -> Option<u16> {
    let b = date.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let s = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i - s == 4 {
                let y: u16 = date[s..i].parse().ok()?;
                if (1000..=2999).contains(&y) {
                    return Some(y);
                }
            }
        } else {
            i += 1;
        }
    }
    None
}

fn margin_word(m: &str) -> Margin {
    let m = m.trim();
    let l = m.to_ascii_lowercase();
    let l = l.trim_end_matches('.');
    if l.is_empty() {
        return Margin::Unknown;
    }
    if l == "r" || l.starts_with("resign") {
        return Margin::Resign;
    }
    if l == "t" || l.starts_with("time") {
        return Margin::Time;
    }
    if l == "f" || l.starts_with("forfeit") {
        return Margin::Forfeit;
    }
    match hundredths(l) {
        Some((h, _)) => Margin::Points(((h + if h >= 0 { 5 } else { -5 }) / 10) as i32),
        None => Margin::Unknown,
    }
}

/// A number followed by an optional `半` (half) or `又a/b` fraction, in hundredths.
fn cjk_number(s: &str) -> Option<i64> {
    let digits: String = s
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let (mut v, _) = hundredths(&digits)?;
    let rest = &s[s.find(digits.as_str())? + digits.len()..];
    let rest = rest.trim_start_matches(['目', '点', '點', '子', '집', ' ']);
    if let Some(frac) = rest.strip_prefix('又') {
        let f: String = frac
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '/')
            .collect();
        if let Some((a, b)) = f.split_once('/') {
            if let (Ok(a), Ok(b)) = (a.parse::<i64>(), b.parse::<i64>()) {
                if b > 0 {
                    v += a * 100 / b;
                }
            }
        }
    } else if rest.starts_with('半') {
        v += 50;
    }
    Some(v)
}

/// Parses `RE[]`: `B+R`, `W+3.5`, `B+Resign`, `W+T`, `B+F`, `0`/`Draw`/`Jigo`, `Void`, `?`,
/// `White resigns.`, and Chinese/Japanese/Korean results (`黑中盘胜`, `白胜3又3/4子`,
/// `黒中押し勝ち`, `白6目半勝`, `흑 불계승`).
pub fn parse_result(raw: &str) -> GameResult {
    let t = raw.trim();
    let (winner, margin) = classify(t);
    GameResult {
        raw: t.to_owned(),
        winner,
        margin,
    }
}

fn classify(t: &str) -> (Option<Color>, Margin) {
    let l = t.to_ascii_lowercase();
    let l = l.trim_end_matches('.');
    match l {
        "0" | "d" | "draw" | "jigo" | "0.0" | "b+0" | "w+0" | "和棋" | "和" | "持碁" | "무승부" => {
            return (None, Margin::Draw)
        }
        "void" | "v" | "no result" | "无胜负" | "無勝負" => return (None, Margin::Void),
        "" | "?" | "unknown" => return (None, Margin::Unknown),
        "b" | "black" => return (Some(Color::Black), Margin::Unknown),
        "w" | "white" => return (Some(Color::White), Margin::Unknown),
        _ => {}
    }
    let b = l.as_bytes();
    if b.len() >= 2 && (b[0] == b'b' || b[0] == b'w') && b[1] == b'+' {
        let c = if b[0] == b'b' {
            Color::Black
        } else {
            Color::White
        };
        let m = margin_word(&t[2..]);
        return (Some(c), m);
    }
    if l.starts_with("white resign") || l.starts_with("white forfeit") {
        let m = if l.contains("resign") {
            Margin::Resign
        } else {
            Margin::Forfeit
        };
        return (Some(Color::Black), m);
    }
    if l.starts_with("black resign") || l.starts_with("black forfeit") {
        let m = if l.contains("resign") {
            Margin::Resign
        } else {
            Margin::Forfeit
        };
        return (Some(Color::White), m);
    }
    // CJK: the first colour character names the winner (results say who won).
    let black = t.find(['黑', '黒', '흑']);
    let white = t.find(['白', '백']);
    let winner = match (black, white) {
        (Some(b), Some(w)) => Some(if b < w { Color::Black } else { Color::White }),
        (Some(_), None) => Some(Color::Black),
        (None, Some(_)) => Some(Color::White),
        (None, None) => None,
    };
    if winner.is_none() {
        if t.contains("和") || t.contains("持碁") || t.contains("무승부") {
            return (None, Margin::Draw);
        }
        return (None, Margin::Unknown);
    }
    let margin = if t.contains("中盘") || t.contains("中押") || t.contains("불계") {
        Margin::Resign
    } else if t.contains("超时") || t.contains("時間") || t.contains("时间") {
        Margin::Time
    } else if let Some(h) = cjk_number(t) {
        // 子 counts stones (Chinese counting): one stone is two points.
        let h = if t.contains('子') { h * 2 } else { h };
        Margin::Points(((h + 5) / 10) as i32)
    } else {
        Margin::Unknown
    };
    (winner, margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi() {
        assert_eq!(parse_komi("6.5"), Some(650));
        assert_eq!(parse_komi("650"), Some(650));
        assert_eq!(parse_komi("375"), Some(375));
        assert_eq!(parse_komi("0"), Some(0));
        assert_eq!(parse_komi("-1.5"), Some(-150));
        assert_eq!(parse_komi("7.500000"), Some(750));
        assert_eq!(parse_komi("5 1/2"), None);
        assert_eq!(parse_komi("-59.5"), Some(-5950));
        assert_eq!(parse_komi(""), None);
    }

    #[test]
    fn years() {
        assert_eq!(parse_year("2013-09-08"), Some(2013));
        assert_eq!(parse_year("13/5/95"), None);
        assert_eq!(parse_year("1846-09-11,12"), Some(1846));
        assert_eq!(parse_year("20130908"), None);
    }

    #[test]
    fn results() {
        let r = |s: &str| {
            let g = parse_result(s);
            (g.winner, g.margin)
        };
        use Color::*;
        assert_eq!(r("B+R"), (Some(Black), Margin::Resign));
        assert_eq!(r("W+3.5"), (Some(White), Margin::Points(35)));
        assert_eq!(r("B+Resign"), (Some(Black), Margin::Resign));
        assert_eq!(r("W+T"), (Some(White), Margin::Time));
        assert_eq!(r("W+Time"), (Some(White), Margin::Time));
        assert_eq!(r("B+F"), (Some(Black), Margin::Forfeit));
        assert_eq!(r("W+0.0"), (Some(White), Margin::Points(0)));
        assert_eq!(r("B+"), (Some(Black), Margin::Unknown));
        assert_eq!(r("0"), (None, Margin::Draw));
        assert_eq!(r("draw"), (None, Margin::Draw));
        assert_eq!(r("Jigo"), (None, Margin::Draw));
        assert_eq!(r("Void"), (None, Margin::Void));
        assert_eq!(r("?"), (None, Margin::Unknown));
        assert_eq!(r("john wins"), (None, Margin::Unknown));
        assert_eq!(r("White resigns."), (Some(Black), Margin::Resign));
        assert_eq!(r("黑中盘胜"), (Some(Black), Margin::Resign));
        assert_eq!(r("白胜3又3/4子"), (Some(White), Margin::Points(75)));
        assert_eq!(r("257手完, 黒中押し勝ち"), (Some(Black), Margin::Resign));
        assert_eq!(r("白6目半勝"), (Some(White), Margin::Points(65)));
        assert_eq!(r("흑 불계승"), (Some(Black), Margin::Resign));
    }
}
