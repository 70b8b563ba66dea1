//! What bounds a search: depth, nodes, time, and a stop flag shared with other threads.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::Goal;

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
    /// When the search was asked for: `movetime` counts from then (from the search's
    /// start when unset).
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
    pub progress: Option<Arc<AtomicU64>>,
}

impl Limits {
    /// A heuristic search to `depth`, or with `None` an exact solve to the end of the game.
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
}

impl Limits {
    /// A search to `depth` plies, or an exact solve when the game counts its empty squares
    /// and at most `depth` are left: the search would reach the end anyway, and the solver
    /// gets there far faster (and sees through passes, which use plies).
    #[must_use]
    pub fn depth_or_solve(depth: u32, empties: Option<u32>) -> Limits {
        if empties.is_some_and(|e| e <= depth) {
            Limits::depth_or_exact(None)
        } else {
            Limits::depth_or_exact(Some(depth))
        }
    }
}

/// Nodes between two checks of the clock and the stop flag.
pub const CHECK_INTERVAL: u64 = 1024;

/// Decides when a running search must stop.
#[derive(Debug)]
pub(crate) struct StopCheck {
    started: Instant,
    deadline: Option<Instant>,
    max_nodes: Option<u64>,
    stop: Option<Arc<AtomicBool>>,
    progress: Option<Arc<AtomicU64>>,
    next_check: u64,
}

impl StopCheck {
    pub(crate) fn new(limits: &Limits) -> StopCheck {
        let started = Instant::now();
        StopCheck {
            started,
            // A time too far ahead to represent is no deadline at all.
            deadline: limits
                .movetime
                .and_then(|t| limits.asked.unwrap_or(started).checked_add(t)),
            max_nodes: limits.nodes,
            stop: limits.stop.clone(),
            progress: limits.progress.clone(),
            next_check: CHECK_INTERVAL,
        }
    }

    /// Time since the search started.
    pub(crate) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// True when the search must stop; cheap except every [`CHECK_INTERVAL`] nodes.
    #[inline]
    pub(crate) fn must_stop(&mut self, nodes: u64) -> bool {
        if nodes < self.next_check {
            return false;
        }
        self.next_check = nodes + CHECK_INTERVAL;
        if let Some(progress) = &self.progress {
            progress.store(nodes, Ordering::Relaxed);
        }
        self.max_nodes.is_some_and(|max| nodes >= max)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}
