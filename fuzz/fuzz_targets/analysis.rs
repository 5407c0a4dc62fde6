#![no_main]
//! Fuzz target `analysis`: [`kifudex_tests::fuzz::analysis`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifudex_tests::fuzz::analysis(data));
