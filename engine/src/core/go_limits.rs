//! A `go`'s limits for the search: its goal and depth as asked, and its time, from a fixed
//! time per move or its clock. The time is decided here only.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use protocol::Go;

use super::timing;
use crate::game::AnyPosition;
use crate::search::Limits;

/// The limits of `go` on `position`, stopped by `stop`. Whether it searches or solves is
/// the search's to decide ([`Limits::goal`]).
pub(crate) fn of(go: &Go, position: &AnyPosition, stop: &Arc<AtomicBool>) -> Limits {
    // A fixed time per move is used whole; a clock's share of it is used as it pays.
    let clock = go
        .time
        .filter(|_| go.movetime.is_none())
        .map(|tc| timing::allowance(tc.time, tc.inc.unwrap_or(0), timing::moves_left(position)));
    Limits {
        goal: go.goal,
        depth: go.depth,
        nodes: go.nodes,
        movetime: go
            .movetime
            .map(Duration::from_millis)
            .or(clock.map(|c| c.hard)),
        soft_time: clock.map(|c| c.soft),
        infinite: go.infinite,
        multipv: match go.multipv {
            None => 1,
            Some(protocol::MultiPv::Best(k)) => usize::try_from(k).unwrap_or(usize::MAX),
            Some(protocol::MultiPv::All) => usize::MAX,
        },
        stop: Some(Arc::clone(stop)),
        node_counter: None,
        asked: None,
        exclude: Vec::new(),
    }
}
