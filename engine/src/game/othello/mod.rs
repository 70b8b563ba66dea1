//! Othello (Reversi) on bitboards, for every supported board geometry.

pub mod eval;
pub mod geometry;
pub mod movegen;
mod position;

pub use geometry::Geometry;
pub use position::{Othello, OthelloMove};
