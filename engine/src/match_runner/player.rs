//! One engine as the runner sees it: started on demand, restarted after a fault.

use std::time::{Duration, Instant};

use protocol::{Client, ClientError, Command, Go, Info, PositionStart};
use serde::{Deserialize, Serialize};

use super::openings::Opening;
use super::spec::EngineSpec;
use crate::game::GameId;

/// How long an engine may take to start and answer the handshake.
const START_TIMEOUT: Duration = Duration::from_secs(20);

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
#[derive(Debug)]
pub struct Reply {
    /// `bestmove`: a move, `pass`, or `None` for `none`.
    pub mv: Option<String>,
    /// The last `info` with a score.
    pub info: Option<Info>,
    /// Wall time from `go` to `bestmove`.
    pub elapsed: Duration,
}

/// A participant with its connection, if one is open.
pub struct Player<'a> {
    spec: &'a EngineSpec,
    client: Option<Client>,
}

impl<'a> Player<'a> {
    /// A player not started yet.
    #[must_use]
    pub fn new(spec: &'a EngineSpec) -> Player<'a> {
        Player { spec, client: None }
    }

    /// Its spec.
    #[must_use]
    pub fn spec(&self) -> &EngineSpec {
        self.spec
    }

    /// Prepares a new game: starts the engine if needed, then `newgame`.
    ///
    /// # Errors
    /// A [`Fault`] when the engine cannot be started or refuses.
    pub fn new_game(&mut self) -> Result<(), Fault> {
        let client = self.client()?;
        client.command(&Command::NewGame, START_TIMEOUT)?;
        Ok(())
    }

    fn client(&mut self) -> Result<&mut Client, Fault> {
        if self.client.is_none() {
            let mut client = Client::start(&self.spec.endpoint, None)?;
            client.handshake(START_TIMEOUT)?;
            for (name, value) in &self.spec.options {
                let set = Command::SetOption {
                    name: name.clone(),
                    value: value.clone(),
                };
                client.command(&set, START_TIMEOUT)?;
            }
            self.client = Some(client);
        }
        self.client.as_mut().ok_or_else(|| Fault {
            kind: FaultKind::Crash,
            detail: "no connection".into(),
        })
    }

    /// Asks for a move in `opening` followed by `moves`, waiting at most `timeout`.
    ///
    /// # Errors
    /// A [`Fault`] (crash, stall, protocol) of the engine; the engine is then restarted at
    /// its next use.
    pub fn choose(
        &mut self,
        game: GameId,
        opening: &Opening,
        moves: &[String],
        go: &Go,
        timeout: Duration,
    ) -> Result<Reply, Fault> {
        let start = match opening.start.as_str() {
            "startpos" => PositionStart::StartPos,
            "parallel" => PositionStart::Parallel,
            text => PositionStart::Text(text.to_string()),
        };
        let position = Command::Position {
            game: game.to_string(),
            start,
            moves: opening.moves.iter().chain(moves).cloned().collect(),
        };
        let result = self.search(&position, go, timeout);
        if result.is_err() {
            self.restart();
        }
        result
    }

    fn search(&mut self, position: &Command, go: &Go, timeout: Duration) -> Result<Reply, Fault> {
        let client = self.client()?;
        client.send(position)?;
        let asked = Instant::now();
        let outcome = client.search(go, timeout)?;
        Ok(Reply {
            info: outcome.final_info().cloned(),
            mv: outcome.best.mv,
            elapsed: asked.elapsed(),
        })
    }

    /// Ends the engine (a child is killed); the next use starts it again.
    pub fn restart(&mut self) {
        self.client = None;
    }
}
