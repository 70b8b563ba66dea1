//! Othello's search hooks: move ordering (docs/algorithms.md §003's static square order, and fewest
//! opponent replies first deeper in the tree), Multi-ProbCut's predictions
//! (docs/selectivity.md) and the hand-over to the endgame solver.

pub mod endgame;
pub mod eval;
mod frontier;
mod order;
pub mod probcut;

use std::sync::OnceLock;

use arrayvec::ArrayVec;

use super::probcut::{Prediction, shallow_depth};
use super::{Algorithm, Horizon, INFINITY, Searchable, SolverContext, Thresholds, horizon_value};
use crate::game::othello::geometry::squares;
use crate::game::othello::movegen::{both_legal_moves, flips, legal_moves};
use crate::game::othello::{Geometry, Othello, OthelloMove};
use crate::game::{Game, GameMove, MAX_MOVES, MoveList};
use eval::Evaluator;
use eval::weights::ordering_term;
use order::{OrderTables, order_tables};
use probcut::{EndModel, SigmaModel, end_shallow_depth};

/// From this remaining depth on, moves are ordered by the opponent's mobility after them.
const FASTEST_FIRST_DEPTH: i32 = 3;

/// From this remaining depth on, the trained evaluation after each move orders too (8x8;
/// its linear sum): in selective searches from depth 3, 0.88x the time to depth 24 at 58%
/// (0.90-0.94x at 87% and 58% from depth 16; +26.1 Elo at 100 ms a move); at full width
/// from depth 5, where depth 3 takes 1.10x the time to depth 14
/// (docs/benchmarks-journal.md, session 72).
const fn eval_order_depth(selective: bool) -> i32 {
    if selective { FASTEST_FIRST_DEPTH } else { 5 }
}

/// Key units per 1/16 disc of that evaluation: a reply fewer for the opponent (128 units)
/// weighs as much as one disc (docs/benchmarks-journal.md: 0.93x the nodes at 87% to depth 16
/// against four discs, which the solver keeps: its ordering needs them).
const EVAL_ORDER_WEIGHT: i32 = 8;

/// Whether searches on `geometry` with `evaluator` can be selective: the model was fitted
/// to the trained evaluation's searches on 8x8.
#[must_use]
pub fn has_probcut_model(geometry: Geometry, evaluator: &Evaluator) -> bool {
    evaluator.patterns_for(geometry).is_some()
}

/// Fewest empty squares at which a probable solve predicts a node instead of proving
/// it: below, the exact solver costs little more than the prediction, and cuts there
/// made most of the errors (docs/selectivity.md: 12 gave three times the wrong scores).
const PROBABLE_MIN_EMPTIES: u32 = 16;

/// Fewest empty squares at which a probable solve is made before the proof: with fewer,
/// the exact solve alone is faster (docs/selectivity.md).
const PROBABLE_ROOT_EMPTIES: u32 = 19;

/// Makes what Othello's searches read once (the shipped weights, Multi-ProbCut's models,
/// the move-ordering tables) now rather than at the first search, so that the first move
/// of a game under a clock gets its time.
pub fn warm_up() {
    let _ = Evaluator::default().patterns_for(Geometry::Board8x8);
    let _ = model();
    let _ = end_model();
    let _ = order_tables(Geometry::Board8x8);
}

/// The shipped Multi-ProbCut model, read once.
fn model() -> &'static SigmaModel {
    static MODEL: OnceLock<SigmaModel> = OnceLock::new();
    MODEL.get_or_init(SigmaModel::builtin)
}

/// The shipped model of probable solves, read once.
fn end_model() -> &'static EndModel {
    static MODEL: OnceLock<EndModel> = OnceLock::new();
    MODEL.get_or_init(EndModel::builtin)
}

impl Othello {
    /// [`Searchable::horizon`] of a leaf searched with the window `(lo, hi)`, fail-soft:
    /// where the evaluation's network cannot bring its linear value into the window, a
    /// bound beyond the window instead of the evaluation
    /// ([`PatternWeights::evaluate_within`](eval::PatternWeights::evaluate_within)).
    #[inline]
    pub(super) fn horizon_within(&self, evaluator: &Evaluator, lo: i32, hi: i32) -> Horizon {
        let Some(weights) = evaluator.patterns_for(self.geometry()) else {
            return horizon_value(self, evaluator);
        };
        let moves = self.both_moves();
        if moves == [0, 0] {
            Horizon::End(self.final_score())
        } else {
            Horizon::Estimate(weights.evaluate_within(self, moves, lo, hi))
        }
    }
}

impl Searchable for Othello {
    /// NegaScout at the root, in an aspiration window: at 100 ms a move +12.2 Elo over
    /// MTD(f) (1,600 games, SPRT H1), 0.94x the time to depth 22 at 58%. MTD(f)'s repeated
    /// passes evaluate the same leaves again, and the trained evaluation is half the
    /// search's time (docs/benchmarks.md).
    const DEFAULT_ALGORITHM: Algorithm = Algorithm::NegaScout;

    /// With the trained evaluation, which reads both sides' moves, those moves also tell
    /// whether the game is over: found once.
    fn horizon(&self, evaluator: &Evaluator) -> Horizon {
        self.horizon_within(evaluator, -INFINITY, INFINITY)
    }

