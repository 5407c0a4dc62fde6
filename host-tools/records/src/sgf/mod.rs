//! Reading SGF game collections into [`GameRecord`]s.
//!
//! [`parse_file`] takes the bytes of one file (possibly holding several game trees) and returns
//! every game tree of it as a [`GameRecord`] (or a rejection, a [`FileError`]). For each game only
//! what the index needs is kept: where it came from, the board size, a handful of decoded
//! game-info properties and the main line (first child at every node) as a list of setup and move
//! [`Event`]s (the core's), up to a move that cannot be played anywhere ([`LineEnd`]). Everything that was repaired on the way is reported as a [`Warning`] with a byte
//! offset; nothing ever panics and a broken tree never stops the file's other trees.
//!
//! The tokenizer (`lexer`) is hand-written: it is lenient (junk before and between trees, a
//! missing opening `(`, truncation, FF\[1\] long property names, NUL bytes...) and fast (it walks the
//! bytes once, never recurses, and allocates nothing per node or property). Text is decoded
//! (`text`) only for the few game-info properties kept, in the tree's charset (`CA[]`, else
//! UTF-8 when valid, else a detected charset).
//!
//! The records online servers write in formats of their own are read into the same
//! [`GameRecord`]s, one game a file: Tygem's `.gib` (`gib`), WBaduk's `.ngf` (`ngf`),
//! PandaNet's `.ugf`/`.ugi` (`ugf`), on what they share (`lines`: lines with their
//! offsets, the file's charset, handicap placements). [`parse_record`] picks the reader by
//! the file's name ([`Format`]).

mod gib;
mod info;
mod lexer;
mod lines;
mod ngf;
mod text;
mod ugf;
pub mod write;

pub use kifudex_core::Event;
use kifudex_core::{Color, Point, Size};

pub use info::{parse_komi, parse_result, parse_year};
pub use write::write_game;

/// Where a game came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SourceRef {
    /// Display path of the file (the archive's path for archive members).
    pub path: String,
    /// The member's name inside an archive, `None` for a plain file.
    pub member: Option<String>,
    /// Index of the game tree in the file, 0-based, counting every tree found (also rejected ones).
    pub tree_index: usize,
}

/// How a game ended, as far as `RE[]` tells (the index stores the same values).
pub use kifudex_core::outcome::Margin;

/// The decoded `RE[]` property.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The decoded text of `RE[]`.
    pub raw: String,
    /// The winner; `None` for draws, void games and results not understood.
    pub winner: Option<Color>,
    /// The margin or the way the game ended.
    pub margin: Margin,
}

/// The game-info properties kept for a game (decoded text, trimmed; `None` when absent or empty).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameInfo {
    /// `PB`
    pub black: Option<String>,
    /// `PW`
    pub white: Option<String>,
    /// `BR`
    pub black_rank: Option<String>,
    /// `WR`
    pub white_rank: Option<String>,
    /// `DT`, as written.
    pub date: Option<String>,
    /// The first plausible year (a run of exactly 4 digits within 1000..=2999) in `DT`.
    pub year: Option<u16>,
    /// `EV`
    pub event: Option<String>,
    /// `RO`
    pub round: Option<String>,
    /// `PC`
    pub place: Option<String>,
    /// `RE`, parsed.
    pub result: Option<GameResult>,
    /// `KM` in **hundredths** of a point (`KM[6.5]` is 650, `KM[3.75]` is 375).
    ///
    /// Fox (foxwq) writes komi multiplied by 100 (`KM[650]` for 6.5, `KM[375]` for 3.75). Heuristic:
    /// a komi written as an integer (no decimal point) whose absolute value is at least 100 is taken
    /// as already in hundredths; real komi never reach 100 points.
    pub komi: Option<i32>,
    /// `HA`
    pub handicap: Option<u16>,
    /// `RU`
    pub rules: Option<String>,
    /// `GN`
    pub game_name: Option<String>,
}

impl GameInfo {
    /// The game information an index stores for a game (its texts, empty ones absent; the
    /// year read from the date as written).
    pub fn from_stored(g: &kifudex_core::index::Game<'_>) -> GameInfo {
        let text = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        GameInfo {
            black: text(g.black),
            white: text(g.white),
            black_rank: text(g.black_rank),
            white_rank: text(g.white_rank),
            date: text(g.date),
            year: parse_year(g.date),
            event: text(g.event),
            round: text(g.round),
            place: text(g.place),
            result: text(g.result).map(|raw| GameResult {
                raw,
                winner: g.winner,
                margin: g.margin,
            }),
            komi: g.komi,
            handicap: (g.handicap > 0).then_some(g.handicap as u16),
            rules: text(g.rules),
            game_name: text(g.name),
        }
    }
}

