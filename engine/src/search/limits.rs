//! What bounds a search: depth, nodes, time, and a stop flag shared with other threads.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::{Goal, Thresholds};

/// Limits of one search. Unset limits do not apply.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// What the search is for.
    pub goal: Goal,
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (checked every [`CHECK_INTERVAL`] nodes).
    pub nodes: Option<u64>,
    /// Stop after about this long.
    pub movetime: Option<Duration>,
    /// With a clock: no iteration after the first starts once this much time has passed
    /// (counted as `movetime` is), nor one expected to end after `movetime`; the time it
    /// leaves is kept for later moves.
    pub soft_time: Option<Duration>,
    /// When the search was asked for: `movetime` and `soft_time` count from then (from
    /// the search's start when unset).
    pub asked: Option<Instant>,
    /// Search until stopped (no depth limit of the game's own).
    pub infinite: bool,
    /// Value this many root moves, each with its own score and PV, at every iteration
    /// (0 and 1: the best only; `usize::MAX`: every move).
    pub multipv: usize,
    /// Set from outside to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
    /// Where the search publishes its node count as it goes (every [`CHECK_INTERVAL`]
    /// nodes), for progress reports from another thread.
    pub node_counter: Option<Arc<AtomicU64>>,
    /// Root moves not to search (as [`GameMove::to_byte`](crate::game::GameMove::to_byte)
    /// gives them), unless that leaves none: the best of the other moves is searched for
    /// (an opening book values the moves that leave it this way). Such a search's root
    /// value is not stored in the table: it is not the position's.
    pub exclude: Vec<u8>,
}

impl Limits {
    /// A search to `depth` (a solve where that reaches the end, [`Limits::goal`]), or with
    /// `None` an exact solve to the end of the game.
    #[must_use]
    pub fn depth_or_exact(depth: Option<u32>) -> Limits {
        Limits {
            goal: if depth.is_some() {
                Goal::Heuristic
            } else {
                Goal::Solve
            },
            depth,
            ..Limits::default()
        }
    }

    /// What a search within these limits is for, on a position with `empties` empty
    /// squares (`None`: a game that does not count them): the search or solve policy,
    /// decided here only, for every front and the library alike.
    ///
    /// - A solve asked for (exact or win/loss/draw) is that solve.
    /// - A depth that reaches the end (at least the empty squares) is an exact solve: the
    ///   search would reach the end anyway, and the solver gets there far faster and
    ///   proves its value, selective or not.
    /// - With neither depth nor `infinite` (a move to play, by time, nodes or the default
    ///   depth), few enough empties are solved: exactly at most
    ///   [`Thresholds::exact_empties`], win/loss/draw at most [`Thresholds::wld_empties`].
    /// - Otherwise a heuristic search.
    #[must_use]
    pub fn goal(&self, empties: Option<u32>, thresholds: &Thresholds) -> Goal {
        let Some(empties) = empties else {
            return self.goal;
        };
        match (self.goal, self.depth) {
            (Goal::Heuristic, Some(depth)) if depth >= empties => Goal::Solve,
            (Goal::Heuristic, None) if !self.infinite && empties <= thresholds.exact_empties => {
                Goal::Solve
            }
            (Goal::Heuristic, None) if !self.infinite && empties <= thresholds.wld_empties => {
                Goal::Wld
            }
            (goal, _) => goal,
        }
    }

    /// The time this move should take: its share of a clock, else its `movetime`; `None`
    /// without a time limit. What `auto`, a timed solve and the table's housekeeping go by.
    #[must_use]
    pub fn move_time(&self) -> Option<Duration> {
        self.soft_time.or(self.movetime)
    }
}

/// Nodes between two checks of the clock and the stop flag.
pub const CHECK_INTERVAL: u64 = 1024;

/// Decides when a running search must stop.
#[derive(Debug)]
pub(crate) struct StopCheck {
    started: Instant,
    /// When the time limits count from.
    origin: Instant,
    deadline: Option<Instant>,
    soft_time: Option<Duration>,
    max_nodes: Option<u64>,
    stop: Option<Arc<AtomicBool>>,
    node_counter: Option<Arc<AtomicU64>>,
    next_check: u64,
    /// In a parallel search, the deepest heuristic iteration any thread has finished
    /// ([`FinishedIterations`](super::finished::FinishedIterations)): once it reaches
    /// `iteration`, this thread leaves the iteration it is in.
    finished: Option<Arc<AtomicI32>>,
    iteration: i32,
}

impl StopCheck {
    pub(crate) fn new(limits: &Limits) -> StopCheck {
        let started = Instant::now();
        let origin = limits.asked.unwrap_or(started);
        StopCheck {
            started,
            origin,
            // A time too far ahead to represent is no deadline at all.
            deadline: limits.movetime.and_then(|t| origin.checked_add(t)),
            soft_time: limits.soft_time,
            max_nodes: limits.nodes,
            stop: limits.stop.clone(),
            node_counter: limits.node_counter.clone(),
            next_check: CHECK_INTERVAL,
            finished: None,
            iteration: i32::MAX,
        }
    }

