//! Replaying one game record's main line with captures, as the index stores it: the
//! moves as far as they are legal, the setup stones with the move they precede, and the
//! canonical key of every indexed position.

use kifudex_core::board::{Board, Rules};
use kifudex_core::pattern::stored::summary::{removal_record, PackedSummary, Summarizer};
use kifudex_core::stored::{decode_move, encode_move, SetupRecord, StoredGame, MAX_GAME_MOVES};
use kifudex_core::{Color, Event, Move, Size};

use crate::indexing::occurrence::{check_value, NextCode, Occ};
use crate::sgf::{GameRecord, LineEnd};

/// One game after replay.
#[derive(Clone, Debug)]
pub struct ReplayedGame {
    /// The record (its `events` emptied after the replay to save memory).
    pub record: GameRecord,
    /// The date as `yyyymmdd` (0 when no year is known).
    pub date_key: u32,
    /// The moves as far as they are legal, as the index's move records
    /// ([`kifudex_core::stored::encode_move`]).
    pub moves: Vec<u16>,
    /// The setup stones, as the index stores them.
    pub setup: Vec<SetupRecord>,
    /// Where the game's moves start in the provisional numbering of its build worker (its
    /// occurrences carry provisional global move numbers until the games are ordered).
    pub provisional_start: u32,
    /// Number of indexed moves (occurrences).
    pub indexed: u32,
    /// Why the main line ended early (a short stable name: `occupied`, `off-board`,
    /// `invalid-coordinate`, `too-many-moves`...) and the number of the move that ended it.
    pub truncated: Option<(&'static str, usize)>,
    /// The order of reading: (input number, source number within the input); with the
    /// tree number, what decides which of two equal games is a duplicate.
    pub read_rank: (u32, u32),
    /// What pattern search keeps of the game ([`kifudex_core::pattern::stored::summary`]), noted
    /// during this replay: its block bits and corner records...
    pub pattern: PackedSummary,
    /// ...and the stones its moves removed ([`removal_record`]s, in order).
    pub removals: Vec<u32>,
}

impl ReplayedGame {
    /// About how many bytes of memory the game holds (for the build's budget).
    pub fn heap_bytes(&self) -> u64 {
        let info = &self.record.info;
        let texts = [
            &info.black,
            &info.white,
            &info.black_rank,
            &info.white_rank,
            &info.date,
            &info.event,
            &info.round,
            &info.place,
            &info.rules,
            &info.game_name,
            &self.record.source.member,
        ];
        let text_bytes: usize = texts
            .iter()
            .filter_map(|t| t.as_ref())
            .map(|t| t.capacity() + 16)
            .sum::<usize>()
            + self.record.source.path.capacity()
            + info.result.as_ref().map_or(0, |r| r.raw.capacity() + 16);
        (std::mem::size_of::<Self>()
            + self.moves.capacity() * 2
            + self.setup.capacity() * std::mem::size_of::<SetupRecord>()
            + self.removals.capacity() * 4
            + text_bytes) as u64
    }
}

impl StoredGame for ReplayedGame {
    fn size(&self) -> Size {
        self.record.size
    }

    fn move_count(&self) -> u32 {
        self.moves.len() as u32
    }

    fn move_at(&self, i: u32) -> Option<(Color, Move)> {
        decode_move(*self.moves.get(i as usize)? as u64)
    }

    fn setup_count(&self) -> u32 {
        self.setup.len() as u32
    }

