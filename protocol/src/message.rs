//! Lines from the engine to the frontend.

use std::fmt;
use std::str::FromStr;

use crate::tokens::{Tokens, is_word};
use crate::{Algorithm, Info, ParseError};

/// A message from the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `id name <text>`: the engine's name.
    IdName(String),
    /// `id version <text>`: the engine's version.
    IdVersion(String),
    /// `protocol <version>`: the protocol version the engine speaks.
    Protocol(u32),
    /// `game <id> [suffixes <suffix>...]`: a game the engine plays, with the rule
    /// suffixes its id accepts.
    Game {
        /// The game id without rule suffixes (`othello8x8`, `kalah6x4`).
        id: String,
        /// Rule suffixes that may follow the id, such as `-noemptycapture`.
        suffixes: Vec<String>,
    },
    /// `algorithms <name>...`: the algorithms `go` accepts.
    Algorithms(Vec<Algorithm>),
    /// `option name <name> type ...`: an option `setoption` accepts.
    Option(OptionSpec),
    /// `hellook`: end of the handshake.
    HelloOk,
    /// `readyok`: the answer to `isready`.
    ReadyOk,
    /// `info ...`: search progress.
    Info(Info),
    /// `bestmove <move>|pass|none [id <id>]`: the end of a search.
    BestMove(BestMove),
    /// `error <reason>`: the last line was refused.
    Error(String),
}

/// An option the engine offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// Its name (one word).
    pub name: String,
    /// Its type, default and range.
    pub kind: OptionKind,
}

/// The type of an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type spin default <d> min <a> max <b>`: a whole number in `min..=max`.
    Spin {
        /// The value until set.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `type check default <bool>`: `true` or `false`.
    Check {
        /// The value until set.
        default: bool,
    },
    /// `type combo default <v> var <v1> var <v2> ...`: one of the listed words.
    Combo {
        /// The value until set.
        default: String,
        /// Every value the option takes.
        values: Vec<String>,
    },
    /// `type string default <word>`: any one word.
    String {
        /// The value until set.
        default: String,
    },
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move to play (`pass` when the only move is to pass), or `None` (`none`) when the
    /// game is over.
    pub mv: Option<String>,
    /// The `id` of the `go` it answers.
    pub id: Option<String>,
}

impl FromStr for Message {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<Self, Self::Err> {
        let mut t = Tokens::new(line);
        let word = t.next().ok_or(ParseError::Empty)?;
        let message = match word {
            "id" => {
                t.context("id");
                match t.expect("name or version")? {
                    "name" => Message::IdName(t.text("name")?),
                    "version" => Message::IdVersion(t.text("version")?),
                    other => return Err(t.unexpected(other)),
                }
            }
            "protocol" => Message::Protocol(t.value("protocol", "a version number")?),
            "game" => {
                t.context("game");
                let id = t.expect("game id")?.to_string();
                let suffixes = if t.peek().is_some() {
                    t.keyword("suffixes")?;
                    t.rest()
                } else {
                    Vec::new()
                };
                Message::Game { id, suffixes }
            }
            "algorithms" => Message::Algorithms(
                t.rest()
                    .iter()
                    .map(|a| a.parse())
                    .collect::<Result<_, _>>()?,
            ),
            "option" => Message::Option(parse_option(&mut t)?),
            "hellook" => Message::HelloOk,
            "readyok" => Message::ReadyOk,
            "info" => Message::Info(Info::parse(&mut t)?),
            "bestmove" => {
                t.context("bestmove");
                let mv = match t.expect("move")? {
                    "none" => None,
                    m => Some(m.to_string()),
                };
                let id = if t.peek().is_some() {
                    t.keyword("id")?;
                    Some(t.expect("search id")?.to_string())
                } else {
                    None
                };
                Message::BestMove(BestMove { mv, id })
            }
            "error" => {
                t.context("error");
                Message::Error(t.text("reason")?)
            }
            other => return Err(ParseError::UnknownCommand(other.to_string())),
        };
        t.end()?;
        Ok(message)
    }
}

