//! How much of a clock's share a move takes: more when the best move keeps changing or
//! the value falls between iterations, less when one move stands out (as Stockfish's time
//! manager weighs best-move instability and a falling score).

/// The share of a move's time (its soft limit) a search uses, from its iterations so far.
#[derive(Clone, Debug)]
pub(crate) struct TimeUse<M> {
    /// Best-move changes, each halved at every later iteration: recent changes weigh most.
    changes: f64,
    /// The best move and value of each iteration so far.
    history: Vec<(M, i32)>,
}

impl<M> Default for TimeUse<M> {
    fn default() -> Self {
        TimeUse {
            changes: 0.0,
            history: Vec::new(),
        }
    }
}

impl<M: Copy + PartialEq> TimeUse<M> {
    /// Share of the soft limit when one move has stood out for several iterations.
    const STABLE: f64 = 0.7;
    /// More share per (decayed) change of the best move.
    const PER_CHANGE: f64 = 0.9;
    /// More share per unit of score lost against the iteration of the same parity before.
    const PER_UNIT_FALLEN: f64 = 0.06;
    /// The falling score's factor at most.
    const MOST_FALLEN: f64 = 1.5;
    /// The share's bounds.
    const LEAST: f64 = 0.5;
    const MOST: f64 = 2.0;

    /// Records a completed iteration's best move and value.
    pub(crate) fn record(&mut self, best: M, value: i32) {
        self.changes /= 2.0;
        if self.history.last().is_some_and(|&(m, _)| m != best) {
            self.changes += 1.0;
        }
        self.history.push((best, value));
    }

    /// The factor of the soft limit: [`Self::STABLE`] plus [`Self::PER_CHANGE`] per
    /// recent change of the best move, times a falling score's factor, within
    /// [`Self::LEAST`] and [`Self::MOST`]. The value is compared with the iteration two
    /// before: one ply apart, Othello's values swing with the side that moves last.
    pub(crate) fn scale(&self) -> f64 {
        let n = self.history.len();
        let fallen = if n >= 3 {
            (self.history[n - 3].1 - self.history[n - 1].1).max(0)
        } else {
            0
        };
        let falling = (1.0 + Self::PER_UNIT_FALLEN * f64::from(fallen)).min(Self::MOST_FALLEN);
        ((Self::STABLE + Self::PER_CHANGE * self.changes) * falling).clamp(Self::LEAST, Self::MOST)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(iterations: &[(u8, i32)]) -> f64 {
        let mut t = TimeUse::default();
        for &(m, v) in iterations {
            t.record(m, v);
        }
        t.scale()
    }

    #[test]
    fn a_move_that_stands_out_takes_less_time() {
        let stable = after(&[(1, 2), (1, 3), (1, 2), (1, 3), (1, 2), (1, 3)]);
        assert!(stable < 0.75, "{stable}");
        assert!((after(&[]) - 0.7).abs() < 1e-9, "nothing known yet");
    }

    #[test]
    fn a_changing_best_move_takes_more_time_the_more_recent() {
        let just_changed = after(&[(1, 2), (1, 3), (1, 2), (2, 3)]);
        let changed_before = after(&[(1, 2), (2, 3), (2, 2), (2, 3)]);
        let changing = after(&[(1, 2), (2, 3), (1, 2), (2, 3)]);
        assert!(just_changed > 1.5, "{just_changed}");
        assert!(
            changed_before < just_changed && changed_before > 0.7,
            "{changed_before}"
        );
        assert!(changing > just_changed, "{changing}");
        assert!(after(&[(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0)]) <= 2.0);
    }

    #[test]
    fn a_falling_value_takes_more_time_a_rising_one_does_not() {
        let steady = after(&[(1, 4), (1, 0), (1, 4), (1, 0), (1, 4)]);
        let falling = after(&[(1, 4), (1, 0), (1, 4), (1, 0), (1, -2)]);
        let rising = after(&[(1, 4), (1, 0), (1, 4), (1, 0), (1, 10)]);
        assert!(falling > steady * 1.3, "{falling} {steady}");
        assert!((rising - steady).abs() < 1e-9, "{rising} {steady}");
        let collapsed = after(&[(1, 40), (1, 40), (1, -40)]);
        assert!(collapsed <= 0.7 * 1.5 + 1e-9, "bounded: {collapsed}");
    }
}
