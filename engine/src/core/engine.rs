//! One client's engine: its options, position and search. Requests are handled in the
//! order the front makes them; the search runs on the engine's [`Worker`] thread.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use protocol::{BestMove, Go, Goal, Info, Score};
use thiserror::Error;

use super::Shared;
use super::events::{EngineEvent, EventSink};
use super::file_access::FileAccess;
use super::go_limits;
use super::job::{KalahSetup, SearchJob};
use super::options::{EngineOptions, OptionError};
use super::pool::{PoolExhausted, Reservation, ThreadBudget};
use super::worker::{Worker, stop_flag};
use crate::book::BookMove;
use crate::data_dir::kalah_dir;
use crate::game::AnyPosition;
use crate::search::kalah::{DatabaseSource, auto_build_seeds};
use crate::search::{Limits, SearchParams};

/// How an engine ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// `quit`, or the client is gone: stop the search at once.
    Stop,
    /// End of piped input: let a search with an end finish and report it.
    Drain,
}

/// A search to run: the `go` as the protocol types it, and what a front may add.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// Limits, goal, algorithm, multi-PV and id.
    pub go: Go,
    /// Send [`EngineEvent::Progress`] this often while it runs.
    pub progress_every: Option<Duration>,
    /// Value every position of this game, from the last back to the first
    /// ([`EngineEvent::Valued`] for each), instead of searching the engine's position.
    pub value_game: Option<Vec<AnyPosition>>,
    /// What it is for: the opening book answers, shows its moves or keeps out of it (with
    /// option `OwnBook` on).
    pub intent: Intent,
}

/// What a request is for, decided once by the front that reads it: it says whether the
/// opening book (8x8 Othello, option `OwnBook` on) has a part in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Intent {
    /// Play a move: in a book position a book move answers, whatever the limits.
    Play,
    /// Analyse: in a book position a line per book move first, then the search.
    Analyse,
    /// Search exactly as told: the book is not consulted.
    #[default]
    Search,
}

impl Intent {
    /// The intent of a native-protocol `go` (PROTOCOL.md, option `OwnBook`): a `go` that
    /// plays a move (no depth, node limit, algorithm, goal or multi-PV, not `infinite`)
    /// plays; `go infinite` analyses; anything else searches as told.
    #[must_use]
    pub fn of_go(go: &Go) -> Intent {
        if go.infinite {
            Intent::Analyse
        } else if go.depth.is_none()
            && go.nodes.is_none()
            && go.algorithm.is_none()
            && go.goal == Goal::Heuristic
            && go.multipv.is_none()
        {
            Intent::Play
        } else {
            Intent::Search
        }
    }
}

impl From<Go> for Request {
    /// A request for `go`, with the intent its shape gives ([`Intent::of_go`]).
    fn from(go: Go) -> Request {
        Request {
            intent: Intent::of_go(&go),
            go,
            ..Request::default()
        }
    }
}

