//! Kalah's evaluation: the difference of the stores, as in docs/algorithms.md §001.

use std::sync::Arc;

use crate::game::Game;
use crate::game::kalah::Kalah;
use crate::search::eval::Evaluate;
use crate::search::kalah::KalahDatabase;

impl Evaluate for Kalah {
    /// The endgame database, if the search has one (used for the rules it was built for).
    type Resources = Option<Arc<KalahDatabase>>;

    fn evaluate(&self, _: &Self::Resources) -> i32 {
        let side = self.side_to_move();
        self.store(side) as i32 - self.store(side.opponent()) as i32
    }
}
