//! Heuristic evaluation: what a search scores a position with when it stops before the end
//! of the game. The rules know nothing of it; each game's evaluation lives with its search
//! hooks (`othello/eval/`, `kalah/eval.rs`).

use crate::game::Game;

/// A game the searches can evaluate.
pub trait Evaluate: Game {
    /// What only this game's evaluation and search use (Othello: the evaluation, with its
    /// trained weights; Kalah: its endgame database), lent to a search by
    /// [`search_with`](crate::search::search_with); [`search`](crate::search::search) lends
    /// the default.
    type Resources: Default + Send + Sync;

    /// Heuristic value from the side to move, on the same scale as [`Game::final_score`].
    fn evaluate(&self, resources: &Self::Resources) -> i32;
}
