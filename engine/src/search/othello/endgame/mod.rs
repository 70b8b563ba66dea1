//! Exact solver for Othello endgames, on bare bitboards, fail-soft in any window.
//!
//! Two layers: with many empties, a search over the transposition table ([`deep`]), each
//! node's moves and flips computed once and ordered fastest-first behind the table's move;
//! with few, a search without the table ([`shallow`]) ordered by parity, with dedicated
//! code for the last squares.

mod deep;
mod shallow;

use super::order::order_tables;
use crate::game::othello::geometry::squares;
use crate::game::othello::stability::stable_discs;
use crate::game::othello::{Geometry, Othello};
use crate::search::limits::{Limits, StopCheck};
use crate::search::othello::eval::{Evaluator, PatternWeights};
use crate::search::{SearchStats, SolverContext, TranspositionTable};

/// The stability cut-off is tried only when alpha is at least this high.
const STABILITY_ALPHA: i32 = 8;

/// Above this many empties a node uses the table and a full move list.
const SHALLOW_EMPTIES: u32 = 8;

/// The exact final score of `position` from the side to move, fail-soft in `(alpha, beta)`,
/// with `tt` as the table and no limit.
#[must_use]
pub fn solve(
    position: &Othello,
    alpha: i32,
    beta: i32,
    tt: &mut TranspositionTable,
    stats: &mut SearchStats,
) -> i32 {
    let mut stop_check = StopCheck::new(&Limits::default());
    let mut stopped = false;
    let mut ctx = SolverContext {
        tt: Some(tt),
        stats,
        stop_check: &mut stop_check,
        stopped: &mut stopped,
        thread: 0,
        busy: None,
    };
    solve_in(position, alpha, beta, &mut ctx, &Evaluator::default())
}

/// [`solve`] inside a running search: its table (if any), counters and limits, and its
/// evaluation to order moves far from the end. When a limit stops it, `ctx.stopped` is
/// set and the value means nothing.
pub(crate) fn solve_in(
    position: &Othello,
    alpha: i32,
    beta: i32,
    ctx: &mut SolverContext<'_>,
    evaluator: &Evaluator,
) -> i32 {
    let geometry = position.geometry();
    let weights = evaluator.patterns_for(geometry);
    let mut solver = Solver {
        ctx,
        weights,
        mask: geometry.mask(),
        geometry,
        squares: geometry.squares() as i32,
        regions: regions(geometry),
        corners: geometry.corners(),
        priority: &order_tables(geometry).priority,
    };
    solver.solve(position.me(), position.opp(), alpha, beta, false)
}

/// One solve's state: the search's context and the board's constants.
struct Solver<'a, 'c> {
    ctx: &'a mut SolverContext<'c>,
    /// Trained weights, which order the moves of nodes far from the end (8x8 only).
    weights: Option<&'a PatternWeights>,
    geometry: Geometry,
    /// The board's squares.
    mask: u64,
    /// How many there are (the largest possible margin).
    squares: i32,
    /// The four quadrants, for parity.
    regions: [u64; 4],
    /// The corners, which weigh in move ordering.
    corners: u64,
    /// Each square's static order class (corners first, X-squares last).
    priority: &'static [u8; 64],
}

impl Solver<'_, '_> {
    /// The exact value of the position, whichever layer suits its number of empties.
    fn solve(&mut self, me: u64, opp: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        if (self.mask & !(me | opp)).count_ones() > SHALLOW_EMPTIES {
            self.deep(me, opp, alpha, beta, passed)
        } else {
            self.shallow(me, opp, alpha, beta, passed)
        }
    }

    /// The stability cut-off: the opponent keeps its stable discs, so we cannot score more
    /// than what the others would give us; that bound, when it is at most `alpha`. Tried
    /// only for a high enough alpha (below, it rarely cuts and costs more than it saves).
    fn stability_cutoff(&self, me: u64, opp: u64, alpha: i32) -> Option<i32> {
        if alpha < STABILITY_ALPHA {
            return None;
        }
        let most =
            self.squares - 2 * stable_discs(self.geometry, opp, me | opp).count_ones() as i32;
        (most <= alpha).then_some(most)
    }
}

/// The four quadrants of the board, for parity.
fn regions(geometry: Geometry) -> [u64; 4] {
    let (rows, columns) = (geometry.rows(), geometry.columns());
    let mut out = [0u64; 4];
    for sq in squares(geometry.mask()) {
        let (r, c) = (sq / 8, sq % 8);
        let q = usize::from(r >= rows / 2) * 2 + usize::from(c >= columns / 2);
        out[q] |= 1 << sq;
    }
    out
}

/// Final disc difference for `me` with `empties` empty squares going to the winner.
fn final_score(me: u64, opp: u64, empties: i32) -> i32 {
    let diff = me.count_ones() as i32 - opp.count_ones() as i32;
    match diff.signum() {
        1 => diff + empties,
        -1 => diff - empties,
        _ => 0,
    }
}
