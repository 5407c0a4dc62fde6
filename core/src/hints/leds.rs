//! What the board's LEDs show after each reply ([`LedFrame`]) and the trait a board's LED
//! driver implements ([`Leds`]).

use core::fmt;

#[cfg(feature = "defmt")]
use crate::notation::sgf_letter;
use crate::notation::Sgf;
use crate::point::{Color, Move, Point};
use crate::pointset::PointSet;
use crate::predict::Guess;
use crate::search::NextMove;
use crate::track::{Condition, Fix};

use super::MAX_HINTS;

/// One lit point of an LED frame.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LedPoint {
    /// The point.
    pub point: Point,
    /// Who would play there.
    pub color: Color,
    /// 1 to 255: the class's count scaled to the top class's count (rounded, at least 1).
    pub brightness: u8,
}

/// What the board's LEDs show after a reply: the points of the replied classes, brightest
/// first (search order), at most [`MAX_HINTS`]; or, after a `fix` reply, every point to fix
/// ([`FixFrame`]). Empty after an error.
///
/// Displayed as `leds pd:255 dp:120` (the word `leds`, then `point:brightness`),
/// `leds guess pd:255 ...` for the predictor's guesses, `leds fix remove bb:W cb:W` (the
/// condition, then `point:colour`) for a fix.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LedFrame {
    points: heapless::Vec<LedPoint, MAX_HINTS>,
    guess: bool,
    fix: Option<FixFrame>,
}

/// The "please fix the board" frame: what is wrong and every point concerned, each with the
/// colour of its stone (the stone to put back for [`Condition::Restore`], the stone that is
/// there for the others). A board shows it unlike the hints (another colour, blinking), so
/// that it is never taken for a hint.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FixFrame {
    /// What is wrong.
    pub condition: Condition,
    /// The points to fix.
    pub points: PointSet,
    /// Those of them whose stone is black (the others' is white).
    pub black: PointSet,
}

impl FixFrame {
    /// The points with the colour of their stone, in `y * 19 + x` order.
    pub fn stones(&self) -> impl Iterator<Item = (Point, Color)> + '_ {
        self.points.iter().map(|p| {
            let c = if self.black.contains(p) {
                Color::Black
            } else {
                Color::White
            };
            (p, c)
        })
    }
}

impl LedFrame {
    /// A frame with nothing lit.
    pub const fn new() -> Self {
        LedFrame {
            points: heapless::Vec::new(),
            guess: false,
            fix: None,
        }
    }

    /// The frame of a `fix` reply: its points, `black` those whose stone is black.
    pub fn from_fix(fix: &Fix, black: PointSet) -> Self {
        LedFrame {
            points: heapless::Vec::new(),
            guess: false,
            fix: Some(FixFrame {
                condition: fix.condition,
                points: fix.points,
                black: black & fix.points,
            }),
        }
    }

    /// The "please fix the board" frame, if this is one (then [`LedFrame::points`] is
    /// empty).
    pub fn fix(&self) -> Option<&FixFrame> {
        self.fix.as_ref()
    }

    /// The frame of a predictor's guesses for `color`, best first: brightness 255 for the
    /// first, halved for each `ln 2` of log-strength a guess lies below it (at least 1).
    pub fn from_guesses(guesses: &[Guess], color: Color) -> Self {
        let mut frame = LedFrame {
            points: heapless::Vec::new(),
            guess: true,
            fix: None,
        };
        let top = guesses.first().map_or(0, |g| g.score);
        for g in guesses.iter().take(MAX_HINTS) {
            // Log-strengths are in 1/1024 nat: ln 2 is 710 of them.
            let halvings = (top.saturating_sub(g.score) / 710).clamp(0, 7) as u32;
            let _ = frame.points.push(LedPoint {
                point: g.point,
                color,
                brightness: (255u32 >> halvings).max(1) as u8,
            });
        }
        frame
    }

    /// Whether the frame shows the predictor's guesses (not the book's moves).
    pub fn is_guess(&self) -> bool {
        self.guess
    }

