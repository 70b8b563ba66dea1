//! The limits and defaults of an engine process: what its clients may hold together and
//! each alone, and how its transports treat them.

use std::path::PathBuf;
use std::time::Duration;

use super::file_access::FileAccess;
use crate::data_dir::default_data_dir;
use crate::search::Selectivity;
use crate::search::othello::eval::EvalChoice;

/// Limits and defaults of a server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerConfig {
    /// Longest accepted input line in bytes; longer lines are refused with an error.
    pub max_line_bytes: usize,
    /// Most TCP clients served at once; more are told so and disconnected.
    pub max_connections: usize,
    /// Total MiB of transposition tables over all sessions.
    pub table_memory_mib: usize,
    /// The largest `Hash` one session may set, in MiB (capped by `table_memory_mib`).
    pub max_hash_mib: usize,
    /// A new session's `Hash` in MiB.
    pub hash_mib: usize,
    /// Bytes of output a client may leave unread; past that its connection is closed.
    pub max_output_bytes: usize,
    /// A TCP connection that sends no complete line for this long while no search runs is
    /// closed (`None`: never).
    pub idle_timeout: Option<Duration>,
    /// The evaluation sessions start with (options `Eval` and `EvalFile`).
    pub eval: EvalChoice,
    /// Search threads of all sessions together (option `Threads` asks for a share).
    pub max_threads: usize,
    /// A new session's `Threads`.
    pub threads: usize,
    /// The files a TCP client's options may name (a client on stdin may name any).
    pub remote_files: FileAccess,
    /// A new session's `Selectivity` (and the NBoard mode's, which has no options).
    pub selectivity: Selectivity,
    /// A new session's `OwnBook` (and the NBoard mode's).
    pub own_book: bool,
    /// The engine's data directory ([`crate::data_dir`]): `KalahDatabase auto` finds
    /// installed databases in its `kalah` folder.
    pub data_dir: Option<PathBuf>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            max_line_bytes: 65_536,
            max_connections: 64,
            table_memory_mib: 4096,
            max_hash_mib: 1024,
            hash_mib: 64,
            max_output_bytes: 16 << 20,
            idle_timeout: Some(Duration::from_secs(600)),
            eval: EvalChoice::default(),
            max_threads: std::thread::available_parallelism().map_or(1, usize::from),
            threads: 1,
            remote_files: FileAccess::Under(Vec::new()),
            selectivity: Selectivity::PLAY,
            own_book: true,
            data_dir: default_data_dir(),
        }
    }
}
