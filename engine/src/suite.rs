//! Test-suite files: one position per line in the FFO/OBF style, with its exact score.
//!
//! Accepted line forms (blank lines and `#` comments are skipped):
//!
//! ```text
//! <id> <64 squares> <X|O> <score> <best,moves>      (engine/data/ffo40-59.txt)
//! <64 squares> <X|O>; <move>:<score>; ...           (OBF, as open Othello engines ship)
//! <64 squares> <X|O>                                 (a position with no known score)
//! ```

use thiserror::Error;

use crate::game::GameError;
use crate::game::othello::{Geometry, Othello};

/// One test position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuitePosition {
    /// The id (for OBF lines, the position's number in the file, from 1).
    pub id: String,
    /// The position to solve, as the file gives it.
    pub position: Othello,
    /// The exact score for the side to move, when known.
    pub score: Option<i32>,
    /// The moves that achieve it (lower case), when known.
    pub best_moves: Vec<String>,
}

/// A line that could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("line {line}: {reason}")]
pub struct SuiteError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// Reads every position of a suite.
///
/// # Errors
/// [`SuiteError`] for the first line that is not a position.
pub fn parse_suite(text: &str) -> Result<Vec<SuitePosition>, SuiteError> {
    let mut out = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
            continue;
        }
        let error = |reason: String| SuiteError {
            line: index + 1,
            reason,
        };
        let parsed = if line.contains(';') || line.split_whitespace().count() == 2 {
            parse_obf(line, out.len() + 1)
        } else {
            parse_plain(line)
        };
        out.push(parsed.map_err(error)?);
    }
    Ok(out)
}

fn position(board: &str, side: &str) -> Result<Othello, String> {
    Othello::parse(Geometry::Board8x8, &format!("{board} {side}"))
        .map_err(|e: GameError| e.to_string())
}

fn score(text: &str) -> Result<i32, String> {
    text.trim_start_matches('+')
        .parse()
        .map_err(|_| format!("'{text}' is not a score"))
}

fn parse_plain(line: &str) -> Result<SuitePosition, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [id, board, side, rest @ ..] = fields.as_slice() else {
        return Err("expected '<id> <board> <side> [score] [moves]'".into());
    };
    Ok(SuitePosition {
        id: (*id).to_string(),
        position: position(board, side)?,
        score: rest.first().map(|s| score(s)).transpose()?,
        best_moves: rest
            .get(1)
            .map(|m| m.split(',').map(str::to_ascii_lowercase).collect())
            .unwrap_or_default(),
    })
}

fn parse_obf(line: &str, number: usize) -> Result<SuitePosition, String> {
    let mut parts = line.split(';').map(str::trim);
    let head = parts.next().unwrap_or_default();
    let (board, side) = head
        .split_once(char::is_whitespace)
        .ok_or("expected '<board> <side>;'")?;
    let mut best = Vec::new();
    let mut top: Option<i32> = None;
    for part in parts.filter(|p| !p.is_empty()) {
        let (mv, value) = part
            .split_once(':')
            .ok_or_else(|| format!("expected '<move>:<score>', got '{part}'"))?;
        let value = score(value)?;
        match top {
            Some(t) if value < t => {}
            Some(t) if value == t => best.push(mv.to_ascii_lowercase()),
            _ => {
                top = Some(value);
                best = vec![mv.to_ascii_lowercase()];
            }
        }
    }
    Ok(SuitePosition {
        id: number.to_string(),
        position: position(board, side.trim())?,
        score: top,
        best_moves: best,
    })
}

/// The FFO endgame positions #40-#59 shipped with the engine.
#[must_use]
pub fn ffo() -> Vec<SuitePosition> {
    parse_suite(include_str!("../data/ffo40-59.txt")).expect("the shipped FFO suite parses")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn shipped_ffo_suite() {
        let suite = ffo();
        assert_eq!(suite.len(), 20);
        assert_eq!(suite[0].id, "40");
        assert_eq!(suite[0].score, Some(38));
        assert_eq!(suite[0].best_moves, ["a2"]);
        assert_eq!(suite[0].position.empties(), Some(20));
    }

    #[test]
    fn obf_lines() {
        let line = "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O; G3:-12; C7:-12; B6:-14;";
        let suite = parse_suite(line).unwrap();
        assert_eq!(suite[0].score, Some(-12));
        assert_eq!(suite[0].best_moves, ["g3", "c7"]);
        // Numbered by position, not by line.
        let two = parse_suite(&format!("% a comment\n{line}\n\n{line}")).unwrap();
        assert_eq!((two[0].id.as_str(), two[1].id.as_str()), ("1", "2"));
    }

    #[test]
    fn bad_lines_are_reported() {
        assert_eq!(parse_suite("# c\n\n40 XO X").unwrap_err().line, 3);
        assert!(parse_suite("1 ---- X +2 a1").is_err());
        assert!(parse_suite("-------- X; A1").is_err());
        let bare = parse_suite(&format!("{} X", "-".repeat(64))).unwrap();
        assert_eq!(bare[0].score, None);
    }
}
