//! Game records for the replay board: a stored game or a pasted one, replayed with the
//! core's board as recorded (each move's captures), and a stored game as SGF.

use kifudex_core::board::Board;
use kifudex_core::index::{Game, Index};
use kifudex_core::{Point, Rules, Size, Stone};

use super::answer::{InfoEntry, PlayedEntry, RecordAnswer, SetupEntry};
use super::ExploreError;
use crate::sgf::{self, Event, GameInfo};

/// The game-information properties as SGF names them (only those given).
fn info_entry(size: Size, info: &GameInfo) -> InfoEntry {
    InfoEntry {
        black: info.black.clone(),
        black_rank: info.black_rank.clone(),
        white: info.white.clone(),
        white_rank: info.white_rank.clone(),
        date: info.date.clone(),
        event: info.event.clone(),
        round: info.round.clone(),
        place: info.place.clone(),
        result: info.result.as_ref().map(|r| r.raw.clone()),
        komi: info.komi.map(sgf::write::komi_text),
        handicap: info.handicap.map(|h| h.to_string()),
        rules: info.rules.clone(),
        game_name: info.game_name.clone(),
        size: if size.is_square() {
            size.width().to_string()
        } else {
            format!("{}:{}", size.width(), size.height())
        },
    }
}

fn setup_entry(stones: &[(Point, Stone)]) -> SetupEntry {
    let mut s = SetupEntry::default();
    for &(p, st) in stones {
        match st {
            Stone::Black => s.black.push(p),
            Stone::White => s.white.push(p),
            Stone::Empty => s.empty.push(p),
        }
    }
    s
}

/// A record for the replay board: `info`, `setup` (before the first move), `moves` (each
/// with the stones it captured, replayed with the core's board as recorded, and the setup
/// of its node, if any, under `setup`), `final_setup` (setup after the last move, if any).
/// The main line ends at a move the replay cannot make (off the board, occupied, not a
/// point); `truncated` then says at which move.
pub fn record(size: Size, info: &GameInfo, events: &[Event]) -> RecordAnswer {
    let mut board = Board::with_rules(size, Rules::RECORD);
    let mut setup: Vec<(Point, Stone)> = Vec::new();
    let mut root_setup: Option<SetupEntry> = None;
    let mut moves: Vec<PlayedEntry> = Vec::with_capacity(events.len());
    let mut truncated = None;
    for ev in events {
        match *ev {
            Event::Setup { point, stone } => {
                if board.set_stone(point, stone).is_ok() {
                    setup.push((point, stone));
                }
            }
            Event::Play { color, mv } => {
                let Ok(captures) = board.play(color, mv) else {
                    truncated = Some(moves.len() + 1);
                    break;
                };
                let node_setup = if root_setup.is_none() {
                    root_setup = Some(setup_entry(&setup));
                    None
                } else {
                    (!setup.is_empty()).then(|| setup_entry(&setup))
                };
                setup.clear();
                moves.push(PlayedEntry {
                    color,
                    mv,
                    captures: captures.points.iter().collect(),
                    setup: node_setup,
                });
            }
        }
    }
    let (root, last) = match root_setup {
        Some(root) => (root, (!setup.is_empty()).then(|| setup_entry(&setup))),
        None => (setup_entry(&setup), None),
    };
    RecordAnswer {
        id: None,
        width: size.width(),
        height: size.height(),
        info: info_entry(size, info),
        setup: root,
        moves,
        final_setup: last,
        truncated,
        file: None,
        member: None,
        tree: None,
        games_in_text: None,
    }
}

/// A stored game, its information as a record's and its events, or the refusal for an
/// unknown id.
fn stored<'a>(
    index: &Index<'a>,
    id: u32,
) -> Result<(Game<'a>, GameInfo, Vec<Event>), ExploreError> {
    let g = index.game(id).ok_or_else(|| ExploreError::NoGame {
        id,
        last: index.game_count().saturating_sub(1),
    })?;
    let info = GameInfo::from_stored(&g);
    Ok((g, info, index.events(id).collect()))
}

/// A stored game for the replay board, with its id and where it came from.
pub fn stored_record(index: &Index<'_>, id: u32) -> Result<RecordAnswer, ExploreError> {
    let (g, info, events) = stored(index, id)?;
    Ok(RecordAnswer {
        id: Some(id),
        file: Some(g.path.to_owned()),
        member: Some(g.member.to_owned()),
        tree: Some(g.tree),
        ..record(g.size, &info, &events)
    })
}

/// A stored game as SGF (`sgf::write`, the reader's inverse).
pub fn stored_sgf(index: &Index<'_>, id: u32) -> Result<String, ExploreError> {
    let (g, info, events) = stored(index, id)?;
    Ok(sgf::write_game(g.size, &info, &events))
}

/// The first game of a pasted record, read with the project's SGF reader, as [`record`]
/// shows it (`games_in_text` counts its game trees).
pub fn pasted_record(text: &str) -> Result<RecordAnswer, ExploreError> {
    let parsed = sgf::parse_file(text.as_bytes(), "pasted", None);
    let Some(g) = parsed.games.first() else {
        let why = parsed
            .rejected
            .first()
            .map_or("no game tree".to_owned(), |r| {
                format!("byte {}: {}", r.byte_offset, r.kind)
            });
        return Err(ExploreError::NoGameInText(why));
    };
    let answer = record(g.size, &g.info, &g.events);
    Ok(RecordAnswer {
        games_in_text: Some(parsed.games.len()),
        // The reader ended the main line at a move off the board or no move at all.
        truncated: answer.truncated.or(g.end.map(|_| answer.moves.len() + 1)),
        ..answer
    })
}
