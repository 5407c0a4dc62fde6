#![no_main]
//! Fuzz target `archive`: [`kifudex_tests::fuzz::archive`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifudex_tests::fuzz::archive(data));
