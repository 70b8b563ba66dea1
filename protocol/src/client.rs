//! A frontend's side of the protocol: run or reach an engine, send commands, receive
//! typed messages on a channel.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use thiserror::Error;
use wait_timeout::ChildExt;

use crate::{
    Algorithm, BestMove, Command, Endpoint, Go, Info, Message, OptionSpec, PROTOCOL_VERSION,
    ParseError, StderrTail,
};

/// What the engine sent.
// Nearly every event is a line, moved once through a channel: boxing its message would
// cost an allocation per line to save bytes on the rare `Closed`.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A line, with the message it holds or why it is not one.
    Line {
        /// The line as received (invalid UTF-8 replaced, line end removed).
        raw: String,
        /// The message.
        parsed: Result<Message, ParseError>,
    },
    /// The engine closed its output or the connection: no more events follow.
    Closed(String),
}

/// Something that went wrong talking to an engine.
#[derive(Debug, Error)]
pub enum ClientError {
    /// The engine command could not be started.
    #[error("cannot start engine '{command}': {source}")]
    Spawn {
        /// The command line that could not be started.
        command: String,
        /// Why.
        source: io::Error,
    },
    /// The TCP connection could not be made.
    #[error("cannot connect to engine at {addr}: {source}")]
    Connect {
        /// The address.
        addr: String,
        /// Why.
        source: io::Error,
    },
    /// Writing to the engine failed (it exited or the connection dropped).
    #[error("engine input closed: {0}")]
    Write(#[source] io::Error),
    /// The engine stopped talking.
    #[error("engine closed: {0}")]
    Closed(String),
    /// No answer in time.
    #[error("engine did not answer {what} within {after:?}")]
    Timeout {
        /// What was awaited.
        what: &'static str,
        /// How long.
        after: Duration,
    },
    /// A line that is not a protocol message.
    #[error("engine sent a malformed line '{line}': {error}")]
    Malformed {
        /// The line as received.
        line: String,
        /// Why it is malformed.
        error: ParseError,
    },
    /// The engine answered `error <reason>`.
    #[error("engine refused: {0}")]
    Refused(String),
    /// A message that has no place where it came.
    #[error("engine sent '{0}' out of turn")]
    OutOfTurn(String),
}

/// What the handshake told about the engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Handshake {
    /// `id name`.
    pub name: String,
    /// `id version`.
    pub version: String,
    /// `protocol`.
    pub protocol: u32,
    /// Each `game`: base id and rule suffixes.
    pub games: Vec<(String, Vec<String>)>,
    /// `algorithms`.
    pub algorithms: Vec<Algorithm>,
    /// Each `option`.
    pub options: Vec<OptionSpec>,
}

/// Everything one `go` produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The `info` lines, in order.
    pub infos: Vec<Info>,
    /// The `bestmove`.
    pub best: BestMove,
}

impl SearchOutcome {
    /// The last `info` that carries a score: the search's final score and PV.
    #[must_use]
    pub fn final_info(&self) -> Option<&Info> {
        self.infos
            .iter()
            .rev()
            .find(|i| i.score.is_some() && i.pass.is_none())
    }
}

/// A callback run after each event is queued (a GUI passes its repaint request).
pub type Notify = Arc<dyn Fn() + Send + Sync>;

/// A connection to one engine. Dropping it ends a child engine.
pub struct Client {
    input: Box<dyn Write + Send>,
    events: Receiver<Event>,
    child: Option<Child>,
    /// A handle on the TCP connection, to close it for the reader thread too.
    socket: Option<TcpStream>,
    /// A child's last lines on its standard error (which still reach ours too).
    stderr: Option<StderrTail>,
    endpoint: Endpoint,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// Starts the engine (or connects to it). Lines it sends arrive on [`Client::events`];
    /// `notify` is called after each one.
    ///
    /// # Errors
    /// [`ClientError::Spawn`] or [`ClientError::Connect`].
    pub fn start(endpoint: &Endpoint, notify: Option<Notify>) -> Result<Client, ClientError> {
        let (tx, events) = crossbeam_channel::unbounded();
        let mut socket = None;
        let mut stderr = None;
        let (input, child): (Box<dyn Write + Send>, Option<Child>) = match endpoint {
            Endpoint::Command(words) => {
                let spawn_error = |source| ClientError::Spawn {
                    command: endpoint.to_string(),
                    source,
                };
                let (program, args) = words
                    .split_first()
                    .ok_or_else(|| spawn_error(io::Error::other("empty command")))?;
                let mut child = std::process::Command::new(program)
                    .args(args)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .map_err(spawn_error)?;
                stderr = child.stderr.take().map(|e| StderrTail::capture(e, true));
                let stdout = child.stdout.take().expect("stdout was piped");
                let stdin: ChildStdin = child.stdin.take().expect("stdin was piped");
                spawn_reader(stdout, tx, notify);
                (Box::new(stdin), Some(child))
            }
            Endpoint::Tcp(addr) => {
                let connect_error = |source| ClientError::Connect {
                    addr: addr.clone(),
                    source,
                };
                let stream = connect(addr).map_err(connect_error)?;
                let reader = stream.try_clone().map_err(connect_error)?;
                socket = Some(stream.try_clone().map_err(connect_error)?);
                spawn_reader(reader, tx, notify);
                (Box::new(stream), None)
            }
        };
        Ok(Client {
            input,
            events,
            child,
            socket,
            stderr,
            endpoint: endpoint.clone(),
        })
    }

