//! The text printer: the explorer's answers for people. bGo's text board with lettered
//! next moves, the table of counts and win rates, game lists, a pattern drawn with its
//! lettered continuations, its date profile and hits, a replayed game, the predictor's
//! ranking. Every function returns the text (lines ending in `\n`); the command line and
//! the shell write it.

use std::fmt::Write;
use std::time::Duration;

use kifudex_core::board::Board;
use kifudex_core::notation::{Human, Sgf};
use kifudex_core::pattern::Cell;
use kifudex_core::{Move, Point, Size, Stone, Transform};

use crate::explore::answer::letters::{color_letter, point_letters};
use crate::explore::answer::{
    EvaluationAnswer, GameEntry, GameView, GamesAnswer, GuessRate, HitEntry, HitsAnswer, NextClass,
    PatternAnswer, PatternTimings, RanksAnswer, SearchAnswer, ShapesAnswer, StreamsAnswer,
    Suggestions,
};

/// The star points of a board (none for unusual sizes, the centre for odd small ones).
pub fn is_star_point(p: Point, size: Size) -> bool {
    if !size.is_square() {
        return false;
    }
    let n = size.width();
    let lines: &[u8] = match n {
        19 => &[3, 9, 15],
        13 => &[3, 6, 9],
        9 => &[2, 4, 6],
        _ => &[],
    };
    if lines.is_empty() {
        return n % 2 == 1 && n >= 7 && p.x == n / 2 && p.y == n / 2;
    }
    lines.contains(&p.x) && lines.contains(&p.y) && (n != 9 || (p.x == 4) == (p.y == 4))
}

/// The letter of the `i`-th class (a, b, ..., z, then A..Z).
pub fn mark_letter(i: usize) -> char {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    LETTERS.get(i).map_or('?', |&b| b as char)
}

/// The moves the first `marks` classes letter (a class's letter is its place in the list).
pub fn marked(classes: &[NextClass], marks: usize) -> Vec<Move> {
    classes.iter().take(marks).map(|c| c.mv).collect()
}

/// bGo's text board: X black, O white, + star points, the letter of `marked[i]` on its
/// point, the stone of the last move (if any) in parentheses `(X)`, and under it the
/// position's hash (bGo's additive hash, `HASH.md`).
pub fn board(board: &Board, marked: &[Move], last: Option<Point>) -> String {
    let size = board.size();
    let (w, h) = (size.width(), size.height());
    let letters: Vec<char> = (0..w.max(h)).map(|i| (b'A' + i) as char).collect();
    let mut s = String::new();
    let header: String = letters[..w as usize]
        .iter()
        .map(|c| format!("{c} "))
        .collect();
    let _ = writeln!(s, "   {header}");
    for y in 0..h {
        // Each cell is its character and the separator after it; the last move's cell
        // takes the separators on both sides: ` (X) `.
        let mut row = format!(" {} ", letters[y as usize]);
        for x in 0..w {
            let p = Point::new(x, y);
            let mark = marked.iter().position(|&m| m == Move::Play(p));
            let ch = match (board.get(p), mark) {
                (Stone::Black, _) => 'X',
                (Stone::White, _) => 'O',
                (Stone::Empty, Some(i)) => mark_letter(i),
                (Stone::Empty, None) if is_star_point(p, size) => '+',
                (Stone::Empty, None) => '.',
            };
            if last == Some(p) {
                row.pop();
                let _ = write!(row, "({ch})");
            } else {
                let _ = write!(row, "{ch} ");
            }
        }
        let _ = writeln!(s, "{row}{}", letters[y as usize]);
    }
    let _ = writeln!(s, "   {header}");
    let _ = writeln!(s, "{}", hash_line(board));
    s
}

/// The line under a board: the position's hash, said what it is.
pub fn hash_line(board: &Board) -> String {
    format!(
        "   hash {} (bGo's additive position hash, docs/HASH.md)",
        board.bgo_hashes().0[0]
    )
}