    fn setup_at(&self, i: u32) -> Option<SetupRecord> {
        self.setup.get(i as usize).copied()
    }
}

/// Replays `record`'s main line, keying the positions before its first `max_moves` moves:
/// each becomes an occurrence appended to `occs`, numbered from `base` (the provisional
/// global number of the game's first move).
pub fn replay(
    mut record: GameRecord,
    max_moves: u32,
    occs: &mut Vec<Occ>,
    base: u32,
) -> ReplayedGame {
    let size = record.size;
    let winner = record.info.result.as_ref().and_then(|r| r.winner);
    let mut board = Board::with_rules(size, Rules::RECORD);
    let mut moves: Vec<u16> = Vec::with_capacity(record.events.len());
    let mut setup = Vec::new();
    let mut indexed = 0u32;
    let mut truncated = None;
    let mut notes = Summarizer::new(size, winner);
    let mut removals = Vec::new();
    for ev in &record.events {
        match *ev {
            Event::Setup { point, stone } => {
                let old = board.get(point);
                if board.set_stone(point, stone).is_ok() {
                    notes.setup(point, old, stone);
                    setup.push(SetupRecord {
                        before: moves.len() as u16,
                        point,
                        stone,
                    });
                }
            }
            Event::Play { color, mv } => {
                let n = moves.len() + 1;
                if moves.len() >= MAX_GAME_MOVES {
                    truncated = Some(("too-many-moves", n));
                    break;
                }
                let (key, orient) = board.keys().canonical(size);
                let check = check_value(board.keys(), size);
                match board.play(color, mv) {
                    Ok(caps) => notes.play(color, mv, &caps, |n, p| {
                        removals.push(removal_record(n, p) as u32)
                    }),
                    Err(e) => {
                        truncated = Some((e.name(), n));
                        break;
                    }
                }
                let code = encode_move(color, mv) as u16;
                if (moves.len() as u64) < max_moves as u64 {
                    let ply = base.saturating_add(moves.len() as u32);
                    let next = NextCode::new(code, orient, size, winner);
                    occs.push(Occ::new(key, ply, orient, check, next));
                    indexed += 1;
                }
                moves.push(code);
            }
        }
    }
    if let (None, Some(end)) = (&truncated, record.end) {
        let reason = if moves.len() >= MAX_GAME_MOVES {
            "too-many-moves"
        } else {
            match end {
                LineEnd::OffBoard(_) => "off-board",
                LineEnd::Invalid => "invalid-coordinate",
            }
        };
        truncated = Some((reason, moves.len() + 1));
    }
    let info = &record.info;
    let date_key = date_key(info.year, info.date.as_deref());
    record.events = Vec::new();
    record.warnings = Vec::new();
    ReplayedGame {
        record,
        date_key,
        moves,
        setup,
        provisional_start: base,
        indexed,
        truncated,
        read_rank: (0, 0),
        pattern: PackedSummary::from(&notes.finish()),
        removals,
    }
}

/// The games that have no move at all, one per line (for a build that found nothing to
/// index).
pub fn without_moves(games: &[ReplayedGame]) -> String {
    games
        .iter()
        .filter(|g| g.moves.is_empty() && g.truncated.is_none())
        .map(|g| {
            let s = &g.record.source;
            let member = s.member.as_ref().map_or(String::new(), |m| format!(":{m}"));
            format!(
                "\n  {}{member}: byte {}: game {}: no move",
                s.path,
                g.record.byte_offset,
                s.tree_index + 1
            )
        })
        .collect()
}

/// `yyyymmdd` from a year and a date as written (`2016-03-09`, `2016-03`, `2016`); month
/// and day are 0 when not given.
pub fn date_key(year: Option<u16>, date: Option<&str>) -> u32 {
    let Some(y) = year else { return 0 };
    let mut key = y as u32 * 10_000;
    if let Some(d) = date {
        let ys = y.to_string();
        if let Some(pos) = d.find(&ys) {
            let rest: Vec<&str> = d[pos + ys.len()..]
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty())
                .take(2)
                .collect();
            let num = |i: usize| {
                rest.get(i).and_then(|s| {
                    if s.len() <= 2 {
                        s.parse::<u32>().ok()
                    } else {
                        None
                    }
                })
            };
            if let Some(m) = num(0).filter(|m| (1..=12).contains(m)) {
                key += m * 100;
                if let Some(dd) = num(1).filter(|d| (1..=31).contains(d)) {
                    key += dd;
                }
            }
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date_key(Some(2016), Some("2016-03-09")), 20160309);
        assert_eq!(date_key(Some(2016), Some("2016-03")), 20160300);
        assert_eq!(date_key(Some(2016), Some("2016")), 20160000);
        assert_eq!(date_key(Some(2017), Some("2017年5月23日")), 20170523);
        assert_eq!(date_key(None, Some("unknown")), 0);
        assert_eq!(date_key(Some(1999), Some("1999-13-40")), 19990000);
    }
}
