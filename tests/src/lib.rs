//! Helpers shared by the workspace-level integration tests, and the synthetic collections of
//! the scale benchmark.

pub mod naive;
pub mod synth;
