//! Encoding the game columns (layout: [`kifudex_core::columns`], `docs/FORMAT.md`): what
//! filters, sorts and profiles read, from the games in index order. A function of the
//! games alone, so a build, a merge and an add of the same games write the same bytes.

use std::borrow::Cow;
use std::collections::HashMap;

use anyhow::Result;
use kifudex_core::columns::{ColumnsHeader, Facts, FactsLayout, COLUMNS_VERSION, UNKNOWN_RANK};
use kifudex_core::format::{bits_for, BitWriter, Section};
use kifudex_core::outcome::{Margin, ShortResult};
use kifudex_core::pattern::stored::writer::SectionData;
use rayon::prelude::*;

use crate::indexing::replay::ReplayedGame;
use crate::rank::Rank;
use crate::sgf::GameInfo;

/// The columns' sections, encoded, before they are placed in a body.
pub struct ColumnsPart {
    layout: FactsLayout,
    games: u64,
    dates: BitWriter,
    facts: BitWriter,
    komis: BitWriter,
    /// black, white, event, result.
    names: [BitWriter; 4],
    /// players, events, results, rules: offsets and bytes.
    dictionaries: [(BitWriter, Vec<u8>); 4],
    /// by date, black, white, result, event.
    orders: [BitWriter; 5],
}

/// A text as the dictionaries keep it: lowercase (borrowed when it already is).
fn lower(s: &str) -> Cow<'_, str> {
    if s.is_ascii() && !s.bytes().any(|b| b.is_ascii_uppercase()) {
        return Cow::Borrowed(s);
    }
    let l = s.to_lowercase();
    if l == s {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(l)
    }
}

