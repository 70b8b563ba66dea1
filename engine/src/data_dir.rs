//! The engine's data directory: where `engine kalah-db install` puts Kalah databases and
//! where `KalahDatabase auto` finds them (its `kalah` folder), and where a TCP client may
//! name files in options. Chosen by `--data-dir`, else the environment variable
//! [`DATA_DIR_ENV`], else the platform's data directory (`~/.local/share/gamesearch` on
//! Linux, `~/Library/Application Support/gamesearch` on macOS, `%APPDATA%\gamesearch` on
//! Windows).

use std::path::{Path, PathBuf};

/// The environment variable that names the data directory.
pub const DATA_DIR_ENV: &str = "GAMESEARCH_DATA_DIR";

/// The data directory when no command-line flag names one: [`DATA_DIR_ENV`] if set and not
/// empty, else the platform's; `None` on a platform without one.
#[must_use]
pub fn default_data_dir() -> Option<PathBuf> {
    match std::env::var_os(DATA_DIR_ENV) {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
        _ => dirs::data_dir().map(|dir| dir.join(crate::ENGINE_NAME)),
    }
}

/// Where the Kalah databases of the data directory `data` are kept.
#[must_use]
pub fn kalah_dir(data: &Path) -> PathBuf {
    data.join("kalah")
}
