//! NBoard protocol (version 2) mode: how the NBoard GUI and other Othello frontends drive
//! an engine (as we implement it: `PROTOCOL.md`, section NBoard mode).
//!
//! The main thread reads commands; searches run on a thread of their own with the same
//! iterative-deepening MTD(f) as the native protocol, so `ping` can stop one before `pong`
//! is sent. `set depth n` searches exactly as the native `go depth n` does, so a game
//! played through either protocol at the same settings is the same game. Unknown lines are
//! ignored, as the specification asks; a known command that cannot be used is answered
//! with a `status` line saying why.

mod clock;
mod format;

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::RecvTimeoutError;

use crate::ENGINE_NAME;
use crate::game::othello::{Othello, OthelloMove};
use crate::game::{Game, Side};
use crate::ggf::GgfGame;
use crate::lines::{Line, read_line};
use crate::search::{Limits, Report, SearchParams, TranspositionTable, search};

/// How often a running search reports `nodestats`.
const NODESTATS_INTERVAL: Duration = Duration::from_secs(1);

/// The protocol version spoken.
pub const NBOARD_VERSION: u32 = 2;

/// Output shared by the command loop and the search thread; every line is flushed.
#[derive(Clone)]
struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    fn say(&self, line: &str) {
        let mut out = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        // A frontend that closed its input is gone; the command loop ends at its EOF.
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    }
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    /// `go`: choose a move, answer `===`.
    Move,
    /// `hint n`: analyse, `search` lines only.
    Hint,
    /// `analyze`: every position of the game, `analysis` lines.
    Analyze,
}

struct Running {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

/// One NBoard session.
struct Session {
    out: Output,
    game: Option<GgfGame>,
    depth: Option<u32>,
    /// Moves valued by the last `hint` (NBoard asks 64 to value every move).
    hint_moves: usize,
    table: Arc<Mutex<TranspositionTable>>,
    /// How to search (the evaluation the command line chose).
    params: SearchParams,
    running: Option<Running>,
}

/// Serves NBoard commands from `input` until its end; `first` is a line already read.
/// Lines longer than `max_line_bytes` and lines that are not UTF-8 are answered with a
/// `status` line that says so, and the session goes on.
pub fn serve(
    first: Option<String>,
    mut input: impl BufRead,
    output: Box<dyn Write + Send>,
    hash_mib: usize,
    max_line_bytes: usize,
    params: SearchParams,
) {
    let mut session = Session {
        out: Output(Arc::new(Mutex::new(output))),
        game: None,
        depth: None,
        hint_moves: 1,
        table: Arc::new(Mutex::new(TranspositionTable::new(hash_mib))),
        params,
        running: None,
    };
    if let Some(first) = first {
        session.handle(first.trim());
    }
    loop {
        match read_line(&mut input, max_line_bytes) {
            Ok(Some(Line::Text(line))) => session.handle(line.trim()),
            Ok(Some(Line::TooLong)) => session.status(&format!(
                "error: line too long (the limit is {max_line_bytes} bytes); ignored"
            )),
            Ok(Some(Line::NotUtf8)) => session.status("error: line is not valid UTF-8; ignored"),
            Ok(None) => break,
            Err(e) => {
                tracing::debug!(error = %e, "read failed");
                break;
            }
        }
    }
    session.stop();
}

impl Session {
    fn status(&self, text: &str) {
        self.out.say(&format!("status {text}"));
    }

