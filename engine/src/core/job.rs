//! One request on the search thread: its searches (one position, or a game's positions
//! from the last back), with progress reports, each turned into the engine's
//! [`EngineEvent`]s.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::RecvTimeoutError;
use protocol::{BestMove, Depth, Go, Goal, Info, PassInfo};

use super::events::{EngineEvent, EventSink};
use super::pool::ThreadLease;
use crate::game::AnyPosition;
use crate::search::kalah::{AutoContext, DatabaseCache, DatabaseSource, KalahDatabase};
use crate::search::othello::eval::Evaluator;
use crate::search::othello::has_probcut_model;
use crate::search::{
    self, Iteration, Limits, Report, SearchParams, SearchResult, SearchStats, Searchable,
    Selectivity, TranspositionTable,
};

/// One request to run.
pub(crate) struct SearchJob {
    /// The position to search; or with `values_game`, every position of a game, valued
    /// from the last back to the first (later positions fill the table first).
    pub(crate) positions: Vec<AnyPosition>,
    /// Value every position of a game (an [`EngineEvent::Valued`] each).
    pub(crate) values_game: bool,
    /// Send [`EngineEvent::Progress`] this often.
    pub(crate) progress_every: Option<Duration>,
    pub(crate) events: Arc<dyn EventSink>,
    /// How to search, with the threads leased.
    pub(crate) params: SearchParams,
    /// The request as the protocol types it: its id, and `infinite` (which holds the end
    /// until stopped).
    pub(crate) go: Go,
    /// The request's limits, worked out once when it came (a time limit counts from then).
    pub(crate) limits: Limits,
    /// Set by the engine to stop it.
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) hash_mib: usize,
    pub(crate) pass_info: bool,
    /// The search threads it holds of the server's budget, until it ends
    /// (`params.threads` of them).
    pub(crate) threads: ThreadLease,
    /// Othello's evaluation (options `Eval` and `EvalFile`).
    pub(crate) evaluator: Evaluator,
    /// Where a Kalah search gets its database.
    pub(crate) kalah: KalahSetup,
}

/// Where a Kalah search gets its database: the option, the process's databases, the data
/// directory `auto` looks in, and whether the engine has said how to install one.
#[derive(Clone, Debug)]
pub(crate) struct KalahSetup {
    /// Option `KalahDatabase`.
    pub(crate) source: DatabaseSource,
    /// Where databases are kept between searches.
    pub(crate) databases: Arc<DatabaseCache>,
    /// Where `KalahDatabase auto` finds installed databases.
    pub(crate) dir: Option<PathBuf>,
    /// Set once the engine has said how to install a database (it says so once).
    pub(crate) hinted: Arc<AtomicBool>,
}

/// Runs the job on `tt`: its Kalah database obtained first if it needs one, then its
/// searches; returns the final line and move.
pub(crate) fn run(job: &SearchJob, tt: &mut TranspositionTable) -> (Info, BestMove) {
    let kalah_database = kalah_database(job);
    run_with_progress(tt, job, &kalah_database)
}

/// The Kalah database of a Kalah search, if the option names one (or `auto` finds or
/// builds one); when it cannot be had, a note says why and the search goes on without.
/// A solve says which database it uses, and once per engine how to install one when
/// `auto` found none.
fn kalah_database(job: &SearchJob) -> Option<Arc<KalahDatabase>> {
    let Some(AnyPosition::Kalah(position)) = job.positions.first() else {
        return None;
    };
    let say = |text: String| job.events.send(EngineEvent::Note(job.note(text)));
    let kalah = &job.kalah;
    let rules = position.rules();
    let context = AutoContext {
        dir: kalah.dir.as_deref(),
        solve: job.limits.goal(None, &job.params.thresholds) != Goal::Heuristic,
    };
    if kalah.source == DatabaseSource::Auto
        && !kalah.hinted.load(Ordering::Relaxed)
        && let Some(hint) = context.install_hint(rules)
    {
        kalah.hinted.store(true, Ordering::Relaxed);
        say(hint);
    }
    let database = kalah
        .databases
        .obtain(
            &kalah.source,
            rules,
            context,
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
                kalah.source
            ));
            None
        });
    if context.solve
        && let Some(db) = &database
    {
        say(format!("KalahDatabase {}: {}", kalah.source, db.describe()));
    }
    database
}

