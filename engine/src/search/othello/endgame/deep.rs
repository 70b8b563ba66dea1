//! The solver's upper layer: nodes with many empties, searched over the transposition table.
//!
//! Each node builds its move list once, with every move's flips and resulting position,
//! and uses it for the transposition cut-off check, the ordering and the search. Keys are
//! computed from the bitboards only at these nodes.

use arrayvec::ArrayVec;

use super::{SHALLOW_EMPTIES, Solver, final_score};
use crate::game::othello::geometry::{neighbours, squares};
use crate::game::othello::movegen::{flips, legal_moves};
use crate::game::othello::{OthelloMove, position_key};
use crate::game::{GameMove, MAX_MOVES};
use crate::search::INFINITY;
use crate::search::bounds_of;
use crate::search::busy::{YoungBrothers, move_key};
use crate::search::othello::eval::weights::ordering_term;
use crate::search::tt::{Entry, Store};

/// From this many empties on, children's table entries are checked before any search
/// (enhanced transposition cut-off).
const ETC_EMPTIES: u32 = 10;
const _: () = assert!(
    ETC_EMPTIES > SHALLOW_EMPTIES + 1,
    "the cut-off reads the keys of children in the table's layer"
);

/// The least depth of a heuristic table entry whose move is tried first.
const ORDER_DEPTH: i32 = 7;

/// Move ordering weights (the key is their weighted sum, lower first): the opponent's
/// replies, its potential mobility, and the square's static class (corners first).
const MOBILITY_WEIGHT: u32 = 8;
const POTENTIAL_WEIGHT: u32 = 1;
const CLASS_WEIGHT: u32 = 2;
/// Key units per 1/16 disc of the evaluation after a move: a reply fewer for the opponent
/// (128 units) weighs as much as four discs (docs/benchmarks-journal.md: more weight on the
/// evaluation costs the solver nodes, though it saves the mid-game search some).
const EVAL_ORDER_WEIGHT: i32 = 2;

/// From this many empties on, the trained evaluation of each child weighs in the ordering.
const EVAL_ORDER_EMPTIES: u32 = 12;
/// From this many empties on, a parallel search's threads put off the moves another thread
/// is searching (young brothers only).
const DEFER_EMPTIES: u32 = 12;
/// From this many empties on, the evaluation is that of the opponent's best reply.
const SEARCH_ORDER_EMPTIES: u32 = 14;

/// A move of the list: the position after it (from the opponent's view) and its ordering
/// key (lower first).
#[derive(Clone, Copy)]
struct Move {
    key: u32,
    square: u8,
    next_me: u64,
    next_opp: u64,
    /// The child's table key (0 when the child is below the table's layer).
    next_key: u64,
}

/// The table entry's best move as a square, if it names one.
fn entry_square(entry: &Entry) -> Option<u32> {
    entry
        .best_move::<OthelloMove>()
        .and_then(OthelloMove::index)
}

