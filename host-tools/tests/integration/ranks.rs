//! Ranks on one scale (`kifudex::rank`) over the real corpus: `docs/RANKS.md` lists every
//! distinct `BR`/`WR` value of `../shared/corpus` with the rank read from it and how often it
//! occurs; this test writes the table again and fails when the file differs (run it with
//! `KIFUDEX_WRITE_DOCS=1` to write the file).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use kifudex::input::collect_sources;
use kifudex::rank::Rank;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `BR`/`WR` value of the corpus (as the readers decode it) and how often it occurs.
fn corpus_values() -> (BTreeMap<String, usize>, usize) {
    let (sources, _) = collect_sources(&[root().join("../shared/corpus")]);
    let mut values: BTreeMap<String, usize> = BTreeMap::new();
    let mut games = 0;
    for s in &sources {
        for g in s.parse().games {
            games += 1;
            for v in [g.info.black_rank, g.info.white_rank].into_iter().flatten() {
                *values.entry(v).or_default() += 1;
            }
        }
    }
    (values, games)
}

/// A value as a table cell: `|` escaped, in backticks.
fn cell(v: &str) -> String {
    format!("`{}`", v.replace('|', "\\|").replace('`', "'"))
}

/// The text of `docs/RANKS.md`.
fn ranks_doc() -> String {
    let (values, games) = corpus_values();
    let total: usize = values.values().sum();
    let mut read: Vec<(Rank, &str, usize)> = Vec::new();
    let mut unknown: Vec<(&str, usize)> = Vec::new();
    for (v, &n) in &values {
        match Rank::parse(v) {
            Some(r) => read.push((r, v, n)),
            None => unknown.push((v, n)),
        }
    }
    read.sort_by(|a, b| b.0.cmp(&a.0).then(b.2.cmp(&a.2)).then(a.1.cmp(b.1)));
    unknown.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let read_n: usize = read.iter().map(|r| r.2).sum();
    let unknown_n: usize = unknown.iter().map(|u| u.1).sum();
    let mut by_rank: BTreeMap<Rank, usize> = BTreeMap::new();
    for (r, _, n) in &read {
        *by_rank.entry(*r).or_default() += n;
    }
    let mut out = String::new();
    out += "# Ranks\n\n";
    out += "Records write a player's rank (`BR`, `WR`, or the player lines of the `.gib`, `.ngf`\n";
    out += "and `.ugf` formats) in many forms. kifudex reads them onto one scale, weakest first:\n";
    out +=
        "30 kyu to 1 kyu, 1 to 9 dan (amateur), 1 to 9 dan professional, written `30k` .. `1k`,\n";
    out += "`1d` .. `9d`, `1p` .. `9p` (`host-tools/records/src/rank.rs`, `Rank::parse`).\n\n";
    out += "## How a value is read\n\n";
    out += "- Marks of confidence at the end are dropped: `9d*`, `4k?`, `5d+`.\n";
    out += "- The first number (ASCII or full-width digits, or a Chinese/Japanese numeral: `九`,\n";
    out += "  `十五`, `初` for the first dan) followed by its unit: `k`, `kyu`, `級`, `级`, `급` for\n";
    out +=
        "  kyu; `d`, `dan`, `段`, `단` for dan; `p` or `dp` (`2p`, `9DP`) for professional dan.\n";
    out += "  Spaces, `-`, `.` may stand between them (`7 dan`, `1-dan`).\n";
    out +=
        "- A dan is professional when `p` stands right before the number (`P9段`, `p9d`) or the\n";
    out += "  value says so (`pro`, `职业`, `職業`, `プロ`, `프로`), unless it also says amateur (`ama`,\n";
    out += "  `业余`, `業餘`, `アマ`, `아마`).\n";
    out += "- Anything else is unknown: a number without a unit, a rank off the scale (`31k`,\n";
    out +=
        "  `10d`), `pro` without a number, words. Unknown ranks are kept as unknown and counted;\n";
    out += "  a game with an unknown rank passes a rank filter only when no bound is given.\n\n";
    out += "## Read when asked, not stored\n\n";
    out +=
        "The index keeps `BR` and `WR` as written (string ids in each game's row); the filters\n";
    out += "(`--min-rank`, `--max-rank`) read both ranks of a game when they test it\n";
    out +=
        "(`GameRanks::of`, `RankRange::accepts`). So the index format does not change, opening\n";
    out +=
        "an index still costs the same whatever its size, and a better reading of a form needs\n";
    out +=
        "no rebuild. The common forms (`5d`, `15k`, `2p`, `P9`, `9段`, `P9段`, with `*` or `?`)\n";
    out += "are read without allocating; the others by the full reader.\n\n";
    out +=
        "What it costs, counted with callgrind (`cargo bench -p kifudex-bench --bench ranks --\n";
    out +=
        "INDEX`, on a synthetic collection of 100,000 games with made-up ranks from 1k to 9p):\n";
    out +=
        "reading a game's row (`Index::game`, what every filter of the games does already) takes\n";
    out += "about 1,160 instructions; reading one rank about 45 (it took about 970 before the\n";
    out +=
        "common forms had their quick reader), so both ranks add about 8% to a game the filter\n";
    out += "reads. A filtered search over all the games of a 1,000,000-game collection reads a\n";
    out += "million rows (0.7 s a pass on the shared machine); the ranks add about 0.06 s to that.\n\n";
    out += "## Filters and the by-rank profile\n\n";
    out += "`--min-rank R` and `--max-rank R` (API `min_rank`, `max_rank`, the shell's `filter\n";
    out += "rank MIN MAX`, the web board's Ranks fields) keep the games in which both players'\n";
    out += "ranks lie within the bounds, both inclusive, on `search`, `games`, `pattern`, the\n";
    out +=
        "profiles and the GTP engines. A game with a rank that cannot be read is kept only when\n";
    out += "no bound is given. `--rank-of B|W` (`rank_of`) bounds one player only, the player to\n";
    out += "move, say. The bounds take any form a record may use (`--min-rank P1段` is `1p`).\n\n";
    out += "`search --by-rank` (and `/api/ranks`, the web board's \"By rank\" chart) counts the\n";
    out += "top next moves again in each range of ranks: `30k-10k`, `9k-1k`, `1d-3d`, `4d-6d`,\n";
    out += "`7d-9d`, `1p-9p`. A game falls in the range that holds both its players' ranks, in\n";
    out += "`mixed` when they lie in different ranges, in `unknown` when a rank cannot be read.\n";
    out += "The filters' answers are checked against a count written in the test\n";
    out += "`host-tools/tests/integration/filters.rs` from the SGF files themselves.\n\n";
    out += "## The corpus\n\n";
    out += "Every distinct value of `BR` and `WR` in the test corpus (`../shared/corpus`, ";
    out += &format!("{games} games), as this table was generated by the test `ranks::` of\n");
    out += "`host-tools/tests/integration/ranks.rs` (`KIFUDEX_WRITE_DOCS=1` writes it again):\n";
    out += &format!(
        "{} distinct values occur {total} times; {} values ({read_n} times) are read, {} values\n({unknown_n} times) are unknown.\n\n",
        values.len(),
        read.len(),
        unknown.len()
    );
    out += "### Games' ranks by rank\n\n| rank | times |\n|---|---:|\n";
    for (r, n) in by_rank.iter().rev() {
        out += &format!("| {r} | {n} |\n");
    }
    out += "\n### Every value read\n\n| value | rank | times |\n|---|---|---:|\n";
    for (r, v, n) in &read {
        out += &format!("| {} | {r} | {n} |\n", cell(v));
    }
    out += "\n### Unknown values\n\n";
    if unknown.is_empty() {
        out += "None.\n";
    } else {
        out += "| value | times |\n|---|---:|\n";
        for (v, n) in &unknown {
            out += &format!("| {} | {n} |\n", cell(v));
        }
    }
    out
}

/// Fails unless the generated document `rel` (from the repository's root) holds `want`;
/// with `KIFUDEX_WRITE_DOCS` set, writes it first.
pub(crate) fn check_generated_doc(rel: &str, want: &str) {
    let path = root().join(rel);
    if std::env::var_os("KIFUDEX_WRITE_DOCS").is_some() {
        std::fs::write(&path, want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{rel} is not what the corpus gives: run this test with KIFUDEX_WRITE_DOCS=1"
    );
}

#[test]
fn the_ranks_doc_is_current() {
    check_generated_doc("docs/RANKS.md", &ranks_doc());
}
