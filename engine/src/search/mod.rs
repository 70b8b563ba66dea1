//! The searches, generic over [`Game`]: negamax, alpha-beta (fail-hard), nega-alpha
//! (fail-soft), NegaScout and MTD(f), each with or without the transposition table,
//! driven by iterative deepening that feeds each iteration's score to the next as its guess
//! (NegaScout's aspiration window or MTD(f)'s first pass, each game's default its own).
//!
//! Every search returns the same value as plain negamax at the same depth: heuristic table
//! entries are only reused at exactly their own depth, proven ones at any greater depth.

mod busy;
mod driver;
pub mod eval;
mod finished;
pub mod kalah;
mod limits;
mod node;
pub mod othello;
pub mod probcut;
mod root;
mod stats;
mod time_use;
pub mod tt;

pub use driver::{search, search_with, solve_exact};
pub use limits::{CHECK_INTERVAL, Limits};
pub use probcut::{Selectivity, SelectivitySchedule};
/// The vocabulary the search shares with the protocol, from the parser to the search:
/// the algorithms, what a search establishes, and how its score is known.
pub use protocol::{Algorithm, Bound, Depth, Goal, Proof, Score};
pub use stats::{MtdfPass, SearchStats};
pub use tt::TranspositionTable;

use std::time::Duration;

use crate::game::MoveList;
use eval::Evaluate;

/// Larger than any score.
pub const INFINITY: i32 = 10_000;

/// The remaining depth that means "to the end of the game" inside the search (above any
/// game's length in plies that consume depth, and below the table's 255). Outside, a
/// depth is asked in plies (`u32`, as `go depth` gives it) and reported as a
/// [`Depth`]: plies, or the end.
pub(crate) const DEPTH_TO_END: i32 = 200;

/// A remaining depth of the search as it is reported.
pub(crate) fn reported_depth(depth: i32) -> Depth {
    if depth >= DEPTH_TO_END {
        Depth::End
    } else {
        Depth::Plies(depth.max(0).unsigned_abs())
    }
}

/// The bounds a fail-soft search's result `value` in the window `(alpha, beta)` proves:
/// at most `value` when it failed low, at least when it failed high, else exactly.
#[must_use]
pub fn bounds_of(value: i32, alpha: i32, beta: i32) -> (i32, i32) {
    if value <= alpha {
        (-INFINITY, value)
    } else if value >= beta {
        (value, INFINITY)
    } else {
        (value, value)
    }
}

/// When to switch from heuristic search to solving (by empty squares, for games that
/// count them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// Deepest heuristic iteration when no depth or time is given.
    pub mid_depth: u32,
    /// Prove win/loss/draw at or below this many empties.
    pub wld_empties: u32,
    /// Solve exactly at or below this many empties.
    pub exact_empties: u32,
    /// Hand over to the game's specialised solver at or below this many empties (0: never),
    /// when the search reaches the end of the game from there.
    pub small_solver_empties: u32,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            mid_depth: 10,
            wld_empties: 20,
            exact_empties: 18,
            small_solver_empties: 64,
        }
    }
}

/// A thread's number in a parallel search: 0 for the main thread (the one whose result is
/// the search's), 1.. for its helpers.
pub(crate) type ThreadNumber = usize;

/// How to search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// The search at each iteration; `None` for the game's own choice,
    /// [`Searchable::DEFAULT_ALGORITHM`].
    pub algorithm: Option<Algorithm>,
    /// Use the transposition table.
    pub use_tt: bool,
    /// Iterative deepening (otherwise one search straight to the final depth, as the papers' tables do).
    pub iterative: bool,
    /// The first iteration's guess, MTD(f)'s first pass or NegaScout's aspiration window
    /// (otherwise the table or a shallow search).
    pub first_guess: Option<i32>,
    /// Find the full principal variation after each iteration.
    pub principal_variation: bool,
    /// Solver thresholds.
    pub thresholds: Thresholds,
    /// Search threads (1: deterministic; more: lazy SMP over the shared table).
    pub threads: usize,
    /// Multi-ProbCut's confidence in each heuristic iteration (full width by default).
    pub selectivity: SelectivitySchedule,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            algorithm: None,
            use_tt: true,
            iterative: true,
            first_guess: None,
            principal_variation: true,
            thresholds: Thresholds::default(),
            threads: 1,
            selectivity: SelectivitySchedule::default(),
        }
    }
}

/// A root move valued on its own by a multi-PV search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankedMove<M> {
    /// The root move valued.
    pub mv: M,
    /// Its score.
    pub score: Score,
    /// Its line, starting with the move.
    pub pv: Vec<M>,
}

