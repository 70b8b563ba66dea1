//! Where an engine is: a command line to run, or a TCP address.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// How to reach an engine.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Endpoint {
    /// Run this program with these arguments and talk over its stdin/stdout.
    Command(Vec<String>),
    /// Connect to this `host:port`.
    Tcp(String),
}

/// An endpoint that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EndpointError {
    /// Nothing given.
    #[error("empty engine command")]
    Empty,
    /// Unbalanced quotes or a trailing backslash.
    #[error("cannot split engine command '{0}': unbalanced quotes")]
    Quoting(String),
}

impl FromStr for Endpoint {
    type Err = EndpointError;

    /// `tcp:<host>:<port>` is an address; anything else a command line, split like a shell
    /// would (quotes and backslashes), without running a shell.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(addr) = s.strip_prefix("tcp:") {
            if addr.trim().is_empty() {
                return Err(EndpointError::Empty);
            }
            return Ok(Endpoint::Tcp(addr.trim().to_string()));
        }
        let words = shell_words::split(s).map_err(|_| EndpointError::Quoting(s.to_string()))?;
        if words.is_empty() {
            return Err(EndpointError::Empty);
        }
        Ok(Endpoint::Command(words))
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Endpoint::Command(words) => f.write_str(&shell_words::join(words)),
            Endpoint::Tcp(addr) => write!(f, "tcp:{addr}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_addresses() {
        assert_eq!(
            "tcp:127.0.0.1:7000".parse(),
            Ok(Endpoint::Tcp("127.0.0.1:7000".into()))
        );
        let e: Endpoint = "engine --listen 'a b'".parse().unwrap();
        assert_eq!(
            e,
            Endpoint::Command(vec!["engine".into(), "--listen".into(), "a b".into()])
        );
        assert_eq!(e.to_string().parse(), Ok(e));
        assert_eq!("  ".parse::<Endpoint>(), Err(EndpointError::Empty));
        assert!("engine 'open".parse::<Endpoint>().is_err());
    }
}
