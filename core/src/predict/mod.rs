//! The move predictor: for a position the book does not know, the moves a strong player
//! would most likely play, ranked by learnt weights of local features.
//!
//! The model is Coulom's (2007) generalized Bradley-Terry model: every feature value `i`
//! has a strength `gamma_i`; a candidate move's strength is the product of the strengths
//! of its features (its local pattern, the largest one the model knows, and the tactical
//! and distance features of [`features`]); the probability that a move is played is its
//! strength over the sum of all legal candidates' strengths. The desktop learns the
//! strengths by minorization-maximization; the core ranks with their logarithms, in
//! integers.
//!
//! - [`shape`]: the pattern geometry (rings, symmetries, Zobrist values);
//! - [`features`]: a position analysed once, the features of each candidate;
//! - [`rank`]: candidates ranked by a model's integer log-strengths;
//! - [`table`]: the learnt table as a book stores it.

pub mod features;
pub mod rank;
pub mod shape;
pub mod table;

pub use features::{Analysis, Features, Group, History};
pub use rank::{best, score, Guess, Weights, MAX_GUESSES};
pub use table::{Predictor, PredictorHeader};
