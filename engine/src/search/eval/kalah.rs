//! Kalah's evaluation: the difference of the stores, as in docs/algorithms.md §001.

use super::{Evaluate, Evaluator};
use crate::game::Game;
use crate::game::kalah::Kalah;

impl Evaluate for Kalah {
    fn evaluate(&self, _: &Evaluator) -> i32 {
        let side = self.side_to_move();
        self.store(side) as i32 - self.store(side.opponent()) as i32
    }
}