/// A `go` that cannot start.
#[derive(Debug, Error)]
pub enum GoError {
    /// A search runs already.
    #[error("busy: a search is running; send stop first")]
    Busy,
    /// No position was set.
    #[error("no position: send position first")]
    NoPosition,
    /// The table of the `Hash` asked for does not fit in what is left of the pool.
    #[error(transparent)]
    Memory(#[from] PoolExhausted),
}

/// One client's engine.
pub struct Engine {
    events: Arc<dyn EventSink>,
    options: EngineOptions,
    position: Option<AnyPosition>,
    worker: Worker,
    /// Searches started; the worker counts those finished.
    started: u64,
    /// The latest search is `go infinite` (it holds its end until stopped).
    infinite: bool,
    reservation: Arc<Reservation>,
    /// The process's search threads, leased to each search.
    threads: Arc<ThreadBudget>,
    /// The process's Kalah databases, where `auto` finds installed ones, and whether this
    /// engine has said how to install one (its `source` is set from the option at each
    /// `go`).
    kalah: KalahSetup,
}

impl Engine {
    /// An engine of `shared`'s process whose options may name `files`, reporting to
    /// `events`.
    ///
    /// # Errors
    /// When its search thread cannot be started.
    pub fn new(
        shared: &Shared,
        files: FileAccess,
        events: Arc<dyn EventSink>,
    ) -> std::io::Result<Engine> {
        let reservation = shared.pool.reservation();
        let worker = Worker::spawn(Arc::clone(&reservation))?;
        let config = &shared.config;
        let options = EngineOptions::new(
            config.hash_mib,
            config.max_hash_mib.min(shared.pool.limit_mib()),
            config.eval.clone(),
            (config.threads, config.max_threads),
            files,
        )
        .with_selectivity(config.selectivity)
        .with_own_book(config.own_book);
        Ok(Engine {
            events,
            options,
            position: None,
            worker,
            started: 0,
            infinite: false,
            reservation,
            threads: Arc::clone(&shared.threads),
            kalah: KalahSetup {
                source: DatabaseSource::Auto,
                databases: Arc::clone(&shared.kalah_databases),
                dir: config.data_dir.as_deref().map(kalah_dir),
                hinted: Arc::default(),
            },
        })
    }

    /// The options and their values.
    #[must_use]
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Sets an option for the next search (one running goes on as it started).
    ///
    /// # Errors
    /// An unknown option or a value it cannot take; the option is unchanged.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        self.options.set(name, value)
    }

    /// Stops a running search (its end reported first), then takes `position`.
    pub async fn set_position(&mut self, position: AnyPosition) {
        self.stop().await;
        self.position = Some(position);
    }

    /// True while a search runs (until its [`EngineEvent::Done`] is sent).
    #[must_use]
    pub fn searching(&self) -> bool {
        self.worker.finished() < self.started
    }

    /// Resolves once the engine's search (if any) has ended and `after` more has passed.
    /// A front makes a new one after every line, so any line resets it.
    pub fn idle(&self, after: Duration) -> impl Future<Output = ()> + use<> {
        let mut finished = self.worker.finished_count();
        let started = self.started;
        async move {
            // An error means the search thread is gone: nothing runs.
            let _ = finished.wait_for(|&n| n >= started).await;
            tokio::time::sleep(after).await;
        }
    }

