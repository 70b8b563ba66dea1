//! What the runner gets back from an engine: a move ([`Reply`]) or what it did wrong
//! ([`Fault`]), whichever protocol it speaks.

use std::time::Duration;

use protocol::{ClientError, Info, StderrTail};
use serde::{Deserialize, Serialize};

/// What an engine did wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FaultKind {
    /// It exited, closed the connection or could not be started.
    Crash,
    /// It did not answer in time.
    Stall,
    /// It played an illegal move (or none in an unfinished game).
    Illegal,
    /// Its clock ran out.
    Time,
    /// It refused a command with `error`, or broke the protocol.
    Protocol,
}

impl FaultKind {
    /// Every kind, in report order.
    pub const ALL: [FaultKind; 5] = [
        FaultKind::Crash,
        FaultKind::Stall,
        FaultKind::Illegal,
        FaultKind::Time,
        FaultKind::Protocol,
    ];

    /// The name in reports.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Crash => "crash",
            FaultKind::Stall => "stall",
            FaultKind::Illegal => "illegal",
            FaultKind::Time => "time",
            FaultKind::Protocol => "protocol",
        }
    }
}

/// A fault and what was seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Its kind.
    pub kind: FaultKind,
    /// Details for the record.
    pub detail: String,
}

/// How long a fault waits for the engine's last lines on its standard error.
const STDERR_WAIT: Duration = Duration::from_millis(200);

impl Fault {
    /// The fault with the engine's last lines on its standard error (if kept) at the end
    /// of its detail.
    #[must_use]
    pub fn with_stderr(self, tail: Option<&StderrTail>) -> Fault {
        match tail {
            Some(tail) => Fault {
                detail: tail.annotate(&self.detail, STDERR_WAIT),
                ..self
            },
            None => self,
        }
    }
}

impl From<ClientError> for Fault {
    fn from(e: ClientError) -> Self {
        let kind = match &e {
            ClientError::Timeout { .. } => FaultKind::Stall,
            ClientError::Refused(_) | ClientError::Malformed { .. } | ClientError::OutOfTurn(_) => {
                FaultKind::Protocol
            }
            _ => FaultKind::Crash,
        };
        Fault {
            kind,
            detail: e.to_string(),
        }
    }
}

/// An engine's answer for one move.
#[derive(Debug, Clone)]
pub struct Reply {
    /// `bestmove`: a move, `pass`, or `None` for `none`.
    pub mv: Option<String>,
    /// The last `info` with a score.
    pub info: Option<Info>,
    /// Wall time from `go` to `bestmove`.
    pub elapsed: Duration,
}
