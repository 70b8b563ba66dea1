//! The connection to one engine: started on demand (our built-in engine, a command line or
//! a TCP address), read without blocking, every line kept for the console, and output of
//! abandoned searches dropped by search id.

use std::collections::{BTreeMap, VecDeque};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock, mpsc};
use std::time::{Duration, Instant};

use engine::game::AnyPosition;
use protocol::{Client, Command, Endpoint, Event, Go, Info, Message, PositionStart};

use crate::game::GameHistory;
use crate::move_values::MoveValues;

/// The endpoint text that means our own engine, run inside this process.
pub const BUILTIN: &str = "builtin";

/// Lines kept in the console.
const CONSOLE_LINES: usize = 2000;

/// How much longer than its own time limit a search may run before the engine is called
/// unresponsive.
const HANG_GRACE: Duration = Duration::from_secs(10);

/// Where the link stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkStatus {
    /// Not started.
    Off,
    /// Started, handshake under way.
    Connecting,
    /// Ready, with the engine's name.
    Ready(String),
    /// Died, closed, or could not be started: why.
    Failed(String),
}

/// One line of the console.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsoleLine {
    /// True for a line we sent.
    pub outgoing: bool,
    /// The line.
    pub text: String,
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's move in the game.
    Move,
    /// Analysis of the position on the board (`go infinite`).
    Analysis,
    /// A solve of the position on the board (`go solve`), asked for by the user.
    Solve,
    /// The move the engine would play, shown to the user on demand (Hint).
    Hint,
    /// Every move of one position of a game under review valued (`multipv all`).
    Review,
}

/// What one MTD(f) pass left known about the value: it lies in `lower..=upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassBounds {
    /// The pass's number over the whole search, from 0 (the plot's x).
    pub number: usize,
    /// The depth of the iteration the pass belongs to.
    pub depth: protocol::Depth,
    /// The lower bound after the pass.
    pub lower: i32,
    /// The upper bound after the pass.
    pub upper: i32,
}

/// A search in progress.
#[derive(Clone, Debug)]
pub struct Search {
    /// Its `go` id.
    pub id: String,
    /// Why it runs.
    pub purpose: Purpose,
    /// The moves on the board it searches (the game's cursor when it started).
    pub ply: usize,
    /// The position it searches.
    pub position: AnyPosition,
    /// Iteration lines so far (with multi-PV, those of the best move).
    pub iterations: Vec<Info>,
    /// With multi-PV: every move's line, from one iteration.
    pub values: MoveValues,
    /// The opening book's moves (`info book ...` lines, sent before an analysis), with
    /// their book values for the side to move.
    pub book: BTreeMap<String, i32>,
    /// MTD(f) passes so far, in order.
    pub passes: Vec<PassBounds>,
    /// When it started.
    pub started: Instant,
    /// The longest it should take, if it has a time limit.
    pub limit: Option<Duration>,
    /// The move it ended with (`bestmove`), once it has.
    pub best: Option<String>,
}

impl Search {
    /// Whether it searches `position`.
    #[must_use]
    pub fn is_of(&self, position: &AnyPosition) -> bool {
        self.position == *position
    }

    /// Whether the move it ended with (its `bestmove`, from a search or the book) leads
    /// from its position to `position`: the engine's move just played.
    #[must_use]
    pub fn led_to(&self, position: &AnyPosition) -> bool {
        self.best
            .as_ref()
            .and_then(|mv| self.position.play_text(mv).ok())
            .is_some_and(|next| next == *position)
    }

    /// What its principal variation says about `position`: the whole line when it
    /// searches that position, the rest when the line's first move, played, led there;
    /// nothing when it searches another position.
    #[must_use]
    pub fn line_from(&self, position: &AnyPosition) -> Option<&[String]> {
        let pv = self.iterations.last().map_or(&[][..], |info| &info.pv[..]);
        if self.is_of(position) {
            return Some(pv);
        }
        let (first, rest) = pv.split_first()?;
        (self.led_to(position) && self.best.as_ref() == Some(first)).then_some(rest)
    }
}

/// Something the app must act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkEvent {
    /// A search ended with this move (`None`: the game is over).
    BestMove {
        /// The search's purpose.
        purpose: Purpose,
        /// The ply it was for.
        ply: usize,
        /// The engine's `bestmove` (`None` when the game was over).
        mv: Option<String>,
    },
    /// The engine refused a command.
    Refused(String),
}

/// A link to one engine.
pub struct EngineLink {
    client: Option<Client>,
    /// Where it stands.
    pub status: LinkStatus,
    /// The lines both ways, oldest first.
    pub console: VecDeque<ConsoleLine>,
    /// The running search, if any.
    pub search: Option<Search>,
    /// The last finished search (kept for display).
    pub last_search: Option<Search>,
    next_id: u64,
    endpoint: String,
    /// A connection being made on its own thread, and the options to send once it is.
    pending: Option<PendingConnection>,
    /// The engine's name, from its handshake.
    name: Option<String>,
    /// The options the engine declared in its handshake.
    declared: Vec<String>,
    /// The options sent since the engine started, with their values.
    sent: BTreeMap<String, String>,
}

