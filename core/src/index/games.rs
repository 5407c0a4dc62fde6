//! The index's games, the owner of their sections ([`GameSections`]: `games`,
//! `game_moves`, `game_setup`, `string_index`, `strings`, `moves`, `setup`), which it opens
//! and validates: their information ([`Game`], texts from the string pool) and their stored
//! main lines ([`IndexGame`], a [`StoredGame`]: events and replays).

use super::{GameLayout, Index, IndexHeader};
use crate::board::{Board, Hashed, Tracking};
use crate::event::Event;
use crate::format::{FormatError, Packed, Rows};
use crate::outcome::Margin;
use crate::point::{Color, Move, Size};
use crate::stored::{decode_move, Events, GameReplay, SetupRecord, StoredGame, MOVE_BITS};

/// One game's information, borrowed from the index.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Game<'a> {
    /// The game's id (its row; 0 is the newest game).
    pub id: u32,
    /// Black's name.
    pub black: &'a str,
    /// White's name.
    pub white: &'a str,
    /// Black's rank.
    pub black_rank: &'a str,
    /// White's rank.
    pub white_rank: &'a str,
    /// Event.
    pub event: &'a str,
    /// Round.
    pub round: &'a str,
    /// Place.
    pub place: &'a str,
    /// The date as written in the record.
    pub date: &'a str,
    /// The date as `yyyymmdd` (0 when no year is known).
    pub date_key: u32,
    /// The result as written in the record.
    pub result: &'a str,
    /// The winner, if the record names one.
    pub winner: Option<Color>,
    /// The margin.
    pub margin: Margin,
    /// Komi in hundredths of a point.
    pub komi: Option<i32>,
    /// Handicap stones.
    pub handicap: u8,
    /// Rules (RU).
    pub rules: &'a str,
    /// Game name (GN).
    pub name: &'a str,
    /// Board size.
    pub size: Size,
    /// The record's file.
    pub path: &'a str,
    /// The member of an archive, or empty.
    pub member: &'a str,
    /// The game tree's index within its file.
    pub tree: u64,
    /// Number of moves stored.
    pub move_count: u32,
}

impl Game<'_> {
    /// The year, or `None` when the date is unknown.
    pub fn year(&self) -> Option<u16> {
        let y = self.date_key / 10_000;
        if y == 0 {
            None
        } else {
            Some(y as u16)
        }
    }
}

/// A game's stored main line in an index: its moves and setup stones, read in place
/// ([`Index::stored_game`]). Copy it freely: it is a few words.
#[derive(Copy, Clone, Debug)]
pub struct IndexGame<'a> {
    size: Size,
    moves: Packed<'a>,
    move_start: usize,
    move_count: u32,
    setup: Packed<'a>,
    setup_start: usize,
    setup_count: u32,
}

impl<'a> IndexGame<'a> {
    /// The game's move records as they lie in the index (the `moves` section and the
    /// game's range in it), for readers that decode them in bulk (pattern search).
    #[inline]
    pub fn move_records(&self) -> (Packed<'a>, core::ops::Range<usize>) {
        let end = self.move_start.saturating_add(self.move_count as usize);
        (self.moves, self.move_start..end)
    }
}

impl StoredGame for IndexGame<'_> {
    #[inline]
    fn size(&self) -> Size {
        self.size
    }

    #[inline]
    fn move_count(&self) -> u32 {
        self.move_count
    }

    #[inline]
    fn move_at(&self, i: u32) -> Option<(Color, Move)> {
        if i >= self.move_count {
            return None;
        }
        decode_move(self.moves.get(self.move_start.checked_add(i as usize)?)?)
    }

    #[inline]
    fn setup_count(&self) -> u32 {
        self.setup_count
    }

    #[inline]
    fn setup_at(&self, i: u32) -> Option<SetupRecord> {
        if i >= self.setup_count {
            return None;
        }
        SetupRecord::decode(self.setup.get(self.setup_start.checked_add(i as usize)?)?)
    }
}

/// The games' sections of an index, their structure checked ([`GameSections::open`]).
#[derive(Copy, Clone, Debug)]
pub struct GameSections<'a> {
    layout: GameLayout,
    rows: Rows<'a>,
    game_moves: Packed<'a>,
    game_setup: Packed<'a>,
    string_index: Packed<'a>,
    strings: &'a [u8],
    moves: Packed<'a>,
    setup: Packed<'a>,
}