fn parse_option(t: &mut Tokens<'_>) -> Result<OptionSpec, ParseError> {
    t.context("option");
    t.keyword("name")?;
    let name = t.expect("option name")?.to_string();
    t.keyword("type")?;
    let kind = match t.expect("option type")? {
        "spin" => {
            t.keyword("default")?;
            let default = t.value("default", "a whole number")?;
            t.keyword("min")?;
            let min = t.value("min", "a whole number")?;
            t.keyword("max")?;
            let max = t.value("max", "a whole number")?;
            OptionKind::Spin { default, min, max }
        }
        "check" => {
            t.keyword("default")?;
            OptionKind::Check {
                default: t.value("default", "true or false")?,
            }
        }
        "combo" => {
            t.keyword("default")?;
            let default = t.expect("default value")?.to_string();
            let mut values = Vec::new();
            while t.peek().is_some() {
                t.keyword("var")?;
                values.push(t.expect("combo value")?.to_string());
            }
            OptionKind::Combo { default, values }
        }
        "string" => {
            t.keyword("default")?;
            OptionKind::String {
                default: t.expect("default value")?.to_string(),
            }
        }
        other => return Err(t.unexpected(other)),
    };
    Ok(OptionSpec { name, kind })
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::IdName(name) => write!(f, "id name {name}"),
            Message::IdVersion(version) => write!(f, "id version {version}"),
            Message::Protocol(v) => write!(f, "protocol {v}"),
            Message::Game { id, suffixes } => {
                write!(f, "game {id}")?;
                if !suffixes.is_empty() {
                    write!(f, " suffixes {}", suffixes.join(" "))?;
                }
                Ok(())
            }
            Message::Algorithms(list) => {
                f.write_str("algorithms")?;
                list.iter().try_for_each(|a| write!(f, " {a}"))
            }
            Message::Option(spec) => spec.fmt(f),
            Message::HelloOk => f.write_str("hellook"),
            Message::ReadyOk => f.write_str("readyok"),
            Message::Info(info) => info.fmt(f),
            Message::BestMove(best) => best.fmt(f),
            Message::Error(reason) => write!(f, "error {reason}"),
        }
    }
}

impl fmt::Display for OptionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Combo { default, values } => {
                write!(f, "combo default {default}")?;
                values.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            OptionKind::String { default } => write!(f, "string default {default}"),
        }
    }
}

impl fmt::Display for BestMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bestmove {}", self.mv.as_deref().unwrap_or("none"))?;
        if let Some(id) = &self.id {
            write!(f, " id {id}")?;
        }
        Ok(())
    }
}

impl Message {
    /// True when every free-text part is made of protocol words, so that the line it
    /// prints reads back as the same message.
    #[must_use]
    pub fn is_well_formed(&self) -> bool {
        let text = |s: &str| !s.is_empty() && s.split(' ').all(is_word);
        match self {
            Message::IdName(s) | Message::IdVersion(s) | Message::Error(s) => text(s),
            Message::Game { id, suffixes } => is_word(id) && suffixes.iter().all(|s| is_word(s)),
            Message::Option(spec) => {
                is_word(&spec.name)
                    && match &spec.kind {
                        OptionKind::Combo { default, values } => {
                            is_word(default) && values.iter().all(|v| is_word(v))
                        }
                        OptionKind::String { default } => is_word(default),
                        _ => true,
                    }
            }
            Message::Info(info) => info.is_well_formed(),
            Message::BestMove(best) => {
                best.mv.as_deref().is_none_or(|m| is_word(m) && m != "none")
                    && best.id.as_deref().is_none_or(is_word)
            }
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_lines_read_back_unchanged() {
        for line in [
            "id name gamesearch",
            "id version 0.1.0",
            "protocol 1",
            "game othello8x8",
            "game kalah6x4 suffixes -noemptycapture -endwhenstuck",
            "algorithms negamax alphabeta negaalpha negascout mtdf",
            "option name Hash type spin default 64 min 1 max 4096",
            "option name PassInfo type check default false",
            "option name Eval type combo default trained var trained var hand",
            "option name EvalFile type string default <builtin>",
            "hellook",
            "readyok",
            "info depth 6 score 4 nodes 1200 nps 400000 time 3 tthits 70 pv e6 f4 c3",
            "info depth 14 selectivity 87 score -3 nodes 99 pv e6",
            "info id 3 depth 9 pass 2 beta 5 interval -64 4 score 4 upperbound nodes 99 time 1",
            "info depth end score 12 solved nodes 5 time 0 pv a1",
            "info depth end score 1 lowerbound wld",
            "info id 3 string hello there",
            "bestmove e6",
            "bestmove pass id 7",
            "bestmove none",
            "error unknown command 'fly'",
        ] {
            let message: Message = line.parse().unwrap();
            assert_eq!(message.to_string(), line);
        }
    }

    #[test]
    fn bad_messages_are_refused() {
        for line in [
            "info depth",
            "info pv",
            "info score x",
            "info depth 4 selectivity 0",
            "info depth 4 selectivity 101",
            "info depth 4 selectivity high",
            "info selectivity 87 selectivity 87",
            "info depth 3 string hi",
            "bestmove",
            "bestmove e6 ponder f4",
            "error",
            "option name Hash type combo",
            "algorithms minimax",
        ] {
            assert!(line.parse::<Message>().is_err(), "{line}");
        }
    }
}
