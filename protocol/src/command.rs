//! Lines from the frontend to the engine.

use std::fmt;
use std::str::FromStr;

use crate::ParseError;
use crate::tokens::{Tokens, is_word, set_once};

/// A command from the frontend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `hello [<version>]`: start of the handshake.
    Hello {
        /// The protocol version the frontend speaks, if it says.
        version: Option<u32>,
    },
    /// `setoption name <name> value <value>`.
    SetOption {
        /// Option name (one word; matched without regard to case).
        name: String,
        /// The value (one word).
        value: String,
    },
    /// `position <game> startpos|parallel|<position text> [moves <m1> <m2> ...]`.
    Position {
        /// Game id, such as `othello8x8` or `kalah6x4`.
        game: String,
        /// Where the game starts.
        start: PositionStart,
        /// Moves played from there.
        moves: Vec<String>,
    },
    /// `go ...`: search the current position.
    Go(Go),
    /// `stop`: end the running search; its `bestmove` follows.
    Stop,
    /// `isready`: answered by `readyok` at once.
    IsReady,
    /// `newgame`: forget the position and clear the transposition table.
    NewGame,
    /// `quit`: end the session.
    Quit,
}

/// The start of a `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionStart {
    /// `startpos`: the game's standard start.
    StartPos,
    /// `parallel`: Othello's parallel start.
    Parallel,
    /// A position text in the game's notation (words joined by single spaces).
    Text(String),
}

impl PositionStart {
    /// `startpos`, `parallel`, or else a position text.
    #[must_use]
    pub fn from_word(start: &str) -> PositionStart {
        match start {
            "startpos" => PositionStart::StartPos,
            "parallel" => PositionStart::Parallel,
            text => PositionStart::Text(text.to_string()),
        }
    }

    /// The start as `position` writes it: `startpos`, `parallel`, or the position text.
    #[must_use]
    pub fn as_word(&self) -> &str {
        match self {
            PositionStart::StartPos => "startpos",
            PositionStart::Parallel => "parallel",
            PositionStart::Text(text) => text,
        }
    }
}

/// The search algorithms. A `go` without one leaves the choice to the engine (ours: each
/// game's own).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Plain negamax.
    Negamax,
    /// Fail-hard alpha-beta.
    AlphaBeta,
    /// Fail-soft alpha-beta.
    NegaAlpha,
    /// NegaScout (in iterative deepening, the root in an aspiration window around the last
    /// iteration's score).
    NegaScout,
    /// MTD(f): null-window passes from the last iteration's score.
    Mtdf,
}

impl Algorithm {
    /// Every algorithm.
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Negamax,
        Algorithm::AlphaBeta,
        Algorithm::NegaAlpha,
        Algorithm::NegaScout,
        Algorithm::Mtdf,
    ];

    /// The protocol name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Negamax => "negamax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::NegaAlpha => "negaalpha",
            Algorithm::NegaScout => "negascout",
            Algorithm::Mtdf => "mtdf",
        }
    }

    fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == name)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::from_name(s).ok_or_else(|| ParseError::BadValue {
            key: "algorithm",
            value: s.to_string(),
            expected: "negamax, alphabeta, negaalpha, negascout or mtdf",
        })
    }
}

/// What a search must establish beyond a best move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Goal {
    /// No word: a value from the evaluation, within the search's limits (or the game's
    /// end, where the engine's settings solve).
    #[default]
    Heuristic,
    /// `solve`: the exact final score.
    Solve,
    /// `wld`: whether the side to move wins, draws or loses.
    Wld,
}

/// `time <ms> [inc <ms>]`: the side to move's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Time left on the clock, in milliseconds.
    pub time: u64,
    /// Increment per move, in milliseconds.
    pub inc: Option<u64>,
}

