//! Iterative deepening: which depths to search, with which window, and the hand-over of
//! each iteration's score to the next as its guess (NegaScout's aspiration window or
//! MTD(f)'s first pass).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::busy::BusyMoves;
use super::finished::FinishedIterations;
use super::limits::StopCheck;
use super::node::Searcher;
use super::root::RootOutcome;
use super::time_use::TimeUse;
use super::{
    Algorithm, Bound, DEPTH_TO_END, Goal, Iteration, Limits, Proof, RankedMove, Report, Score,
    SearchParams, SearchResult, Searchable, Selectivity, ThreadNumber, TranspositionTable,
    reported_depth,
};
use crate::game::GameMove;

/// Heuristic iterations stop this many plies short of the end before an exact or
/// win/loss/draw solve of a game that counts its empty squares.
const SOLVE_GAP: u32 = 12;

/// In a search with a time limit that ends in a solve, the heuristic iterations before it
/// go as deep as this share of the time allows (then the solve starts): if the solve
/// cannot finish in time, the move is the deepest of theirs rather than a shallow one's.
const SOLVE_START_SHARE: f64 = 0.15;

/// Heuristic iterations of a timed search stop this many plies short of the end before a
/// solve (deeper, they are a solve's cost without its proof).
const TIMED_SOLVE_GAP: u32 = 2;

/// One iteration of a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    depth: i32,
    /// Multi-ProbCut's confidence in this iteration: the search's own in heuristic
    /// iterations and probable solves, full width in exact and win/loss/draw solves.
    selectivity: Selectivity,
}

/// The iterations to run: depths with the window of each.
struct Plan {
    goal: Goal,
    steps: Vec<Step>,
    /// With a time limit and a solve to end with: when the solve starts, skipping the
    /// heuristic iterations left.
    solve_from: Option<Duration>,
}

impl Plan {
    fn new<G: Searchable>(
        position: &G,
        params: &SearchParams,
        resources: &G::Resources,
        limits: &Limits,
    ) -> Plan {
        let t = &params.thresholds;
        let empties = position.empties();
        let goal = limits.goal(empties, t);
        let open_ended = limits.infinite || limits.movetime.is_some() || limits.nodes.is_some();
        // A solve the search chose by empties for a move to play, not one asked for (by
        // its goal or by a depth that reaches the end): a chosen one with a time limit
        // searches deep first, from its share of the time on it solves.
        let chosen_solve =
            goal != Goal::Heuristic && limits.goal == Goal::Heuristic && limits.depth.is_none();
        let time = limits.move_time();
        let timed_solve = chosen_solve && time.is_some();
        let last = match goal {
            Goal::Heuristic => match limits.depth {
                Some(d) => i32::try_from(d)
                    .unwrap_or(DEPTH_TO_END)
                    .clamp(1, DEPTH_TO_END),
                None if open_ended => DEPTH_TO_END,
                None => t.mid_depth as i32,
            },
            Goal::Solve | Goal::Wld => DEPTH_TO_END,
        };
        // A selective search that the game can predict to the end (Othello's 8x8 with
        // its model, enough empties) first solves with the cuts: probable solves.
        let probable = params.selectivity.is_selective() && position.probable_solve_pays(resources);
        // Every heuristic iteration (and the first probable solve) at the level for the time.
        let level = params.selectivity.for_time(time);
        let heuristic = |depth| Step {
            depth,
            selectivity: level,
        };
        let exact = Step {
            depth: DEPTH_TO_END,
            selectivity: Selectivity::FULL,
        };
        // Before a chosen solve, or where deepening reaches the end: probable solves if
        // the search can make them (`probable`), at rising confidence from `level`, then
        // the exact solve.
        let to_the_end = |shallow: i32, level: Selectivity, probable: bool| {
            let probable_solves = level
                .probable_solves()
                .filter(|_| probable)
                .map(|selectivity| Step {
                    depth: DEPTH_TO_END,
                    selectivity,
                });
            (1..=shallow)
                .map(|depth| Step {
                    depth,
                    selectivity: level,
                })
                .chain(probable_solves)
                .chain([exact])
                .collect()
        };
        let steps = if !params.iterative {
            vec![if goal == Goal::Heuristic {
                heuristic(last)
            } else {
                exact
            }]
        } else if goal != Goal::Heuristic {
            // Shallow heuristic iterations for move ordering and a first guess, then the
            // solve (straight to the end: a game that cannot count its plies to the end,
            // Kalah, has a solver that needs no depth).
            let shallow = empties.map_or(t.mid_depth, |e| {
                if timed_solve {
                    e.saturating_sub(TIMED_SOLVE_GAP)
                } else {
                    e.saturating_sub(SOLVE_GAP).min(t.mid_depth)
                }
            }) as i32;
            if chosen_solve {
                to_the_end(shallow, level, probable)
            } else if goal == Goal::Solve
                && let Some(e) = empties
                && position.probable_solve_pays(resources)
            {
                // An asked exact solve goes to its proof as a search that deepens to the end
                // does, selective iterations and probable solves first, where the game can
                // make them, whatever the search's own selectivity: their table entries
                // order the proof's moves (as Edax's solves do; 0.8x the time of the proof
                // alone, docs/benchmarks-journal.md), and when a limit stops the proof the
                // most confident probable solve stands. A win/loss/draw proof is cheaper
                // than they are (1.4x the time behind them).
                to_the_end(
                    e.saturating_sub(TIMED_SOLVE_GAP) as i32,
                    Selectivity::SOLVE_WARM_UP,
                    true,
                )
            } else {
                (1..=shallow).map(heuristic).chain([exact]).collect()
            }
        } else if params.selectivity.is_selective()
            && let Some(e) = empties
            && last >= e as i32
        {
            // A selective search that reaches the end (deepening without a depth):
            // selective iterations up to two plies short of it (their model's range),
            // then probable solves where they pay, and the exact solve (deeper selective
            // iterations would search to the end without the solver).
            to_the_end(e.saturating_sub(TIMED_SOLVE_GAP) as i32, level, probable)
        } else {
            (1..=last).map(heuristic).collect()
        };
        Plan {
            goal,
            steps,
            solve_from: time
                .filter(|_| timed_solve)
                .map(|t| t.mul_f64(SOLVE_START_SHARE)),
        }
    }

