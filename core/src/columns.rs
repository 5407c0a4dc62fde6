//! The game columns: what the filters, sorts and profiles of game lists read of every game,
//! stored for them (layout: `docs/FORMAT.md`, "Game columns"), and their owner
//! [`GameColumns`], which opens and validates them.
//!
//! A game's row ([`crate::index::GameLayout`]) holds its information as the record wrote
//! it, its texts in the shared string pool. Answering "the games of this position won by
//! Black, of 2019, by 5d players or stronger, sorted by White's name" from the rows means
//! decoding every row and reading its texts. The columns keep the same facts in the forms
//! the questions compare:
//!
//! - `dates`: each game's date as `yyyymmdd` (the row's);
//! - `facts`: one packed record per game ([`FactsLayout`]): winner, handicap, both players'
//!   ranks on the rank scale (read from `BR`/`WR` by the builder), the game's komi and rules
//!   as ids into their dictionaries;
//! - `black`, `white`, `event`, `result`: ids into the dictionaries of players, events and
//!   results;
//! - dictionaries ([`Dictionary`]): the distinct names, lowercase (`str::to_lowercase`),
//!   sorted with the empty name last: so a name filter tests each distinct name once and
//!   then compares ids, and an id's order is the sort order of the names (equal ids: equal
//!   keys); `komis` the distinct komi values, ascending (id 0: unknown);
//! - orders ([`SortColumn`]): every game id sorted by one key (date, Black, White, result,
//!   event) then by id, so that a page of a sorted list is read off in order.
//!
//! [`GameColumns::open`] checks the structure in constant time; every read is clamped;
//! [`GameColumns::validate`] checks every record, and those the rows also hold against
//! the rows.

use serde::{Deserialize, Serialize};

use crate::format::{FormatError, Packed, Section};
use crate::index::Index;
use crate::point::Color;

/// The version of the game columns' part of the header this reader reads (another is
/// refused: an index built before the columns has none).
pub const COLUMNS_VERSION: u32 = 1;

/// The rank code of an unknown rank in [`Facts`].
pub const UNKNOWN_RANK: u8 = 63;

/// The highest rank code (9 dan professional; 0 is 30 kyu).
pub const MAX_RANK: u8 = 47;

/// The game columns' part of an index file's header (after pattern search's: postcard,
/// in field order).
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ColumnsHeader {
    /// [`COLUMNS_VERSION`].
    pub version: u32,
    /// The index's number of games.
    pub games: u64,
    /// Bits of a komi id in a facts record.
    pub komi_bits: u8,
    /// Bits of a rules id in a facts record.
    pub rules_bits: u8,
    /// Each game's date as `yyyymmdd`.
    pub dates: Section,
    /// Each game's facts record ([`FactsLayout`]).
    pub facts: Section,
    /// The distinct komi values in hundredths of a point (32-bit two's complement),
    /// ascending; komi id `i + 1` is value `i`.
    pub komis: Section,
    /// Black's id in `players`.
    pub black: Section,
    /// White's id in `players`.
    pub white: Section,
    /// The event's id in `events`.
    pub event: Section,
    /// The result's id in `results` (the result's short text, as game lists show it).
    pub result: Section,
    /// The players' dictionary: offsets, then bytes.
    pub players_index: Section,
    /// Its bytes.
    pub players: Section,
    /// The events' dictionary: offsets.
    pub events_index: Section,
    /// Its bytes.
    pub events: Section,
    /// The results' dictionary: offsets.
    pub results_index: Section,
    /// Its bytes.
    pub results: Section,
    /// The rules' dictionary: offsets.
    pub rules_index: Section,
    /// Its bytes.
    pub rules: Section,
    /// The game ids by date (unknown dates last), then id.
    pub by_date: Section,
    /// By Black's name id, then id.
    pub by_black: Section,
    /// By White's name id, then id.
    pub by_white: Section,
    /// By result id, then id.
    pub by_result: Section,
    /// By event id, then id.
    pub by_event: Section,
}

