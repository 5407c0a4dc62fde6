#![no_main]
//! Fuzz target `sgf`: [`kifudex_tests::fuzz::sgf_reader`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifudex_tests::fuzz::sgf_reader(data));
