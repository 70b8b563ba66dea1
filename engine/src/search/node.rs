//! The searcher and its interior nodes: plain negamax and the alpha-beta family
//! (fail-hard, fail-soft, NegaScout probes), each optionally over the table.

use super::bounds_of;
use super::busy::{BusyMoves, YoungBrothers, move_key};
use super::limits::StopCheck;
use super::probcut::{self, Prediction, Selectivity};
use super::tt::{Store, TranspositionTable};
use super::{
    Algorithm, INFINITY, SearchParams, SearchStats, Searchable, SolverContext, ThreadNumber,
};
use crate::game::{Game, GameMove, MoveList};

/// Remaining depth from which children's table entries are checked before searching.
const ETC_DEPTH: i32 = 6;

/// Remaining depth from which nodes probe and store the table. Nearer the horizon a probe
/// (a likely cache miss) costs more than it saves, and the best moves of 1-2 ply searches
/// order worse than the ordering's own keys (docs/benchmarks-journal.md: 8x8 mid-game depth 12,
/// 1.9x faster with 0.69x the nodes).
const TT_DEPTH: i32 = 3;

/// Remaining depth from which a parallel search's threads put off the moves another
/// thread is searching (young brothers only: the first move is always searched at once).
const DEFER_DEPTH: i32 = 5;

/// State of one running search.
pub(crate) struct Searcher<'a, G: Searchable> {
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) params: SearchParams,
    pub(crate) stop_check: StopCheck,
    pub(crate) stats: SearchStats,
    /// The search at each iteration: the one asked for, or the game's own.
    pub(crate) algorithm: Algorithm,
    /// Set once a limit is hit; every node then returns at once and nothing is stored.
    pub(crate) stopped: bool,
    /// Fail-soft results (every algorithm but fail-hard alpha-beta).
    pub(crate) fail_soft: bool,
    /// Null-window probes after the first move (NegaScout).
    pub(crate) scout: bool,
    /// The root searches only some of its moves (the next ranks of a multi-PV search):
    /// its result is not the position's value, so it is not stored.
    pub(crate) partial_root: bool,
    /// The thread's number in a search: 0 for the main thread, 1.. for the helpers (lazy
    /// SMP).
    pub(crate) thread: ThreadNumber,
    /// The moves the threads of a parallel search have in hand (None with one thread).
    pub(crate) busy: Option<&'a BusyMoves>,
    /// What only this game's search uses (Kalah's database).
    pub(crate) resources: &'a G::Resources,
    /// Multi-ProbCut's confidence in the iteration under way (the driver sets it from
    /// the parameters' schedule): full width until then.
    pub(crate) selectivity: Selectivity,
}

/// The remaining depth below `child`: a move that keeps the turn (Kalah's extra move)
/// does not consume depth (docs/algorithms.md §001).
#[inline]
pub(crate) fn child_depth<G: Game>(parent: &G, child: &G, depth: i32) -> i32 {
    if child.side_to_move() == parent.side_to_move() {
        depth
    } else {
        depth - 1
    }
}

impl<'a, G: Searchable> Searcher<'a, G> {
    pub(crate) fn new(
        tt: &'a TranspositionTable,
        params: SearchParams,
        resources: &'a G::Resources,
        stop_check: StopCheck,
    ) -> Self {
        let algorithm = params.algorithm.unwrap_or(G::DEFAULT_ALGORITHM);
        Searcher {
            tt,
            algorithm,
            fail_soft: algorithm != Algorithm::AlphaBeta,
            scout: algorithm == Algorithm::NegaScout,
            params,
            stop_check,
            stats: SearchStats::default(),
            stopped: false,
            partial_root: false,
            thread: 0,
            busy: None,
            resources,
            selectivity: Selectivity::FULL,
        }
    }

    /// Counts a node and checks the limits; true when the search must unwind.
    #[inline]
    pub(crate) fn enter(&mut self) -> bool {
        self.stats.nodes += 1;
        if !self.stopped && self.stop_check.must_stop(self.stats.nodes) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether this iteration makes Multi-ProbCut's cuts.
    #[inline]
    fn selective(&self) -> bool {
        self.selectivity != Selectivity::FULL
    }

    /// What the game's own searches borrow from this one.
    #[inline]
    fn solver_context(&mut self) -> SolverContext<'_> {
        SolverContext {
            tt: self.params.use_tt.then_some(self.tt),
            stats: &mut self.stats,
            stop_check: &mut self.stop_check,
            stopped: &mut self.stopped,
            thread: self.thread,
            busy: self.busy,
        }
    }

