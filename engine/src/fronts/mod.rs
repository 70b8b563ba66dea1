//! The fronts: each turns one protocol's lines into the requests of an engine
//! ([`crate::core::Engine`]) and the engine's events into its lines. The native protocol
//! ([`native`], PROTOCOL.md) and NBoard's ([`nboard`]); the server ([`crate::server`])
//! carries the lines of either over stdin/stdout or TCP.

pub mod native;
pub mod nboard;

use std::sync::Arc;
use std::time::Duration;

use crate::core::{Ending, FileAccess, Shared};

/// Where a front's lines go (without their newline); sending never waits.
pub(crate) trait LineOut: Send + Sync {
    /// Queues one line.
    fn send(&self, line: String);
}

/// The lines of a front, shared with its engine's search thread.
pub(crate) type Lines = Arc<dyn LineOut>;

/// What the reader does after a line.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    Quit,
}

/// The protocols a client may speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// This engine's own (PROTOCOL.md).
    Native,
    /// NBoard's, version 2.
    Nboard,
}

/// An input line that cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BadLine {
    /// Longer than this many bytes.
    TooLong(usize),
    /// Not UTF-8.
    NotUtf8,
}

/// One client's front, of either protocol.
pub(crate) enum Front {
    Native(native::NativeFront),
    Nboard(nboard::NboardFront),
}

impl Front {
    /// A front speaking `protocol` to `out`, over an engine of `shared` whose options may
    /// name `files`.
    pub(crate) fn new(
        protocol: Protocol,
        out: Lines,
        shared: &Shared,
        files: FileAccess,
    ) -> std::io::Result<Front> {
        Ok(match protocol {
            Protocol::Native => Front::Native(native::NativeFront::new(out, shared, files)?),
            Protocol::Nboard => Front::Nboard(nboard::NboardFront::new(out, shared, files)?),
        })
    }

    /// Handles one input line.
    pub(crate) async fn handle_line(&mut self, line: &str) -> Flow {
        match self {
            Front::Native(session) => session.handle_line(line).await,
            Front::Nboard(session) => session.handle_line(line).await,
        }
    }

    /// Answers a line that could not be read.
    pub(crate) fn bad_line(&self, bad: BadLine) {
        match self {
            Front::Native(session) => session.error(match bad {
                BadLine::TooLong(max) => format!("line too long: the limit is {max} bytes"),
                BadLine::NotUtf8 => "line is not valid UTF-8".to_string(),
            }),
            Front::Nboard(session) => session.status(&match bad {
                BadLine::TooLong(max) => {
                    format!("error: line too long (the limit is {max} bytes); ignored")
                }
                BadLine::NotUtf8 => "error: line is not valid UTF-8; ignored".to_string(),
            }),
        }
    }

    /// Tells the client why the connection closes.
    pub(crate) fn closing(&self, why: &str) {
        match self {
            Front::Native(session) => session.error(why),
            Front::Nboard(session) => session.status(&format!("error: {why}")),
        }
    }

    /// Resolves once no search has run for `after`.
    pub(crate) fn idle(&self, after: Duration) -> impl Future<Output = ()> + use<> {
        match self {
            Front::Native(session) => session.engine().idle(after),
            Front::Nboard(session) => session.engine().idle(after),
        }
    }

    /// Ends the session (see [`crate::core::Engine::finish`]).
    pub(crate) async fn finish(self, ending: Ending) {
        match self {
            Front::Native(session) => session.finish(ending).await,
            Front::Nboard(session) => session.finish(ending).await,
        }
    }
}
