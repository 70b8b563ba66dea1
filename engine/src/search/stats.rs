//! Counters of a search.

use std::time::Duration;

use super::Horizon;

/// One null-window pass of MTD(f).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MtdfPass {
    /// The pass tested `value >= bound` with the window `(bound - 1, bound)`.
    pub bound: i32,
    /// What the pass returned: a lower bound if `>= bound`, else an upper bound.
    pub value: i32,
    /// The interval known to hold the value after the pass.
    pub lower: i32,
    /// See [`MtdfPass::lower`].
    pub upper: i32,
    /// Nodes this pass searched.
    pub nodes: u64,
}

/// What a search (or one iteration of it) did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions visited.
    pub nodes: u64,
    /// Leaves evaluated: finished games scored and heuristic evaluations.
    pub leaf_evals: u64,
    /// Heuristic evaluations and uses of heuristic table entries (zero means the result is proven).
    pub heuristic_leaves: u64,
    /// Transposition-table look-ups.
    pub tt_probes: u64,
    /// Look-ups that found bounds usable at the depth searched.
    pub tt_hits: u64,
    /// Nodes cut by Multi-ProbCut.
    pub probcuts: u64,
    /// Positions valued by an endgame database (Kalah's).
    pub database_hits: u64,
    /// The MTD(f) passes, in order.
    pub passes: Vec<MtdfPass>,
}

impl SearchStats {
    /// Counts a leaf valued `horizon` (a finished game, a database's value or an
    /// evaluation) and returns its value.
    #[inline]
    pub(crate) fn count_leaf(&mut self, horizon: Horizon) -> i32 {
        self.leaf_evals += 1;
        match horizon {
            Horizon::End(v) => v,
            Horizon::Database(v) => {
                self.database_hits += 1;
                v
            }
            Horizon::Estimate(v) => {
                self.heuristic_leaves += 1;
                v
            }
        }
    }

    /// Adds another search's counters (and passes) to these.
    pub fn add(&mut self, other: &SearchStats) {
        self.nodes += other.nodes;
        self.leaf_evals += other.leaf_evals;
        self.heuristic_leaves += other.heuristic_leaves;
        self.tt_probes += other.tt_probes;
        self.tt_hits += other.tt_hits;
        self.probcuts += other.probcuts;
        self.database_hits += other.database_hits;
        self.passes.extend_from_slice(&other.passes);
    }

    /// Nodes per second over `time`.
    #[must_use]
    pub fn nps(&self, time: Duration) -> u64 {
        (self.nodes as f64 / time.as_secs_f64().max(1e-6)) as u64
    }
}

impl SearchStats {
    /// What was counted since `earlier` (a snapshot of these same counters).
    #[must_use]
    pub fn since(&self, earlier: &SearchStats) -> SearchStats {
        SearchStats {
            nodes: self.nodes - earlier.nodes,
            leaf_evals: self.leaf_evals - earlier.leaf_evals,
            heuristic_leaves: self.heuristic_leaves - earlier.heuristic_leaves,
            tt_probes: self.tt_probes - earlier.tt_probes,
            tt_hits: self.tt_hits - earlier.tt_hits,
            probcuts: self.probcuts - earlier.probcuts,
            database_hits: self.database_hits - earlier.database_hits,
            passes: self.passes[earlier.passes.len()..].to_vec(),
        }
    }
}
