//! Occurrences cut into pieces for a walk on all cores: the walks of `count` (tallies and
//! profiles), the game lists' and the first walk of a kept position (`hot`).

/// Occurrences walked by one piece of a parallel walk.
const PIECE: usize = 1 << 16;

/// A range of occurrences cut into pieces for a parallel walk (one piece when short).
pub(super) fn pieces(range: std::ops::Range<usize>) -> Vec<std::ops::Range<usize>> {
    (range.start..range.end)
        .step_by(PIECE)
        .map(|s| s..(s + PIECE).min(range.end))
        .collect()
}

/// `0..len` cut into one piece per thread (of at least [`PIECE`]): a walk of kept
/// occurrences is fast, and each piece's tallies cost their size (a profile's many bins).
pub(super) fn even_pieces(len: usize) -> Vec<std::ops::Range<usize>> {
    let size = len.div_ceil(rayon::current_num_threads().max(1)).max(PIECE);
    (0..len)
        .step_by(size)
        .map(|s| s..(s + size).min(len))
        .collect()
}
