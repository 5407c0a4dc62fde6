//! Printing the explorer's answers: one printer per output format, as JSON for programs
//! ([`json`]) and as text for people ([`text`]).

pub mod json;
pub mod text;
