//! Splitting a line into words, with the checks every parser needs.

use std::str::FromStr;

use crate::ParseError;

/// The words of one line: separated by runs of spaces or tabs, a trailing CR ignored.
pub(crate) struct Tokens<'a> {
    words: std::iter::Peekable<std::str::SplitAsciiWhitespace<'a>>,
    context: &'static str,
}

impl<'a> Tokens<'a> {
    pub(crate) fn new(line: &'a str) -> Tokens<'a> {
        Tokens {
            words: line.split_ascii_whitespace().peekable(),
            context: "line",
        }
    }

    /// Names the command being read, for error messages.
    pub(crate) fn context(&mut self, context: &'static str) {
        self.context = context;
    }

    pub(crate) fn next(&mut self) -> Option<&'a str> {
        self.words.next()
    }

    pub(crate) fn peek(&mut self) -> Option<&'a str> {
        self.words.peek().copied()
    }

    /// The next word, which must be there.
    pub(crate) fn expect(&mut self, what: &'static str) -> Result<&'a str, ParseError> {
        self.words.next().ok_or(ParseError::Missing {
            context: self.context,
            what,
        })
    }

    /// The next word, which must be `keyword`.
    pub(crate) fn keyword(&mut self, keyword: &'static str) -> Result<(), ParseError> {
        match self.words.next() {
            Some(w) if w == keyword => Ok(()),
            Some(w) => Err(self.unexpected(w)),
            None => Err(ParseError::Missing {
                context: self.context,
                what: keyword,
            }),
        }
    }

    /// The next word as a number (or any `FromStr` value) for the field `key`.
    pub(crate) fn value<T: FromStr>(
        &mut self,
        key: &'static str,
        expected: &'static str,
    ) -> Result<T, ParseError> {
        let word = self.expect(key)?;
        word.parse().map_err(|_| ParseError::BadValue {
            key,
            value: word.to_string(),
            expected,
        })
    }

    /// Every remaining word.
    pub(crate) fn rest(&mut self) -> Vec<String> {
        self.words.by_ref().map(str::to_string).collect()
    }

    /// The remaining words joined by single spaces (free text), which must not be empty.
    pub(crate) fn text(&mut self, what: &'static str) -> Result<String, ParseError> {
        let words = self.rest();
        if words.is_empty() {
            return Err(ParseError::Missing {
                context: self.context,
                what,
            });
        }
        Ok(words.join(" "))
    }

    /// Fails if any word is left.
    pub(crate) fn end(&mut self) -> Result<(), ParseError> {
        match self.words.next() {
            Some(w) => Err(self.unexpected(w)),
            None => Ok(()),
        }
    }

    pub(crate) fn unexpected(&self, token: &str) -> ParseError {
        ParseError::Unexpected {
            token: token.to_string(),
            context: self.context,
        }
    }
}

/// Sets a field that may be given once.
pub(crate) fn set_once<T>(
    slot: &mut Option<T>,
    key: &'static str,
    value: T,
) -> Result<(), ParseError> {
    if slot.is_some() {
        return Err(ParseError::Duplicate(key));
    }
    *slot = Some(value);
    Ok(())
}

/// True for a word that can stand alone in a line: non-empty, no whitespace.
pub(crate) fn is_word(s: &str) -> bool {
    !s.is_empty() && !s.contains(|c: char| c.is_ascii_whitespace())
}