impl ColumnsHeader {
    /// The sections, named (for `kifudex info`).
    pub fn sections(&self) -> [(&'static str, &Section); 20] {
        [
            ("dates", &self.dates),
            ("facts", &self.facts),
            ("komi values", &self.komis),
            ("black ids", &self.black),
            ("white ids", &self.white),
            ("event ids", &self.event),
            ("result ids", &self.result),
            ("players index", &self.players_index),
            ("players", &self.players),
            ("events index", &self.events_index),
            ("events", &self.events),
            ("results index", &self.results_index),
            ("results", &self.results),
            ("rules index", &self.rules_index),
            ("rules", &self.rules),
            ("order by date", &self.by_date),
            ("order by black", &self.by_black),
            ("order by white", &self.by_white),
            ("order by result", &self.by_result),
            ("order by event", &self.by_event),
        ]
    }

    /// Bytes of all sections.
    pub fn bytes(&self) -> u64 {
        self.sections().iter().map(|(_, s)| s.len).sum()
    }
}

/// A game's facts as one packed record ([`FactsLayout`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Hash)]
pub struct Facts {
    /// The winner, if the record names one.
    pub winner: Option<Color>,
    /// Handicap stones.
    pub handicap: u8,
    /// Black's rank on the scale (0 = 30 kyu .. 47 = 9 dan professional), or
    /// [`UNKNOWN_RANK`].
    pub black_rank: u8,
    /// White's rank, as `black_rank`.
    pub white_rank: u8,
    /// The komi's id: 0 unknown, else 1 + its place in `komis`.
    pub komi: u32,
    /// The rules' id in `rules`.
    pub rules: u32,
}

/// The layout of a facts record: bits 0-1 winner (0 none, 1 Black, 2 White), 2-9 handicap,
/// 10-15 Black's rank, 16-21 White's rank, then `komi_bits` of komi id, then `rules_bits`
/// of rules id.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FactsLayout {
    /// Bits of the komi id.
    pub komi_bits: u32,
    /// Bits of the rules id.
    pub rules_bits: u32,
}

impl FactsLayout {
    /// Width of a record in bits.
    pub const fn bits(&self) -> u32 {
        22 + self.komi_bits + self.rules_bits
    }

    /// Whether the record fits 64 bits with ids of at most 32 bits.
    pub const fn is_valid(&self) -> bool {
        self.komi_bits <= 32 && self.rules_bits <= 32 && self.bits() <= 64
    }

    /// Encodes a record (ids cut to their widths: the encoder's caller picks widths that
    /// hold them).
    pub fn encode(&self, f: &Facts) -> u64 {
        let winner = match f.winner {
            None => 0u64,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        };
        let mask = |bits: u32| if bits >= 64 { !0 } else { (1u64 << bits) - 1 };
        winner
            | (f.handicap as u64) << 2
            | ((f.black_rank & 63) as u64) << 10
            | ((f.white_rank & 63) as u64) << 16
            | (f.komi as u64 & mask(self.komi_bits)) << 22
            | (f.rules as u64 & mask(self.rules_bits)) << (22 + self.komi_bits)
    }

    /// Decodes a record; `None` for a winner code of 3 or a rank code past the scale other
    /// than [`UNKNOWN_RANK`].
    pub fn decode(&self, v: u64) -> Option<Facts> {
        let winner = match v & 3 {
            0 => None,
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => return None,
        };
        let rank = |shift: u32| {
            let r = (v >> shift & 63) as u8;
            (r <= MAX_RANK || r == UNKNOWN_RANK).then_some(r)
        };
        let mask = |bits: u32| if bits >= 64 { !0 } else { (1u64 << bits) - 1 };
        Some(Facts {
            winner,
            handicap: (v >> 2 & 0xff) as u8,
            black_rank: rank(10)?,
            white_rank: rank(16)?,
            komi: (v >> 22 & mask(self.komi_bits)) as u32,
            rules: (v.checked_shr(22 + self.komi_bits).unwrap_or(0) & mask(self.rules_bits)) as u32,
        })
    }
}

