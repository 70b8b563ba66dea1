//! Kalah's search hooks: moves that earn another move first, nearest the store first.

use super::Searchable;
use super::eval::Evaluator;
use crate::game::kalah::{Kalah, KalahMove};
use crate::game::{Game, MoveList, Side};

impl Searchable for Kalah {
    fn order_moves(&self, moves: &mut MoveList<KalahMove>, _depth: i32, _: &Evaluator) {
        let pits = usize::from(self.rules().pits);
        let first = if self.side_to_move() == Side::First {
            0
        } else {
            pits + 1
        };
        let board = self.board();
        moves.sort_by_key(|mv| {
            let pit = usize::from(mv.number());
            let distance = pits + 1 - pit;
            let extra_turn = usize::from(board[first + pit - 1]) % (2 * pits + 1) == distance;
            (!extra_turn, distance)
        });
    }
}
