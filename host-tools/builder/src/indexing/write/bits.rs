//! Packing large sections in parallel: the core's [`BitWriter`] over pieces of records
//! packed by rayon's threads, the same bytes as one writer.

use std::ops::Range;

use kifudex_core::format::BitWriter;
use rayon::prelude::*;

/// Records per piece of [`pack_parallel`]: a multiple of 64, so that every piece but the
/// last fills whole 64-bit words whatever the record width.
const PACK_CHUNK: usize = 1 << 16;

/// `count` records of `width` bits packed in parallel, the same bytes as pushing them one
/// by one: `fill(range, w)` pushes the records of `range` to `w`, for ranges of
/// [`PACK_CHUNK`] records (the last one shorter).
pub fn pack_parallel<F>(width: u32, count: usize, fill: F) -> BitWriter
where
    F: Fn(Range<usize>, &mut BitWriter) + Sync,
{
    let piece = |r: Range<usize>| {
        let mut w = BitWriter::with_capacity(width, r.len());
        let n = r.len() as u64;
        fill(r, &mut w);
        assert_eq!(w.count(), n, "records pushed for a piece");
        w
    };
    if count <= PACK_CHUNK {
        return piece(0..count);
    }
    // Every full piece is exactly `chunk_bytes` long (its bits fill whole words).
    let full = (count - 1) / PACK_CHUNK;
    let chunk_bytes = PACK_CHUNK * width as usize / 8;
    let last_start = full * PACK_CHUNK;
    let mut bytes = Vec::with_capacity((count * width as usize).div_ceil(8) + 16);
    bytes.resize(full * chunk_bytes, 0);
    let ((), last) = rayon::join(
        || {
            bytes
                .par_chunks_mut(chunk_bytes)
                .enumerate()
                .for_each(|(k, out)| {
                    let w = piece(k * PACK_CHUNK..(k + 1) * PACK_CHUNK);
                    let words = w.into_words().expect("a full piece fills whole words");
                    out.copy_from_slice(&words);
                })
        },
        || piece(last_start..count),
    );
    BitWriter::after_words(bytes, last_start as u64, last)
        .expect("whole words before the last piece")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_in_parallel_gives_the_same_bytes() {
        for width in [1u32, 10, 13, 32, 57, 64] {
            for count in [
                0,
                5,
                PACK_CHUNK,
                PACK_CHUNK + 1,
                3 * PACK_CHUNK - 7,
                3 * PACK_CHUNK,
            ] {
                let val = |i: usize| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - width);
                let mut one = BitWriter::new(width);
                for i in 0..count {
                    one.push(val(i));
                }
                let par = pack_parallel(width, count, |r, w| {
                    for i in r {
                        w.push(val(i));
                    }
                });
                assert!(
                    one.finish() == par.finish(),
                    "width {width}, {count} records"
                );
            }
        }
    }
}
