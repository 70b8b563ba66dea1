//! NBoard protocol (version 2) mode: how the NBoard GUI and other Othello frontends drive
//! an engine (as we implement it: `PROTOCOL.md`, section NBoard mode).
//!
//! A translator over the engine core, as the native protocol is: `set depth n` searches
//! exactly as the native `go depth n` does, the game's clock goes to the core as a native
//! `go time` does, and the server's limits (table memory, threads, output) hold here too.
//! So a game played through either protocol at the same settings is the same game.
//! Unknown lines are ignored, as the specification asks; a known command that cannot be
//! used is answered with a `status` line saying why.

mod clock;
mod format;

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use protocol::{Go, MultiPv};

use super::{Flow, Lines};
use crate::ENGINE_NAME;
use crate::core::{Ending, Engine, EngineEvent, EventSink, FileAccess, Intent, Request, Shared};
use crate::game::othello::Othello;
use crate::game::{AnyPosition, Game, Side};
use crate::ggf::GgfGame;

/// How often a running search reports `nodestats`.
const NODESTATS_INTERVAL: Duration = Duration::from_secs(1);

/// The protocol version spoken.
pub const NBOARD_VERSION: u32 = 2;

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

/// The running task, as the events need it.
#[derive(Debug)]
struct Running {
    task: Task,
    /// The position searched (the game's last for `analyze`).
    position: Othello,
    /// The game's positions, for `analyze`.
    game: Vec<Othello>,
}

/// The engine's events as NBoard lines.
struct Replies {
    out: Lines,
    running: Mutex<Option<Running>>,
}

impl Replies {
    fn say(&self, line: String) {
        self.out.send(line);
    }
}

impl EventSink for Replies {
    fn send(&self, event: EngineEvent) {
        // Read in place: the front sets it only while no search runs.
        let running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(running) = running.as_ref() else {
            return;
        };
        match event {
            EngineEvent::Iteration(lines) if running.task != Task::Analyze => {
                let empties = running.position.empties().unwrap_or(0);
                for info in &lines {
                    self.say(match info.book {
                        Some(games) => format::book_line(info, games),
                        None => format::search_line(info, empties),
                    });
                }
            }
            EngineEvent::Progress { nodes, elapsed } => {
                self.say(format!("nodestats {nodes} {:.2}", elapsed.as_secs_f64()));
            }
            EngineEvent::Valued { index, score } => {
                // NBoard plots the game's values from Black's view.
                let black = match running.game.get(index).map(Game::side_to_move) {
                    Some(Side::Second) => -score,
                    _ => score,
                };
                self.say(format!("analysis {index} {:.2}", f64::from(black)));
            }
            EngineEvent::Done {
                info,
                best,
                stopped,
            } => {
                if running.task == Task::Move && !stopped {
                    let seconds = info.time.unwrap_or(0) as f64 / 1000.0;
                    let nodes = info.nodes.unwrap_or(0);
                    self.say(format!("nodestats {nodes} {seconds:.2}"));
                    let value = info.score.map_or(0, |s| s.value);
                    let mv = best.mv.as_deref().unwrap_or("pass");
                    self.say(format::chosen(mv, value, seconds));
                }
                self.say("status".into());
            }
            EngineEvent::Note(info) => {
                if let Some(text) = info.string {
                    self.say(format!("status {text}"));
                }
            }
            EngineEvent::Iteration(_) | EngineEvent::Pass(_) => {}
        }
    }
}

/// One NBoard session.
pub(crate) struct NboardFront {
    replies: Arc<Replies>,
    engine: Engine,
    game: Option<GgfGame>,
    depth: Option<u32>,
    /// Moves valued by `hint` (NBoard asks 64 to value every move).
    hint_moves: u32,
}

impl NboardFront {
    /// A session whose options may name `files` (NBoard names none).
    pub(crate) fn new(
        out: Lines,
        shared: &Shared,
        files: FileAccess,
    ) -> std::io::Result<NboardFront> {
        let replies = Arc::new(Replies {
            out,
            running: Mutex::new(None),
        });
        let engine = Engine::new(shared, files, Arc::clone(&replies) as Arc<dyn EventSink>)?;
        Ok(NboardFront {
            replies,
            engine,
            game: None,
            depth: None,
            hint_moves: 1,
        })
    }

