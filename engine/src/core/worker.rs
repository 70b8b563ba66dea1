//! The search thread of an engine: it owns the transposition table, runs one request at a
//! time and reports it as [`Event`]s. A request comes by crossbeam channel (at most one is
//! ever queued: the engine refuses `go` while one runs); clearing the table is a flag, so
//! that any number of `newgame`s costs one clear, made a MiB at a time so that it never
//! delays a `stop`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use protocol::{BestMove, Depth, Go, Info, PassInfo};
use tokio::sync::watch;

use super::events::{Event, EventSink};
use super::plan;
use super::pool::{Reservation, ThreadLease};
use crate::game::AnyPosition;
use crate::search::eval::Evaluator;
use crate::search::kalah::{DatabaseCache, DatabaseSource, KalahDatabase};
use crate::search::{
    self, Iteration, Limits, Report, SearchParams, SearchResult, SearchStats, Searchable,
    TranspositionTable,
};

/// One request to run.
pub(crate) struct SearchJob {
    /// The position to search; or with `game`, every position of a game, valued from the
    /// last back to the first (later positions fill the table first).
    pub(crate) positions: Vec<AnyPosition>,
    pub(crate) game: bool,
    /// Send [`Event::Progress`] this often.
    pub(crate) progress: Option<Duration>,
    pub(crate) events: Arc<dyn EventSink>,
    pub(crate) params: SearchParams,
    /// The request's limits, goal, multi-PV and id (`go infinite` holds its end until
    /// stopped).
    pub(crate) go: Go,
    /// Set by the engine to stop it.
    pub(crate) stop: Arc<AtomicBool>,
    /// When the `go` came: a time limit counts from then.
    pub(crate) received: Instant,
    pub(crate) hash_mib: usize,
    pub(crate) pass_info: bool,
    /// The search threads it holds of the server's budget, until it ends (they override
    /// `params.threads`).
    pub(crate) threads: ThreadLease,
    /// Othello's evaluation (options `Eval` and `EvalFile`).
    pub(crate) evaluator: Evaluator,
    /// Where a Kalah search gets its database.
    pub(crate) kalah_db: DatabaseSource,
    /// Where databases are kept between searches.
    pub(crate) kalah_databases: Arc<DatabaseCache>,
}

/// What the engine and its search thread signal each other besides the job channel.
#[derive(Debug)]
struct Signals {
    /// Clear the table before the next search (`newgame`).
    clear: AtomicBool,
    /// The engine is gone: end a held search.
    closing: AtomicBool,
    /// Searches finished (their `bestmove` queued). Locked while the `bestmove` is queued
    /// and the count raised, so that whoever reads the count sees it raised once the
    /// `bestmove` can have reached the client, and nothing can be queued between them.
    finished: Mutex<u64>,
}

/// The engine's handle on its search thread. Dropping it (whatever ends the engine,
/// a panic included) stops the search and joins the thread, which frees the table and
/// returns its reservation.
#[derive(Debug)]
pub(crate) struct Worker {
    jobs: Option<Sender<SearchJob>>,
    signals: Arc<Signals>,
    finished: watch::Receiver<u64>,
    /// The stop flag of the latest search.
    stop: Option<Arc<AtomicBool>>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the thread; its tables are counted in `reservation`.
    pub(crate) fn spawn(reservation: Arc<Reservation>) -> std::io::Result<Worker> {
        let (jobs, rx) = crossbeam_channel::bounded(1);
        let (done, finished) = watch::channel(0);
        let signals = Arc::new(Signals {
            clear: AtomicBool::new(false),
            closing: AtomicBool::new(false),
            finished: Mutex::new(0),
        });
        let thread_signals = Arc::clone(&signals);
        let thread = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let mut worker = SearchThread {
                    signals: thread_signals,
                    done,
                    reservation,
                    table: None,
                };
                worker.run(&rx);
            })?;
        Ok(Worker {
            jobs: Some(jobs),
            signals,
            finished,
            stop: None,
            thread: Some(thread),
        })
    }

    /// Searches finished so far (each has queued its `bestmove`).
    pub(crate) fn finished(&self) -> u64 {
        *self
            .signals
            .finished
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn search(&mut self, job: SearchJob) {
        self.stop = Some(Arc::clone(&job.stop));
        if let Some(jobs) = &self.jobs {
            // Fails only if the thread died; the engine notices in `wait_for`.
            let _ = jobs.send(job);
        }
    }

    /// Clears the table before the next search.
    pub(crate) fn clear_table(&self) {
        self.signals.clear.store(true, Ordering::Relaxed);
    }

    /// Stops the latest search (if it still runs) and wakes it if it holds its `bestmove`.
    pub(crate) fn stop(&self) {
        if let Some(stop) = &self.stop {
            stop.store(true, Ordering::Relaxed);
        }
        self.wake();
    }

    fn wake(&self) {
        if let Some(thread) = &self.thread {
            thread.thread().unpark();
        }
    }

    /// Waits until `count` searches have finished. False if the thread is gone.
    pub(crate) async fn wait_for(&mut self, count: u64) -> bool {
        self.finished.wait_for(|&n| n >= count).await.is_ok()
    }

    /// A receiver of the finished count, to wait on without borrowing the worker.
    pub(crate) fn progress(&self) -> watch::Receiver<u64> {
        self.finished.clone()
    }

    /// Ends the thread after its current search and waits for it without blocking the
    /// runtime, so that its table is freed.
    pub(crate) async fn shut_down(mut self) {
        drop(self.jobs.take());
        self.close();
        if let Some(thread) = self.thread.take() {
            // A search thread that panicked has nothing left to free.
            let _ = tokio::task::spawn_blocking(move || thread.join()).await;
        }
    }

    fn close(&self) {
        self.signals.closing.store(true, Ordering::Relaxed);
        self.wake();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let Some(thread) = self.thread.take() else {
            return; // shut down already
        };
        self.stop();
        drop(self.jobs.take());
        self.close();
        // The search sees its stop flag within milliseconds and sending never waits, so
        // this join is short; it frees the table before the reservation is returned.
        let _ = thread.join();
    }
}

