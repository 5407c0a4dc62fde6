#![no_main]
//! Fuzz target `index`: [`kifudex_tests::fuzz::index`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifudex_tests::fuzz::index(data));
