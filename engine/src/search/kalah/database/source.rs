//! Where a search gets its database (option `KalahDatabase`), and the cache that shares
//! the last one obtained by the engines of a process.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};

use super::installed::{best_installed, default_install_seeds};
use super::{DatabaseError, KalahDatabase, MAX_DATABASE_SEEDS, database_positions};
use crate::data_dir::default_data_dir;
use crate::game::kalah::{EndRule, KalahRules};
use crate::search::kalah::pits::PitRules;

/// Where a search gets its Kalah database: found or built as needed, none, one built in
/// memory for the game's rules, or a file. Text: `auto`, `none`, a number of seeds, or a
/// path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DatabaseSource {
    /// A solve takes the installed database of the game's rules with the most seeds, or
    /// builds a small one in memory when the game is large ([`auto_build_seeds`]); other
    /// searches take the one the process holds, if it serves their rules.
    #[default]
    Auto,
    /// No database.
    None,
    /// Built in memory for every board of at most this many seeds.
    Build(u32),
    /// Read from a file written by `engine kalah-db build`.
    File(PathBuf),
}

impl std::fmt::Display for DatabaseSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DatabaseSource::Auto => f.write_str("auto"),
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
        if s.eq_ignore_ascii_case("auto") {
            Ok(DatabaseSource::Auto)
        } else if s.is_empty() || s.eq_ignore_ascii_case("none") {
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

/// Most positions of a database `auto` builds in memory: a few seconds on one core, about
/// 2.5 s on two (6 pits, 16 seeds: 30.4 M positions).
const AUTO_BUILD_POSITIONS: u64 = 32_000_000;

/// The seeds of the database `auto` builds in memory for a solve of `rules`' game, if it
/// builds one: the most that fit [`AUTO_BUILD_POSITIONS`], for games with at least 2.5
/// times as many seeds (Kalah(6,4) and (5,5) on; (6,3), (5,4) and (4,6) solve in about a
/// second without, (5,5) not in ten minutes).
#[must_use]
pub fn auto_build_seeds(rules: KalahRules) -> Option<u32> {
    let seeds = (1..=MAX_DATABASE_SEEDS)
        .take_while(|&n| database_positions(rules.pits, n) <= AUTO_BUILD_POSITIONS)
        .last()?;
    (2 * rules.total_seeds() >= 5 * seeds).then_some(seeds)
}

/// What `auto` needs to know of a search.
#[derive(Clone, Copy, Debug, Default)]
pub struct AutoContext<'a> {
    /// Where installed databases are (the data directory's `kalah` folder).
    pub dir: Option<&'a Path>,
    /// The search is a solve: it may read a file or build a database.
    pub solve: bool,
}

impl AutoContext<'_> {
    /// What `auto` stands for in a search of `rules`' game; `None`: the database held.
    fn source(&self, rules: KalahRules) -> Option<DatabaseSource> {
        if !self.solve {
            return None;
        }
        if let Some((path, _)) = self.dir.and_then(|dir| best_installed(dir, rules)) {
            return Some(DatabaseSource::File(path));
        }
        auto_build_seeds(rules).map(DatabaseSource::Build)
    }

    /// For a solve of `rules`' game that finds no installed database where one would
    /// help: how to install one, and what it costs.
    #[must_use]
    pub fn install_hint(&self, rules: KalahRules) -> Option<String> {
        let dir = self.dir?;
        if !self.solve || auto_build_seeds(rules).is_none() || best_installed(dir, rules).is_some()
        {
            return None;
        }
        let seeds = default_install_seeds(rules.pits);
        let positions = database_positions(rules.pits, seeds);
        let threads = crate::cores::available_cores();
        // Measured: 6 pits, 24 seeds, 1.25 G positions in 376 s on two threads.
        let minutes = positions as f64 * 0.6e-6 / threads as f64 / 60.0;
        let mut command = format!("engine kalah-db install {}", rules.pits);
        if !rules.empty_capture {
            command.push_str(" --no-empty-capture");
        }
        if rules.end == EndRule::MoverStuck {
            command.push_str(" --end-when-stuck");
        }
        let canonical = |d: &Path| d.canonicalize().unwrap_or_else(|_| d.to_path_buf());
        if let Some(data) = dir.parent()
            && default_data_dir().map(|d| canonical(&d)) != Some(canonical(data))
        {
            command.push_str(&format!(" --data-dir {}", data.display()));
        }
        Some(format!(
            "no Kalah database installed for {rules} in {}: `{command}` builds one of {seeds} \
             seeds there ({:.1} GB, about {} min on {threads} threads, once), which solves \
             such games many times faster",
            dir.display(),
            positions as f64 / 1e9,
            minutes.ceil().max(1.0),
        ))
    }
}

/// The last database obtained, shared by every search that asks for the same one: one
/// per process, held by whoever serves its engines (`core::Shared`, or a command).
#[derive(Debug, Default)]
pub struct DatabaseCache {
    last: Mutex<Option<(DatabaseSource, PitRules, Arc<KalahDatabase>)>>,
}

impl DatabaseCache {
    /// The database `source` gives for `rules` (`auto` as `context` says): built (or
    /// read) once, then shared until another is asked for. `progress` hears of each layer
    /// of seeds built; raising `stop` ends a build.
    ///
    /// # Errors
    /// An unreadable or damaged file, one built for other rules, or a size that does not
    /// fit in memory.
    pub fn obtain(
        &self,
        source: &DatabaseSource,
        rules: KalahRules,
        context: AutoContext<'_>,
        progress: &mut dyn FnMut(u32),
        stop: Option<&AtomicBool>,
    ) -> Result<Option<Arc<KalahDatabase>>, DatabaseError> {
        let pit_rules = PitRules::of(rules);
        let last = || self.last.lock().unwrap_or_else(PoisonError::into_inner);
        if *source == DatabaseSource::Auto {
            let held = last()
                .as_ref()
                .filter(|(_, _, db)| db.serves(&pit_rules))
                .map(|(_, _, db)| Arc::clone(db));
            return match context.source(rules) {
                Some(DatabaseSource::Build(n))
                    if held.as_ref().is_some_and(|db| db.max_seeds() >= n) =>
                {
                    Ok(held)
                }
                Some(source) => self.obtain(&source, rules, context, progress, stop),
                None => Ok(held),
            };
        }
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
            DatabaseSource::None | DatabaseSource::Auto => return Ok(None),
            DatabaseSource::Build(n) => {
                let threads = crate::cores::available_cores();
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
