//! Nodes one ply from the horizon, the most numerous interior nodes, searched straight from
//! the bitboards: the generic node's work without its move list, table key and calls. The
//! search is the same, move for move: the static square order, each child counted as a
//! node and evaluated as a leaf, NegaScout's re-search of a leaf counted again
//! (docs/benchmarks-journal.md). One difference: each leaf is evaluated with its window,
//! so that the evaluation's network runs only where it can bring the leaf into the window
//! (a bound beyond it otherwise, which fail-soft alpha-beta takes as it is:
//! docs/evaluation.md, "The network over the patterns").

use super::order::order_tables;
use crate::game::Game;
use crate::game::othello::geometry::squares;
use crate::game::othello::{Othello, OthelloMove};
use crate::search::othello::eval::Evaluator;
use crate::search::{INFINITY, SolverContext};

/// The fail-soft value of `position` searched one ply deep in `(alpha, beta)`, or `None`
/// when the side to move must pass (the generic node plays the pass). `scout`: after the
/// first move, NegaScout probes each child with a null window and re-searches one that
/// lands inside the window, which for a leaf means evaluating it again with the wider
/// window (its first value may have been a bound). When a limit stops
/// the search, `ctx.stopped` is set and the value means nothing.
pub(super) fn frontier(
    position: &Othello,
    alpha: i32,
    beta: i32,
    scout: bool,
    ctx: &mut SolverContext<'_>,
    evaluator: &Evaluator,
) -> Option<i32> {
    let moves = position.moves();
    if moves == 0 {
        return None;
    }
    let mut best = -INFINITY;
    let mut first = true;
    // The generic node's order one ply from the horizon: class by class, by square within
    // a class.
    const _: () = assert!(super::FASTEST_FIRST_DEPTH > 1, "the static order only");
    for class in order_tables(position.geometry()).classes {
        for square in squares(moves & class) {
            let child = position.play(OthelloMove::square(square));
            let lo = alpha.max(best);
            let hi = if first || !scout { beta } else { lo + 1 };
            let mut value = -leaf(&child, ctx, evaluator, (-hi, -lo));
            if !first && scout && value > lo && value < beta && !*ctx.stopped {
                value = -leaf(&child, ctx, evaluator, (-beta, -lo));
            }
            if *ctx.stopped {
                return Some(0);
            }
            first = false;
            if value > best {
                best = value;
                if best >= beta {
                    return Some(best);
                }
            }
        }
    }
    Some(best)
}

/// A child at the horizon searched with `window` (its own side's), fail-soft, counted as
/// the generic search counts a leaf node.
#[inline]
fn leaf(
    child: &Othello,
    ctx: &mut SolverContext<'_>,
    evaluator: &Evaluator,
    (lo, hi): (i32, i32),
) -> i32 {
    if ctx.enter() {
        return 0;
    }
    ctx.stats
        .count_leaf(child.horizon_within(evaluator, lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::Geometry;
    use crate::game::{MoveList, Start};
    use crate::search::limits::{Limits, StopCheck};
    use crate::search::{Horizon, SearchStats, Searchable, horizon_value};
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// The generic node one ply from the horizon, written out: its move order, its leaves
    /// (each with its window, `bounded`; otherwise exact), NegaScout's re-search of a leaf
    /// inside the window.
    fn generic(
        position: &Othello,
        (alpha, beta): (i32, i32),
        scout: bool,
        bounded: bool,
        evaluator: &Evaluator,
        stats: &mut SearchStats,
    ) -> i32 {
        let mut moves = MoveList::new();
        position.generate_moves(&mut moves);
        position.order_moves(&mut moves, 1, false, evaluator);
        let mut leaf = |child: &Othello, (lo, hi): (i32, i32)| {
            stats.nodes += 1;
            stats.leaf_evals += 1;
            let horizon = if bounded {
                child.horizon_within(evaluator, lo, hi)
            } else {
                horizon_value(child, evaluator)
            };
            if let Horizon::Estimate(_) = horizon {
                stats.heuristic_leaves += 1;
            }
            horizon.value()
        };
        let mut best = -INFINITY;
        for (i, &mv) in moves.iter().enumerate() {
            let child = position.play(mv);
            let lo = alpha.max(best);
            let hi = if scout && i > 0 { lo + 1 } else { beta };
            let mut v = -leaf(&child, (-hi, -lo));
            if scout && i > 0 && v > lo && v < beta {
                v = -leaf(&child, (-beta, -lo));
            }
            if v > best {
                best = v;
                if best >= beta {
                    break;
                }
            }
        }
        best
    }

    #[test]
    fn frontier_nodes_search_as_the_generic_node() {
        let mut rng = StdRng::seed_from_u64(11);
        for (geometry, evaluator) in [
            (Geometry::Board8x8, Evaluator::default()),
            (Geometry::Board8x8, Evaluator::Hand),
            (Geometry::Board6x6, Evaluator::default()),
        ] {
            for _ in 0..40 {
                let mut p = Othello::start(geometry, Start::Standard);
                while !p.is_terminal() {
                    let a = rng.random_range(-20..20);
                    let window = (a, a + rng.random_range(1..20));
                    for scout in [false, true] {
                        let mut stop_check = StopCheck::new(&Limits::default());
                        let (mut stopped, mut stats) = (false, SearchStats::default());
                        let mut ctx = SolverContext {
                            tt: None,
                            stats: &mut stats,
                            stop_check: &mut stop_check,
                            stopped: &mut stopped,
                            thread: 0,
                            busy: None,
                        };
                        let got = frontier(&p, window.0, window.1, scout, &mut ctx, &evaluator);
                        let mut expected_stats = SearchStats::default();
                        let expected =
                            generic(&p, window, scout, true, &evaluator, &mut expected_stats);
                        if p.moves() == 0 {
                            assert_eq!(got, None, "{p}");
                            continue;
                        }
                        assert_eq!(got, Some(expected), "{p} {window:?} scout {scout}");
                        assert_eq!(stats, expected_stats, "{p} {window:?} scout {scout}");
                        // With exact leaves: the same value inside the window, and beyond
                        // it a bound on the same side that the exact value does not pass.
                        let exact = generic(
                            &p,
                            window,
                            scout,
                            false,
                            &evaluator,
                            &mut Default::default(),
                        );
                        let what = format!("{p} scout {scout}");
                        crate::search::assert_fail_soft(expected, exact, window, &what);
                    }
                    let mut moves = MoveList::new();
                    p.generate_moves(&mut moves);
                    p = p.play(moves[rng.random_range(0..moves.len())]);
                }
            }
        }
    }
}
