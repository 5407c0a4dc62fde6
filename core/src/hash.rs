//! Board hashes: bGo's additive hash (the one shown to users) and kifudex's 128-bit
//! Zobrist position key (the one the index is keyed by), both kept for all 8 transforms.
//!
//! **bGo's hash.** The sum over stones of `+BGO_TABLE[y * 19 + x]` for a black stone and
//! `-BGO_TABLE[y * 19 + x]` for a white one, as a 64-bit signed integer, never wrapped.
//! Hash number `t` is the hash of the board after every stone has moved to `t(x, y)`.
//! Colour swap negates it. It is too weak to key millions of positions (it is linear in
//! 32-bit values), so it is shown, never trusted.
//!
//! **The position key.** A Zobrist hash: the XOR over stones of a 128-bit value per
//! (colour, point), from a fixed, documented generator (SplitMix64 seeded with
//! [`ZOBRIST_SEED`]). Key number `t` is the key of the transformed board. The canonical
//! key of a position is the smallest of its valid keys, mixed with the board size, so
//! that the 8 orientations of a position share one key.

use crate::point::{Color, Point, Size, Stone, MAX_POINTS};
use crate::pointset::PointSet;
use crate::transform::{Transform, TransformSet};

/// bGo's 361 hash constants, index `y * 19 + x` (bGo's own table, `docs/HASH.md`).
#[rustfmt::skip]
pub const BGO_TABLE: [i32; MAX_POINTS] = [
    // One line per board row, y = 0 (the top) first; x from the left.
     -972026825,  -855920665, -1726883353,  1806723638,  -648474315,  1619839338,  -213149750,  -231944539,   887033447,  1849648372,   -54043465,   949655785, -1334813165, -1771758190,  1034872264,  1359215583,  -757123712,  1694960022,   506437520,
     -227169411,  1335668001,  1433809003,  1248103884,  1730660977, -2034259802,  1288510125,  -716585919,   681379394,   957705316,   199602563,   260650543, -1161343494,   438883554,   563041023, -1886395062,  1462606573,  1646141152,    36576695,
    -1214355107, -1410124574,   886717536,  -652980963,  1991971104,   577518384, -1935914452, -1795747586,   335831797, -1462043508, -1520917193,  -396289409,   794210363,   882962285,  1622551917,  1635916551,   662610062,  -844042532, -1944829931,
     -710073645,  1246966854, -1981841524,   228439338,  -465315427,  1188540565, -1271969847, -1119931263,   660216454,  1554363362, -1969092275,  -919618935, -1219721921,  -843148662,   148936817, -1388441096,  -823279673,  2126667073,  1468018502,
     -767434323,   567639680,   890068206,   256529797, -1531579188,   -60283541, -1239028041,  1695889733,   464187627,  -950983790,  -358075531, -2083264826,   671994939, -2118388489,   922519004,   371762758,   101406936,   286184582,  -309530584,
     1733252789,  1081226214, -1516377420,    39442194,  -986112117, -1310121328,  1062820820,  1839505864,   987150089, -2133306922, -1256315936,  -153190432,  1933798711,  2077041310, -1917989055,  1305817215,  1470041007,  1094788200,  1822033425,
     1507030157,   763287880,  1658445793, -1482155416,  1492771741,   121684891,   598924905, -1689224351,  1201388232,  2099256430,    17961897,  1522275325,  1493685179,   167615007,  1710536090,  -771966650,  1811684229,  1004385170,  1099886385,
      420020622, -1485956208,   259713666,   366531608,  -108865169,  1452257253,   265352787,   396402605,  -421707998,  1882267329,  1465721177,   882826991,  -963398815, -1440899873,   492789782, -2126207435, -1146034519,   580030631,   321322726,
     -650075877,    44775587, -1220270119,  1033833541,  -925374333, -1318800175,  -308994659,  1030848008, -1894022819, -1238955432, -1851640580,  -594997545,  1069959051,  1407705011,  -669883570,  -382471228,  -131719646,  2042198607,  1465647781,
      200383342,  1103902715,  1212278557,   620484923, -1857086104, -1095640055,  1402821869,  1744822009, -1352788169,   124446377,   476675151, -1650276483, -1416508133, -1803790882,  -175369260,  1278291069,  1098340613,  2005870518,   323592929,
    -1226157433, -1525055588,  1530745740,  1490417397,  1512245340, -1042683609,  -992939560, -1724159607, -1375327423,  1257510892,  2064668924,  1039290195, -1496318722, -2096323740,   576895175,  1682239382, -1546503029, -1249923969, -1749342611,
     -334636227,  1617671366,  1610862487,   375490895,  1039666140, -1321710076,  1480346947,  1263288353,  1825334082, -1002873420,  1920825508, -1075680037,   721974563, -2062743169,    23008308,   131740297,   596454172,   352798103,  -401864016,
      751518861, -1560327711,  -302726995, -1584798571,   -15028121, -1700792087, -1669598150,  1214689452,   679380635,  -978412234,  1948637947, -1779121113,  2146499041, -1981279796,  1605621392,  1860385820, -1285489806,   845708615,   273184763,
      931392929,   217160301,  -971610348,  -102765941, -2134909853,  1606036935, -1786464360,  1832087705,  1416759935, -1058277974,   118666276,   -40753032,   454885773,  -757610856,  1443640366,   663035612,  -359534822,   282485556,   542140423,
      934173109,  1559607622, -1603312393, -1937332178,  -629882516, -1219546994, -2067978131,  1275127438, -1491160000, -1267879758, -1041409596,   811721822,   171008249,   590769220,  1974044419,   660437281,  -440617399,  -971012481,  1293961571,
      -80241936,  1002706782, -1219204095, -1318953765,  -303981390, -1568378224,  1640636430, -1922410365, -1009542555,  1750259331,  1751505067, -1586733799,  1339936491,   146716565,    94377855,  1029165885, -1629560459,   640307961,  -728779588,
    -1527141589, -2135018408, -1191148766,  1012658703,   307307600,  -258019807,  -810482710,  -391475368, -1696946342,  -528690604,   603393721,  -670922633, -1982497401,  -956713494,  -644436859, -1609030857, -1179041967,  1665013954, -1755367507,
    -1823206815,  -799533943, -1912942313, -1280527608,  -818350471, -1626106951, -1158296155, -1299851071, -2118741668, -1006170402,   -57213069,  1675730722,   379424666,  -413190079,  -538879081,  1993810651,  1208183018, -1663859350,  1261522857,
     1687092594,  1774828867,  1065121946,  -388339712,  1444488625,  -462731110, -1911843849, -1528463158,   933501526,  1942862173,    -7455370,  1814298465,  -545721152,  1029373491, -1320566722,  -207142928,  -522679221,  1052816698, -1172526969,
];