/// The table of next moves: letter (the first `marks` classes), move, colour, count, share
/// of the total and the win rates of the games they come from; at most `limit` rows.
pub fn table(a: &SearchAnswer, marks: usize, limit: usize) -> String {
    let mut s = String::new();
    let total = a.total;
    if total == 0 {
        let _ = writeln!(s, "No games reach this position.");
        return s;
    }
    let _ = writeln!(s, "      move  col   count   share  B wins  W wins");
    for (i, c) in a.next.iter().take(limit).enumerate() {
        let letter = if i < marks && c.mv != Move::Pass {
            mark_letter(i)
        } else {
            ' '
        };
        let pct = |n: u32| 100.0 * n as f64 / c.count.max(1) as f64;
        let _ = writeln!(
            s,
            "   {letter}  {:>4}  {:>3}  {:>6}  {:>5.1}%  {:>5.1}%  {:>5.1}%",
            Sgf(c.mv).to_string(),
            color_letter(c.color),
            c.count,
            100.0 * c.count as f64 / total as f64,
            pct(c.black_wins),
            pct(c.white_wins),
        );
    }
    let shown = a.next.len().min(limit);
    if shown < a.next.len() {
        let _ = writeln!(s, "   ... {} more", a.next.len() - shown);
    }
    let _ = writeln!(s, "Total count: {total}");
    s
}

/// A search: the board with the first `marks` classes lettered (and the last move marked),
/// then the table of at most `limit` classes.
pub fn search(a: &SearchAnswer, marks: usize, limit: usize, last: Option<Point>) -> String {
    let mut s = board(&a.board, &marked(&a.next, marks), last);
    s.push_str(&table(a, marks, limit));
    s
}

/// The games of a position as a text table: a line with how many games matched, a header
/// line, then one line per game (its id, date, result, the number of the move played from
/// the position, players, "colours swapped" when the colour-exchanged position came,
/// event). `numbered`: a first column `#` with the game's place in the list (1, 2, ...),
/// as the shell's `replay N` takes it.
pub fn games(a: &GamesAnswer<'_>, numbered: bool) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{} games", a.matching);
    if a.games.is_empty() {
        return s;
    }
    let number = |n: &str| {
        if numbered {
            format!("{n:>4}  ")
        } else {
            String::new()
        }
    };
    let _ = writeln!(
        s,
        "{}{:>7}  {:<10}  {:<7}  {:>5}  players, event",
        number("#"),
        "game id",
        "date",
        "result",
        "move"
    );
    for (i, g) in a.games.iter().enumerate() {
        let _ = writeln!(
            s,
            "{}{:>7}  {:<10}  {:<7}  {:>5}  {} {} - {} {}{}  {}",
            number(&(i + 1).to_string()),
            g.id,
            g.date,
            g.result,
            g.move_number,
            g.black,
            g.black_rank,
            g.white,
            g.white_rank,
            if g.colors_swapped == Some(true) {
                " (colours swapped)"
            } else {
                ""
            },
            g.event
        );
    }
    s
}

/// The position's bGo hash under each transform of its board and its symmetry.
pub fn rotations(board: &Board) -> String {
    const NAMES: [&str; 8] = [
        "identity",
        "flip left-right",
        "flip top-bottom",
        "rotate 90 CCW",
        "rotate 180",
        "rotate 270 CCW",
        "transpose",
        "anti-transpose",
    ];
    let hashes = board.bgo_hashes().0;
    let mut s = String::new();
    for t in Transform::all_for(board.size()) {
        let i = t.index();
        let _ = writeln!(s, "  {i}  {:<16} {:>12}", NAMES[i], hashes[i]);
    }
    let sym = board.symmetries();
    if sym.len() == 1 {
        let _ = writeln!(s, "Symmetry: none (only 0, the identity)");
    } else {
        let list: Vec<String> = sym.iter().map(|t| t.index().to_string()).collect();
        let _ = writeln!(
            s,
            "Symmetry: {} transforms leave the position unchanged: {}",
            sym.len(),
            list.join(" ")
        );
    }
    s
}