impl<'a> GameSections<'a> {
    /// Opens the games' sections of `body` as `h` places them, checking in constant time
    /// what every read relies on: the row layout, the record widths and counts, each
    /// section's bounds, and the ends of the offset columns.
    pub fn open(h: &IndexHeader, body: &'a [u8]) -> Result<GameSections<'a>, FormatError> {
        let layout = h.game_layout();
        if !layout.is_valid()
            || h.games > u32::MAX as u64
            || h.moves.width_bits != MOVE_BITS
            || h.setup.width_bits != SetupRecord::BITS
            || h.strings.width_bits != 8
            || h.games_section.count != h.games
            || h.game_moves.count != h.games + 1
            || h.game_setup.count != h.games + 1
            || h.string_index.count < 1
        {
            return Err(FormatError::BadHeader);
        }
        let g = GameSections {
            layout,
            rows: Rows::new(&h.games_section, body, layout.bytes())?,
            game_moves: h.game_moves.packed(body)?,
            game_setup: h.game_setup.packed(body)?,
            string_index: h.string_index.packed(body)?,
            strings: h
                .strings
                .slice(body)?
                .get(..usize::try_from(h.strings.count).map_err(|_| FormatError::BadSection)?)
                .ok_or(FormatError::BadSection)?,
            moves: h.moves.packed(body)?,
            setup: h.setup.packed(body)?,
        };
        // The ends of the offset columns (one read each): the totals they announce.
        if !(g.game_moves.ends_are(g.moves.len() as u64)
            && g.game_setup.ends_are(g.setup.len() as u64)
            && g.string_index.ends_are(g.strings.len() as u64))
        {
            return Err(FormatError::BadRecord);
        }
        Ok(g)
    }

    /// Checks every record: the strings (offsets within the pool, valid UTF-8), every move
    /// and setup record, the games' move and setup starts (increasing), each game's size
    /// (one the header lists) and string ids, its setup stones on the board in move order.
    pub fn validate(&self, h: &IndexHeader) -> Result<(), FormatError> {
        let bad = Err(FormatError::BadRecord);
        if !self.string_index.is_offsets_of(self.strings.len() as u64) {
            return bad;
        }
        for i in 1..self.string_index.len() {
            let (a, b) = (self.string_index.at(i - 1), self.string_index.at(i));
            let s = self
                .strings
                .get(a as usize..b as usize)
                .ok_or(FormatError::BadRecord)?;
            if core::str::from_utf8(s).is_err() {
                return bad;
            }
        }
        if (0..self.moves.len()).any(|i| decode_move(self.moves.at(i)).is_none())
            || (0..self.setup.len()).any(|i| SetupRecord::decode(self.setup.at(i)).is_none())
        {
            return bad;
        }
        if !self.game_moves.is_offsets_of(self.moves.len() as u64)
            || !self.game_setup.is_offsets_of(self.setup.len() as u64)
        {
            return bad;
        }
        let n_str = self.string_index.len() as u64;
        for g in 0..self.rows.len() {
            let row = self
                .layout
                .decode(self.rows.row(g).ok_or(FormatError::BadRecord)?);
            let size = row.size().ok_or(FormatError::BadRecord)?;
            if !h.has_size(size) {
                return bad;
            }
            if row.strings.ids().iter().any(|&id| id + 1 >= n_str) {
                return bad;
            }
            let (ms, me) = self.moves_of(g as u32);
            let (ss, se) = (self.game_setup.at(g), self.game_setup.at(g + 1));
            let mut prev_before = 0;
            for i in ss..se {
                let s =
                    SetupRecord::decode(self.setup.at(i as usize)).ok_or(FormatError::BadRecord)?;
                let before = s.before as u64;
                if before < prev_before || before > me - ms || !size.contains(s.point) {
                    return bad;
                }
                prev_before = before;
            }
        }
        Ok(())
    }

    /// Number of games.
    pub fn len(&self) -> u32 {
        self.rows.len() as u32
    }

    /// Whether there is no game.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Number of moves of all games.
    pub fn move_total(&self) -> u64 {
        self.moves.len() as u64
    }

    #[inline(always)]
    fn string(&self, id: u64) -> &'a str {
        let Ok(id) = usize::try_from(id) else {
            return "";
        };
        let (a, b) = (
            self.string_index.at(id),
            self.string_index.at(id.saturating_add(1)),
        );
        self.strings
            .get(a as usize..b as usize)
            .and_then(|s| core::str::from_utf8(s).ok())
            .unwrap_or("")
    }