/// The seed of the SplitMix64 stream that fills [`ZOBRIST`].
pub const ZOBRIST_SEED: u64 = 0x6b69_6675_6465_7831; // "kifudex1"

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

const fn zobrist_table() -> [[u128; MAX_POINTS]; 2] {
    let mut table = [[0u128; MAX_POINTS]; 2];
    let mut state = ZOBRIST_SEED;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < MAX_POINTS {
            let (s1, hi) = splitmix64(state);
            let (s2, lo) = splitmix64(s1);
            state = s2;
            table[c][i] = ((hi as u128) << 64) | lo as u128;
            i += 1;
        }
        c += 1;
    }
    table
}

/// The Zobrist values: `ZOBRIST[colour index][y * 19 + x]`.
pub static ZOBRIST: [[u128; MAX_POINTS]; 2] = zobrist_table();

/// bGo's value of a stone of `color` at point index `index19` (signed: white subtracts).
#[inline(always)]
pub fn bgo_value(color: Color, index19: usize) -> i64 {
    let v = BGO_TABLE.get(index19).copied().unwrap_or(0) as i64;
    match color {
        Color::Black => v,
        Color::White => -v,
    }
}

/// The Zobrist value of a stone of `color` at point index `index19`.
#[inline(always)]
pub fn zobrist_value(color: Color, index19: usize) -> u128 {
    ZOBRIST[color.index()].get(index19).copied().unwrap_or(0)
}