/// A dictionary of distinct names: their UTF-8 bytes and where each starts (one more
/// offset than names). Names are sorted by their bytes, the empty name (if any) last.
#[derive(Copy, Clone, Debug)]
pub struct Dictionary<'a> {
    index: Packed<'a>,
    bytes: &'a [u8],
}

impl<'a> Dictionary<'a> {
    fn open(index: &Section, bytes: &Section, body: &'a [u8]) -> Result<Self, FormatError> {
        if bytes.width_bits != 8 || index.count < 1 {
            return Err(FormatError::BadHeader);
        }
        let d = Dictionary {
            index: index.packed(body)?,
            bytes: bytes
                .slice(body)?
                .get(..usize::try_from(bytes.count).map_err(|_| FormatError::BadSection)?)
                .ok_or(FormatError::BadSection)?,
        };
        if !d.index.ends_are(d.bytes.len() as u64) {
            return Err(FormatError::BadRecord);
        }
        Ok(d)
    }

    /// Number of names.
    pub fn len(&self) -> u32 {
        self.index.len().saturating_sub(1) as u32
    }

    /// Whether there is no name.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Name `id` (empty past the end or where the bytes are not UTF-8).
    pub fn name(&self, id: u32) -> &'a str {
        let id = id as usize;
        let (a, b) = (self.index.at(id), self.index.at(id.saturating_add(1)));
        self.bytes
            .get(a as usize..b as usize)
            .and_then(|s| core::str::from_utf8(s).ok())
            .unwrap_or("")
    }

    /// Every name valid UTF-8 and in order (strictly increasing by bytes, the empty name
    /// only last).
    fn validate(&self) -> Result<(), FormatError> {
        if !self.index.is_offsets_of(self.bytes.len() as u64) {
            return Err(FormatError::BadRecord);
        }
        let mut prev: Option<&[u8]> = None;
        for i in 0..self.len() as usize {
            let (a, b) = (self.index.at(i), self.index.at(i + 1));
            let s = self
                .bytes
                .get(a as usize..b as usize)
                .ok_or(FormatError::BadRecord)?;
            core::str::from_utf8(s).map_err(|_| FormatError::BadRecord)?;
            if let Some(p) = prev {
                if p.is_empty() || (!s.is_empty() && s <= p) {
                    return Err(FormatError::BadRecord);
                }
            }
            prev = Some(s);
        }
        Ok(())
    }
}

/// A precomputed order of the games ([`GameColumns::order`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SortColumn {
    /// By date, unknown dates last.
    Date,
    /// By Black's name.
    Black,
    /// By White's name.
    White,
    /// By the result's short text.
    Result,
    /// By event.
    Event,
}

impl SortColumn {
    /// Every order, as the header lists them.
    pub const ALL: [SortColumn; 5] = [
        SortColumn::Date,
        SortColumn::Black,
        SortColumn::White,
        SortColumn::Result,
        SortColumn::Event,
    ];
}

/// The game columns of an index file, their structure checked ([`GameColumns::open`]).
#[derive(Copy, Clone, Debug)]
pub struct GameColumns<'a> {
    layout: FactsLayout,
    games: u32,
    dates: Packed<'a>,
    facts: Packed<'a>,
    komis: Packed<'a>,
    black: Packed<'a>,
    white: Packed<'a>,
    event: Packed<'a>,
    result: Packed<'a>,
    players: Dictionary<'a>,
    events: Dictionary<'a>,
    results: Dictionary<'a>,
    rules: Dictionary<'a>,
    orders: [Packed<'a>; 5],
}

