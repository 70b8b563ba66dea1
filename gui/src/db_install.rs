//! Installing a Kalah database from the GUI: `engine kalah-db install` run on a thread of
//! this process, into the data directory where our engine's `KalahDatabase auto` (the
//! default) finds it, with its progress for a bar and a way to cancel it (what was built
//! is kept, and the next install resumes from it).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};

use engine::game::kalah::KalahRules;
use engine::search::kalah::{
    KalahDatabase, best_installed, database_positions, default_install_seeds,
};

/// What the GUI knows of the database a Kalah game could use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatabaseState {
    /// Installed: the file and the most seeds it covers.
    Installed(PathBuf, u32),
    /// None installed for the game's board and rules.
    Missing,
}

/// The installed database for `rules` in `dir`, if any.
#[must_use]
pub fn database_state(dir: &Path, rules: KalahRules) -> DatabaseState {
    match best_installed(dir, rules) {
        Some((path, seeds)) => DatabaseState::Installed(path, seeds),
        None => DatabaseState::Missing,
    }
}

/// What installing the default database for `rules` costs: seeds, positions (= bytes).
#[must_use]
pub fn install_size(rules: KalahRules) -> (u32, u64) {
    let seeds = default_install_seeds(rules.pits);
    (seeds, database_positions(rules.pits, seeds))
}

/// An install running on its own thread.
pub struct Install {
    /// The board and rules it is for.
    pub rules: KalahRules,
    done: Arc<AtomicU64>,
    total: u64,
    stop: Arc<AtomicBool>,
    result: mpsc::Receiver<Result<PathBuf, String>>,
}

impl Install {
    /// Starts building the default database for `rules` into `dir` on every core;
    /// `repaint` is called after each layer of seeds.
    #[must_use]
    pub fn start(dir: PathBuf, rules: KalahRules, repaint: Arc<dyn Fn() + Send + Sync>) -> Install {
        let (seeds, total) = install_size(rules);
        let done = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, result) = mpsc::channel();
        let (thread_done, thread_stop) = (Arc::clone(&done), Arc::clone(&stop));
        std::thread::spawn(move || {
            let threads = engine::cores::available_cores();
            let outcome = KalahDatabase::install(
                &dir,
                rules,
                seeds,
                threads,
                &mut |n, _| {
                    thread_done.store(database_positions(rules.pits, n), Ordering::Relaxed);
                    repaint();
                },
                Some(&thread_stop),
            );
            let _ = tx.send(outcome.map_err(|e| e.to_string()));
            repaint();
        });
        Install {
            rules,
            done,
            total,
            stop,
            result,
        }
    }

    /// The share of the positions built, 0 to 1.
    #[must_use]
    pub fn fraction(&self) -> f32 {
        (self.done.load(Ordering::Relaxed) as f64 / self.total.max(1) as f64) as f32
    }

    /// Asks the install to stop (the layers built are kept for the next one).
    pub fn cancel(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The outcome, once it has ended: the file, or why not (`stopped while building`
    /// after [`Install::cancel`]).
    #[must_use]
    pub fn finished(&self) -> Option<Result<PathBuf, String>> {
        match self.result.try_recv() {
            Ok(outcome) => Some(outcome),
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => {
                Some(Err("the install's thread ended without a result".into()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_install_builds_the_database_auto_finds() {
        let dir = tempfile::tempdir().unwrap();
        let rules: KalahRules = "kalah2x3".parse().unwrap();
        assert_eq!(database_state(dir.path(), rules), DatabaseState::Missing);
        let install = Install::start(dir.path().to_path_buf(), rules, Arc::new(|| {}));
        let outcome = loop {
            if let Some(outcome) = install.finished() {
                break outcome;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        let path = outcome.unwrap();
        assert_eq!(install.fraction(), 1.0);
        let (seeds, _) = install_size(rules);
        assert_eq!(
            database_state(dir.path(), rules),
            DatabaseState::Installed(path, seeds)
        );
    }
}
