#![no_main]
//! Fuzz target `records`: [`kifudex_tests::fuzz::line_records`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifudex_tests::fuzz::line_records(data));