impl<'a> GameColumns<'a> {
    /// Opens the columns `h` places in `body` for an index of `games` games, checking in
    /// constant time the version, the widths, every section's bounds and record count, and
    /// the ends of the dictionaries' offsets.
    pub fn open(h: &ColumnsHeader, body: &'a [u8], games: u32) -> Result<Self, FormatError> {
        if h.version != COLUMNS_VERSION {
            return Err(FormatError::UnsupportedVersion);
        }
        let layout = FactsLayout {
            komi_bits: h.komi_bits as u32,
            rules_bits: h.rules_bits as u32,
        };
        let per_game = [
            &h.dates,
            &h.facts,
            &h.black,
            &h.white,
            &h.event,
            &h.result,
            &h.by_date,
            &h.by_black,
            &h.by_white,
            &h.by_result,
            &h.by_event,
        ];
        if h.games != games as u64
            || !layout.is_valid()
            || h.facts.width_bits != layout.bits()
            || h.komis.width_bits != 32
            || per_game.iter().any(|s| s.count != games as u64)
        {
            return Err(FormatError::BadHeader);
        }
        let c = GameColumns {
            layout,
            games,
            dates: h.dates.packed(body)?,
            facts: h.facts.packed(body)?,
            komis: h.komis.packed(body)?,
            black: h.black.packed(body)?,
            white: h.white.packed(body)?,
            event: h.event.packed(body)?,
            result: h.result.packed(body)?,
            players: Dictionary::open(&h.players_index, &h.players, body)?,
            events: Dictionary::open(&h.events_index, &h.events, body)?,
            results: Dictionary::open(&h.results_index, &h.results, body)?,
            rules: Dictionary::open(&h.rules_index, &h.rules, body)?,
            orders: [
                h.by_date.packed(body)?,
                h.by_black.packed(body)?,
                h.by_white.packed(body)?,
                h.by_result.packed(body)?,
                h.by_event.packed(body)?,
            ],
        };
        // Every komi id and rules id of the layout's widths names an entry or unknown.
        Ok(c)
    }

    /// Number of games.
    pub fn len(&self) -> u32 {
        self.games
    }

    /// Whether there is no game.
    pub fn is_empty(&self) -> bool {
        self.games == 0
    }

    /// Game `id`'s date as `yyyymmdd` (0 when no year is known).
    #[inline]
    pub fn date(&self, id: u32) -> u32 {
        self.dates.at(id as usize) as u32
    }

    /// Game `id`'s facts (the default, nothing known, where the record is invalid).
    #[inline]
    pub fn facts(&self, id: u32) -> Facts {
        self.layout
            .decode(self.facts.at(id as usize))
            .unwrap_or(Facts {
                black_rank: UNKNOWN_RANK,
                white_rank: UNKNOWN_RANK,
                ..Facts::default()
            })
    }

    /// The facts records as stored, and their layout (for loops that decode a field).
    pub fn facts_column(&self) -> (Packed<'a>, FactsLayout) {
        (self.facts, self.layout)
    }

    /// Black's id in [`GameColumns::players`].
    #[inline]
    pub fn black(&self, id: u32) -> u32 {
        self.black.at(id as usize) as u32
    }

    /// White's id in [`GameColumns::players`].
    #[inline]
    pub fn white(&self, id: u32) -> u32 {
        self.white.at(id as usize) as u32
    }

    /// The event's id in [`GameColumns::events`].
    #[inline]
    pub fn event(&self, id: u32) -> u32 {
        self.event.at(id as usize) as u32
    }

    /// The result's id in [`GameColumns::results`].
    #[inline]
    pub fn result(&self, id: u32) -> u32 {
        self.result.at(id as usize) as u32
    }

    /// The komi of a komi id (`None` for 0, unknown, and past the list).
    pub fn komi_value(&self, komi_id: u32) -> Option<i32> {
        let i = (komi_id as usize).checked_sub(1)?;
        self.komis.get(i).map(|v| v as u32 as i32)
    }

    /// Number of distinct komi values (ids 1 to this).
    pub fn komi_count(&self) -> u32 {
        self.komis.len() as u32
    }

