//! Databases installed in the data directory's `kalah` folder: named by board and rules,
//! found by `KalahDatabase auto`, listed by `engine kalah-db list`, and built there by
//! `engine kalah-db install`, which keeps each finished layer of seeds in a `.partial`
//! file so that an interrupted install resumes where it stopped.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;

use super::file::{HEADER, header_of, parse_header};
use super::{
    DatabaseError, KalahDatabase, Storage, database_positions, describe, layer, whole_layers,
};
use crate::game::kalah::{EndRule, KalahRules};
use crate::search::kalah::pits::PitRules;

/// A Kalah database file in the data directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Installed {
    /// The file.
    pub path: PathBuf,
    /// Its size on disk in bytes.
    pub bytes: u64,
    /// What it covers, or why it cannot be used.
    pub content: Result<InstalledContent, String>,
}

/// What an installed database covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstalledContent {
    rules: PitRules,
    /// Most seeds on the board it values.
    pub max_seeds: u32,
    /// An install not finished: how many layers of seeds (0, 1, ...) it has built.
    pub partial: Option<u32>,
}

impl InstalledContent {
    /// The board and rules, as [`KalahDatabase::describe`] gives them.
    #[must_use]
    pub fn describe(&self) -> String {
        describe(&self.rules, self.max_seeds)
    }
}

const PARTIAL: &str = "partial";

/// The file name `install` gives the database of `rules`' board and rule set with at most
/// `max_seeds` seeds: `kalah6-24.db`, `kalah6-24-noemptycapture-endwhenstuck.db` (the
/// suffixes of the game ids).
#[must_use]
pub fn installed_name(rules: KalahRules, max_seeds: u32) -> String {
    let mut name = format!("kalah{}-{max_seeds}", rules.pits);
    if !rules.empty_capture {
        name.push_str("-noemptycapture");
    }
    if rules.end == EndRule::MoverStuck {
        name.push_str("-endwhenstuck");
    }
    name + ".db"
}

/// The seeds `install` covers by default for boards of `pits` pits a side: four seeds a pit
/// on both sides, but at most about 1.3 G positions (a byte each in memory and on disk).
#[must_use]
pub fn default_install_seeds(pits: u8) -> u32 {
    let most = (1..=8 * u32::from(pits))
        .take_while(|&n| database_positions(pits, n) <= 1_300_000_000)
        .last();
    most.unwrap_or(0)
}

/// Every database file (`*.db`, and unfinished installs `*.db.partial`) in `dir`, by name;
/// nothing if the folder does not exist.
///
/// # Errors
/// A folder that exists and cannot be read.
pub fn list_installed(dir: &Path) -> std::io::Result<Vec<Installed>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut found: Vec<Installed> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.is_file()
                && matches!(
                    path.extension().and_then(|e| e.to_str()),
                    Some("db" | PARTIAL)
                )
        })
        .map(|path| {
            let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
            let content = read_content(&path, bytes).map_err(|e| e.to_string());
            Installed {
                path,
                bytes,
                content,
            }
        })
        .collect();
    found.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(found)
}

fn read_content(path: &Path, bytes: u64) -> Result<InstalledContent, DatabaseError> {
    let (rules, max_seeds) = KalahDatabase::file_header(path)?;
    let partial = (path.extension().and_then(|e| e.to_str()) == Some(PARTIAL)).then(|| {
        whole_layers(
            &rules,
            max_seeds,
            bytes.saturating_sub(HEADER as u64) as usize,
        )
    });
    Ok(InstalledContent {
        rules,
        max_seeds,
        partial,
    })
}

/// The finished database in `dir` for `rules`' board and rule set with the most seeds
/// (none when the folder cannot be read).
#[must_use]
pub fn best_installed(dir: &Path, rules: KalahRules) -> Option<(PathBuf, u32)> {
    let rules = PitRules::of(rules);
    list_installed(dir)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|found| match found.content {
            Ok(c) if c.rules == rules && c.partial.is_none() => Some((found.path, c.max_seeds)),
            _ => None,
        })
        .max_by_key(|&(_, seeds)| seeds)
}

