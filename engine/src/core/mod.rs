//! The engine core: what every front drives. A front ([`crate::fronts`]: the native
//! protocol and NBoard mode, carried over stdin or TCP by [`crate::server`]) only
//! translates its text into the core's requests and the core's [`EngineEvent`]s into its text;
//! it starts no thread and holds no table.
//!
//! An [`Engine`] is one client's engine: its position, options, a table reserved from the
//! process's [`Shared`] pool, threads leased from its budget for each search, the search
//! thread (`worker.rs`; a request's searches in `job.rs`), and the choice of how to search
//! (heuristic, exact or win/loss/draw; within a depth, nodes, a time or a clock:
//! `plan.rs`, `timing.rs`).

mod config;
mod engine;
mod events;
mod file_access;
mod go_limits;
mod job;
mod options;
mod pool;
mod timing;
mod worker;

use std::sync::Arc;

pub use config::EngineDefaults;
pub use engine::{Ending, Engine, GoError, Intent, Request};
pub use events::{EngineEvent, EventSink};
pub use file_access::{FileAccess, NotAllowed};
pub use options::{EngineOptions, OptionError, option_names};

use crate::search::kalah::DatabaseCache;
use pool::{TablePool, ThreadBudget};

/// What every engine of one process shares: the memory of the tables and the search
/// threads, which they may not exceed together (the limits of its [`EngineDefaults`]), and
/// the Kalah database last obtained.
#[derive(Debug)]
pub struct Shared {
    config: EngineDefaults,
    pool: Arc<TablePool>,
    threads: Arc<ThreadBudget>,
    kalah_databases: Arc<DatabaseCache>,
}

impl Shared {
    /// The shared state of a process serving with `config`.
    #[must_use]
    pub fn new(config: EngineDefaults) -> Arc<Shared> {
        // What the first search would make is made before the first line is answered.
        crate::search::othello::warm_up();
        if config.own_book {
            let _ = crate::book::Book::builtin();
        }
        Arc::new(Shared {
            pool: TablePool::new(config.table_memory_mib),
            threads: ThreadBudget::new(config.max_threads),
            kalah_databases: Arc::default(),
            config,
        })
    }

    /// The limits.
    #[must_use]
    pub fn config(&self) -> &EngineDefaults {
        &self.config
    }

    /// MiB of table memory reserved by all engines now.
    #[must_use]
    pub fn tables_mib(&self) -> usize {
        self.pool.used_mib()
    }
}
