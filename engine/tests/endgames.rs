//! Exact 8x8 endgame scores: ten positions with 14-22 empties (scores found by two
//! searches of different design, see data/endgames.txt), and the FFO positions with the
//! fewest empties.

use engine::game::Game;
use engine::search::{
    Goal, Limits, Proof, SearchParams, SelectivitySchedule, TranspositionTable, search, solve_exact,
};
use engine::suite::{SuitePosition, ffo, parse_suite};

fn check(entry: &SuitePosition, tt: &mut TranspositionTable) {
    tt.clear();
    let result = solve_exact(&entry.position, tt);
    let expected = entry.score.expect("the file gives a score");
    assert_eq!(result.score.value, expected, "#{}", entry.id);
    assert_eq!(result.score.proof, Proof::Solved, "#{}", entry.id);
    let best = result.best_move.expect("a move");
    if !entry.best_moves.is_empty() {
        assert!(
            entry.best_moves.contains(&best.to_string()),
            "#{}: {best}",
            entry.id
        );
    }
    // The move achieves the score: solve the position after it.
    tt.clear();
    let after = solve_exact(&entry.position.play(best), tt);
    assert_eq!(
        -after.score.value, expected,
        "#{}: {best} does not keep the score",
        entry.id
    );
}

#[test]
fn endgames_with_14_to_22_empties() {
    let suite = parse_suite(include_str!("../data/endgames.txt")).unwrap();
    assert_eq!(suite.len(), 10);
    let mut tt = TranspositionTable::new(128);
    for entry in &suite {
        let empties = entry.position.empties().unwrap();
        assert!(
            (14..=22).contains(&empties),
            "#{}: {empties} empties",
            entry.id
        );
        check(entry, &mut tt);
    }
}

#[test]
fn ffo_40_and_42() {
    let mut tt = TranspositionTable::new(128);
    let suite = ffo();
    let chosen: Vec<&SuitePosition> = suite
        .iter()
        .filter(|e| e.id == "40" || e.id == "42")
        .collect();
    assert_eq!(chosen.len(), 2, "FFO #40 and #42 are in the suite");
    for entry in chosen {
        check(entry, &mut tt);
    }
}

/// A solve asked of a search at the engine's default selectivity (as every front makes
/// it) is exact: its score proven and right, never a probable solve's.
#[test]
fn a_selective_search_asked_to_solve_is_exact() {
    let params = SearchParams {
        selectivity: SelectivitySchedule::PLAY,
        ..SearchParams::default()
    };
    let endgames = parse_suite(include_str!("../data/endgames.txt")).unwrap();
    let suite = ffo();
    let first_ffo = suite.iter().take(5);
    let mut tt = TranspositionTable::new(128);
    let mut solved = Vec::new();
    for entry in endgames.iter().chain(first_ffo) {
        tt.clear();
        let limits = Limits {
            goal: Goal::Solve,
            ..Limits::default()
        };
        let result = search(&entry.position, &mut tt, &params, &limits, &mut |_| {});
        assert_eq!(
            (result.score.value, result.score.proof),
            (entry.score.expect("the file gives a score"), Proof::Solved),
            "#{}",
            entry.id
        );
        solved.push(entry.id.clone());
    }
    assert_eq!(solved.len(), 15, "{solved:?}");
    assert_eq!(solved[10..], ["40", "41", "42", "43", "44"]);
}