type PendingConnection = (
    mpsc::Receiver<Result<Client, String>>,
    Vec<(String, String)>,
);

impl Default for EngineLink {
    fn default() -> Self {
        EngineLink {
            client: None,
            status: LinkStatus::Off,
            console: VecDeque::new(),
            search: None,
            last_search: None,
            next_id: 1,
            endpoint: String::new(),
            pending: None,
            name: None,
            declared: Vec::new(),
            sent: BTreeMap::new(),
        }
    }
}

/// Our engine's server inside this process, started once (with the data directory of
/// the first start).
fn builtin_address(data_dir: Option<PathBuf>) -> Result<SocketAddr, String> {
    static ADDRESS: OnceLock<Result<SocketAddr, String>> = OnceLock::new();
    ADDRESS
        .get_or_init(|| {
            // The GUI's own connection waits as long as the person at the board thinks.
            let defaults = engine::server::ServerConfig::default();
            let config = engine::server::ServerConfig {
                idle_timeout: None,
                engine: engine::server::EngineDefaults {
                    data_dir,
                    ..defaults.engine
                },
                ..defaults
            };
            engine::server::serve_in_background(config).map_err(|e| format!("{e:#}"))
        })
        .clone()
}

impl EngineLink {
    /// Abandons the running search if it has this purpose.
    pub fn abandon_if(&mut self, purpose: Purpose) {
        if self.search.as_ref().is_some_and(|s| s.purpose == purpose) {
            self.abandon();
        }
    }

    /// True when a connection is open (ready or in its handshake).
    #[must_use]
    pub fn is_open(&self) -> bool {
        self.client.is_some()
    }

    /// True when the engine has finished its handshake.
    #[must_use]
    pub fn is_ready(&self) -> bool {
        matches!(self.status, LinkStatus::Ready(_))
    }

    /// The endpoint text it was started with.
    #[must_use]
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Starts the engine at `endpoint` (`builtin`, a command line, or `tcp:host:port`),
    /// closing any previous one. Never blocks: the process is started (or the connection
    /// made) on a thread, and [`EngineLink::poll`] takes it and reads the handshake.
    /// `repaint` is called whenever the engine sends a line. The built-in engine finds
    /// Kalah databases under `data_dir`.
    pub fn start(
        &mut self,
        endpoint: &str,
        options: &[(String, String)],
        data_dir: Option<PathBuf>,
        repaint: Arc<dyn Fn() + Send + Sync>,
    ) {
        self.close();
        self.name = None;
        self.declared.clear();
        self.sent.clear();
        self.endpoint = endpoint.to_string();
        self.status = LinkStatus::Connecting;
        let endpoint = endpoint.trim().to_string();
        let (tx, rx) = mpsc::channel();
        // Starting a process or connecting can take a while: never on the UI thread.
        std::thread::spawn(move || {
            let target = if endpoint.is_empty() || endpoint == BUILTIN {
                builtin_address(data_dir).map(|a| Endpoint::Tcp(a.to_string()))
            } else {
                endpoint.parse::<Endpoint>().map_err(|e| e.to_string())
            };
            let client = target.and_then(|t| {
                Client::start(&t, Some(Arc::clone(&repaint))).map_err(|e| e.to_string())
            });
            // The link may have been closed meanwhile; then nobody waits for it.
            let _ = tx.send(client);
            repaint();
        });
        self.pending = Some((rx, options.to_vec()));
    }

    /// Takes the connection once its thread has made it, and starts the handshake.
    fn take_pending(&mut self) {
        let Some((rx, options)) = &self.pending else {
            return;
        };
        let result = match rx.try_recv() {
            Ok(result) => result,
            Err(mpsc::TryRecvError::Empty) => return,
            Err(mpsc::TryRecvError::Disconnected) => Err("the connection attempt failed".into()),
        };
        let options = options.clone();
        self.pending = None;
        match result {
            Ok(client) => {
                self.client = Some(client);
                self.send(&Command::Hello {
                    version: Some(protocol::PROTOCOL_VERSION),
                });
                for (name, value) in options {
                    self.send(&Command::SetOption { name, value });
                }
            }
            Err(reason) => self.status = LinkStatus::Failed(reason),
        }
    }

    /// Closes the connection (a child engine is ended).
    pub fn close(&mut self) {
        self.pending = None;
        if self.client.take().is_some() {
            self.log(true, "(closed by the user)".into());
        }
        self.search = None;
        self.status = LinkStatus::Off;
    }

    fn log(&mut self, outgoing: bool, text: String) {
        if self.console.len() == CONSOLE_LINES {
            self.console.pop_front();
        }
        self.console.push_back(ConsoleLine { outgoing, text });
    }

    /// Sets the options an engine plays with (a level's), sending only those it declared
    /// and whose values change: an engine without them plays as it is.
    pub fn configure(&mut self, options: &[(String, String)]) {
        for (name, value) in options {
            if self.declared.contains(name) && self.sent.get(name) != Some(value) {
                self.sent.insert(name.clone(), value.clone());
                self.send(&Command::SetOption {
                    name: name.clone(),
                    value: value.clone(),
                });
            }
        }
    }

