//! Why a line is not a valid command or message.

use thiserror::Error;

/// A line that does not follow the grammar of `PROTOCOL.md`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// Nothing but whitespace.
    #[error("empty line")]
    Empty,
    /// The first word is not a command (or message) of the protocol.
    #[error("unknown command '{0}'")]
    UnknownCommand(String),
    /// A word that has no place where it stands.
    #[error("unexpected '{token}' in {context}")]
    Unexpected {
        /// The word.
        token: String,
        /// The command or field being read.
        context: &'static str,
    },
    /// A required word or value is missing.
    #[error("{context}: missing {what}")]
    Missing {
        /// The command or field being read.
        context: &'static str,
        /// What should have followed.
        what: &'static str,
    },
    /// A value that is not a number in the allowed range.
    #[error("{key}: '{value}' is not {expected}")]
    BadValue {
        /// The field.
        key: &'static str,
        /// The word the client gave, which the key cannot take.
        value: String,
        /// What the field takes.
        expected: &'static str,
    },
    /// A field given twice.
    #[error("'{0}' given twice")]
    Duplicate(&'static str),
    /// Two fields that exclude each other.
    #[error("'{0}' cannot be combined with '{1}'")]
    Conflict(&'static str, &'static str),
}
