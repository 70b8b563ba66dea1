//! How close an evaluation comes to the exact score: mean absolute error on held-out
//! games' positions, labelled by WTHOR's perfect-play score at 24 empties, by our solver,
//! or (earlier in the game) by a deep search of ours.

use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;

use super::dataset::{Sample, THEORETICAL_EMPTIES};
use super::games::{Source, TrainingGame};
use super::labels::{LabelError, Method, Missing, exact_cached, label_all};
use super::{mae, with_solve_progress};
use crate::game::othello::Othello;
use crate::game::{Game, MoveList, Side};
use crate::match_runner::stats::Z95;
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
) -> Vec<(usize, Othello)> {
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
        let values = with_solve_progress(positions.len(), &what, |done| match method {
            Method::Exact => exact_scores(&positions, references, done),
            Method::Search { .. } => Ok(label_all(&positions, method, references.threads, done)
                .into_iter()
                .map(Some)
                .collect()),
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

/// The exact scores of `positions`: through `references.cache` when it is given (left
/// without a score where a read-only cache has none), else solved; `done` counts them.
fn exact_scores(
    positions: &[(u64, u64)],
    references: &References,
    done: &AtomicUsize,
) -> Result<Vec<Option<i8>>, LabelError> {
    let threads = references.threads;
    match &references.cache {
        Some(cache) => {
            let missing = if references.cached_only {
                Missing::Skip
            } else {
                Missing::Solve { threads }
            };
            exact_cached(positions, cache, missing, done)
        }
        None => Ok(label_all(positions, Method::Exact, threads, done)
            .into_iter()
            .map(Some)
            .collect()),
    }
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

/// One line of the table of choices: how well each evaluation, one ply deep, chooses
/// among the moves of held-out positions whose every move's exact score is known.
#[derive(Clone, Debug)]
pub struct ChoiceRow {
    /// Empty squares of the positions (their moves lead to one fewer).
    pub empties: u32,
    /// Per trained evaluation measured, in order, then the hand evaluation: its
    /// [`Choice`] on each position measured (those with two moves or more, every move's
    /// score known), the same positions in the same order for each.
    pub choices: Vec<Vec<Choice>>,
}

impl ChoiceRow {
    /// Positions measured.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.choices.first().map_or(0, Vec::len)
    }

    /// The mean [`Choice`] of the `n`-th evaluation.
    #[must_use]
    pub fn mean(&self, n: usize) -> Choice {
        let mean = |of: fn(&Choice) -> f64| mean_and_interval(self.choices[n].iter().map(of)).0;
        Choice {
            regret: mean(|c| c.regret),
            between: mean(|c| c.between),
        }
    }

    /// The `n`-th evaluation's mean [`Choice`] less the first's, position by position,
    /// each with the half-width of its 95% interval: (regret, between).
    #[must_use]
    pub fn against_first(&self, n: usize) -> ((f64, f64), (f64, f64)) {
        let difference = |of: fn(&Choice) -> f64| {
            mean_and_interval(
                (self.choices[n].iter().zip(&self.choices[0])).map(|(c, first)| of(c) - of(first)),
            )
        };
        (difference(|c| c.regret), difference(|c| c.between))
    }
}

/// The mean of `values` and the half-width of its 95% interval (normal approximation;
/// 0 with fewer than two values).
fn mean_and_interval(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let values: Vec<f64> = values.collect();
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, 0.0);
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, Z95 * (variance / n).sqrt())
}

/// How an evaluation chooses among a position's moves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Choice {
    /// Discs lost by playing the move whose position the evaluation values best for the
    /// mover, against the best move (0 when it finds a best move).
    pub regret: f64,
    /// Mean absolute error on the moves' positions once the evaluation's mean error over
    /// them is taken out: what an evaluation gets wrong between moves, where the search
    /// compares, rather than about the position as a whole.
    pub between: f64,
}

/// The [`Choice`] of `eval` on a position whose moves lead to `children`, each with its
/// exact score (both from the side to move after the move).
fn choice(children: &[(Othello, i8)], eval: impl Fn(&Othello) -> i32) -> Choice {
    let values: Vec<i32> = children.iter().map(|(p, _)| eval(p)).collect();
    let errors: Vec<f64> = (values.iter().zip(children))
        .map(|(&value, &(_, exact))| f64::from(value - i32::from(exact)))
        .collect();
    let mean = errors.iter().sum::<f64>() / errors.len() as f64;
    let between = errors.iter().map(|e| (e - mean).abs()).sum::<f64>() / errors.len() as f64;
    // The mover wants the move after which the opponent's value is least.
    let best = children.iter().map(|&(_, exact)| exact).min().unwrap_or(0);
    let chosen = (values.iter().zip(children))
        .min_by_key(|&(&value, _)| value)
        .map_or(best, |(_, &(_, exact))| exact);
    Choice {
        regret: f64::from(chosen - best),
        between,
    }
}

