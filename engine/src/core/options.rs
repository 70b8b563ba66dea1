//! The options a session offers through `setoption`, with their types and ranges.

use std::path::Path;
use std::sync::Arc;

use protocol::{OptionKind, OptionSpec};
use thiserror::Error;

use super::file_access::FileAccess;
use crate::book::{Book, read_book};
use crate::search::kalah::{DatabaseSource, KalahDatabase};
use crate::search::othello::eval::{EvalChoice, EvalKind, Evaluator};
use crate::search::{Selectivity, SelectivitySchedule, Thresholds};

/// The value of `EvalFile` and `BookFile` that names the file shipped in the engine (the
/// trained weights, the opening book).
pub(crate) const SHIPPED_FILE: &str = "<builtin>";

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
    pub(crate) selectivity: SelectivitySchedule,
    /// The evaluation (options `Eval` and `EvalFile`).
    eval: EvalChoice,
    /// Whether a `go` that plays a move takes it from the opening book (option `OwnBook`).
    own_book: bool,
    /// The book read from `BookFile` (`None`: the shipped one).
    book_file: Option<Arc<Book>>,
    /// Book moves within this many discs of the best may be played (`BookRandomness`).
    pub(crate) book_randomness: u32,
    /// The files `EvalFile`, `BookFile` and `KalahDatabase` may name.
    files: FileAccess,
    /// What the session started with: the options' defaults and limits.
    defaults: Defaults,
}