    /// Starts a search of the position (or of a game's positions).
    ///
    /// # Errors
    /// When one runs already, there is no position, or its table does not fit.
    pub fn go(&mut self, request: Request) -> Result<(), GoError> {
        let received = Instant::now();
        if self.searching() {
            return Err(GoError::Busy);
        }
        let (positions, values_game) = match (request.value_game, self.position) {
            (Some(game), _) if !game.is_empty() => (game, true),
            (_, Some(position)) => (vec![position], false),
            (_, None) => return Err(GoError::NoPosition),
        };
        let go = request.go;
        if !values_game && self.answer_from_book(&positions[0], &go, request.intent) {
            return Ok(());
        }
        let hash_mib = self.table_mib(&positions, &go)?;
        let threads = self.threads.lease(self.options.threads);
        if threads.threads() < self.options.threads {
            self.events.send(EngineEvent::Note(Info {
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
            algorithm: go.algorithm,
            thresholds: self.options.thresholds,
            selectivity: self.options.selectivity,
            threads: threads.threads(),
            ..SearchParams::default()
        };
        let stop = stop_flag();
        // The first position searched is the last (a game's are valued from the end).
        let first = positions.last().expect("a position or a game's");
        let limits = Limits {
            asked: Some(received),
            ..go_limits::of(&go, first, &stop)
        };
        self.started += 1;
        self.infinite = go.infinite;
        self.worker.search(SearchJob {
            values_game,
            positions,
            progress_every: request.progress_every,
            events: Arc::clone(&self.events),
            params,
            limits,
            stop,
            hash_mib,
            pass_info: self.options.pass_info,
            go,
            threads,
            evaluator: self.options.evaluator(),
            kalah: KalahSetup {
                source: self.options.kalah_db.clone(),
                ..self.kalah.clone()
            },
        });
        Ok(())
    }

    /// The opening book's part in a `go` on `position`, as its `intent` says: true when a
    /// book move answered it (no search then); book lines, best first, are sent before an
    /// analysis.
    fn answer_from_book(&self, position: &AnyPosition, go: &Go, intent: Intent) -> bool {
        let AnyPosition::Othello(position) = position else {
            return false;
        };
        if intent == Intent::Search {
            return false;
        }
        let Some(book) = self.options.book() else {
            return false;
        };
        let line = |m: &BookMove, multipv| Info {
            id: go.id.clone(),
            book: Some(u64::from(m.games)),
            multipv,
            score: Some(Score {
                value: m.value,
                ..Score::default()
            }),
            pv: vec![m.mv.to_string()],
            ..Info::default()
        };
        if intent == Intent::Analyse {
            let moves = book.moves(position);
            if !moves.is_empty() {
                let lines = (1..)
                    .zip(&moves)
                    .map(|(rank, m)| line(m, Some(rank)))
                    .collect();
                self.events.send(EngineEvent::Iteration(lines));
            }
            return false;
        }
        let Some(chosen) = book.choose(position, self.options.book_randomness, &mut rand::rng())
        else {
            return false;
        };
        self.events.send(EngineEvent::Done {
            info: line(&chosen, None),
            best: BestMove {
                mv: Some(chosen.mv.to_string()),
                id: go.id.clone(),
            },
            stopped: false,
        });
        true
    }

    /// The table of a search: `Hash`, or for a solve of a large Kalah game (one `auto`
    /// would build a database for) up to `KalahSolveHash` as the pool affords, reserved.
    fn table_mib(&self, positions: &[AnyPosition], go: &Go) -> Result<usize, PoolExhausted> {
        let hash = self.options.hash_mib;
        let large_kalah_solve = go.goal != Goal::Heuristic
            && matches!(positions.first(), Some(AnyPosition::Kalah(p)) if auto_build_seeds(p.rules()).is_some());
        if !large_kalah_solve {
            self.reservation.grow_to(hash)?;
            return Ok(hash);
        }
        let wanted = self.options.kalah_solve_hash_mib.max(hash);
        let mib = self.reservation.grow_within(hash, wanted)?;
        if mib < wanted {
            self.events.send(EngineEvent::Note(Info {
                id: go.id.clone(),
                string: Some(format!(
                    "KalahSolveHash {wanted} MiB asked, {mib} available of the server's table memory: solving with {mib}"
                )),
                ..Info::default()
            }));
        }
        Ok(mib)
    }

    /// Makes the table of `Hash` on the search thread, while no search runs, and resolves
    /// once it is made (at `isready`, as UCI engines do): the first search of a game then
    /// spends its time searching. Skipped when a search runs or the pool has no room (the
    /// `go` then says why).
    pub async fn prepare_table(&mut self) {
        let hash = self.options.hash_mib;
        if !self.searching() && self.reservation.grow_to(hash).is_ok() {
            self.worker.prepare_table(hash).await;
        }
    }

    /// Stops the search, if any, and waits until its end has been reported.
    pub async fn stop(&mut self) {
        self.worker.stop();
        self.worker.wait_for(self.started).await;
    }

    /// Stops the search, forgets the position, and clears the table before the next one.
    pub async fn new_game(&mut self) {
        self.stop().await;
        self.worker.clear_table();
        self.position = None;
    }

    /// Ends the engine: stops (or with [`Ending::Drain`] awaits) the search, then ends the
    /// search thread, which frees the table; then the reservation is returned.
    pub async fn finish(mut self, ending: Ending) {
        if ending == Ending::Stop || self.infinite {
            self.stop().await;
        } else {
            self.worker.wait_for(self.started).await;
        }
        self.worker.shut_down().await;
    }
}