    /// The game's specialised solver's value, if it applies here (see
    /// [`Searchable::solve_endgame`]).
    #[inline]
    fn solve_endgame(&mut self, position: &G, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
        let (thresholds, resources) = (self.params.thresholds, self.resources);
        let mut ctx = self.solver_context();
        position.solve_endgame(depth, alpha, beta, &thresholds, &mut ctx, resources)
    }

    /// The game's own search of a node one ply from the horizon, if it has one (see
    /// [`Searchable::frontier`]).
    #[inline]
    fn frontier(&mut self, position: &G, alpha: i32, beta: i32) -> Option<i32> {
        // What the generic node does one ply from the horizon, and the game's does not.
        const _: () = assert!(TT_DEPTH > 1 && DEFER_DEPTH > 1 && probcut::MIN_DEPTH > 1);
        let (scout, resources) = (self.scout, self.resources);
        let mut ctx = self.solver_context();
        position.frontier(alpha, beta, scout, &mut ctx, resources)
    }

    /// A result as this algorithm returns it: as is when fail-soft, else clamped to the window.
    #[inline]
    fn bounded(&self, value: i32, alpha: i32, beta: i32) -> i32 {
        if self.fail_soft {
            value
        } else {
            value.clamp(alpha, beta)
        }
    }

    /// A position at the horizon: the final score if the game is over, else its database
    /// value if it has one, else the evaluation.
    #[inline]
    fn leaf(&mut self, position: &G) -> i32 {
        self.stats.count_leaf(position.horizon(self.resources))
    }

    /// The legal moves, ordered, with `first` (the hash move) in front.
    pub(crate) fn ordered_moves(
        &self,
        position: &G,
        depth: i32,
        first: Option<G::Move>,
    ) -> MoveList<G::Move> {
        let mut moves = MoveList::new();
        position.generate_moves(&mut moves);
        self.order_behind(position, &mut moves, depth, first);
        moves
    }

    /// Orders `moves`, then puts `first` in front if it is one of them.
    fn order_behind(
        &self,
        position: &G,
        moves: &mut MoveList<G::Move>,
        depth: i32,
        first: Option<G::Move>,
    ) {
        position.order_moves(moves, depth, self.selective(), self.resources);
        if let Some(i) = first.and_then(|m| moves.iter().position(|&x| x == m)) {
            moves[..=i].rotate_right(1);
        }
    }

    /// The legal moves as [`Searcher::ordered_moves`] gives them, except that when `first`
    /// (the hash move) is one of them, it is only swapped to the front, from the index
    /// returned: once it has failed to cut the node off, [`Searcher::order_later`] orders
    /// the others. Often it does cut, and the ordering's work (a move generation per move)
    /// is saved.
    fn moves_hash_first(
        &self,
        position: &G,
        depth: i32,
        first: Option<G::Move>,
    ) -> (MoveList<G::Move>, Option<usize>) {
        let mut moves = MoveList::new();
        position.generate_moves(&mut moves);
        let at = first.and_then(|m| moves.iter().position(|&x| x == m));
        match at {
            Some(i) => moves.swap(0, i),
            None => position.order_moves(&mut moves, depth, self.selective(), self.resources),
        }
        (moves, at)
    }

    /// What [`Searcher::ordered_moves`] would have given, from the list of
    /// [`Searcher::moves_hash_first`] whose hash move was swapped from `at`: the swap is
    /// undone first, since the order of moves with equal keys is the generated one.
    fn order_later(&self, position: &G, moves: &mut MoveList<G::Move>, depth: i32, at: usize) {
        let first = moves[0];
        moves.swap(0, at);
        self.order_behind(position, moves, depth, Some(first));
    }

