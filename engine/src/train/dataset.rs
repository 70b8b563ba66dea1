//! Labelled positions: what each position of a game is worth, from its side to move, and
//! which games are held out to measure the evaluation on.

use std::collections::HashMap;
use std::sync::atomic::AtomicUsize;

use super::games::{Source, TrainingGame};
use super::labels::{Method, canonical, label_all};
use crate::game::{Game, Side};
use crate::search::eval::weights::{PHASES, phase};

/// A position and its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The side to move's discs.
    pub me: u64,
    /// The opponent's discs.
    pub opp: u64,
    /// The final disc margin the side to move can expect, in discs.
    pub label: i8,
}

impl Sample {
    /// Empty squares.
    #[must_use]
    pub fn empties(&self) -> u32 {
        64 - (self.me | self.opp).count_ones()
    }
}

/// Empties at which WTHOR's theoretical score is computed.
pub const THEORETICAL_EMPTIES: u32 = 24;

/// Whether the `n`-th game (in file order) is held out of training: one in twenty.
#[must_use]
pub fn is_held_out(n: usize) -> bool {
    n % 20 == 7
}

/// How positions are labelled.
#[derive(Clone, Copy, Debug)]
pub struct LabelPolicy {
    /// Solve WTHOR positions with at most this many empties exactly and label them with
    /// the result (0: never); other positions after the theoretical point take the final
    /// score.
    pub solve_empties: u32,
    /// Solve in one WTHOR game of this many (1: every game); the others keep the final score.
    pub solve_every: usize,
}

impl Default for LabelPolicy {
    fn default() -> Self {
        LabelPolicy {
            solve_empties: 0,
            solve_every: 1,
        }
    }
}

impl LabelPolicy {
    /// Whether `position` of the `n`-th game is labelled by an exact solve.
    fn solves(&self, n: usize, game: &TrainingGame, empties: u32) -> bool {
        game.source == Source::Wthor
            && empties <= self.solve_empties
            && n.is_multiple_of(self.solve_every.max(1))
    }
}

/// The labels a game's positions take without solving: WTHOR's theoretical score (perfect
/// play from 24 empties) for the positions up to that point, then the game's final score.
fn game_label(game: &TrainingGame, empties: u32) -> Option<i32> {
    match (game.source, game.theoretical) {
        (Source::Wthor, Some(t)) if empties >= THEORETICAL_EMPTIES => Some(t),
        (Source::Wthor, None) if empties >= THEORETICAL_EMPTIES => None,
        _ => game.result,
    }
}

/// Labels of positions from `engine label` files, by symmetry class: exact scores, or
/// the values of our searches where nothing exact exists.
#[derive(Clone, Debug, Default)]
pub struct GivenLabels(HashMap<(u64, u64), i8>);

impl GivenLabels {
    /// The labels of these samples, each standing for its symmetry class (of two for one
    /// class, the later).
    #[must_use]
    pub fn new(samples: impl IntoIterator<Item = Sample>) -> GivenLabels {
        GivenLabels(
            samples
                .into_iter()
                .map(|s| (canonical(s.me, s.opp), s.label))
                .collect(),
        )
    }

    /// Positions held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when none are held.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The label of the side to move with discs `me` against `opp`, if held.
    #[must_use]
    pub fn get(&self, me: u64, opp: u64) -> Option<i8> {
        self.0.get(&canonical(me, opp)).copied()
    }
}

/// Every labelled position of `games`, by phase: its label where `given` holds it, else
/// as `policy` says. Positions to solve are solved on `threads` threads; `progress`
/// counts solved positions.
#[must_use]
pub fn samples(
    games: &[&TrainingGame],
    policy: LabelPolicy,
    given: &GivenLabels,
    threads: usize,
    progress: &AtomicUsize,
) -> Vec<Vec<Sample>> {
    let mut by_phase: Vec<Vec<Sample>> = vec![Vec::new(); PHASES];
    let mut to_solve = Vec::new();
    for (n, game) in games.iter().enumerate() {
        for position in &game.positions {
            let empties = position.empty().count_ones();
            if let Some(label) = given.get(position.me(), position.opp()) {
                by_phase[phase(empties)].push(Sample {
                    me: position.me(),
                    opp: position.opp(),
                    label,
                });
                continue;
            }
            if policy.solves(n, game, empties) {
                to_solve.push((position.me(), position.opp()));
                continue;
            }
            let Some(black) = game_label(game, empties) else {
                continue;
            };
            let label = if position.side_to_move() == Side::First {
                black
            } else {
                -black
            };
            by_phase[phase(empties)].push(Sample {
                me: position.me(),
                opp: position.opp(),
                label: label as i8,
            });
        }
    }
    let values = label_all(&to_solve, Method::Exact, threads, progress);
    for (&(me, opp), label) in to_solve.iter().zip(values) {
        let sample = Sample { me, opp, label };
        by_phase[phase(sample.empties())].push(sample);
    }
    by_phase
}

/// How many positions `samples` will solve.
#[must_use]
pub fn positions_to_solve(games: &[&TrainingGame], policy: LabelPolicy) -> usize {
    games
        .iter()
        .enumerate()
        .flat_map(|(n, g)| g.positions.iter().map(move |p| (n, g, p)))
        .filter(|(n, g, p)| policy.solves(*n, g, p.empty().count_ones()))
        .count()
}
