//! The desktop side of kifudex: reading SGF collections, building indexes and books,
//! and presenting searches (command line, shell). The `kifudex` binary is a thin layer
//! over this library.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod input;
pub mod sgf;
