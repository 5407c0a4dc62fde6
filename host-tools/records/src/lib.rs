//! kifudex's records: what a collection of Go games holds, read before any index exists.
//! SGF (and the GIB, NGF and UGF formats) read into core `Event`s and written back
//! ([`sgf`]), inputs in a fixed order from files, folders and archives ([`input`]), players'
//! ranks on one scale ([`rank`]), counts in words ([`numbers`]) and positions as users state
//! them ([`position`]). It knows no index: the builder and the explorer are crates above it.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod input;
pub mod numbers;
pub mod position;
pub mod rank;
pub mod sgf;