/// bGo's hash of a position under each of the 8 transforms (`0` where a transform is
/// not valid for a rectangular board).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BgoHashes(pub [i64; 8]);

/// A 128-bit position key (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Key(pub u128);

/// The Zobrist key of a position under each of the 8 transforms (`0` where a transform
/// is not valid for a rectangular board).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Keys(pub [u128; 8]);

/// The value mixed into canonical keys so that boards of different sizes never share one.
#[inline]
pub fn size_salt(size: Size) -> u128 {
    let (_, a) = splitmix64(ZOBRIST_SEED ^ ((size.width() as u64) << 8 | size.height() as u64));
    let (_, b) = splitmix64(a);
    ((a as u128) << 64) | b as u128
}

impl BgoHashes {
    /// Adds (`sign` = +1) or removes (`sign` = -1) a stone at `p` on a board of `size`.
    #[inline(always)]
    pub fn toggle(&mut self, color: Color, p: Point, size: Size, sign: i64) {
        for (t, h) in self.0.iter_mut().enumerate() {
            let tr = Transform::ALL[t];
            if tr.valid_for(size) {
                let q = tr.apply_unchecked(p, size);
                *h += sign * bgo_value(color, q.index19() as usize);
            }
        }
    }

    /// The hashes computed from scratch from row-major cells (`y * width + x`).
    pub fn of_cells(size: Size, cells: &[Stone]) -> BgoHashes {
        let mut h = BgoHashes::default();
        for_each_stone(size, cells, |c, p| h.toggle(c, p, size, 1));
        h
    }

    /// The hashes of the colour-swapped position.
    #[inline]
    pub fn swapped(self) -> BgoHashes {
        let mut out = self;
        for h in out.0.iter_mut() {
            *h = -*h;
        }
        out
    }
}

impl Keys {
    /// Adds or removes (XOR either way) a stone at `p` on a board of `size`.
    #[inline(always)]
    pub fn toggle(&mut self, color: Color, p: Point, size: Size) {
        for (t, k) in self.0.iter_mut().enumerate() {
            let tr = Transform::ALL[t];
            if tr.valid_for(size) {
                let q = tr.apply_unchecked(p, size);
                *k ^= zobrist_value(color, q.index19() as usize);
            }
        }
    }

    /// The keys computed from scratch from row-major cells (`y * width + x`).
    pub fn of_cells(size: Size, cells: &[Stone]) -> Keys {
        let mut k = Keys::default();
        for_each_stone(size, cells, |c, p| k.toggle(c, p, size));
        k
    }

    /// The canonical key of the position on a board of `size`: the smallest key over the
    /// valid transforms, mixed with the size, and the first transform that gives it (the
    /// one that maps the position onto its canonical orientation).
    pub fn canonical(&self, size: Size) -> (Key, Transform) {
        let mut best = (u128::MAX, Transform::IDENTITY);
        let mut first = true;
        for &t in Transform::all_for(size) {
            let k = self.0[t.index()];
            if first || k < best.0 {
                best = (k, t);
                first = false;
            }
        }
        (Key(best.0 ^ size_salt(size)), best.1)
    }
}

/// What a lookup needs of one position, computed once from its stones instead of kept up
/// to date stone by stone: bGo's hash (identity) and the canonical key with its transform,
/// equal to what [`BgoHashes`] and [`Keys::canonical`] give.
///
/// The canonical orientation is chosen on the top 32 bits of the 8 keys (one 32-bit XOR
/// per stone and transform); only the chosen key, and the keys of transforms tied on those
/// bits (a symmetric position, or a 1 in 2^32 chance), are computed in full. On a Cortex-M4
/// this costs about a sixth of keeping the 8 hashes and 8 keys of every stone played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PositionKey {
    /// bGo's hash under the identity (the one shown to users).
    pub bgo: i64,
    /// The canonical key, as [`Keys::canonical`] gives it.
    pub key: Key,
    /// The transform onto the canonical orientation, as [`Keys::canonical`] gives it.
    pub to_canonical: Transform,
    /// The valid transforms whose keys agree with the identity's on their top 32 bits: the
    /// position's symmetries are among them (see `Board::symmetries_among`).
    pub maybe_symmetric: TransformSet,
}

