//! Helpers shared by the workspace-level integration tests, the synthetic collections of
//! the scale benchmark, the check of the architecture's layers, the bodies of the
//! fuzz targets (`fuzz/`), and the web server's soak with its HTTP client.

#![warn(missing_docs)]

pub mod fuzz;
pub mod http;
pub mod layers;
pub mod naive;
pub mod soak;
pub mod synth;