/// The session's defaults and limits (the server's command line), which some options'
/// defaults and ranges are.
#[derive(Clone, Debug)]
struct Defaults {
    hash_mib: usize,
    max_hash_mib: usize,
    threads: usize,
    max_threads: usize,
    selectivity: SelectivitySchedule,
    eval: EvalChoice,
    own_book: bool,
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

/// One option, declared once: its name, and its kind with its default, range and what
/// setting it does.
struct Declared {
    name: &'static str,
    handler: Handler,
}

/// An option's kind, default and range (from the session's [`Defaults`]), and its setter,
/// which gets a value already checked against the kind.
enum Handler {
    /// A whole number in `min..=max`.
    Spin {
        range: fn(&Defaults) -> SpinRange,
        set: fn(&mut EngineOptions, i64),
    },
    /// `true` or `false`.
    Check {
        default: fn(&Defaults) -> bool,
        set: fn(&mut EngineOptions, bool),
    },
    /// One of `values`; the setter parses it.
    Combo {
        default: fn(&Defaults) -> String,
        values: fn() -> Vec<String>,
        set: fn(&mut EngineOptions, &str) -> Result<(), String>,
    },
    /// A word (a file, a source): the setter says why one cannot be used.
    Text {
        default: fn(&Defaults) -> String,
        set: fn(&mut EngineOptions, &str) -> Result<(), String>,
    },
}

/// A spin option's default and range.
struct SpinRange {
    default: i64,
    min: i64,
    max: i64,
}

impl SpinRange {
    fn new(default: impl TryInto<i64>, min: i64, max: impl TryInto<i64>) -> SpinRange {
        SpinRange {
            default: default.try_into().unwrap_or(i64::MAX),
            min,
            max: max.try_into().unwrap_or(i64::MAX),
        }
    }
}

/// A spin value within its range (at most a table's MiB or 64): it fits.
fn small(v: i64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// A spin value within its range, as a count.
fn count(v: i64) -> usize {
    usize::try_from(v).unwrap_or(1)
}

/// A file option's value: `None` for [`SHIPPED_FILE`], else the file it may name.
fn named_file(o: &EngineOptions, value: &str) -> Result<Option<std::path::PathBuf>, String> {
    (value != SHIPPED_FILE)
        .then(|| o.files.resolve(Path::new(value)).map_err(|e| e.to_string()))
        .transpose()
}

/// Every option, in the order the handshake lists them.
const OPTIONS: [Declared; 15] = [
    Declared {
        name: "Hash",
        handler: Handler::Spin {
            range: |d| SpinRange::new(d.hash_mib, 1, d.max_hash_mib),
            set: |o, v| o.hash_mib = count(v),
        },
    },
    Declared {
        name: "Threads",
        handler: Handler::Spin {
            range: |d| SpinRange::new(d.threads, 1, d.max_threads),
            set: |o, v| o.threads = count(v),
        },
    },
    Declared {
        name: "MidDepth",
        handler: Handler::Spin {
            range: |_| SpinRange::new(Thresholds::default().mid_depth, 1, 60),
            set: |o, v| o.thresholds.mid_depth = small(v),
        },
    },
    Declared {
        name: "WldEmpties",
        handler: Handler::Spin {
            range: |_| SpinRange::new(Thresholds::default().wld_empties, 0, 64),
            set: |o, v| o.thresholds.wld_empties = small(v),
        },
    },
    Declared {
        name: "ExactEmpties",
        handler: Handler::Spin {
            range: |_| SpinRange::new(Thresholds::default().exact_empties, 0, 64),
            set: |o, v| o.thresholds.exact_empties = small(v),
        },
    },
    Declared {
        name: "SolverEmpties",
        handler: Handler::Spin {
            range: |_| SpinRange::new(Thresholds::default().small_solver_empties, 0, 64),
            set: |o, v| o.thresholds.small_solver_empties = small(v),
        },
    },
    Declared {
        name: "PassInfo",
        handler: Handler::Check {
            default: |_| false,
            set: |o, on| o.pass_info = on,
        },
    },
    Declared {
        name: "Selectivity",
        handler: Handler::Combo {
            default: |d| d.selectivity.to_string(),
            values: || {
                std::iter::once(SelectivitySchedule::Auto.to_string())
                    .chain(Selectivity::ALL.map(|s| s.to_string()))
                    .collect()
            },
            set: |o, v| {
                o.selectivity = v.parse().map_err(|_| v.to_string())?;
                Ok(())
            },
        },
    },
    Declared {
        name: "Eval",
        handler: Handler::Combo {
            default: |d| d.eval.kind.to_string(),
            values: || {
                [EvalKind::Trained, EvalKind::Hand]
                    .map(|k| k.to_string())
                    .to_vec()
            },
            set: |o, v| {
                o.eval.kind = v.parse().map_err(|_| v.to_string())?;
                Ok(())
            },
        },
    },
    Declared {
        name: "EvalFile",
        handler: Handler::Text {
            default: |d| {
                d.eval
                    .file
                    .as_ref()
                    .map_or_else(|| SHIPPED_FILE.to_string(), |f| f.display().to_string())
            },
            set: |o, v| {
                let file = named_file(o, v)?;
                o.eval =
                    EvalChoice::new(o.eval.kind, file.as_deref()).map_err(|e| e.to_string())?;
                Ok(())
            },
        },
    },
    Declared {
        name: "KalahDatabase",
        handler: Handler::Text {
            default: |_| DatabaseSource::Auto.to_string(),
            set: |o, v| {
                let mut source: DatabaseSource = v.parse().map_err(|e| format!("{e}"))?;
                if let DatabaseSource::File(path) = &mut source {
                    *path = o.files.resolve(path).map_err(|e| e.to_string())?;
                    // Its header now, so that a wrong file is refused at once; its values
                    // (seconds for a large one) at the first search that needs them.
                    KalahDatabase::check_file(path).map_err(|e| e.to_string())?;
                }
                o.kalah_db = source;
                Ok(())
            },
        },
    },
    Declared {
        name: "KalahSolveHash",
        handler: Handler::Spin {
            range: |d| SpinRange::new(KALAH_SOLVE_HASH_MIB.min(d.max_hash_mib), 1, d.max_hash_mib),
            set: |o, v| o.kalah_solve_hash_mib = count(v),
        },
    },
    Declared {
        name: "OwnBook",
        handler: Handler::Check {
            default: |d| d.own_book,
            set: |o, on| o.own_book = on,
        },
    },
    Declared {
        name: "BookFile",
        handler: Handler::Text {
            default: |_| SHIPPED_FILE.to_string(),
            set: |o, v| {
                o.book_file = named_file(o, v)?
                    .map(|path| read_book(&path).map(Arc::new).map_err(|e| e.to_string()))
                    .transpose()?;
                Ok(())
            },
        },
    },
    Declared {
        name: "BookRandomness",
        handler: Handler::Spin {
            range: |_| SpinRange::new(0, 0, 64),
            set: |o, v| o.book_randomness = small(v),
        },
    },
];

/// The names of every option the engine offers, in the order the handshake lists them
/// (for frontends that set options by name, and the tests that keep them in step).
pub fn option_names() -> impl Iterator<Item = &'static str> {
    OPTIONS.iter().map(|o| o.name)
}

impl Handler {
    /// The kind the handshake announces, with its default and range.
    fn kind(&self, d: &Defaults) -> OptionKind {
        match self {
            Handler::Spin { range, .. } => {
                let SpinRange { default, min, max } = range(d);
                OptionKind::Spin { default, min, max }
            }
            Handler::Check { default, .. } => OptionKind::Check {
                default: default(d),
            },
            Handler::Combo {
                default, values, ..
            } => OptionKind::Combo {
                default: default(d),
                values: values(),
            },
            Handler::Text { default, .. } => OptionKind::String {
                default: default(d),
            },
        }
    }
}

impl EngineOptions {
    pub(crate) fn new(
        hash_mib: usize,
        max_hash_mib: usize,
        eval: EvalChoice,
        (threads, max_threads): (usize, usize),
        files: FileAccess,
    ) -> EngineOptions {
        let hash_mib = hash_mib.min(max_hash_mib);
        let max_threads = max_threads.max(1);
        let threads = threads.clamp(1, max_threads);
        EngineOptions {
            hash_mib,
            kalah_solve_hash_mib: KALAH_SOLVE_HASH_MIB.min(max_hash_mib),
            thresholds: Thresholds::default(),
            pass_info: false,
            threads,
            kalah_db: DatabaseSource::Auto,
            selectivity: SelectivitySchedule::PLAY,
            eval: eval.clone(),
            own_book: true,
            book_file: None,
            book_randomness: 0,
            files,
            defaults: Defaults {
                hash_mib,
                max_hash_mib,
                threads,
                max_threads,
                selectivity: SelectivitySchedule::PLAY,
                eval,
                own_book: true,
            },
        }
    }

