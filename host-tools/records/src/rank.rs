//! Players' ranks on one scale: 30 kyu to 1 kyu, 1 dan to 9 dan (amateur), 1 to 9 dan
//! professional, whatever form a record wrote them in (`5d`, `3k`, `2p`, `9d*`, `4k?`,
//! `9段`, `P9段`, `P9`, `九段`, `初段`, `5级`, `9단`, `3급`, `7 dan`, `1-dan`, `9DP`, `16.1k`,
//! `业余5段`, ...).
//! What cannot be read on that scale (`pro` without a number, `insei`, a rating) is
//! unknown: `None`.
//!
//! The index keeps `BR`/`WR` as written; the filters read them at query time
//! ([`GameRanks::of`]): a rank is a few bytes to read, and opening an index stays
//! independent of its size. `docs/RANKS.md` lists every value of the test corpus with the
//! rank read from it.

use std::fmt;

use kifudex_core::index::Game;
use kifudex_core::Color;

/// A rank on the one scale, weakest first: `30k < ... < 1k < 1d < ... < 9d < 1p < ... < 9p`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

/// The grade of a rank.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Grade {
    /// Kyu, 30 (weakest) to 1.
    Kyu,
    /// Amateur dan, 1 to 9.
    Dan,
    /// Professional dan, 1 to 9.
    Pro,
}

impl Rank {
    /// The weakest rank, 30 kyu.
    pub const MIN: Rank = Rank(0);
    /// The strongest rank, 9 dan professional.
    pub const MAX: Rank = Rank(47);

    /// The rank of a grade and number (kyu 1..=30, dan and pro 1..=9), `None` outside.
    pub const fn new(grade: Grade, n: u8) -> Option<Rank> {
        match grade {
            Grade::Kyu if n >= 1 && n <= 30 => Some(Rank(30 - n)),
            Grade::Dan if n >= 1 && n <= 9 => Some(Rank(29 + n)),
            Grade::Pro if n >= 1 && n <= 9 => Some(Rank(38 + n)),
            _ => None,
        }
    }

    /// The grade.
    pub const fn grade(self) -> Grade {
        match self.0 {
            0..=29 => Grade::Kyu,
            30..=38 => Grade::Dan,
            _ => Grade::Pro,
        }
    }

    /// The number within the grade (`5` for `5k`, `5d`, `5p`).
    pub const fn number(self) -> u8 {
        match self.grade() {
            Grade::Kyu => 30 - self.0,
            Grade::Dan => self.0 - 29,
            Grade::Pro => self.0 - 38,
        }
    }

    /// The place on the scale, 0 (30 kyu) to 47 (9 dan professional).
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The rank at a place of the scale (`None` past 47).
    pub const fn from_index(i: u8) -> Option<Rank> {
        if i <= 47 {
            Some(Rank(i))
        } else {
            None
        }
    }

    /// Reads a rank as records write it; `None` where it is not one of the scale.
    pub fn parse(text: &str) -> Option<Rank> {
        parse(text)
    }
}

impl fmt::Display for Rank {
    /// `30k` .. `1k`, `1d` .. `9d`, `1p` .. `9p`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = match self.grade() {
            Grade::Kyu => 'k',
            Grade::Dan => 'd',
            Grade::Pro => 'p',
        };
        write!(f, "{}{unit}", self.number())
    }
}

impl std::str::FromStr for Rank {
    type Err = String;

    /// A rank in any form [`Rank::parse`] reads (for `--min-rank 5d`, `min_rank=5d`).
    fn from_str(s: &str) -> Result<Rank, String> {
        Rank::parse(s).ok_or_else(|| {
            format!("{s:?} is not a rank: give 30k to 1k, 1d to 9d or 1p to 9p (e.g. 5d, 3k, 2p)")
        })
    }
}

/// Words that make a dan rank professional.
const PRO: [&str; 7] = ["pro", "职业", "職業", "プロ", "프로", "专业", "專業"];
/// Words that make it amateur (the default).
const AMATEUR: [&str; 8] = [
    "ama", "业余", "業余", "業餘", "业馀", "アマ", "아마", "amateur",
];

