//! Sorting the occurrences by key, then move number: a bucket sort in parallel that also
//! renumbers the moves from the workers' provisional numbers to the final ones.

use rayon::prelude::*;

use crate::indexing::occurrence::Occ;

/// Provisional global move numbers to final ones: for every game in provisional order,
/// the provisional and the final number of its first move.
pub struct Renumbering(pub(super) Vec<(u32, u32)>);

impl Renumbering {
    /// Move numbers kept as they are.
    pub(super) fn identity() -> Renumbering {
        Renumbering(vec![(0, 0)])
    }

    /// The final number of the first move of game `g` (in the order the games were
    /// gathered).
    pub(super) fn final_start(&self, g: usize) -> Option<u32> {
        self.0.get(g).map(|x| x.1)
    }

    /// The final number of provisional move `p`; `at` is the game to try first (the one
    /// found last: occurrences mostly come in provisional order), updated.
    pub(super) fn map(&self, at: &mut usize, p: u32) -> u32 {
        let s = &self.0;
        let holds =
            |i: usize| s.get(i).is_some_and(|x| x.0 <= p) && s.get(i + 1).is_none_or(|x| x.0 > p);
        if !holds(*at) {
            // The last game starting at or before `p` (a game without moves starts where
            // the next one does, and comes before it).
            *at = s.partition_point(|x| x.0 <= p).saturating_sub(1);
        }
        p - s[*at].0 + s[*at].1
    }
}

/// Key bits that split the occurrences into buckets for sorting (2048 buckets: each
/// small enough to sort in cache, few enough to scatter into).
const SORT_BUCKET_BITS: u32 = 11;

/// Occurrences per scatter task at most (so one big input still spreads over the threads).
const SCATTER_CHUNK: usize = 1 << 16;

/// The sorting bucket of an occurrence: the top bits of its key.
fn sort_bucket(o: &Occ) -> usize {
    (o.hi >> (64 - SORT_BUCKET_BITS)) as usize
}

/// Sorts one bucket of occurrences: splits it again by the next key bits (as many as
/// the bucket has occurrences, so that the pieces hold about one each) and sorts the
/// pieces, by insertion but for the few large ones (positions many games share).
/// `scratch` and `counts` are reusable buffers.
fn sort_bucket_of(b: &mut [Occ], scratch: &mut Vec<Occ>, counts: &mut Vec<u32>) {
    if b.len() <= 32 {
        b.sort_unstable();
        return;
    }
    let bits = (usize::BITS - b.len().leading_zeros()).min(16);
    let shift = 64 - SORT_BUCKET_BITS - bits;
    let mask = (1u64 << bits) - 1;
    let piece = |o: &Occ| ((o.hi >> shift) & mask) as usize;
    counts.clear();
    counts.resize((1 << bits) + 1, 0);
    for o in b.iter() {
        counts[piece(o) + 1] += 1;
    }
    for i in 1..counts.len() {
        counts[i] += counts[i - 1];
    }
    scratch.clear();
    scratch.extend_from_slice(b);
    for o in scratch.iter() {
        let k = piece(o);
        b[counts[k] as usize] = *o;
        counts[k] += 1;
    }
    // `counts[k]` is now the end of piece `k`.
    let mut s = 0;
    for &e in &counts[..1 << bits] {
        let e = e as usize;
        if e - s > 1 {
            b[s..e].sort_unstable();
        }
        s = e;
    }
}

/// [`SortPlan::new`] then [`SortPlan::sort`].
#[cfg(test)]
fn sort_occurrences(
    sources: Vec<(Vec<Occ>, u32)>,
    renumbering: &Renumbering,
) -> (Vec<Occ>, Vec<u32>) {
    SortPlan::new(&sources).sort(sources, renumbering)
}