    fn order_moves(
        &self,
        moves: &mut MoveList<OthelloMove>,
        depth: i32,
        selective: bool,
        evaluator: &Evaluator,
    ) {
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
            .filter(|_| depth >= eval_order_depth(selective));
        let empties = self.empty().count_ones();
        let (me, opp, empty) = (self.me(), self.opp(), self.empty());
        let mut keyed: ArrayVec<u32, MAX_MOVES> = moves
            .iter()
            .map(|&mv| {
                let mut key = static_key(mv);
                if let Some(sq) = mv.index() {
                    // Fewest opponent replies first, a corner reply counting twice;
                    // then the static order.
                    let flipped = flips(sq, me, opp);
                    let placed = 1u64 << sq;
                    let (next_me, next_opp) = (opp & !flipped, me | flipped | placed);
                    let after = empty & !placed;
                    // Both sides' moves where the evaluation orders too (it reads both).
                    let moves = match weights {
                        Some(_) => both_legal_moves(next_me, next_opp, after),
                        None => [legal_moves(next_me, next_opp, after), 0],
                    };
                    let replies = moves[0];
                    key += (replies.count_ones() + (replies & corners).count_ones()) * 8;
                    if let Some(w) = weights {
                        // The opponent's evaluation after the move, in 1/16 disc, offset
                        // to stay positive.
                        let raw = w.raw_with_moves(next_me, next_opp, empties - 1, moves);
                        key = key * 16 + ordering_term(raw, EVAL_ORDER_WEIGHT);
                    }
                }
                key << 8 | u32::from(mv.to_byte())
            })
            .collect();
        // A key carries its move in its low byte: sorting the bare keys sorts the moves
        // (and ties cannot occur), which is cheaper than sorting pairs.
        keyed.sort_unstable();
        moves.clear();
        moves.extend(keyed.iter().map(|&key| OthelloMove::from_byte(key as u8)));
    }

    fn probable_solve_pays(&self, evaluator: &Evaluator) -> bool {
        has_probcut_model(self.geometry(), evaluator)
            && self.empty().count_ones() >= PROBABLE_ROOT_EMPTIES
    }

    /// A heuristic search's prediction two plies or more short of the end (the model was
    /// fitted there), or a probable solve's, where the search goes to the end.
    fn probcut(&self, depth: i32, evaluator: &Evaluator) -> Option<Prediction> {
        if !has_probcut_model(self.geometry(), evaluator) {
            return None;
        }
        let empties = self.empty().count_ones();
        let e = empties as i32;
        if depth <= e - 2 {
            let shallow = shallow_depth(depth);
            Some(Prediction {
                shallow,
                sigma: model().sigma(empties as f32, depth, shallow),
            })
        } else if depth >= 2 * e && empties >= PROBABLE_MIN_EMPTIES {
            Some(Prediction {
                shallow: end_shallow_depth(empties),
                sigma: end_model().sigma(empties as f32),
            })
        } else {
            None
        }
    }

    fn frontier(
        &self,
        alpha: i32,
        beta: i32,
        scout: bool,
        ctx: &mut SolverContext<'_>,
        evaluator: &Evaluator,
    ) -> Option<i32> {
        frontier::frontier(self, alpha, beta, scout, ctx, evaluator)
    }

    fn solve_endgame(
        &self,
        depth: i32,
        alpha: i32,
        beta: i32,
        thresholds: &Thresholds,
        ctx: &mut SolverContext<'_>,
        evaluator: &Evaluator,
    ) -> Option<i32> {
        let empties = self.empty().count_ones();
        // Passes count as plies, so only 2 * empties plies surely reach the end.
        (empties <= thresholds.small_solver_empties && depth >= 2 * empties as i32)
            .then(|| endgame::solve_in(self, alpha, beta, ctx, evaluator))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::Geometry;
    use crate::game::{Game, Start};

    #[test]
    fn ordering_keeps_the_moves() {
        let p = Othello::start(Geometry::Board8x8, Start::Standard);
        let mut moves = MoveList::new();
        p.generate_moves(&mut moves);
        let mut ordered = moves.clone();
        p.order_moves(&mut ordered, 5, true, &Evaluator::Hand);
        ordered.sort_by_key(|m| m.to_byte());
        assert_eq!(ordered, moves);
    }

    /// Positions of random games to the end, every one of them, ends included.
    pub(super) fn random_game_positions(seed: u64) -> Vec<Othello> {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(seed);
        let mut p = Othello::start(Geometry::Board8x8, Start::Standard);
        let mut out = vec![p];
        while !p.is_terminal() {
            let mut moves = MoveList::new();
            p.generate_moves(&mut moves);
            p = p.play(moves[rng.random_range(0..moves.len())]);
            out.push(p);
        }
        out
    }

    #[test]
    fn the_horizon_is_the_final_score_or_the_evaluation() {
        use crate::search::eval::Evaluate;
        for evaluator in [Evaluator::default(), Evaluator::Hand] {
            for seed in 0..20 {
                for p in random_game_positions(seed) {
                    assert_eq!(p.horizon(&evaluator), horizon_value(&p, &evaluator));
                    let expected = if p.is_terminal() {
                        Horizon::End(p.final_score())
                    } else {
                        Horizon::Estimate(p.evaluate(&evaluator))
                    };
                    assert_eq!(p.horizon(&evaluator), expected, "{p}");
                }
            }
        }
    }
}