/// The value of a CJK numeral (`初` is the first dan), up to 30 (`二十九`).
fn cjk_number(s: &str) -> Option<(u8, usize)> {
    let digit = |c: char| match c {
        '一' | '壹' => Some(1),
        '二' | '两' | '兩' | '貳' => Some(2),
        '三' => Some(3),
        '四' => Some(4),
        '五' => Some(5),
        '六' => Some(6),
        '七' => Some(7),
        '八' => Some(8),
        '九' => Some(9),
        _ => None,
    };
    let mut chars = s.char_indices().peekable();
    let (_, c) = *chars.peek()?;
    if c == '初' {
        return Some((1, c.len_utf8()));
    }
    let mut value: u8 = 0;
    let mut pending: Option<u8> = None;
    let mut end = 0;
    for (i, c) in chars {
        if let Some(d) = digit(c) {
            if pending.is_some() {
                return None;
            }
            pending = Some(d);
        } else if c == '十' {
            value = value.checked_add(pending.take().unwrap_or(1).checked_mul(10)?)?;
        } else {
            break;
        }
        end = i + c.len_utf8();
    }
    let v = value.checked_add(pending.unwrap_or(0))?;
    (v > 0).then_some((v, end))
}

/// The number at the start of `s` (ASCII or full-width digits, or a CJK numeral) and the
/// bytes it takes.
fn leading_number(s: &str) -> Option<(u8, usize)> {
    let mut v: u32 = 0;
    let mut end = 0;
    for (i, c) in s.char_indices() {
        let d = match c {
            '0'..='9' => c as u32 - '0' as u32,
            '０'..='９' => c as u32 - '０' as u32,
            _ => break,
        };
        v = v * 10 + d;
        if v > 99 {
            return None;
        }
        end = i + c.len_utf8();
    }
    if end > 0 {
        return Some((v as u8, end));
    }
    cjk_number(s)
}

/// What follows a rank's number.
fn unit(rest: &str) -> Option<Grade> {
    let r = rest.trim_start_matches([' ', '-', '.', '_']);
    let starts = |words: &[&str]| words.iter().any(|w| r.starts_with(w));
    if starts(&["dp", "段p", "단p"]) {
        Some(Grade::Pro)
    } else if starts(&["k", "級", "级", "급", "q"]) {
        Some(Grade::Kyu)
    } else if starts(&["d", "段", "단"]) {
        Some(Grade::Dan)
    } else if starts(&["p"]) {
        Some(Grade::Pro)
    } else {
        None
    }
}

/// The forms most records use, read without allocating: `""`, `5d`, `15k`, `2p`, `P9`,
/// `p9d`, `9段`, `P9段`, each maybe with `*` or `?` after it. `None` for any other form (read
/// by [`parse_any`]); `Some(None)` for the empty value. The same answers as [`parse_any`]
/// (a test checks it), about a tenth of its cost.
fn parse_common(text: &str) -> Option<Option<Rank>> {
    let mut b = text.as_bytes();
    if b.is_empty() {
        return Some(None);
    }
    while let [rest @ .., b'*' | b'?'] = b {
        b = rest;
    }
    let (p_before, b) = match b {
        [b'P' | b'p', rest @ ..] => (true, rest),
        _ => (false, b),
    };
    let (n, rest) = match b {
        [d @ b'0'..=b'9', rest @ ..] if !rest.first().is_some_and(u8::is_ascii_digit) => {
            (d - b'0', rest)
        }
        [d @ b'0'..=b'9', e @ b'0'..=b'9', rest @ ..]
            if !rest.first().is_some_and(u8::is_ascii_digit) =>
        {
            ((d - b'0') * 10 + (e - b'0'), rest)
        }
        _ => return None,
    };
    let grade = match rest {
        [] if p_before => Grade::Pro,
        [b'k' | b'K'] if !p_before => Grade::Kyu,
        [b'd' | b'D'] if p_before => Grade::Pro,
        [b'd' | b'D'] => Grade::Dan,
        [b'p' | b'P'] if !p_before => Grade::Pro,
        [0xE6, 0xAE, 0xB5] if p_before => Grade::Pro,
        [0xE6, 0xAE, 0xB5] => Grade::Dan,
        _ => return None,
    };
    Some(Rank::new(grade, n))
}

