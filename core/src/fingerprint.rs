//! Fingerprints: the 64 bits of a canonical [`Key`] under which the index and the book file
//! a position, split into a bucket (the top bits: where to look) and a remainder (the next
//! bits: what is stored to tell the positions of a bucket apart).
//!
//! The index's fingerprint is the top half of the key ([`fingerprint`]); the book's is the
//! top half of the key rotated left by the book's `rotate` bits
//! ([`crate::book::BookHeader::split`]), a rotation its builder picks so that no two of its
//! positions share their stored bits.

use crate::hash::Key;

/// The fingerprint of a canonical key: its top 64 bits.
#[inline]
pub const fn fingerprint(key: Key) -> u64 {
    (key.0 >> 64) as u64
}

/// How a file splits a fingerprint: its top `bucket_bits` choose a bucket, the next
/// `rem_bits` are stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Split {
    /// Bits of the bucket number (0 to 64).
    pub bucket_bits: u32,
    /// Bits stored after the bucket bits (0 to 64).
    pub rem_bits: u32,
}

impl Split {
    /// Splits `fp` into (bucket, stored remainder).
    #[inline]
    pub const fn split(self, fp: u64) -> (u64, u64) {
        let (bucket, rest) = if self.bucket_bits == 0 {
            (0, fp)
        } else if self.bucket_bits >= 64 {
            (fp, 0)
        } else {
            (fp >> (64 - self.bucket_bits), fp << self.bucket_bits)
        };
        let rem = if self.rem_bits == 0 {
            0
        } else if self.rem_bits >= 64 {
            rest
        } else {
            rest >> (64 - self.rem_bits)
        };
        (bucket, rem)
    }

    /// The bits a split keeps, back in place: `bucket` in the top `bucket_bits`, `rem` in
    /// the next `rem_bits`, zeros below (what [`Split::split`] of a fingerprint keeps of
    /// it); 0 for a split of more than 64 bits.
    #[inline]
    pub const fn join(self, bucket: u64, rem: u64) -> u64 {
        let kept = self.bucket_bits + self.rem_bits;
        if kept == 0 || kept > 64 {
            return 0;
        }
        let b = if self.bucket_bits == 0 {
            0
        } else {
            bucket << (64 - self.bucket_bits)
        };
        let r = if self.rem_bits == 0 {
            0
        } else {
            rem << (64 - kept)
        };
        b | r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_join_puts_back_the_bits_a_split_keeps() {
        let fp = 0xfedc_ba98_7654_3210u64;
        for (b, r) in [
            (1, 0),
            (11, 32),
            (24, 40),
            (32, 32),
            (64, 0),
            (0, 64),
            (5, 1),
        ] {
            let s = Split {
                bucket_bits: b,
                rem_bits: r,
            };
            let (bucket, rem) = s.split(fp);
            let kept = b + r;
            let mask = if kept == 64 {
                u64::MAX
            } else {
                !(u64::MAX >> kept)
            };
            assert_eq!(s.join(bucket, rem), fp & mask, "{b} {r}");
        }
    }

    #[test]
    fn splits_take_the_top_bits_in_order() {
        let fp = 0xfedc_ba98_7654_3210u64;
        let s = |b, r| Split {
            bucket_bits: b,
            rem_bits: r,
        };
        assert_eq!(s(0, 0).split(fp), (0, 0));
        assert_eq!(s(4, 8).split(fp), (0xf, 0xed));
        assert_eq!(s(0, 16).split(fp), (0, 0xfedc));
        assert_eq!(s(12, 0).split(fp), (0xfed, 0));
        assert_eq!(s(11, 32).split(fp), (fp >> 53, (fp << 11) >> 32));
        assert_eq!(s(64, 0).split(fp), (fp, 0));
        assert_eq!(s(0, 64).split(fp), (0, fp));
        assert_eq!(fingerprint(Key(0x0123_u128 << 64 | 7)), 0x0123);
    }
}
