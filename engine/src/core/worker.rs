//! The search thread of an engine: it owns the transposition table, runs one request at a
//! time and reports it as [`EngineEvent`]s. A request comes by crossbeam channel (at most one is
//! ever queued: the engine refuses `go` while one runs); clearing the table is a flag, so
//! that any number of `newgame`s costs one clear, made a MiB at a time so that it never
//! delays a `stop`.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender};
use tokio::sync::watch;

use super::events::EngineEvent;
use super::job::{self, SearchJob};
use super::pool::Reservation;
use crate::search::TranspositionTable;

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
    jobs: Option<Sender<Task>>,
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
            let _ = jobs.send(Task::Search(Box::new(job)));
        }
    }

    /// Makes (or clears, after a `newgame`) the table of `mib` MiB now, while no search
    /// runs, so that the next search finds it ready; resolves once it is made. Skipped
    /// when a request is queued.
    pub(crate) fn prepare_table(&mut self, mib: usize) -> impl Future<Output = ()> + use<> {
        let (made, ready) = tokio::sync::oneshot::channel();
        if let Some(jobs) = &self.jobs {
            // Full only while a request waits: then that request makes the table.
            let _ = jobs.try_send(Task::PrepareTable { mib, made });
        }
        async move {
            // An error: skipped, or the thread is gone; either way nothing to wait for.
            let _ = ready.await;
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
    pub(crate) fn finished_count(&self) -> watch::Receiver<u64> {
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

/// What the search thread is asked to do.
pub(crate) enum Task {
    /// Run a request.
    Search(Box<SearchJob>),
    /// Make the table of `mib` MiB (or clear it) before any request comes, and say so.
    PrepareTable {
        mib: usize,
        made: tokio::sync::oneshot::Sender<()>,
    },
}

/// The search thread's state.
struct SearchThread {
    signals: Arc<Signals>,
    done: watch::Sender<u64>,
    reservation: Arc<Reservation>,
    table: Option<(usize, TranspositionTable)>,
}

impl SearchThread {
    fn run(&mut self, tasks: &Receiver<Task>) {
        while let Ok(task) = tasks.recv() {
            let job = match task {
                Task::Search(job) => *job,
                Task::PrepareTable { mib, made } => {
                    self.table_for(mib, &AtomicBool::new(false), None);
                    let _ = made.send(());
                    continue;
                }
            };
            let tt = self.table_for(job.hash_mib, &job.stop, job.housekeeping_until());
            let (info, best) = job::run(&job, tt);
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
            job.events.send(EngineEvent::Done {
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

/// A fresh stop flag for a search.
pub(crate) fn stop_flag() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use protocol::Go;

    use super::*;
    use crate::core::events::EventSink;
    use crate::core::job::KalahSetup;
    use crate::core::pool::{TablePool, ThreadBudget};
    use crate::game::{AnyPosition, GameId, Start};
    use crate::search::kalah::DatabaseSource;
    use crate::search::othello::eval::Evaluator;
    use crate::search::{Limits, SearchParams};

    /// Events nobody reads.
    struct Nowhere;

    impl EventSink for Nowhere {
        fn send(&self, _: EngineEvent) {}
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
            values_game: false,
            progress_every: None,
            events: Arc::new(Nowhere),
            params: SearchParams {
                threads: 2,
                ..SearchParams::default()
            },
            go: Go {
                infinite: true,
                ..Go::default()
            },
            limits: Limits {
                infinite: true,
                stop: Some(Arc::clone(&stop)),
                ..Limits::default()
            },
            stop: Arc::clone(&stop),
            hash_mib: 8,
            pass_info: false,
            threads: threads.lease(2),
            evaluator: Evaluator::default(),
            kalah: KalahSetup {
                source: DatabaseSource::None,
                databases: Arc::default(),
                dir: None,
                hinted: Arc::default(),
            },
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
