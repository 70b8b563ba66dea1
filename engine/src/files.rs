//! Reading the files the engine is given (weights, books, databases, game records,
//! openings, labels, results), bounded: only a regular file is read, and none past its
//! format's largest size. Both are refused with a one-line reason before anything is
//! allocated, so that `/dev/zero`, a pipe or a huge file cannot exhaust memory.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use thiserror::Error;

/// The largest size of a file format, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeLimit {
    /// What the files are, as the refusal names them.
    pub what: &'static str,
    /// The largest size accepted.
    pub bytes: u64,
}

const MIB: u64 = 1 << 20;
const GIB: u64 = 1 << 30;

impl SizeLimit {
    /// Text files of positions (FFO/OBF suites, position lists) and opening lists.
    pub const POSITION_LIST: SizeLimit = SizeLimit {
        what: "position list",
        bytes: 256 * MIB,
    };
    /// An opening book (`engine book build`: the shipped one is under 1 MiB).
    pub const BOOK: SizeLimit = SizeLimit {
        what: "book",
        bytes: GIB,
    };
    /// A game-record file (WTHOR, Logistello, GGF).
    pub const GAME_RECORDS: SizeLimit = SizeLimit {
        what: "game-record file",
        bytes: 4 * GIB,
    };
    /// A labels or self-play file of `engine label` / `engine selfplay`.
    pub const LABELS: SizeLimit = SizeLimit {
        what: "labels file",
        bytes: 8 * GIB,
    };
    /// A match's results (JSON lines).
    pub const RESULTS: SizeLimit = SizeLimit {
        what: "results file",
        bytes: 4 * GIB,
    };
    /// A Kalah endgame database (6 pits, 16 seeds: 1.25 GB; its header tells the rest).
    pub const KALAH_DATABASE: SizeLimit = SizeLimit {
        what: "Kalah database",
        bytes: 256 * GIB,
    };
}

/// A file that cannot be read, or may not be.
#[derive(Debug, Error)]
pub enum FileError {
    /// The system refused it (missing, unreadable).
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A directory, device, pipe or socket.
    #[error("{path} is not a regular file")]
    NotARegularFile {
        /// The file.
        path: String,
    },
    /// Larger than its format can be.
    #[error("{path} is {size} bytes, more than a {} can be ({} bytes)", limit.what, limit.bytes)]
    TooLarge {
        /// The file.
        path: String,
        /// Its size.
        size: u64,
        /// Its format's limit.
        limit: SizeLimit,
    },
    /// Text that is not UTF-8.
    #[error("{path} is not UTF-8 text")]
    NotText {
        /// The file.
        path: String,
    },
}

impl FileError {
    /// Whether the file does not exist (which some readers take as empty).
    #[must_use]
    pub fn is_not_found(&self) -> bool {
        matches!(self, FileError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }
}

/// Opens `path` for reading if it is a regular file within `limit`; the reader stops at
/// the limit even if the file grows.
///
/// # Errors
/// A file that is missing or unreadable, not a regular file, or too large.
pub fn open(path: &Path, limit: SizeLimit) -> Result<std::io::Take<File>, FileError> {
    open_sized(path, limit).map(|(file, _)| file)
}

/// [`open`], and the file's size as it was checked.
fn open_sized(path: &Path, limit: SizeLimit) -> Result<(std::io::Take<File>, u64), FileError> {
    let name = || path.display().to_string();
    let io = |source| FileError::Io {
        path: name(),
        source,
    };
    // Checked before opening: opening a pipe with no writer would wait for one.
    let size = regular_size(&std::fs::metadata(path).map_err(io)?, path)?;
    let file = File::open(path).map_err(io)?;
    // And again on what was opened, which a rename in between could have changed.
    let size = size.max(regular_size(&file.metadata().map_err(io)?, path)?);
    if size > limit.bytes {
        return Err(FileError::TooLarge {
            path: name(),
            size,
            limit,
        });
    }
    Ok((file.take(limit.bytes), size))
}

fn regular_size(metadata: &std::fs::Metadata, path: &Path) -> Result<u64, FileError> {
    if metadata.is_file() {
        Ok(metadata.len())
    } else {
        Err(FileError::NotARegularFile {
            path: path.display().to_string(),
        })
    }
}

/// The bytes of `path`, a regular file within `limit`.
///
/// # Errors
/// As [`open`], and a read that fails.
pub fn read(path: &Path, limit: SizeLimit) -> Result<Vec<u8>, FileError> {
    let (mut file, size) = open_sized(path, limit)?;
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.read_to_end(&mut bytes)
        .map_err(|source| FileError::Io {
            path: path.display().to_string(),
            source,
        })?;
    Ok(bytes)
}

/// The text of `path`, a regular file within `limit`.
///
/// # Errors
/// As [`read`], and text that is not UTF-8.
pub fn read_text(path: &Path, limit: SizeLimit) -> Result<String, FileError> {
    String::from_utf8(read(path, limit)?).map_err(|_| FileError::NotText {
        path: path.display().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small.txt");
        std::fs::write(&small, "f5 d6\n").unwrap();
        assert_eq!(
            read_text(&small, SizeLimit::POSITION_LIST).unwrap(),
            "f5 d6\n"
        );
        let tiny = SizeLimit {
            what: "test file",
            bytes: 3,
        };
        let err = read(&small, tiny).unwrap_err().to_string();
        assert!(
            err.contains("6 bytes, more than a test file can be (3 bytes)"),
            "{err}"
        );
        let err = read(dir.path(), SizeLimit::BOOK).unwrap_err().to_string();
        assert!(err.ends_with("is not a regular file"), "{err}");
        let err = read(Path::new("/dev/zero"), SizeLimit::BOOK)
            .unwrap_err()
            .to_string();
        assert_eq!(err, "/dev/zero is not a regular file");
        let err = read(&dir.path().join("missing"), SizeLimit::BOOK).unwrap_err();
        assert!(matches!(err, FileError::Io { .. }), "{err}");
        std::fs::write(&small, [0xff, 0xfe]).unwrap();
        let err = read_text(&small, SizeLimit::POSITION_LIST).unwrap_err();
        assert!(matches!(err, FileError::NotText { .. }), "{err}");
    }
}
