//! What a board plays by ([`Rules`], [`KoRule`]) and what a move gives back: the stones it
//! removed ([`Captures`]) or why it was refused ([`MoveError`]); a group ([`Group`]).

use crate::point::Color;
use crate::pointset::PointSet;

/// How repeated positions are forbidden.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum KoRule {
    /// No ko check at all (replaying records as recorded).
    None,
    /// The immediate recapture of a single-stone ko is forbidden.
    #[default]
    Simple,
    /// No move may recreate an earlier position (enforced by [`crate::replay::Replay`];
    /// a lone [`Board`](super::Board) applies the simple ko rule).
    PositionalSuperko,
}

/// The rules a board plays by.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Rules {
    /// Whether a move that leaves its own group without liberties is allowed (the group
    /// is then removed); otherwise it is [`MoveError::Suicide`].
    pub suicide_allowed: bool,
    /// The ko rule.
    pub ko: KoRule,
}

impl Rules {
    /// Replaying game records as recorded: suicide allowed and applied, no ko check.
    pub const RECORD: Rules = Rules {
        suicide_allowed: true,
        ko: KoRule::None,
    };
    /// The default: no suicide, simple ko.
    pub const STANDARD: Rules = Rules {
        suicide_allowed: false,
        ko: KoRule::Simple,
    };
}

impl Default for Rules {
    /// No suicide, simple ko ([`Rules::STANDARD`]).
    fn default() -> Rules {
        Rules::STANDARD
    }
}

/// Why a move or a setup was refused (a one-byte error code). The board is unchanged.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum MoveError {
    /// The point is not on the board.
    OffBoard = 1,
    /// The point already holds a stone.
    Occupied = 2,
    /// The move would leave its own group without liberties and suicide is not allowed.
    Suicide = 3,
    /// The move retakes a ko immediately.
    Ko = 4,
    /// The move recreates an earlier position (positional superko).
    Superko = 5,
    /// A [`crate::replay::Replay`]'s history is full.
    HistoryFull = 6,
}

impl MoveError {
    /// A short lowercase name (`"off-board"`, `"occupied"`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            MoveError::OffBoard => "off-board",
            MoveError::Occupied => "occupied",
            MoveError::Suicide => "suicide",
            MoveError::Ko => "ko",
            MoveError::Superko => "superko",
            MoveError::HistoryFull => "history-full",
        }
    }
}

impl MoveError {
    /// Why the move is refused, in words (`"the point is occupied"`).
    pub const fn words(self) -> &'static str {
        match self {
            MoveError::OffBoard => "the point is off the board",
            MoveError::Occupied => "the point is occupied",
            MoveError::Suicide => "it would leave its own stones without a liberty (suicide)",
            MoveError::Ko => "it retakes the ko at once",
            MoveError::Superko => "it repeats an earlier position (superko)",
            MoveError::HistoryFull => "the replay's history is full",
        }
    }
}

impl core::fmt::Display for MoveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The stones a move removed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Captures {
    /// Number of stones removed.
    pub count: u16,
    /// The points of the removed stones.
    pub points: PointSet,
    /// `true` if they were the mover's own (a suicide, the played point included),
    /// `false` if they were the opponent's.
    pub own: bool,
}

impl Captures {
    /// Nothing removed.
    pub const NONE: Captures = Captures {
        count: 0,
        points: PointSet::EMPTY,
        own: false,
    };
}

/// One group: its colour, stones and liberties.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Group {
    /// The colour of its stones.
    pub color: Color,
    /// Its stones.
    pub stones: PointSet,
    /// Its liberties.
    pub liberties: PointSet,
}
