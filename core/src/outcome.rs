//! How a game ended: the [`Margin`], as a record's `RE[]` says and as the index stores it
//! (the SGF reader, the index's game rows and the game lists share it).

/// How a game ended, as far as its record says.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Margin {
    /// Not given or not understood.
    Unknown,
    /// Won by this many tenths of a point (`W+3.5` is `Points(35)`).
    Points(i32),
    /// By resignation.
    Resign,
    /// On time.
    Time,
    /// By forfeit.
    Forfeit,
    /// A draw (jigo).
    Draw,
    /// No result.
    Void,
}

impl Margin {
    /// The 3-bit code stored in a game row.
    pub const fn code(self) -> u8 {
        match self {
            Margin::Unknown => 0,
            Margin::Points(_) => 1,
            Margin::Resign => 2,
            Margin::Time => 3,
            Margin::Forfeit => 4,
            Margin::Draw => 5,
            Margin::Void => 6,
        }
    }

    /// The margin of a 3-bit code and a margin in tenths (used by [`Margin::Points`]
    /// only); an unknown code is [`Margin::Unknown`].
    pub const fn from_code(code: u8, tenths: i32) -> Margin {
        match code {
            1 => Margin::Points(tenths),
            2 => Margin::Resign,
            3 => Margin::Time,
            4 => Margin::Forfeit,
            5 => Margin::Draw,
            6 => Margin::Void,
            _ => Margin::Unknown,
        }
    }

    /// The margin in tenths of a point ([`Margin::Points`]), 0 for the others.
    pub const fn tenths(self) -> i32 {
        match self {
            Margin::Points(t) => t,
            _ => 0,
        }
    }
}
