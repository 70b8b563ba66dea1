//! Which files a session's options (`EvalFile`, `KalahDatabase`) may name. A local client
//! (stdin, NBoard) may name any file the engine can read; a TCP client only files under
//! the directories the command line allowed (`--data-dir`), unless it allowed every file
//! (`--allow-remote-files`). Otherwise any client of a server listening on a network could
//! make it read any file, and learn from the error whether the file exists.

use std::path::{Component, Path, PathBuf};

use thiserror::Error;

/// The files a session may name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum FileAccess {
    /// Any file.
    #[default]
    Any,
    /// Files under these directories only (none: no file at all). A relative path is
    /// taken under the first.
    Under(Vec<PathBuf>),
}

/// A path a TCP client may not name. The text is the same whether the file exists or not.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("{0}")]
pub struct NotAllowed(String);

impl FileAccess {
    /// The path to open for `path`, or why it may not be opened.
    ///
    /// # Errors
    /// When `path` is not under an allowed directory, or climbs out of one with `..`.
    pub fn resolve(&self, path: &Path) -> Result<PathBuf, NotAllowed> {
        let FileAccess::Under(dirs) = self else {
            return Ok(path.to_path_buf());
        };
        let Some(first) = dirs.first() else {
            return Err(NotAllowed(
                "a TCP client may not name files on this server (it was started without \
                 --data-dir)"
                    .into(),
            ));
        };
        let refused = || {
            let dirs: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
            NotAllowed(format!(
                "a TCP client may name only files under {} (--data-dir), by a path \
                 without '..'",
                dirs.join(", ")
            ))
        };
        if path.components().any(|c| matches!(c, Component::ParentDir)) {
            return Err(refused());
        }
        let full = if path.is_absolute() {
            path.to_path_buf()
        } else {
            first.join(path)
        };
        if dirs.iter().any(|dir| full.starts_with(dir)) {
            Ok(full)
        } else {
            Err(refused())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paths_under_the_allowed_directories() {
        let any = FileAccess::Any;
        assert_eq!(
            any.resolve(Path::new("/etc/passwd")).unwrap(),
            Path::new("/etc/passwd")
        );
        let none = FileAccess::Under(Vec::new());
        assert!(none.resolve(Path::new("weights")).is_err());
        let data = FileAccess::Under(vec!["/srv/engine".into(), "/data/kalah".into()]);
        assert_eq!(
            data.resolve(Path::new("w.weights")).unwrap(),
            Path::new("/srv/engine/w.weights")
        );
        assert_eq!(
            data.resolve(Path::new("/data/kalah/k6.db")).unwrap(),
            Path::new("/data/kalah/k6.db")
        );
        for bad in [
            "/etc/passwd",
            "../etc/passwd",
            "/srv/engine/../../etc/passwd",
            "/srv/engine-other/w",
        ] {
            let err = data.resolve(Path::new(bad)).unwrap_err();
            assert!(!err.to_string().contains("passwd"), "{err}");
        }
        // The same refusal whether the file exists or not.
        assert_eq!(
            data.resolve(Path::new("/etc/passwd")),
            data.resolve(Path::new("/no/such/file"))
        );
    }
}
