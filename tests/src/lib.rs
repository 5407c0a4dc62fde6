//! Helpers shared by the workspace-level integration tests, the synthetic collections of
//! the scale benchmark, and the check of the architecture's layers.

pub mod layers;
pub mod naive;
pub mod synth;