    /// The players' names (lowercase).
    pub fn players(&self) -> &Dictionary<'a> {
        &self.players
    }

    /// The events (lowercase).
    pub fn events(&self) -> &Dictionary<'a> {
        &self.events
    }

    /// The results' short texts (lowercase).
    pub fn results(&self) -> &Dictionary<'a> {
        &self.results
    }

    /// The rules (lowercase).
    pub fn rules(&self) -> &Dictionary<'a> {
        &self.rules
    }

    /// The key of game `id` in an order: the date (`u64::MAX` when unknown) or a name's id.
    #[inline]
    pub fn key(&self, column: SortColumn, id: u32) -> u64 {
        match column {
            SortColumn::Date => match self.date(id) {
                0 => u64::MAX,
                d => d as u64,
            },
            SortColumn::Black => self.black(id) as u64,
            SortColumn::White => self.white(id) as u64,
            SortColumn::Result => self.result(id) as u64,
            SortColumn::Event => self.event(id) as u64,
        }
    }

    /// The game ids sorted by `column`'s key, then by id.
    pub fn order(&self, column: SortColumn) -> Packed<'a> {
        self.orders[column as usize]
    }

    /// Checks every record: facts decode with ids in their dictionaries, name ids in
    /// theirs, dictionaries in order, komi values ascending, each order a permutation
    /// sorted by its key then id; and against the games' rows of `index`: dates, winners,
    /// handicaps and komi equal.
    pub fn validate(&self, index: &Index<'_>) -> Result<(), FormatError> {
        let bad = Err(FormatError::BadRecord);
        for d in [&self.players, &self.events, &self.results, &self.rules] {
            d.validate()?;
        }
        for i in 1..self.komis.len() {
            if (self.komis.at(i - 1) as u32 as i32) >= (self.komis.at(i) as u32 as i32) {
                return bad;
            }
        }
        if index.game_count() != self.games {
            return bad;
        }
        for g in 0..self.games {
            let Some(f) = self.layout.decode(self.facts.at(g as usize)) else {
                return bad;
            };
            let row = index.game(g).ok_or(FormatError::BadRecord)?;
            if f.komi > self.komi_count()
                || f.rules >= self.rules.len()
                || self.black(g) >= self.players.len()
                || self.white(g) >= self.players.len()
                || self.event(g) >= self.events.len()
                || self.result(g) >= self.results.len()
                || self.date(g) != row.date_key
                || f.winner != row.winner
                || f.handicap != row.handicap
                || self.komi_value(f.komi) != row.komi
            {
                return bad;
            }
        }
        for column in SortColumn::ALL {
            let order = self.order(column);
            let mut prev: Option<(u64, u32)> = None;
            for i in 0..order.len() {
                let id = order.at(i);
                if id >= self.games as u64 {
                    return bad;
                }
                let k = (self.key(column, id as u32), id as u32);
                // Strictly increasing (key, id): the ids are distinct, so a permutation.
                if prev.is_some_and(|p| p >= k) {
                    return bad;
                }
                prev = Some(k);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field at its extremes survives a loopback, widths 0 to their maximum.
    #[test]
    fn facts_loop_back() {
        for (kb, rb) in [(0, 0), (1, 1), (3, 7), (21, 21), (32, 10), (10, 32)] {
            let layout = FactsLayout {
                komi_bits: kb,
                rules_bits: rb,
            };
            assert!(layout.is_valid());
            let max = |b: u32| if b == 0 { 0 } else { ((1u64 << b) - 1) as u32 };
            for winner in [None, Some(Color::Black), Some(Color::White)] {
                for (handicap, br, wr) in [(0, 0, 0), (255, MAX_RANK, UNKNOWN_RANK), (9, 30, 47)] {
                    for (komi, rules) in [(0, 0), (max(kb), max(rb)), (max(kb) / 2, 1.min(max(rb)))]
                    {
                        let f = Facts {
                            winner,
                            handicap,
                            black_rank: br,
                            white_rank: wr,
                            komi,
                            rules,
                        };
                        let v = layout.encode(&f);
                        assert!(layout.bits() == 64 || v >> layout.bits() == 0);
                        assert_eq!(layout.decode(v), Some(f), "{layout:?}");
                    }
                }
            }
        }
        assert!(!FactsLayout {
            komi_bits: 32,
            rules_bits: 11
        }
        .is_valid());
        // Invalid codes are refused.
        let l = FactsLayout {
            komi_bits: 4,
            rules_bits: 4,
        };
        assert_eq!(l.decode(3), None);
        assert_eq!(l.decode(48 << 10), None);
        assert_eq!(l.decode(62 << 16), None);
        assert!(l.decode(63 << 16).is_some());
    }
}
