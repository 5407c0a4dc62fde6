//! kifudex from Python: the extension module `kifudex._kifudex`, which the package
//! `kifudex` (its pure-Python part and type stubs are in `python/kifudex/`) re-exports.
//!
//! A front end like the command line: it reads Python's arguments into the explorer's
//! requests (`args.rs`), asks the explorer of an opened index (`index.rs`) or runs the
//! builder (`builder.rs`), and answers with what `kifudex ... --json` prints, as
//! Python dicts and lists. Long work runs with the GIL released; a refusal raises
//! `kifudex.Error` with the command line's message. `docs/PYTHON.md` documents the API.
//!
//! Everything is behind the feature `python`, which maturin turns on: the workspace's own
//! builds compile an empty library here, and never PyO3 (see `Cargo.toml`).
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg(feature = "python")]

mod args;
mod builder;
mod error;
mod index;

use std::path::PathBuf;

use pyo3::prelude::*;

use error::Error;

/// Opens the index file at `path` (memory-mapped: time independent of its size) and
/// returns a `kifudex.Index` that answers the command line's questions.
#[pyfunction]
fn open(path: PathBuf) -> PyResult<index::Index> {
    index::Index::open(path)
}

/// The extension module.
#[pymodule]
fn _kifudex(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(builder::build, m)?)?;
    m.add_class::<index::Index>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
