#![no_main]
//! Fuzz target `gtp`: [`kifudex_tests::fuzz::gtp`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifudex_tests::fuzz::gtp(data));