/// A game's players, ranks, date, result and event on one line.
fn game_header(g: &GameEntry<'_>) -> String {
    let header = format!(
        "Game {}: {} {} (B) - {} {} (W), {}, {} {}",
        g.id, g.black, g.black_rank, g.white, g.white_rank, g.date, g.result, g.event
    );
    header.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A replayed game: its players, result and event, the board (the last move marked), where
/// it stands.
pub fn game_view(v: &GameView<'_>) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}", game_header(&v.game));
    let last = match v.last {
        Some(m) => m.mv.point(),
        None => None,
    };
    s.push_str(&board(&v.board, &[], last));
    let _ = write!(s, "Move {} of {}", v.at, v.moves);
    if let Some(m) = v.last {
        let marked = if last.is_some() { " (marked)" } else { "" };
        let _ = write!(s, ", last {} {}{marked}", color_letter(m.color), Sgf(m.mv));
    }
    if let Some(m) = v.next {
        let _ = write!(s, ", next {} {}", color_letter(m.color), Sgf(m.mv));
    }
    let _ = writeln!(s);
    s
}

/// The predictor's ranking: each move in coordinates and SGF letters with its probability.
pub fn suggestions(a: &Suggestions) -> String {
    let mut s = format!(
        "Predictions for {} (the move predictor, learnt from {} games; not moves of the games):\n",
        crate::position::color_name(a.to_move),
        a.learnt_from
    );
    if a.moves.is_empty() {
        s.push_str("  no legal move\n");
    }
    for (i, p) in a.moves.iter().enumerate() {
        let mv = Move::Play(p.point);
        let _ = writeln!(
            s,
            "  {:>2}. {:<4} {}  {:>5.1}%",
            i + 1,
            Human(mv, a.size).to_string(),
            Sgf(mv),
            p.probability * 100.0
        );
    }
    s
}

/// The pattern drawn as a small board, the first `marks` continuation classes lettered on
/// their cells, then the table of at most `limit` continuations.
pub fn pattern(a: &PatternAnswer, marks: usize, limit: usize) -> String {
    let p = &a.pattern;
    let classes = &a.continuations;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "pattern {}  area {}{}",
        p,
        a.area,
        if a.fixed_color { "  fixed colour" } else { "" }
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
    let _ = writeln!(s, "{} hits in {} games", a.hits, a.games);
    if classes.is_empty() {
        let _ = writeln!(s, "No continuations.");
        return s;
    }
    let total = classes.iter().map(|c| c.count).sum::<u64>().max(1);
    let _ = writeln!(
        s,
        "      move  col   count   share  immediate  tenuki  B wins  W wins"
    );
    for (i, c) in classes.iter().take(limit).enumerate() {
        let pct = |n: u64| 100.0 * n as f64 / c.count.max(1) as f64;
        let letter = if i < marks { mark_letter(i) } else { ' ' };
        let _ = writeln!(
            s,
            "   {letter}  {:>4}  {:>3}  {:>6}  {:>5.1}%  {:>9}  {:>6}  {:>5.1}%  {:>5.1}%",
            point_letters(c.cell),
            color_letter(c.color),
            c.count,
            100.0 * c.count as f64 / total as f64,
            c.immediate,
            c.tenuki,
            pct(c.black_wins),
            pct(c.white_wins),
        );
    }
    if classes.len() > limit {
        let _ = writeln!(s, "   ... {} more", classes.len() - limit);
    }
    s
}

/// The date profile: per year, games and hits, and the share of each of the first `top`
/// continuation classes among that year's continuations.
pub fn pattern_years(a: &PatternAnswer, top: usize) -> String {
    let shown: Vec<_> = a.continuations.iter().take(top).collect();
    let mut s = String::new();
    let _ = write!(s, "year    games    hits");
    for c in &shown {
        let _ = write!(
            s,
            "  {:>3} {}",
            point_letters(c.cell),
            color_letter(c.color)
        );
    }
    let _ = writeln!(s);
    for (y, totals) in a.years.iter().flatten() {
        let year = if *y == 0 {
            "?".to_string()
        } else {
            y.to_string()
        };
        let _ = write!(s, "{year:<6}{:>7} {:>7}", totals.games, totals.hits);
        for c in &shown {
            let n = c
                .by_year
                .as_ref()
                .and_then(|b| b.get(y))
                .copied()
                .unwrap_or(0);
            let share = 100.0 * n as f64 / totals.continuations.max(1) as f64;
            let _ = write!(s, "  {share:>4.0}%");
        }
        let _ = writeln!(s);
    }
    s
}

/// The top next moves by the players' ranks (`search --by-rank`): a line per range of
/// ranks (then `mixed` and `unknown`) with its next moves and each top move's share of
/// them.
pub fn ranks(a: &RanksAnswer, size: Size) -> String {
    let mut s = String::new();
    let _ = write!(s, "{:<9}{:>8}", "ranks", "moves");
    for t in &a.top {
        let _ = write!(
            s,
            "  {:>5}",
            format!("{} {}", color_letter(t.color), Human(t.mv, size))
        );
    }
    let _ = writeln!(s);
    for b in &a.bins {
        let _ = write!(s, "{:<9}{:>8}", b.ranks, b.total);
        for n in &b.counts {
            if b.total == 0 {
                let _ = write!(s, "  {:>5}", "-");
            } else {
                let share = 100.0 * *n as f64 / b.total as f64;
                let _ = write!(s, "  {:>5}", format!("{share:.0}%"));
            }
        }
        let _ = writeln!(s);
    }
    s
}

/// One hit as a line: game, position, region, match, continuation, game information.
pub fn hit(h: &HitEntry<'_>) -> String {
    let r = h.region;
    let cont = match h.continuation {
        Some(c) => format!(
            "{} {} at move {}{}",
            color_letter(c.color),
            point_letters(c.cell),
            c.move_number,
            if c.immediate { "" } else { " (tenuki)" }
        ),
        None => "no continuation".to_string(),
    };
    let info = match (
        h.date,
        h.black,
        h.black_rank.as_deref(),
        h.white,
        h.white_rank.as_deref(),
    ) {
        (Some(date), Some(b), Some(br), Some(w), Some(wr)) => format!(
            "{date}  {b} {br} - {w} {wr}  {}",
            h.result.as_deref().unwrap_or("")
        ),
        _ => String::new(),
    };
    format!(
        "{:>7}  after move {:<3}  region {},{}-{},{}  t{}{}  {cont}  {info}",
        h.game,
        h.move_number,
        r[0],
        r[1],
        r[2],
        r[3],
        h.transform.unwrap_or(0),
        if h.colors_exchanged == Some(true) {
            " swapped"
        } else {
            ""
        },
    )
}

/// A page of hits: the totals, then one line per hit.
pub fn hits(a: &HitsAnswer<'_>) -> String {
    let mut s = format!("{} hits in {} games\n", a.hits, a.games);
    for h in &a.list {
        s += &hit(h);
        s.push('\n');
    }
    s
}

/// The games with hits of a pattern as a text table.
pub fn pattern_games(a: &GamesAnswer<'_>) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{} games", a.matching);
    for g in &a.games {
        let _ = writeln!(
            s,
            "{:>6}  {:<10}  {} {} - {} {}  {}  after move {}  {} hits  {}",
            g.id,
            g.date,
            g.black,
            g.black_rank,
            g.white,
            g.white_rank,
            g.result,
            g.move_number,
            g.hits.unwrap_or(0),
            g.event
        );
    }
    s
}

/// Where a pattern search's time went (for standard error): opening the index (`open`),
/// the pattern data, the searches, their CPU time.
pub fn pattern_timings(open: Duration, t: &PatternTimings) -> String {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let games = t.games.max(1) as f64;
    let [blocks, removals, starts, corners] = t.sections;
    let len = blocks + removals + starts + corners;
    let mut s = String::new();
    let _ = writeln!(s, "open index:    {:9.3} ms", ms(open));
    let _ = writeln!(
        s,
        "pattern data:  in the index ({} bytes, {:.1} bytes/game: blocks {}, \
         removals {} ({} stones) and their starts {}, corner boxes {}; {} threads)",
        len,
        len as f64 / games,
        blocks,
        removals,
        t.removed_stones,
        starts,
        corners,
        t.threads
    );
    let n = t.searches.len();
    if n > 0 {
        let _ = writeln!(
            s,
            "search:        {:9.3} ms  median of {} (min {:.3}, max {:.3}), {} variants",
            ms(t.searches[n / 2]),
            n,
            ms(t.searches[0]),
            ms(t.searches[n - 1]),
            t.variants
        );
    }
    if let Some(cpu) = t.cpu {
        let _ = writeln!(
            s,
            "search CPU:    {:9.3} ms  per search, all threads (the mean of {})",
            ms(cpu) / n.max(1) as f64,
            n
        );
    }
    s
}

/// `part` of `whole` in percent (0 of nothing).
fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// Local shape statistics as tables: per shape its most played patterns (rows, board size,
/// played, share of all moves, available, played when available, stones), then the most
/// frequent openings as SGF nodes.
pub fn shapes(a: &ShapesAnswer) -> String {
    let mut out = format!(
        "{} games, {} moves. Patterns are seen by the player to move: X plays at *, O is the opponent, # off the board.\n",
        a.games, a.moves
    );
    for s in &a.patterns {
        out += &format!(
            "\n{} patterns: {} distinct\n{:>4}  {:<7} {:>5} {:>9} {:>7} {:>10} {:>8} {:>6}\n",
            s.shape,
            s.distinct,
            "rank",
            "pattern",
            "board",
            "played",
            "share",
            "available",
            "played/",
            "stones"
        );
        out += &format!("{:>63}\n", "available");
        for (i, p) in s.top.iter().enumerate() {
            for (j, r) in p.rows.iter().enumerate() {
                if j == 0 {
                    out += &format!(
                        "{:>4}  {:<7} {:>5} {:>9} {:>6.2}% {:>10} {:>7.2}% {:>6}\n",
                        i + 1,
                        r,
                        p.size,
                        p.played,
                        percent(p.played, a.moves),
                        p.available,
                        percent(p.played, p.available),
                        p.stones
                    );
                } else {
                    out += &format!("      {r}\n");
                }
            }
        }
    }
    let o = &a.openings;
    out += &format!(
        "\nopenings of {} moves: {} games, {} distinct sequences (folded under the 8 symmetries)\n{:>4} {:>6}  sequence\n",
        o.moves, o.games, o.distinct, "rank", "games"
    );
    for (i, row) in o.top.iter().enumerate() {
        let name = row.name.map(|n| format!("  ({n})")).unwrap_or_default();
        out += &format!("{:>4} {:>6}  {}{name}\n", i + 1, row.count, row.sgf);
    }
    out
}

/// The guess rates by move range as a table.
pub fn guess_rates(rates: &[GuessRate]) -> String {
    let mut s = format!(
        "{:<10} {:>9} {:>8} {:>8} {:>9}\n",
        "moves", "positions", "top-1 %", "top-5 %", "covered %"
    );
    for r in rates {
        let _ = writeln!(
            s,
            "{:<10} {:>9} {:>8.1} {:>8.1} {:>9.1}",
            r.moves,
            r.positions,
            percent(r.top1, r.positions),
            percent(r.top5, r.positions),
            percent(r.covered, r.positions)
        );
    }
    s
}

/// The predictor's evaluation: the table's size, then top-1 and top-5 by move range, with
/// the last moves known and as snapshots.
pub fn evaluation(e: &EvaluationAnswer) -> String {
    format!(
        "{} training games, {} test games; table: {} patterns, {} bytes\n\nlast two moves known (moves requests):\n{}\nboard snapshots (board requests):\n{}",
        e.train_games,
        e.test_games,
        e.table.patterns,
        e.table.bytes,
        guess_rates(&e.moves),
        guess_rates(&e.snapshots)
    )
}

/// A measurement of tracked streams (`kifudex predict --eval --streams`).
pub fn streams(e: &StreamsAnswer) -> String {
    let c = &e.counts;
    let n = &c.noise;
    let cadence = match (c.cadence, c.times) {
        (None, _) => "legacy streams".to_string(),
        (Some(k), t) => format!(
            "{} streams{}",
            match k {
                crate::tracking::stream::Cadence::Periodic => "periodic",
                crate::tracking::stream::Cadence::ChangeOnly => "change-only",
            },
            if t { " with t=" } else { "" }
        ),
    };
    format!(
        "{} training games in the book ({} bytes); {} test games followed ({} a board cannot follow), {cadence}: {} snapshots ({} misread points, {} stones lifted and put back, {} hands, {} slid stones, {} captures lifted over several snapshots, {} throw-ins at once, {} lost readings, {} fixes ignored); records not the game's main line: {}\n\ntracked streams (hints read before each move):\n{}\nthe same positions as plain snapshots (side to move named):\n{}",
        c.train_games,
        c.book_bytes,
        c.test_games,
        c.untrackable,
        c.snapshots,
        n.flickers,
        n.lifts,
        n.hands,
        n.slides,
        n.slow_captures,
        n.throw_ins,
        n.lost_readings,
        n.ignored_fixes,
        c.records_wrong,
        guess_rates(&e.tracked),
        guess_rates(&e.snapshots_alone)
    )
}
