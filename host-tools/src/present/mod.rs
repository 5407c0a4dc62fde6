//! Presenting results: JSON for programs ([`json`]), text for people ([`text`]), and the
//! few words both use.

pub mod json;
pub mod numbers;
pub mod text;

use kifudex_core::index::Game;
use kifudex_core::outcome::Margin;
use kifudex_core::Color;

/// `"B"` or `"W"`.
pub fn color_letter(c: Color) -> &'static str {
    match c {
        Color::Black => "B",
        Color::White => "W",
    }
}

/// The result as a short text (`B+R`, `W+6.5`...), from the parsed result when it is
/// understood, else as written.
pub fn result_text(g: &Game<'_>) -> String {
    let w = match g.winner {
        Some(Color::Black) => "B+",
        Some(Color::White) => "W+",
        None => match g.margin {
            Margin::Draw => return "Draw".into(),
            Margin::Void => return "Void".into(),
            _ => return g.result.to_string(),
        },
    };
    match g.margin {
        Margin::Points(t) => format!("{w}{}", t as f64 / 10.0),
        Margin::Resign => format!("{w}R"),
        Margin::Time => format!("{w}T"),
        Margin::Forfeit => format!("{w}F"),
        _ => format!("{w}?"),
    }
}
