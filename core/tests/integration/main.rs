//! The integration tests of `kifudex-core`, one module per concern, in one test binary (as
//! the other packages do: each test binary is compiled and linked on its own, for the host
//! and again for the big-endian and 32-bit targets of `scripts/test.sh`). Run one module
//! with a filter, e.g. `cargo test -p kifudex-core --test integration board_props::`.

mod board_props;
mod format_golden;
mod hints_props;
mod predict_features;
