//! `info` lines: what a running search reports.

use std::fmt;
use std::str::FromStr;

use crate::ParseError;
use crate::tokens::{Tokens, is_word, set_once};

/// How deep an iteration searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Depth {
    /// This many plies.
    Plies(u32),
    /// To the end of the game (`end`).
    End,
}

impl fmt::Display for Depth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Depth::Plies(d) => d.fmt(f),
            Depth::End => f.write_str("end"),
        }
    }
}

impl FromStr for Depth {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "end" {
            return Ok(Depth::End);
        }
        s.parse()
            .map(Depth::Plies)
            .map_err(|_| ParseError::BadValue {
                key: "depth",
                value: s.to_string(),
                expected: "a number of plies or 'end'",
            })
    }
}

/// Whether a score is the value or a bound on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The value.
    #[default]
    Exact,
    /// `lowerbound`: the value is at least the score.
    Lower,
    /// `upperbound`: the value is at most the score.
    Upper,
}

/// How a score is known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Proof {
    /// From the evaluation at the search horizon.
    #[default]
    Heuristic,
    /// `solved`: the exact result of perfect play.
    Solved,
    /// `wld`: a proven win (> 0), draw (0) or loss (< 0); the size is only a bound.
    Wld,
}

/// A score from the side to move, in discs (Othello) or seeds (Kalah).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    /// The number.
    pub value: i32,
    /// Exact or a bound.
    pub bound: Bound,
    /// How it is known.
    pub proof: Proof,
}

/// One MTD(f) pass: a null-window search testing `value >= beta`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PassInfo {
    /// The pass's number within its iteration, from 1.
    pub number: u32,
    /// The value tested.
    pub beta: i32,
    /// The interval known to hold the value after the pass.
    pub interval: (i32, i32),
}

/// An `info` line. Every field is optional; [`Info::string`] excludes the others but `id`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// The `id` of the `go` this search answers.
    pub id: Option<String>,
    /// The move comes from the opening book, not a search: the recorded games that played
    /// it (0 for the book's best move out of its positions, valued by a search).
    pub book: Option<u64>,
    /// Iteration depth.
    pub depth: Option<Depth>,
    /// The confidence in percent of a selective search's heuristic score (absent when the
    /// search was full width or the score is proven).
    pub selectivity: Option<u32>,
    /// With `go ... multipv`: the rank (from 1) of the move this line values.
    pub multipv: Option<u32>,
    /// Present on the line of an MTD(f) pass.
    pub pass: Option<PassInfo>,
    /// The score (of the pass, on a pass line).
    pub score: Option<Score>,
    /// Nodes searched so far.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Milliseconds since the search started.
    pub time: Option<u64>,
    /// Transposition-table probes that found a usable entry.
    pub tthits: Option<u64>,
    /// Positions whose exact value was read from an endgame database (Kalah's), when any
    /// was.
    pub tbhits: Option<u64>,
    /// Table occupation in permille.
    pub hashfull: Option<u32>,
    /// Free text for humans (rest of the line).
    pub string: Option<String>,
    /// Principal variation (rest of the line).
    pub pv: Vec<String>,
}

