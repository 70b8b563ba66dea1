//! Opening positions: every distinct position a few plies from the start, or a file.

use std::collections::HashSet;
use std::fmt;

use super::error::OpeningError;
use crate::game::{AnyPosition, GameId, Start};

/// Where a game starts: a start (`startpos`, `parallel` or a position text) and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `startpos`, `parallel`, or a position text, as `position` takes it.
    pub start: String,
    /// Moves from there.
    pub moves: Vec<String>,
    /// The position it leads to.
    pub position: AnyPosition,
}

impl fmt::Display for Opening {
    /// The opening as `position` arguments after the game id.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.start)?;
        if !self.moves.is_empty() {
            write!(f, " moves {}", self.moves.join(" "))?;
        }
        Ok(())
    }
}

impl Opening {
    /// Reads `startpos|parallel|<position text> [moves ...]` for `game`.
    ///
    /// # Errors
    /// When the start or a move is not valid in `game`.
    pub fn parse(game: GameId, line: &str) -> Result<Opening, OpeningError> {
        let (start, moves) = match line.split_once(" moves") {
            Some((start, moves)) => (start.trim(), moves.split_whitespace().collect()),
            None => (line.trim(), Vec::new()),
        };
        let mut position = game.position(start).map_err(OpeningError::Start)?;
        for (i, mv) in moves.iter().enumerate() {
            position = position
                .play_text(mv)
                .map_err(|source| OpeningError::Move {
                    number: i + 1,
                    source,
                })?;
        }
        Ok(Opening {
            start: start.to_string(),
            moves: moves.iter().map(ToString::to_string).collect(),
            position,
        })
    }
}

/// Every distinct unfinished position `plies` moves after the standard start, each with the
/// first move sequence (in move-generation order) that reaches it.
///
/// # Errors
/// When the game has no standard start (never for the games we support).
pub fn after_plies(game: GameId, plies: usize) -> Result<Vec<Opening>, OpeningError> {
    let start = game.start(Start::Standard).map_err(OpeningError::Start)?;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut line = Vec::new();
    walk(start, plies, &mut line, &mut seen, &mut out);
    if out.is_empty() {
        return Err(OpeningError::NoneAfter { game, plies });
    }
    Ok(out)
}

fn walk(
    position: AnyPosition,
    plies: usize,
    line: &mut Vec<String>,
    seen: &mut HashSet<AnyPosition>,
    out: &mut Vec<Opening>,
) {
    if position.is_terminal() {
        return;
    }
    if plies == 0 {
        if seen.insert(position) {
            out.push(Opening {
                start: "startpos".into(),
                moves: line.clone(),
                position,
            });
        }
        return;
    }
    for mv in position.legal_moves() {
        let Ok(next) = position.play_text(&mv) else {
            continue;
        };
        line.push(mv);
        walk(next, plies - 1, line, seen, out);
        line.pop();
    }
}

/// Reads an openings file: one opening a line, `#` comments and blank lines skipped.
///
/// # Errors
/// A line that is not an opening of `game`, with its number.
pub fn from_text(game: GameId, text: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = Opening::parse(game, line).map_err(|e| OpeningError::Line {
            line: i + 1,
            source: Box::new(e),
        })?;
        out.push(opening);
    }
    if out.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_positions_after_a_few_plies() {
        let game: GameId = "othello8x8".parse().unwrap();
        assert_eq!(after_plies(game, 1).unwrap().len(), 4);
        // Perft 2 is 12 and every line gives a distinct position.
        assert_eq!(after_plies(game, 2).unwrap().len(), 12);
        // Perft 3 is 56, but transpositions merge some.
        let three = after_plies(game, 3).unwrap();
        assert!(three.len() < 56 && three.len() > 40, "{}", three.len());
        let kalah: GameId = "kalah6x4".parse().unwrap();
        assert!(!after_plies(kalah, 2).unwrap().is_empty());
    }

    #[test]
    fn files_of_openings() {
        let game: GameId = "othello8x8".parse().unwrap();
        let openings = from_text(game, "# two\nstartpos moves f5 d6\n\nparallel\n").unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].to_string(), "startpos moves f5 d6");
        let err = from_text(game, "startpos moves f5 f5\n").unwrap_err();
        assert!(format!("{err:#}").contains("line 1"));
    }
}
