#![no_main]
//! Fuzz target `sealed`: [`kifudex_tests::fuzz::sealed`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifudex_tests::fuzz::sealed(data));
