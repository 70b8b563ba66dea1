//! The search thread of a session: it owns the transposition table, runs one search at a
//! time and writes its `info` and `bestmove` lines. A search comes by crossbeam channel
//! (at most one is ever queued: the session refuses `go` while one runs); clearing the
//! table is a flag, so that any number of `newgame`s costs one clear and never delays a
//! `stop`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender};
use protocol::{BestMove, Depth, Info, Message, PassInfo};
use tokio::sync::watch;

use super::output::Output;
use super::pool::{Reservation, ThreadLease};
use crate::game::AnyPosition;
use crate::search::kalah::{DatabaseSource, KalahDatabase};
use crate::search::{
    self, Bound, DEPTH_TO_END, Iteration, Limits, Proof, Report, SearchParams, SearchResult,
    SearchStats, Searchable, TranspositionTable,
};
use crate::with_position;

/// One search to run.
#[derive(Debug)]
pub(crate) struct SearchJob {
    pub(crate) position: AnyPosition,
    pub(crate) params: SearchParams,
    /// Its stop flag is the one the session sets.
    pub(crate) limits: Limits,
    pub(crate) id: Option<String>,
    pub(crate) hash_mib: usize,
    pub(crate) pass_info: bool,
    /// `go infinite`: hold `bestmove` until stopped.
    pub(crate) hold: bool,
    /// The search threads it holds of the server's budget, until it ends (they override
    /// `params.threads`).
    pub(crate) threads: ThreadLease,
    /// Where a Kalah search gets its database (obtained by the search thread: building one
    /// takes time).
    pub(crate) kalah_db: DatabaseSource,
}

/// What the session and the search thread share besides the job channel.
#[derive(Debug)]
struct Shared {
    /// Clear the table before the next search (`newgame`).
    clear: AtomicBool,
    /// The session is gone: end a held search.
    closing: AtomicBool,
    /// Searches finished (their `bestmove` queued). Locked while the `bestmove` is queued
    /// and the count raised, so that whoever reads the count sees it raised once the
    /// `bestmove` can have reached the client, and nothing can be queued between them.
    finished: Mutex<u64>,
}

