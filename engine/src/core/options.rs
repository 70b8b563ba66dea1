//! The options a session offers through `setoption`, with their types and ranges.

use std::path::Path;
use std::sync::Arc;

use protocol::{OptionKind, OptionSpec};
use thiserror::Error;

use super::file_access::FileAccess;
use crate::book::{Book, read_book};
use crate::search::eval::{EvalChoice, EvalKind, Evaluator};
use crate::search::kalah::{DatabaseSource, KalahDatabase};
use crate::search::{Selectivity, Thresholds};

/// `EvalFile`'s value for the weights shipped in the engine (and `BookFile`'s for the book).
pub(crate) const BUILTIN_WEIGHTS: &str = "<builtin>";

/// `KalahSolveHash`'s default (at most `--max-hash`): a Kalah(6,4) solve takes 0.7 of the
/// time with this table as with 64 MiB.
const KALAH_SOLVE_HASH_MIB: usize = 1024;

/// A session's option values.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Transposition table size in MiB.
    pub(crate) hash_mib: usize,
    /// The table a solve of a large Kalah game may have, in MiB (option `KalahSolveHash`).
    pub(crate) kalah_solve_hash_mib: usize,
    /// Search depth and solver thresholds.
    pub(crate) thresholds: Thresholds,
    /// Send an `info` line per MTD(f) pass.
    pub(crate) pass_info: bool,
    /// Search threads a `go` asks for.
    pub(crate) threads: usize,
    /// Kalah's endgame database (option `KalahDatabase`).
    pub(crate) kalah_db: DatabaseSource,
    /// Multi-ProbCut's confidence in heuristic searches (option `Selectivity`).
    pub(crate) selectivity: Selectivity,
    default_selectivity: Selectivity,
    max_threads: usize,
    default_threads: usize,
    /// The evaluation (options `Eval` and `EvalFile`).
    eval: EvalChoice,
    default_eval: EvalChoice,
    default_hash_mib: usize,
    max_hash_mib: usize,
    /// Whether a `go` that plays a move takes it from the opening book (option `OwnBook`).
    own_book: bool,
    default_own_book: bool,
    /// The book read from `BookFile` (`None`: the shipped one).
    book_file: Option<Arc<Book>>,
    /// Book moves within this many discs of the best may be played (`BookRandomness`).
    pub(crate) book_randomness: u32,
    /// The files `EvalFile`, `BookFile` and `KalahDatabase` may name.
    files: FileAccess,
}

