//! Othello's search hooks: move ordering (docs/algorithms.md §003's static square order, and fewest
//! opponent replies first deeper in the tree) and the hand-over to the endgame solver.

use std::sync::OnceLock;

use super::eval::Evaluator;
use super::eval::weights::ordering_term;
use super::{Searchable, SolverContext, Thresholds, othello_endgame};
use crate::game::othello::geometry::{Shift, neighbours, squares};
use crate::game::othello::{Geometry, Othello, OthelloMove};
use arrayvec::ArrayVec;

use crate::game::othello::movegen::{flips, legal_moves};
use crate::game::{GameMove, MAX_MOVES, MoveList};

/// From this remaining depth on, moves are ordered by the opponent's mobility after them.
const FASTEST_FIRST_DEPTH: i32 = 3;

/// From this remaining depth on, the trained evaluation after each move orders too (8x8).
const EVAL_ORDER_DEPTH: i32 = 5;

/// Static order classes, best first (docs/algorithms.md §003): corners, edges away from corners, the
/// inner board, the ring next to the edge, squares next to corners, X-squares last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
enum SquareClass {
    Corner,
    Edge,
    Inner,
    SecondRing,
    NextToCorner,
    XSquare,
}

/// How many [`SquareClass`]es there are.
const SQUARE_CLASSES: usize = SquareClass::XSquare as usize + 1;

/// Per-geometry data for move ordering, computed once.
pub(super) struct OrderTables {
    /// The static priority (lower first) of each square.
    pub(super) priority: [u8; 64],
    /// The corners (unflippable squares).
    corners: u64,
    /// The squares of each static class, best class first.
    classes: [u64; SQUARE_CLASSES],
}

pub(super) fn order_tables(geometry: Geometry) -> &'static OrderTables {
    static TABLES: OnceLock<Vec<OrderTables>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        Geometry::ALL
            .iter()
            .map(|&g| {
                let priority = priority_table(g);
                OrderTables {
                    classes: std::array::from_fn(|class| {
                        squares(g.mask())
                            .filter(|&sq| usize::from(priority[sq as usize]) == class)
                            .fold(0, |acc, sq| acc | 1 << sq)
                    }),
                    priority,
                    corners: g.corners(),
                }
            })
            .collect()
    });
    let index = Geometry::ALL
        .iter()
        .position(|&g| g == geometry)
        .unwrap_or(0);
    &tables[index]
}

fn priority_table(geometry: Geometry) -> [u8; 64] {
    let mask = geometry.mask();
    let corners = geometry.corners();
    // Squares with a neighbour off the board (in any of the eight directions).
    let edge = squares(mask)
        .map(|sq| 1u64 << sq)
        .filter(|&bit| {
            Shift::LINES
                .iter()
                .any(|&(a, b)| a.apply(bit) & mask == 0 || b.apply(bit) & mask == 0)
        })
        .fold(0, |acc, bit| acc | bit);
    let next_to_corner = neighbours(corners) & mask & !corners;
    let x_squares = next_to_corner & !edge;
    let second_ring = neighbours(edge) & mask & !edge;
    let mut table = [u8::MAX; 64];
    for sq in squares(mask) {
        let bit = 1u64 << sq;
        let class = if corners & bit != 0 {
            SquareClass::Corner
        } else if x_squares & bit != 0 {
            SquareClass::XSquare
        } else if next_to_corner & bit != 0 {
            SquareClass::NextToCorner
        } else if edge & bit != 0 {
            SquareClass::Edge
        } else if second_ring & bit != 0 {
            SquareClass::SecondRing
        } else {
            SquareClass::Inner
        };
        table[sq as usize] = class as u8;
    }
    table
}

impl Searchable for Othello {
    fn order_moves(&self, moves: &mut MoveList<OthelloMove>, depth: i32, evaluator: &Evaluator) {
        if moves.len() < 2 {
            return;
        }
        let OrderTables {
            priority,
            corners,
            classes,
        } = order_tables(self.geometry());
        let fastest_first = depth >= FASTEST_FIRST_DEPTH;
        if !fastest_first {
            // The static order alone, class by class and by square within a class: what
            // sorting by the static key gives, without sorting (these nodes are the most
            // numerous). Two or more moves are never a pass.
            let targets = moves
                .iter()
                .filter_map(|mv| mv.index())
                .fold(0u64, |acc, sq| acc | 1 << sq);
            moves.clear();
            for class in classes {
                moves.extend(squares(targets & class).map(OthelloMove::square));
            }
            return;
        }
        let static_key = |mv: OthelloMove| {
            mv.index()
                .map_or(u32::from(u8::MAX), |sq| u32::from(priority[sq as usize]))
        };
        let weights = evaluator
            .patterns_for(self.geometry())
            .filter(|_| depth >= EVAL_ORDER_DEPTH);
        let empties = self.empty().count_ones();
        let (me, opp, empty) = (self.me(), self.opp(), self.empty());
        let mut keyed: ArrayVec<(u32, OthelloMove), MAX_MOVES> = moves
            .iter()
            .map(|&mv| {
                let mut key = static_key(mv);
                if let Some(sq) = mv.index() {
                    // Fewest opponent replies first, a corner reply counting twice;
                    // then the static order.
                    let flipped = flips(sq, me, opp);
                    let placed = 1u64 << sq;
                    let replies =
                        legal_moves(opp & !flipped, me | flipped | placed, empty & !placed);
                    key += (replies.count_ones() + (replies & corners).count_ones()) * 8;
                    if let Some(w) = weights {
                        // The opponent's evaluation after the move, in 1/16 disc, offset
                        // to stay positive.
                        let raw = w.raw(opp & !flipped, me | flipped | placed, empties - 1);
                        key = key * 16 + ordering_term(raw);
                    }
                }
                (key << 8 | u32::from(mv.to_byte()), mv)
            })
            .collect();
        keyed.sort_unstable_by_key(|&(key, _)| key);
        moves.clear();
        moves.extend(keyed.into_iter().map(|(_, mv)| mv));
    }

    fn solve_endgame(
        &self,
        depth: i32,
        alpha: i32,
        beta: i32,
        thresholds: &Thresholds,
        ctx: &mut SolverContext<'_>,
    ) -> Option<i32> {
        let empties = self.empty().count_ones();
        // Passes count as plies, so only 2 * empties plies surely reach the end.
        (empties <= thresholds.small_solver_empties && depth >= 2 * empties as i32)
            .then(|| othello_endgame::solve_in(self, alpha, beta, ctx))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Start};

    #[test]
    fn corners_first_x_squares_last() {
        let p = &order_tables(Geometry::Board8x8).priority;
        assert_eq!(p[0], SquareClass::Corner as u8);
        assert_eq!(p[9], SquareClass::XSquare as u8);
        assert_eq!(p[1], SquareClass::NextToCorner as u8);
        assert_eq!(p[2], SquareClass::Edge as u8);
        assert_eq!(p[27], SquareClass::Inner as u8);
        assert_eq!(p[10], SquareClass::SecondRing as u8);
    }

    #[test]
    fn ordering_keeps_the_moves() {
        let p = Othello::start(Geometry::Board8x8, Start::Standard);
        let mut moves = MoveList::new();
        p.generate_moves(&mut moves);
        let mut ordered = moves.clone();
        p.order_moves(&mut ordered, 5, &Evaluator::Hand);
        ordered.sort_by_key(|m| m.to_byte());
        assert_eq!(ordered, moves);
    }
}