impl Solver<'_, '_> {
    /// The exact value of a position with more than the shallow layer's empties.
    pub(super) fn deep(&mut self, me: u64, opp: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        if self.ctx.enter() {
            return 0;
        }
        let empty = self.mask & !(me | opp);
        let empties = empty.count_ones();
        if let Some(most) = self.stability_cutoff(me, opp, alpha) {
            return most;
        }
        let legal = legal_moves(me, opp, empty);
        if legal == 0 {
            if passed {
                self.ctx.stats.leaf_evals += 1;
                return final_score(me, opp, empties as i32);
            }
            return -self.solve(opp, me, -beta, -alpha, true);
        }

        let key = position_key(me, opp, self.mask);
        let (mut lo, mut hi) = (alpha, beta);
        let mut hash_square = None;
        if let Some(tt) = self.ctx.tt {
            self.ctx.stats.tt_probes += 1;
            let probed = tt.probe(key);
            // A heuristic entry (from the iterations before a solve) orders only when its
            // search was deep: the moves of shallow ones order worse than fastest-first.
            if let Some(entry) = probed.filter(|e| e.proven() || e.depth() >= ORDER_DEPTH) {
                hash_square = entry_square(&entry);
            }
            if let Some(entry) = probed.filter(Entry::proven) {
                self.ctx.stats.tt_hits += 1;
                let (lower, upper) = (entry.lower(), entry.upper());
                if lower >= hi || upper <= lo || lower == upper {
                    return if lower >= hi { lower } else { upper };
                }
                lo = lo.max(lower);
                hi = hi.min(upper);
            }
        }

        let weights = self.weights.filter(|_| empties >= EVAL_ORDER_EMPTIES);
        // Children in the table's layer have their buckets fetched while the list is built,
        // so that the enhanced transposition cut-off's probes and their own wait less.
        let children_in_table = self.ctx.tt.filter(|_| empties > SHALLOW_EMPTIES + 1);
        let mut moves: ArrayVec<Move, MAX_MOVES> = ArrayVec::new();
        for sq in squares(legal) {
            let placed = 1u64 << sq;
            let flipped = flips(sq, me, opp);
            let (next_me, next_opp) = (opp & !flipped, me | flipped | placed);
            let next_key = children_in_table.map_or(0, |tt| {
                let next_key = position_key(next_me, next_opp, self.mask);
                tt.prefetch(next_key);
                next_key
            });
            let key = if hash_square == Some(sq) {
                0
            } else {
                // Fewest opponent replies (a corner reply counting twice), fewest empty
                // squares next to our discs (the opponent's later moves), better squares.
                let after = empty & !placed;
                let replies = legal_moves(next_me, next_opp, after);
                let mobility = replies.count_ones() + (replies & self.corners).count_ones();
                let potential = (neighbours(next_opp) & after).count_ones();
                let class = u32::from(self.priority[sq as usize]);
                let eval = weights.map_or(0, |w| {
                    let raw = if empties >= SEARCH_ORDER_EMPTIES && replies != 0 {
                        // The opponent's best reply by the evaluation (a 1-ply search).
                        squares(replies)
                            .map(|r| {
                                let f = flips(r, next_me, next_opp);
                                -w.raw(next_opp & !f, next_me | f | 1 << r, empties - 2)
                            })
                            .max()
                            .unwrap_or(0)
                    } else {
                        let moves = [replies, legal_moves(next_opp, next_me, after)];
                        w.raw_with_moves(next_me, next_opp, empties - 1, moves)
                    };
                    ordering_term(raw, EVAL_ORDER_WEIGHT)
                });
                let order = (MOBILITY_WEIGHT * mobility
                    + POTENTIAL_WEIGHT * potential
                    + CLASS_WEIGHT * class)
                    * 16
                    + eval;
                1 + ((order << 6) | sq)
            };
            moves.push(Move {
                key,
                square: sq as u8,
                next_me,
                next_opp,
                next_key,
            });
        }

        if empties >= ETC_EMPTIES
            && let Some(v) = self.transposition_cutoff(&moves, hi)
        {
            return v;
        }

        let mut best = -INFINITY;
        let mut best_square = 0;
        let busy = self.ctx.busy.filter(|_| empties >= DEFER_EMPTIES);
        let mut order = YoungBrothers::new(moves.len());
        while let Some(i) = order.next(|i| {
            // Selection sort: a cut-off after the first moves saves sorting the rest.
            let next = (i..moves.len()).min_by_key(|&j| moves[j].key).unwrap_or(i);
            moves.swap(i, next);
            busy.is_some_and(|b| b.is_busy(move_key(key, moves[i].square)))
        }) {
            let Move {
                square,
                next_me,
                next_opp,
                ..
            } = moves[i];
            let _mark = busy.map(|b| b.mark(move_key(key, square)));
            let floor = lo.max(best);
            let v = if i == 0 || hi - floor <= 1 {
                -self.solve(next_me, next_opp, -hi, -floor, false)
            } else {
                // A null-window probe; a fail-high inside the window is searched again.
                let v = -self.solve(next_me, next_opp, -floor - 1, -floor, false);
                if v > floor && v < hi && !*self.ctx.stopped {
                    v.max(-self.solve(next_me, next_opp, -hi, -v, false))
                } else {
                    v
                }
            };
            if *self.ctx.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_square = square;
                if v >= hi {
                    break;
                }
            }
        }
        if let Some(tt) = self.ctx.tt {
            let (lower, upper) = bounds_of(best, lo, hi);
            tt.store(&Store {
                key,
                // Enough plies to reach the end whatever the passes: usable at any depth
                // that reaches it.
                depth: 2 * empties as i32,
                lower,
                upper,
                proven: true,
                selectivity: 0,
                best_move: Some(OthelloMove::from_byte(best_square)),
            });
        }
        best
    }

    /// Enhanced transposition cut-off: a child whose proven bounds already give us at
    /// least `beta` ends the node before any search.
    fn transposition_cutoff(&mut self, moves: &[Move], beta: i32) -> Option<i32> {
        let tt = self.ctx.tt?;
        for m in moves {
            self.ctx.stats.tt_probes += 1;
            let Some(entry) = tt.probe(m.next_key) else {
                continue;
            };
            if entry.proven() && -entry.upper() >= beta {
                self.ctx.stats.tt_hits += 1;
                return Some(-entry.upper());
            }
        }
        None
    }
}