/// A `setoption` that cannot be applied; each names the option and the value refused.
#[derive(Debug, Error, PartialEq, Eq)]
#[allow(missing_docs)] // the fields are what the messages say
pub enum OptionError {
    /// No option of that name.
    #[error("unknown option '{name}' (options: {known})")]
    Unknown { name: String, known: String },
    /// A number outside the option's range, or not a number.
    #[error("option {name}: '{value}' is not a whole number in {min}..={max}")]
    OutOfRange {
        name: &'static str,
        value: String,
        min: i64,
        max: i64,
    },
    /// A check option's value other than `true` or `false`.
    #[error("option {name}: '{value}' is not true or false")]
    NotABool { name: &'static str, value: String },
    /// A combo option's value not among its choices.
    #[error("option {name}: '{value}' is not one of {values}")]
    NotOneOf {
        name: &'static str,
        value: String,
        values: String,
    },
    /// A file or database that cannot be used.
    #[error("option {name}: {reason}")]
    Unusable { name: &'static str, reason: String },
}

/// The names, in the order the handshake lists them.
const NAMES: [&str; 15] = [
    "Hash",
    "Threads",
    "MidDepth",
    "WldEmpties",
    "ExactEmpties",
    "SolverEmpties",
    "PassInfo",
    "Selectivity",
    "Eval",
    "EvalFile",
    "KalahDatabase",
    "KalahSolveHash",
    "OwnBook",
    "BookFile",
    "BookRandomness",
];

impl EngineOptions {
    pub(crate) fn new(
        hash_mib: usize,
        max_hash_mib: usize,
        eval: EvalChoice,
        (threads, max_threads): (usize, usize),
        files: FileAccess,
    ) -> EngineOptions {
        let hash_mib = hash_mib.min(max_hash_mib);
        EngineOptions {
            hash_mib,
            kalah_solve_hash_mib: KALAH_SOLVE_HASH_MIB.min(max_hash_mib),
            thresholds: Thresholds::default(),
            pass_info: false,
            threads: threads.clamp(1, max_threads.max(1)),
            kalah_db: DatabaseSource::Auto,
            selectivity: Selectivity::PLAY,
            default_selectivity: Selectivity::PLAY,
            max_threads: max_threads.max(1),
            default_threads: threads.clamp(1, max_threads.max(1)),
            default_eval: eval.clone(),
            eval,
            default_hash_mib: hash_mib,
            max_hash_mib,
            own_book: true,
            default_own_book: true,
            book_file: None,
            book_randomness: 0,
            files,
        }
    }

    /// The same, with `Selectivity`'s default (and value) `selectivity` (`--selectivity`).
    #[must_use]
    pub(crate) fn with_selectivity(mut self, selectivity: Selectivity) -> EngineOptions {
        self.selectivity = selectivity;
        self.default_selectivity = selectivity;
        self
    }

    /// The same, with `OwnBook`'s default (and value) `on` (`--no-book`).
    #[must_use]
    pub(crate) fn with_own_book(mut self, on: bool) -> EngineOptions {
        self.own_book = on;
        self.default_own_book = on;
        self
    }

    /// The option's type, default and range.
    fn kind(&self, name: &str) -> OptionKind {
        let t = Thresholds::default();
        let spin = |default: u32, min: i64, max: i64| OptionKind::Spin {
            default: default.into(),
            min,
            max,
        };
        match name {
            "Hash" => OptionKind::Spin {
                default: self.default_hash_mib as i64,
                min: 1,
                max: self.max_hash_mib as i64,
            },
            "KalahSolveHash" => OptionKind::Spin {
                default: KALAH_SOLVE_HASH_MIB.min(self.max_hash_mib) as i64,
                min: 1,
                max: self.max_hash_mib as i64,
            },
            "Threads" => OptionKind::Spin {
                default: self.default_threads as i64,
                min: 1,
                max: self.max_threads as i64,
            },
            "MidDepth" => spin(t.mid_depth, 1, 60),
            "WldEmpties" => spin(t.wld_empties, 0, 64),
            "ExactEmpties" => spin(t.exact_empties, 0, 64),
            "SolverEmpties" => spin(t.small_solver_empties, 0, 64),
            "BookRandomness" => spin(0, 0, 64),
            "Selectivity" => OptionKind::Combo {
                default: self.default_selectivity.to_string(),
                values: Selectivity::ALL.map(|s| s.to_string()).to_vec(),
            },
            "Eval" => OptionKind::Combo {
                default: self.default_eval.kind.to_string(),
                values: [EvalKind::Trained, EvalKind::Hand]
                    .map(|k| k.to_string())
                    .to_vec(),
            },
            "KalahDatabase" => OptionKind::String {
                default: DatabaseSource::Auto.to_string(),
            },
            "BookFile" => OptionKind::String {
                default: BUILTIN_WEIGHTS.to_string(),
            },
            "OwnBook" => OptionKind::Check {
                default: self.default_own_book,
            },
            "EvalFile" => OptionKind::String {
                default: self
                    .default_eval
                    .file
                    .as_ref()
                    .map_or_else(|| BUILTIN_WEIGHTS.to_string(), |f| f.display().to_string()),
            },
            _ => OptionKind::Check { default: false },
        }
    }

    /// The opening book a `go` plays from, unless `OwnBook` is off.
    pub(crate) fn book(&self) -> Option<Arc<Book>> {
        self.own_book
            .then(|| self.book_file.clone().unwrap_or_else(Book::builtin))
    }

    /// The evaluation the options choose.
    pub(crate) fn evaluator(&self) -> Evaluator {
        self.eval.evaluator()
    }

    /// Every option, for the handshake. Defaults are those the session started with.
    pub fn specs(&self) -> Vec<OptionSpec> {
        NAMES
            .iter()
            .map(|&name| OptionSpec {
                name: name.to_string(),
                kind: self.kind(name),
            })
            .collect()
    }

    /// Applies `setoption name <name> value <value>` (names match without regard to case).
    pub(crate) fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let Some(&name) = NAMES.iter().find(|n| n.eq_ignore_ascii_case(name)) else {
            return Err(OptionError::Unknown {
                name: name.to_string(),
                known: NAMES.join(", "),
            });
        };
        match self.kind(name) {
            OptionKind::Spin { min, max, .. } => {
                let v = value
                    .parse::<i64>()
                    .ok()
                    .filter(|v| (min..=max).contains(v))
                    .ok_or_else(|| OptionError::OutOfRange {
                        name,
                        value: value.to_string(),
                        min,
                        max,
                    })?;
                let t = &mut self.thresholds;
                // In range, so the conversions cannot fail.
                let small = u32::try_from(v).unwrap_or_default();
                match name {
                    "Hash" => self.hash_mib = usize::try_from(v).unwrap_or(1),
                    "KalahSolveHash" => {
                        self.kalah_solve_hash_mib = usize::try_from(v).unwrap_or(1);
                    }
                    "Threads" => self.threads = usize::try_from(v).unwrap_or(1),
                    "MidDepth" => t.mid_depth = small,
                    "WldEmpties" => t.wld_empties = small,
                    "ExactEmpties" => t.exact_empties = small,
                    "BookRandomness" => self.book_randomness = small,
                    _ => t.small_solver_empties = small,
                }
            }
            OptionKind::Combo { values, .. } => {
                let not_one_of = || OptionError::NotOneOf {
                    name,
                    value: value.to_string(),
                    values: values.join(", "),
                };
                if name == "Selectivity" {
                    self.selectivity = value.parse().map_err(|_| not_one_of())?;
                } else {
                    self.eval.kind = value.parse().map_err(|_| not_one_of())?;
                }
            }
            OptionKind::String { .. } if name == "KalahDatabase" => {
                let unusable = |e: &dyn std::fmt::Display| OptionError::Unusable {
                    name,
                    reason: e.to_string(),
                };
                let mut source: DatabaseSource = value.parse().map_err(|e| unusable(&e))?;
                if let DatabaseSource::File(path) = &mut source {
                    *path = self.files.resolve(path).map_err(|e| unusable(&e))?;
                    // Its header now, so that a wrong file is refused at once; its values
                    // (seconds for a large one) at the first search that needs them.
                    KalahDatabase::check_file(path).map_err(|e| unusable(&e))?;
                }
                self.kalah_db = source;
            }
            OptionKind::String { .. } if name == "BookFile" => {
                self.book_file = (value != BUILTIN_WEIGHTS)
                    .then(|| {
                        let path = self
                            .files
                            .resolve(Path::new(value))
                            .map_err(|e| e.to_string())?;
                        read_book(&path).map(Arc::new).map_err(|e| e.to_string())
                    })
                    .transpose()
                    .map_err(|reason| OptionError::Unusable { name, reason })?;
            }
            OptionKind::String { .. } => {
                let unusable = |e: &dyn std::fmt::Display| OptionError::Unusable {
                    name,
                    reason: e.to_string(),
                };
                let file = (value != BUILTIN_WEIGHTS)
                    .then(|| self.files.resolve(Path::new(value)))
                    .transpose()
                    .map_err(|e| unusable(&e))?;
                self.eval =
                    EvalChoice::new(self.eval.kind, file.as_deref()).map_err(|e| unusable(&e))?;
            }
            OptionKind::Check { .. } => {
                let on = match value {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(OptionError::NotABool {
                            name,
                            value: value.to_string(),
                        });
                    }
                };
                if name == "OwnBook" {
                    self.own_book = on;
                } else {
                    self.pass_info = on;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_set_within_their_ranges() {
        let mut o = EngineOptions::new(64, 1024, EvalChoice::default(), (1, 4), FileAccess::Any);
        o.set("hash", "128").unwrap();
        assert_eq!(o.hash_mib, 128);
        o.set("threads", "4").unwrap();
        assert_eq!(o.threads, 4);
        assert!(o.set("Threads", "5").is_err(), "above --max-threads");
        assert!(o.set("Threads", "0").is_err());
        o.set("ExactEmpties", "12").unwrap();
        assert_eq!(o.thresholds.exact_empties, 12);
        o.set("PassInfo", "true").unwrap();
        assert!(o.pass_info);
        assert!(o.set("Hash", "0").is_err());
        assert!(o.set("Hash", "2048").is_err());
        assert!(o.set("MidDepth", "deep").is_err());
        assert!(o.set("PassInfo", "yes").is_err());
        o.set("eval", "HAND").unwrap();
        assert_eq!(o.evaluator(), Evaluator::Hand);
        assert!(o.set("Eval", "neural").is_err());
        o.set("Eval", "trained").unwrap();
        assert_eq!(o.selectivity, Selectivity::PLAY);
        o.set("selectivity", "100").unwrap();
        assert_eq!(o.selectivity, Selectivity::FULL);
        assert!(o.set("Selectivity", "90").is_err());
        assert_eq!(o.selectivity, Selectivity::FULL);
        assert_eq!(o.evaluator(), Evaluator::default());
        let err = o.set("EvalFile", "/nonexistent/weights").unwrap_err();
        assert!(err.to_string().contains("/nonexistent/weights"), "{err}");
        assert_eq!(o.evaluator(), Evaluator::default());
        o.set("KalahDatabase", "12").unwrap();
        assert_eq!(o.kalah_db, DatabaseSource::Build(12));
        let err = o.set("KalahDatabase", "/nonexistent/kalah.db").unwrap_err();
        assert!(err.to_string().contains("/nonexistent/kalah.db"), "{err}");
        assert!(o.set("KalahDatabase", "1000").is_err());
        assert_eq!(o.kalah_db, DatabaseSource::Build(12));
        o.set("KalahDatabase", "none").unwrap();
        assert_eq!(o.kalah_db, DatabaseSource::None);
        assert!(matches!(
            o.set("Colour", "1"),
            Err(OptionError::Unknown { .. })
        ));
        assert_eq!(o.hash_mib, 128);
        assert_eq!(o.kalah_solve_hash_mib, 1024);
        o.set("KalahSolveHash", "512").unwrap();
        assert_eq!(o.kalah_solve_hash_mib, 512);
        assert!(o.set("KalahSolveHash", "2048").is_err(), "above --max-hash");
        let specs = o.specs();
        assert_eq!(specs.len(), NAMES.len());
        assert_eq!(
            specs[0].to_string(),
            "option name Hash type spin default 64 min 1 max 1024"
        );
    }

    #[test]
    fn a_remote_client_names_files_only_under_the_data_directories() {
        let files = FileAccess::Under(vec!["/nonexistent/data".into()]);
        let mut o = EngineOptions::new(64, 1024, EvalChoice::default(), (1, 4), files);
        for (name, path) in [
            ("EvalFile", "/etc/passwd"),
            ("KalahDatabase", "/etc/passwd"),
        ] {
            let err = o.set(name, path).unwrap_err().to_string();
            assert!(
                err.contains("--data-dir") && !err.contains("passwd"),
                "{err}"
            );
        }
        // Under the directory, the file is looked for there (and here it is missing).
        let err = o.set("EvalFile", "w.weights").unwrap_err().to_string();
        assert!(err.contains("/nonexistent/data/w.weights"), "{err}");
        o.set("KalahDatabase", "12").unwrap();
        o.set("EvalFile", BUILTIN_WEIGHTS).unwrap();
    }
}
