//! No input makes the reader panic: random bytes, SGF-like token soup, and random truncations
//! and corruptions of real files.

use kifudex::sgf::parse_file;
use proptest::prelude::*;
use std::path::Path;

fn real_files() -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/tricky");
    let (sources, _) = kifudex::input::collect_sources(&[dir]);
    sources.into_iter().map(|s| s.bytes).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes(b in proptest::collection::vec(any::<u8>(), 0..2000)) {
        let _ = parse_file(&b, "random", None);
    }

    #[test]
    fn token_soup(parts in proptest::collection::vec(prop_oneof![
        Just(&b"("[..]), Just(&b")"[..]), Just(&b";"[..]), Just(&b"["[..]), Just(&b"]"[..]),
        Just(&b"\\"[..]), Just(&b"B"[..]), Just(&b"AB"[..]), Just(&b"SZ[9]"[..]), Just(&b"CA[Shift_JIS]"[..]),
        Just(&b"aa:ss"[..]), Just(&b"\xff\xfe"[..]), Just(&b"\x83"[..]), Just(&b"KM[650]"[..]),
        Just(&b"PlayerBlack"[..]), Just(&b"\0"[..]), Just(&b" \n"[..]), Just(&b"tt"[..]),
    ], 0..300)) {
        let b: Vec<u8> = parts.concat();
        let _ = parse_file(&b, "soup", None);
    }
}

#[test]
fn truncations_and_corruptions_of_real_files() {
    let mut rng = 0x2545F4914F6CDD1Du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for f in real_files() {
        for _ in 0..20 {
            let cut = (next() % (f.len() as u64 + 1)) as usize;
            let _ = parse_file(&f[..cut], "cut", None);
            let mut g = f.clone();
            if !g.is_empty() {
                for _ in 0..4 {
                    let i = (next() % g.len() as u64) as usize;
                    g[i] = b"()[];\\\0\xff"[(next() % 8) as usize];
                }
            }
            let _ = parse_file(&g, "corrupt", None);
        }
    }
}

#[test]
fn very_deep_nesting_does_not_overflow() {
    let mut b = Vec::new();
    for _ in 0..200_000 {
        b.extend_from_slice(b"(;B[aa]");
    }
    let p = parse_file(&b, "deep", None);
    assert_eq!(p.games[0].move_count(), 200_000);
}