/// Why a record's main line ends before its last node: a move that no position can take
/// (a move onto an occupied point ends it too, but only the replay can tell that).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LineEnd {
    /// A well-formed coordinate that lies off this board (`B[rs]` on 9x9).
    OffBoard(Point),
    /// A value that is no coordinate at all (`B[90]`, `B[c c]`).
    Invalid,
}

/// What was repaired or found odd while reading a game (or a file).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WarningKind {
    /// Text (or a BOM, NULs, ...) before the game tree.
    JunkBeforeTree,
    /// Text after the last game tree.
    TrailingJunk,
    /// The tree starts with `;` instead of `(`.
    MissingOpenParen,
    /// The tree's first node has no `;` (`(CA[UTF-8]...`).
    MissingSemicolon,
    /// The file ends before the tree is closed; what was read is kept.
    UnclosedTree,
    /// The file ends inside a property value; the property is dropped.
    UnclosedValue,
    /// Bytes inside a node that are not properties (skipped).
    JunkInNode,
    /// A property identifier without uppercase letters (skipped with its values).
    BadPropertyIdent,
    /// A property identifier without a value.
    PropertyWithoutValue,
    /// A kept game-info property given twice; the first is kept.
    DuplicateProperty,
    /// More than one move in a node (all are kept, in order).
    SeveralMovesInNode,
    /// A setup point that is not a coordinate or lies off the board (dropped).
    BadSetupPoint,
    /// A move off the board (the main line ends there: [`LineEnd::OffBoard`]).
    OffBoardMove,
    /// A move value that is no coordinate (the main line ends there: [`LineEnd::Invalid`]).
    InvalidMove,
    /// A move written in human coordinates (`R16`) or as `pass`, converted.
    HumanCoordinate,
    /// A komi that could not be read.
    BadKomi,
    /// A handicap that could not be read.
    BadHandicap,
    /// The file was UTF-16 and was transcoded to UTF-8 (byte offsets refer to the transcoded text).
    Utf16Transcoded,
    /// `CA[]` names no known charset; detection was used.
    UnknownCharset,
    /// No usable `CA[]`, text not valid UTF-8, but mostly well-formed UTF-8 (bytes replaced by `?`):
    /// decoded as UTF-8 with replacement characters.
    BrokenUtf8,
    /// No usable `CA[]` and text not UTF-8: the charset was guessed (chardetng).
    CharsetGuessed,
    /// `CA[]` names a legacy charset but the text is valid UTF-8: read as UTF-8.
    CharsetMismatch,
    /// Nodes after a main-line node's variations (`(;A(;B)(;C);D)`, not SGF): the main line
    /// is `A B`; `D` and what follows it are skipped.
    NodesAfterVariations,
}

impl WarningKind {
    /// A short stable name (for counting and reports).
    pub fn name(self) -> &'static str {
        match self {
            WarningKind::JunkBeforeTree => "junk-before-tree",
            WarningKind::TrailingJunk => "trailing-junk",
            WarningKind::MissingOpenParen => "missing-open-paren",
            WarningKind::MissingSemicolon => "missing-semicolon",
            WarningKind::UnclosedTree => "unclosed-tree",
            WarningKind::UnclosedValue => "unclosed-value",
            WarningKind::JunkInNode => "junk-in-node",
            WarningKind::BadPropertyIdent => "bad-property-ident",
            WarningKind::PropertyWithoutValue => "property-without-value",
            WarningKind::DuplicateProperty => "duplicate-property",
            WarningKind::SeveralMovesInNode => "several-moves-in-node",
            WarningKind::BadSetupPoint => "bad-setup-point",
            WarningKind::OffBoardMove => "off-board-move",
            WarningKind::InvalidMove => "invalid-move",
            WarningKind::HumanCoordinate => "human-coordinate",
            WarningKind::BadKomi => "bad-komi",
            WarningKind::BadHandicap => "bad-handicap",
            WarningKind::Utf16Transcoded => "utf16-transcoded",
            WarningKind::UnknownCharset => "unknown-charset",
            WarningKind::BrokenUtf8 => "broken-utf8",
            WarningKind::CharsetGuessed => "charset-guessed",
            WarningKind::CharsetMismatch => "charset-mismatch",
            WarningKind::NodesAfterVariations => "nodes-after-variations",
        }
    }
}

impl std::fmt::Display for WarningKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A repair or oddity, at a byte offset of the file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Warning {
    /// Byte offset in the file (in the transcoded text for UTF-16 files).
    pub byte_offset: usize,
    /// What happened.
    pub kind: WarningKind,
}

