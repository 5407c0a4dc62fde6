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

/// A game's result as a short text (`B+R`, `W+6.5`, `Draw`, ...), as game lists show it
/// and sort it: from the winner and margin when the record's result was understood, else
/// the result as written (`raw`). Its [`core::fmt::Display`] writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ShortResult<'a> {
    /// The winner, if the record names one.
    pub winner: Option<crate::point::Color>,
    /// The margin.
    pub margin: Margin,
    /// The result as written in the record.
    pub raw: &'a str,
}

impl core::fmt::Display for ShortResult<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use crate::point::Color;
        let w = match self.winner {
            Some(Color::Black) => "B+",
            Some(Color::White) => "W+",
            None => {
                return match self.margin {
                    Margin::Draw => f.write_str("Draw"),
                    Margin::Void => f.write_str("Void"),
                    _ => f.write_str(self.raw),
                }
            }
        };
        match self.margin {
            Margin::Points(t) => write!(f, "{w}{}", t as f64 / 10.0),
            Margin::Resign => write!(f, "{w}R"),
            Margin::Time => write!(f, "{w}T"),
            Margin::Forfeit => write!(f, "{w}F"),
            _ => write!(f, "{w}?"),
        }
    }
}
