//! A game reviewed move by move: the first player's engine values every move of every
//! position of the game, one position after another; each played move's loss is the best
//! move's value less its own, and the largest losses are the game's mistakes.

use engine::game::AnyPosition;
use protocol::{Go, Goal, Info, MultiPv};

use crate::game::GameHistory;
use crate::move_values::MoveValues;

/// From this many empty squares down, an 8x8 position is solved exactly: the solver
/// values every move of a 14-empty position in well under a second.
pub const SOLVE_EMPTIES: u32 = 14;

/// How many mistakes the review lists.
pub const MISTAKES_LISTED: usize = 5;

/// The values of one position's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionReview {
    /// Every legal move's value for the mover, best first (empty for a forced pass).
    pub values: Vec<(String, i32)>,
    /// True when every value is exact (a solve).
    pub exact: bool,
    /// The search's line for the best move (depth, score, nodes, principal variation),
    /// which the search panel shows at this position.
    pub best_line: Option<Info>,
}

impl PositionReview {
    /// The best move and its value.
    #[must_use]
    pub fn best(&self) -> Option<(&str, i32)> {
        self.values.first().map(|(mv, v)| (mv.as_str(), *v))
    }

    /// The value of `mv`, if it was valued.
    #[must_use]
    pub fn value_of(&self, mv: &str) -> Option<i32> {
        self.values.iter().find(|(m, _)| m == mv).map(|&(_, v)| v)
    }
}

/// A played move that lost value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistake {
    /// Moves before it: the position it was played in.
    pub ply: usize,
    /// The move played.
    pub played: String,
    /// The best move there.
    pub best: String,
    /// Discs (or seeds) lost against the best move, for the mover.
    pub loss: i32,
    /// True when both values are exact.
    pub exact: bool,
}

/// A review under way or done.
#[derive(Clone, Debug)]
pub struct Review {
    /// The game reviewed, as it was when the review started.
    game: GameHistory,
    /// By ply: the review of the position before that move.
    positions: Vec<Option<PositionReview>>,
    /// Depth of the searches (positions the solver answers at once are solved).
    depth: u32,
    /// True once every position is valued.
    finished: bool,
}

impl Review {
    /// A review of every move of `game` (the undone ones too) at `depth`.
    #[must_use]
    pub fn new(game: &GameHistory, depth: u32) -> Review {
        let count = game.all_moves().len();
        let mut review = Review {
            game: game.at(count),
            positions: vec![None; count],
            depth: depth.max(1),
            finished: false,
        };
        review.skip_passes();
        review
    }

    /// The game reviewed.
    #[must_use]
    pub fn game(&self) -> &GameHistory {
        &self.game
    }

    /// A forced pass has nothing to value: recorded at once.
    fn skip_passes(&mut self) {
        while let Some(ply) = self.next_position() {
            if self.game.position_at(ply).legal_moves() != ["pass"] {
                return;
            }
            self.positions[ply] = Some(PositionReview {
                values: Vec::new(),
                exact: true,
                best_line: None,
            });
        }
        self.finished = true;
    }

    /// The next position to value (moves before it), if any.
    #[must_use]
    pub fn next_position(&self) -> Option<usize> {
        self.positions.iter().position(Option::is_none)
    }

    /// The search that values every move of the position after `ply` moves.
    #[must_use]
    pub fn go(&self, ply: usize) -> Go {
        let position = self.game.position_at(ply);
        let solve = matches!(position, AnyPosition::Othello(_))
            && position.empties().is_some_and(|e| e <= SOLVE_EMPTIES);
        Go {
            depth: (!solve).then_some(self.depth),
            goal: if solve { Goal::Solve } else { Goal::Heuristic },
            multipv: Some(MultiPv::All),
            ..Go::default()
        }
    }

    /// Takes a finished search's values for the position after `ply` moves.
    pub fn record(&mut self, ply: usize, values: &MoveValues) {
        let Some(slot) = self.positions.get_mut(ply) else {
            return;
        };
        let mut valued: Vec<(String, i32, bool)> = values
            .shown()
            .iter()
            .filter_map(|(mv, info)| {
                let score = info.score?;
                Some((
                    mv.clone(),
                    score.value,
                    score.proof == protocol::Proof::Solved && score.bound == protocol::Bound::Exact,
                ))
            })
            .collect();
        valued.sort_by_key(|(_, v, _)| std::cmp::Reverse(*v));
        *slot = Some(PositionReview {
            exact: !valued.is_empty() && valued.iter().all(|(_, _, exact)| *exact),
            best_line: valued
                .first()
                .and_then(|(mv, _, _)| values.shown().get(mv))
                .cloned(),
            values: valued.into_iter().map(|(mv, v, _)| (mv, v)).collect(),
        });
        self.skip_passes();
    }

    /// Ends the review where it stands (cancelled): the positions valued stay.
    pub fn stop(&mut self) {
        self.finished = true;
    }