/// The parameters of `go`. Every field is optional; a parsed `Go` never combines
/// `infinite` with a limit or a goal, nor `solve` with `wld` or `depth`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// The algorithm, driven by iterative deepening (the engine's choice when absent).
    pub algorithm: Option<Algorithm>,
    /// Deepest iteration in plies (at least 1).
    pub depth: Option<u32>,
    /// Search for this many milliseconds (at least 1).
    pub movetime: Option<u64>,
    /// Search about this many nodes (at least 1).
    pub nodes: Option<u64>,
    /// The clock, from which the engine budgets its time.
    pub time: Option<TimeControl>,
    /// Solve exactly, prove win/loss/draw, or neither.
    pub goal: Goal,
    /// Search until `stop`; `bestmove` is held until then.
    pub infinite: bool,
    /// A word echoed by every `info` and the `bestmove` of this search.
    pub id: Option<String>,
    /// Value this many of the best moves, each with its own score and PV (`info ...
    /// multipv <rank>`), instead of the best one only.
    pub multipv: Option<MultiPv>,
}

/// How many root moves a search values (`go ... multipv <n>|all`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiPv {
    /// The n best (at least 1).
    Best(u32),
    /// Every legal move.
    All,
}

impl fmt::Display for MultiPv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MultiPv::Best(n) => n.fmt(f),
            MultiPv::All => f.write_str("all"),
        }
    }
}

impl FromStr for Command {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<Self, Self::Err> {
        let mut t = Tokens::new(line);
        let word = t.next().ok_or(ParseError::Empty)?;
        t.context(match word {
            "hello" => "hello",
            "setoption" => "setoption",
            "position" => "position",
            "go" => "go",
            _ => "command",
        });
        let command = match word {
            "hello" => Command::Hello {
                version: match t.peek() {
                    Some(_) => Some(t.value("version", "a protocol version number")?),
                    None => None,
                },
            },
            "setoption" => {
                t.keyword("name")?;
                let name = t.expect("option name")?.to_string();
                t.keyword("value")?;
                let value = t.expect("option value")?.to_string();
                Command::SetOption { name, value }
            }
            "position" => parse_position(&mut t)?,
            "go" => Command::Go(parse_go(&mut t)?),
            "stop" => Command::Stop,
            "isready" => Command::IsReady,
            "newgame" => Command::NewGame,
            "quit" => Command::Quit,
            other => return Err(ParseError::UnknownCommand(other.to_string())),
        };
        t.end()?;
        Ok(command)
    }
}

fn parse_position(t: &mut Tokens<'_>) -> Result<Command, ParseError> {
    let game = t.expect("game id")?.to_string();
    // A line that forgot the game would otherwise take its start for the game's name.
    if matches!(game.as_str(), "startpos" | "parallel" | "moves") {
        return Err(ParseError::Missing {
            context: "position",
            what: "game id",
        });
    }
    let start = match t.expect("startpos, parallel or a position text")? {
        "startpos" => PositionStart::StartPos,
        "parallel" => PositionStart::Parallel,
        "moves" => {
            return Err(ParseError::Missing {
                context: "position",
                what: "startpos, parallel or a position text",
            });
        }
        first => {
            let mut words = vec![first];
            while let Some(w) = t.peek().filter(|&w| w != "moves") {
                words.push(w);
                t.next();
            }
            PositionStart::Text(words.join(" "))
        }
    };
    let moves = if t.peek() == Some("moves") {
        t.next();
        t.rest()
    } else {
        Vec::new()
    };
    Ok(Command::Position { game, start, moves })
}

