//! The processor cores this process may use, read once: the system answers from cgroup
//! files (about 1.5 ms a read), and the command line's defaults and the GUI's frames ask
//! for it many times.

use std::sync::OnceLock;

/// The cores this process may use (at least 1).
#[must_use]
pub fn available_cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}
