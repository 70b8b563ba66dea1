//! Why a match cannot start or go on: the match runner's errors, one variant a cause.

use std::path::PathBuf;

use thiserror::Error;

use crate::game::{GameError, GameId};

/// What stops a match (a fault of an engine does not: it loses the game).
#[derive(Debug, Error)]
pub enum MatchError {
    /// A file that may not be read (not a regular file, too large) or cannot be.
    #[error(transparent)]
    Read(#[from] crate::files::FileError),
    /// Fewer than two engines.
    #[error("a match needs at least two engines")]
    TooFewEngines,
    /// Two engines with one name.
    #[error("engine names must differ (give each a name=...)")]
    DuplicateNames,
    /// An NBoard engine in a game other than 8x8 Othello.
    #[error("{engine}: NBoard engines play 8x8 Othello only")]
    NboardGame {
        /// The engine's name.
        engine: String,
    },
    /// An NBoard engine with settings NBoard cannot pass on.
    #[error(
        "{engine}: an NBoard engine takes a depth and the match's clock only (no algorithm, nodes, movetime or options)"
    )]
    NboardSettings {
        /// The engine's name.
        engine: String,
    },
    /// An engine that cannot be started, dies at once or refuses its options.
    #[error("engine {engine} cannot play: {detail}")]
    EngineStart {
        /// The engine's name.
        engine: String,
        /// What went wrong.
        detail: String,
    },
    /// GGF records asked for another game than 8x8 Othello.
    #[error("GGF records are for 8x8 Othello games")]
    GgfGame,
    /// A results file of games already played, without `--resume`.
    #[error(
        "{} already holds {games} games: add --resume to continue that match, or name another file",
        path.display()
    )]
    ResultsExist {
        /// The file.
        path: PathBuf,
        /// Its games.
        games: usize,
    },
    /// A results file of another match.
    #[error(
        "{} records another match (game {index} differs): same engines, openings and seed are needed to resume",
        path.display()
    )]
    OtherMatch {
        /// The file.
        path: PathBuf,
        /// The first game that differs (0-based).
        index: usize,
    },
    /// A file that cannot be opened, read or written.
    #[error("cannot {action} {}: {source}", path.display())]
    File {
        /// `open`, `read` or `write`.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A results file line that is not a record.
    #[error("{} line {line}: {source}", path.display())]
    Record {
        /// The file.
        path: PathBuf,
        /// Its number, from 1.
        line: usize,
        /// Why.
        source: serde_json::Error,
    },
    /// A played game that cannot be written as GGF.
    #[error("game {index} cannot be written as GGF: {reason}")]
    Ggf {
        /// The game (0-based).
        index: usize,
        /// Why.
        reason: String,
    },
    /// An opening that cannot be read.
    #[error(transparent)]
    Opening(#[from] OpeningError),
    /// Two results files with different records of one game.
    #[error("game {index} differs between {} and {}: not shards of one match", first.display(), second.display())]
    MergeConflict {
        /// The game (0-based).
        index: usize,
        /// The file that had it first.
        first: PathBuf,
        /// The file with the other record.
        second: PathBuf,
    },
    /// A sequential probability ratio test over a shard of a match.
    #[error("--sprt decides on the whole match, not on one shard")]
    ShardSprt,
    /// An earlier game for the test between other engines than the match's.
    #[error("--sprt-after: a game names engine '{name}', not one of this match's ({engines})")]
    SprtEarlierEngine {
        /// The name the earlier game gives.
        name: String,
        /// The match's engines.
        engines: String,
    },
}

/// Why an opening (or an openings file) cannot be used.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum OpeningError {
    /// The start is not a position of the game.
    #[error("opening start: {0}")]
    Start(GameError),
    /// A move does not play.
    #[error("move {number} of the opening: {source}")]
    Move {
        /// Its number, from 1.
        number: usize,
        /// Why.
        source: GameError,
    },
    /// A line of an openings file.
    #[error("line {line}: {source}")]
    Line {
        /// Its number, from 1.
        line: usize,
        /// Why.
        source: Box<OpeningError>,
    },
    /// An openings file with none.
    #[error("no openings in the file")]
    Empty,
    /// Openings from the book asked of another game than 8x8 Othello.
    #[error("book openings are 8x8 Othello's, not {0}'s")]
    BookGame(GameId),
    /// No book line that long with a value that small.
    #[error(
        "the book has no line of {plies} plies to a position valued within {max_value} discs: \
         ask for fewer plies or a larger value"
    )]
    NoneInBook {
        /// Plies asked for.
        plies: usize,
        /// Largest value asked for.
        max_value: i32,
    },
    /// No unfinished position at that many plies.
    #[error("{game} has no unfinished position {plies} plies from the start")]
    NoneAfter {
        /// The game whose openings were asked for.
        game: GameId,
        /// Plies from the start asked for.
        plies: usize,
    },
    /// Too many openings to play every one: a sample needs to know how many games.
    #[error(
        "{game} has too many positions {plies} plies from the start to play every one \
         (more than {limit}, or too many lines to enumerate): give --games to play a sample"
    )]
    TooManyToPlay {
        /// The game whose openings were asked for.
        game: GameId,
        /// Plies from the start asked for.
        plies: usize,
        /// Most openings enumerated.
        limit: usize,
    },
    /// More openings asked for than are ever drawn.
    #[error("{wanted} openings needed for the games asked; at most {limit} are drawn")]
    TooManyWanted {
        /// Openings needed.
        wanted: usize,
        /// Most openings drawn.
        limit: usize,
    },
    /// Fewer distinct openings drawn than the games need.
    #[error(
        "only {found} distinct openings of {game} found {plies} plies from the start, \
         {wanted} needed: ask for fewer games, or other --opening-plies"
    )]
    TooFew {
        /// The game whose openings were asked for.
        game: GameId,
        /// Plies from the start asked for.
        plies: usize,
        /// Openings drawn.
        found: usize,
        /// Openings needed.
        wanted: usize,
    },
}
