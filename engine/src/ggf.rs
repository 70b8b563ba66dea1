//! GGF game records (8x8 Othello), as NBoard and the Othello servers exchange them:
//! `(;GM[Othello]PB[..]PW[..]RE[..]BO[8 <64 cells> <side>]B[d3]W[c5/-1.5/2.0]...;)`.
//!
//! Cells are `*` (black), `O` (white) and `-`; a move is a square or `PA` (pass),
//! optionally followed by `/<eval>/<time>`. Moves are checked against the rules when read;
//! a move by the side that is not to move is accepted only when the side to move had to
//! pass (records that leave passes out), and the pass is then put in.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::game::othello::{Geometry, Othello, OthelloMove};
use crate::game::{Game, Side, Start};

/// One move of a record, with what the player said about it.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfMove {
    /// The move (a square or the pass).
    pub mv: OthelloMove,
    /// The evaluation given with it (mover's view), if any.
    pub eval: Option<f64>,
    /// Seconds used, if given.
    pub time: Option<f64>,
}

/// A game record.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    /// Properties other than `BO` and the moves, in order (`GM`, `PB`, `PW`, `RE`, ...).
    pub properties: Vec<(String, String)>,
    /// The start position (`BO`).
    pub start: Othello,
    /// The moves in order, each with the evaluation and time the record gives.
    pub moves: Vec<GgfMove>,
}

/// A record that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GgfError {
    /// No `(;` ... `;)` game.
    #[error("no GGF game found (a game is '(;' ... ';)')")]
    NoGame,
    /// The text ends inside a game or property.
    #[error("GGF game not closed: missing ']' or ';)'")]
    Unclosed,
    /// A property name that is not letters.
    #[error("GGF: unexpected '{0}' where a property name should be")]
    BadName(String),
    /// `BO` missing or wrong.
    #[error("GGF board: {0}")]
    Board(String),
    /// A move that cannot be read or played.
    #[error("GGF move {number} '{text}': {reason}")]
    Move {
        /// 1-based number of the move in the record.
        number: usize,
        /// The move as written.
        text: String,
        /// What is wrong.
        reason: String,
    },
}

impl GgfGame {
    /// A record of a game from `start` between `black` and `white`, no moves yet.
    #[must_use]
    pub fn new(start: Othello, black: &str, white: &str) -> GgfGame {
        GgfGame {
            properties: vec![
                ("GM".into(), "Othello".into()),
                ("PC".into(), "gamesearch".into()),
                ("PB".into(), black.into()),
                ("PW".into(), white.into()),
                ("RE".into(), "?".into()),
                ("TY".into(), "8".into()),
            ],
            start,
            moves: Vec::new(),
        }
    }

    /// The standard 8x8 start.
    #[must_use]
    pub fn standard_start() -> Othello {
        Othello::start(Geometry::Board8x8, Start::Standard)
    }

    /// A property's value.
    #[must_use]
    pub fn property(&self, key: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets (or adds) a property.
    pub fn set_property(&mut self, key: &str, value: &str) {
        match self.properties.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = value.to_string(),
            None => self.properties.push((key.into(), value.into())),
        }
    }

    /// The position after every move.
    #[must_use]
    pub fn final_position(&self) -> Othello {
        self.moves.iter().fold(self.start, |p, m| p.play(m.mv))
    }

    /// Adds a move, checking it.
    ///
    /// # Errors
    /// When the move is not legal in the final position.
    pub fn push(&mut self, mv: OthelloMove) -> Result<(), crate::game::GameError> {
        self.final_position().try_play(mv)?;
        self.moves.push(GgfMove {
            mv,
            eval: None,
            time: None,
        });
        Ok(())
    }

    /// Adds a move written as text: `PA` (GGF and NBoard's pass) or anything our notation
    /// reads (`f5`, `F5`, `pass`), checking it.
    ///
    /// # Errors
    /// When the text is not a move, or the move is not legal in the final position.
    pub fn push_text(&mut self, text: &str) -> Result<(), crate::game::GameError> {
        let mv = if text.eq_ignore_ascii_case("PA") {
            OthelloMove::PASS
        } else {
            self.start.parse_move(text)?
        };
        self.push(mv)
    }

    /// Sets `RE` from the final position if the game is over (`+n.000` for black).
    pub fn set_result_if_over(&mut self) {
        let end = self.final_position();
        if end.is_terminal() {
            let black = match end.side_to_move() {
                Side::First => end.final_score(),
                Side::Second => -end.final_score(),
            };
            self.set_property("RE", &format!("{black:+}.000"));
        }
    }
}

