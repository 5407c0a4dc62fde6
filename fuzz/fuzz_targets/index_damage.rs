#![no_main]
//! Fuzz target `index_damage`: [`kifudex_tests::fuzz::index_damage`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifudex_tests::fuzz::index_damage(data));