/// One completed iteration of iterative deepening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration<M> {
    /// Its depth: plies, or the end of the game.
    pub depth: Depth,
    /// The score of the best move, at this depth.
    pub score: Score,
    /// The move the iteration found best (the first of the principal variation).
    pub best_move: M,
    /// The principal variation, starting with the best move.
    pub pv: Vec<M>,
    /// With [`Limits::multipv`]: the next best moves, best first, each with its own score
    /// and line (the iteration's counters include their searches).
    pub alternatives: Vec<RankedMove<M>>,
    /// Multi-ProbCut's confidence in it (full width in a solve).
    pub selectivity: Selectivity,
    /// Counters of this iteration (including its MTD(f) passes and PV search).
    pub stats: SearchStats,
    /// Time since the search started.
    pub time: Duration,
}

impl<M: Copy> Iteration<M> {
    /// Every move the iteration valued, best first: the best move, then the
    /// [`Iteration::alternatives`], each with its score and line.
    pub fn ranked(&self) -> impl Iterator<Item = (M, Score, &[M])> {
        std::iter::once((self.best_move, self.score, self.pv.as_slice())).chain(
            self.alternatives
                .iter()
                .map(|a| (a.mv, a.score, a.pv.as_slice())),
        )
    }
}

/// What a search reports while it runs.
#[derive(Debug)]
pub enum Report<'a, M> {
    /// An MTD(f) pass finished.
    Pass {
        /// Depth of the iteration the pass belongs to.
        depth: Depth,
        /// Its bound, result and the interval known after it.
        pass: MtdfPass,
        /// Time since the search started.
        time: Duration,
    },
    /// An iteration finished.
    Iteration(&'a Iteration<M>),
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the game is over.
    pub best_move: Option<M>,
    /// The score of the last completed iteration (the final score when the game is over).
    /// When a stopped iteration had proven a root move better than the previous best, that
    /// move is returned instead, with its value as a heuristic lower bound.
    pub score: Score,
    /// The principal variation.
    pub pv: Vec<M>,
    /// Multi-ProbCut's confidence in the search that gave the score (full width when it
    /// is a solve's or no search's).
    pub selectivity: Selectivity,
    /// Every completed iteration.
    pub iterations: Vec<Iteration<M>>,
    /// Counters over the whole search.
    pub stats: SearchStats,
    /// Nodes the main thread searched (all of [`SearchStats::nodes`] with one thread).
    /// With several threads sharing fewer cores in time slices, the length the search
    /// would have had with a core per thread (tools/scaling.sh).
    pub main_nodes: u64,
    /// Total time.
    pub time: Duration,
    /// True when a limit or the stop flag ended the search before it finished.
    pub stopped: bool,
}

/// Search hooks a game may provide: move ordering and a specialised endgame solver.
pub trait Searchable: Evaluate {
    /// The search at each iteration when none is asked for ([`SearchParams::algorithm`]
    /// `None`, a `go` without one): the one that plays this game best at equal time.
    const DEFAULT_ALGORITHM: Algorithm;

    /// Orders `moves` best-first. `depth` is the remaining depth (cheap orderings near
    /// leaves); `selective`: the search makes Multi-ProbCut's cuts (its trees differ in
    /// where an ordering pays); `resources` hold the search's evaluation, for orderings
    /// that use it.
    fn order_moves(
        &self,
        moves: &mut MoveList<Self::Move>,
        depth: i32,
        selective: bool,
        resources: &Self::Resources,
    ) {
        let _ = (moves, depth, selective, resources);
    }

    /// The exact value of the position when a database among `resources` holds it
    /// (looked up at the horizon instead of the evaluation, and before searching a node).
    fn database_value(&self, resources: &Self::Resources) -> Option<i32> {
        let _ = resources;
        None
    }

    /// The value of the position where a search stops: [`horizon_value`] (the final score,
    /// a database's value or the evaluation). A game whose evaluation finds what the end
    /// of the game is checked by (Othello's: both sides' moves) overrides it to do that
    /// work once.
    fn horizon(&self, resources: &Self::Resources) -> Horizon {
        horizon_value(self, resources)
    }

    /// Whether a selective search that reaches the end should make a probable solve of this
    /// position before proving it: the game predicts solves ([`Searchable::probcut`]) and
    /// the probable solve is the faster of the two here.
    fn probable_solve_pays(&self, resources: &Self::Resources) -> bool {
        let _ = resources;
        false
    }

    /// Multi-ProbCut's prediction at a node searched to `depth` (at least
    /// [`probcut::MIN_DEPTH`]), where the game has a model for it: the shallow search's
    /// depth and the spread of the deep value around its value.
    fn probcut(&self, depth: i32, resources: &Self::Resources) -> Option<probcut::Prediction> {
        let _ = (depth, resources);
        None
    }

