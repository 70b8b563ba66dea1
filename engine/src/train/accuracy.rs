//! How close an evaluation comes to the exact score: mean absolute error on held-out
//! games' positions, labelled by WTHOR's perfect-play score at 24 empties, by our solver,
//! or (earlier in the game) by a deep search of ours.

use std::path::PathBuf;

use super::dataset::{Sample, THEORETICAL_EMPTIES};
use super::games::{Source, TrainingGame};
use super::labels::{LabelError, Method, Missing, exact_cached, label_all};
use super::{mae, with_solve_progress};
use crate::game::{Game, Side};
use crate::search::othello::eval::hand::evaluate as hand_evaluate;
use crate::search::othello::eval::weights::PatternWeights;

/// One line of the accuracy table.
#[derive(Clone, Debug)]
pub struct AccuracyRow {
    /// Empty squares of the positions.
    pub empties: u32,
    /// Where the reference values come from: `WTHOR`, `solver` or `depth N` (a search).
    pub label: String,
    /// Positions measured.
    pub positions: usize,
    /// Mean absolute error in discs of each trained evaluation measured, in order.
    pub trained: Vec<f64>,
    /// Mean absolute error in discs of the hand evaluation.
    pub hand: f64,
}

/// The positions with `empties` empty squares of the games from `source` (at most `limit`).
fn positions_at(
    games: &[&TrainingGame],
    source: Source,
    empties: u32,
    limit: usize,
) -> Vec<(usize, crate::game::othello::Othello)> {
    games
        .iter()
        .enumerate()
        .filter(|(_, g)| g.source == source)
        .filter_map(|(n, g)| {
            g.positions
                .iter()
                .find(|p| p.empty().count_ones() == empties)
                .map(|p| (n, *p))
        })
        .take(limit)
        .collect()
}

/// What [`accuracy`] measures against, besides WTHOR's theoretical scores at 24 empties.
#[derive(Clone, Debug)]
pub struct References {
    /// Whose held-out games give the positions: the WTHOR records' (human games, with
    /// theoretical scores at 24 empties) or the `*.gam` files' (Logistello's and our
    /// self-play: engine games, whose positions are measured against solves and searches
    /// only).
    pub source: Source,
    /// Empties at which held-out positions are solved exactly.
    pub solved: Vec<u32>,
    /// Empties at which held-out positions are valued by `search` instead.
    pub searched: Vec<u32>,
    /// The search that values them (with the shipped evaluation, whatever is measured).
    pub search: Method,
    /// Positions per empties count (the first held-out games that reach it).
    pub per_empties: usize,
    /// Threads that solve and search.
    pub threads: usize,
    /// A labels file of exact scores to read solves from and add new ones to (see
    /// [`exact_cached`]), so that positions far from the end are solved once for every
    /// measure of every set of weights.
    pub cache: Option<PathBuf>,
    /// With a cache: measure only the positions it holds, solving nothing.
    pub cached_only: bool,
}

/// Measures each of `weights` and the hand evaluation on `games` from `references.source`:
/// for WTHOR games every position with 24 empties against WTHOR's theoretical score, then
/// positions at each count of `references` against our solver's or our search's value
/// (found once for all the weights, with progress on stderr).
///
/// # Errors
/// A cache of solves that cannot be read or written.
pub fn accuracy(
    games: &[&TrainingGame],
    weights: &[&PatternWeights],
    references: &References,
) -> Result<Vec<AccuracyRow>, LabelError> {
    let row = |empties, label: String, samples: &[Sample]| AccuracyRow {
        empties,
        label,
        positions: samples.len(),
        trained: weights
            .iter()
            .map(|w| mae(samples, |p| w.evaluate(p)))
            .collect(),
        hand: mae(samples, hand_evaluate),
    };
    let mut rows = Vec::new();
    if references.source == Source::Wthor {
        rows.push(row(
            THEORETICAL_EMPTIES,
            "WTHOR".into(),
            &theoretical_samples(games),
        ));
    }
    let plans = (references.solved.iter().map(|&e| (e, Method::Exact)))
        .chain(references.searched.iter().map(|&e| (e, references.search)));
    for (empties, method) in plans {
        let positions: Vec<(u64, u64)> =
            positions_at(games, references.source, empties, references.per_empties)
                .into_iter()
                .map(|(_, p)| (p.me(), p.opp()))
                .collect();
        let (label, what) = match method {
            Method::Exact => ("solver".to_string(), format!("{empties} empties")),
            Method::Search { depth, .. } => (
                format!("depth {depth}"),
                format!("{empties} empties, depth {depth}"),
            ),
        };
        let threads = references.threads;
        let values = with_solve_progress(positions.len(), &what, |done| {
            match (&references.cache, method) {
                (Some(cache), Method::Exact) => {
                    let missing = if references.cached_only {
                        Missing::Skip
                    } else {
                        Missing::Solve { threads }
                    };
                    exact_cached(&positions, cache, missing, done)
                }
                _ => Ok(label_all(&positions, method, threads, done)
                    .into_iter()
                    .map(Some)
                    .collect()),
            }
        })?;
        // Positions left without a score (a cache read only) are left out.
        let samples: Vec<Sample> = positions
            .iter()
            .zip(values)
            .filter_map(|(&(me, opp), label)| {
                Some(Sample {
                    me,
                    opp,
                    label: label?,
                })
            })
            .collect();
        rows.push(row(empties, label, &samples));
    }
    Ok(rows)
}

/// Every held-out WTHOR position with 24 empties, labelled with the game's theoretical score.
fn theoretical_samples(games: &[&TrainingGame]) -> Vec<Sample> {
    positions_at(games, Source::Wthor, THEORETICAL_EMPTIES, usize::MAX)
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
        .collect()
}