/// The session's handle on its search thread. Dropping it (whatever ends the session,
/// a panic included) stops the search and joins the thread, which frees the table and
/// returns its reservation.
#[derive(Debug)]
pub(crate) struct Worker {
    jobs: Option<Sender<SearchJob>>,
    shared: Arc<Shared>,
    finished: watch::Receiver<u64>,
    /// The stop flag of the latest search.
    stop: Option<Arc<AtomicBool>>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the thread; its tables are counted in `reservation`.
    pub(crate) fn spawn(out: Output, reservation: Arc<Reservation>) -> std::io::Result<Worker> {
        let (jobs, rx) = crossbeam_channel::bounded(1);
        let (done, finished) = watch::channel(0);
        let shared = Arc::new(Shared {
            clear: AtomicBool::new(false),
            closing: AtomicBool::new(false),
            finished: Mutex::new(0),
        });
        let thread_shared = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let mut worker = SearchThread {
                    shared: thread_shared,
                    out,
                    done,
                    reservation,
                    table: None,
                };
                worker.run(&rx);
            })?;
        Ok(Worker {
            jobs: Some(jobs),
            shared,
            finished,
            stop: None,
            thread: Some(thread),
        })
    }

    /// Searches finished so far (each has queued its `bestmove`).
    pub(crate) fn finished(&self) -> u64 {
        *self
            .shared
            .finished
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn search(&mut self, job: SearchJob) {
        self.stop.clone_from(&job.limits.stop);
        if let Some(jobs) = &self.jobs {
            // Fails only if the thread died; the session notices in `wait_for`.
            let _ = jobs.send(job);
        }
    }

    /// Clears the table before the next search.
    pub(crate) fn clear_table(&self) {
        self.shared.clear.store(true, Ordering::Relaxed);
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
        self.shared.closing.store(true, Ordering::Relaxed);
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
    shared: Arc<Shared>,
    out: Output,
    done: watch::Sender<u64>,
    reservation: Arc<Reservation>,
    table: Option<(usize, TranspositionTable)>,
}

impl SearchThread {
    fn run(&mut self, jobs: &Receiver<SearchJob>) {
        while let Ok(job) = jobs.recv() {
            let out = self.out.clone();
            let tt = self.table_for(job.hash_mib, job.limits.stop.as_deref());
            let mut job = job;
            job.params.kalah_db = kalah_database(&job, &out);
            let (info, best) = with_position!(job.position, p => run_search(&p, tt, &job, &out));
            // The threads go back before the result is out: a client that reads this
            // `bestmove` and starts another search finds them free.
            drop(job.threads);
            self.out.send(Message::Info(info).to_string());
            if job.hold {
                self.hold_until_stopped(job.limits.stop.as_deref());
            }
            let mut finished = self
                .shared
                .finished
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            self.out.send(Message::BestMove(best).to_string());
            *finished += 1;
            self.done.send_replace(*finished);
        }
    }

    /// The table of `mib` MiB, cleared if a `newgame` asked for it. A table of another
    /// size is freed before the new one is made, and only then is the reservation shrunk.
    /// Making or clearing a large table takes a good part of a second: a `stop` meanwhile
    /// leaves the clear for the next search (any table does for a stopped search).
    fn table_for(&mut self, mib: usize, stop: Option<&AtomicBool>) -> &mut TranspositionTable {
        let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
        if self.table.as_ref().is_some_and(|(size, _)| *size != mib) {
            self.table = None;
        }
        let clear = self.shared.clear.swap(false, Ordering::Relaxed);
        if let Some((_, table)) = &mut self.table
            && clear
            && !table.clear_unless(&stopped)
        {
            self.shared.clear.store(true, Ordering::Relaxed);
        }
        let reservation = &self.reservation;
        let (_, table) = self.table.get_or_insert_with(|| {
            match TranspositionTable::new_unless(mib, &stopped) {
                Some(table) => {
                    reservation.shrink_to(mib);
                    (mib, table)
                }
                // Stopped: made again for the next search. The reservation still covers it.
                None => (0, TranspositionTable::new(0)),
            }
        });
        table
    }

    /// Waits for the stop flag (or the end of the session); other wake-ups are ignored.
    fn hold_until_stopped(&self, stop: Option<&AtomicBool>) {
        while !stop.is_some_and(|s| s.load(Ordering::Relaxed))
            && !self.shared.closing.load(Ordering::Relaxed)
        {
            std::thread::park();
        }
    }
}

/// The Kalah database of a Kalah search, if the option names one; when it cannot be had,
/// an `info string` says why and the search goes on without.
fn kalah_database(job: &SearchJob, out: &Output) -> Option<Arc<KalahDatabase>> {
    let AnyPosition::Kalah(position) = &job.position else {
        return None;
    };
    let say = |text: String| {
        let info = Info {
            string: Some(text),
            ..job.info()
        };
        out.send(Message::Info(info).to_string());
    };
    job.kalah_db
        .obtain(
            position.rules(),
            &mut |seeds| {
                if seeds % 4 == 0 {
                    say(format!("KalahDatabase: boards of {seeds} seeds built"));
                }
            },
            job.limits.stop.as_deref(),
        )
        .unwrap_or_else(|e| {
            say(format!(
                "KalahDatabase {}: {e}; searching without it",
                job.kalah_db
            ));
            None
        })
}

/// Runs the search, sending a line per iteration (and per MTD(f) pass if asked); returns
/// the final `info` and the `bestmove`.
fn run_search<G: Searchable>(
    position: &G,
    tt: &mut TranspositionTable,
    job: &SearchJob,
    out: &Output,
) -> (Info, BestMove) {
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
                    depth: Some(depth_of(depth)),
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
                out.send(Message::Info(info).to_string());
            }
        }
        Report::Iteration(it) => {
            done.add(&it.stats);
            passes = 0;
            pass_nodes = 0;
            let info = iteration_info(job, it, &done);
            if job.limits.multipv > 1 {
                // One line per ranked move: the best, then the others in order.
                for (rank, (_, score, pv)) in (1..).zip(it.ranked()) {
                    let line = Info {
                        multipv: Some(rank),
                        score: Some(score_of(score)),
                        pv: pv.iter().map(ToString::to_string).collect(),
                        ..info.clone()
                    };
                    out.send(Message::Info(line).to_string());
                }
            } else {
                out.send(Message::Info(info).to_string());
            }
        }
    };
    let params = SearchParams {
        threads: job.threads.threads(),
        ..job.params.clone()
    };
    let result = search::search(position, tt, &params, &job.limits, &mut report);
    let info = final_info(job, &result, tt.hashfull());
    let best = BestMove {
        mv: result.best_move.map(|m| m.to_string()),
        id: job.id.clone(),
    };
    (info, best)
}