    /// A child engine's last lines on its standard error (none over TCP).
    #[must_use]
    pub fn stderr_tail(&self) -> Option<&StderrTail> {
        self.stderr.as_ref()
    }

    /// Where this engine is.
    #[must_use]
    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// The engine's lines, in order, ending with one [`Event::Closed`].
    #[must_use]
    pub fn events(&self) -> &Receiver<Event> {
        &self.events
    }

    /// Sends a command.
    ///
    /// # Errors
    /// [`ClientError::Write`] when the engine's input is closed.
    pub fn send(&mut self, command: &Command) -> Result<(), ClientError> {
        self.send_line(&command.to_string())
    }

    /// Sends a line as it is (a newline is added).
    ///
    /// # Errors
    /// [`ClientError::Write`] when the engine's input is closed.
    pub fn send_line(&mut self, line: &str) -> Result<(), ClientError> {
        self.send_bytes(format!("{line}\n").as_bytes())
    }

    /// Sends raw bytes (for tests of what the engine does with bad input).
    ///
    /// # Errors
    /// [`ClientError::Write`] when the engine's input is closed.
    pub fn send_bytes(&mut self, bytes: &[u8]) -> Result<(), ClientError> {
        self.input
            .write_all(bytes)
            .and_then(|()| self.input.flush())
            .map_err(ClientError::Write)
    }

