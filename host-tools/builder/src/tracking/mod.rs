//! Hints measured on tracked games: snapshot streams of real games as an electronic board
//! would send them ([`stream`]), and the measurement of the hint protocol's replies to them
//! (`kifudex predict --eval --streams`, [`eval`]). The harness of the hint front end
//! (`kifudex hints`), not part of it.

pub mod eval;
pub mod stream;
