//! The search thread of a session: it owns the transposition table, runs one search at a
//! time and writes its `info` and `bestmove` lines. Jobs come by crossbeam channel.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender};
use protocol::{BestMove, Depth, Info, Message, PassInfo};
use tokio::sync::{mpsc, watch};

use crate::game::AnyPosition;
use crate::search::{
    self, Bound, DEPTH_TO_END, Iteration, Limits, Proof, Report, SearchParams, SearchResult,
    SearchStats, Searchable, TranspositionTable,
};
use crate::with_position;

/// Where a session's output lines go (to the socket or stdout writer).
pub(crate) type Output = mpsc::Sender<String>;

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
}

#[derive(Debug)]
enum Job {
    Search(Box<SearchJob>),
    ClearTable,
    /// Re-check the stop flag (sent with every stop, so a held search wakes).
    Wake,
}

/// The session's handle on its search thread.
#[derive(Debug)]
pub(crate) struct Worker {
    jobs: Sender<Job>,
    finished: watch::Receiver<u64>,
    thread: JoinHandle<()>,
}

impl Worker {
    pub(crate) fn spawn(out: Output) -> std::io::Result<Worker> {
        let (jobs, rx) = crossbeam_channel::unbounded();
        let (done, finished) = watch::channel(0);
        let thread = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || run(&rx, &out, &done))?;
        Ok(Worker {
            jobs,
            finished,
            thread,
        })
    }

    /// Searches finished so far (each has sent its `bestmove`, or is about to).
    pub(crate) fn finished(&self) -> u64 {
        *self.finished.borrow()
    }

    pub(crate) fn search(&self, job: SearchJob) {
        // A send fails only if the thread died; the session notices in `wait_for`.
        let _ = self.jobs.send(Job::Search(Box::new(job)));
    }

    pub(crate) fn clear_table(&self) {
        let _ = self.jobs.send(Job::ClearTable);
    }

    /// Makes the thread look at the stop flag of a held search.
    pub(crate) fn wake(&self) {
        let _ = self.jobs.send(Job::Wake);
    }

    /// Waits until `count` searches have finished. False if the thread is gone.
    pub(crate) async fn wait_for(&mut self, count: u64) -> bool {
        self.finished.wait_for(|&n| n >= count).await.is_ok()
    }

    /// Ends the thread after its current job and waits for it, so that its table is freed.
    pub(crate) async fn shut_down(self) {
        drop(self.jobs);
        let thread = self.thread;
        // A search thread that panicked has nothing left to free.
        let _ = tokio::task::spawn_blocking(move || thread.join()).await;
    }
}

fn run(jobs: &Receiver<Job>, out: &Output, done: &watch::Sender<u64>) {
    let mut table: Option<(usize, TranspositionTable)> = None;
    let mut finished = 0;
    while let Ok(job) = jobs.recv() {
        let job = match job {
            Job::Search(job) => job,
            Job::ClearTable => {
                if let Some((_, t)) = &mut table {
                    t.clear();
                }
                continue;
            }
            Job::Wake => continue,
        };
        if table.as_ref().is_none_or(|(mib, _)| *mib != job.hash_mib) {
            drop(table.take()); // free the old table before allocating the new one
            table = Some((job.hash_mib, TranspositionTable::new(job.hash_mib)));
        }
        let Some((_, tt)) = table.as_mut() else {
            continue;
        };
        let (info, best) = with_position!(job.position, p => run_search(&p, tt, &job, out));
        send(out, Message::Info(info));
        if job.hold {
            hold_until_stopped(jobs, job.limits.stop.as_deref());
        }
        finished += 1;
        done.send_replace(finished);
        send(out, Message::BestMove(best));
    }
}

/// Waits for the stop flag; other wake-ups (left over from earlier stops) are ignored.
fn hold_until_stopped(jobs: &Receiver<Job>, stop: Option<&AtomicBool>) {
    while !stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        if jobs.recv().is_err() {
            return; // the session is gone
        }
    }
}

fn send(out: &Output, message: Message) {
    // Fails only when the client is gone; the session then stops this search.
    let _ = out.blocking_send(message.to_string());
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
                send(out, Message::Info(info));
            }
        }
        Report::Iteration(it) => {
            done.add(&it.stats);
            passes = 0;
            pass_nodes = 0;
            send(out, Message::Info(iteration_info(job, it, &done)));
        }
    };
    let result = search::search(position, tt, &job.params, &job.limits, &mut report);
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