    /// Searches `child` of `parent` in the window `(alpha, beta)` of the parent's side to
    /// move and returns the value from the parent's side.
    #[inline]
    pub(crate) fn child_value(
        &mut self,
        parent: &G,
        child: &G,
        depth: i32,
        alpha: i32,
        beta: i32,
        probe: bool,
    ) -> i32 {
        let d = child_depth(parent, child, depth);
        if child.side_to_move() == parent.side_to_move() {
            // Same side moves again: same window, no negation, and no null window (docs/algorithms.md §001).
            return self.node(child, d, alpha, beta);
        }
        if probe && self.scout {
            let v = -self.node(child, d, -alpha - 1, -alpha);
            if v > alpha && v < beta && !self.stopped {
                // The probe failed high: the value is at least v; find it.
                return v.max(-self.node(child, d, -beta, -v));
            }
            return v;
        }
        -self.node(child, d, -beta, -alpha)
    }

    /// The alpha-beta family at an interior node. Fail-soft unless the algorithm is
    /// fail-hard alpha-beta, whose results are clamped to `[alpha, beta]`.
    pub(crate) fn node(&mut self, position: &G, depth: i32, alpha: i32, beta: i32) -> i32 {
        if self.enter() {
            return 0;
        }
        if depth <= 0 {
            return self.leaf(position);
        }
        // A selective search predicts even a solve (a probable solve): such a node is
        // searched here rather than by the solver, which proves.
        let prediction = self
            .selectivity
            .deviations()
            .filter(|_| depth >= probcut::MIN_DEPTH)
            .and_then(|deviations| Some((deviations, position.probcut(depth, self.resources)?)));
        // The game's own searches: its solver near the end, its frontier one ply from the
        // horizon (where no prediction is ever made).
        let own = match prediction {
            Some(_) => None,
            None => self
                .solve_endgame(position, depth, alpha, beta)
                .or_else(|| (depth == 1).then(|| self.frontier(position, alpha, beta))?),
        };
        if let Some(v) = own {
            return if self.stopped {
                0
            } else {
                self.bounded(v, alpha, beta)
            };
        }
        let heuristic_before = self.stats.heuristic_leaves;
        let (mut lo, mut hi) = (alpha, beta);
        let key = position.hash_key();
        let mut hash_move = None;
        let use_tt = self.params.use_tt && depth >= TT_DEPTH;
        if use_tt {
            self.stats.tt_probes += 1;
            if let Some(entry) = self.tt.probe(key) {
                hash_move = entry.best_move();
                if entry.usable_at(depth, self.selectivity.rank()) {
                    self.stats.tt_hits += 1;
                    if !entry.proven() {
                        self.stats.heuristic_leaves += 1;
                    }
                    let (lower, upper) = (entry.lower(), entry.upper());
                    if lower >= hi || upper <= lo || lower == upper {
                        let v = if lower >= hi { lower } else { upper };
                        return self.bounded(v, alpha, beta);
                    }
                    lo = lo.max(lower);
                    hi = hi.min(upper);
                }
            }
        }
        if let Some((deviations, prediction)) = prediction
            && let Some(v) = self.probcut(position, &prediction, deviations, lo, hi)
        {
            return self.bounded(v, alpha, beta);
        }
        // The enhanced transposition cut-off reads the moves in order.
        let etc = use_tt && depth >= ETC_DEPTH;
        let (mut moves, mut unordered) = if etc {
            (self.ordered_moves(position, depth, hash_move), None)
        } else {
            self.moves_hash_first(position, depth, hash_move)
        };
        if moves.is_empty() {
            self.stats.leaf_evals += 1;
            let v = position.final_score();
            return self.bounded(v, alpha, beta);
        }
        if etc && let Some(v) = self.transposition_cutoff(position, &moves, depth, hi) {
            return self.bounded(v, alpha, beta);
        }
        let mut best = -INFINITY;
        let mut best_move = moves[0];
        let busy = self.busy.filter(|_| depth >= DEFER_DEPTH);
        let busy_key = |mv: G::Move| move_key(key, mv.to_byte());
        let mut order = YoungBrothers::new(moves.len());
        // Where the children probe the table, the next child is made ahead and its bucket
        // fetched while this one is searched (behind a hash move, the next in the generated
        // order, which the ordering may move: it is then made again, but its bucket was
        // fetched for when its turn comes).
        let fetch_ahead = use_tt && depth > TT_DEPTH;
        let mut ahead: Option<(usize, G)> = None;
        while let Some(i) = order.next(|i| busy.is_some_and(|b| b.is_busy(busy_key(moves[i])))) {
            let mv = moves[i];
            let _mark = busy.map(|b| b.mark(busy_key(mv)));
            let child = match ahead.take() {
                Some((j, child)) if j == i => child,
                _ => position.play(mv),
            };
            if fetch_ahead && let Some(&next_move) = moves.get(i + 1) {
                let next = position.play(next_move);
                self.tt.prefetch(next.hash_key());
                ahead = Some((i + 1, next));
            }
            let v = self.child_value(position, &child, depth, lo.max(best), hi, i > 0);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = mv;
                if best >= hi {
                    break;
                }
            }
            if let Some(at) = unordered.take() {
                // The hash move did not cut: the others, in order, behind it.
                self.order_later(position, &mut moves, depth, at);
                ahead = None;
            }
        }
        if use_tt {
            let (lower, upper) = bounds_of(best, lo, hi);
            self.tt.store(&Store {
                key,
                depth,
                lower,
                upper,
                proven: self.stats.heuristic_leaves == heuristic_before,
                selectivity: self.selectivity.rank(),
                best_move: Some(best_move),
            });
        }
        self.bounded(best, alpha, beta)
    }

    /// Multi-ProbCut: when a shallow search puts the value beyond `beta` (or below
    /// `alpha`) by the prediction's margin, the deep one is taken to fail the same way;
    /// returns the bound it would have failed on. The result is heuristic whatever the
    /// shallow search saw.
    fn probcut(
        &mut self,
        position: &G,
        prediction: &Prediction,
        deviations: f32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let max = position.max_score();
        // Only the cut the position's own value leans to is tried: the other's shallow
        // search would mostly fail, and costs as much.
        let standing = position.horizon(self.resources).value();
        // The evaluation alone is a weaker prediction: twice the margin.
        let deviations = if prediction.shallow == 0 {
            2.0 * deviations
        } else {
            deviations
        };
        let high = prediction.high_bound(beta, deviations);
        if standing >= beta && high <= max {
            let v = self.shallow_value(position, prediction.shallow, standing, high - 1, high);
            if self.stopped {
                return Some(0);
            }
            if v >= high {
                self.stats.heuristic_leaves += 1;
                self.stats.probcuts += 1;
                return Some(beta);
            }
        }
        let low = prediction.low_bound(alpha, deviations);
        if standing <= alpha && low >= -max {
            let v = self.shallow_value(position, prediction.shallow, standing, low, low + 1);
            if self.stopped {
                return Some(0);
            }
            if v <= low {
                self.stats.heuristic_leaves += 1;
                self.stats.probcuts += 1;
                return Some(alpha);
            }
        }
        None
    }

    /// ProbCut's shallow search: at depth 0 the position's own value, `standing`.
    fn shallow_value(
        &mut self,
        position: &G,
        depth: i32,
        standing: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth == 0 {
            standing
        } else {
            self.node(position, depth, alpha, beta)
        }
    }

    /// Enhanced transposition cutoff: a child whose stored bounds already refute the window
    /// (its value, from our side, is at least `beta`) ends the node before any search.
    fn transposition_cutoff(
        &mut self,
        position: &G,
        moves: &[G::Move],
        depth: i32,
        beta: i32,
    ) -> Option<i32> {
        for &mv in moves {
            let child = position.play(mv);
            if child.side_to_move() == position.side_to_move() {
                continue;
            }
            self.stats.tt_probes += 1;
            let Some(entry) = self.tt.probe(child.hash_key()) else {
                continue;
            };
            let child_depth = child_depth(position, &child, depth);
            if entry.usable_at(child_depth, self.selectivity.rank()) && -entry.upper() >= beta {
                self.stats.tt_hits += 1;
                if !entry.proven() {
                    self.stats.heuristic_leaves += 1;
                }
                return Some(-entry.upper());
            }
        }
        None
    }

    /// Plain negamax: every move searched with no window; with the table, a memoised
    /// negamax that stores exact values (docs/algorithms.md §000).
    pub(crate) fn negamax(&mut self, position: &G, depth: i32) -> i32 {
        if self.enter() {
            return 0;
        }
        if depth <= 0 {
            return self.leaf(position);
        }
        if let Some(v) = self.solve_endgame(position, depth, -INFINITY, INFINITY) {
            return if self.stopped { 0 } else { v };
        }
        let heuristic_before = self.stats.heuristic_leaves;
        let key = position.hash_key();
        if self.params.use_tt {
            self.stats.tt_probes += 1;
            if let Some(entry) = self
                .tt
                .probe(key)
                .filter(|e| e.usable_at(depth, self.selectivity.rank()) && e.lower() == e.upper())
            {
                self.stats.tt_hits += 1;
                if !entry.proven() {
                    self.stats.heuristic_leaves += 1;
                }
                return entry.lower();
            }
        }
        let mut moves = MoveList::new();
        position.generate_moves(&mut moves);
        if moves.is_empty() {
            self.stats.leaf_evals += 1;
            return position.final_score();
        }
        let mut best = -INFINITY;
        let mut best_move = moves[0];
        for &mv in &moves {
            let child = position.play(mv);
            let d = child_depth(position, &child, depth);
            let v = if child.side_to_move() == position.side_to_move() {
                self.negamax(&child, d)
            } else {
                -self.negamax(&child, d)
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = mv;
            }
        }
        if self.params.use_tt {
            self.tt.store(&Store {
                key,
                depth,
                lower: best,
                upper: best,
                proven: self.stats.heuristic_leaves == heuristic_before,
                selectivity: self.selectivity.rank(),
                best_move: Some(best_move),
            });
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Start;
    use crate::game::kalah::{Kalah, KalahRules};
    use crate::game::othello::{Geometry, Othello};
    use crate::search::limits::Limits;
    use crate::search::othello::eval::Evaluator;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// Behind each hash move, the moves ordered once it fails to cut are the moves ordered
    /// at once, at every depth of the ordering, full width and selective, on every
    /// position of random games.
    fn lazy_order_is_eager_order<G: Searchable>(start: G, resources: &G::Resources) {
        for selectivity in [Selectivity::FULL, Selectivity::PLAY] {
            lazy_order_is_eager_order_at(start, resources, selectivity);
        }
    }

    fn lazy_order_is_eager_order_at<G: Searchable>(
        start: G,
        resources: &G::Resources,
        selectivity: Selectivity,
    ) {
        let tt = TranspositionTable::new(1);
        let stop_check = StopCheck::new(&Limits::default());
        let mut searcher = Searcher::new(&tt, SearchParams::default(), resources, stop_check);
        searcher.selectivity = selectivity;
        let mut rng = StdRng::seed_from_u64(29);
        for _ in 0..20 {
            let mut position = start;
            while !position.is_terminal() {
                let mut legal = MoveList::new();
                position.generate_moves(&mut legal);
                for depth in 1..=8 {
                    for &hash_move in &legal {
                        let eager = searcher.ordered_moves(&position, depth, Some(hash_move));
                        let (mut lazy, at) =
                            searcher.moves_hash_first(&position, depth, Some(hash_move));
                        assert_eq!(lazy[0], hash_move);
                        searcher.order_later(&position, &mut lazy, depth, at.unwrap());
                        assert_eq!(lazy, eager, "{position:?} depth {depth}");
                    }
                    let (unhashed, at) = searcher.moves_hash_first(&position, depth, None);
                    assert_eq!(
                        (unhashed, at),
                        (searcher.ordered_moves(&position, depth, None), None)
                    );
                }
                position = position.play(legal[rng.random_range(0..legal.len())]);
            }
        }
    }

    #[test]
    fn othello_moves_ordered_behind_a_hash_move_keep_their_order() {
        let start = Othello::start(Geometry::Board8x8, Start::Standard);
        lazy_order_is_eager_order(start, &Evaluator::default());
    }

    #[test]
    fn kalah_moves_ordered_behind_a_hash_move_keep_their_order() {
        let start = Kalah::start(KalahRules::new(6, 4).expect("standard rules"));
        lazy_order_is_eager_order(start, &None);
    }
}
