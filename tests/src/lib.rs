//! Helpers for the end-to-end tests: find the `engine` binary, run it as a stdio engine or
//! a TCP server, read its memory use, and make reproducible test positions.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{OnceLock, mpsc};
use std::time::Duration;

use engine::game::{AnyPosition, GameId, Start};
use protocol::{Client, Endpoint};

/// How long any single answer may take before a test fails (generous: CI machines are
/// shared and slow; nothing here should come near it).
pub const PATIENCE: Duration = Duration::from_secs(30);

/// The `engine` binary of this build: `ENGINE_BIN` if set, else `target/<profile>/engine`,
/// brought up to date first with the `cargo` that runs the tests (a test package cannot
/// depend on another package's binary, and a stale binary would test old code).
///
/// # Panics
/// When the build fails or the binary is missing.
#[must_use]
pub fn engine_binary() -> PathBuf {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(find_engine_binary).clone()
}

fn find_engine_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("ENGINE_BIN") {
        return path.into();
    }
    let exe = std::env::current_exe().expect("the test knows its own path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("tests run from target/<profile>/deps");
    if let Some(cargo) = std::env::var_os("CARGO") {
        let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
            Some("debug") | None => "dev",
            Some(name) => name,
        };
        let status = Command::new(cargo)
            .args([
                "build",
                "--quiet",
                "--profile",
                profile,
                "-p",
                "engine",
                "--bin",
                "engine",
            ])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building the engine binary failed");
    }
    let path = profile_dir.join("engine");
    assert!(
        path.exists(),
        "{} is missing: build it with `cargo build -p engine` in the same profile",
        path.display()
    );
    path
}

/// The endpoint that runs the engine binary with `args` over stdin/stdout.
#[must_use]
pub fn stdio_endpoint(args: &[&str]) -> Endpoint {
    let mut words = vec![engine_binary().display().to_string()];
    words.extend(args.iter().map(ToString::to_string));
    Endpoint::Command(words)
}

/// Starts the engine binary on stdin/stdout.
///
/// # Panics
/// When it cannot be started.
#[must_use]
pub fn stdio_engine(args: &[&str]) -> Client {
    Client::start(&stdio_endpoint(args), None).expect("the engine starts")
}

/// An `engine --listen` process on a free loopback port, killed when dropped.
#[derive(Debug)]
pub struct TcpServer {
    child: Child,
    /// Where it listens (`host:port`).
    pub addr: String,
}

impl TcpServer {
    /// Starts a server with extra arguments (limits) on a port the system picks.
    ///
    /// # Panics
    /// When it does not start or does not say where it listens.
    #[must_use]
    pub fn start(args: &[&str]) -> TcpServer {
        Self::start_with_env(args, &[])
    }

