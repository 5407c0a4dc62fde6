//! What a build is asked for: the kind of file ([`Profile`]) and the options
//! ([`BuildOptions`]), with the memory budget as a user writes it ([`memory_size`]).

/// What kind of file to build.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Profile {
    /// The desktop index: positions, next moves, games, game records.
    Desktop,
    /// The microcontroller book: position keys and next-move counts only.
    Mcu,
}

/// Options of a build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Index only the positions before the first N moves of each game (`None`: all).
    pub max_moves: Option<u32>,
    /// Desktop index or microcontroller book.
    pub profile: Profile,
    /// Book: drop next moves seen fewer times than this.
    pub min_count: u32,
    /// Book: keep at most this many next moves per position.
    pub max_next: Option<u32>,
    /// Index: positions with at least this many occurrences get precomputed next moves.
    pub shared_min: u32,
    /// Show a progress bar on a terminal.
    pub progress: bool,
    /// Book: also learn a move predictor from every move of the games, with these options.
    pub predictor: Option<crate::predict::TrainOptions>,
    /// List every recovered defect in [`BuildReport::problems`](crate::indexing::BuildReport::problems) (they are always counted).
    pub list_recovered: bool,
    /// Keep games whose setup and main line repeat a game read earlier (default: left
    /// out and counted, `occurrences::duplicates`).
    pub keep_duplicates: bool,
    /// Index: the memory the build may use, in bytes (`--memory`). Occurrences beyond it
    /// are spilled to temporary files and sorted in slices (`occurrences::spill`); the index is the
    /// same whatever the budget. A book is built in memory.
    pub memory: u64,
    /// What one input may hold: the bytes of a record, the members of an archive, what a
    /// game tree may hold. An input past one fails the build, naming it and the limit.
    pub limits: crate::input::Limits,
}

/// The default memory budget of a build: 4 GiB.
pub const DEFAULT_MEMORY: u64 = 4 << 30;

/// A memory size as a user writes it: a number (decimals allowed), then optionally `K`,
/// `M`, `G` or `T` (binary multiples: `4G` is 4 GiB), optionally followed by `B` or `iB`.
pub fn memory_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let unit_at = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(unit_at);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("`{text}`: expected a size such as 512M or 4G")),
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}`: expected a size such as 512M or 4G"))?;
    let bytes = value * (1u64 << shift) as f64;
    if !(1.0..=u64::MAX as f64).contains(&bytes) {
        return Err(format!("`{text}`: out of range"));
    }
    Ok(bytes as u64)
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            max_moves: None,
            profile: Profile::Desktop,
            min_count: 1,
            max_next: None,
            shared_min: 8,
            progress: false,
            predictor: None,
            list_recovered: false,
            keep_duplicates: false,
            memory: DEFAULT_MEMORY,
            limits: crate::input::Limits::DEFAULT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::memory_size;

    #[test]
    fn memory_sizes() {
        assert_eq!(memory_size("4G"), Ok(4 << 30));
        assert_eq!(memory_size("512M"), Ok(512 << 20));
        assert_eq!(memory_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(memory_size("64kb"), Ok(64 << 10));
        assert_eq!(memory_size("1000"), Ok(1000));
        assert_eq!(memory_size(" 2 T "), Ok(2 << 40));
        for bad in ["", "G", "4X", "-1G", "0", "1e3", "4 GG"] {
            assert!(memory_size(bad).is_err(), "{bad}");
        }
    }
}