fn parse(text: &str) -> Option<Rank> {
    parse_common(text).unwrap_or_else(|| parse_any(text))
}

/// Any form (see the module's documentation).
fn parse_any(text: &str) -> Option<Rank> {
    let t = text.trim().to_lowercase();
    // Marks of a rank's confidence or a game's rating (`9d*`, `4k?`, `5d+`).
    let t = t.trim_end_matches(['*', '?', '+', '!', ' ', '.']);
    let pro = PRO.iter().any(|w| t.contains(w));
    let amateur = AMATEUR.iter().any(|w| t.contains(w));
    // The first number in the text, and the grade after it; a `p` just before it
    // (`P9段`, `p9d`) makes it professional.
    let mut rest = t;
    loop {
        let skip = rest
            .char_indices()
            .find(|&(i, _)| leading_number(&rest[i..]).is_some())
            .map(|(i, _)| i)?;
        let before = &rest[..skip];
        let (n, len) = leading_number(&rest[skip..])?;
        let mut after = &rest[skip + len..];
        // A fraction of a rank (`16.1k`, a rating's): its whole rank.
        if let Some(frac) = after.strip_prefix('.') {
            let unit = frac.trim_start_matches(|c: char| c.is_ascii_digit());
            if unit.len() < frac.len() {
                after = unit;
            }
        }
        let p_before = before.ends_with('p') && !before.ends_with("amp");
        let grade = match unit(after) {
            Some(Grade::Dan) if (pro || p_before) && !amateur => Some(Grade::Pro),
            Some(Grade::Kyu) if p_before => None,
            None if p_before => Some(Grade::Pro),
            g => g,
        };
        if let Some(g) = grade {
            return Rank::new(g, n);
        }
        // A number that is no rank (`(1950)`): read on past it.
        rest = after;
    }
}

/// The ranks of a game's two players, as its record wrote them, read on the scale.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameRanks {
    /// Black's rank (`BR`).
    pub black: Option<Rank>,
    /// White's rank (`WR`).
    pub white: Option<Rank>,
}

impl GameRanks {
    /// The ranks of a game of an index.
    pub fn of(g: &Game<'_>) -> GameRanks {
        GameRanks {
            black: Rank::parse(g.black_rank),
            white: Rank::parse(g.white_rank),
        }
    }

    /// The rank of the player of `color`.
    pub fn of_color(&self, color: Color) -> Option<Rank> {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
}

/// Bounds on ranks: `--min-rank` and `--max-rank` (each optional, both inclusive).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RankRange {
    /// The weakest rank kept.
    pub min: Option<Rank>,
    /// The strongest rank kept.
    pub max: Option<Rank>,
}

impl RankRange {
    /// Whether no bound is given (every game passes, unknown ranks too).
    pub fn is_open(&self) -> bool {
        self.min.is_none() && self.max.is_none()
    }

    /// Whether a rank lies within the bounds: an unknown rank only when there is none.
    pub fn contains(&self, rank: Option<Rank>) -> bool {
        if self.is_open() {
            return true;
        }
        let Some(r) = rank else { return false };
        self.min.is_none_or(|m| r >= m) && self.max.is_none_or(|m| r <= m)
    }

    /// Whether both players' ranks lie within the bounds (the filter of `search`, `games`
    /// and `pattern`).
    pub fn accepts(&self, ranks: &GameRanks) -> bool {
        self.contains(ranks.black) && self.contains(ranks.white)
    }

    /// Whether a game of an index passes: both players within the bounds.
    pub fn accepts_game(&self, g: &Game<'_>) -> bool {
        self.is_open() || self.accepts(&GameRanks::of(g))
    }