    /// Stops a running search and waits for its thread.
    fn stop(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::Relaxed);
            // A panicked search thread has nothing left to report.
            let _ = running.thread.join();
        }
    }

    fn handle(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else { return };
        let rest: Vec<&str> = words.collect();
        match command {
            "nboard" => {
                if rest.first().and_then(|v| v.parse::<u32>().ok()) != Some(NBOARD_VERSION) {
                    self.status(&format!(
                        "this engine speaks NBoard protocol {NBOARD_VERSION}, not '{}'",
                        rest.join(" ")
                    ));
                }
                self.out.say(&format!("set myname {ENGINE_NAME}"));
                // Ready: without a status line the GUI shows "Loading" until a search.
                self.out.say("status");
            }
            "set" => self.set(&rest, line),
            "move" => self.play(rest.first().copied()),
            "hint" => match rest.first().and_then(|n| n.parse::<usize>().ok()) {
                Some(n) if n >= 1 => {
                    self.hint_moves = n;
                    self.start(Task::Hint);
                }
                _ => self.status("hint needs a number of moves: hint <n>"),
            },
            "go" => self.start(Task::Move),
            "analyze" => self.start(Task::Analyze),
            "ping" => {
                self.stop();
                let pong = std::iter::once("pong").chain(rest.iter().copied());
                self.out.say(&pong.collect::<Vec<_>>().join(" "));
            }
            "learn" => self.out.say("learned"),
            _ => {} // unknown lines are ignored, as the protocol asks
        }
    }

    fn set(&mut self, rest: &[&str], line: &str) {
        match rest.first().copied() {
            Some("depth") => match rest.get(1).and_then(|d| d.parse::<u32>().ok()) {
                Some(d) if (1..=60).contains(&d) => self.depth = Some(d),
                _ => self.status("set depth needs a depth from 1 to 60"),
            },
            // Contempt is optional in the protocol: accepted and checked, but draws are
            // scored as draws.
            Some("contempt") if rest.get(1).and_then(|c| c.parse::<i32>().ok()).is_none() => {
                self.status("set contempt needs a whole number of centi-discs");
            }
            Some("game") => {
                let ggf = line.split_once("game").map_or("", |(_, g)| g.trim());
                match ggf.parse::<GgfGame>() {
                    Ok(game) => {
                        self.stop();
                        if !self.game.as_ref().is_some_and(|old| extends(&game, old)) {
                            self.table
                                .lock()
                                .unwrap_or_else(PoisonError::into_inner)
                                .clear();
                        }
                        self.game = Some(game);
                    }
                    Err(e) => self.status(&format!("cannot read the game: {e}")),
                }
            }
            _ => {} // other settings are not ours to know
        }
    }

    fn play(&mut self, text: Option<&str>) {
        self.stop();
        let Some(game) = self.game.as_mut() else {
            self.status("move before set game: send set game first");
            return;
        };
        let Some(text) = text else {
            self.status("move needs a move: move <mv>[/<eval>/<time>]");
            return;
        };
        let mut parts = text.split('/');
        let square = parts.next().unwrap_or_default();
        // The time the mover used counts against its clock (`TI`).
        let time = parts.nth(1).and_then(|t| t.trim().parse::<f64>().ok());
        match game.push_text(square) {
            Ok(()) => {
                if let Some(last) = game.moves.last_mut() {
                    last.time = time.filter(|t| t.is_finite() && *t >= 0.0);
                }
            }
            Err(e) => self.status(&format!("cannot play '{text}': {e}")),
        }
    }

    fn start(&mut self, task: Task) {
        self.stop();
        let Some(game) = self.game.clone() else {
            self.status("no game: send set game first");
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        let job = Job {
            task,
            game,
            depth: self.depth,
            hint_moves: self.hint_moves,
            stop: Arc::clone(&stop),
            out: self.out.clone(),
            table: Arc::clone(&self.table),
            params: self.params.clone(),
        };
        match std::thread::Builder::new()
            .name("nboard-search".into())
            .spawn(move || job.run())
        {
            Ok(thread) => self.running = Some(Running { stop, thread }),
            Err(e) => self.status(&format!("cannot start a search: {e}")),
        }
    }
}

/// True when `new` is `old` with moves added (the same game going on).
fn extends(new: &GgfGame, old: &GgfGame) -> bool {
    new.start == old.start
        && new.moves.len() >= old.moves.len()
        && new.moves.iter().zip(&old.moves).all(|(a, b)| a.mv == b.mv)
}

/// A search on its thread.
struct Job {
    task: Task,
    game: GgfGame,
    depth: Option<u32>,
    hint_moves: usize,
    stop: Arc<AtomicBool>,
    out: Output,
    table: Arc<Mutex<TranspositionTable>>,
    params: SearchParams,
}

