//! The shipped trained evaluation against exact scores: the 130 self-play positions of
//! data/endgames-14-24.obf (scores by our solver and by Edax) and the FFO positions.

use engine::search::eval::Evaluate;
use engine::search::othello::eval::Evaluator;
use engine::search::othello::eval::hand::evaluate as hand;
use engine::suite::{SuitePosition, ffo, parse_suite};

fn suite() -> Vec<SuitePosition> {
    let mut positions = parse_suite(include_str!("../data/endgames-14-24.obf")).unwrap();
    positions.extend(ffo());
    positions
}

fn mean_error(positions: &[SuitePosition], eval: impl Fn(&SuitePosition) -> i32) -> f64 {
    let total: i32 = positions
        .iter()
        .map(|p| (eval(p) - p.score.expect("scored")).abs())
        .sum();
    f64::from(total) / positions.len() as f64
}

#[test]
fn trained_weights_predict_exact_scores_better_than_the_hand_evaluation() {
    let positions = suite();
    assert_eq!(positions.len(), 150);
    let trained = Evaluator::default();
    let trained_error = mean_error(&positions, |p| p.position.evaluate(&trained));
    let hand_error = mean_error(&positions, |p| hand(&p.position));
    assert!(
        trained_error < 0.75 * hand_error,
        "trained {trained_error:.2} vs hand {hand_error:.2}"
    );
    assert!(trained_error < 9.0, "trained {trained_error:.2}");
}
