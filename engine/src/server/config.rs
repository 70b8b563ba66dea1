//! How the server treats its clients: line length, connections, unread output, idle
//! connections and the files a remote client may name; and the defaults it gives each
//! session's engine ([`EngineDefaults`]).

use std::time::Duration;

use crate::core::{EngineDefaults, FileAccess};

/// The limits of a server's transports, and its engines' defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerConfig {
    /// Longest accepted input line in bytes; longer lines are refused with an error.
    pub max_line_bytes: usize,
    /// Most TCP clients served at once; more are told so and disconnected.
    pub max_connections: usize,
    /// Bytes of output a client may leave unread; past that its connection is closed.
    pub max_output_bytes: usize,
    /// A TCP connection that sends no complete line for this long while no search runs is
    /// closed (`None`: never).
    pub idle_timeout: Option<Duration>,
    /// The files a TCP client's options may name (a client on stdin may name any).
    pub remote_files: FileAccess,
    /// What every session's engine starts with, and what they share.
    pub engine: EngineDefaults,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            max_line_bytes: 65_536,
            max_connections: 64,
            max_output_bytes: 16 << 20,
            idle_timeout: Some(Duration::from_secs(600)),
            remote_files: FileAccess::Under(Vec::new()),
            engine: EngineDefaults::default(),
        }
    }
}