    /// The next message, waiting at most `timeout`.
    ///
    /// # Errors
    /// [`ClientError::Timeout`], [`ClientError::Closed`] or [`ClientError::Malformed`].
    pub fn next_message(&self, timeout: Duration) -> Result<Message, ClientError> {
        match self.events.recv_timeout(timeout) {
            Ok(Event::Line { parsed: Ok(m), .. }) => Ok(m),
            Ok(Event::Line {
                raw,
                parsed: Err(error),
            }) => Err(ClientError::Malformed { line: raw, error }),
            Ok(Event::Closed(why)) => Err(ClientError::Closed(why)),
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout {
                what: "a message",
                after: timeout,
            }),
            Err(RecvTimeoutError::Disconnected) => {
                Err(ClientError::Closed("reader ended".to_string()))
            }
        }
    }

    /// Sends `hello` and reads the engine's description up to `hellook`.
    ///
    /// # Errors
    /// As [`Client::next_message`], and [`ClientError::Refused`] when the engine answers
    /// `error` (for instance because it does not speak this protocol version).
    pub fn handshake(&mut self, timeout: Duration) -> Result<Handshake, ClientError> {
        self.send(&Command::Hello {
            version: Some(PROTOCOL_VERSION),
        })?;
        let deadline = Instant::now() + timeout;
        let mut hs = Handshake::default();
        loop {
            match self.next_before(deadline, "hellook", timeout)? {
                Message::IdName(name) => hs.name = name,
                Message::IdVersion(version) => hs.version = version,
                Message::Protocol(v) => hs.protocol = v,
                Message::Game { id, suffixes } => hs.games.push((id, suffixes)),
                Message::Algorithms(list) => hs.algorithms = list,
                Message::Option(spec) => hs.options.push(spec),
                Message::HelloOk => return Ok(hs),
                Message::Error(reason) => return Err(ClientError::Refused(reason)),
                other => return Err(ClientError::OutOfTurn(other.to_string())),
            }
        }
    }

    /// Sends `isready` and waits for `readyok`, passing over search output.
    ///
    /// # Errors
    /// As [`Client::next_message`], and [`ClientError::Refused`] for an `error` line.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.send(&Command::IsReady)?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.next_before(deadline, "readyok", timeout)? {
                Message::ReadyOk => return Ok(()),
                Message::Error(reason) => return Err(ClientError::Refused(reason)),
                _ => {}
            }
        }
    }

    /// Sends a command that has no answer (`position`, `setoption`, `newgame`), then syncs
    /// with `isready`, so that a refusal comes back as [`ClientError::Refused`].
    ///
    /// # Errors
    /// As [`Client::sync`].
    pub fn command(&mut self, command: &Command, timeout: Duration) -> Result<(), ClientError> {
        self.send(command)?;
        self.sync(timeout)
    }

    /// Sends `go` and collects its `info` lines up to its `bestmove`. Output of other
    /// searches (with another `id`) is passed over.
    ///
    /// # Errors
    /// As [`Client::next_message`], and [`ClientError::Refused`] when `go` is refused.
    pub fn search(&mut self, go: &Go, timeout: Duration) -> Result<SearchOutcome, ClientError> {
        self.send(&Command::Go(go.clone()))?;
        let deadline = Instant::now() + timeout;
        let mut infos = Vec::new();
        loop {
            match self.next_before(deadline, "bestmove", timeout)? {
                Message::Info(info) if info.id == go.id => infos.push(info),
                Message::BestMove(best) if best.id == go.id => {
                    return Ok(SearchOutcome { infos, best });
                }
                Message::Error(reason) => return Err(ClientError::Refused(reason)),
                _ => {}
            }
        }
    }

    fn next_before(
        &self,
        deadline: Instant,
        what: &'static str,
        timeout: Duration,
    ) -> Result<Message, ClientError> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.next_message(left).map_err(|e| match e {
            ClientError::Timeout { .. } => ClientError::Timeout {
                what,
                after: timeout,
            },
            other => other,
        })
    }

    /// Sends `quit` and waits up to `timeout` for a child engine to exit, then ends it.
    /// Returns the child's exit status if it exited by itself.
    pub fn quit(mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        // The engine may already be gone; the exit status below says what happened.
        let _ = self.send(&Command::Quit);
        let child = self.child.as_mut()?;
        child.wait_timeout(timeout).ok().flatten()
    }

    /// The child engine's exit status, if it has exited (`None` for TCP or while running).
    pub fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        self.child.as_mut()?.try_wait().ok().flatten()
    }

    /// The child engine's process id (`None` for TCP).
    #[must_use]
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Some(socket) = &self.socket {
            // Closes the connection for the reader thread's handle too; it may be closed already.
            let _ = socket.shutdown(std::net::Shutdown::Both);
        }
        if let Some(child) = self.child.as_mut() {
            // Killing an engine that already exited fails harmlessly; wait reaps it.
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn connect(addr: &str) -> io::Result<TcpStream> {
    let mut last = io::Error::new(io::ErrorKind::NotFound, "address resolved to nothing");
    for socket in addr.to_socket_addrs()? {
        match TcpStream::connect_timeout(&socket, Duration::from_secs(5)) {
            Ok(stream) => {
                // Protocol lines are small: send each at once.
                stream.set_nodelay(true)?;
                return Ok(stream);
            }
            Err(e) => last = e,
        }
    }
    Err(last)
}

fn spawn_reader(source: impl Read + Send + 'static, tx: Sender<Event>, notify: Option<Notify>) {
    thread::spawn(move || {
        let mut reader = BufReader::new(source);
        let mut buf = Vec::new();
        let why = loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) => break "end of output".to_string(),
                Ok(_) => {
                    let raw = String::from_utf8_lossy(&buf)
                        .trim_end_matches(['\n', '\r'])
                        .to_string();
                    if raw.trim().is_empty() {
                        continue;
                    }
                    let parsed = raw.parse();
                    if tx.send(Event::Line { raw, parsed }).is_err() {
                        return;
                    }
                }
                Err(e) => break e.to_string(),
            }
            if let Some(n) = &notify {
                n();
            }
        };
        // The client may be gone already; nobody is left to tell.
        let _ = tx.send(Event::Closed(why));
        if let Some(n) = &notify {
            n();
        }
    });
}
