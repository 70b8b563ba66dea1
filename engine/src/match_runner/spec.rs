//! An engine in a match: how to reach it, its name, its search settings and options.

use std::fmt;
use std::str::FromStr;

use protocol::{Algorithm, Endpoint, Go};
use thiserror::Error;

use crate::level::Level;

/// What `level=` takes (1 to [`crate::level::TOP`]).
const LEVEL_RANGE: &str = "a level from 1 to 10";

/// One participant of a match, as given by `--engine "name=A depth=6 option.Hash=32"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Its name in reports and records.
    pub name: String,
    /// How to reach it (`cmd=...`, `tcp=host:port` or `nboard=...`; our own binary when
    /// none is given).
    pub endpoint: Endpoint,
    /// True when it speaks NBoard (`nboard=<command line>`).
    pub nboard: bool,
    /// `algorithm=...`. (`level=N` sets the depth or time per move and the options of
    /// a [`Level`]; keys after it override them.)
    pub algorithm: Option<Algorithm>,
    /// `depth=N` per move.
    pub depth: Option<u32>,
    /// `level=N`: its depth (where no `depth=` is given), time and options.
    pub level: Option<Level>,
    /// `nodes=N` per move.
    pub nodes: Option<u64>,
    /// `movetime=MS` per move.
    pub movetime: Option<u64>,
    /// `option.<Name>=<value>` (and `hash=MIB` for `option.Hash`, `threads=N` for
    /// `option.Threads`), sent with `setoption`.
    pub options: Vec<(String, String)>,
}

/// A spec that cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SpecError {
    /// Quotes do not balance.
    #[error("cannot split engine spec '{0}': unbalanced quotes")]
    Quoting(String),
    /// A word without `=`.
    #[error("engine spec: '{0}' is not key=value")]
    NotKeyValue(String),
    /// An unknown key.
    #[error(
        "engine spec: unknown key '{0}' (name, cmd, tcp, nboard, level, algorithm, depth, nodes, movetime, hash, threads, option.<Name>)"
    )]
    UnknownKey(String),
    /// A value of the wrong kind.
    #[error("engine spec: {key}={value} is not {expected}")]
    BadValue {
        /// The key, as written in the spec.
        key: String,
        /// The value it could not take.
        value: String,
        /// What it takes.
        expected: &'static str,
    },
    /// More than one of `cmd`, `tcp`, `nboard`.
    #[error("engine spec: give one of cmd, tcp or nboard")]
    TwoEndpoints,
}

impl EngineSpec {
    /// The `go` for one move of this engine in a position with `empties` empty squares
    /// (Othello; a level's depth depends on it), with the side to move's clock if any.
    #[must_use]
    pub fn go(&self, clock: Option<protocol::TimeControl>, empties: Option<u32>) -> Go {
        Go {
            algorithm: self.algorithm,
            depth: self
                .depth
                .or_else(|| self.level.and_then(|l| l.depth_at(empties))),
            nodes: self.nodes,
            movetime: self.movetime,
            time: clock,
            ..Go::default()
        }
    }