impl KalahDatabase {
    /// Builds the database of `rules`' board and rule set with at most `max_seeds` seeds
    /// into `dir` (made if missing) under [`installed_name`], on `threads` threads; returns
    /// its path. Each finished layer is kept in `<name>.partial`, from which a later
    /// install resumes (`progress` hears of each layer, with `true` for those found there). The finished
    /// database is written plain (read at about 2 G positions a second) and checked.
    ///
    /// # Errors
    /// When a file cannot be written or read, a partial file is for other rules, or
    /// `stop` was raised (what was built stays in the partial file).
    pub fn install(
        dir: &Path,
        rules: KalahRules,
        max_seeds: u32,
        threads: usize,
        progress: &mut dyn FnMut(u32, bool),
        stop: Option<&AtomicBool>,
    ) -> Result<PathBuf, DatabaseError> {
        let pit_rules = PitRules::of(rules);
        KalahDatabase::positions_for(&pit_rules, max_seeds)?;
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let path = dir.join(installed_name(rules, max_seeds));
        let partial_path = path.with_extension(format!("db.{PARTIAL}"));
        let (mut partial, done) = open_partial(&partial_path, pit_rules, max_seeds)?;
        for n in 0..whole_layers(&pit_rules, max_seeds, done.len()) {
            progress(n, true);
        }
        let db = KalahDatabase::build_resuming(
            rules,
            max_seeds,
            threads,
            done,
            &mut |n, layer| {
                for chunk in layer.chunks(1 << 16) {
                    let bytes: Vec<u8> = chunk.iter().map(|v| v.load(Relaxed) as u8).collect();
                    partial.write_all(&bytes).map_err(io(&partial_path))?;
                }
                partial.sync_data().map_err(io(&partial_path))?;
                progress(n, false);
                Ok(())
            },
            stop,
        )?;
        let written = path.with_extension("db.writing");
        db.save(&written, Storage::Plain)?;
        // Read back whole (its CRC checked) once the built copy is freed.
        drop(db);
        KalahDatabase::load(&written)?;
        std::fs::rename(&written, &path).map_err(io(&path))?;
        std::fs::remove_file(&partial_path).map_err(io(&partial_path))?;
        Ok(path)
    }
}

/// The partial file, opened for appending after its whole layers (a layer cut short is
/// dropped), and the values of those layers; a new one if there is none.
fn open_partial(
    path: &Path,
    rules: PitRules,
    max_seeds: u32,
) -> Result<(File, Vec<u8>), DatabaseError> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(io(path))?;
    let len = file.metadata().map_err(io(path))?.len();
    let mut values = Vec::new();
    if len >= HEADER as u64 {
        let mut header = [0u8; HEADER];
        file.read_exact(&mut header).map_err(io(path))?;
        let found = parse_header(&header)?;
        if found != (rules, max_seeds) {
            return Err(DatabaseError::Format(format!(
                "{}: an unfinished install of {}, not of {}; remove it",
                path.display(),
                describe(&found.0, found.1),
                describe(&rules, max_seeds)
            )));
        }
        let layers = whole_layers(&rules, max_seeds, (len - HEADER as u64) as usize);
        values = vec![
            0u8;
            layers
                .checked_sub(1)
                .map_or(0, |last| layer(&rules, last).end)
        ];
        file.read_exact(&mut values).map_err(io(path))?;
        check_values(&rules, max_seeds, &values)?;
    } else {
        file.write_all(&header_of(&rules, max_seeds))
            .map_err(io(path))?;
    }
    let end = (HEADER + values.len()) as u64;
    file.set_len(end)
        .and_then(|()| file.seek(SeekFrom::Start(end)).map(drop))
        .map_err(io(path))?;
    Ok((file, values))
}

/// Every value of a layer of n seeds lies in -n..=n.
fn check_values(rules: &PitRules, max_seeds: u32, values: &[u8]) -> Result<(), DatabaseError> {
    for n in 0..whole_layers(rules, max_seeds, values.len()) {
        let bound = n.min(127) as i8;
        if values[layer(rules, n)]
            .iter()
            .any(|&v| !(-bound..=bound).contains(&(v as i8)))
        {
            return Err(DatabaseError::Format(format!(
                "the unfinished install's layer of {n} seeds is damaged; remove the .partial file"
            )));
        }
    }
    Ok(())
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> DatabaseError + '_ {
    move |source| DatabaseError::Io {
        path: path.display().to_string(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::kalah::auto_build_seeds;

    #[test]
    fn installs_are_named_and_sized_by_board() {
        let rules = |id: &str| id.parse::<KalahRules>().unwrap();
        assert_eq!(installed_name(rules("kalah6x4"), 24), "kalah6-24.db");
        assert_eq!(
            installed_name(rules("kalah5x5-noemptycapture"), 28),
            "kalah5-28-noemptycapture.db"
        );
        let sizes: Vec<u32> = (1..=6).map(default_install_seeds).collect();
        assert_eq!(sizes, [8, 16, 24, 32, 31, 24]);
        // `auto` builds in memory only for boards a plain solve finds hard.
        assert_eq!(auto_build_seeds(rules("kalah6x4")), Some(16));
        assert_eq!(auto_build_seeds(rules("kalah5x5")), Some(20));
        assert_eq!(auto_build_seeds(rules("kalah6x3")), None);
        assert_eq!(auto_build_seeds(rules("kalah5x4")), None);
        assert_eq!(auto_build_seeds(rules("kalah4x6")), None);
    }
}
