//! Pattern search results as text for people: the pattern drawn with lettered
//! continuations and their table, the date profile, hit lists and game lists.

use std::fmt::Write;

use kifudex_core::index::Index;
use kifudex_core::pattern::{Cell, Hit, PatternQuery};
use kifudex_core::Point;

use super::json::letters;
use super::search::{GameHits, PatternReport};
use crate::present::text::mark_letter;
use crate::present::{color_letter, result_text};

/// One hit as a line of text.
pub fn hit(index: &Index<'_>, q: &PatternQuery, game: u32, h: &Hit) -> String {
    let v = q.variants().get(h.variant as usize);
    let r = h.region;
    let cont = match h.continuation {
        Some(c) => format!(
            "{} {} at move {}{}",
            color_letter(c.color),
            letters(c.cell),
            c.move_number,
            if c.immediate { "" } else { " (tenuki)" }
        ),
        None => "no continuation".to_string(),
    };
    let info = index
        .game(game)
        .map(|g| {
            format!(
                "{}  {} {} - {} {}  {}",
                g.date,
                g.black,
                g.black_rank,
                g.white,
                g.white_rank,
                result_text(&g)
            )
        })
        .unwrap_or_default();
    format!(
        "{game:>7}  after move {:<3}  region {},{}-{},{}  t{}{}  {cont}  {info}",
        h.move_number,
        r.left,
        r.top,
        r.right,
        r.bottom,
        v.map_or(0, |v| v.transform.index()),
        if v.is_some_and(|v| v.swapped) {
            " swapped"
        } else {
            ""
        },
    )
}

/// The pattern drawn as a small board, the first `marks` continuation classes lettered on
/// their cells, then the table of continuations.
pub fn report(q: &PatternQuery, r: &PatternReport, marks: usize, limit: usize) -> String {
    let p = q.pattern();
    let classes = r.stats.classes();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "pattern {}  area {}{}",
        p,
        q.area(),
        if q.fixed_color() {
            "  fixed colour"
        } else {
            ""
        }
    );
    let cols: String = (0..p.width())
        .map(|x| format!("{} ", (b'a' + x) as char))
        .collect();
    let _ = writeln!(s, "   {cols}");
    for y in 0..p.height() {
        let _ = write!(s, " {} ", (b'a' + y) as char);
        for x in 0..p.width() {
            let cell = Point::new(x, y);
            let mark = classes.iter().take(marks).position(|c| c.cell == cell);
            let ch = match (p.cell(cell), mark) {
                (Cell::Empty | Cell::BlackOrEmpty | Cell::WhiteOrEmpty | Cell::Any, Some(i)) => {
                    mark_letter(i)
                }
                (c, _) => c.to_char(),
            };
            let _ = write!(s, "{ch} ");
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s, "{} hits in {} games", r.hits, r.games);
    if classes.is_empty() {
        let _ = writeln!(s, "No continuations.");
        return s;
    }
    let total = r.stats.total().max(1);
    let _ = writeln!(
        s,
        "      move  col   count   share  immediate  tenuki  B wins  W wins"
    );
    for (i, c) in classes.iter().take(limit).enumerate() {
        let k = &c.counts;
        let pct = |n: u64| 100.0 * n as f64 / k.count.max(1) as f64;
        let letter = if i < marks { mark_letter(i) } else { ' ' };
        let _ = writeln!(
            s,
            "   {letter}  {:>4}  {:>3}  {:>6}  {:>5.1}%  {:>9}  {:>6}  {:>5.1}%  {:>5.1}%",
            letters(c.cell),
            color_letter(c.color),
            k.count,
            100.0 * k.count as f64 / total as f64,
            k.immediate,
            k.tenuki,
            pct(k.black_wins),
            pct(k.white_wins),
        );
    }
    if classes.len() > limit {
        let _ = writeln!(s, "   ... {} more", classes.len() - limit);
    }
    s
}

/// The date profile as text: per year, games and hits, and the share of each of the
/// first `top` continuation classes among that year's continuations.
pub fn years(q: &PatternQuery, r: &PatternReport, top: usize) -> String {
    let classes = r.stats.classes();
    let shown: Vec<_> = classes.iter().take(top).collect();
    let mut s = String::new();
    let _ = write!(s, "year    games    hits");
    for c in &shown {
        let _ = write!(s, "  {:>3} {}", letters(c.cell), color_letter(c.color));
    }
    let _ = writeln!(s);
    for (y, counts) in &r.years {
        let total: u64 = counts.classes.values().sum();
        let year = if *y == 0 {
            "?".to_string()
        } else {
            y.to_string()
        };
        let _ = write!(s, "{year:<6}{:>7} {:>7}", counts.games, counts.hits);
        for c in &shown {
            let n = counts
                .classes
                .get(&(c.color, q.class_of(c.cell)))
                .copied()
                .unwrap_or(0);
            let _ = write!(s, "  {:>4.0}%", 100.0 * n as f64 / total.max(1) as f64);
        }
        let _ = writeln!(s);
    }
    s
}

/// The games with hits as a text table.
pub fn games(index: &Index<'_>, list: &[GameHits], matching: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{matching} games");
    for gh in list {
        let Some(g) = index.game(gh.game) else {
            continue;
        };
        let _ = writeln!(
            s,
            "{:>6}  {:<10}  {} {} - {} {}  {}  after move {}  {} hits  {}",
            g.id,
            g.date,
            g.black,
            g.black_rank,
            g.white,
            g.white_rank,
            result_text(&g),
            gh.first_move_number,
            gh.hits,
            g.event
        );
    }
    s
}