fn parse_go(t: &mut Tokens<'_>) -> Result<Go, ParseError> {
    const COUNT: &str = "a whole number of at least 1";
    const DEPTH: &str = "a whole number from 1 to 1000";
    let mut go = Go::default();
    // A goal word may come once.
    let mut goal = None;
    while let Some(word) = t.next() {
        match word {
            "depth" => {
                let d: u32 = t.value("depth", DEPTH)?;
                if !(1..=MAX_DEPTH).contains(&d) {
                    return Err(ParseError::BadValue {
                        key: "depth",
                        value: d.to_string(),
                        expected: DEPTH,
                    });
                }
                set_once(&mut go.depth, "depth", d)?;
            }
            "movetime" => {
                let ms = positive(t.value("movetime", COUNT)?, "movetime")?;
                set_once(&mut go.movetime, "movetime", ms)?;
            }
            "nodes" => {
                let n = positive(t.value("nodes", COUNT)?, "nodes")?;
                set_once(&mut go.nodes, "nodes", n)?;
            }
            "time" => {
                let time = t.value("time", "a whole number of milliseconds")?;
                let inc = if t.peek() == Some("inc") {
                    t.next();
                    Some(t.value("inc", "a whole number of milliseconds")?)
                } else {
                    None
                };
                set_once(&mut go.time, "time", TimeControl { time, inc })?;
            }
            "inc" => {
                return Err(ParseError::Unexpected {
                    token: "inc".into(),
                    context: "go (inc follows time)",
                });
            }
            "solve" => set_once(&mut goal, "solve/wld", Goal::Solve)?,
            "wld" => set_once(&mut goal, "solve/wld", Goal::Wld)?,
            "infinite" => {
                if go.infinite {
                    return Err(ParseError::Duplicate("infinite"));
                }
                go.infinite = true;
            }
            "id" => {
                let id = t.expect("search id")?.to_string();
                set_once(&mut go.id, "id", id)?;
            }
            "multipv" => {
                let k = match t.peek() {
                    Some("all") => {
                        t.next();
                        MultiPv::All
                    }
                    _ => MultiPv::Best(positive(
                        t.value("multipv", "a whole number of at least 1, or all")?,
                        "multipv",
                    )?),
                };
                set_once(&mut go.multipv, "multipv", k)?;
            }
            other => match Algorithm::from_name(other) {
                Some(a) => set_once(&mut go.algorithm, "algorithm", a)?,
                None => return Err(t.unexpected(other)),
            },
        }
    }
    go.goal = goal.unwrap_or_default();
    check_go(&go)?;
    Ok(go)
}

fn positive<T: PartialEq + Default>(value: T, key: &'static str) -> Result<T, ParseError> {
    if value == T::default() {
        return Err(ParseError::BadValue {
            key,
            value: "0".into(),
            expected: "a whole number of at least 1",
        });
    }
    Ok(value)
}

/// The deepest `go depth` accepted: deeper than any game played here lasts (`go solve`
/// searches to the end whatever the length).
pub const MAX_DEPTH: u32 = 1000;

/// The combinations `PROTOCOL.md` rules out.
fn check_go(go: &Go) -> Result<(), ParseError> {
    if go.infinite {
        let limits = [
            ("depth", go.depth.is_some()),
            ("movetime", go.movetime.is_some()),
            ("nodes", go.nodes.is_some()),
            ("time", go.time.is_some()),
            ("solve", go.goal == Goal::Solve),
            ("wld", go.goal == Goal::Wld),
        ];
        if let Some((name, _)) = limits.iter().find(|(_, given)| *given) {
            return Err(ParseError::Conflict("infinite", name));
        }
    }
    if go.depth.is_some() {
        match go.goal {
            Goal::Heuristic => {}
            Goal::Solve => return Err(ParseError::Conflict("solve", "depth")),
            Goal::Wld => return Err(ParseError::Conflict("wld", "depth")),
        }
    }
    Ok(())
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Hello { version: None } => f.write_str("hello"),
            Command::Hello { version: Some(v) } => write!(f, "hello {v}"),
            Command::SetOption { name, value } => write!(f, "setoption name {name} value {value}"),
            Command::Position { game, start, moves } => {
                write!(f, "position {game} {}", start.as_word())?;
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Go(go) => go.fmt(f),
            Command::Stop => f.write_str("stop"),
            Command::IsReady => f.write_str("isready"),
            Command::NewGame => f.write_str("newgame"),
            Command::Quit => f.write_str("quit"),
        }
    }
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        if let Some(a) = self.algorithm {
            write!(f, " {a}")?;
        }
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
        }
        if let Some(ms) = self.movetime {
            write!(f, " movetime {ms}")?;
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(tc) = self.time {
            write!(f, " time {}", tc.time)?;
            if let Some(inc) = tc.inc {
                write!(f, " inc {inc}")?;
            }
        }
        match self.goal {
            Goal::Solve => f.write_str(" solve")?,
            Goal::Wld => f.write_str(" wld")?,
            Goal::Heuristic => {}
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if let Some(k) = self.multipv {
            write!(f, " multipv {k}")?;
        }
        if let Some(id) = &self.id {
            write!(f, " id {id}")?;
        }
        Ok(())
    }
}

