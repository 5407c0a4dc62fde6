//! Printing the explorer's answers: one printer per output format, as JSON for programs
//! ([`json`]) and as text for people ([`text`]), and the counts in words that the build
//! summary and `kifudex info` share ([`numbers`]).

pub mod json;
pub mod numbers;
pub mod text;