/// The search thread's state.
struct SearchThread {
    signals: Arc<Signals>,
    done: watch::Sender<u64>,
    reservation: Arc<Reservation>,
    table: Option<(usize, TranspositionTable)>,
}

impl SearchThread {
    fn run(&mut self, jobs: &Receiver<SearchJob>) {
        while let Ok(job) = jobs.recv() {
            let tt = self.table_for(job.hash_mib, &job.stop, job.housekeeping_until());
            let kalah_database = kalah_database(&job);
            let (info, best) = run_with_progress(tt, &job, &kalah_database);
            // The threads go back before the result is out: a client that reads this
            // `bestmove` and starts another search finds them free.
            drop(job.threads);
            if job.go.infinite {
                self.hold_until_stopped(&job.stop);
            }
            let stopped = job.stop.load(Ordering::Relaxed);
            let mut finished = self
                .signals
                .finished
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            job.events.send(Event::Done {
                info,
                best,
                stopped,
            });
            *finished += 1;
            self.done.send_replace(*finished);
        }
    }

    /// The table of `mib` MiB, cleared if a `newgame` asked for it. A table of another
    /// size is freed before the new one is made, and only then is the reservation shrunk.
    /// Making or clearing a large table takes a good part of a second, so both stop at a
    /// `stop` or at `until` and go on before the next search: a table part made is a
    /// smaller table, and one part cleared keeps some old entries, which are still true.
    fn table_for(
        &mut self,
        mib: usize,
        stop: &AtomicBool,
        until: Option<Instant>,
    ) -> &mut TranspositionTable {
        let stopped = || stop.load(Ordering::Relaxed) || until.is_some_and(|t| Instant::now() >= t);
        if self.table.as_ref().is_some_and(|(size, _)| *size != mib) {
            self.table = None;
        }
        let reservation = &self.reservation;
        let (_, table) = self.table.get_or_insert_with(|| {
            reservation.shrink_to(mib);
            (mib, TranspositionTable::growing(mib))
        });
        // A new table is empty: a clear asked for before it needs nothing more.
        let clear = self.signals.clear.swap(false, Ordering::Relaxed);
        if clear && !table.clear_unless(&stopped) {
            self.signals.clear.store(true, Ordering::Relaxed);
        }
        table.grow_unless(&stopped);
        table
    }

    /// Waits for the stop flag (or the end of the engine); other wake-ups are ignored.
    fn hold_until_stopped(&self, stop: &AtomicBool) {
        while !stop.load(Ordering::Relaxed) && !self.signals.closing.load(Ordering::Relaxed) {
            std::thread::park();
        }
    }
}

/// The Kalah database of a Kalah search, if the option names one; when it cannot be had,
/// a note says why and the search goes on without.
fn kalah_database(job: &SearchJob) -> Option<Arc<KalahDatabase>> {
    let Some(AnyPosition::Kalah(position)) = job.positions.first() else {
        return None;
    };
    let say = |text: String| job.events.send(Event::Note(job.note(text)));
    job.kalah_databases
        .obtain(
            &job.kalah_db,
            position.rules(),
            &mut |seeds| {
                if seeds % 4 == 0 {
                    say(format!("KalahDatabase: boards of {seeds} seeds built"));
                }
            },
            Some(&job.stop),
        )
        .unwrap_or_else(|e| {
            say(format!(
                "KalahDatabase {}: {e}; searching without it",
                job.kalah_db
            ));
            None
        })
}

