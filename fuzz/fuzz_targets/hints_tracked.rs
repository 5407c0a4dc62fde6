#![no_main]
//! Fuzz target `hints_tracked`: [`kifudex_tests::fuzz::hints_tracked`].

libfuzzer_sys::fuzz_target!(|data: &[u8]| kifudex_tests::fuzz::hints_tracked(data));
