//! `engine bench` is deterministic: its node count is pinned, and a search repeated after
//! clearing the table gives the same count.

use engine::bench::{BENCH_CASES, BENCH_HASH_MIB, run_case};
use engine::search::SearchParams;
use engine::search::TranspositionTable;
use engine::search::othello::eval::Evaluator;

/// Update when a change to the search is meant to change it (and say why in the commit).
const SIGNATURE: u64 = 10_722_227;

#[test]
fn bench_node_count_is_pinned() {
    let mut tt = TranspositionTable::new(BENCH_HASH_MIB);
    let total: u64 = BENCH_CASES
        .iter()
        .map(|case| {
            run_case(
                case,
                &mut tt,
                &SearchParams::default(),
                &Evaluator::default(),
            )
            .nodes
        })
        .sum();
    assert_eq!(total, SIGNATURE);
}

#[test]
fn the_same_search_after_newgame_gives_the_same_count() {
    let mut tt = TranspositionTable::new(BENCH_HASH_MIB);
    let first = run_case(
        &BENCH_CASES[1],
        &mut tt,
        &SearchParams::default(),
        &Evaluator::default(),
    );
    let again = run_case(
        &BENCH_CASES[1],
        &mut tt,
        &SearchParams::default(),
        &Evaluator::default(),
    );
    assert_eq!(
        (first.nodes, first.score, &first.best_move),
        (again.nodes, again.score, &again.best_move)
    );
}
