//! Helpers shared by the workspace-level integration tests.

pub mod naive;