/// A dictionary of the distinct texts of `columns` (each one text per game): sorted by
/// bytes with the empty text last; returns its encoding and each column's ids.
fn dictionary(columns: &[&[Cow<'_, str>]]) -> ((BitWriter, Vec<u8>), Vec<Vec<u32>>) {
    let mut names: Vec<&str> = columns
        .iter()
        .flat_map(|c| c.iter().map(|s| s.as_ref()))
        .collect();
    names.par_sort_unstable_by(|a, b| (a.is_empty(), a).cmp(&(b.is_empty(), b)));
    names.dedup();
    let ids: HashMap<&str, u32> = names
        .iter()
        .enumerate()
        .map(|(i, &s)| (s, i as u32))
        .collect();
    let total: usize = names.iter().map(|s| s.len()).sum();
    let mut offsets = BitWriter::with_capacity(bits_for(total as u64), names.len() + 1);
    let mut bytes = Vec::with_capacity(total);
    offsets.push(0);
    for s in &names {
        bytes.extend_from_slice(s.as_bytes());
        offsets.push(bytes.len() as u64);
    }
    let per_column = columns
        .iter()
        .map(|c| c.par_iter().map(|s| ids[s.as_ref()]).collect())
        .collect();
    ((offsets, bytes), per_column)
}

/// A column of ids packed as narrow as its largest.
fn packed(values: &[u32]) -> BitWriter {
    let max = values.iter().copied().max().unwrap_or(0);
    let mut w = BitWriter::with_capacity(bits_for(max as u64), values.len());
    for &v in values {
        w.push(v as u64);
    }
    w
}

/// The game ids sorted by `key` then id, packed.
fn order(games: usize, key: impl Fn(usize) -> u64 + Sync) -> BitWriter {
    let mut ids: Vec<u32> = (0..games as u32).collect();
    ids.par_sort_unstable_by_key(|&i| (key(i as usize), i));
    packed(&ids)
}

/// A rank as the facts record keeps it.
fn rank_code(text: Option<&str>) -> u8 {
    Rank::parse(text.unwrap_or("")).map_or(UNKNOWN_RANK, Rank::index)
}

/// A game's information.
fn info(g: &ReplayedGame) -> &GameInfo {
    &g.record.info
}

/// A text of the information, empty when absent.
fn text(t: &Option<String>) -> &str {
    t.as_deref().unwrap_or("")
}

/// Encodes the columns of `games` (in index order).
pub fn encode_columns(games: &[ReplayedGame]) -> ColumnsPart {
    let n = games.len();
    // The players, then the events, results and rules: one dictionary at a time.
    let black: Vec<Cow<str>> = games
        .par_iter()
        .map(|g| lower(text(&info(g).black)))
        .collect();
    let white: Vec<Cow<str>> = games
        .par_iter()
        .map(|g| lower(text(&info(g).white)))
        .collect();
    let (players, mut player_ids) = dictionary(&[&black, &white]);
    drop((black, white));
    let white_ids = player_ids.pop().unwrap_or_default();
    let black_ids = player_ids.pop().unwrap_or_default();
    let event: Vec<Cow<str>> = games
        .par_iter()
        .map(|g| lower(text(&info(g).event)))
        .collect();
    let (events, mut event_ids) = dictionary(&[&event]);
    drop(event);
    let event_ids = event_ids.pop().unwrap_or_default();
    let result: Vec<Cow<str>> = games
        .par_iter()
        .map(|g| {
            let r = info(g).result.as_ref();
            let short = ShortResult {
                winner: r.and_then(|r| r.winner),
                margin: r.map_or(Margin::Unknown, |r| r.margin),
                raw: r.map_or("", |r| r.raw.as_str()),
            };
            Cow::Owned(short.to_string().to_lowercase())
        })
        .collect();
    let (results, mut result_ids) = dictionary(&[&result]);
    drop(result);
    let result_ids = result_ids.pop().unwrap_or_default();
    let rules: Vec<Cow<str>> = games
        .par_iter()
        .map(|g| lower(text(&info(g).rules)))
        .collect();
    let (rules_dict, mut rules_ids) = dictionary(&[&rules]);
    drop(rules);
    let rules_ids = rules_ids.pop().unwrap_or_default();
    // The distinct komi values, ascending; id 0 is unknown.
    let mut komi_values: Vec<i32> = games.iter().filter_map(|g| info(g).komi).collect();
    komi_values.sort_unstable();
    komi_values.dedup();
    let layout = FactsLayout {
        komi_bits: bits_for(komi_values.len() as u64),
        rules_bits: bits_for(rules_dict.0.count().saturating_sub(2)),
    };
    let mut komis = BitWriter::with_capacity(32, komi_values.len());
    for &k in &komi_values {
        komis.push(k as u32 as u64);
    }
    let max_date = games.iter().map(|g| g.date_key).max().unwrap_or(0);
    let mut dates = BitWriter::with_capacity(bits_for(max_date as u64), n);
    let mut facts = BitWriter::with_capacity(layout.bits(), n);
    let fact_values: Vec<u64> = games
        .par_iter()
        .zip(&rules_ids)
        .map(|(g, &rules)| {
            let i = info(g);
            let komi = i.komi.map_or(0, |k| {
                komi_values.binary_search(&k).map_or(0, |p| p as u32 + 1)
            });
            layout.encode(&Facts {
                winner: i.result.as_ref().and_then(|r| r.winner),
                handicap: i.handicap.unwrap_or(0).min(255) as u8,
                black_rank: rank_code(i.black_rank.as_deref()),
                white_rank: rank_code(i.white_rank.as_deref()),
                komi,
                rules,
            })
        })
        .collect();
    for (g, f) in games.iter().zip(fact_values) {
        dates.push(g.date_key as u64);
        facts.push(f);
    }
    let date_key = |i: usize| match games[i].date_key {
        0 => u64::MAX,
        d => d as u64,
    };
    let orders = [
        order(n, date_key),
        order(n, |i| black_ids[i] as u64),
        order(n, |i| white_ids[i] as u64),
        order(n, |i| result_ids[i] as u64),
        order(n, |i| event_ids[i] as u64),
    ];
    ColumnsPart {
        layout,
        games: n as u64,
        dates,
        facts,
        komis,
        names: [
            packed(&black_ids),
            packed(&white_ids),
            packed(&event_ids),
            packed(&result_ids),
        ],
        dictionaries: [players, events, results, rules_dict],
        orders,
    }
}

impl ColumnsPart {
    /// Places the sections with `put` (a body's writer, as for pattern search's sections)
    /// and returns the columns' part of the header.
    pub fn header(
        self,
        mut put: impl FnMut(SectionData<'_>) -> Result<Section>,
    ) -> Result<ColumnsHeader> {
        let [black, white, event, result] = self.names;
        let [by_date, by_black, by_white, by_result, by_event] = self.orders;
        let mut dictionaries = Vec::with_capacity(4);
        for (offsets, bytes) in self.dictionaries {
            let index = put(SectionData::Packed(offsets))?;
            dictionaries.push((index, put(SectionData::Rows(&bytes, 1))?));
        }
        let [players, events, results, rules]: [(Section, Section); 4] = dictionaries
            .try_into()
            .map_err(|_| anyhow::anyhow!("four dictionaries"))?;
        let mut packed = |w: BitWriter| put(SectionData::Packed(w));
        Ok(ColumnsHeader {
            version: COLUMNS_VERSION,
            games: self.games,
            komi_bits: self.layout.komi_bits as u8,
            rules_bits: self.layout.rules_bits as u8,
            dates: packed(self.dates)?,
            facts: packed(self.facts)?,
            komis: packed(self.komis)?,
            black: packed(black)?,
            white: packed(white)?,
            event: packed(event)?,
            result: packed(result)?,
            players_index: players.0,
            players: players.1,
            events_index: events.0,
            events: events.1,
            results_index: results.0,
            results: results.1,
            rules_index: rules.0,
            rules: rules.1,
            by_date: packed(by_date)?,
            by_black: packed(by_black)?,
            by_white: packed(by_white)?,
            by_result: packed(by_result)?,
            by_event: packed(by_event)?,
        })
    }
}