    /// Whether the iteration at `index` is skipped: a heuristic one before a solve whose
    /// start time has come.
    fn skips(&self, index: usize, elapsed: Duration) -> bool {
        self.steps[index].depth < DEPTH_TO_END && self.solve_from.is_some_and(|t| elapsed >= t)
    }

    /// Whether the iteration at `index` is one of the solves (probable, then exact) a
    /// timed search ends with.
    fn is_timed_solve(&self, index: usize) -> bool {
        self.solve_from.is_some() && self.steps[index].depth == DEPTH_TO_END
    }

    /// The window of an iteration: outside it, values count only as "at most" / "at least".
    fn window<G: Searchable>(&self, position: &G, depth: i32) -> (i32, i32) {
        let max = position.max_score();
        match self.goal {
            Goal::Wld if depth == DEPTH_TO_END || position.empties().is_none() => (-1, 1),
            _ => (-max, max),
        }
    }
}

/// Solves a position exactly with the default parameters: the exact score, best move and
/// principal variation, no limit but the end of the game.
#[must_use]
pub fn solve_exact<G: Searchable>(
    position: &G,
    tt: &mut TranspositionTable,
) -> SearchResult<G::Move> {
    let limits = Limits::depth_or_exact(None);
    search(position, tt, &SearchParams::default(), &limits, &mut |_| {})
}

/// Searches `position` within `limits`, reporting every completed iteration (and, with
/// MTD(f), every pass) to `report`. Always returns a move unless the game is over.
///
/// With `params.threads` above 1, helper threads search the same position over the same
/// table at the same time (lazy SMP, docs/parallel.md): they fill the table with results
/// the main search then finds, and stop when it ends. The result is the main search's,
/// with every thread's nodes counted.
pub fn search<G: Searchable>(
    position: &G,
    tt: &mut TranspositionTable,
    params: &SearchParams,
    limits: &Limits,
    report: &mut dyn FnMut(Report<'_, G::Move>),
) -> SearchResult<G::Move> {
    search_with(
        position,
        tt,
        params,
        &G::Resources::default(),
        limits,
        report,
    )
}

/// [`search`], with `resources` only this game's search uses (Kalah's endgame database).
pub fn search_with<G: Searchable>(
    position: &G,
    tt: &mut TranspositionTable,
    params: &SearchParams,
    resources: &G::Resources,
    limits: &Limits,
    report: &mut dyn FnMut(Report<'_, G::Move>),
) -> SearchResult<G::Move> {
    tt.new_search();
    let tt: &TranspositionTable = tt;
    // `auto` chooses its level by the main search's time, once: helpers, open-ended,
    // search at the same.
    let params = &SearchParams {
        selectivity: params.selectivity.for_time(limits.move_time()).into(),
        ..params.clone()
    };
    if params.threads <= 1 {
        let alone = Shared {
            number: 0,
            busy: None,
            finished: None,
        };
        return search_thread(position, tt, params, resources, limits, &alone, report);
    }
    let stop_helpers = Arc::new(AtomicBool::new(false));
    let helper_limits = Limits {
        // The goal the main search settles on (a solve when few squares are empty).
        goal: limits.goal(position.empties(), &params.thresholds),
        depth: limits.depth,
        // Open-ended: a helper runs until the main search ends.
        infinite: limits.infinite
            || limits.movetime.is_some()
            || limits.nodes.is_some()
            || limits.stop.is_some(),
        stop: Some(Arc::clone(&stop_helpers)),
        exclude: limits.exclude.clone(),
        ..Limits::default()
    };
    let helper_params = SearchParams {
        principal_variation: false,
        ..params.clone()
    };
    let busy = BusyMoves::new();
    // A multi-PV search's iterations rank moves no helper ranks: each thread finishes its own.
    let finished = (limits.multipv <= 1).then(FinishedIterations::new);
    let shared = |number| Shared {
        number,
        busy: Some(&busy),
        finished: finished.as_ref(),
    };
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..params.threads)
            .map(|id| {
                let (limits, params, shared) = (&helper_limits, &helper_params, shared(id));
                scope.spawn(move || {
                    search_thread(
                        position,
                        tt,
                        params,
                        resources,
                        limits,
                        &shared,
                        &mut |_| {},
                    )
                    .stats
                    .nodes
                })
            })
            .collect();
        let main = shared(0);
        let mut result = search_thread(position, tt, params, resources, limits, &main, report);
        stop_helpers.store(true, Ordering::Relaxed);
        for helper in helpers {
            result.stats.nodes += helper.join().unwrap_or(0);
        }
        result
    })
}

