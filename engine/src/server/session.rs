//! One client's session: its options, position and search. Commands are handled in the
//! order they arrive; the search runs on the session's [`Worker`] thread.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use protocol::{Command, Go, Info, Message, PROTOCOL_VERSION, PositionStart};

use super::Shared;
use super::file_access::FileAccess;
use super::options::EngineOptions;
use super::output::Output;
use super::pool::{Reservation, ThreadBudget};
use super::timing;
use super::worker::{SearchJob, Worker, stop_flag};
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

/// The longest `error` text sent, in bytes: errors quote the client's words, and a
/// client must not be able to make the engine repeat its longest lines back.
const MAX_ERROR_BYTES: usize = 512;

pub(crate) struct Session {
    out: Output,
    options: EngineOptions,
    position: Option<AnyPosition>,
    worker: Worker,
    /// Searches started; the worker counts those finished.
    started: u64,
    /// The latest search is `go infinite` (it holds its `bestmove` until stopped).
    infinite: bool,
    reservation: Arc<Reservation>,
    /// The server's search threads, leased to each `go`.
    threads: Arc<ThreadBudget>,
}

impl Session {
    /// A session whose options may name `files`.
    pub(crate) fn new(out: Output, shared: &Shared, files: FileAccess) -> std::io::Result<Session> {
        let reservation = shared.pool.reservation();
        let worker = Worker::spawn(out.clone(), Arc::clone(&reservation))?;
        let max_hash = shared.config.max_hash_mib.min(shared.pool.limit_mib());
        let options = EngineOptions::new(
            shared.config.hash_mib,
            max_hash,
            shared.config.eval.clone(),
            (shared.config.threads, shared.config.max_threads),
            files,
        );
        Ok(Session {
            out,
            options,
            position: None,
            worker,
            started: 0,
            infinite: false,
            reservation,
            threads: Arc::clone(&shared.threads),
        })
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

    fn searching(&self) -> bool {
        self.worker.finished() < self.started
    }

    /// Resolves once the session's search (if any) has ended and `after` more has passed.
    /// The reader makes a new one after every line, so any line resets it.
    pub(crate) fn idle(&self, after: Duration) -> impl Future<Output = ()> + use<> {
        let mut progress = self.worker.progress();
        let started = self.started;
        async move {
            // An error means the search thread is gone: nothing runs.
            let _ = progress.wait_for(|&n| n >= started).await;
            tokio::time::sleep(after).await;
        }
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
                if let Err(e) = self.options.set(&name, &value) {
                    self.error(e);
                }
            }
            Command::Position { game, start, moves } => {
                match build_position(&game, &start, &moves) {
                    Ok(position) => {
                        self.stop().await;
                        self.position = Some(position);
                    }
                    Err(reason) => self.error(reason),
                }
            }
            Command::Go(go) => self.go(go),
            Command::Stop => self.stop().await,
            Command::IsReady => self.send(Message::ReadyOk),
            Command::NewGame => {
                self.stop().await;
                self.worker.clear_table();
                self.position = None;
            }
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
        for message in super::handshake::messages(&self.options) {
            self.send(message);
        }
    }

    fn go(&mut self, go: Go) {
        if self.searching() {
            self.error("busy: a search is running; send stop first");
            return;
        }
        let Some(position) = self.position else {
            self.error("no position: send position first");
            return;
        };
        if let Err(e) = self.reservation.grow_to(self.options.hash_mib) {
            self.error(e);
            return;
        }
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
            movetime: go.movetime.map(Duration::from_millis).or_else(|| {
                go.time.map(|tc| {
                    let left = timing::moves_left(&position);
                    timing::budget(tc.time, tc.inc.unwrap_or(0), left)
                })
            }),
            infinite: go.infinite,
            multipv: match go.multipv {
                None => 1,
                Some(protocol::MultiPv::Best(k)) => usize::try_from(k).unwrap_or(usize::MAX),
                Some(protocol::MultiPv::All) => usize::MAX,
            },
            stop: Some(stop_flag()),
            progress: None,
        };
        let threads = self.threads.lease(self.options.threads);
        if threads.threads() < self.options.threads {
            self.send(Message::Info(Info {
                id: go.id.clone(),
                string: Some(format!(
                    "Threads {} asked, {} available of the server's {} (--max-threads): searching with {}",
                    self.options.threads,
                    threads.threads(),
                    self.threads.limit(),
                    threads.threads()
                )),
                ..Info::default()
            }));
        }
        let params = SearchParams {
            algorithm: go.algorithm.map_or(Algorithm::Mtdf, algorithm),
            thresholds: self.options.thresholds,
            evaluator: self.options.evaluator(),
            ..SearchParams::default()
        };
        self.started += 1;
        self.infinite = go.infinite;
        self.worker.search(SearchJob {
            position,
            params,
            limits,
            id: go.id,
            hash_mib: self.options.hash_mib,
            pass_info: self.options.pass_info,
            hold: go.infinite,
            threads,
            kalah_db: self.options.kalah_db.clone(),
        });
    }

    /// Stops the search, if any, and waits until its `bestmove` has been sent.
    async fn stop(&mut self) {
        self.worker.stop();
        self.worker.wait_for(self.started).await;
    }

    /// Ends the session: stops (or with [`Ending::Drain`] awaits) the search, then ends the
    /// search thread, which frees the table; then the reservation is returned.
    pub(crate) async fn finish(mut self, ending: Ending) {
        if ending == Ending::Stop || self.infinite {
            self.stop().await;
        } else {
            self.worker.wait_for(self.started).await;
        }
        self.worker.shut_down().await;
    }
}

/// The search algorithm a protocol name stands for.
fn algorithm(name: protocol::Algorithm) -> Algorithm {
    match name {
        protocol::Algorithm::Negamax => Algorithm::Negamax,
        protocol::Algorithm::AlphaBeta => Algorithm::AlphaBeta,
        protocol::Algorithm::NegaAlpha => Algorithm::NegaAlpha,
        protocol::Algorithm::NegaScout => Algorithm::NegaScout,
        protocol::Algorithm::Mtdf => Algorithm::Mtdf,
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
