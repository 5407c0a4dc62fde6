#![no_main]
//! Fuzz target `hints`: [`kifudex_tests::fuzz::hints_lines`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifudex_tests::fuzz::hints_lines(data));
