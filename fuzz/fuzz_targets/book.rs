#![no_main]
//! Fuzz target `book`: [`kifudex_tests::fuzz::book`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifudex_tests::fuzz::book(data));