/// Runs the job's searches, with [`Event::Progress`] every `job.progress` while they run
/// (the nodes of all the job's searches so far); returns the final line and move.
fn run_with_progress(
    tt: &mut TranspositionTable,
    job: &SearchJob,
    kalah_database: &Option<Arc<KalahDatabase>>,
) -> (Info, BestMove) {
    let Some(every) = job.progress else {
        return run_job(tt, job, kalah_database, None);
    };
    let nodes = Progress::default();
    let (done, finished) = crossbeam_channel::bounded::<()>(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut shown = 0;
            while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(every) {
                // Never backwards, even read between two searches of a game.
                shown = nodes.total().max(shown);
                job.events.send(Event::Progress {
                    nodes: shown,
                    elapsed: started.elapsed(),
                });
            }
        });
        let result = run_job(tt, job, kalah_database, Some(&nodes));
        drop(done);
        result
    })
}

/// The nodes of a job so far: those of its finished searches, and the running one's.
#[derive(Debug, Default)]
struct Progress {
    finished: AtomicU64,
    running: Arc<AtomicU64>,
}

impl Progress {
    fn total(&self) -> u64 {
        self.finished.load(Ordering::Relaxed) + self.running.load(Ordering::Relaxed)
    }

    fn search_ended(&self, nodes: u64) {
        self.running.store(0, Ordering::Relaxed);
        self.finished.fetch_add(nodes, Ordering::Relaxed);
    }
}

/// The job's searches: its one position, or a game's positions from the last back.
fn run_job(
    tt: &mut TranspositionTable,
    job: &SearchJob,
    kalah_database: &Option<Arc<KalahDatabase>>,
    progress: Option<&Progress>,
) -> (Info, BestMove) {
    let mut last = (
        job.info(),
        BestMove {
            mv: None,
            id: job.go.id.clone(),
        },
    );
    for (index, position) in job.positions.iter().enumerate().rev() {
        if job.game {
            if job.stop.load(Ordering::Relaxed) {
                break;
            }
            if position.is_terminal() {
                let score = position.final_score();
                job.events.send(Event::Valued { index, score });
                continue;
            }
        }
        let limits = Limits {
            progress: progress.map(|p| Arc::clone(&p.running)),
            // The first search's time counts from the `go`, table work included.
            asked: (index + 1 == job.positions.len()).then_some(job.received),
            ..plan::limits(&job.go, position, &job.stop)
        };
        // Each game's own resources: Kalah's database.
        let (info, best, stopped) = match position {
            AnyPosition::Othello(p) => run_search(p, &job.evaluator, tt, job, &limits),
            AnyPosition::Kalah(p) => run_search(p, kalah_database, tt, job, &limits),
        };
        if let Some(progress) = progress {
            progress.search_ended(info.nodes.unwrap_or(0));
        }
        if job.game {
            if stopped {
                break;
            }
            let score = info.score.map_or(0, |s| s.value);
            job.events.send(Event::Valued { index, score });
        }
        last = (info, best);
    }
    last
}

/// Runs one search, sending an event per iteration (and per MTD(f) pass if asked);
/// returns the final line, the move, and whether it was stopped.
fn run_search<G: Searchable>(
    position: &G,
    resources: &G::Resources,
    tt: &mut TranspositionTable,
    job: &SearchJob,
    limits: &Limits,
) -> (Info, BestMove, bool) {
    // MTD(f) starts from an unbounded interval; say "unbounded" in the game's own terms.
    let max = position.max_score();
    let mut done = SearchStats::default();
    let mut passes = 0;
    let mut pass_nodes = 0;
    let mut report = |r: Report<'_, G::Move>| match r {
        Report::Pass { depth, pass, time } => {
            passes += 1;
            pass_nodes += pass.nodes;
            if job.pass_info {
                let info = Info {
                    depth: Some(depth),
                    pass: Some(PassInfo {
                        number: passes,
                        beta: pass.bound,
                        interval: (pass.lower.max(-max), pass.upper.min(max)),
                    }),
                    score: Some(protocol::Score {
                        value: pass.value,
                        bound: if pass.value >= pass.bound {
                            protocol::Bound::Lower
                        } else {
                            protocol::Bound::Upper
                        },
                        proof: protocol::Proof::Heuristic,
                    }),
                    nodes: Some(done.nodes + pass_nodes),
                    time: Some(millis(time)),
                    ..job.info()
                };
                job.events.send(Event::Pass(info));
            }
        }
        Report::Iteration(it) => {
            done.add(&it.stats);
            passes = 0;
            pass_nodes = 0;
            let info = iteration_info(job, it, &done);
            let lines = if limits.multipv > 1 {
                // One line per ranked move: the best, then the others in order.
                (1..)
                    .zip(it.ranked())
                    .map(|(rank, (_, score, pv))| Info {
                        multipv: Some(rank),
                        score: Some(score),
                        pv: pv.iter().map(ToString::to_string).collect(),
                        ..info.clone()
                    })
                    .collect()
            } else {
                vec![info]
            };
            job.events.send(Event::Iteration(lines));
        }
    };
    let params = SearchParams {
        threads: job.threads.threads(),
        ..job.params.clone()
    };
    let result = search::search_with(position, tt, &params, resources, limits, &mut report);
    let info = final_info(job, &result, tt.hashfull());
    let best = BestMove {
        mv: result.best_move.map(|m| m.to_string()),
        id: job.go.id.clone(),
    };
    (info, best, result.stopped)
}

