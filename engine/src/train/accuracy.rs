//! How close an evaluation comes to the exact score: mean absolute error on held-out
//! games' positions, labelled by WTHOR's perfect-play score at 24 empties or by our solver.

use super::dataset::{Sample, THEORETICAL_EMPTIES, solve_all};
use super::games::{Source, TrainingGame};
use super::{mae, with_solve_progress};
use crate::game::{Game, Side};
use crate::search::eval::othello::evaluate as hand_evaluate;
use crate::search::eval::weights::PatternWeights;

/// One line of the accuracy table.
#[derive(Clone, Debug)]
pub struct AccuracyRow {
    /// Empty squares of the positions.
    pub empties: u32,
    /// Where the exact scores come from.
    pub label: &'static str,
    /// Positions measured.
    pub positions: usize,
    /// Mean absolute error in discs of each trained evaluation measured, in order.
    pub trained: Vec<f64>,
    /// Mean absolute error in discs of the hand evaluation.
    pub hand: f64,
}

/// The held-out WTHOR games' positions with `empties` empty squares (at most `limit`).
fn positions_at(
    games: &[&TrainingGame],
    empties: u32,
    limit: usize,
) -> Vec<(usize, crate::game::othello::Othello)> {
    games
        .iter()
        .enumerate()
        .filter(|(_, g)| g.source == Source::Wthor)
        .filter_map(|(n, g)| {
            g.positions
                .iter()
                .find(|p| p.empty().count_ones() == empties)
                .map(|p| (n, *p))
        })
        .take(limit)
        .collect()
}

/// Measures each of `weights` and the hand evaluation on `games`: every position with 24
/// empties against WTHOR's theoretical score, and up to `per_empties` positions for each of
/// `solve_empties` against our solver's exact score (solved once for all the weights, on
/// `threads` threads, with progress on stderr).
#[must_use]
pub fn accuracy(
    games: &[&TrainingGame],
    weights: &[&PatternWeights],
    solve_empties: &[u32],
    per_empties: usize,
    threads: usize,
) -> Vec<AccuracyRow> {
    let row = |empties, label, samples: &[Sample]| AccuracyRow {
        empties,
        label,
        positions: samples.len(),
        trained: weights
            .iter()
            .map(|w| mae(samples, |p| w.evaluate(p)))
            .collect(),
        hand: mae(samples, hand_evaluate),
    };
    let theoretical: Vec<Sample> = positions_at(games, THEORETICAL_EMPTIES, usize::MAX)
        .into_iter()
        .filter_map(|(n, p)| {
            let black = games[n].theoretical?;
            let label = if p.side_to_move() == Side::First {
                black
            } else {
                -black
            };
            Some(Sample {
                me: p.me(),
                opp: p.opp(),
                label: label as i8,
            })
        })
        .collect();
    let mut rows = vec![row(THEORETICAL_EMPTIES, "WTHOR", &theoretical)];
    for &empties in solve_empties {
        let positions: Vec<_> = positions_at(games, empties, per_empties)
            .into_iter()
            .map(|(_, p)| p)
            .collect();
        let what = format!("{empties} empties");
        let solved = with_solve_progress(positions.len(), &what, |done| {
            solve_all(&positions, threads, done)
        });
        rows.push(row(empties, "solver", &solved));
    }
    rows
}
