//! Finished games as JSON lines: appended one by one, read back to resume.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::MatchError;
use super::fault::FaultKind;

/// How a game ended, from the first player's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    /// The player who moves first in the game (Black, South) won.
    #[serde(rename = "1-0")]
    FirstWins,
    /// Drawn.
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// The second player won.
    #[serde(rename = "0-1")]
    SecondWins,
}

impl GameResult {
    /// Points of the first player: 1, 0.5 or 0.
    #[must_use]
    pub fn first_points(self) -> f64 {
        match self {
            GameResult::FirstWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::SecondWins => 0.0,
        }
    }

    /// The result of a final score from the first player's view.
    #[must_use]
    pub fn of_score(score: i32) -> GameResult {
        match score.signum() {
            1 => GameResult::FirstWins,
            -1 => GameResult::SecondWins,
            _ => GameResult::Draw,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Termination {
    /// Played to the end.
    Normal,
    /// Decided by the exact solver once few squares were empty.
    Adjudicated,
    /// One side's fault (see `fault`).
    Fault,
}

/// One move of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ply {
    /// The move as the engine sent it.
    pub mv: String,
    /// The engine's score for it, from its own side.
    pub score: Option<i32>,
    /// The depth it reached (`end` for a solve).
    pub depth: Option<String>,
    /// Nodes it searched.
    pub nodes: Option<u64>,
    /// Milliseconds it took.
    pub time_ms: u64,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Its place in the match schedule (what `--resume` skips).
    pub index: usize,
    /// Which pass over the openings (`--rounds`), from 0.
    pub round: usize,
    /// Game id.
    pub game: String,
    /// The opening, as `position` arguments.
    pub opening: String,
    /// The engine that played first.
    pub first: String,
    /// The engine that played second.
    pub second: String,
    /// Moves after the opening.
    pub moves: Vec<Ply>,
    /// Win, draw or loss for the first player (a fault loses).
    pub result: GameResult,
    /// Final score from the first player's view (discs or seeds), when the game was
    /// finished or adjudicated.
    pub score: Option<i32>,
    /// How it ended.
    pub termination: Termination,
    /// With [`Termination::Fault`]: what happened and who (the loser).
    pub fault: Option<FaultRecord>,
}

/// An engine's fault that ended a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultRecord {
    /// The name of the engine at fault.
    pub engine: String,
    /// Crash, stall, illegal move or fallen flag.
    pub kind: FaultKind,
    /// What was seen.
    pub detail: String,
}

/// Appends records to a results file, one JSON line each, flushed at once.
#[derive(Debug)]
pub struct ResultsFile {
    file: File,
    path: PathBuf,
}

impl ResultsFile {
    /// Opens (creating) `path` for appending. A last line cut short by an interruption is
    /// removed first (its game is played again).
    ///
    /// # Errors
    /// When the file cannot be opened.
    pub fn append(path: &Path) -> Result<ResultsFile, MatchError> {
        let error = file_error("open", path);
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(path)
            .map_err(error)?;
        let bytes = crate::files::read(path, crate::files::SizeLimit::RESULTS)?;
        if bytes.last().is_some_and(|&b| b != b'\n') {
            let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            file.set_len(whole as u64).map_err(error)?;
        }
        Ok(ResultsFile {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Writes one record and flushes it to the system.
    ///
    /// # Errors
    /// When writing fails.
    pub fn write(&mut self, record: &GameRecord) -> Result<(), MatchError> {
        let error = file_error("write", &self.path);
        let mut line = serde_json::to_string(record).map_err(|e| error(e.into()))?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(error)
    }
}

/// Writes `records` to a new results file (an existing file is never overwritten).
///
/// # Errors
/// When the file exists or cannot be written.
pub fn write_results(path: &Path, records: &[GameRecord]) -> Result<(), MatchError> {
    let error = file_error("write", path);
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(error)?;
    for record in records {
        let mut line = serde_json::to_string(record).map_err(|e| error(e.into()))?;
        line.push('\n');
        file.write_all(line.as_bytes()).map_err(error)?;
    }
    file.sync_data().map_err(error)
}

/// Reads the records of a results file. A last line cut short by an interruption is
/// ignored (its game is played again); any other bad line is an error.
///
/// # Errors
/// When the file cannot be read or holds a line that is not a record.
pub fn read_results(path: &Path) -> Result<Vec<GameRecord>, MatchError> {
    let file = match crate::files::open(path, crate::files::SizeLimit::RESULTS) {
        Ok(f) => f,
        Err(e) if e.is_not_found() => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let lines: Vec<String> = BufReader::new(file)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(file_error("read", path))?;
    let mut records = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str(line) {
            Ok(record) => records.push(record),
            Err(_) if i + 1 == lines.len() && !line.ends_with('}') => break,
            Err(source) => {
                return Err(MatchError::Record {
                    path: path.to_path_buf(),
                    line: i + 1,
                    source,
                });
            }
        }
    }
    Ok(records)
}

/// A finished game as a GGF record (8x8 Othello): players, result and every move from
/// the opening's start, with each move's evaluation and time.
///
/// # Errors
/// When the game is not 8x8 Othello or its moves do not replay.
pub fn to_ggf(
    record: &GameRecord,
    opening: &super::Opening,
    game: crate::game::GameId,
) -> Result<crate::ggf::GgfGame, MatchError> {
    let error = |reason: String| MatchError::Ggf {
        index: record.index,
        reason,
    };
    let mut ggf = super::player::nboard_game(game, opening, &[]).map_err(|f| error(f.detail))?;
    ggf.set_property("PB", &record.first);
    ggf.set_property("PW", &record.second);
    for ply in &record.moves {
        ggf.push_text(&ply.mv).map_err(|e| error(e.to_string()))?;
        if let Some(last) = ggf.moves.last_mut() {
            last.eval = ply.score.map(f64::from);
            last.time = Some(ply.time_ms as f64 / 1000.0);
        }
    }
    let result = match (record.score, record.result) {
        (Some(score), _) => format!("{score:+}.000"),
        (None, GameResult::FirstWins) => "+1.000".into(),
        (None, GameResult::SecondWins) => "-1.000".into(),
        (None, GameResult::Draw) => "0.000".into(),
    };
    ggf.set_property("RE", &result);
    Ok(ggf)
}

/// Turns an I/O error on `path` into a [`MatchError::File`].
fn file_error(action: &'static str, path: &Path) -> impl Fn(std::io::Error) -> MatchError + Copy {
    move |source| MatchError::File {
        action,
        path: path.to_path_buf(),
        source,
    }
}