/// The first half of the bucket sort of the occurrences, which needs nothing but them:
/// how many occurrences every chunk of input has in every bucket, and the output buffer.
///
/// A bucket sort: every chunk of input counts its occurrences per bucket, each chunk then
/// scatters into its own disjoint slice of every bucket (renumbering on the way), and the
/// buckets are sorted and split into groups independently. Occurrences are distinct (their
/// move numbers are), so the order is total and the result never depends on the threads.
pub(super) struct SortPlan {
    /// By chunk (every source's occurrences cut into [`SCATTER_CHUNK`]s), by bucket.
    counts: Vec<Vec<u32>>,
    /// As many occurrences as the sources hold.
    occs: Vec<Occ>,
}

impl SortPlan {
    pub(super) fn new(sources: &[(Vec<Occ>, u32)]) -> SortPlan {
        let nb = 1usize << SORT_BUCKET_BITS;
        let n: usize = sources.iter().map(|s| s.0.len()).sum();
        let chunks: Vec<&[Occ]> = sources
            .iter()
            .flat_map(|(v, _)| v.chunks(SCATTER_CHUNK))
            .collect();
        let (counts, occs) = rayon::join(
            || {
                chunks
                    .par_iter()
                    .map(|c| {
                        let mut k = vec![0u32; nb];
                        for o in *c {
                            k[sort_bucket(o)] += 1;
                        }
                        k
                    })
                    .collect()
            },
            || {
                // Filled in parallel: the page faults of a fresh buffer cost more than
                // the writes.
                let mut occs = Vec::with_capacity(n);
                occs.par_extend(rayon::iter::repeat_n(Occ::ZERO, n));
                occs
            },
        );
        SortPlan { counts, occs }
    }

