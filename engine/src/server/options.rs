//! The options a session offers through `setoption`, with their types and ranges.

use protocol::{OptionKind, OptionSpec};
use thiserror::Error;

use crate::search::Thresholds;

/// A session's option values.
#[derive(Clone, Debug)]
pub(crate) struct EngineOptions {
    /// Transposition table size in MiB.
    pub(crate) hash_mib: usize,
    /// Search depth and solver thresholds.
    pub(crate) thresholds: Thresholds,
    /// Send an `info` line per MTD(f) pass.
    pub(crate) pass_info: bool,
    default_hash_mib: usize,
    max_hash_mib: usize,
}

/// A `setoption` that cannot be applied.
#[derive(Debug, Error, PartialEq, Eq)]
pub(crate) enum OptionError {
    #[error("unknown option '{name}' (options: {known})")]
    Unknown { name: String, known: String },
    #[error("option {name}: '{value}' is not a whole number in {min}..={max}")]
    OutOfRange {
        name: &'static str,
        value: String,
        min: i64,
        max: i64,
    },
    #[error("option {name}: '{value}' is not true or false")]
    NotABool { name: &'static str, value: String },
}

/// The names, in the order the handshake lists them.
const NAMES: [&str; 6] = [
    "Hash",
    "MidDepth",
    "WldEmpties",
    "ExactEmpties",
    "SolverEmpties",
    "PassInfo",
];

impl EngineOptions {
    pub(crate) fn new(hash_mib: usize, max_hash_mib: usize) -> EngineOptions {
        let hash_mib = hash_mib.min(max_hash_mib);
        EngineOptions {
            hash_mib,
            thresholds: Thresholds::default(),
            pass_info: false,
            default_hash_mib: hash_mib,
            max_hash_mib,
        }
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
            "MidDepth" => spin(t.mid_depth, 1, 60),
            "WldEmpties" => spin(t.wld_empties, 0, 64),
            "ExactEmpties" => spin(t.exact_empties, 0, 64),
            "SolverEmpties" => spin(t.small_solver_empties, 0, 64),
            _ => OptionKind::Check { default: false },
        }
    }

    /// Every option, for the handshake. Defaults are those the session started with.
    pub(crate) fn specs(&self) -> Vec<OptionSpec> {
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
                    "MidDepth" => t.mid_depth = small,
                    "WldEmpties" => t.wld_empties = small,
                    "ExactEmpties" => t.exact_empties = small,
                    _ => t.small_solver_empties = small,
                }
            }
            OptionKind::Check { .. } => {
                self.pass_info = match value {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(OptionError::NotABool {
                            name,
                            value: value.to_string(),
                        });
                    }
                };
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
        let mut o = EngineOptions::new(64, 1024);
        o.set("hash", "128").unwrap();
        assert_eq!(o.hash_mib, 128);
        o.set("ExactEmpties", "12").unwrap();
        assert_eq!(o.thresholds.exact_empties, 12);
        o.set("PassInfo", "true").unwrap();
        assert!(o.pass_info);
        assert!(o.set("Hash", "0").is_err());
        assert!(o.set("Hash", "2048").is_err());
        assert!(o.set("MidDepth", "deep").is_err());
        assert!(o.set("PassInfo", "yes").is_err());
        assert!(matches!(
            o.set("Colour", "1"),
            Err(OptionError::Unknown { .. })
        ));
        assert_eq!(o.hash_mib, 128);
        let specs = o.specs();
        assert_eq!(specs.len(), NAMES.len());
        assert_eq!(
            specs[0].to_string(),
            "option name Hash type spin default 64 min 1 max 1024"
        );
    }
}