    /// The fail-soft value in `(alpha, beta)` of this position searched one ply deep, when
    /// the game has a faster way than the generic node's (which finds no table entry,
    /// ProbCut or deferred move that shallow): the same moves in the same order, each
    /// child counted in `ctx` as a node and valued at the horizon, so that the value and
    /// the counters are the generic search's. With `scout` (NegaScout), a child after the
    /// first whose value falls inside the window is counted and evaluated again, as its
    /// re-search is. When a limit stops it, `ctx.stopped` is set and the value means
    /// nothing.
    fn frontier(
        &self,
        alpha: i32,
        beta: i32,
        scout: bool,
        ctx: &mut SolverContext<'_>,
        resources: &Self::Resources,
    ) -> Option<i32> {
        let _ = (alpha, beta, scout, ctx, resources);
        None
    }

    /// The exact value, fail-soft in `(alpha, beta)`, when a specialised solver applies:
    /// the search reaches the end from here within `depth` and the position is small
    /// enough for `thresholds`. The solver shares the search's table, counters and limits
    /// through `ctx`, and the game's `resources`; when it sets `ctx.stopped`, its value
    /// means nothing.
    fn solve_endgame(
        &self,
        depth: i32,
        alpha: i32,
        beta: i32,
        thresholds: &Thresholds,
        ctx: &mut SolverContext<'_>,
        resources: &Self::Resources,
    ) -> Option<i32> {
        let _ = (depth, alpha, beta, thresholds, ctx, resources);
        None
    }
}

/// A position's value where a search stops, and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Horizon {
    /// The game is over: its final score.
    End(i32),
    /// A database's exact value.
    Database(i32),
    /// The evaluation's estimate.
    Estimate(i32),
}

impl Horizon {
    /// The value, whatever its source.
    #[must_use]
    pub fn value(self) -> i32 {
        match self {
            Horizon::End(v) | Horizon::Database(v) | Horizon::Estimate(v) => v,
        }
    }
}

/// The final score when the game is over, else a database's value when one holds the
/// position, else the evaluation.
pub fn horizon_value<G: Searchable>(position: &G, resources: &G::Resources) -> Horizon {
    if position.is_terminal() {
        Horizon::End(position.final_score())
    } else if let Some(v) = position.database_value(resources) {
        Horizon::Database(v)
    } else {
        Horizon::Estimate(position.evaluate(resources))
    }
}

/// What a search lends a game's own searches: its endgame solver, its frontier nodes.
pub struct SolverContext<'a> {
    /// The table, when the search uses one.
    pub(crate) tt: Option<&'a TranspositionTable>,
    /// The search's counters.
    pub(crate) stats: &'a mut SearchStats,
    /// The search's limits.
    pub(crate) stop_check: &'a mut limits::StopCheck,
    /// Set once a limit is hit: the solver unwinds at once.
    pub(crate) stopped: &'a mut bool,
    /// The thread's number (0: the main thread): in Kalah's solver, helpers vary the order
    /// of the moves after the first far from the end.
    pub(crate) thread: ThreadNumber,
    /// The moves other threads have in hand, in a parallel search.
    pub(crate) busy: Option<&'a busy::BusyMoves>,
}

impl SolverContext<'_> {
    /// Counts a node and checks the limits, as the search's own nodes do: true when the
    /// search must unwind (`stopped` is then set).
    #[inline]
    pub(crate) fn enter(&mut self) -> bool {
        self.stats.nodes += 1;
        if !*self.stopped && self.stop_check.must_stop(self.stats.nodes) {
            *self.stopped = true;
        }
        *self.stopped
    }
}

/// Asserts that `value`, a fail-soft result in the window `(lo, hi)`, agrees with the
/// `exact` value: equal inside the window, and beyond it a bound on the same side that the
/// exact value does not pass. `what` names the case.
#[cfg(test)]
pub(crate) fn assert_fail_soft(value: i32, exact: i32, (lo, hi): (i32, i32), what: &str) {
    if value <= lo {
        assert!(
            exact <= value,
            "fail-low above the value {exact}: {value}, {what}"
        );
    } else if value >= hi {
        assert!(
            exact >= value,
            "fail-high below the value {exact}: {value}, {what}"
        );
    } else {
        assert_eq!(value, exact, "inside the window ({lo}, {hi}): {what}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algorithm_names_round_trip() {
        for a in Algorithm::ALL {
            assert_eq!(a.name().parse::<Algorithm>(), Ok(a));
        }
        assert!("minimax".parse::<Algorithm>().is_err());
    }
}
