//! SplitMix64: the generator's one source of randomness.
//!
//! Written here rather than taken from `rand`/`rand_chacha` so that the synthetic
//! collections depend only on this file: the same seed gives the same archives whatever
//! crate versions the lock file holds (rand's value streams have changed between major
//! versions). SplitMix64 (Steele, Lea and Flood, 2014; the seeder of xoshiro) passes
//! BigCrush, costs a few instructions per value and can be started anywhere: each game
//! derives its own stream from the seed and its number, so no output depends on which
//! thread made it.

/// A SplitMix64 stream.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

/// The golden-ratio increment of SplitMix64.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function (a 64-bit finaliser: every input bit changes about half of
/// the output bits).
pub(super) const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl SplitMix64 {
    /// A stream started at `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// An independent stream for the item `(a, b)` of a run seeded with `seed` (a game's
    /// number and attempt, say): the three words are mixed so that neighbouring items get
    /// unrelated streams.
    pub fn derive(seed: u64, a: u64, b: u64) -> SplitMix64 {
        let s = mix(seed ^ GAMMA);
        let s = mix(s ^ a.wrapping_mul(GAMMA));
        SplitMix64::new(mix(s ^ b.wrapping_mul(0xD1B5_4A32_D192_ED03)))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix(self.state)
    }

    /// A number in `0..n` (`0` when `n` is 0), by Lemire's multiply-shift; the bias, at most
    /// `n / 2^64`, is immaterial here.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A number in `lo..=hi` (`lo` when `hi < lo`).
    pub fn between(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        lo + self.below(hi - lo + 1)
    }

    /// `true` with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first values of SplitMix64 seeded with 1234567, as Rosetta Code's
    /// "Pseudo-random numbers/Splitmix64" task lists them (and Python's big integers give).
    #[test]
    fn the_published_stream() {
        let mut r = SplitMix64::new(1_234_567);
        let want = [
            6_457_827_717_110_365_317,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821,
        ];
        for w in want {
            assert_eq!(r.next_u64(), w);
        }
    }

    #[test]
    fn ranges_hold_and_cover() {
        let mut r = SplitMix64::derive(7, 1, 0);
        let mut seen = [0u32; 7];
        for _ in 0..7_000 {
            let v = r.between(10, 16);
            assert!((10..=16).contains(&v));
            seen[(v - 10) as usize] += 1;
        }
        // Each of 7 values about 1,000 times.
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
        assert_eq!(r.below(0), 0);
        assert_eq!(r.between(5, 5), 5);
        assert_eq!(r.between(6, 5), 6);
    }

    #[test]
    fn derived_streams_differ() {
        let a = SplitMix64::derive(1, 0, 0).next_u64();
        let b = SplitMix64::derive(1, 1, 0).next_u64();
        let c = SplitMix64::derive(1, 0, 1).next_u64();
        let d = SplitMix64::derive(2, 0, 0).next_u64();
        assert!(a != b && a != c && a != d && b != c && b != d && c != d);
        assert_eq!(a, SplitMix64::derive(1, 0, 0).next_u64());
    }
}
