//! CRC-32 (IEEE), the checksum of a file's header and body.

/// CRC-32 (IEEE) of `bytes`: `crc32fast` with the `fast-crc` feature (the default: SIMD on
/// desktops, 16 KiB of tables elsewhere), else [`crc32_small`].
#[cfg(feature = "fast-crc")]
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut h = Crc32::new();
    h.update(bytes);
    h.finalize()
}

/// CRC-32 (IEEE) of `bytes`: `crc32fast` with the `fast-crc` feature (the default: SIMD on
/// desktops, 16 KiB of tables elsewhere), else [`crc32_small`].
#[cfg(not(feature = "fast-crc"))]
pub fn crc32(bytes: &[u8]) -> u32 {
    crc32_small(bytes)
}

/// A CRC-32 (IEEE) computed piece by piece (for a writer that streams a body in parts), by
/// the same code as [`crc32`].
#[derive(Clone, Default)]
pub struct Crc32 {
    #[cfg(feature = "fast-crc")]
    hasher: crc32fast::Hasher,
    #[cfg(not(feature = "fast-crc"))]
    state: u32,
}

impl core::fmt::Debug for Crc32 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Crc32").finish_non_exhaustive()
    }
}

impl Crc32 {
    /// The CRC of nothing yet.
    pub fn new() -> Crc32 {
        Crc32::default()
    }

    /// Adds `bytes`.
    #[cfg(feature = "fast-crc")]
    pub fn update(&mut self, bytes: &[u8]) {
        self.hasher.update(bytes);
    }

    /// Adds `bytes`.
    #[cfg(not(feature = "fast-crc"))]
    pub fn update(&mut self, bytes: &[u8]) {
        self.state = !small_update(!self.state, bytes);
    }

    /// The CRC of everything added.
    #[cfg(feature = "fast-crc")]
    pub fn finalize(self) -> u32 {
        self.hasher.finalize()
    }

    /// The CRC of everything added.
    #[cfg(not(feature = "fast-crc"))]
    pub fn finalize(self) -> u32 {
        self.state
    }
}

/// The byte-at-a-time CRC-32 table (1 KiB), computed at compile time.
const CRC_TABLE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
};

/// CRC-32 (IEEE) of `bytes`, one table lookup per byte: 1 KiB of table instead of
/// `crc32fast`'s 16 KiB, for microcontroller builds (`default-features = false`), where
/// a book is checked once at start.
pub fn crc32_small(bytes: &[u8]) -> u32 {
    !small_update(!0u32, bytes)
}

/// The table-driven CRC register after `bytes`, from register `c`.
fn small_update(mut c: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        c = CRC_TABLE[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_crc_matches_the_standard() {
        assert_eq!(crc32_small(b"123456789"), 0xcbf4_3926);
        assert_eq!(crc32_small(b""), 0);
        let data: [u8; 1000] = core::array::from_fn(|i| (i * 7 + i / 13) as u8);
        assert_eq!(crc32_small(&data), crc32(&data));
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }

    #[test]
    fn crc_in_pieces_equals_crc_at_once() {
        let data: [u8; 1000] = core::array::from_fn(|i| (i * 31 + i / 7) as u8);
        for cut in [0, 1, 7, 500, 999, 1000] {
            let mut c = Crc32::new();
            c.update(&data[..cut]);
            c.update(&data[cut..]);
            assert_eq!(c.finalize(), crc32_small(&data), "cut at {cut}");
        }
        assert_eq!(Crc32::new().finalize(), 0);
    }
}