impl SearchJob {
    /// Until when the table may be made or cleared before a search with a time limit: a
    /// tenth of its time (the rest is left for the next search).
    fn housekeeping_until(&self) -> Option<Instant> {
        let first = self.positions.last()?;
        let movetime = plan::limits(&self.go, first, &self.stop).movetime?;
        self.received.checked_add(movetime / 10)
    }

    /// An `info` with only this search's id.
    fn info(&self) -> Info {
        Info {
            id: self.go.id.clone(),
            ..Info::default()
        }
    }

    /// An `info string` of this search.
    fn note(&self, text: String) -> Info {
        Info {
            string: Some(text),
            ..self.info()
        }
    }
}

fn iteration_info<M: ToString>(job: &SearchJob, it: &Iteration<M>, total: &SearchStats) -> Info {
    Info {
        depth: Some(it.depth),
        score: Some(it.score),
        nodes: Some(total.nodes),
        nps: Some(total.nps(it.time)),
        time: Some(millis(it.time)),
        tthits: Some(total.tt_hits),
        pv: it.pv.iter().map(ToString::to_string).collect(),
        ..job.info()
    }
}

fn final_info<M: ToString>(job: &SearchJob, r: &SearchResult<M>, hashfull: u32) -> Info {
    Info {
        depth: Some(r.iterations.last().map_or(Depth::Plies(0), |it| it.depth)),
        score: Some(r.score),
        nodes: Some(r.stats.nodes),
        nps: Some(r.stats.nps(r.time)),
        time: Some(millis(r.time)),
        tthits: Some(r.stats.tt_hits),
        hashfull: Some(hashfull),
        pv: r.pv.iter().map(ToString::to_string).collect(),
        ..job.info()
    }
}

fn millis(time: Duration) -> u64 {
    u64::try_from(time.as_millis()).unwrap_or(u64::MAX)
}

/// A fresh stop flag for a search.
pub(crate) fn stop_flag() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::pool::{TablePool, ThreadBudget};
    use crate::game::{GameId, Start};

    /// Events nobody reads.
    struct Nowhere;

    impl EventSink for Nowhere {
        fn send(&self, _: Event) {}
    }

    /// What a panic in a front does to its worker: the handle is dropped mid-search.
    #[test]
    fn dropping_the_handle_stops_the_search_and_returns_the_table() {
        let pool = TablePool::new(64);
        let threads = ThreadBudget::new(3);
        let reservation = pool.reservation();
        reservation.grow_to(8).unwrap();
        let mut worker = Worker::spawn(Arc::clone(&reservation)).unwrap();
        drop(reservation);
        let position: AnyPosition = "othello8x8"
            .parse::<GameId>()
            .unwrap()
            .start(Start::Standard)
            .unwrap();
        let stop = stop_flag();
        worker.search(SearchJob {
            positions: vec![position],
            game: false,
            progress: None,
            events: Arc::new(Nowhere),
            params: SearchParams::default(),
            go: Go {
                infinite: true,
                ..Go::default()
            },
            stop: Arc::clone(&stop),
            received: Instant::now(),
            hash_mib: 8,
            pass_info: false,
            threads: threads.lease(2),
            evaluator: Evaluator::default(),
            kalah_db: DatabaseSource::None,
            kalah_databases: Arc::default(),
        });
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(pool.used_mib(), 8);
        assert_eq!(
            threads.lease(2).threads(),
            1,
            "the search holds two of three"
        );
        drop(worker);
        assert!(stop.load(Ordering::Relaxed), "the search was told to stop");
        assert_eq!(
            pool.used_mib(),
            0,
            "the table's memory went back to the pool"
        );
        assert_eq!(threads.lease(3).threads(), 3, "and the threads");
    }
}