    /// The part of the game valued, from 0 to 1.
    #[must_use]
    pub fn fraction(&self) -> f32 {
        let done = self.positions.iter().filter(|p| p.is_some()).count();
        if self.positions.is_empty() {
            1.0
        } else {
            done as f32 / self.positions.len() as f32
        }
    }

    /// True once every position is valued.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The review of the position after `ply` moves, if valued.
    #[must_use]
    pub fn position(&self, ply: usize) -> Option<&PositionReview> {
        self.positions.get(ply)?.as_ref()
    }

    /// The loss of move `ply` (from 0): the best value less the played move's, never
    /// below 0 (a selective search can value a later move a disc above the first).
    #[must_use]
    pub fn loss(&self, ply: usize) -> Option<i32> {
        let review = self.position(ply)?;
        let played = &self.game.all_moves()[ply];
        let (_, best) = review.best()?;
        Some((best - review.value_of(played)?).max(0))
    }

    /// The position's value for the first player, by ply (positions valued only).
    #[must_use]
    pub fn values_for_first(&self) -> Vec<(usize, i32)> {
        (0..self.positions.len())
            .filter_map(|ply| {
                let (_, best) = self.position(ply)?.best()?;
                let first_moves =
                    self.game.position_at(ply).side_to_move() == engine::game::Side::First;
                Some((ply, if first_moves { best } else { -best }))
            })
            .collect()
    }

    /// The largest losses, largest first (at most [`MISTAKES_LISTED`], none of 0).
    #[must_use]
    pub fn mistakes(&self) -> Vec<Mistake> {
        let mut mistakes: Vec<Mistake> = (0..self.positions.len())
            .filter_map(|ply| {
                let loss = self.loss(ply).filter(|&l| l > 0)?;
                let review = self.position(ply)?;
                Some(Mistake {
                    ply,
                    played: self.game.all_moves()[ply].clone(),
                    best: review.best()?.0.to_string(),
                    loss,
                    exact: review.exact,
                })
            })
            .collect();
        mistakes.sort_by_key(|m| (std::cmp::Reverse(m.loss), m.ply));
        mistakes.truncate(MISTAKES_LISTED);
        mistakes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{Info, Proof, Score};

    fn values(lines: &[(&str, i32)]) -> MoveValues {
        let mut v = MoveValues::default();
        for (rank, (mv, value)) in lines.iter().enumerate() {
            v.record(
                u32::try_from(rank + 1).unwrap(),
                Info {
                    pv: vec![(*mv).to_string()],
                    score: Some(Score {
                        value: *value,
                        proof: Proof::Solved,
                        ..Score::default()
                    }),
                    ..Info::default()
                },
            );
        }
        v
    }

    #[test]
    fn losses_are_the_best_value_less_the_played_one() {
        let mut game = GameHistory::new("othello8x8".parse().unwrap(), "startpos").unwrap();
        for mv in ["f5", "d6", "c3"] {
            game.play(mv).unwrap();
        }
        let mut review = Review::new(&game, 8);
        assert_eq!(review.next_position(), Some(0));
        assert_eq!(review.go(0).depth, Some(8));
        assert_eq!(review.go(0).multipv, Some(MultiPv::All));
        review.record(0, &values(&[("d3", 0), ("c4", 0), ("f5", 0), ("e6", 0)]));
        review.record(1, &values(&[("f6", 2), ("d6", -3), ("f4", 0)]));
        review.record(2, &values(&[("d3", 1), ("c3", -9), ("c5", 0)]));
        assert!(review.is_finished());
        assert!((review.fraction() - 1.0).abs() < f32::EPSILON);
        assert_eq!(review.loss(0), Some(0));
        assert_eq!(review.loss(1), Some(5));
        assert_eq!(review.loss(2), Some(10));
        let mistakes = review.mistakes();
        assert_eq!(mistakes.len(), 2);
        assert_eq!(
            (
                mistakes[0].ply,
                mistakes[0].played.as_str(),
                mistakes[0].best.as_str()
            ),
            (2, "c3", "d3")
        );
        assert_eq!(mistakes[0].loss, 10);
        assert!(mistakes[0].exact);
        // Values for the first player: White's +2 after f5 is Black's -2.
        assert_eq!(review.values_for_first(), [(0, 0), (1, -2), (2, 1)]);
    }

    #[test]
    fn positions_the_solver_answers_at_once_are_solved_and_passes_skipped() {
        // A 4x4 game has at most 12 empties: every position is solved.
        let mut game = GameHistory::new("othello4x4".parse().unwrap(), "startpos").unwrap();
        while !game.position().is_terminal() {
            let mv = game.position().legal_moves()[0].clone();
            game.play(&mv).unwrap();
        }
        let review = Review::new(&game, 8);
        let first = review.next_position().unwrap();
        assert_eq!(review.go(first).goal, Goal::Solve);
        assert_eq!(review.go(first).depth, None);
        // Forced passes were recorded without a search.
        for (ply, mv) in game.all_moves().iter().enumerate() {
            if mv == "pass" {
                assert!(review.position(ply).is_some());
            }
        }
    }
}
