//! Where a search gets its database (option `KalahDatabase`), and the cache that shares
//! the last one obtained by the engines of a process.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};

use super::{DatabaseError, KalahDatabase, MAX_DATABASE_SEEDS};
use crate::game::kalah::KalahRules;
use crate::search::kalah::pits::PitRules;

/// Where a search gets its Kalah database: none, one built in memory for the game's rules,
/// or a file. Text: `none`, a number of seeds, or a path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DatabaseSource {
    /// No database.
    #[default]
    None,
    /// Built in memory for every board of at most this many seeds.
    Build(u32),
    /// Read from a file written by `engine kalah-db build`.
    File(PathBuf),
}

impl std::fmt::Display for DatabaseSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DatabaseSource::None => f.write_str("none"),
            DatabaseSource::Build(n) => write!(f, "{n}"),
            DatabaseSource::File(path) => write!(f, "{}", path.display()),
        }
    }
}

impl std::str::FromStr for DatabaseSource {
    type Err = DatabaseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.is_empty() || s.eq_ignore_ascii_case("none") {
            Ok(DatabaseSource::None)
        } else if s.bytes().all(|b| b.is_ascii_digit()) {
            match s.parse::<u32>() {
                Ok(n) if n <= MAX_DATABASE_SEEDS => Ok(DatabaseSource::Build(n)),
                _ => Err(DatabaseError::Format(format!(
                    "{s} seeds: at most {MAX_DATABASE_SEEDS}"
                ))),
            }
        } else {
            Ok(DatabaseSource::File(PathBuf::from(s)))
        }
    }
}

/// The last database obtained, shared by every search that asks for the same one: one
/// per process, held by whoever serves its engines (`core::Shared`, or a command).
#[derive(Debug, Default)]
pub struct DatabaseCache {
    last: Mutex<Option<(DatabaseSource, PitRules, Arc<KalahDatabase>)>>,
}

impl DatabaseCache {
    /// The database `source` gives for `rules`: built (or read) once, then shared until
    /// another is asked for. `progress` hears of each layer of seeds built; raising `stop`
    /// ends a build.
    ///
    /// # Errors
    /// An unreadable or damaged file, one built for other rules, or a size that does not
    /// fit in memory.
    pub fn obtain(
        &self,
        source: &DatabaseSource,
        rules: KalahRules,
        progress: &mut dyn FnMut(u32),
        stop: Option<&AtomicBool>,
    ) -> Result<Option<Arc<KalahDatabase>>, DatabaseError> {
        let pit_rules = PitRules::of(rules);
        let last = || self.last.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((cached, r, db)) = last().as_ref()
            && cached == source
            && (*r == pit_rules || matches!(source, DatabaseSource::File(_)))
        {
            db.check_rules(rules)?;
            return Ok(Some(Arc::clone(db)));
        }
        // Built or read without the lock, so that a search waiting for another's
        // database can still be stopped.
        let db = match source {
            DatabaseSource::None => return Ok(None),
            DatabaseSource::Build(n) => {
                let threads = std::thread::available_parallelism().map_or(1, usize::from);
                KalahDatabase::build(rules, *n, threads, progress, stop)?
            }
            DatabaseSource::File(path) => {
                let db = KalahDatabase::load(path)?;
                db.check_rules(rules)?;
                db
            }
        };
        let db = Arc::new(db);
        *last() = Some((source.clone(), pit_rules, Arc::clone(&db)));
        Ok(Some(db))
    }
}