/// The top 32 bits of the Zobrist value `i` of one colour's table.
#[inline(always)]
fn top32(z: &[u128; MAX_POINTS], i: u32) -> u32 {
    z.get(i as usize).map_or(0, |v| (*v >> 96) as u32)
}

/// Calls `f(x, y, hm - y)` for every point of `set`, row by row (`hm`: the last row).
#[inline(always)]
fn each_stone(set: &PointSet, hm: u32, mut f: impl FnMut(u32, u32, u32)) {
    for (y, &row) in set.rows().iter().enumerate() {
        let y = y as u32;
        let ry = hm.wrapping_sub(y);
        let mut r = row;
        while r != 0 {
            let x = r.trailing_zeros();
            r &= r - 1;
            f(x, y, ry);
        }
    }
}

/// The top 32 bits of the keys of one colour's stones (`z`: its Zobrist values) under
/// four transforms: with `SWAP` false those keeping the axes (0, 1, 2, 4) and bGo's sum of
/// the stones (identity), with `SWAP` true those exchanging them (3, 5, 6, 7; the sum is 0).
#[inline(always)]
fn top_bits<const SWAP: bool>(
    set: &PointSet,
    z: &[u128; MAX_POINTS],
    wm: u32,
    hm: u32,
) -> ([u32; 4], i64) {
    let (mut a, mut b, mut c, mut d) = (0u32, 0u32, 0u32, 0u32);
    let mut sum = 0i64;
    each_stone(set, hm, |x, y, ry| {
        let rx = wm.wrapping_sub(x);
        if SWAP {
            a ^= top32(z, rx * 19 + y);
            b ^= top32(z, x * 19 + ry);
            c ^= top32(z, x * 19 + y);
            d ^= top32(z, rx * 19 + ry);
        } else {
            let i = y * 19 + x;
            sum += BGO_TABLE.get(i as usize).map_or(0, |&v| v as i64);
            a ^= top32(z, i);
            b ^= top32(z, y * 19 + rx);
            c ^= top32(z, ry * 19 + x);
            d ^= top32(z, ry * 19 + rx);
        }
    });
    ([a, b, c, d], sum)
}

/// Point index of `(x, y)` under transform `t` (`rx`, `ry`: the mirrored coordinates), as
/// [`Keys::toggle`] places it.
#[inline(always)]
fn index_under(t: usize, x: u32, y: u32, rx: u32, ry: u32) -> u32 {
    match t {
        0 => y * 19 + x,
        1 => y * 19 + rx,
        2 => ry * 19 + x,
        3 => rx * 19 + y,
        4 => ry * 19 + rx,
        5 => x * 19 + ry,
        6 => x * 19 + y,
        _ => rx * 19 + ry,
    }
}

/// The Zobrist key of the stones under transform `T` (a pass over the stones with the
/// transform's point mapping compiled in).
fn full_key_under<const T: usize>(sets: &[&PointSet; 2], wm: u32, hm: u32) -> u128 {
    let mut key = 0u128;
    for (set, z) in sets.iter().zip(&ZOBRIST) {
        each_stone(set, hm, |x, y, ry| {
            let i = index_under(T, x, y, wm.wrapping_sub(x), ry);
            key ^= z.get(i as usize).copied().unwrap_or(0);
        });
    }
    key
}

/// [`full_key_under`] for a transform known at run time.
fn full_key(t: Transform, sets: &[&PointSet; 2], wm: u32, hm: u32) -> u128 {
    match t.index() {
        0 => full_key_under::<0>(sets, wm, hm),
        1 => full_key_under::<1>(sets, wm, hm),
        2 => full_key_under::<2>(sets, wm, hm),
        3 => full_key_under::<3>(sets, wm, hm),
        4 => full_key_under::<4>(sets, wm, hm),
        5 => full_key_under::<5>(sets, wm, hm),
        6 => full_key_under::<6>(sets, wm, hm),
        _ => full_key_under::<7>(sets, wm, hm),
    }
}

