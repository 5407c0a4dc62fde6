#![no_main]
//! Fuzz target `notation`: [`kifudex_tests::fuzz::notation`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifudex_tests::fuzz::notation(data));