impl SearchJob {
    /// An `info` with only this search's id.
    fn info(&self) -> Info {
        Info {
            id: self.id.clone(),
            ..Info::default()
        }
    }
}

fn iteration_info<M: ToString>(job: &SearchJob, it: &Iteration<M>, total: &SearchStats) -> Info {
    Info {
        depth: Some(depth_of(it.depth)),
        score: Some(score_of(it.score)),
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
        depth: Some(
            r.iterations
                .last()
                .map_or(Depth::Plies(0), |it| depth_of(it.depth)),
        ),
        score: Some(score_of(r.score)),
        nodes: Some(r.stats.nodes),
        nps: Some(r.stats.nps(r.time)),
        time: Some(millis(r.time)),
        tthits: Some(r.stats.tt_hits),
        hashfull: Some(hashfull),
        pv: r.pv.iter().map(ToString::to_string).collect(),
        ..job.info()
    }
}

fn depth_of(depth: i32) -> Depth {
    if depth >= DEPTH_TO_END {
        Depth::End
    } else {
        Depth::Plies(depth.max(0).unsigned_abs())
    }
}

fn score_of(score: search::Score) -> protocol::Score {
    protocol::Score {
        value: score.value,
        bound: match score.bound {
            Bound::Exact => protocol::Bound::Exact,
            Bound::Lower => protocol::Bound::Lower,
            Bound::Upper => protocol::Bound::Upper,
        },
        proof: match score.proof {
            Proof::Heuristic => protocol::Proof::Heuristic,
            Proof::Exact => protocol::Proof::Solved,
            Proof::WinLossDraw => protocol::Proof::Wld,
        },
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
    use crate::game::{GameId, Start};
    use crate::server::output;
    use crate::server::pool::{TablePool, ThreadBudget};

    /// What a panic in a session does to its worker: the handle is dropped mid-search.
    #[test]
    fn dropping_the_handle_stops_the_search_and_returns_the_table() {
        let pool = TablePool::new(64);
        let threads = ThreadBudget::new(3);
        let reservation = pool.reservation();
        reservation.grow_to(8).unwrap();
        let (out, _queue) = output::channel(1 << 20);
        let mut worker = Worker::spawn(out, Arc::clone(&reservation)).unwrap();
        drop(reservation);
        let position: AnyPosition = "othello8x8"
            .parse::<GameId>()
            .unwrap()
            .start(Start::Standard)
            .unwrap();
        let stop = stop_flag();
        worker.search(SearchJob {
            position,
            params: SearchParams::default(),
            limits: Limits {
                infinite: true,
                stop: Some(Arc::clone(&stop)),
                ..Limits::default()
            },
            id: None,
            hash_mib: 8,
            pass_info: false,
            hold: true,
            threads: threads.lease(2),
            kalah_db: DatabaseSource::None,
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