impl Command {
    /// True when every free-text part is made of protocol words, so that the line it
    /// prints reads back as the same command.
    #[must_use]
    pub fn is_well_formed(&self) -> bool {
        match self {
            Command::SetOption { name, value } => is_word(name) && is_word(value),
            Command::Position { game, start, moves } => {
                let start_ok = match start {
                    PositionStart::Text(text) => {
                        !text.is_empty()
                            && text.split(' ').all(|w| is_word(w) && w != "moves")
                            && !["startpos", "parallel"].contains(&text.as_str())
                    }
                    _ => true,
                };
                is_word(game) && start_ok && moves.iter().all(|m| is_word(m))
            }
            Command::Go(go) => go.id.as_deref().is_none_or(is_word) && check_go(go).is_ok(),
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
            "hello",
            "hello 1",
            "setoption name Hash value 128",
            "position othello8x8 startpos",
            "position othello6x6 parallel moves c4 pass",
            "position kalah6x4 4,4,4,4,4,4,0,4,4,4,4,4,4,0 S moves 3 1",
            "go",
            "go negascout depth 8 movetime 500 nodes 1000 time 60000 inc 100 id 17",
            "go solve",
            "go wld",
            "go mtdf infinite id a1",
            "stop",
            "isready",
            "newgame",
            "quit",
        ] {
            let command: Command = line.parse().unwrap();
            assert_eq!(command.to_string(), line);
        }
    }

    #[test]
    fn whitespace_and_crlf_are_tolerated() {
        let command: Command = "  go\tdepth   3 \r".parse().unwrap();
        assert_eq!(command.to_string(), "go depth 3");
    }

    #[test]
    fn bad_lines_are_refused_with_a_reason() {
        for (line, reason) in [
            ("", "empty line"),
            ("fly", "unknown command 'fly'"),
            ("go depth", "go: missing depth"),
            (
                "go depth x",
                "depth: 'x' is not a whole number from 1 to 1000",
            ),
            (
                "go depth 0",
                "depth: '0' is not a whole number from 1 to 1000",
            ),
            ("go depth 3 depth 4", "'depth' given twice"),
            (
                "go depth 1001",
                "depth: '1001' is not a whole number from 1 to 1000",
            ),
            (
                "go depth 2147483648",
                "depth: '2147483648' is not a whole number from 1 to 1000",
            ),
            (
                "go infinite depth 4",
                "'infinite' cannot be combined with 'depth'",
            ),
            ("go solve wld", "'solve/wld' given twice"),
            (
                "go solve depth 4",
                "'solve' cannot be combined with 'depth'",
            ),
            ("go negamax mtdf", "'algorithm' given twice"),
            ("go fast", "unexpected 'fast' in go"),
            ("position", "position: missing game id"),
            ("position startpos", "position: missing game id"),
            ("position parallel moves 3", "position: missing game id"),
            ("position moves e6", "position: missing game id"),
            (
                "position othello8x8",
                "position: missing startpos, parallel or a position text",
            ),
            (
                "position othello8x8 moves e6",
                "position: missing startpos, parallel or a position text",
            ),
            ("setoption name Hash", "setoption: missing value"),
            ("isready now", "unexpected 'now' in command"),
        ] {
            let error = line.parse::<Command>().unwrap_err();
            assert_eq!(error.to_string(), reason, "{line}");
        }
    }
}