impl Info {
    pub(crate) fn parse(t: &mut Tokens<'_>) -> Result<Info, ParseError> {
        t.context("info");
        let mut info = Info::default();
        while let Some(word) = t.next() {
            match word {
                "id" => set_once(&mut info.id, "id", t.expect("search id")?.to_string())?,
                "book" => set_once(&mut info.book, "book", t.value("book", "a count of games")?)?,
                "depth" => set_once(&mut info.depth, "depth", t.expect("depth")?.parse()?)?,
                "selectivity" => {
                    let percent: u32 = t.value("selectivity", "a percentage from 1 to 100")?;
                    if !(1..=100).contains(&percent) {
                        return Err(ParseError::BadValue {
                            key: "selectivity",
                            value: percent.to_string(),
                            expected: "a percentage from 1 to 100",
                        });
                    }
                    set_once(&mut info.selectivity, "selectivity", percent)?;
                }
                "multipv" => {
                    let rank = t.value("multipv", "a rank of at least 1")?;
                    if rank == 0 {
                        return Err(ParseError::BadValue {
                            key: "multipv",
                            value: "0".into(),
                            expected: "a rank of at least 1",
                        });
                    }
                    set_once(&mut info.multipv, "multipv", rank)?;
                }
                "pass" => {
                    let number = t.value("pass", "a pass number")?;
                    t.keyword("beta")?;
                    let beta = t.value("beta", "a whole number")?;
                    t.keyword("interval")?;
                    let interval = (
                        t.value("interval", "a whole number")?,
                        t.value("interval", "a whole number")?,
                    );
                    let pass = PassInfo {
                        number,
                        beta,
                        interval,
                    };
                    set_once(&mut info.pass, "pass", pass)?;
                }
                "score" => {
                    let mut score = Score {
                        value: t.value("score", "a whole number")?,
                        ..Score::default()
                    };
                    if let Some(bound) = t.peek().and_then(|w| match w {
                        "lowerbound" => Some(Bound::Lower),
                        "upperbound" => Some(Bound::Upper),
                        _ => None,
                    }) {
                        t.next();
                        score.bound = bound;
                    }
                    if let Some(proof) = t.peek().and_then(|w| match w {
                        "solved" => Some(Proof::Solved),
                        "wld" => Some(Proof::Wld),
                        _ => None,
                    }) {
                        t.next();
                        score.proof = proof;
                    }
                    set_once(&mut info.score, "score", score)?;
                }
                "nodes" => set_once(&mut info.nodes, "nodes", t.value("nodes", "a count")?)?,
                "nps" => set_once(&mut info.nps, "nps", t.value("nps", "a count")?)?,
                "time" => set_once(&mut info.time, "time", t.value("time", "milliseconds")?)?,
                "tthits" => set_once(&mut info.tthits, "tthits", t.value("tthits", "a count")?)?,
                "tbhits" => set_once(&mut info.tbhits, "tbhits", t.value("tbhits", "a count")?)?,
                "hashfull" => {
                    let permille = t.value("hashfull", "a permille")?;
                    set_once(&mut info.hashfull, "hashfull", permille)?;
                }
                "string" => {
                    info.string = Some(t.text("text")?);
                    if info != info_with_id_and_string(&info) {
                        return Err(ParseError::Conflict("string", "other fields"));
                    }
                }
                "pv" => {
                    info.pv = t.rest();
                    if info.pv.is_empty() {
                        return Err(ParseError::Missing {
                            context: "info",
                            what: "pv moves",
                        });
                    }
                }
                other => return Err(t.unexpected(other)),
            }
        }
        Ok(info)
    }

    /// True when the line it prints reads back as the same value.
    #[must_use]
    pub fn is_well_formed(&self) -> bool {
        let string_ok = match &self.string {
            Some(s) => {
                !s.is_empty() && s.split(' ').all(is_word) && *self == info_with_id_and_string(self)
            }
            None => true,
        };
        string_ok && self.id.as_deref().is_none_or(is_word) && self.pv.iter().all(|m| is_word(m))
    }
}

fn info_with_id_and_string(info: &Info) -> Info {
    Info {
        id: info.id.clone(),
        string: info.string.clone(),
        ..Info::default()
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        if let Some(id) = &self.id {
            write!(f, " id {id}")?;
        }
        if let Some(games) = self.book {
            write!(f, " book {games}")?;
        }
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
        }
        if let Some(percent) = self.selectivity {
            write!(f, " selectivity {percent}")?;
        }
        if let Some(rank) = self.multipv {
            write!(f, " multipv {rank}")?;
        }
        if let Some(p) = self.pass {
            let (lo, hi) = p.interval;
            write!(f, " pass {} beta {} interval {lo} {hi}", p.number, p.beta)?;
        }
        if let Some(s) = self.score {
            write!(f, " score {}", s.value)?;
            match s.bound {
                Bound::Exact => {}
                Bound::Lower => f.write_str(" lowerbound")?,
                Bound::Upper => f.write_str(" upperbound")?,
            }
            match s.proof {
                Proof::Heuristic => {}
                Proof::Solved => f.write_str(" solved")?,
                Proof::Wld => f.write_str(" wld")?,
            }
        }
        for (key, value) in [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("time", self.time),
            ("tthits", self.tthits),
            ("tbhits", self.tbhits),
            ("hashfull", self.hashfull.map(u64::from)),
        ] {
            if let Some(v) = value {
                write!(f, " {key} {v}")?;
            }
        }
        if let Some(s) = &self.string {
            write!(f, " string {s}")?;
        }
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        Ok(())
    }
}
