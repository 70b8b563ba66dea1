//! Every move's value during a multi-PV analysis, as one iteration gave them.
//!
//! The engine sends an iteration's ranked lines one after another, and the link may read
//! the first of the next iteration before the rest: the values shown are those of the last
//! iteration received in full (or, before any is, the one arriving), never a mix of depths,
//! whose odd and even iterations often disagree by a disc.

use std::cmp::Reverse;
use std::collections::BTreeMap;

use protocol::Info;

/// The ranked lines of a multi-PV search, by move.
#[derive(Clone, Debug, Default)]
pub struct MoveValues {
    /// The last iteration received in full.
    complete: BTreeMap<String, Info>,
    /// The iteration whose lines are arriving.
    incoming: BTreeMap<String, Info>,
}

impl MoveValues {
    /// Records a line ranked `rank` (1 = best) valuing the first move of its PV.
    pub fn record(&mut self, rank: u32, info: Info) {
        let Some(mv) = info.pv.first().cloned() else {
            return;
        };
        // Rank 1 opens an iteration, so the one before it is whole.
        if rank == 1 && !self.incoming.is_empty() {
            self.complete = std::mem::take(&mut self.incoming);
        }
        self.incoming.insert(mv, info);
    }

    /// The lines to show, by move: all from one iteration.
    #[must_use]
    pub fn shown(&self) -> &BTreeMap<String, Info> {
        // An iteration values as many moves as the one before it.
        if self.incoming.len() >= self.complete.len() {
            &self.incoming
        } else {
            &self.complete
        }
    }

    /// The best move of the lines shown: the highest value, the better rank among equal
    /// values. Our engine sends its ranks in score order, so that is rank 1; an engine
    /// that does not (a selective search's later rank can value its move above an earlier
    /// one's) must not have a move marked best that shows less than another.
    #[must_use]
    pub fn best(&self) -> Option<&str> {
        self.shown()
            .iter()
            .max_by_key(|(_, info)| (info.score.map(|s| s.value), Reverse(info.multipv)))
            .map(|(mv, _)| mv.as_str())
    }

    /// True before any ranked line.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.incoming.is_empty() && self.complete.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{Bound, Depth, Proof, Score};

    fn line(depth: u32, rank: u32, mv: &str, value: i32) -> Info {
        Info {
            depth: Some(Depth::Plies(depth)),
            multipv: Some(rank),
            score: Some(Score {
                value,
                bound: Bound::Exact,
                proof: Proof::Heuristic,
            }),
            pv: vec![mv.to_string()],
            ..Info::default()
        }
    }

    fn shown(values: &MoveValues) -> Vec<(String, u32, i32)> {
        values
            .shown()
            .iter()
            .map(|(mv, info)| {
                let depth = match info.depth {
                    Some(Depth::Plies(d)) => d,
                    other => panic!("{other:?}"),
                };
                (mv.clone(), depth, info.score.map_or(0, |s| s.value))
            })
            .collect()
    }

    fn record(values: &mut MoveValues, depth: u32, rank: u32, mv: &str, value: i32) {
        values.record(rank, line(depth, rank, mv, value));
    }

    #[test]
    fn an_iteration_half_received_does_not_mix_with_the_last_whole_one() {
        let mut v = MoveValues::default();
        assert!(v.is_empty());
        assert_eq!(v.best(), None);
        // The first iteration is shown as it arrives: there is nothing older.
        record(&mut v, 1, 1, "c4", 3);
        assert_eq!(shown(&v), [("c4".into(), 1, 3)]);
        record(&mut v, 1, 2, "d3", 3);
        record(&mut v, 1, 3, "e6", 2);
        assert_eq!(v.best(), Some("c4"));
        // The next iteration's first lines: the whole first one stays shown.
        record(&mut v, 2, 1, "d3", 2);
        record(&mut v, 2, 2, "e6", 1);
        assert_eq!(
            shown(&v),
            [
                ("c4".into(), 1, 3),
                ("d3".into(), 1, 3),
                ("e6".into(), 1, 2)
            ]
        );
        assert_eq!(v.best(), Some("c4"));
        // Its last line: now it is shown, with its own best.
        record(&mut v, 2, 3, "c4", 0);
        assert_eq!(
            shown(&v),
            [
                ("c4".into(), 2, 0),
                ("d3".into(), 2, 2),
                ("e6".into(), 2, 1)
            ]
        );
        assert_eq!(v.best(), Some("d3"));
        // A search stopped in the middle of an iteration's ranks keeps the last whole one.
        record(&mut v, 3, 1, "e6", 4);
        assert_eq!(v.best(), Some("d3"));
        assert!(shown(&v).iter().all(|&(_, depth, _)| depth == 2));
    }

    #[test]
    fn the_best_is_the_highest_value_shown() {
        let mut v = MoveValues::default();
        record(&mut v, 5, 1, "d3", 2);
        record(&mut v, 5, 2, "c4", 3);
        record(&mut v, 5, 3, "f5", 2);
        record(&mut v, 5, 4, "e6", 3);
        assert_eq!(v.best(), Some("c4"), "the better rank of the two highest");
    }

    #[test]
    fn a_line_without_a_move_is_ignored() {
        let mut v = MoveValues::default();
        v.record(1, Info::default());
        assert!(v.is_empty());
        assert!(v.shown().is_empty());
    }
}
