//! Labelled positions: what each position of a game is worth, from its side to move, and
//! which games are held out to measure the evaluation on.

use std::collections::HashMap;
use std::sync::atomic::AtomicUsize;

use super::games::{Source, TrainingGame};
use super::labels::{Method, label_all};
use crate::game::othello::Othello;
use crate::game::othello::symmetry::canonical;
use crate::game::{Game, Side};
use crate::search::othello::eval::weights::{PHASES, phases_within};

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

/// The label the `index`-th position of a game takes without solving: none in a random
/// opening the game leaves unlabelled (the game that follows values it not); WTHOR's
/// theoretical score (perfect play from 24 empties) for the positions up to that point,
/// then the game's final score.
fn game_label(game: &TrainingGame, index: usize, empties: u32) -> Option<i32> {
    if index < game.unlabelled {
        return None;
    }
    match (game.source, game.theoretical) {
        (Source::Wthor, Some(t)) if empties >= THEORETICAL_EMPTIES => Some(t),
        (Source::Wthor, None) if empties >= THEORETICAL_EMPTIES => None,
        _ => game.result,
    }
}

/// A label from an `engine label` file.
#[derive(Clone, Copy, Debug)]
struct Given {
    /// The final margin for the side to move, in discs.
    label: i8,
    /// An exact score (else a search's value).
    exact: bool,
}

/// Labels of positions from `engine label` files, by symmetry class: exact scores, or
/// the values of our searches where nothing exact exists. An exact label replaces the
/// game's; a searched one is blended with it (`searched_weight`).
#[derive(Clone, Debug)]
pub struct GivenLabels {
    labels: HashMap<(u64, u64), Given>,
    searched_weight: f64,
}

impl Default for GivenLabels {
    fn default() -> Self {
        GivenLabels {
            labels: HashMap::new(),
            searched_weight: 1.0,
        }
    }
}

impl GivenLabels {
    /// The labels of these samples, each standing for its symmetry class: exact ones, then
    /// searched ones (an exact label wins over a searched one of the same class; of two of
    /// one kind, the later). A searched label counts `searched_weight` (0 to 1) of a
    /// position's label and the game's label the rest (1: the search's value alone).
    #[must_use]
    pub fn new(
        exact: impl IntoIterator<Item = Sample>,
        searched: impl IntoIterator<Item = Sample>,
        searched_weight: f64,
    ) -> GivenLabels {
        let mut labels = HashMap::new();
        for (s, exact) in searched
            .into_iter()
            .map(|s| (s, false))
            .chain(exact.into_iter().map(|s| (s, true)))
        {
            let given = Given {
                label: s.label,
                exact,
            };
            labels.insert(canonical(s.me, s.opp), given);
        }
        GivenLabels {
            labels,
            searched_weight: searched_weight.clamp(0.0, 1.0),
        }
    }

    /// Positions held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// True when none are held.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The label of the side to move with discs `me` against `opp`, given `game`, the
    /// label its game gives it (from the side to move): the exact label if one is held;
    /// else a searched one blended with `game` (alone where the game gives none); else
    /// `game`.
    #[must_use]
    pub fn label(&self, me: u64, opp: u64, game: Option<i32>) -> Option<i8> {
        let Some(given) = self.labels.get(&canonical(me, opp)) else {
            return game.map(|g| g as i8);
        };
        match game {
            Some(g) if !given.exact => {
                let w = self.searched_weight;
                Some((w * f64::from(given.label) + (1.0 - w) * f64::from(g)).round() as i8)
            }
            _ => Some(given.label),
        }
    }

    /// Whether an exact label is held for `me` against `opp`.
    fn has_exact(&self, me: u64, opp: u64) -> bool {
        self.labels
            .get(&canonical(me, opp))
            .is_some_and(|g| g.exact)
    }
}

/// Every labelled position of `games`, by phase: its label where `given` holds it, else
/// as `policy` says (none for the positions a game leaves unlabelled); in every phase
/// whose discs come within `phase_margin` discs of its own (0: its phase alone).
/// Positions to solve are solved on `threads` threads; `progress` counts solved positions.
#[must_use]
pub fn samples(
    games: &[&TrainingGame],
    policy: LabelPolicy,
    given: &GivenLabels,
    phase_margin: u32,
    threads: usize,
    progress: &AtomicUsize,
) -> Vec<Vec<Sample>> {
    let mut by_phase: Vec<Vec<Sample>> = vec![Vec::new(); PHASES];
    let mut add = |sample: Sample| {
        for p in phases_within(sample.empties(), phase_margin) {
            by_phase[p].push(sample);
        }
    };
    let mut to_solve = Vec::new();
    for (n, game) in games.iter().enumerate() {
        for (i, position) in game.positions.iter().enumerate() {
            let empties = position.empty().count_ones();
            let (me, opp) = (position.me(), position.opp());
            if to_solve_exactly(policy, given, n, game, position) {
                to_solve.push((me, opp));
                continue;
            }
            let side = if position.side_to_move() == Side::First {
                1
            } else {
                -1
            };
            let game = game_label(game, i, empties).map(|black| side * black);
            if let Some(label) = given.label(me, opp, game) {
                add(Sample { me, opp, label });
            }
        }
    }
    let values = label_all(&to_solve, Method::Exact, threads, progress);
    for (&(me, opp), label) in to_solve.iter().zip(values) {
        add(Sample { me, opp, label });
    }
    by_phase
}

