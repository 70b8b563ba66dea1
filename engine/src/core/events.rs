//! What an engine tells the front that drives it, in the protocol crate's types (one
//! vocabulary from the parser to the search); each front turns them into its own lines.

use std::time::Duration;

use protocol::{BestMove, Info};

/// One report of an engine.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineEvent {
    /// A note for the user (`info string`): fewer threads than asked, a database being
    /// built or not usable.
    Note(Info),
    /// An MTD(f) pass ended (with option `PassInfo`): its bound and the interval so far.
    Pass(Info),
    /// An iteration ended: its line, or with multi-PV a line per valued move, best first
    /// (ranks 1, 2, ...).
    Iteration(Vec<Info>),
    /// The nodes a running request has searched so far, sent every
    /// [`Request::progress`](super::Request::progress).
    Progress {
        /// Nodes of the request so far (of all its positions).
        nodes: u64,
        /// Time since it started.
        elapsed: Duration,
    },
    /// One position of a game valued ([`Request::game`](super::Request::game)): its
    /// index in the game and its value for the side to move there.
    Valued {
        /// Moves played before it.
        index: usize,
        /// Its value found by the search (or the final score of a finished game).
        score: i32,
    },
    /// The request ended: its last line and its move (`None` when the game is over). A
    /// `go infinite` ends when it is stopped.
    Done {
        /// The final line: depth, score, nodes, time, principal variation.
        info: Info,
        /// The move and the request's id.
        best: BestMove,
        /// It was stopped before its limits ended it.
        stopped: bool,
    },
}

/// Where an engine's events go: called on its search thread (and for notes on the
/// front's), so it must not wait for the client.
pub trait EventSink: Send + Sync {
    /// Delivers one event.
    fn send(&self, event: EngineEvent);
}