    /// The engine it drives.
    pub(crate) fn engine(&self) -> &Engine {
        &self.engine
    }

    pub(crate) fn status(&self, text: &str) {
        self.replies.say(format!("status {text}"));
    }

    /// Handles one input line.
    pub(crate) async fn handle_line(&mut self, line: &str) -> Flow {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Flow::Continue;
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "nboard" => {
                if rest.first().and_then(|v| v.parse::<u32>().ok()) != Some(NBOARD_VERSION) {
                    self.status(&format!(
                        "this engine speaks NBoard protocol {NBOARD_VERSION}, not '{}'",
                        rest.join(" ")
                    ));
                }
                self.replies.say(format!("set myname {ENGINE_NAME}"));
                // Ready: without a status line the GUI shows "Loading" until a search.
                self.replies.say("status".into());
            }
            "set" => self.set(&rest, line).await,
            "move" => self.play(rest.first().copied()).await,
            "hint" => match rest.first().and_then(|n| n.parse::<u32>().ok()) {
                Some(n) if n >= 1 => {
                    self.hint_moves = n;
                    self.start(Task::Hint).await;
                }
                _ => self.status("hint needs a number of moves: hint <n>"),
            },
            "go" => self.start(Task::Move).await,
            "analyze" => self.start(Task::Analyze).await,
            "ping" => {
                self.engine.stop().await;
                let pong = std::iter::once("pong").chain(rest.iter().copied());
                self.replies.say(pong.collect::<Vec<_>>().join(" "));
            }
            "learn" => self.replies.say("learned".into()),
            _ => {} // unknown lines are ignored, as the protocol asks
        }
        Flow::Continue
    }

    async fn set(&mut self, rest: &[&str], line: &str) {
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
                        // The same game going on keeps the table; another clears it.
                        if self.game.as_ref().is_some_and(|old| extends(&game, old)) {
                            self.engine.stop().await;
                        } else {
                            self.engine.new_game().await;
                        }
                        self.game = Some(game);
                    }
                    Err(e) => self.status(&format!("cannot read the game: {e}")),
                }
            }
            _ => {} // other settings are not ours to know
        }
    }

    async fn play(&mut self, text: Option<&str>) {
        self.engine.stop().await;
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

    async fn start(&mut self, task: Task) {
        self.engine.stop().await;
        let Some(game) = &self.game else {
            self.status("no game: send set game first");
            return;
        };
        let position = game.final_position();
        if task != Task::Analyze && position.is_terminal() {
            self.status("game over");
            return;
        }
        let positions: Vec<Othello> = std::iter::once(game.start)
            .chain(game.moves.iter().scan(game.start, |p, m| {
                *p = p.play(m.mv);
                Some(*p)
            }))
            .collect();
        let go = Go {
            depth: self.depth,
            time: match task {
                Task::Move => clock::mover_clock(game),
                Task::Hint | Task::Analyze => None,
            },
            multipv: (task == Task::Hint && self.hint_moves > 1)
                .then_some(MultiPv::Best(self.hint_moves)),
            ..Go::default()
        };
        let request = Request {
            go,
            progress_every: Some(NODESTATS_INTERVAL),
            value_game: (task == Task::Analyze)
                .then(|| positions.iter().map(|&p| AnyPosition::Othello(p)).collect()),
            intent: match task {
                Task::Move => Intent::Play,
                Task::Hint => Intent::Analyse,
                Task::Analyze => Intent::Search,
            },
        };
        *self
            .replies
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(Running {
            task,
            position,
            game: positions,
        });
        self.engine
            .set_position(AnyPosition::Othello(position))
            .await;
        if task == Task::Move {
            self.status("thinking");
        }
        if let Err(e) = self.engine.go(request) {
            self.status(&format!("cannot search: {e}"));
        }
    }

    /// Ends the session (see [`Engine::finish`]).
    pub(crate) async fn finish(self, ending: Ending) {
        self.engine.finish(ending).await;
    }
}

/// True when `new` is `old` with moves added (the same game going on).
fn extends(new: &GgfGame, old: &GgfGame) -> bool {
    new.start == old.start
        && new.moves.len() >= old.moves.len()
        && new.moves.iter().zip(&old.moves).all(|(a, b)| a.mv == b.mv)
}
