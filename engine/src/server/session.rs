//! One client's session: its options, position and search. Commands are handled in the
//! order they arrive; the search runs on the session's [`Worker`] thread.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use protocol::{Command, Go, Message, PROTOCOL_VERSION, PositionStart};

use super::Shared;
use super::options::EngineOptions;
use super::pool::Reservation;
use super::timing;
use super::worker::{Output, SearchJob, Worker, stop_flag};
use crate::game::{AnyPosition, GameId};
use crate::search::{Algorithm, Goal, Limits, SearchParams};

/// What the reader does after a line.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    Quit,
}

/// How a session ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// `quit`, or the client is gone: stop the search at once.
    Stop,
    /// End of piped input: let a search with an end finish and send its `bestmove`.
    Drain,
}

/// The search in progress (or finished, until its `bestmove` is counted).
#[derive(Debug)]
struct Running {
    stop: Arc<std::sync::atomic::AtomicBool>,
    infinite: bool,
}

pub(crate) struct Session {
    out: Output,
    options: EngineOptions,
    position: Option<AnyPosition>,
    worker: Worker,
    started: u64,
    running: Option<Running>,
    reservation: Reservation,
}

impl Session {
    pub(crate) fn new(out: Output, shared: Arc<Shared>) -> std::io::Result<Session> {
        let worker = Worker::spawn(out.clone())?;
        let options = EngineOptions::new(shared.config.hash_mib, shared.pool.limit_mib());
        let reservation = shared.pool.reservation();
        Ok(Session {
            out,
            options,
            position: None,
            worker,
            started: 0,
            running: None,
            reservation,
        })
    }

    async fn send(&self, message: Message) {
        // Fails only when the client is gone; the reader then ends the session.
        let _ = self.out.send(message.to_string()).await;
    }

    pub(crate) async fn error(&self, reason: impl ToString) {
        self.send(Message::Error(reason.to_string())).await;
    }

    fn searching(&self) -> bool {
        self.worker.finished() < self.started
    }

    /// Handles one input line.
    pub(crate) async fn handle_line(&mut self, line: &str) -> Flow {
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        match line.parse::<Command>() {
            Ok(command) => self.handle(command).await,
            Err(e) => {
                self.error(e).await;
                Flow::Continue
            }
        }
    }

    async fn handle(&mut self, command: Command) -> Flow {
        tracing::debug!(%command, "command");
        match command {
            Command::Hello { version } => self.hello(version).await,
            Command::SetOption { name, value } => {
                if let Err(e) = self.options.set(&name, &value) {
                    self.error(e).await;
                }
            }
            Command::Position { game, start, moves } => {
                match build_position(&game, &start, &moves) {
                    Ok(position) => {
                        self.stop().await;
                        self.position = Some(position);
                    }
                    Err(reason) => self.error(reason).await,
                }
            }
            Command::Go(go) => self.go(go).await,
            Command::Stop => self.stop().await,
            Command::IsReady => self.send(Message::ReadyOk).await,
            Command::NewGame => {
                self.stop().await;
                self.worker.clear_table();
                self.position = None;
            }
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    async fn hello(&self, version: Option<u32>) {
        if let Some(v) = version.filter(|&v| v != PROTOCOL_VERSION) {
            self.error(format!(
                "unsupported protocol version {v}: this engine speaks version {PROTOCOL_VERSION}"
            ))
            .await;
            return;
        }
        for message in super::handshake::messages(&self.options) {
            self.send(message).await;
        }
    }

    async fn go(&mut self, go: Go) {
        if self.searching() {
            self.error("busy: a search is running; send stop first")
                .await;
            return;
        }
        let Some(position) = self.position else {
            self.error("no position: send position first").await;
            return;
        };
        if let Err(e) = self.reservation.resize(self.options.hash_mib) {
            self.error(e).await;
            return;
        }
        let stop = stop_flag();
        let solve_within_depth = match (go.depth, go.goal) {
            (Some(depth), None) => Limits::depth_or_solve(depth, position.empties()),
            _ => Limits::default(),
        };
        let limits = Limits {
            goal: match go.goal {
                Some(protocol::Goal::Solve) => Goal::Exact,
                Some(protocol::Goal::Wld) => Goal::WinLossDraw,
                None => solve_within_depth.goal,
            },
            depth: if go.goal.is_none() {
                solve_within_depth.depth
            } else {
                None
            },
            nodes: go.nodes,
            movetime: go
                .movetime
                .map(std::time::Duration::from_millis)
                .or_else(|| {
                    go.time.map(|tc| {
                        let left = timing::moves_left(&position);
                        timing::budget(tc.time, tc.inc.unwrap_or(0), left)
                    })
                }),
            infinite: go.infinite,
            stop: Some(Arc::clone(&stop)),
        };
        let params = SearchParams {
            algorithm: go
                .algorithm
                .map_or(Algorithm::Mtdf, |a| a.name().parse().unwrap_or_default()),
            thresholds: self.options.thresholds,
            ..SearchParams::default()
        };
        self.started += 1;
        self.running = Some(Running {
            stop,
            infinite: go.infinite,
        });
        self.worker.search(SearchJob {
            position,
            params,
            limits,
            id: go.id,
            hash_mib: self.options.hash_mib,
            pass_info: self.options.pass_info,
            hold: go.infinite,
        });
    }

    /// Stops the search, if any, and waits until its `bestmove` has been sent.
    async fn stop(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            self.worker.wake();
        }
        self.worker.wait_for(self.started).await;
    }

    /// Ends the session: stops (or with [`Ending::Drain`] awaits) the search, then ends the
    /// search thread, which frees the table; then the reservation is returned.
    pub(crate) async fn finish(mut self, ending: Ending) {
        let infinite = self.running.as_ref().is_some_and(|r| r.infinite);
        if ending == Ending::Stop || infinite {
            self.stop().await;
        } else {
            self.worker.wait_for(self.started).await;
        }
        self.worker.shut_down().await;
        drop(self.reservation);
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