/// How many positions `samples` will solve.
#[must_use]
pub fn positions_to_solve(
    games: &[&TrainingGame],
    policy: LabelPolicy,
    given: &GivenLabels,
) -> usize {
    games
        .iter()
        .enumerate()
        .flat_map(|(n, g)| g.positions.iter().map(move |p| (n, g, p)))
        .filter(|(n, g, p)| to_solve_exactly(policy, given, *n, g, p))
        .count()
}

/// Whether `position` of the `n`-th game is solved for its label: `policy` says so and no
/// exact label is given for it (the policy's test first: the lookup is the dearer).
fn to_solve_exactly(
    policy: LabelPolicy,
    given: &GivenLabels,
    n: usize,
    game: &TrainingGame,
    position: &Othello,
) -> bool {
    policy.solves(n, game, position.empty().count_ones())
        && !given.has_exact(position.me(), position.opp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::games::parse_logistello;

    fn sample(me: u64, opp: u64, label: i8) -> Sample {
        Sample { me, opp, label }
    }

    #[test]
    fn a_random_openings_positions_take_no_label_from_the_game() {
        let line = "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+b4-e8+h3-g3+h2-e2+h7-g2+b1-a1+h1-a2+a3-g7+f8-h8+g8-a4+g1-f1+a6-a5+a7-a8+b8-b7: -04 10";
        let all = |game: &TrainingGame, given: &GivenLabels| -> Vec<Sample> {
            let none = AtomicUsize::new(0);
            samples(&[game], LabelPolicy::default(), given, 0, 1, &none).concat()
        };
        let game = parse_logistello(&format!("{line} random 25")).unwrap();
        let whole = all(&parse_logistello(line).unwrap(), &GivenLabels::default());
        let marked = all(&game, &GivenLabels::default());
        assert_eq!(whole.len(), 60);
        // The positions after the 25 random plies, with the labels they had unmarked.
        let after: Vec<Sample> = whole
            .iter()
            .filter(|s| s.empties() < 60 - 25 + 1)
            .copied()
            .collect();
        assert_eq!(marked, after);
        assert!(marked.iter().all(|s| s.label.unsigned_abs() == 4));
        // A label given for a position of the opening still counts.
        let opening = whole.iter().find(|s| s.empties() == 50).unwrap();
        let given = GivenLabels::new([sample(opening.me, opening.opp, -3)], [], 1.0);
        let with_given = all(&game, &given);
        assert_eq!(with_given.len(), marked.len() + 1);
        assert!(with_given.contains(&sample(opening.me, opening.opp, -3)));
    }

    #[test]
    fn exact_labels_replace_searched_ones_blend() {
        let (a, b, c) = ((1 << 0, 1 << 9), (1 << 1, 1 << 10), (1 << 2, 1 << 20));
        let exact = [sample(a.0, a.1, 10)];
        let searched = [sample(a.0, a.1, -4), sample(b.0, b.1, 6)];
        let given = GivenLabels::new(exact, searched, 0.75);
        assert_eq!(given.len(), 2);
        assert_eq!(given.label(a.0, a.1, Some(-20)), Some(10), "exact wins");
        assert_eq!(
            given.label(b.0, b.1, Some(-2)),
            Some(4),
            "3/4 of 6, 1/4 of -2"
        );
        assert_eq!(
            given.label(b.0, b.1, None),
            Some(6),
            "no game label: the search's"
        );
        assert_eq!(
            given.label(c.0, c.1, Some(-7)),
            Some(-7),
            "none held: the game's"
        );
        assert_eq!(given.label(c.0, c.1, None), None);
        // A symmetric copy (mirrored across the vertical axis) shares its class's label.
        let mirror = |x: u64| x.swap_bytes().reverse_bits();
        assert_eq!(given.label(mirror(b.0), mirror(b.1), None), Some(6));
        let replacing = GivenLabels::new([], searched, 1.0);
        assert_eq!(replacing.label(b.0, b.1, Some(-30)), Some(6));
    }
}
