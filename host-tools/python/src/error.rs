//! `kifudex.Error`: what kifudex refused, with the command line's message.

use pyo3::PyErr;

pyo3::create_exception!(
    kifudex,
    Error,
    pyo3::exceptions::PyException,
    "A question or build that kifudex refused: the message is the command line's."
);

/// A `kifudex.Error` with `message`.
pub fn error(message: impl Into<String>) -> PyErr {
    Error::new_err(message.into())
}