impl PositionKey {
    /// The key of the position with `black` and `white` stones on a board of `size`.
    pub fn of_stones(black: &PointSet, white: &PointSet, size: Size) -> PositionKey {
        let wm = (size.width() as u32).wrapping_sub(1);
        let hm = (size.height() as u32).wrapping_sub(1);
        let square = size.is_square();
        let sets = [black, white];
        if black.is_empty() && white.is_empty() {
            // All keys 0: every valid transform ties, the identity wins.
            return PositionKey {
                bgo: 0,
                key: Key(size_salt(size)),
                to_canonical: Transform::IDENTITY,
                maybe_symmetric: TransformSet::valid_for(size),
            };
        }
        // bGo's hash and the top 32 bits of the key under every transform: four
        // transforms per pass over one colour's stones, so that the sums stay in
        // registers on a Cortex-M.
        let mut top = [0u32; 8];
        let mut bgo = 0i64;
        for (c, (set, z)) in sets.iter().zip(&ZOBRIST).enumerate() {
            let (axes, sum) = top_bits::<false>(set, z, wm, hm);
            bgo += if c == 0 { sum } else { -sum };
            let swapped = if square {
                top_bits::<true>(set, z, wm, hm).0
            } else {
                [0; 4]
            };
            for (k, v) in [0, 1, 2, 4].into_iter().zip(axes) {
                if let Some(t) = top.get_mut(k) {
                    *t ^= v;
                }
            }
            for (k, v) in [3, 5, 6, 7].into_iter().zip(swapped) {
                if let Some(t) = top.get_mut(k) {
                    *t ^= v;
                }
            }
        }
        let valid = Transform::all_for(size);
        let low = valid.iter().map(|t| top[t.index() & 7]).min().unwrap_or(0);
        let mut maybe_symmetric = TransformSet(0);
        let mut tied = TransformSet(0);
        for &t in valid {
            if top[t.index() & 7] == top[0] {
                maybe_symmetric = maybe_symmetric.with(t);
            }
            if top[t.index() & 7] == low {
                tied = tied.with(t);
            }
        }
        // The full keys of the transforms tied on the top bits (usually one, whose key
        // is needed anyway); the smallest wins, the first of equal ones (a symmetric
        // position), as in `Keys::canonical`.
        let mut best: Option<(u128, Transform)> = None;
        for t in tied.iter() {
            let k = full_key(t, &sets, wm, hm);
            if best.is_none_or(|(b, _)| k < b) {
                best = Some((k, t));
            }
        }
        let (k, to_canonical) = best.unwrap_or((0, Transform::IDENTITY));
        PositionKey {
            bgo,
            key: Key(k ^ size_salt(size)),
            to_canonical,
            maybe_symmetric,
        }
    }
}

/// Calls `f(colour, point)` for every stone of row-major `cells` on a board of `size`.
fn for_each_stone(size: Size, cells: &[Stone], mut f: impl FnMut(Color, Point)) {
    let w = size.width() as usize;
    for (i, s) in cells.iter().take(size.points()).enumerate() {
        if let Some(c) = s.color() {
            f(c, Point::new((i % w) as u8, (i / w) as u8));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_point_golden() {
        // docs/HASH.md (bGo's published value): B jj hashes to 124446377 under all eight transforms.
        let mut h = BgoHashes::default();
        h.toggle(Color::Black, Point::new(9, 9), Size::STANDARD, 1);
        assert_eq!(h.0, [124446377; 8]);
        assert_eq!(h.swapped().0, [-124446377; 8]);
        h.toggle(Color::Black, Point::new(9, 9), Size::STANDARD, -1);
        assert_eq!(h.0, [0; 8]);
    }

    #[test]
    fn zobrist_values_distinct() {
        let mut all: [u128; 722] = [0; 722];
        for c in 0..2 {
            for i in 0..MAX_POINTS {
                all[c * MAX_POINTS + i] = ZOBRIST[c][i];
            }
        }
        all.sort_unstable();
        assert!(all.windows(2).all(|w| w[0] != w[1]));
    }
}
