//! Hostile files for the readers' tests: a container re-sealed with correct checksums
//! around edited bytes, and packed records patched bit by bit (without the core's codecs,
//! so that the tests do not trust what they test).

use kifudex_core::format::{align8, Container, Kind, Section};

/// A file with correct checksums around `header` and `body`.
pub fn seal(kind: Kind, header: &[u8], body: &[u8]) -> Vec<u8> {
    let mut f = Container::preamble(kind, header, body).to_vec();
    f.extend_from_slice(header);
    f.resize(align8(f.len()), 0);
    f.extend_from_slice(body);
    f
}

/// Sets `bits` bits at bit `shift` of record `i` of the packed section `sec` to `value`.
pub fn set_bits(body: &mut [u8], sec: &Section, i: u64, shift: u32, bits: u32, value: u64) {
    let base = sec.offset * 8 + i * sec.width_bits as u64 + shift as u64;
    for b in 0..bits as u64 {
        let bit = base + b;
        let byte = &mut body[(bit / 8) as usize];
        let m = 1u8 << (bit % 8);
        if value >> b & 1 == 1 {
            *byte |= m;
        } else {
            *byte &= !m;
        }
    }
}

/// The `bits` bits at bit `shift` of record `i` of the packed section `sec`.
pub fn get_bits(body: &[u8], sec: &Section, i: u64, shift: u32, bits: u32) -> u64 {
    let base = sec.offset * 8 + i * sec.width_bits as u64 + shift as u64;
    (0..bits as u64).fold(0, |v, b| {
        let bit = base + b;
        v | (((body[(bit / 8) as usize] >> (bit % 8)) & 1) as u64) << b
    })
}