/// One game: a game tree's main line with its game info.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Where it came from.
    pub source: SourceRef,
    /// Byte offset of the tree (its `(`, or `;` when that is missing) in the file.
    pub byte_offset: usize,
    /// Board size (`SZ[]`, 19x19 when absent).
    pub size: Size,
    /// The charset the text was decoded with (an `encoding_rs` name, e.g. `"UTF-8"`, `"GBK"`).
    pub encoding: &'static str,
    /// Game-info properties.
    pub info: GameInfo,
    /// The main line: setup and moves, in order, up to `end`.
    pub events: Vec<Event>,
    /// The move that ends the main line before its last node, if any (the events stop
    /// before it).
    pub end: Option<LineEnd>,
    /// What was repaired while reading this game.
    pub warnings: Vec<Warning>,
}

impl GameRecord {
    /// Number of moves of the main line (passes included), up to its `end`.
    pub fn move_count(&self) -> usize {
        self.events.iter().filter(|e| e.is_play()).count()
    }
}

/// Why a file, a game or an input was not read.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum ErrorKind {
    /// No game tree in the file (empty, prose, NUL bytes...).
    #[error("no SGF game tree found")]
    NoGameTree,
    /// A game tree with no node.
    #[error("empty game tree")]
    EmptyTree,
    /// `GM[]` other than 1.
    #[error("not a Go game (GM[{0}])")]
    NotGo(String),
    /// `SZ[]` outside 1..=19 or unreadable.
    #[error("unsupported board size SZ[{0}]")]
    BadSize(String),
    /// A game tree (or a line-based record) past one of the [`Limits`]: not read, nor is
    /// the rest of its file.
    #[error("{0}")]
    Limit(Exceeded),
    /// A record of a line-based format (`.gib`, `.ngf`, `.ugf`) that cannot be read as a
    /// game: the format, the line (from 1; 0 for an empty file) and why.
    #[error("not a readable {format} record: line {line}: {reason}")]
    BadRecord {
        /// The format's name (`Tygem .gib`, ...).
        format: &'static str,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

impl ErrorKind {
    /// A short stable name (for counting and reports).
    pub fn name(&self) -> &'static str {
        match self {
            ErrorKind::NoGameTree => "no-game-tree",
            ErrorKind::EmptyTree => "empty-tree",
            ErrorKind::NotGo(_) => "not-go",
            ErrorKind::BadSize(_) => "bad-size",
            ErrorKind::BadRecord { .. } => "bad-record",
            ErrorKind::Limit(_) => "limit",
        }
    }
}

/// What a record may hold before it is refused: each bound keeps the memory a stranger's
/// record makes the reader take in proportion to the bound, not to what the record claims
/// or repeats (a compressed point list `AB[aa:ss]` is 361 setup stones in 9 bytes).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Nodes of a game tree's main line (lines of a `.gib`, `.ngf` or `.ugf` record).
    pub nodes: u64,
    /// Nesting of a game tree's variations (`(` inside `(`).
    pub depth: u64,
    /// Bytes of one property value.
    pub value_bytes: u64,
    /// Moves and setup stones of a game's main line.
    pub events: u64,
}

impl Limits {
    /// The defaults: 1,000,000 main-line nodes, a nesting depth of 1,000,000, 16 MiB a
    /// property value, 1,000,000 moves and setup stones a main line. (A game holds at most
    /// 65,535 moves in an index; the nodes and depth are far above any real record's, and a
    /// game tree at the limits reads in well under a second.)
    pub const DEFAULT: Limits = Limits {
        nodes: 1_000_000,
        depth: 1_000_000,
        value_bytes: 16 << 20,
        events: 1_000_000,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// One of the limits, passed: what it counts, its value and the command line's flag that
/// raises it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Exceeded {
    /// What the limit counts, in words (`bytes in one record`).
    pub what: &'static str,
    /// The limit.
    pub limit: u64,
    /// The flag of `kifudex build` that sets it (`--max-record-bytes`).
    pub flag: &'static str,
}

impl Exceeded {
    /// Main-line nodes (or lines) past [`Limits::nodes`].
    pub fn nodes(l: &Limits) -> Exceeded {
        Exceeded {
            what: "nodes in a game's main line",
            limit: l.nodes,
            flag: "--max-tree-nodes",
        }
    }

    /// Variations nested past [`Limits::depth`].
    pub fn depth(l: &Limits) -> Exceeded {
        Exceeded {
            what: "variations nested in a game tree",
            limit: l.depth,
            flag: "--max-tree-depth",
        }
    }

    /// A property value past [`Limits::value_bytes`].
    pub fn value_bytes(l: &Limits) -> Exceeded {
        Exceeded {
            what: "bytes in a property value",
            limit: l.value_bytes,
            flag: "--max-value-bytes",
        }
    }

    /// Moves and setup stones past [`Limits::events`].
    pub fn events(l: &Limits) -> Exceeded {
        Exceeded {
            what: "moves and setup stones in a game's main line",
            limit: l.events,
            flag: "--max-game-events",
        }
    }
}

impl std::fmt::Display for Exceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "more than {} {} (the limit; {} raises it)",
            self.limit, self.what, self.flag
        )
    }
}

