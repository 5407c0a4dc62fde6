#![no_main]
//! Fuzz target `web`: [`kifudex_tests::fuzz::web_query`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifudex_tests::fuzz::web_query(data));
