//! What an engine process's sessions start with and share: table memory, threads, the
//! evaluation, the book, the data directory. How the transports treat clients is the
//! server's (`server::ServerConfig`), which builds on these.

use std::path::PathBuf;

use crate::data_dir::default_data_dir;
use crate::search::SelectivitySchedule;
use crate::search::othello::eval::EvalChoice;

/// The defaults of a new session's engine, and the limits all sessions share.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineDefaults {
    /// Total MiB of transposition tables over all sessions.
    pub table_memory_mib: usize,
    /// The largest `Hash` one session may set, in MiB (capped by `table_memory_mib`).
    pub max_hash_mib: usize,
    /// A new session's `Hash` in MiB.
    pub hash_mib: usize,
    /// The evaluation sessions start with (options `Eval` and `EvalFile`).
    pub eval: EvalChoice,
    /// Search threads of all sessions together (option `Threads` asks for a share).
    pub max_threads: usize,
    /// A new session's `Threads`.
    pub threads: usize,
    /// A new session's `Selectivity` (and the NBoard mode's, which has no options).
    pub selectivity: SelectivitySchedule,
    /// A new session's `OwnBook` (and the NBoard mode's).
    pub own_book: bool,
    /// The engine's data directory ([`crate::data_dir`]): `KalahDatabase auto` finds
    /// installed databases in its `kalah` folder.
    pub data_dir: Option<PathBuf>,
}

impl Default for EngineDefaults {
    fn default() -> Self {
        EngineDefaults {
            table_memory_mib: 4096,
            max_hash_mib: 1024,
            hash_mib: 64,
            eval: EvalChoice::default(),
            max_threads: crate::cores::available_cores(),
            threads: 1,
            selectivity: SelectivitySchedule::PLAY,
            own_book: true,
            data_dir: default_data_dir(),
        }
    }
}