/// What one thread of a search shares with the others.
struct Shared<'a, M> {
    /// The thread's number: 0 for the main thread, 1.. for the helpers.
    number: ThreadNumber,
    /// The moves the threads have in hand (none with one thread).
    busy: Option<&'a BusyMoves>,
    /// The deepest heuristic iteration a thread has finished (none with one thread).
    finished: Option<&'a FinishedIterations<M>>,
}

/// How far above the iteration's guess thread `thread` centres its root search (NegaScout's
/// aspiration window, MTD(f)'s first pass): odd helpers a disc above in heuristic
/// iterations, so that they test another bound than the main thread's and store the bounds
/// its next searches need (with MTD(f) to depth 22 at 58%, two threads took 0.88 of the
/// time of the same guess; a disc below, about 0.95: docs/parallel.md). Solves start
/// together, as their threads do best.
fn helper_guess_offset(thread: ThreadNumber, heuristic: bool) -> i32 {
    i32::from(heuristic && thread % 2 == 1)
}

/// Puts the moves after the first in thread `thread`'s order (lazy SMP): rotated by its
/// number, so that helpers start on other subtrees than the main thread (0) and each
/// other. The first move, the best known, stays first.
pub(crate) fn spread_for_thread<T>(moves: &mut [T], thread: ThreadNumber) {
    if moves.len() > 2 {
        let n = moves.len() - 1;
        moves[1..].rotate_left(thread % n);
    }
}

