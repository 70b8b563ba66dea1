//! Othello (Reversi) on bitboards, for every supported board geometry.

pub mod geometry;
pub mod last_flips;
pub mod movegen;
mod position;
pub mod stability;
pub mod symmetry;

pub use geometry::Geometry;
pub use position::{Othello, OthelloMove, position_key};
