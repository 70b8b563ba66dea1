//! Heuristic evaluation: what a search scores a position with when it stops before the end
//! of the game. The rules know nothing of it; each game's evaluation is one file here.

mod kalah;
pub mod othello;

use crate::game::Game;

/// A game the searches can evaluate.
pub trait Evaluate: Game {
    /// Heuristic value from the side to move, on the same scale as [`Game::final_score`].
    fn evaluate(&self) -> i32;
}