impl Job {
    /// As the native `go depth n` (or `go` without `set depth`); for a move, within the
    /// share of the mover's clock that [`clock::move_budget`] allows.
    fn limits(&self, position: &Othello, progress: &Arc<AtomicU64>) -> Limits {
        let base = match self.depth {
            Some(depth) => Limits::depth_or_solve(depth, position.empties()),
            None => Limits::default(),
        };
        let movetime = match self.task {
            Task::Move => clock::move_budget(&self.game),
            Task::Hint | Task::Analyze => None,
        };
        Limits {
            movetime,
            multipv: match self.task {
                Task::Hint => self.hint_moves,
                Task::Move | Task::Analyze => 1,
            },
            stop: Some(Arc::clone(&self.stop)),
            progress: Some(Arc::clone(progress)),
            ..base
        }
    }

    /// Runs the task, with `nodestats` every [`NODESTATS_INTERVAL`] while it searches: the
    /// nodes of the task so far (an `analyze` runs one search per position).
    fn run(self) {
        let progress = Arc::new(AtomicU64::new(0));
        let earlier = AtomicU64::new(0);
        let (done, finished) = crossbeam_channel::bounded::<()>(0);
        let started = Instant::now();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let mut shown = 0;
                while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(NODESTATS_INTERVAL)
                {
                    if self.stop.load(Ordering::Relaxed) {
                        break;
                    }
                    // Never backwards, even read between two searches of an `analyze`.
                    shown = (earlier.load(Ordering::Relaxed) + progress.load(Ordering::Relaxed))
                        .max(shown);
                    let seconds = started.elapsed().as_secs_f64();
                    self.out.say(&format!("nodestats {shown} {seconds:.2}"));
                }
            });
            self.search(&progress, &earlier);
            drop(done);
        });
    }

    /// The task's searches; `earlier` counts the nodes of those finished.
    fn search(&self, progress: &Arc<AtomicU64>, earlier: &AtomicU64) {
        let mut table = self.table.lock().unwrap_or_else(PoisonError::into_inner);
        match self.task {
            Task::Move | Task::Hint => {
                let position = self.game.final_position();
                if position.is_terminal() {
                    self.out.say("status game over");
                    return;
                }
                if self.task == Task::Move {
                    self.out.say("status thinking");
                }
                let started = Instant::now();
                let mut report = |r: Report<'_, OthelloMove>| {
                    if let Report::Iteration(it) = r {
                        for line in format::search_lines(&position, it) {
                            self.out.say(&line);
                        }
                    }
                };
                let limits = self.limits(&position, progress);
                let result = search(&position, &mut table, &self.params, &limits, &mut report);
                let seconds = started.elapsed().as_secs_f64();
                if self.task == Task::Move && !self.stop.load(Ordering::Relaxed) {
                    self.out
                        .say(&format!("nodestats {} {seconds:.2}", result.stats.nodes));
                    let mv = result.best_move.unwrap_or(OthelloMove::PASS);
                    self.out
                        .say(&format::chosen(mv, result.score.value, seconds));
                }
                self.out.say("status");
            }
            Task::Analyze => {
                // From the end back to the start, so later positions fill the table first.
                let positions: Vec<Othello> = std::iter::once(self.game.start)
                    .chain(self.game.moves.iter().scan(self.game.start, |p, m| {
                        *p = p.play(m.mv);
                        Some(*p)
                    }))
                    .collect();
                for (made, position) in positions.iter().enumerate().rev() {
                    if self.stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let value = if position.is_terminal() {
                        position.final_score()
                    } else {
                        let limits = self.limits(position, progress);
                        let r = search(position, &mut table, &self.params, &limits, &mut |_| {});
                        if r.stopped {
                            break;
                        }
                        progress.store(0, Ordering::Relaxed);
                        earlier.fetch_add(r.stats.nodes, Ordering::Relaxed);
                        r.score.value
                    };
                    // NBoard plots the game's values from Black's view.
                    let black = match position.side_to_move() {
                        Side::First => value,
                        Side::Second => -value,
                    };
                    self.out
                        .say(&format!("analysis {made} {:.2}", f64::from(black)));
                }
                self.out.say("status");
            }
        }
    }
}
