//! The root of a search, which is special (docs/algorithms.md §004): it never beta-cuts below the
//! window it was given, it always returns a move, and a move that reaches the top of the
//! window ends the search at once. Also MTD(f)'s passes and the principal variation.

use super::bounds_of;
use super::node::{Searcher, child_depth};
use super::tt::Store;
use super::{Algorithm, INFINITY, MtdfPass, Searchable, Selectivity};

/// The half-width of NegaScout's first window at the root of an iteration (in the game's
/// score units: discs in Othello): about how far an iteration's value strays from the
/// guess.
const ASPIRATION: i32 = 1;

/// What one root search established.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootOutcome<M> {
    /// Fail-soft value: exact inside the window, else a bound.
    pub value: i32,
    /// The move with that value.
    pub best_move: M,
    /// A move after the first one was searched to the end and beat it: even if the search
    /// was stopped, that move is proven better than the first (the previous best).
    pub displaced_first: bool,
}

impl<G: Searchable> Searcher<'_, G> {
    /// Searches every root move in `(alpha, beta)` and returns the best. Stops early only
    /// when a move reaches `beta`: a null-window pass that failed high, or a decisive result.
    /// `moves` is non-empty and ordered; on return, the best move is moved to its front.
    pub(crate) fn root(
        &mut self,
        position: &G,
        moves: &mut [G::Move],
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> RootOutcome<G::Move> {
        self.stats.nodes += 1;
        let heuristic_before = self.stats.heuristic_leaves;
        let mut best = RootOutcome {
            value: -INFINITY,
            best_move: moves[0],
            displaced_first: false,
        };
        let mut best_index = 0;
        for (i, &mv) in moves.iter().enumerate() {
            let child = position.play(mv);
            let v = if self.algorithm == Algorithm::Negamax {
                let d = child_depth(position, &child, depth);
                let v = self.negamax(&child, d);
                if child.side_to_move() == position.side_to_move() {
                    v
                } else {
                    -v
                }
            } else {
                self.child_value(position, &child, depth, alpha.max(best.value), beta, i > 0)
            };
            if self.stopped {
                break;
            }
            if v > best.value {
                best = RootOutcome {
                    value: v,
                    best_move: mv,
                    displaced_first: i > 0,
                };
                best_index = i;
                if v >= beta {
                    break;
                }
            }
        }
        moves[..=best_index].rotate_right(1);
        if self.params.use_tt && !self.stopped && !self.partial_root {
            let (lower, upper) = bounds_of(best.value, alpha, beta);
            self.tt.store(&Store {
                key: position.hash_key(),
                depth,
                lower,
                upper,
                proven: self.stats.heuristic_leaves == heuristic_before,
                selectivity: self.selectivity.rank(),
                best_move: Some(best.best_move),
            });
        }
        if !self.fail_soft {
            best.value = best.value.clamp(alpha, beta);
        }
        best
    }

    /// NegaScout's root in iterative deepening: an aspiration window of
    /// [`ASPIRATION`] around `guess`, the value expected from the last iterations. A
    /// fail-soft result outside it bounds the value; the search is repeated with the window
    /// moved past that bound, twice as wide each time, until the value falls inside or
    /// reaches `floor` or `ceiling` (beyond which values only count as bounds).
    pub(crate) fn aspiration(
        &mut self,
        position: &G,
        moves: &mut [G::Move],
        depth: i32,
        guess: i32,
        (floor, ceiling): (i32, i32),
    ) -> RootOutcome<G::Move> {
        let mut width = ASPIRATION;
        let g = guess.clamp(floor, ceiling);
        let (mut alpha, mut beta) = ((g - width).max(floor), (g + width).min(ceiling));
        // The last search that failed high on a move other than its first: that move is
        // proven better than the previous best even if a later search is stopped.
        let mut displaced = None;
        loop {
            let outcome = self.root(position, moves, depth, alpha, beta);
            if self.stopped {
                return if outcome.displaced_first {
                    outcome
                } else {
                    displaced.unwrap_or(outcome)
                };
            }
            let v = outcome.value;
            let low = v <= alpha && v > floor;
            let high = v >= beta && v < ceiling;
            if !low && !high {
                return outcome;
            }
            if high && outcome.displaced_first {
                displaced = Some(outcome);
            }
            width *= 2;
            (alpha, beta) = if width > ceiling - floor {
                // A selective search's values need not agree between windows: after a few
                // re-searches, the whole window ends the loop.
                (floor, ceiling)
            } else if low {
                ((v - width).max(floor), v + 1)
            } else {
                (v - 1, (v + width).min(ceiling))
            };
        }
    }

    /// MTD(f): null-window passes from the first guess until the interval `[lower, upper]`
    /// known to hold the value closes (docs/algorithms.md §000). Values outside `[floor, ceiling]` only
    /// matter as "at most floor" or "at least ceiling" (a win/loss/draw search uses -1, 1).
    /// `on_pass` sees every pass. The best move is that of the last pass that failed high.
    pub(crate) fn mtdf(
        &mut self,
        position: &G,
        moves: &mut [G::Move],
        depth: i32,
        guess: i32,
        (floor, ceiling): (i32, i32),
        on_pass: &mut dyn FnMut(MtdfPass, std::time::Duration),
    ) -> RootOutcome<G::Move> {
        let (mut lower, mut upper) = (-INFINITY, INFINITY);
        let mut g = guess.clamp(floor, ceiling);
        let mut outcome = RootOutcome {
            value: g,
            best_move: moves[0],
            displaced_first: false,
        };
        let mut failed_high = false;
        while lower < upper && lower < ceiling && upper > floor {
            let bound = if g == lower { g + 1 } else { g };
            let nodes_before = self.stats.nodes;
            let pass = self.root(position, moves, depth, bound - 1, bound);
            if self.stopped {
                break;
            }
            if pass.value < bound {
                upper = pass.value;
                if !failed_high {
                    outcome.best_move = pass.best_move;
                }
            } else {
                lower = pass.value;
                outcome.best_move = pass.best_move;
                failed_high = true;
            }
            g = pass.value;
            outcome.value = g;
            let pass = MtdfPass {
                bound,
                value: pass.value,
                lower,
                upper,
                nodes: self.stats.nodes - nodes_before,
            };
            self.stats.passes.push(pass);
            on_pass(pass, self.stop_check.elapsed());
        }
        if lower == upper {
            outcome.value = lower;
        }
        // A pass that failed low put its own "best" (the highest upper bound) in front:
        // the move the passes found goes there, where the next iteration and the next
        // rank of a multi-PV search expect it.
        if let Some(i) = moves.iter().position(|&m| m == outcome.best_move) {
            moves[..=i].rotate_right(1);
        }
        outcome
    }

    /// The principal variation behind a proven exact `value` of `position` whose best move
    /// is `first`: at each step, the first move (hash move first) whose child is shown by a
    /// fail-soft search in `(t - 1, t + 1)` to have exactly the value `t` needed.
    pub(crate) fn principal_variation(
        &mut self,
        position: &G,
        first: G::Move,
        value: i32,
        depth: i32,
    ) -> Vec<G::Move> {
        // Each step re-searches a subtree with a narrow window: always through the table, or
        // a search without one would redo whole subtrees at every step.
        let saved = (self.fail_soft, self.scout, self.params.use_tt);
        (self.fail_soft, self.scout, self.params.use_tt) = (true, false, true);
        let mut pv = vec![first];
        let mut child = position.play(first);
        let mut target = if child.side_to_move() == position.side_to_move() {
            value
        } else {
            -value
        };
        let mut depth = child_depth(position, &child, depth);
        while depth > 0 && pv.len() < 2 * super::DEPTH_TO_END as usize && !self.stopped {
            let current = child;
            let hash_move = self
                .tt
                .probe(current.hash_key())
                .and_then(|e| e.best_move());
            let moves = self.ordered_moves(&current, depth, hash_move);
            let mut found = None;
            for &mv in &moves {
                let next = current.play(mv);
                let same = next.side_to_move() == current.side_to_move();
                let t = if same { target } else { -target };
                let d = child_depth(&current, &next, depth);
                // `t` is the value the child must have, from its own side to move.
                if self.node(&next, d, t - 1, t + 1) == t {
                    found = Some((mv, next, t, d));
                    break;
                }
            }
            let Some((mv, next, t, d)) = found else {
                // A selective search's values need not agree with a re-search's: the
                // table's best moves go on from here.
                if self.selectivity != Selectivity::FULL {
                    pv.extend(self.table_moves(&current, depth));
                }
                break;
            };
            pv.push(mv);
            (child, target, depth) = (next, t, d);
        }
        (self.fail_soft, self.scout, self.params.use_tt) = saved;
        pv
    }

    /// A principal variation read from the table's best moves (for results that are only
    /// bounds, such as a win/loss/draw proof), at most `depth` moves after `first`.
    pub(crate) fn table_line(&self, position: &G, first: G::Move, depth: i32) -> Vec<G::Move> {
        let mut pv = vec![first];
        pv.extend(self.table_moves(&position.play(first), depth - 1));
        pv
    }

    /// The table's best moves from `position` on, at most `depth` of them.
    fn table_moves(&self, position: &G, depth: i32) -> Vec<G::Move> {
        let mut moves = Vec::new();
        let mut current = *position;
        while (moves.len() as i32) < depth.min(super::DEPTH_TO_END) {
            let Some(mv) = self
                .tt
                .probe(current.hash_key())
                .and_then(|e| e.best_move::<G::Move>())
            else {
                break;
            };
            if !current.is_legal(mv) {
                break;
            }
            moves.push(mv);
            current = current.play(mv);
        }
        moves
    }
}