    /// The same, with `Selectivity`'s default (and value) `selectivity` (`--selectivity`).
    #[must_use]
    pub(crate) fn with_selectivity(mut self, selectivity: SelectivitySchedule) -> EngineOptions {
        self.selectivity = selectivity;
        self.defaults.selectivity = selectivity;
        self
    }

    /// The same, with `OwnBook`'s default (and value) `on` (`--no-book`).
    #[must_use]
    pub(crate) fn with_own_book(mut self, on: bool) -> EngineOptions {
        self.own_book = on;
        self.defaults.own_book = on;
        self
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
        OPTIONS
            .iter()
            .map(|o| OptionSpec {
                name: o.name.to_string(),
                kind: o.handler.kind(&self.defaults),
            })
            .collect()
    }

    /// Applies `setoption name <name> value <value>` (names match without regard to case).
    pub(crate) fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let Some(option) = OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name)) else {
            return Err(OptionError::Unknown {
                name: name.to_string(),
                known: option_names().collect::<Vec<_>>().join(", "),
            });
        };
        let name = option.name;
        match &option.handler {
            Handler::Spin { range, set } => {
                let SpinRange { min, max, .. } = range(&self.defaults);
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
                set(self, v);
            }
            Handler::Check { set, .. } => {
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
                set(self, on);
            }
            Handler::Combo { values, set, .. } => {
                set(self, value).map_err(|_| OptionError::NotOneOf {
                    name,
                    value: value.to_string(),
                    values: values().join(", "),
                })?;
            }
            Handler::Text { set, .. } => {
                set(self, value).map_err(|reason| OptionError::Unusable { name, reason })?;
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
        assert_eq!(o.selectivity, SelectivitySchedule::PLAY);
        o.set("selectivity", "100").unwrap();
        assert_eq!(o.selectivity, Selectivity::FULL.into());
        assert!(o.set("Selectivity", "90").is_err());
        assert_eq!(o.selectivity, Selectivity::FULL.into());
        o.set("Selectivity", "auto").unwrap();
        assert_eq!(o.selectivity, SelectivitySchedule::Auto);
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
        assert_eq!(specs.len(), OPTIONS.len());
        assert_eq!(
            specs[0].to_string(),
            "option name Hash type spin default 64 min 1 max 1024"
        );
    }

    /// PROTOCOL.md's option table: (name, type, default) per row, in its order.
    fn documented_options() -> Vec<(String, String, String)> {
        let text = include_str!("../../../PROTOCOL.md");
        let table = text
            .split_once("| option | type | default | range | meaning |")
            .expect("PROTOCOL.md has the option table")
            .1;
        table
            .lines()
            .skip(2)
            .take_while(|line| line.starts_with('|'))
            .map(|row| {
                let cells: Vec<&str> = row.split('|').map(str::trim).collect();
                let word = |cell: &str| {
                    let first = cell.split(" (").next().unwrap_or_default();
                    first.trim_matches('`').to_string()
                };
                (word(cells[1]), cells[2].to_string(), word(cells[3]))
            })
            .collect()
    }

    #[test]
    fn protocol_md_lists_every_option_with_its_type_and_default() {
        let o = EngineOptions::new(64, 1024, EvalChoice::default(), (1, 4), FileAccess::Any);
        let announced: Vec<(String, String, String)> = o
            .specs()
            .into_iter()
            .map(|spec| {
                let (kind, default) = match spec.kind {
                    OptionKind::Spin { default, .. } => ("spin", default.to_string()),
                    OptionKind::Check { default } => ("check", default.to_string()),
                    OptionKind::Combo { default, .. } => ("combo", default),
                    OptionKind::String { default } => ("string", default),
                };
                (spec.name, kind.to_string(), default)
            })
            .collect();
        assert_eq!(documented_options(), announced);
    }

    #[test]
    fn every_option_has_a_setter_of_its_own_kind() {
        // Each option's default, set back, is accepted and changes nothing announced.
        let mut o = EngineOptions::new(64, 1024, EvalChoice::default(), (1, 4), FileAccess::Any);
        let before: Vec<String> = o.specs().iter().map(ToString::to_string).collect();
        for spec in o.specs() {
            let default = match spec.kind {
                OptionKind::Spin { default, .. } => default.to_string(),
                OptionKind::Check { default } => default.to_string(),
                OptionKind::Combo { default, .. } | OptionKind::String { default } => default,
            };
            o.set(&spec.name, &default)
                .unwrap_or_else(|e| panic!("{}: {e}", spec.name));
        }
        let after: Vec<String> = o.specs().iter().map(ToString::to_string).collect();
        assert_eq!(before, after);
        // A value of another kind is refused by the option's own check.
        assert!(matches!(
            o.set("OwnBook", "3"),
            Err(OptionError::NotABool {
                name: "OwnBook",
                ..
            })
        ));
        assert!(matches!(
            o.set("BookRandomness", "true"),
            Err(OptionError::OutOfRange {
                name: "BookRandomness",
                ..
            })
        ));
        assert!(matches!(
            o.set("Eval", "true"),
            Err(OptionError::NotOneOf { name: "Eval", .. })
        ));
        o.set("BookRandomness", "3").unwrap();
        assert_eq!(o.book_randomness, 3);
        o.set("OwnBook", "false").unwrap();
        assert!(o.book().is_none());
        o.set("SolverEmpties", "10").unwrap();
        assert_eq!(o.thresholds.small_solver_empties, 10);
        o.set("WldEmpties", "22").unwrap();
        assert_eq!(o.thresholds.wld_empties, 22);
        o.set("MidDepth", "7").unwrap();
        assert_eq!(o.thresholds.mid_depth, 7);
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
        o.set("EvalFile", SHIPPED_FILE).unwrap();
    }
}
