//! Index and book files opened by memory map, and the hint that asks for their bytes ahead
//! of time: the one place with `unsafe` in this crate.

use std::fs::File;
use std::ops::Deref;
use std::path::Path;

use anyhow::{Context, Result};

/// The bytes of an index or book file: memory-mapped from disk, or owned (the bundled
/// sample, built in memory).
#[derive(Debug)]
pub enum IndexBytes {
    /// A file mapped read-only ([`map_file`]).
    Mapped(memmap2::Mmap),
    /// Bytes in memory.
    Owned(Vec<u8>),
}

impl Deref for IndexBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            IndexBytes::Mapped(m) => m,
            IndexBytes::Owned(v) => v,
        }
    }
}

impl From<Vec<u8>> for IndexBytes {
    fn from(v: Vec<u8>) -> IndexBytes {
        IndexBytes::Owned(v)
    }
}

/// Maps the file at `path` read-only, so that opening an index costs time independent of
/// its size and a search reads only the pages it touches. Every command that opens an index
/// or a book (CLI, shell, server) goes through here.
pub fn map_file(path: &Path) -> Result<IndexBytes> {
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let len = file
        .metadata()
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    if len == 0 {
        // (An empty file cannot be mapped; it is no index either, as its reader will say.)
        return Ok(IndexBytes::Owned(Vec::new()));
    }
    // SAFETY: `Mmap::map` is unsafe because another process may change or truncate the file
    // while it is mapped. Changed bytes cannot break memory safety here: the readers
    // (`kifudex_core::index::Index`, `kifudex_core::book::Book`) treat the bytes as untrusted
    // and clamp every read to its section, whatever they hold, so a file rewritten under us
    // gives wrong answers at worst, never undefined behaviour in Rust terms. The remaining
    // risk is a file truncated while mapped: reading a page past the new end raises SIGBUS
    // and ends the process (it cannot read out of bounds). kifudex itself never truncates an
    // index in place: it writes a new file and renames it over the old one, which leaves
    // the mapped (old) file intact, so only another program truncating the file can do it.
    #[allow(unsafe_code)]
    let map = unsafe { memmap2::Mmap::map(&file) }
        .with_context(|| format!("cannot map {}", path.display()))?;
    Ok(IndexBytes::Mapped(map))
}

/// Asks the processor to start loading the 64-byte line that holds `bytes[at]` into its
/// caches, without waiting for it: a hint, with no effect on any result (nothing when `at`
/// is past the end, nor on processors other than x86_64).
///
/// Pattern search reads a few scattered lines of each 41 KB block of games; on an index
/// larger than the processor's caches it waited for memory at every block. Asking for the
/// next block's lines while one block is searched took a million-game search of a side
/// pattern from 177 to 94 ms on one core (`docs/PATTERNS.md`, "Speed").
#[inline(always)]
pub fn prefetch(bytes: &[u8], at: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(b) = bytes.get(at) {
        // SAFETY: `_mm_prefetch` is unsafe only because it takes a raw pointer; a prefetch
        // never faults and reads nothing into the program (it only moves a cache line),
        // and the pointer here comes from a live reference into `bytes`.
        #[allow(unsafe_code)]
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                (b as *const u8).cast(),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (bytes, at);
}

#[cfg(test)]
mod tests {
    use super::prefetch;

    #[test]
    fn a_prefetch_past_the_end_or_of_nothing_does_nothing() {
        let bytes = [1u8, 2, 3];
        for at in [0, 2, 3, usize::MAX] {
            prefetch(&bytes, at);
            prefetch(&[], at);
        }
        assert_eq!(bytes, [1, 2, 3]);
    }
}