    /// Sorts `sources` (those the plan was made for) by (key, final move number),
    /// renumbering their moves through `renumbering`; returns them with the start of each
    /// group of equal keys (plus the total).
    pub(super) fn sort(
        self,
        sources: Vec<(Vec<Occ>, u32)>,
        renumbering: &Renumbering,
    ) -> (Vec<Occ>, Vec<u32>) {
        let nb = 1usize << SORT_BUCKET_BITS;
        let SortPlan { counts, mut occs } = self;
        let n = occs.len();
        let mut bucket_len = vec![0usize; nb];
        for k in &counts {
            for (len, &c) in bucket_len.iter_mut().zip(k) {
                *len += c as usize;
            }
        }
        // Bucket by bucket, a slice for every chunk in chunk order; then the chunks'
        // slices source by source.
        let mut dests: Vec<Vec<&mut [Occ]>> =
            (0..counts.len()).map(|_| Vec::with_capacity(nb)).collect();
        let mut rest: &mut [Occ] = &mut occs;
        for b in 0..nb {
            for (d, k) in dests.iter_mut().zip(&counts) {
                let (head, tail) = std::mem::take(&mut rest).split_at_mut(k[b] as usize);
                d.push(head);
                rest = tail;
            }
        }
        let mut dests = dests.into_iter();
        let by_source: Vec<Vec<Vec<&mut [Occ]>>> = sources
            .iter()
            .map(|(v, _)| {
                dests
                    .by_ref()
                    .take(v.len().div_ceil(SCATTER_CHUNK))
                    .collect()
            })
            .collect();
        // Each source is freed as soon as it is scattered.
        sources
            .into_par_iter()
            .zip(by_source)
            .for_each(|((v, off), mut d)| {
                v.par_chunks(SCATTER_CHUNK)
                    .zip(d.par_iter_mut())
                    .for_each(|(c, d)| {
                        let mut fill = vec![0usize; nb];
                        let mut at = 0;
                        for o in c {
                            let b = sort_bucket(o);
                            d[b][fill[b]] = Occ {
                                ply: renumbering.map(&mut at, o.ply + off),
                                ..*o
                            };
                            fill[b] += 1;
                        }
                    });
            });
        // Sort every bucket and find its groups.
        let mut buckets: Vec<(&mut [Occ], u32)> = Vec::with_capacity(nb);
        let mut rest: &mut [Occ] = &mut occs;
        let mut start = 0u32;
        for &len in &bucket_len {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(len);
            buckets.push((head, start));
            start += len as u32;
            rest = tail;
        }
        let parts: Vec<Vec<u32>> = buckets
            .into_par_iter()
            .map_init(
                || (Vec::new(), Vec::new()),
                |(scratch, counts), (b, start)| {
                    sort_bucket_of(b, scratch, counts);
                    let mut g = Vec::new();
                    for i in 0..b.len() {
                        if i == 0 || (b[i].hi, b[i].lo) != (b[i - 1].hi, b[i - 1].lo) {
                            g.push(start + i as u32);
                        }
                    }
                    g
                },
            )
            .collect();
        // The buckets' group starts copied into place in parallel.
        let mut groups = vec![0u32; parts.iter().map(Vec::len).sum::<usize>() + 1];
        let mut slices = Vec::with_capacity(parts.len());
        let mut rest: &mut [u32] = &mut groups;
        for p in &parts {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(p.len());
            slices.push(head);
            rest = tail;
        }
        rest[0] = n as u32;
        slices
            .into_par_iter()
            .zip(&parts)
            .for_each(|(s, p)| s.copy_from_slice(p));
        (occs, groups)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bucket sort gives what a plain sort of the renumbered occurrences gives, with
    /// the same groups, for keys spread out, keys shared by many occurrences and keys
    /// differing only in their low bits.
    #[test]
    fn occurrences_sort_like_a_plain_sort() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for (sources_n, games_n) in [(1, 1), (1, 3), (3, 10), (7, 100), (2, 1000)] {
            // Games of random lengths (some without moves) numbered provisionally one
            // after the other, and finally in another order.
            let lens: Vec<u32> = (0..games_n)
                .map(|_| {
                    if next() % 5 == 0 {
                        0
                    } else {
                        next() as u32 % 300
                    }
                })
                .collect();
            let mut prov = Vec::new();
            let mut p = 0;
            for &l in &lens {
                prov.push(p);
                p += l;
            }
            let total = p;
            let mut order: Vec<usize> = (0..games_n).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, next() as usize % (i + 1));
            }
            let mut fin = vec![0; games_n];
            let mut f = 0;
            for &g in &order {
                fin[g] = f;
                f += lens[g];
            }
            let renumbering = Renumbering(prov.iter().copied().zip(fin.iter().copied()).collect());
            let final_of = |p: u32| {
                let g = (0..games_n)
                    .rfind(|&g| prov[g] <= p && p < prov[g] + lens[g])
                    .unwrap();
                fin[g] + p - prov[g]
            };
            // The sources split the provisional numbers; most moves are indexed, in
            // order, except in the last source.
            let mut sources = Vec::new();
            let mut all = Vec::new();
            for s in 0..sources_n as u32 {
                let (from, to) = (
                    total * s / sources_n as u32,
                    total * (s + 1) / sources_n as u32,
                );
                let mut v = Vec::new();
                for p in from..to {
                    let r = next();
                    if r % 10 == 0 {
                        continue;
                    }
                    let (hi, lo) = match r % 8 {
                        0 => (1 << 63, 5),
                        1 => (1 << 63, r % 3),
                        2 => (r >> 40 << 40, r % 2),
                        _ => (r, next()),
                    };
                    let orient = (r >> 3) as u8 & 7;
                    v.push(Occ {
                        hi,
                        lo,
                        ply: p - from,
                        orient,
                        check: lo,
                        next: 0,
                    });
                    all.push(Occ {
                        hi,
                        lo,
                        ply: final_of(p),
                        orient,
                        check: lo,
                        next: 0,
                    });
                }
                if s + 1 == sources_n as u32 {
                    v.reverse();
                }
                sources.push((v, from));
            }
            all.sort_unstable();
            let mut want_groups: Vec<u32> = (0..all.len())
                .filter(|&i| i == 0 || (all[i].hi, all[i].lo) != (all[i - 1].hi, all[i - 1].lo))
                .map(|i| i as u32)
                .collect();
            want_groups.push(all.len() as u32);
            let (occs, groups) = sort_occurrences(sources, &renumbering);
            assert!(occs == all, "{sources_n} sources, {games_n} games");
            assert_eq!(groups, want_groups);
        }
    }
}
