//! The book file (`.gsb`), version 1, little-endian throughout:
//!
//! - `GSBOOK01` (8 bytes), then the number of positions (u32);
//! - per position, in increasing order of key, 23 bytes: the side to move's discs and the
//!   opponent's (u64 each, the canonical orientation: [`super::Key`]), the games that
//!   reached it (u32), and its leaf: value (i8, -64..=64), square (u8, 0..64 in the key's
//!   orientation; 255: no leaf) and search depth (u8);
//! - a CRC-32 of everything before it (u32).
//!
//! Every part is checked when read: a damaged file is an error, never a smaller book.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use flate2::Crc;
use thiserror::Error;

use super::{Book, Entry, Key, Leaf, position_of};

const MAGIC: &[u8; 8] = b"GSBOOK01";
const RECORD: usize = 23;
const NO_LEAF: u8 = 255;

/// Why a book cannot be read or written.
#[derive(Debug, Error)]
pub enum BookError {
    /// A file that may not be read (not a regular file, too large) or cannot be.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// The file could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// Why (in the message, not a source: a chain of causes would repeat it).
        error: std::io::Error,
    },
    /// Not a book, or a damaged one.
    #[error("{path}: {reason}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

/// Reads and checks a book file.
///
/// # Errors
/// A file that cannot be read, is not a book, or is damaged.
pub fn read_book(path: &Path) -> Result<Book, BookError> {
    let bytes = crate::files::read(path, crate::files::SizeLimit::BOOK)?;
    parse(&bytes, &path.display().to_string())
}

/// Reads the bytes of a book file; `name` names it in errors.
///
/// # Errors
/// Bytes that are not a whole, undamaged book.
pub fn parse(bytes: &[u8], name: &str) -> Result<Book, BookError> {
    let bad = |reason: String| BookError::Format {
        path: name.to_string(),
        reason,
    };
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err(bad("not a book file (no GSBOOK01 header)".into()));
    }
    let count = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
    let expected = count
        .checked_mul(RECORD)
        .and_then(|n| n.checked_add(16))
        .filter(|&n| n == bytes.len())
        .ok_or_else(|| {
            bad(format!(
                "{} bytes where its {count} positions need {} (cut short or damaged)",
                bytes.len(),
                count.saturating_mul(RECORD).saturating_add(16)
            ))
        })?;
    let (body, sum) = bytes.split_at(expected - 4);
    let mut crc = Crc::new();
    crc.update(body);
    if crc.sum().to_le_bytes() != sum {
        return Err(bad("its checksum does not match (damaged)".into()));
    }
    let mut entries = HashMap::with_capacity(count);
    let mut previous: Option<Key> = None;
    for (i, r) in body[12..].chunks_exact(RECORD).enumerate() {
        let word = |at: usize| u64::from_le_bytes(r[at..at + 8].try_into().expect("8 bytes"));
        let key = (word(0), word(8));
        let games = u32::from_le_bytes(r[16..20].try_into().expect("4 bytes"));
        let damaged = || bad(format!("position {} is damaged", i + 1));
        if key.0 & key.1 != 0 || previous.is_some_and(|p| p >= key) {
            return Err(damaged());
        }
        previous = Some(key);
        let leaf = match r[21] {
            NO_LEAF => None,
            square => {
                let value = r[20] as i8;
                let legal = square < 64
                    && position_of(key).moves() & (1 << square) != 0
                    && value.unsigned_abs() <= 64;
                if !legal {
                    return Err(damaged());
                }
                Some(Leaf {
                    value,
                    square,
                    depth: r[22],
                })
            }
        };
        entries.insert(key, Entry { games, leaf });
    }
    Ok(Book::new(entries))
}

/// The bytes of `book`'s file.
#[must_use]
pub fn to_bytes(book: &Book) -> Vec<u8> {
    let mut keys: Vec<&Key> = book.entries().keys().collect();
    keys.sort_unstable();
    let mut bytes = Vec::with_capacity(16 + keys.len() * RECORD);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(keys.len() as u32).to_le_bytes());
    for key in keys {
        let entry = book.entries()[key];
        bytes.extend_from_slice(&key.0.to_le_bytes());
        bytes.extend_from_slice(&key.1.to_le_bytes());
        bytes.extend_from_slice(&entry.games.to_le_bytes());
        match entry.leaf {
            Some(leaf) => bytes.extend_from_slice(&[leaf.value as u8, leaf.square, leaf.depth]),
            None => bytes.extend_from_slice(&[0, NO_LEAF, 0]),
        }
    }
    let mut crc = Crc::new();
    crc.update(&bytes);
    bytes.extend_from_slice(&crc.sum().to_le_bytes());
    bytes
}

/// Writes `book` to `path` whole: to a temporary file beside it, then renamed, so that an
/// interrupted write never leaves a damaged book in its place.
///
/// # Errors
/// When the file cannot be written.
pub fn write_book(book: &Book, path: &Path) -> Result<(), BookError> {
    let io = |error| BookError::Io {
        path: path.display().to_string(),
        error,
    };
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = std::path::PathBuf::from(temporary);
    let mut file = std::fs::File::create(&temporary).map_err(io)?;
    file.write_all(&to_bytes(book))
        .and_then(|()| file.sync_all())
        .map_err(io)?;
    std::fs::rename(&temporary, path).map_err(io)
}