/// Runs the job's searches, with [`EngineEvent::Progress`] every `job.progress_every` while
/// they run (the nodes of all the job's searches so far); returns the final line and move.
fn run_with_progress(
    tt: &mut TranspositionTable,
    job: &SearchJob,
    kalah_database: &Option<Arc<KalahDatabase>>,
) -> (Info, BestMove) {
    let Some(every) = job.progress_every else {
        return run_job(tt, job, kalah_database, None);
    };
    let nodes = JobNodes::default();
    let (done, finished) = crossbeam_channel::bounded::<()>(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut shown = 0;
            while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(every) {
                // Never backwards, even read between two searches of a game.
                shown = nodes.total().max(shown);
                job.events.send(EngineEvent::Progress {
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
struct JobNodes {
    finished: AtomicU64,
    running: Arc<AtomicU64>,
}

impl JobNodes {
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
    nodes: Option<&JobNodes>,
) -> (Info, BestMove) {
    let mut last = (
        job.info(),
        BestMove {
            mv: None,
            id: job.go.id.clone(),
        },
    );
    for (index, position) in job.positions.iter().enumerate().rev() {
        if job.values_game {
            if job.stop.load(Ordering::Relaxed) {
                break;
            }
            if position.is_terminal() {
                let score = position.final_score();
                job.events.send(EngineEvent::Valued { index, score });
                continue;
            }
        }
        let limits = Limits {
            node_counter: nodes.map(|n| Arc::clone(&n.running)),
            // The first search's time counts from the `go`, table work included.
            asked: job
                .limits
                .asked
                .filter(|_| index + 1 == job.positions.len()),
            ..job.limits.clone()
        };
        // Each game's own resources: Kalah's database.
        let (info, best, stopped) = match position {
            AnyPosition::Othello(p) => run_search(p, &job.evaluator, tt, job, &limits),
            AnyPosition::Kalah(p) => run_search(p, kalah_database, tt, job, &limits),
        };
        if let Some(nodes) = nodes {
            nodes.search_ended(info.nodes.unwrap_or(0));
        }
        if job.values_game {
            if stopped {
                break;
            }
            let score = info.score.map_or(0, |s| s.value);
            job.events.send(EngineEvent::Valued { index, score });
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
                job.events.send(EngineEvent::Pass(info));
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
                        selectivity: job.selectivity_of(it.selectivity, score),
                        score: Some(score),
                        pv: pv.iter().map(ToString::to_string).collect(),
                        ..info.clone()
                    })
                    .collect()
            } else {
                vec![info]
            };
            job.events.send(EngineEvent::Iteration(lines));
        }
    };
    let result = search::search_with(position, tt, &job.params, resources, limits, &mut report);
    let info = final_info(job, &result, tt.hashfull());
    let best = BestMove {
        mv: result.best_move.map(|m| m.to_string()),
        id: job.go.id.clone(),
    };
    (info, best, result.stopped)
}

impl SearchJob {
    /// The confidence to report with `score`, found by a search at `selectivity`: that
    /// level, when it was selective (Othello with a model for its evaluation, below 100%)
    /// and the score is heuristic.
    fn selectivity_of(&self, selectivity: Selectivity, score: protocol::Score) -> Option<u32> {
        let Some(AnyPosition::Othello(position)) = self.positions.first() else {
            return None;
        };
        let selective = selectivity != Selectivity::FULL
            && has_probcut_model(position.geometry(), &self.evaluator);
        (selective && score.proof == protocol::Proof::Heuristic).then(|| selectivity.percent())
    }

    /// Until when the table may be made or cleared before a search with a time limit: a
    /// tenth of the time the move should take (the rest is left for the next search).
    pub(crate) fn housekeeping_until(&self) -> Option<Instant> {
        let time = self.limits.move_time()?;
        self.limits.asked?.checked_add(time / 10)
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
        selectivity: job.selectivity_of(it.selectivity, it.score),
        score: Some(it.score),
        nodes: Some(total.nodes),
        nps: Some(total.nps(it.time)),
        time: Some(millis(it.time)),
        tthits: Some(total.tt_hits),
        tbhits: (total.database_hits > 0).then_some(total.database_hits),
        pv: it.pv.iter().map(ToString::to_string).collect(),
        ..job.info()
    }
}

fn final_info<M: ToString>(job: &SearchJob, r: &SearchResult<M>, hashfull: u32) -> Info {
    Info {
        depth: Some(r.iterations.last().map_or(Depth::Plies(0), |it| it.depth)),
        selectivity: job.selectivity_of(r.selectivity, r.score),
        score: Some(r.score),
        nodes: Some(r.stats.nodes),
        nps: Some(r.stats.nps(r.time)),
        time: Some(millis(r.time)),
        tthits: Some(r.stats.tt_hits),
        tbhits: (r.stats.database_hits > 0).then_some(r.stats.database_hits),
        hashfull: Some(hashfull),
        pv: r.pv.iter().map(ToString::to_string).collect(),
        ..job.info()
    }
}

fn millis(time: Duration) -> u64 {
    u64::try_from(time.as_millis()).unwrap_or(u64::MAX)
}
