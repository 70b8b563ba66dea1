//! One engine as the runner sees it: started on demand, restarted after a fault.

use std::time::{Duration, Instant};

use protocol::{Client, Command, Endpoint, Go, PositionStart};

use super::fault::{Fault, FaultKind, Reply};
use super::nboard_player::NboardEngine;
use super::openings::Opening;
use super::spec::EngineSpec;
use crate::game::{AnyPosition, GameId};
use crate::ggf::GgfGame;

/// How the runner talks to a running engine.
enum Backend {
    /// Our protocol.
    Native(Client),
    /// NBoard.
    Nboard(NboardEngine),
}

/// A participant with its connection, if one is open.
pub struct Player<'a> {
    spec: &'a EngineSpec,
    /// How long the engine may take to start and answer the handshake (or a command).
    start_timeout: Duration,
    backend: Option<Backend>,
}

impl<'a> Player<'a> {
    /// A player not started yet.
    #[must_use]
    pub fn new(spec: &'a EngineSpec, start_timeout: Duration) -> Player<'a> {
        Player {
            spec,
            start_timeout,
            backend: None,
        }
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
        // An NBoard engine sees a new game in its first `set game`.
        let timeout = self.start_timeout;
        if let Backend::Native(client) = self.backend()? {
            client
                .command(&Command::NewGame, timeout)
                .map_err(|e| Fault::from(e).with_stderr(client.stderr_tail()))?;
        }
        Ok(())
    }

    fn backend(&mut self) -> Result<&mut Backend, Fault> {
        if self.backend.is_none() {
            self.backend = Some(self.start()?);
        }
        self.backend.as_mut().ok_or_else(|| Fault {
            kind: FaultKind::Crash,
            detail: "no connection".into(),
        })
    }

    fn start(&self) -> Result<Backend, Fault> {
        if self.spec.nboard {
            let Endpoint::Command(words) = &self.spec.endpoint else {
                return Err(Fault {
                    kind: FaultKind::Crash,
                    detail: "NBoard engines are run as commands".into(),
                });
            };
            return Ok(Backend::Nboard(NboardEngine::start(
                words,
                self.start_timeout,
            )?));
        }
        let mut client = Client::start(&self.spec.endpoint, None)?;
        let ready = client
            .handshake(self.start_timeout)
            .map(drop)
            .and_then(|()| {
                self.spec.options.iter().try_for_each(|(name, value)| {
                    let set = Command::SetOption {
                        name: name.clone(),
                        value: value.clone(),
                    };
                    client.command(&set, self.start_timeout)
                })
            });
        match ready {
            Ok(()) => Ok(Backend::Native(client)),
            Err(e) => Err(Fault::from(e).with_stderr(client.stderr_tail())),
        }
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
        let position = Command::Position {
            game: game.to_string(),
            start: PositionStart::from_word(&opening.start),
            moves: opening.moves.iter().chain(moves).cloned().collect(),
        };
        let result = match self.backend() {
            Ok(Backend::Native(client)) => search(client, &position, go, timeout)
                .map_err(|f| f.with_stderr(client.stderr_tail())),
            Ok(Backend::Nboard(engine)) => nboard_game(game, opening, moves)
                .map(|mut ggf| {
                    if let Some(clock) = go.time {
                        // The mover's clock as NBoard's GUI gives it: the game's time
                        // (`TI`) less the times of the mover's moves, here all 0. An
                        // increment is not told: the engine budgets without it, safely.
                        ggf.set_property("TI", &ggf_time(clock.time));
                    }
                    ggf
                })
                .and_then(|ggf| engine.choose(&ggf, go.depth, timeout))
                .map_err(|f| f.with_stderr(engine.stderr_tail())),
            Err(fault) => Err(fault),
        };
        if result.is_err() {
            self.restart();
        }
        result
    }

    /// Ends the engine (a child is killed); the next use starts it again.
    pub fn restart(&mut self) {
        self.backend = None;
    }
}

fn search(
    client: &mut Client,
    position: &Command,
    go: &Go,
    timeout: Duration,
) -> Result<Reply, Fault> {
    client.send(position)?;
    let asked = Instant::now();
    let outcome = client.search(go, timeout)?;
    Ok(Reply {
        info: outcome.final_info().cloned(),
        mv: outcome.best.mv,
        elapsed: asked.elapsed(),
    })
}

/// Milliseconds as a GGF time, `m:ss.sss`.
fn ggf_time(ms: u64) -> String {
    format!("{}:{:06.3}", ms / 60_000, (ms % 60_000) as f64 / 1000.0)
}

/// The game so far as a GGF record, for an NBoard engine (8x8 Othello only).
pub(crate) fn nboard_game(
    game: GameId,
    opening: &Opening,
    moves: &[String],
) -> Result<GgfGame, Fault> {
    let protocol_fault = |detail: String| Fault {
        kind: FaultKind::Protocol,
        detail,
    };
    let Ok(AnyPosition::Othello(start)) = game.position(&opening.start) else {
        return Err(protocol_fault(format!(
            "NBoard engines play 8x8 Othello, not {game}"
        )));
    };
    let mut record = GgfGame::new(start, "black", "white");
    for text in opening.moves.iter().chain(moves) {
        record
            .push_text(text)
            .map_err(|e| protocol_fault(e.to_string()))?;
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_in_ggf_time() {
        assert_eq!(ggf_time(1_500), "0:01.500");
        assert_eq!(ggf_time(125_250), "2:05.250");
    }
}
