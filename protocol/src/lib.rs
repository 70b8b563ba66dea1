//! The engine's line protocol: typed messages with a parser and formatter that round-trip
//! exactly, and a [`Client`] that runs an engine as a child process or reaches it over TCP.
//!
//! `PROTOCOL.md` at the root of the repository is the specification; this crate is its
//! reference implementation. A line from the frontend is a [`Command`], a line from the
//! engine a [`Message`]; both implement `FromStr` and `Display`, and for every value `v`,
//! `v.to_string().parse() == Ok(v)`.

mod client;
mod command;
mod endpoint;
mod error;
mod info;
mod message;
mod stderr_tail;
mod tokens;

pub use client::{Client, ClientError, Event, Handshake, SearchOutcome};
pub use command::{Algorithm, Command, Go, Goal, MAX_DEPTH, MultiPv, PositionStart, TimeControl};
pub use endpoint::{Endpoint, EndpointError};
pub use error::ParseError;
pub use info::{Bound, Depth, Info, PassInfo, Proof, Score};
pub use message::{BestMove, Message, OptionKind, OptionSpec};
pub use stderr_tail::{STDERR_TAIL_LINES, StderrTail};

/// The protocol version this crate speaks (sent in `hello` and answered in `protocol`).
pub const PROTOCOL_VERSION: u32 = 1;