/// Reads every game of a text (files often hold many).
///
/// # Errors
/// The first game that cannot be read.
pub fn parse_games(text: &str) -> Result<Vec<GgfGame>, GgfError> {
    let mut games = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("(;") {
        let (game, after) = parse_one(&rest[start + 2..])?;
        games.push(game);
        rest = after;
    }
    if games.is_empty() {
        return Err(GgfError::NoGame);
    }
    Ok(games)
}

impl FromStr for GgfGame {
    type Err = GgfError;

    /// Reads the first game of the text.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let start = s.find("(;").ok_or(GgfError::NoGame)?;
        parse_one(&s[start + 2..]).map(|(game, _)| game)
    }
}

/// Reads properties up to `;)`; returns the game and the text after it.
fn parse_one(mut text: &str) -> Result<(GgfGame, &str), GgfError> {
    let mut properties = Vec::new();
    let mut start = None;
    let mut raw_moves: Vec<(Side, String)> = Vec::new();
    loop {
        text = text.trim_start();
        if let Some(after) = text.strip_prefix(";)") {
            text = after;
            break;
        }
        if text.is_empty() {
            return Err(GgfError::Unclosed);
        }
        let name_len = text
            .find(|c: char| !c.is_ascii_alphabetic())
            .ok_or(GgfError::Unclosed)?;
        let name = &text[..name_len];
        let after_name = text[name_len..].trim_start();
        if name.is_empty() || !after_name.starts_with('[') {
            let shown: String = text.chars().take(10).collect();
            return Err(GgfError::BadName(shown));
        }
        let (value, after) = read_value(&after_name[1..])?;
        text = after;
        match name {
            "BO" => start = Some(parse_board(&value)?),
            "B" => raw_moves.push((Side::First, value)),
            "W" => raw_moves.push((Side::Second, value)),
            _ => properties.push((name.to_string(), value)),
        }
    }
    let start = match start {
        Some(s) => s,
        None => GgfGame::standard_start(),
    };
    let mut game = GgfGame {
        properties,
        start,
        moves: Vec::new(),
    };
    let mut position = start;
    for (i, (side, text)) in raw_moves.iter().enumerate() {
        let err = |reason: String| GgfError::Move {
            number: i + 1,
            text: text.clone(),
            reason,
        };
        let mut parts = text.split('/');
        let square = parts.next().unwrap_or_default().trim();
        let number = |s: Option<&str>| {
            s.map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::parse::<f64>)
        };
        let eval = number(parts.next())
            .transpose()
            .map_err(|_| err("bad evaluation".into()))?;
        let time = number(parts.next())
            .transpose()
            .map_err(|_| err("bad time".into()))?;
        if position.side_to_move() != *side {
            // A record that leaves passes out: put the forced pass in.
            if position.count_moves() == 1 && position.moves() == 0 && !position.is_terminal() {
                game.moves.push(GgfMove {
                    mv: OthelloMove::PASS,
                    eval: None,
                    time: None,
                });
                position = position.play(OthelloMove::PASS);
            } else {
                return Err(err("played by the side not to move".into()));
            }
        }
        let mv = if square.eq_ignore_ascii_case("PA") {
            OthelloMove::PASS
        } else {
            position
                .parse_move(&square.to_ascii_lowercase())
                .map_err(|e| err(e.to_string()))?
        };
        position = position.try_play(mv).map_err(|e| err(e.to_string()))?;
        game.moves.push(GgfMove { mv, eval, time });
    }
    Ok((game, text))
}

/// A bracketed value (backslash escapes the next character); returns it and the rest.
fn read_value(text: &str) -> Result<(String, &str), GgfError> {
    let mut value = String::new();
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, next)) = chars.next() {
                    value.push(next);
                }
            }
            ']' => return Ok((value, &text[i + 1..])),
            _ => value.push(c),
        }
    }
    Err(GgfError::Unclosed)
}

fn parse_board(value: &str) -> Result<Othello, GgfError> {
    let words: Vec<&str> = value.split_whitespace().collect();
    let Some((size, rest)) = words.split_first() else {
        return Err(GgfError::Board("empty".into()));
    };
    if *size != "8" {
        return Err(GgfError::Board(format!(
            "board type '{size}' (only 8, for 8x8, is supported)"
        )));
    }
    let Some((side, cells)) = rest.split_last() else {
        return Err(GgfError::Board("no cells".into()));
    };
    let text = format!("{} {side}", cells.concat());
    Othello::parse(Geometry::Board8x8, &text).map_err(|e| GgfError::Board(e.to_string()))
}

/// Escapes `]` and `\` in a property value.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace(']', "\\]")
}

/// A move as GGF and NBoard write it: `F5`, or `PA` for the pass.
#[must_use]
pub fn move_text(mv: OthelloMove) -> String {
    if mv == OthelloMove::PASS {
        "PA".into()
    } else {
        mv.to_string().to_ascii_uppercase()
    }
}