    /// Sends a command; a write failure marks the link failed.
    pub fn send(&mut self, command: &Command) {
        let line = command.to_string();
        self.log(true, line.clone());
        let Some(client) = self.client.as_mut() else {
            return;
        };
        if let Err(e) = client.send_line(&line) {
            self.fail(e.to_string());
        }
    }

    fn fail(&mut self, reason: String) {
        self.client = None;
        self.search = None;
        self.status = LinkStatus::Failed(reason);
    }

    /// Starts a search of the board of `game` (stopping any other).
    pub fn search(&mut self, game: &GameHistory, go: Go, purpose: Purpose) {
        self.abandon();
        let id = format!("g{}", self.next_id);
        self.next_id += 1;
        self.send(&Command::Position {
            game: game.game().to_string(),
            start: PositionStart::from_word(game.start()),
            moves: game.moves().to_vec(),
        });
        let limit = go.movetime.map(Duration::from_millis);
        self.send(&Command::Go(Go {
            id: Some(id.clone()),
            ..go
        }));
        self.search = Some(Search {
            id,
            purpose,
            ply: game.cursor(),
            position: game.position(),
            iterations: Vec::new(),
            values: MoveValues::default(),
            book: BTreeMap::new(),
            passes: Vec::new(),
            started: Instant::now(),
            limit,
            best: None,
        });
    }

    /// Stops the running search and forgets it: whatever it still sends is dropped.
    pub fn abandon(&mut self) {
        if self.search.take().is_some() {
            self.send(&Command::Stop);
        }
    }

    /// Asks the running search for its move now.
    pub fn move_now(&mut self) {
        if self.search.is_some() {
            self.send(&Command::Stop);
        }
    }

    /// True when a timed search has run well past its time.
    #[must_use]
    pub fn seems_hung(&self) -> bool {
        self.search
            .as_ref()
            .and_then(|s| {
                s.limit
                    .map(|limit| s.started.elapsed() > limit + HANG_GRACE)
            })
            .unwrap_or(false)
    }

    /// Reads everything the engine sent since the last call.
    pub fn poll(&mut self) -> Vec<LinkEvent> {
        self.take_pending();
        let mut events = Vec::new();
        while let Some(client) = self.client.as_ref() {
            let Ok(event) = client.events().try_recv() else {
                break;
            };
            match event {
                Event::Line { raw, parsed } => {
                    self.log(false, raw);
                    match parsed {
                        Ok(message) => self.take(message, &mut events),
                        Err(e) => self.log(false, format!("(malformed line: {e})")),
                    }
                }
                Event::Closed(why) => {
                    let exit = self
                        .client
                        .as_mut()
                        .and_then(Client::exit_status)
                        .map(|s| format!(", {s}"))
                        .unwrap_or_default();
                    self.log(false, format!("(engine closed: {why}{exit})"));
                    self.fail(format!("the engine closed ({why}{exit})"));
                }
            }
        }
        events
    }

    fn take(&mut self, message: Message, events: &mut Vec<LinkEvent>) {
        match message {
            // Ready once the handshake, with its options, is complete.
            Message::IdName(name) => self.name = Some(name),
            Message::Option(spec) => self.declared.push(spec.name),
            Message::HelloOk if !self.is_ready() => {
                let name = self.name.clone().unwrap_or_else(|| "engine".into());
                self.status = LinkStatus::Ready(name);
            }
            Message::Info(info) => {
                let Some(search) = self
                    .search
                    .as_mut()
                    .filter(|s| info.id.as_ref() == Some(&s.id))
                else {
                    return; // from an abandoned search
                };
                match info.pass {
                    Some(pass) => {
                        let bounds = PassBounds {
                            number: search.passes.len(),
                            depth: info.depth.unwrap_or(protocol::Depth::Plies(0)),
                            lower: pass.interval.0,
                            upper: pass.interval.1,
                        };
                        search.passes.push(bounds);
                    }
                    None if info.book.is_some() => {
                        if let (Some(score), Some(mv)) = (info.score, info.pv.first()) {
                            search.book.insert(mv.clone(), score.value);
                        }
                    }
                    None => {
                        if let Some(rank) = info.multipv.filter(|_| !info.pv.is_empty()) {
                            search.values.record(rank, info.clone());
                            if rank > 1 {
                                return;
                            }
                        }
                        search.iterations.push(info);
                    }
                }
            }
            Message::BestMove(best) => {
                if let Some(mut search) = self.search.take_if(|s| best.id.as_ref() == Some(&s.id)) {
                    search.best.clone_from(&best.mv);
                    events.push(LinkEvent::BestMove {
                        purpose: search.purpose,
                        ply: search.ply,
                        mv: best.mv,
                    });
                    self.last_search = Some(search);
                }
            }
            Message::Error(reason) => events.push(LinkEvent::Refused(reason)),
            _ => {}
        }
    }

    /// The search to display: the running one, else the last finished.
    #[must_use]
    pub fn shown_search(&self) -> Option<&Search> {
        self.search.as_ref().or(self.last_search.as_ref())
    }
}