    /// The frame for the first [`MAX_HINTS`] of `classes` (sorted, highest count first).
    pub fn from_classes(classes: &[NextMove]) -> Self {
        let mut frame = LedFrame::new();
        let top = classes.iter().map(|c| c.count).max().unwrap_or(0) as u64;
        for c in classes.iter().take(MAX_HINTS) {
            if let (Move::Play(p), true) = (c.mv, top > 0) {
                let b = ((c.count as u64 * 255 + top / 2) / top).clamp(1, 255) as u8;
                // Cannot overflow: at most MAX_HINTS classes are taken.
                let _ = frame.points.push(LedPoint {
                    point: p,
                    color: c.color,
                    brightness: b,
                });
            }
        }
        frame
    }

    /// The lit points.
    pub fn points(&self) -> &[LedPoint] {
        &self.points
    }
}

impl fmt::Display for LedFrame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(fix) = &self.fix {
            write!(f, "leds fix {}", fix.condition.as_str())?;
            for (p, c) in fix.stones() {
                write!(f, " {}:{}", Sgf(Move::Play(p)), c.letter())?;
            }
            return Ok(());
        }
        f.write_str(if self.guess { "leds guess" } else { "leds" })?;
        for p in &self.points {
            write!(f, " {}:{}", Sgf(Move::Play(p.point)), p.brightness)?;
        }
        Ok(())
    }
}

/// The same text as `Display` (`leds guess pd:255 qd:90`), as a defmt frame: the words are
/// interned, each lit point is sent as its two SGF letters and its brightness.
#[cfg(feature = "defmt")]
impl defmt::Format for LedFrame {
    fn format(&self, f: defmt::Formatter<'_>) {
        let letter = |v| sgf_letter(v).unwrap_or('?');
        if let Some(fix) = &self.fix {
            defmt::write!(f, "leds fix {=str}", fix.condition.as_str());
            for (p, c) in fix.stones() {
                defmt::write!(
                    f,
                    " {=char}{=char}:{=char}",
                    letter(p.x),
                    letter(p.y),
                    c.letter()
                );
            }
            return;
        }
        defmt::write!(f, "{=str}", if self.guess { "leds guess" } else { "leds" });
        for p in &self.points {
            defmt::write!(
                f,
                " {=char}{=char}:{=u8}",
                letter(p.point.x),
                letter(p.point.y),
                p.brightness
            );
        }
    }
}

/// The board's hint LEDs, as a real board drives them.
pub trait Leds {
    /// Shows `frame` (replacing the previous one).
    fn show(&mut self, frame: &LedFrame);
}

/// No LEDs.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoLeds;

impl Leds for NoLeds {
    fn show(&mut self, _frame: &LedFrame) {}
}

impl<L: Leds + ?Sized> Leds for &mut L {
    fn show(&mut self, frame: &LedFrame) {
        (**self).show(frame)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use crate::point::Size;
    use std::vec::Vec;

    use super::*;

    #[test]
    fn led_frames_scale_to_the_top_count() {
        use crate::search::NextMove;
        let class = |mv: &str, color, count| NextMove {
            color,
            mv: crate::notation::parse_moves(mv, Size::STANDARD)
                .next()
                .unwrap()
                .unwrap(),
            count,
            black_wins: 0,
            white_wins: 0,
        };
        let classes = [
            class("pd", Color::Black, 400),
            class("dp", Color::Black, 188),
            class("pass", Color::Black, 100),
            class("qc", Color::White, 1),
        ];
        let f = LedFrame::from_classes(&classes);
        assert_eq!(f.points().len(), 3);
        assert_eq!(std::format!("{f}"), "leds pd:255 dp:120 qc:1");
        assert_eq!(std::format!("{}", LedFrame::new()), "leds");
        let many: Vec<NextMove> = (0..20).map(|_| class("aa", Color::White, 5)).collect();
        assert_eq!(LedFrame::from_classes(&many).points().len(), MAX_HINTS);
        let fix = Fix {
            condition: Condition::Restore,
            points: [Point::new(1, 1), Point::new(3, 15)].into_iter().collect(),
        };
        let f = LedFrame::from_fix(&fix, PointSet::single(Point::new(3, 15)));
        assert_eq!(std::format!("{f}"), "leds fix restore bb:W dp:B");
        assert!(f.points().is_empty() && !f.is_guess());
        assert_eq!(f.fix().map(|x| x.points.len()), Some(2));
    }
}