impl fmt::Display for GgfGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(;")?;
        for (key, value) in &self.properties {
            write!(f, "{key}[{}]", escape(value))?;
        }
        let board = self.start.to_string();
        let (cells, side) = board.split_at(64);
        let cells = cells.replace('X', "*");
        let side = if side.trim() == "X" { "*" } else { "O" };
        write!(f, "BO[8 {cells} {side}]")?;
        let mut position = self.start;
        for m in &self.moves {
            let colour = if position.side_to_move() == Side::First {
                'B'
            } else {
                'W'
            };
            write!(f, "{colour}[{}", move_text(m.mv))?;
            if m.eval.is_some() || m.time.is_some() {
                let show = |v: Option<f64>| v.map(|v| format!("{v:.2}")).unwrap_or_default();
                write!(f, "/{}/{}", show(m.eval), show(m.time))?;
            }
            f.write_str("]")?;
            position = position.play(m.mv);
        }
        f.write_str(";)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NBOARD_EXAMPLE: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

    #[test]
    fn reads_the_nboard_example() {
        let game: GgfGame = NBOARD_EXAMPLE.parse().unwrap();
        assert_eq!(game.property("PB"), Some("a"));
        assert_eq!(game.property("DT"), Some("2014-02-21 20:52:27 GMT"));
        assert_eq!(game.start, GgfGame::standard_start());
        assert_eq!(game.moves.len(), 8);
        let end = game.final_position();
        assert_eq!(end.side_to_move(), Side::First);
        // Written back, it reads back the same.
        let text = game.to_string();
        assert_eq!(text.parse::<GgfGame>().unwrap(), game);
        assert!(text.contains("B[F5]W[F6]"));
    }

    #[test]
    fn evals_times_passes_and_escapes() {
        let text = "(;GM[Othello]PB[x\\]y]BO[8 ---------------------------O*------*O--------------------------- *]B[f5/1.5/2.25]W[d6//3];)";
        let game: GgfGame = text.parse().unwrap();
        assert_eq!(game.property("PB"), Some("x]y"));
        assert_eq!(game.moves[0].eval, Some(1.5));
        assert_eq!(game.moves[0].time, Some(2.25));
        assert_eq!(game.moves[1].eval, None);
        assert_eq!(game.to_string().parse::<GgfGame>().unwrap(), game);
        // The rules are checked: a pass is refused while there are moves.
        let start = Othello::parse(
            Geometry::Board8x8,
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO-- X",
        )
        .unwrap();
        let mut g = GgfGame::new(start, "b", "w");
        g.push(OthelloMove::PASS).unwrap_err();
        let written = g.to_string();
        assert!(written.contains("BO[8 "), "{written}");
        assert!(parse_games(&format!("{written}\n{written}")).unwrap().len() == 2);
    }

    /// A game from the start with a pass in it, by playing the first legal move (or the
    /// last, by seed) until someone must pass.
    fn game_with_a_pass() -> GgfGame {
        for seed in 0..200u64 {
            let mut game = GgfGame::new(GgfGame::standard_start(), "b", "w");
            let mut position = game.start;
            let mut state = seed;
            while !position.is_terminal() {
                let mut moves = crate::game::MoveList::new();
                position.generate_moves(&mut moves);
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mv = moves[(state >> 33) as usize % moves.len()];
                game.push(mv).unwrap();
                position = position.play(mv);
            }
            if game.moves.iter().any(|m| m.mv == OthelloMove::PASS) {
                return game;
            }
        }
        panic!("no random game with a pass");
    }

    #[test]
    fn passes_written_or_left_out() {
        let game = game_with_a_pass();
        let text = game.to_string();
        assert!(text.contains("[PA]"), "{text}");
        assert_eq!(text.parse::<GgfGame>().unwrap(), game);
        // Records that leave the passes out read the same.
        let without = text.replace("B[PA]", "").replace("W[PA]", "");
        assert_eq!(
            without.parse::<GgfGame>().unwrap().final_position(),
            game.final_position()
        );
        let mut finished = game.clone();
        finished.set_result_if_over();
        assert!(finished.property("RE").is_some_and(|r| r.ends_with(".000")));
    }

    #[test]
    fn bad_records_say_why() {
        assert_eq!("nothing".parse::<GgfGame>(), Err(GgfError::NoGame));
        assert_eq!("(;GM[Othello".parse::<GgfGame>(), Err(GgfError::Unclosed));
        let err = "(;BO[10 x *];)".parse::<GgfGame>().unwrap_err();
        assert!(err.to_string().contains("only 8"));
        let err = "(;B[F5]B[F6];)".parse::<GgfGame>().unwrap_err();
        assert!(err.to_string().contains("move 2"), "{err}");
        let err = "(;B[Z9];)".parse::<GgfGame>().unwrap_err();
        assert!(err.to_string().contains("move 1"), "{err}");
    }
}
