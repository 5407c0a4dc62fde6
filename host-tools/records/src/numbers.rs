//! Counts and rates in words, as the build summary and `kifudex info` both print them: the
//! same labels, and the games as a visible sum (`games read: 440 = 322 kept + 118
//! duplicates left out`; `games kept: 322 = 308 with indexed moves + 14 without moves`).

/// The label of the games an index or a book was built from (read, less the duplicates).
pub const GAMES_KEPT: &str = "games kept";

/// The label of the moves indexed (each a position with its next move).
pub const OCCURRENCES: &str = "occurrences";

/// `17631` as `17,631`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A rate per second: whole numbers with thousands separators from 10 on (`17,631`), one
/// decimal below (`2.5`).
pub fn rate(per_second: f64) -> String {
    if !per_second.is_finite() || per_second < 0.0 {
        return "-".to_string();
    }
    if per_second >= 10.0 {
        thousands(per_second.round() as u64)
    } else {
        format!("{per_second:.1}")
    }
}

/// The games kept, as a sum: `322 = 308 with indexed moves + 14 without moves` (just `322`
/// when every game has moves).
pub fn games_kept(kept: u64, without_moves: u64) -> String {
    if without_moves == 0 {
        return thousands(kept);
    }
    format!(
        "{} = {} with indexed moves + {} without moves",
        thousands(kept),
        thousands(kept.saturating_sub(without_moves)),
        thousands(without_moves)
    )
}

/// The moves indexed: `70,811 (each a position with the move played from it)`.
pub fn occurrences(n: u64) -> String {
    format!(
        "{} (each a position with the move played from it)",
        thousands(n)
    )
}

/// A limit where 0 means none: `all`, or the number.
pub fn limit(n: u32) -> String {
    if n == 0 {
        "all".to_string()
    } else {
        thousands(n.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(17_631), "17,631");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(rate(17_630.795), "17,631");
        assert_eq!(rate(2.54), "2.5");
        assert_eq!(
            games_kept(322, 14),
            "322 = 308 with indexed moves + 14 without moves"
        );
        assert_eq!(games_kept(21_047, 0), "21,047");
        assert_eq!(limit(0), "all");
        assert_eq!(limit(40), "40");
    }
}