    /// Whether the player of `color` (the player to move, say) lies within the bounds.
    pub fn accepts_player(&self, g: &Game<'_>, color: Color) -> bool {
        self.is_open() || self.contains(GameRanks::of(g).of_color(color))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Option<String> {
        Rank::parse(s).map(|r| r.to_string())
    }

    #[test]
    fn the_forms_records_use() {
        let cases = [
            ("5d", "5d"),
            ("3k", "3k"),
            ("2p", "2p"),
            ("9d*", "9d"),
            ("4k?", "4k"),
            ("9段", "9d"),
            ("P9段", "9p"),
            ("p9d", "9p"),
            ("5级", "5k"),
            ("5級", "5k"),
            ("9단", "9d"),
            ("3급", "3k"),
            ("九段", "9d"),
            ("初段", "1d"),
            ("十五級", "15k"),
            ("二十級", "20k"),
            ("7 dan", "7d"),
            ("1-dan", "1d"),
            ("5 kyu", "5k"),
            ("15K", "15k"),
            ("9DP", "9p"),
            ("9 dan pro", "9p"),
            ("职业九段", "9p"),
            ("业余5段", "5d"),
            ("アマ五段", "5d"),
            ("프로 9단", "9p"),
            ("30k", "30k"),
            ("1k", "1k"),
            ("９段", "9d"),
            (" 6d ", "6d"),
            ("16.1k", "16k"),
            ("13.0k", "13k"),
            ("9p, Honinbo", "9p"),
            ("9 Dan Professional", "9p"),
            ("P9", "9p"),
        ];
        for (text, want) in cases {
            assert_eq!(r(text).as_deref(), Some(want), "{text}");
        }
        for text in [
            "", "pro", "insei", "31k", "10d", "10段", "0k", "?", "-", "1850", "1500*", "10p", "NR",
            "P",
        ] {
            assert_eq!(r(text), None, "{text}");
        }
    }

    /// The quick reader gives the full reader's answer wherever it answers.
    #[test]
    fn the_common_forms_read_the_same_either_way() {
        let mut texts: Vec<String> = vec![String::new()];
        for n in ["0", "1", "5", "9", "10", "15", "30", "31", "99", "100"] {
            for pre in ["", "P", "p"] {
                for unit in ["", "k", "K", "d", "D", "p", "P", "段", "dp", "x"] {
                    for post in ["", "*", "?", "**"] {
                        texts.push(format!("{pre}{n}{unit}{post}"));
                    }
                }
            }
        }
        let mut answered = 0;
        for t in &texts {
            if let Some(quick) = parse_common(t) {
                answered += 1;
                assert_eq!(quick, parse_any(t), "{t:?}");
            }
        }
        assert!(answered > 300, "{answered}");
    }

    #[test]
    fn the_scale_is_ordered_and_written_back() {
        let all: Vec<Rank> = (0..=47).map(|i| Rank::from_index(i).unwrap()).collect();
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(all[0].to_string(), "30k");
        assert_eq!(all[29].to_string(), "1k");
        assert_eq!(all[30].to_string(), "1d");
        assert_eq!(all[38].to_string(), "9d");
        assert_eq!(all[39].to_string(), "1p");
        assert_eq!(all[47].to_string(), "9p");
        for r in all {
            assert_eq!(Rank::parse(&r.to_string()), Some(r));
            assert_eq!(Rank::new(r.grade(), r.number()), Some(r));
        }
        assert_eq!(Rank::from_index(48), None);
        assert!("12x".parse::<Rank>().is_err());
    }

    #[test]
    fn ranges() {
        let d = |s: &str| Rank::parse(s);
        let range = RankRange {
            min: d("1k"),
            max: d("5d"),
        };
        assert!(range.contains(d("1k")) && range.contains(d("5d")) && range.contains(d("3d")));
        assert!(!range.contains(d("2k")) && !range.contains(d("6d")) && !range.contains(None));
        let both = |b, w| GameRanks {
            black: d(b),
            white: d(w),
        };
        assert!(range.accepts(&both("2d", "1k")));
        assert!(!range.accepts(&both("2d", "1p")));
        assert!(!range.accepts(&both("2d", "x")));
        assert!(RankRange::default().accepts(&both("x", "y")));
        let min_only = RankRange {
            min: d("1p"),
            max: None,
        };
        assert!(min_only.accepts(&both("9p", "1p")) && !min_only.accepts(&both("9d", "9p")));
    }
}