    /// Watches the depth the threads of a parallel search have finished (see
    /// [`StopCheck::overtaken`]).
    pub(crate) fn watch_finished(&mut self, finished: Arc<AtomicI32>) {
        self.finished = Some(finished);
    }

    /// The heuristic iteration under way, whose search stops once another thread has
    /// finished it (`None`: one no other thread's result replaces, such as a solve).
    pub(crate) fn set_iteration(&mut self, depth: Option<i32>) {
        self.iteration = depth.unwrap_or(i32::MAX);
    }

    /// Whether another thread has finished the iteration under way, or a deeper one.
    pub(crate) fn overtaken(&self) -> bool {
        self.finished
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed) >= self.iteration)
    }

    /// Time since the search started.
    pub(crate) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Whether another iteration may start, the last one having taken `last` and the next
    /// expected to take `growth` times as long: not past the soft limit times `scale`
    /// (how much of it this move deserves, [`TimeUse`](super::time_use::TimeUse)), nor
    /// when it would be expected to end after the deadline. Always, without a soft limit.
    pub(crate) fn may_start_iteration(&self, last: Duration, growth: f64, scale: f64) -> bool {
        let Some(soft) = self.soft_time else {
            return true;
        };
        let now = Instant::now();
        let expected_end = now.checked_add(last.mul_f64(growth));
        now.saturating_duration_since(self.origin).as_secs_f64() < soft.as_secs_f64() * scale
            && self
                .deadline
                .is_none_or(|d| expected_end.is_some_and(|end| end <= d))
    }

    /// True when the search must stop; cheap except every [`CHECK_INTERVAL`] nodes.
    #[inline]
    pub(crate) fn must_stop(&mut self, nodes: u64) -> bool {
        if nodes < self.next_check {
            return false;
        }
        self.next_check = nodes + CHECK_INTERVAL;
        if let Some(counter) = &self.node_counter {
            counter.store(nodes, Ordering::Relaxed);
        }
        self.max_nodes.is_some_and(|max| nodes >= max)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.overtaken()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterations_start_only_when_expected_to_end_in_time() {
        let secs = Duration::from_secs;
        let clock = |soft, hard| {
            StopCheck::new(&Limits {
                soft_time: Some(soft),
                movetime: Some(hard),
                ..Limits::default()
            })
        };
        let s = clock(secs(60), secs(100));
        assert!(s.may_start_iteration(secs(10), 3.0, 1.0));
        assert!(
            !s.may_start_iteration(secs(40), 3.0, 1.0),
            "expected to end after the deadline"
        );
        let spent = clock(Duration::ZERO, secs(100));
        assert!(!spent.may_start_iteration(Duration::ZERO, 3.0, 2.0));
        let asked = Instant::now().checked_sub(secs(30)).expect("30 s ago");
        let half_spent = StopCheck::new(&Limits {
            soft_time: Some(secs(60)),
            movetime: Some(secs(1000)),
            asked: Some(asked),
            ..Limits::default()
        });
        assert!(half_spent.may_start_iteration(secs(1), 3.0, 1.0));
        assert!(
            !half_spent.may_start_iteration(secs(1), 3.0, 0.4),
            "a move that stands out takes less of its share"
        );
        let fixed = StopCheck::new(&Limits {
            movetime: Some(Duration::ZERO),
            ..Limits::default()
        });
        assert!(
            fixed.may_start_iteration(secs(40), 3.0, 0.5),
            "a fixed move time is used whole"
        );
    }

    #[test]
    fn a_search_leaves_an_iteration_another_thread_has_finished() {
        let finished = Arc::new(AtomicI32::new(0));
        let mut check = StopCheck::new(&Limits::default());
        check.watch_finished(Arc::clone(&finished));
        check.set_iteration(Some(7));
        let mut nodes = CHECK_INTERVAL;
        let mut must_stop = |check: &mut StopCheck| {
            nodes += CHECK_INTERVAL;
            check.must_stop(nodes)
        };
        assert!(!must_stop(&mut check) && !check.overtaken());
        finished.store(6, Ordering::Relaxed);
        assert!(
            !must_stop(&mut check),
            "a shallower iteration changes nothing"
        );
        finished.store(8, Ordering::Relaxed);
        assert!(
            check.overtaken() && must_stop(&mut check),
            "a deeper one ends it too"
        );
        check.set_iteration(None);
        assert!(
            !check.overtaken() && !must_stop(&mut check),
            "a solve is never overtaken"
        );
    }
}
