//! The deepest heuristic iteration any thread of a parallel search has finished. In
//! Othello a table entry serves only a search of its own depth (a position's ply is set by
//! its discs), so once one thread has finished depth `d` the others' work on `d` is worth
//! little more than hash moves: they leave it, take that thread's result as their own, and
//! go on to `d + 1` (docs/parallel.md).

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};

use super::root::RootOutcome;

/// A finished iteration: its depth, its root outcome and whether every leaf was proven.
pub(crate) type Finished<M> = (i32, RootOutcome<M>, bool);

/// The deepest heuristic iteration finished so far by the threads of one search.
pub(crate) struct FinishedIterations<M> {
    /// Its depth (0: none yet), read at every stop check of every thread.
    depth: Arc<AtomicI32>,
    iteration: Mutex<Option<Finished<M>>>,
}

impl<M: Copy> FinishedIterations<M> {
    pub(crate) fn new() -> Self {
        FinishedIterations {
            depth: Arc::new(AtomicI32::new(0)),
            iteration: Mutex::new(None),
        }
    }

    /// What a thread's stop check watches: the depth finished so far.
    pub(crate) fn depth(&self) -> Arc<AtomicI32> {
        Arc::clone(&self.depth)
    }

    /// Records an iteration a thread has just finished, if no deeper one is known.
    pub(crate) fn publish(&self, depth: i32, outcome: RootOutcome<M>, proven: bool) {
        let mut iteration = self.iteration.lock().unwrap_or_else(|e| e.into_inner());
        if iteration.is_none_or(|(d, _, _)| d < depth) {
            *iteration = Some((depth, outcome, proven));
            self.depth.store(depth, Ordering::Release);
        }
    }

    /// The deepest finished iteration, if it is at least `depth` deep.
    pub(crate) fn at_least(&self, depth: i32) -> Option<Finished<M>> {
        if self.depth.load(Ordering::Acquire) < depth {
            return None;
        }
        *self.iteration.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(value: i32, best_move: u8) -> RootOutcome<u8> {
        RootOutcome {
            value,
            best_move,
            displaced_first: false,
        }
    }

    #[test]
    fn only_a_deeper_iteration_replaces_the_one_known() {
        let board = FinishedIterations::new();
        assert!(board.at_least(1).is_none());
        board.publish(5, outcome(3, 19), false);
        board.publish(4, outcome(-8, 20), true);
        board.publish(5, outcome(9, 21), true);
        let (depth, found, proven) = board.at_least(5).expect("depth 5 finished");
        assert_eq!(
            (depth, found.value, found.best_move, proven),
            (5, 3, 19, false)
        );
        assert_eq!(board.at_least(3).map(|(d, _, _)| d), Some(5));
        assert!(board.at_least(6).is_none());
        assert_eq!(board.depth().load(Ordering::Relaxed), 5);
    }
}