/// One thread's search: the main one (`thread` 0) or a helper, which tries the root moves
/// after the first in a rotated order, so that the threads start on other subtrees.
fn search_thread<G: Searchable>(
    position: &G,
    tt: &TranspositionTable,
    params: &SearchParams,
    resources: &G::Resources,
    limits: &Limits,
    shared: &Shared<'_, G::Move>,
    report: &mut dyn FnMut(Report<'_, G::Move>),
) -> SearchResult<G::Move> {
    let thread = shared.number;
    let mut stop_check = StopCheck::new(limits);
    if let Some(finished) = shared.finished {
        stop_check.watch_finished(finished.depth());
    }
    let root_entry = tt.probe(position.hash_key());
    let mut s: Searcher<'_, G> = Searcher::new(tt, params.clone(), resources, stop_check);
    s.thread = thread;
    s.busy = shared.busy;
    let mut moves = s.ordered_moves(
        position,
        DEPTH_TO_END,
        root_entry.and_then(|e| e.best_move()),
    );
    if moves.iter().any(|m| !limits.exclude.contains(&m.to_byte())) {
        moves.retain(|m| !limits.exclude.contains(&m.to_byte()));
    }
    let excluded = moves.len() < position.count_moves();
    s.partial_root = excluded;
    spread_for_thread(&mut moves, thread);
    if moves.is_empty() {
        return SearchResult {
            best_move: None,
            score: Score {
                value: position.final_score(),
                bound: Bound::Exact,
                proof: Proof::Solved,
            },
            pv: Vec::new(),
            selectivity: Selectivity::FULL,
            iterations: Vec::new(),
            main_nodes: s.stats.nodes,
            stats: s.stats,
            time: s.stop_check.elapsed(),
            stopped: false,
        };
    }
    // Every thread runs the same iterations: a heuristic entry serves only a search of
    // its own depth, so threads at one depth share their entries and the young brothers
    // split the work (helpers a ply deeper served no other thread: docs/parallel.md).
    let plan = Plan::new(position, params, resources, limits);
    let mut guess = params.first_guess.unwrap_or_else(|| match root_entry {
        Some(e) if e.lower() == e.upper() => e.lower(),
        _ => position.evaluate(resources),
    });
    let mut iterations: Vec<Iteration<G::Move>> = Vec::new();
    let mut better = None;
    let mut pace = Pace::default();
    let mut time_use = TimeUse::default();
    // The deepest heuristic iteration this thread has finished or taken over.
    let mut done = 0;
    for (index, &Step { depth, selectivity }) in plan.steps.iter().enumerate() {
        let heuristic = depth < DEPTH_TO_END;
        if plan.skips(index, s.stop_check.elapsed()) || (heuristic && depth <= done) {
            continue;
        }
        s.selectivity = selectivity;
        // A solve's cost does not follow the heuristic iterations' growth: it starts
        // whenever the clock's share is not spent, however stable the move.
        let (growth, scale) = if plan.is_timed_solve(index) {
            (0.0, time_use.scale().max(1.0))
        } else {
            (pace.growth(), time_use.scale())
        };
        // Another thread may have finished this iteration already (taking it over costs
        // nothing), or finish it while this one searches it: its result is then this
        // thread's too.
        let finished = shared.finished.filter(|_| heuristic);
        let taken = finished.and_then(|f| f.at_least(depth));
        if taken.is_none()
            && !iterations.is_empty()
            && !s.stop_check.may_start_iteration(pace.last, growth, scale)
        {
            break;
        }
        let iteration_started = s.stop_check.elapsed();
        let before = s.stats.clone();
        let window = plan.window(position, depth);
        let (depth, outcome, proven) = match taken {
            Some(taken) => taken,
            None => {
                s.stop_check.set_iteration(finished.map(|_| depth));
                let guess = guess + helper_guess_offset(thread, heuristic);
                let outcome =
                    root_search(&mut s, position, &mut moves, depth, guess, window, report);
                let overtaken = s.stopped && s.stop_check.overtaken();
                s.stop_check.set_iteration(None);
                match finished
                    .filter(|_| overtaken)
                    .and_then(|f| f.at_least(depth))
                {
                    Some(taken) => {
                        s.stopped = false;
                        taken
                    }
                    None if s.stopped => {
                        if outcome.displaced_first {
                            // Searched to the end before the stop, this move beat the
                            // previous best.
                            better = Some(outcome);
                        }
                        break;
                    }
                    None => {
                        let proven = s.stats.heuristic_leaves == before.heuristic_leaves;
                        if let Some(f) = finished {
                            f.publish(depth, outcome, proven);
                        }
                        (depth, outcome, proven)
                    }
                }
            }
        };
        if heuristic {
            done = depth;
            // Where the next iteration expects the best move (a taken-over one too).
            if let Some(i) = moves.iter().position(|&m| m == outcome.best_move) {
                moves[..=i].rotate_right(1);
            }
        }
        let best = ranked(&mut s, position, depth, window, &outcome, proven);
        // The next ranks: each a search of the moves not ranked yet.
        let mut alternatives = Vec::new();
        let mut previous = outcome.value;
        // Deeper iterations stop only once every ranked move is proven.
        let mut all_proven = proven;
        for rank in 1..limits.multipv.min(moves.len()) {
            let leaves = s.stats.heuristic_leaves;
            s.partial_root = true;
            let next = root_search(
                &mut s,
                position,
                &mut moves[rank..],
                depth,
                previous,
                window,
                report,
            );
            s.partial_root = excluded;
            if s.stopped {
                break;
            }
            let proven = s.stats.heuristic_leaves == leaves;
            all_proven &= proven;
            alternatives.push(ranked(&mut s, position, depth, window, &next, proven));
            previous = next.value;
        }
        let (best, alternatives) = in_score_order(best, alternatives, &mut moves);
        let iteration = Iteration {
            depth: reported_depth(depth),
            score: best.score,
            best_move: best.mv,
            pv: best.pv,
            alternatives,
            selectivity,
            stats: s.stats.since(&before),
            time: s.stop_check.elapsed(),
        };
        report(Report::Iteration(&iteration));
        pace.record(iteration.time - iteration_started);
        time_use.record(iteration.best_move, iteration.score.value);
        iterations.push(iteration);
        // A selective search guesses the next iteration from the one before this (the
        // same parity of depth): Othello's values swing between odd and even depths, and
        // each disc of a guess's error costs MTD(f) a pass (NegaScout, a re-search in a
        // wider window). A full-width search feeds each result to the next, as the papers do.
        // A solve (probable or exact) starts from the latest value: the last heuristic
        // iteration, two plies short of the end, has the end's parity.
        let solve_next = plan
            .steps
            .get(index + 1)
            .is_some_and(|next| next.depth == DEPTH_TO_END);
        guess = match iterations.len() {
            n if n >= 2 && !solve_next && selectivity != Selectivity::FULL => {
                iterations[n - 2].score.value
            }
            n => iterations[n - 1].score.value,
        };
        if all_proven || s.stopped {
            break;
        }
    }
    let time = s.stop_check.elapsed();
    let (best_move, score, pv, selectivity) = match (better, iterations.last()) {
        (Some(b), _) => (
            b.best_move,
            Score {
                value: b.value,
                bound: Bound::Lower,
                proof: Proof::Heuristic,
            },
            s.table_line(position, b.best_move, DEPTH_TO_END),
            s.selectivity,
        ),
        (None, Some(it)) => (it.best_move, it.score, it.pv.clone(), it.selectivity),
        (None, None) => (
            moves[0],
            Score {
                value: guess,
                bound: Bound::Exact,
                proof: Proof::Heuristic,
            },
            vec![moves[0]],
            Selectivity::FULL,
        ),
    };
    SearchResult {
        best_move: Some(best_move),
        score,
        pv,
        selectivity,
        iterations,
        main_nodes: s.stats.nodes,
        stats: s.stats,
        time,
        stopped: s.stopped,
    }
}

/// How long iterations take, to tell whether the next one fits in the time left.
#[derive(Default)]
struct Pace {
    /// The last iteration's time, and the one before.
    last: Duration,
    before: Duration,
}

impl Pace {
    /// Growth assumed with too little to measure it from.
    const DEFAULT_GROWTH: f64 = 3.0;

    fn record(&mut self, time: Duration) {
        self.before = self.last;
        self.last = time;
    }

    /// How many times longer the next iteration is expected to take than the last: as the
    /// last grew over the one before, within reason (very short iterations measure noise).
    fn growth(&self) -> f64 {
        if self.before < Duration::from_millis(1) {
            return Self::DEFAULT_GROWTH;
        }
        (self.last.as_secs_f64() / self.before.as_secs_f64()).clamp(1.5, 6.0)
    }
}

/// One root search of `moves` at `depth`: MTD(f) from `guess`, NegaScout in a window
/// around it when deepening, or the algorithm's own full-window search.
fn root_search<G: Searchable>(
    s: &mut Searcher<'_, G>,
    position: &G,
    moves: &mut [G::Move],
    depth: i32,
    guess: i32,
    (floor, ceiling): (i32, i32),
    report: &mut dyn FnMut(Report<'_, G::Move>),
) -> RootOutcome<G::Move> {
    if s.algorithm == Algorithm::Mtdf {
        let reported = reported_depth(depth);
        let mut on_pass = |pass, time| {
            report(Report::Pass {
                depth: reported,
                pass,
                time,
            });
        };
        s.mtdf(
            position,
            moves,
            depth,
            guess,
            (floor, ceiling),
            &mut on_pass,
        )
    } else if s.algorithm == Algorithm::NegaScout && s.params.iterative {
        s.aspiration(position, moves, depth, guess, (floor, ceiling))
    } else {
        s.root(position, moves, depth, floor, ceiling)
    }
}

/// A multi-PV iteration's ranked lines in score order (a stable sort: equal scores keep
/// their ranks), with the front of the root's `moves` (the ranked moves, in rank order)
/// reordered to match. A rank's selective search can value its move above an earlier
/// rank's (its window and cuts differ): the best move is then the line valued highest.
fn in_score_order<M: Copy>(
    best: RankedMove<M>,
    alternatives: Vec<RankedMove<M>>,
    moves: &mut [M],
) -> (RankedMove<M>, Vec<RankedMove<M>>) {
    let mut lines: Vec<_> = std::iter::once(best).chain(alternatives).collect();
    lines.sort_by_key(|line| std::cmp::Reverse(line.score.value));
    for (slot, line) in moves.iter_mut().zip(&lines) {
        *slot = line.mv;
    }
    let mut lines = lines.into_iter();
    let best = lines.next().expect("the best line");
    (best, lines.collect())
}

/// A root move's score (its bound and proof) and line, from a completed root search.
fn ranked<G: Searchable>(
    s: &mut Searcher<'_, G>,
    position: &G,
    depth: i32,
    (floor, ceiling): (i32, i32),
    outcome: &RootOutcome<G::Move>,
    proven: bool,
) -> RankedMove<G::Move> {
    let wld = proven && (floor, ceiling) == (-1, 1);
    let value = outcome.value;
    let bound = if value >= ceiling && ceiling < position.max_score() {
        Bound::Lower
    } else if value <= floor && floor > -position.max_score() {
        Bound::Upper
    } else {
        Bound::Exact
    };
    let pv = if !s.params.principal_variation {
        vec![outcome.best_move]
    } else if bound == Bound::Exact {
        s.principal_variation(position, outcome.best_move, value, depth)
    } else {
        s.table_line(position, outcome.best_move, depth)
    };
    RankedMove {
        mv: outcome.best_move,
        score: Score {
            value,
            bound,
            proof: match (proven, wld) {
                (false, _) => Proof::Heuristic,
                (true, true) => Proof::Wld,
                (true, false) => Proof::Solved,
            },
        },
        pv,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::kalah::{Kalah, KalahRules};
    use crate::game::othello::{Geometry, Othello};
    use crate::game::{Game, Start};
    use crate::search::othello::eval::Evaluator;
    use crate::search::{Depth, SelectivitySchedule};

    #[test]
    fn odd_helpers_guess_a_disc_above_in_heuristic_iterations_only() {
        let offsets: Vec<_> = (0..5).map(|t| helper_guess_offset(t, true)).collect();
        assert_eq!(offsets, [0, 1, 0, 1, 0], "the main thread keeps the guess");
        assert!(
            (0..5).all(|t| helper_guess_offset(t, false) == 0),
            "every thread starts a solve from the same guess"
        );
    }

    /// The MTD(f) passes a depth-4 search of `position` reports.
    fn passes<G: Searchable>(position: &G, algorithm: Option<Algorithm>) -> usize {
        let mut tt = TranspositionTable::new(1);
        let params = SearchParams {
            algorithm,
            ..SearchParams::default()
        };
        let mut passes = 0;
        let limits = Limits::depth_or_exact(Some(4));
        search(position, &mut tt, &params, &limits, &mut |report| {
            passes += usize::from(matches!(report, Report::Pass { .. }));
        });
        passes
    }

    #[test]
    fn each_game_searches_its_own_way_unless_asked() {
        let othello = Othello::start(Geometry::Board8x8, Start::Standard);
        assert_eq!(
            passes(&othello, None),
            0,
            "Othello's own search is NegaScout"
        );
        assert!(passes(&othello, Some(Algorithm::Mtdf)) >= 4);
        let kalah = Kalah::start(KalahRules::new(6, 4).expect("standard rules"));
        assert!(passes(&kalah, None) >= 4, "Kalah's own search is MTD(f)");
        assert_eq!(passes(&kalah, Some(Algorithm::NegaScout)), 0);
    }

    #[test]
    fn a_spent_clock_share_lets_only_the_first_iteration_run() {
        let start = Othello::start(Geometry::Board8x8, Start::Standard);
        let mut tt = TranspositionTable::new(4);
        let limits = |soft| Limits {
            depth: Some(6),
            soft_time: Some(soft),
            movetime: Some(Duration::from_secs(600)),
            ..Limits::default()
        };
        let params = SearchParams::default();
        let spent = search(
            &start,
            &mut tt,
            &params,
            &limits(Duration::ZERO),
            &mut |_| {},
        );
        assert_eq!(spent.iterations.len(), 1);
        assert!(!spent.stopped && spent.best_move.is_some());
        let ample = limits(Duration::from_secs(600));
        let whole = search(&start, &mut tt, &params, &ample, &mut |_| {});
        assert_eq!(whole.iterations.len(), 6);
    }

    #[test]
    fn the_main_thread_nodes_are_counted_apart_from_the_helpers() {
        let start = Othello::start(Geometry::Board8x8, Start::Standard);
        // Two ranked moves: each thread searches every iteration itself (none is taken
        // over), so the main thread surely counts nodes of its own.
        let limits = Limits {
            multipv: 2,
            ..Limits::depth_or_exact(Some(9))
        };
        let searched = |threads| {
            let params = SearchParams {
                threads,
                ..SearchParams::default()
            };
            let mut tt = TranspositionTable::new(16);
            search(&start, &mut tt, &params, &limits, &mut |_| {})
        };
        let one = searched(1);
        assert_eq!(one.main_nodes, one.stats.nodes);
        let two = searched(2);
        assert!(0 < two.main_nodes && two.main_nodes < two.stats.nodes);
    }

    /// The library's parameters at the level games are played at.
    fn selective() -> SearchParams {
        SearchParams {
            selectivity: SelectivitySchedule::PLAY,
            ..SearchParams::default()
        }
    }

    fn depths(plan: &Plan) -> Vec<i32> {
        plan.steps.iter().map(|s| s.depth).collect()
    }

    #[test]
    fn a_timed_solve_searches_deep_first_and_solves_from_its_share_of_the_time() {
        let ffo40 = &crate::suite::ffo()[0];
        assert_eq!(ffo40.position.empties(), Some(20));
        let params = SearchParams::default();
        let evaluator = Evaluator::default();
        let ms = Duration::from_millis;
        let timed = Limits {
            movetime: Some(ms(100)),
            ..Limits::default()
        };
        let plan = Plan::new(&ffo40.position, &params, &evaluator, &timed);
        assert_eq!(plan.goal, Goal::Wld);
        let expected: Vec<i32> = (1..=18).chain([DEPTH_TO_END]).collect();
        assert_eq!(depths(&plan), expected);
        assert!(
            plan.steps
                .iter()
                .all(|s| s.selectivity == Selectivity::FULL)
        );
        assert_eq!(plan.solve_from, Some(ms(15)));
        assert!(!plan.skips(3, ms(14)) && plan.skips(3, ms(15)));
        assert!(!plan.skips(18, ms(99)), "the solve itself is never skipped");
        assert!(plan.is_timed_solve(18) && !plan.is_timed_solve(17));
        // Without a time limit: the shallow iterations, then the solve, always.
        let expected: Vec<i32> = (1..=8).chain([DEPTH_TO_END]).collect();
        let untimed = Plan::new(&ffo40.position, &params, &evaluator, &Limits::default());
        assert_eq!((depths(&untimed), untimed.solve_from), (expected, None));
        // Asked for a solve, with a time limit or not: never from a share of the time.
        let asked = Limits {
            goal: Goal::Solve,
            ..timed
        };
        let asked = Plan::new(&ffo40.position, &params, &evaluator, &asked);
        assert_eq!(asked.solve_from, None);
        assert_eq!(asked.steps.last().map(|s| s.depth), Some(DEPTH_TO_END));
    }

    #[test]
    fn a_selective_search_solves_probably_then_exactly() {
        let ffo40 = &crate::suite::ffo()[0];
        let params = selective();
        let evaluator = Evaluator::default();
        let timed = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        let step = |depth, selectivity| Step { depth, selectivity };
        let level = SelectivitySchedule::PLAY.for_time(timed.movetime);
        let plan = Plan::new(&ffo40.position, &params, &evaluator, &timed);
        // The probable solves at rising confidence (58% to 95%), then the proof.
        let ends: Vec<Step> = [58, 73, 87, 95, 100]
            .map(|percent| step(DEPTH_TO_END, Selectivity::from_percent(percent).unwrap()))
            .into();
        let expected: Vec<Step> = (1..=18)
            .map(|d| step(d, level))
            .chain(ends.iter().copied())
            .collect();
        assert_eq!(plan.steps, expected);
        assert!((18..23).all(|i| plan.is_timed_solve(i)));
        assert!(!plan.skips(18, Duration::from_secs(1)));
        // Deepening with no end in sight: selective up to two plies short of the end.
        let opening = Othello::start(Geometry::Board8x8, Start::Standard);
        let plan = Plan::new(&opening, &params, &evaluator, &timed);
        assert_eq!(plan.goal, Goal::Heuristic);
        assert_eq!(plan.steps.len(), 58 + ends.len());
        assert_eq!(plan.steps[57], step(58, level));
        assert_eq!(plan.steps[58..], ends);
        // An asked exact solve (or a depth that reaches the end, which is one) makes its
        // proof behind selective iterations to two plies short of the end and probable
        // solves, at the warm-up's levels whatever the search's own.
        let warm_up = Selectivity::SOLVE_WARM_UP;
        let expected: Vec<Step> = (1..=18)
            .map(|d| step(d, warm_up))
            .chain(
                [73, 87, 95, 100]
                    .map(|percent| step(DEPTH_TO_END, Selectivity::from_percent(percent).unwrap())),
            )
            .collect();
        let asked = Limits {
            goal: Goal::Solve,
            ..timed.clone()
        };
        for params in [selective(), SearchParams::default()] {
            for limits in [&asked, &Limits::depth_or_exact(Some(30))] {
                let plan = Plan::new(&ffo40.position, &params, &evaluator, limits);
                assert_eq!((plan.goal, &plan.steps), (Goal::Solve, &expected));
            }
        }
        // Not before a win/loss/draw proof, cheaper than they are; and without the
        // evaluation's model (the hand evaluation), none.
        let wld = Limits {
            goal: Goal::Wld,
            ..timed.clone()
        };
        let shallow_then =
            |last: Step| -> Vec<Step> { (1..=8).map(|d| step(d, level)).chain([last]).collect() };
        let exact = step(DEPTH_TO_END, Selectivity::FULL);
        let plan = Plan::new(&ffo40.position, &params, &evaluator, &wld);
        assert_eq!(plan.steps, shallow_then(exact));
        let plan = Plan::new(&ffo40.position, &params, &Evaluator::Hand, &asked);
        assert_eq!(plan.steps, shallow_then(exact));
        let plan = Plan::new(&ffo40.position, &params, &Evaluator::Hand, &timed);
        assert_eq!(plan.steps.len(), 19);
        // Below 19 empties the exact solve alone is the faster.
        let mut near = ffo40.position;
        while near.empties() > Some(18) {
            let mut moves = crate::game::MoveList::new();
            near.generate_moves(&mut moves);
            near = near.play(moves[0]);
        }
        let plan = Plan::new(&near, &params, &evaluator, &timed);
        let solves: Vec<&Step> = plan
            .steps
            .iter()
            .filter(|s| s.depth == DEPTH_TO_END)
            .collect();
        assert_eq!(solves, [&step(DEPTH_TO_END, Selectivity::FULL)]);
        // Asked for a depth that reaches the end there: the solve, as asked for one.
        let deep = Plan::new(
            &near,
            &params,
            &evaluator,
            &Limits::depth_or_exact(Some(30)),
        );
        let expected: Vec<Step> = (1..=6)
            .map(|d| step(d, level))
            .chain([step(DEPTH_TO_END, Selectivity::FULL)])
            .collect();
        assert_eq!(deep.steps, expected);
    }

    #[test]
    fn auto_searches_at_73_percent_with_time_and_at_58_without() {
        let params = SearchParams {
            selectivity: SelectivitySchedule::Auto,
            ..SearchParams::default()
        };
        let evaluator = Evaluator::default();
        let ffo40 = &crate::suite::ffo()[0];
        // The heuristic iterations and the first probable solve at the time's level, the
        // next probable solves more confident, the exact solve full width.
        let levels = |limits: &Limits| -> Vec<u32> {
            let plan = Plan::new(&ffo40.position, &params, &evaluator, limits);
            let mut levels: Vec<u32> = plan.steps.iter().map(|s| s.selectivity.percent()).collect();
            levels.dedup();
            levels
        };
        let ms = |ms| Some(Duration::from_millis(ms));
        let moving = |movetime| Limits {
            movetime,
            ..Limits::default()
        };
        assert_eq!(levels(&moving(ms(100))), [58, 73, 87, 95, 100]);
        assert_eq!(levels(&moving(ms(500))), [73, 87, 95, 100]);
        // On a clock, the move's share decides.
        let clock = |share| Limits {
            soft_time: share,
            movetime: ms(10_000),
            ..Limits::default()
        };
        assert_eq!(levels(&clock(ms(200))), [58, 73, 87, 95, 100]);
        assert_eq!(levels(&clock(ms(400))), [73, 87, 95, 100]);
        // A search without a time limit reports the level it searched at.
        let mut tt = TranspositionTable::new(16);
        let result = search_with(
            &ffo40.position,
            &mut tt,
            &params,
            &evaluator,
            &Limits::depth_or_exact(Some(4)),
            &mut |_| {},
        );
        assert!(
            result
                .iterations
                .iter()
                .all(|it| it.selectivity.percent() == 58)
        );
        assert_eq!(result.selectivity.percent(), 58);
    }

    #[test]
    fn a_probable_solve_is_reported_as_heuristic_and_the_exact_one_proves() {
        let ffo40 = &crate::suite::ffo()[0];
        let params = selective();
        let evaluator = Evaluator::default();
        let mut tt = TranspositionTable::new(64);
        let timed = Limits {
            movetime: Some(Duration::from_secs(600)),
            ..Limits::default()
        };
        let result = search_with(
            &ffo40.position,
            &mut tt,
            &params,
            &evaluator,
            &timed,
            &mut |_| {},
        );
        let ends: Vec<(u32, Proof)> = result
            .iterations
            .iter()
            .filter(|it| it.depth == Depth::End)
            .map(|it| (it.selectivity.percent(), it.score.proof))
            .collect();
        let probable = Proof::Heuristic;
        assert_eq!(
            ends,
            [
                (58, probable),
                (73, probable),
                (87, probable),
                (95, probable),
                (100, Proof::Wld)
            ]
        );
        assert_eq!(result.score.proof, Proof::Wld);
        assert_eq!(result.score.value.signum(), ffo40.score.unwrap().signum());
        // Asked for a depth past the end, a selective search solves exactly.
        tt.clear();
        let limits = Limits::depth_or_exact(Some(40));
        let result = search_with(
            &ffo40.position,
            &mut tt,
            &params,
            &evaluator,
            &limits,
            &mut |_| {},
        );
        let last = result.iterations.last().unwrap();
        assert_eq!((last.depth, last.score.proof), (Depth::End, Proof::Solved));
        assert_eq!(Some(result.score.value), ffo40.score);
    }

    #[test]
    fn the_next_iteration_is_expected_to_grow_as_the_last_did() {
        let ms = Duration::from_millis;
        let mut pace = Pace::default();
        pace.record(ms(0));
        pace.record(ms(5));
        assert_eq!(pace.growth(), Pace::DEFAULT_GROWTH, "too short to measure");
        pace.record(ms(20));
        assert_eq!(pace.growth(), 4.0);
        pace.record(ms(21));
        assert_eq!(pace.growth(), 1.5);
        pace.record(ms(2100));
        assert_eq!(pace.growth(), 6.0);
    }
}
