//! Helpers shared by the workspace-level integration tests, the synthetic collections of
//! the scale benchmark, the check of the architecture's layers, and the bodies of the
//! fuzz targets (`fuzz/`).

pub mod fuzz;
pub mod layers;
pub mod naive;
pub mod synth;
