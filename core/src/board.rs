//! Boards (to be filled in).
/// Placeholder.
pub struct Board;
/// Placeholder.
pub struct Rules;
/// Placeholder.
pub enum MoveError {}
