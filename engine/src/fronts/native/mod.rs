//! The native protocol (PROTOCOL.md): a client's lines turned into the requests of an
//! [`Engine`], and the engine's events into `info` and `bestmove` lines.

mod handshake;

use std::sync::Arc;

use protocol::{Command, Message, PROTOCOL_VERSION, PositionStart};

use super::{Flow, Lines};
use crate::core::{Ending, Engine, EngineEvent, EventSink, FileAccess, Shared};
use crate::game::{AnyPosition, GameId};

/// The longest `error` text sent, in bytes: errors quote the client's words, and a
/// client must not be able to make the engine repeat its longest lines back.
const MAX_ERROR_BYTES: usize = 512;

/// The engine's events as protocol lines.
struct Replies(Lines);

impl EventSink for Replies {
    fn send(&self, event: EngineEvent) {
        let send = |message: Message| self.0.send(message.to_string());
        match event {
            EngineEvent::Note(info) | EngineEvent::Pass(info) => send(Message::Info(info)),
            EngineEvent::Iteration(lines) => lines.into_iter().for_each(|i| send(Message::Info(i))),
            EngineEvent::Done { info, best, .. } => {
                send(Message::Info(info));
                send(Message::BestMove(best));
            }
            // Not requested by this protocol.
            EngineEvent::Progress { .. } | EngineEvent::Valued { .. } => {}
        }
    }
}

/// One client's session.
pub(crate) struct NativeFront {
    out: Lines,
    engine: Engine,
}

impl NativeFront {
    /// A session whose options may name `files`.
    pub(crate) fn new(
        out: Lines,
        shared: &Shared,
        files: FileAccess,
    ) -> std::io::Result<NativeFront> {
        let engine = Engine::new(shared, files, Arc::new(Replies(Arc::clone(&out))))?;
        Ok(NativeFront { out, engine })
    }

    /// The engine it drives.
    pub(crate) fn engine(&self) -> &Engine {
        &self.engine
    }

    fn send(&self, message: Message) {
        self.out.send(message.to_string());
    }

    pub(crate) fn error(&self, reason: impl ToString) {
        let mut text = reason.to_string();
        if text.len() > MAX_ERROR_BYTES {
            let mut end = MAX_ERROR_BYTES;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
            text.push_str("...");
        }
        self.send(Message::Error(text));
    }

    /// Handles one input line.
    pub(crate) async fn handle_line(&mut self, line: &str) -> Flow {
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        match line.parse::<Command>() {
            Ok(command) => self.handle(command).await,
            Err(e) => {
                self.error(e);
                Flow::Continue
            }
        }
    }

    async fn handle(&mut self, command: Command) -> Flow {
        tracing::debug!(%command, "command");
        match command {
            Command::Hello { version } => self.hello(version),
            Command::SetOption { name, value } => {
                if let Err(e) = self.engine.set_option(&name, &value) {
                    self.error(e);
                }
            }
            Command::Position { game, start, moves } => {
                match build_position(&game, &start, &moves) {
                    Ok(position) => self.engine.set_position(position).await,
                    Err(reason) => self.error(reason),
                }
            }
            Command::Go(go) => {
                if let Err(e) = self.engine.go(go.into()) {
                    self.error(e);
                }
            }
            Command::Stop => self.engine.stop().await,
            Command::IsReady => {
                self.engine.prepare_table().await;
                self.send(Message::ReadyOk);
            }
            Command::NewGame => self.engine.new_game().await,
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    fn hello(&self, version: Option<u32>) {
        if let Some(v) = version.filter(|&v| v != PROTOCOL_VERSION) {
            self.error(format!(
                "unsupported protocol version {v}: this engine speaks version {PROTOCOL_VERSION}"
            ));
            return;
        }
        for message in handshake::messages(self.engine.options()) {
            self.send(message);
        }
    }

    /// Ends the session (see [`Engine::finish`]).
    pub(crate) async fn finish(self, ending: Ending) {
        self.engine.finish(ending).await;
    }
}

/// The position a `position` command describes, or why there is none.
fn build_position(
    game: &str,
    start: &PositionStart,
    moves: &[String],
) -> Result<AnyPosition, String> {
    let game: GameId = game.parse().map_err(|e| format!("position: {e}"))?;
    let mut position = game
        .position(start.as_word())
        .map_err(|e| format!("position: {e}"))?;
    for (i, mv) in moves.iter().enumerate() {
        position = position
            .play_text(mv)
            .map_err(|e| format!("position: move {} of the list: {e}", i + 1))?;
    }
    Ok(position)
}