/// A rejected file or game tree: `path[:member]: byte N: message`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileError {
    /// Display path of the file.
    pub path: String,
    /// Archive member, if any.
    pub member: Option<String>,
    /// The tree's index in the file, `None` for errors about the whole file.
    pub tree_index: Option<usize>,
    /// Where in the file.
    pub byte_offset: usize,
    /// What went wrong.
    pub kind: ErrorKind,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.path)?;
        if let Some(m) = &self.member {
            write!(f, ":{m}")?;
        }
        write!(f, ": byte {}: {}", self.byte_offset, self.kind)
    }
}

impl std::error::Error for FileError {}

/// Everything read from one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedFile {
    /// The games, in file order.
    pub games: Vec<GameRecord>,
    /// Rejected trees (and the whole file when it holds no tree), in file order.
    pub rejected: Vec<FileError>,
    /// Warnings about the file rather than one game (trailing junk, UTF-16).
    pub warnings: Vec<Warning>,
}

/// The formats of game records.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// SGF (`.sgf`): any number of game trees a file.
    Sgf,
    /// Tygem's `.gib`: one game.
    Gib,
    /// WBaduk's (Cyberoro's) `.ngf`: one game.
    Ngf,
    /// PandaNet's `.ugf` (`.ugi` with a review): one game.
    Ugf,
}

impl Format {
    /// The format a file's name says (its extension, in any case), `None` for another.
    pub fn of_name(name: &str) -> Option<Format> {
        let l = name.to_ascii_lowercase();
        let ext = l.rsplit_once('.').map_or("", |(_, e)| e);
        match ext {
            "sgf" => Some(Format::Sgf),
            "gib" => Some(Format::Gib),
            "ngf" => Some(Format::Ngf),
            "ugf" | "ugi" => Some(Format::Ugf),
            _ => None,
        }
    }
}

/// Reads one record file in the format its name says ([`Format::of_name`] of the archive
/// member's name, else of `path`; SGF when neither says). Never panics, whatever the bytes.
pub fn parse_record(bytes: &[u8], path: &str, member: Option<&str>) -> ParsedFile {
    parse_record_within(bytes, path, member, &Limits::DEFAULT)
}

/// [`parse_record`] within `limits`: a game past one is rejected
/// ([`ErrorKind::Limit`]), and the rest of its file is not read.
pub fn parse_record_within(
    bytes: &[u8],
    path: &str,
    member: Option<&str>,
    limits: &Limits,
) -> ParsedFile {
    let format = Format::of_name(member.unwrap_or(path));
    if matches!(format, Some(Format::Gib | Format::Ngf | Format::Ugf)) {
        // The line-based readers list a file's lines first: their count is bounded here.
        if let Some(place) = memchr::memchr_iter(b'\n', bytes)
            .nth(usize::try_from(limits.nodes).unwrap_or(usize::MAX))
        {
            let mut out = ParsedFile::default();
            out.rejected.push(FileError {
                path: path.to_owned(),
                member: member.map(str::to_owned),
                tree_index: Some(0),
                byte_offset: place,
                kind: ErrorKind::Limit(Exceeded::nodes(limits)),
            });
            return out;
        }
    }
    match format {
        Some(Format::Gib) => gib::parse(bytes, path, member),
        Some(Format::Ngf) => ngf::parse(bytes, path, member),
        Some(Format::Ugf) => ugf::parse(bytes, path, member),
        Some(Format::Sgf) | None => parse_file_within(bytes, path, member, limits),
    }
}

/// Reads every game tree of one file. `path`/`member` only label the results.
///
/// Never panics, whatever the bytes.
pub fn parse_file(bytes: &[u8], path: &str, member: Option<&str>) -> ParsedFile {
    parse_file_within(bytes, path, member, &Limits::DEFAULT)
}

/// [`parse_file`] within `limits`: a game tree past one is rejected
/// ([`ErrorKind::Limit`]), and the rest of the file is not read.
pub fn parse_file_within(
    bytes: &[u8],
    path: &str,
    member: Option<&str>,
    limits: &Limits,
) -> ParsedFile {
    let mut out = ParsedFile::default();
    let mut sink = lexer::Sink {
        path,
        member,
        limits,
        out: &mut out,
    };
    match text::utf16_kind(bytes) {
        Some(enc) => {
            let (s, _, _) = enc.decode(bytes);
            let utf8 = s.into_owned();
            sink.out.warnings.push(Warning {
                byte_offset: 0,
                kind: WarningKind::Utf16Transcoded,
            });
            lexer::parse(utf8.as_bytes(), true, &mut sink);
        }
        None => lexer::parse(bytes, false, &mut sink),
    }
    out
}