    /// Reads a spec; `default_endpoint` applies when it names neither `cmd` nor `tcp`.
    ///
    /// # Errors
    /// [`SpecError`] for anything that is not a valid spec.
    pub fn parse(text: &str, default_endpoint: &Endpoint) -> Result<EngineSpec, SpecError> {
        let words = shell_words::split(text).map_err(|_| SpecError::Quoting(text.into()))?;
        let mut spec = EngineSpec {
            name: String::new(),
            endpoint: default_endpoint.clone(),
            nboard: false,
            algorithm: None,
            depth: None,
            level: None,
            nodes: None,
            movetime: None,
            options: Vec::new(),
        };
        let mut endpoint_given = false;
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SpecError::NotKeyValue(word.clone()))?;
            let bad = |expected| SpecError::BadValue {
                key: key.into(),
                value: value.into(),
                expected,
            };
            match key {
                "name" => spec.name = value.to_string(),
                "cmd" | "tcp" | "nboard" => {
                    if endpoint_given {
                        return Err(SpecError::TwoEndpoints);
                    }
                    endpoint_given = true;
                    spec.nboard = key == "nboard";
                    spec.endpoint = if key == "tcp" {
                        Endpoint::Tcp(value.to_string())
                    } else {
                        value.parse().map_err(|_| bad("a command line"))?
                    };
                }
                "level" => {
                    let level = value
                        .parse()
                        .ok()
                        .and_then(Level::get)
                        .ok_or_else(|| bad(LEVEL_RANGE))?;
                    spec.level = Some(level);
                    spec.movetime = level.movetime_ms;
                    spec.options.extend(level.options());
                }
                "algorithm" => {
                    spec.algorithm = Some(value.parse().map_err(|_| bad("an algorithm"))?)
                }
                "depth" => spec.depth = Some(positive(value).ok_or_else(|| bad("a depth >= 1"))?),
                "nodes" => spec.nodes = Some(positive(value).ok_or_else(|| bad("a count >= 1"))?),
                "movetime" => {
                    spec.movetime = Some(positive(value).ok_or_else(|| bad("milliseconds >= 1"))?);
                }
                "hash" => spec.options.push(("Hash".into(), value.to_string())),
                "threads" => spec.options.push(("Threads".into(), value.to_string())),
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() && !value.is_empty() => {
                        spec.options.push((name.to_string(), value.to_string()));
                    }
                    _ => return Err(SpecError::UnknownKey(key.to_string())),
                },
            }
        }
        if spec.name.is_empty() {
            spec.name = spec.default_name();
        }
        Ok(spec)
    }

    /// A name from the settings, for specs that give none.
    fn default_name(&self) -> String {
        let mut parts = vec![self.algorithm.map_or("engine", Algorithm::name).to_string()];
        if let Some(d) = self.depth {
            parts.push(format!("d{d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("n{n}"));
        }
        if let Some(t) = self.movetime {
            parts.push(format!("t{t}"));
        }
        parts.join("-")
    }
}

fn positive<T: FromStr + PartialOrd + Default>(value: &str) -> Option<T> {
    value.parse().ok().filter(|v| *v > T::default())
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name, self.endpoint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_their_keys() {
        let me = Endpoint::Command(vec!["engine".into()]);
        let spec = EngineSpec::parse(
            "name=deep depth=6 algorithm=negascout option.MidDepth=8 hash=16",
            &me,
        )
        .unwrap();
        assert_eq!(spec.name, "deep");
        assert_eq!(spec.endpoint, me);
        assert_eq!(spec.depth, Some(6));
        assert_eq!(spec.algorithm, Some(Algorithm::NegaScout));
        assert_eq!(
            spec.options,
            vec![
                ("MidDepth".to_string(), "8".to_string()),
                ("Hash".to_string(), "16".to_string())
            ]
        );
        let tcp = EngineSpec::parse("tcp=127.0.0.1:7000 movetime=50", &me).unwrap();
        assert_eq!(tcp.endpoint, Endpoint::Tcp("127.0.0.1:7000".into()));
        assert_eq!(tcp.name, "engine-t50");
        let cmd = EngineSpec::parse("cmd='./other --fast' name=o", &me).unwrap();
        assert_eq!(
            cmd.endpoint,
            Endpoint::Command(vec!["./other".into(), "--fast".into()])
        );
        assert!(EngineSpec::parse("depth=0", &me).is_err());
        assert!(EngineSpec::parse("colour=red", &me).is_err());
        assert!(EngineSpec::parse("depth", &me).is_err());
        assert!(EngineSpec::parse("cmd=a tcp=b:1", &me).is_err());
    }

    #[test]
    fn a_level_is_the_gui_s_settings_and_later_keys_override_it() {
        let me = Endpoint::Command(vec!["engine".into()]);
        for level in crate::level::LEVELS {
            let spec = EngineSpec::parse(&format!("level={}", level.number), &me).unwrap();
            for empties in [None, Some(30), Some(6)] {
                assert_eq!(spec.go(None, empties), level.go(empties));
            }
            assert_eq!(spec.options, level.options());
        }
        let spec = EngineSpec::parse("level=4 depth=2", &me).unwrap();
        assert_eq!(spec.go(None, Some(6)).depth, Some(2));
        let top = crate::level::TOP;
        assert!(LEVEL_RANGE.ends_with(&top.to_string()));
        for bad in ["level=0", &format!("level={}", top + 1), "level=x"] {
            let e = EngineSpec::parse(bad, &me).unwrap_err();
            assert!(e.to_string().contains(LEVEL_RANGE), "{e}");
        }
    }
}