/// Measures how each of `weights` and the hand evaluation choose among the moves of
/// `games`' positions from `references.source`, at each count of `references.solved`:
/// every move of every position is solved exactly (through `references.cache` when given,
/// as [`accuracy`] does; with progress on stderr). Positions with fewer than two moves
/// are left out, as are (with `cached_only`) those with a move the cache has no score for.
///
/// # Errors
/// A cache of solves that cannot be read or written.
pub fn choices(
    games: &[&TrainingGame],
    weights: &[&PatternWeights],
    references: &References,
) -> Result<Vec<ChoiceRow>, LabelError> {
    let mut rows = Vec::new();
    for &empties in &references.solved {
        let parents: Vec<Vec<Othello>> =
            positions_at(games, references.source, empties, references.per_empties)
                .into_iter()
                .map(|(_, p)| {
                    let mut moves = MoveList::new();
                    p.generate_moves(&mut moves);
                    moves.iter().map(|&m| p.play(m)).collect::<Vec<_>>()
                })
                .filter(|children| children.len() >= 2)
                .collect();
        let positions: Vec<(u64, u64)> = parents
            .iter()
            .flatten()
            .map(|c| (c.me(), c.opp()))
            .collect();
        let what = format!("{empties} empties, their moves");
        let mut values = with_solve_progress(positions.len(), &what, |done| {
            exact_scores(&positions, references, done)
        })?
        .into_iter();
        let scored: Vec<Vec<(Othello, i8)>> = parents
            .into_iter()
            .filter_map(|children| {
                let scores: Vec<Option<i8>> = values.by_ref().take(children.len()).collect();
                children
                    .into_iter()
                    .zip(scores)
                    .map(|(c, s)| Some((c, s?)))
                    .collect()
            })
            .collect();
        let on_each = |eval: &dyn Fn(&Othello) -> i32| -> Vec<Choice> {
            scored.iter().map(|c| choice(c, eval)).collect()
        };
        let mut measured: Vec<Vec<Choice>> = weights
            .iter()
            .map(|w| on_each(&|p| w.evaluate(p)))
            .collect();
        measured.push(on_each(&hand_evaluate));
        rows.push(ChoiceRow {
            empties,
            choices: measured,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Start;
    use crate::game::othello::Geometry;

    /// The four positions after the first move of a game.
    fn first_moves() -> Vec<Othello> {
        let start = Othello::start(Geometry::Board8x8, Start::Standard);
        let mut moves = MoveList::new();
        start.generate_moves(&mut moves);
        moves.iter().map(|&m| start.play(m)).collect()
    }

    #[test]
    fn a_choice_counts_the_discs_lost_and_the_error_between_moves() {
        let children = first_moves();
        let scored: Vec<(Othello, i8)> = children.iter().copied().zip([3, -2, 5, 0]).collect();
        let eval_of = |values: [i32; 4]| {
            let children = children.clone();
            move |p: &Othello| values[children.iter().position(|c| c == p).unwrap()]
        };
        // The best move leaves the opponent -2; the evaluation picks the one leaving 0.
        // Its errors -2, 2, -1, -1 have mean -0.5: 1.5, 2.5, 0.5, 0.5 from it.
        let c = choice(&scored, eval_of([1, 0, 4, -1]));
        assert_eq!(
            c,
            Choice {
                regret: 2.0,
                between: 1.25
            }
        );
        // An evaluation off by the same everywhere chooses right and errs by nothing between.
        let c = choice(&scored, eval_of([10, 5, 12, 7]));
        assert_eq!(
            c,
            Choice {
                regret: 0.0,
                between: 0.0
            }
        );
    }

    #[test]
    fn differences_from_the_first_evaluation_are_paired() {
        let c = |regret, between| Choice { regret, between };
        let row = ChoiceRow {
            empties: 12,
            choices: vec![
                vec![c(0.0, 1.0), c(4.0, 3.0), c(2.0, 2.0)],
                vec![c(1.0, 1.5), c(5.0, 3.5), c(3.0, 2.5)],
            ],
        };
        assert_eq!(row.positions(), 3);
        assert_eq!(row.mean(1), c(3.0, 2.5));
        // Always one disc and half a disc more, position by position: no doubt about it.
        assert_eq!(row.against_first(1), ((1.0, 0.0), (0.5, 0.0)));
        assert_eq!(row.against_first(0), ((0.0, 0.0), (0.0, 0.0)));
    }
}