    /// [`TcpServer::start`] with environment variables `env`.
    ///
    /// # Panics
    /// When it does not start or does not say where it listens.
    #[must_use]
    pub fn start_with_env(args: &[&str], env: &[(&str, &std::path::Path)]) -> TcpServer {
        let mut child = Command::new(engine_binary())
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .envs(env.iter().copied())
            // Refused connections are logged as warnings; tests provoke them on purpose.
            .env(
                "ENGINE_LOG",
                std::env::var("ENGINE_LOG").unwrap_or_else(|_| "error".into()),
            )
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let stdout = child.stdout.take().expect("stdout was piped");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the server prints its address");
        let addr = line
            .trim()
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("expected 'listening <addr>', got '{line}'"))
            .to_string();
        TcpServer { child, addr }
    }

    /// A server process started by the caller, which read its `listening` line.
    #[must_use]
    pub fn adopt(child: Child, addr: String) -> TcpServer {
        TcpServer { child, addr }
    }

    /// The endpoint of this server.
    #[must_use]
    pub fn endpoint(&self) -> Endpoint {
        Endpoint::Tcp(self.addr.clone())
    }

    /// A new client connection.
    ///
    /// # Panics
    /// When the connection fails.
    #[must_use]
    pub fn connect(&self) -> Client {
        Client::start(&self.endpoint(), None).expect("the client connects")
    }

    /// The server's resident memory in KiB (from `/proc`).
    #[must_use]
    pub fn resident_kib(&self) -> u64 {
        resident_kib(self.child.id())
    }

    /// The server's process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// True while the server process runs.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for TcpServer {
    fn drop(&mut self) {
        // The server may have died already (the test then fails on its own).
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A raw line-oriented connection to a server, for what the protocol client would hide
/// (partial lines, reading nothing, the connection's end).
pub struct RawConnection {
    reader: BufReader<TcpStream>,
    /// The sending half, for writes the helpers do not cover.
    pub writer: TcpStream,
}

impl RawConnection {
    /// Connects to `server`; reads wait at most [`PATIENCE`].
    ///
    /// # Panics
    /// When the connection fails.
    pub fn connect(server: &TcpServer) -> RawConnection {
        let stream = TcpStream::connect(&server.addr).expect("the server accepts");
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        RawConnection {
            writer: stream.try_clone().unwrap(),
            reader: BufReader::new(stream),
        }
    }

    /// Sends text as it is (end lines with `\n`).
    ///
    /// # Panics
    /// When the connection is gone.
    pub fn send(&mut self, lines: &str) {
        self.writer.write_all(lines.as_bytes()).unwrap();
    }

    /// The next line, or `None` when the server closed the connection.
    pub fn line(&mut self) -> Option<String> {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim_end().to_string()),
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self
                .line()
                .unwrap_or_else(|| panic!("closed before '{prefix}'; got {lines:?}"));
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }
}

/// The engine binary on stdin/stdout, driven line by line (bytes in, lines out), killed
/// when dropped.
pub struct PipedEngine {
    child: Child,
    input: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl PipedEngine {
    /// Starts the engine binary with `args`.
    ///
    /// # Panics
    /// When it cannot be started.
    pub fn start(args: &[&str]) -> PipedEngine {
        Self::start_with_env(args, &[])
    }

    /// Starts the engine binary with `args` and environment variables `env`.
    ///
    /// # Panics
    /// When it cannot be started.
    pub fn start_with_env(args: &[&str], env: &[(&str, &std::path::Path)]) -> PipedEngine {
        let mut child = Command::new(engine_binary())
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let input = child.stdin.take().unwrap();
        let output = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        PipedEngine {
            child,
            input,
            lines,
        }
    }

    /// Writes bytes to the engine's stdin.
    ///
    /// # Panics
    /// When the engine's stdin is closed.
    pub fn send(&mut self, text: &[u8]) {
        self.input.write_all(text).unwrap();
        self.input.flush().unwrap();
    }

    /// The next line of output.
    ///
    /// # Panics
    /// When none comes within [`PATIENCE`].
    pub fn line(&self) -> String {
        self.lines
            .recv_timeout(PATIENCE)
            .expect("the engine answers in time")
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// True while the process runs.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for PipedEngine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Resident memory of a process in KiB.
///
/// # Panics
/// When `/proc/<pid>/status` cannot be read.
#[must_use]
pub fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc is readable");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in /proc/<pid>/status")
}

/// A reproducible position of `game`: `plies` moves from the start, chosen by `seed`.
///
/// # Panics
/// When `game` is not a game id.
#[must_use]
pub fn test_position(game: &str, seed: u64, plies: usize) -> (AnyPosition, Vec<String>) {
    let id: GameId = game.parse().expect("a game id");
    let mut position = id.start(Start::Standard).expect("a standard start");
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = position.legal_moves();
        if legal.is_empty() {
            break;
        }
        // xorshift64: enough to spread the choices.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mv = &legal[(state % legal.len() as u64) as usize];
        position = position.play_text(mv).expect("a legal move");
        moves.push(mv.clone());
    }
    (position, moves)
}