    /// Game `id`'s information.
    pub fn game(&self, id: u32) -> Option<Game<'a>> {
        let row = self.layout.decode(self.rows.row(id as usize)?);
        let s = &row.strings;
        let (move_start, move_end) = self.moves_of(id);
        Some(Game {
            id,
            black: self.string(s.black),
            white: self.string(s.white),
            black_rank: self.string(s.black_rank),
            white_rank: self.string(s.white_rank),
            event: self.string(s.event),
            round: self.string(s.round),
            place: self.string(s.place),
            date: self.string(s.date),
            result: self.string(s.result),
            path: self.string(s.path),
            member: self.string(s.member),
            date_key: row.date,
            winner: row.winner,
            margin: row.margin,
            komi: row.komi,
            handicap: row.handicap,
            rules: self.string(s.rules),
            name: self.string(s.name),
            size: row.size()?,
            tree: row.tree,
            move_count: (move_end - move_start).min(u32::MAX as u64) as u32,
        })
    }

    /// The range `[start, end)` of game `id`'s records in a column of starts (`game_moves`
    /// or `game_setup`), clamped to the `len` records it indexes (empty where the column is
    /// not increasing).
    #[inline]
    fn range_of(starts: &Packed<'_>, id: u32, len: usize) -> (u64, u64) {
        let len = len as u64;
        let end = starts.at(id as usize + 1).min(len);
        (starts.at(id as usize).min(end), end)
    }

    /// Game `id`'s moves: `[start, end)` in `moves` (the global numbers of its moves).
    #[inline]
    pub fn moves_of(&self, id: u32) -> (u64, u64) {
        GameSections::range_of(&self.game_moves, id, self.moves.len())
    }

    /// Game `id`'s stored main line: its events ([`StoredGame::events`]) and its replay
    /// ([`StoredGame::replay`]).
    #[inline]
    pub fn stored_game(&self, id: u32) -> Option<IndexGame<'a>> {
        let row = self.rows.row(id as usize)?;
        let (move_start, move_end) = self.moves_of(id);
        let (setup_start, setup_end) =
            GameSections::range_of(&self.game_setup, id, self.setup.len());
        Some(IndexGame {
            size: GameLayout::size_of(row)?,
            moves: self.moves,
            move_start: move_start as usize,
            move_count: (move_end - move_start).min(u32::MAX as u64) as u32,
            setup: self.setup,
            setup_start: setup_start as usize,
            setup_count: (setup_end - setup_start).min(u32::MAX as u64) as u32,
        })
    }

    /// The move record with global number `ply` (its index in `moves`), if there is one.
    #[inline]
    pub fn move_record(&self, ply: u64) -> Option<u64> {
        self.moves.get(usize::try_from(ply).ok()?)
    }

    /// The move with global number `ply` (a black pass for a record that holds no move).
    pub fn global_move(&self, ply: u64) -> (Color, Move) {
        decode_move(self.moves.at(ply as usize)).unwrap_or((Color::Black, Move::Pass))
    }

    /// [`GameSections::game_of_ply`] searched forward from game `from` (a game at or
    /// before the answer, such as the previous occurrence's of a position, whose
    /// occurrences come in game order): galloping, so a walk over a position's occurrences
    /// costs about one read per game instead of a binary search each. The same answer as
    /// `game_of_ply` where the starts do not decrease (any answer, no panic, where they do).
    #[inline]
    pub fn game_of_ply_from(&self, ply: u64, from: u32) -> u32 {
        let n = self.rows.len();
        let lo = from as usize;
        if lo >= n || self.game_moves.at(lo) > ply {
            return self.game_of_ply(ply);
        }
        // The first game after `lo` that starts past `ply`, bracketed by doubling steps.
        let (mut lo, mut step) = (lo, 1usize);
        let hi = loop {
            let probe = lo.saturating_add(step);
            if probe >= n {
                break n;
            }
            if self.game_moves.at(probe) > ply {
                break probe;
            }
            lo = probe;
            step = step.saturating_mul(2);
        };
        let g = self
            .game_moves
            .partition_point(lo, hi, |start| start <= ply)
            .saturating_sub(1);
        g as u32
    }

    /// The game holding global move number `ply`.
    #[inline]
    pub fn game_of_ply(&self, ply: u64) -> u32 {
        // Games are stored in move order: the last game starting at or before `ply` holds
        // it (a game without moves shares its start with the next game, which then comes
        // later in the order).
        let n = self.rows.len();
        let g = self
            .game_moves
            .partition_point(0, n, |start| start <= ply)
            .saturating_sub(1);
        g as u32
    }
}

impl<'a> Index<'a> {
    /// Game `id`'s information.
    #[inline]
    pub fn game(&self, id: u32) -> Option<Game<'a>> {
        self.games.game(id)
    }

    /// Game `id`'s stored main line: its events ([`StoredGame::events`]) and its replay
    /// ([`StoredGame::replay`]).
    #[inline]
    pub fn stored_game(&self, id: u32) -> Option<IndexGame<'a>> {
        self.games.stored_game(id)
    }

    /// Game `id`'s events: its setup stones and moves in order (none for an unknown id).
    pub fn events(&self, id: u32) -> impl Iterator<Item = Event> + 'a {
        self.stored_game(id).map(Events::new).into_iter().flatten()
    }

    /// Game `id` replayed from its first position, on a board that keeps what `T` tracks.
    pub fn replay<T: Tracking>(&self, id: u32) -> Option<GameReplay<IndexGame<'a>, T>> {
        self.stored_game(id).map(GameReplay::new)
    }

    /// The position of game `id` before its move number `move_number` (0-based), replayed
    /// from its setup with captures as recorded.
    pub fn position(&self, id: u32, move_number: u32) -> Option<Board> {
        let mut r = self.replay::<Hashed>(id)?;
        r.seek(move_number).then(|| r.into_board())
    }
}
