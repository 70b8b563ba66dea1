//! The game abstraction every search is generic over, and the concrete games.
//!
//! Positions are small `Copy` values and moves are applied by copy-make
//! ([`Game::play`] returns the child), so "undo" is simply keeping the parent.

mod any;
pub mod kalah;
pub mod othello;
pub mod zobrist;

pub use any::{AnyMove, AnyPosition, GameId};

use std::fmt::{Debug, Display};
use std::hash::Hash;

use arrayvec::ArrayVec;
use thiserror::Error;

/// Most moves any supported position can have (Othello 8x8 has at most 33 legal moves).
pub const MAX_MOVES: usize = 64;

/// A list of moves on the stack.
pub type MoveList<M> = ArrayVec<M, MAX_MOVES>;

/// The two players. `First` moves first: Black in Othello, South in Kalah.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The player who moves first from the start position.
    First,
    /// The other player.
    Second,
}

impl Side {
    /// The other side.
    #[must_use]
    pub fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// Which start position to set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Start {
    /// The game's usual start (Othello: the diagonal centre).
    Standard,
    /// Othello's parallel centre (`W B / W B` in the papers).
    Parallel,
}

/// Everything that can be wrong with a game id, a position, or a move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    /// The game id names no game we support.
    #[error("unknown game '{0}'")]
    UnknownGame(String),
    /// The position text could not be read.
    #[error("malformed position: {0}")]
    MalformedPosition(String),
    /// The game has no such start position.
    #[error("game {game} has no '{start}' start position")]
    NoSuchStart {
        /// The game id, as given.
        game: String,
        /// The start that was asked for.
        start: String,
    },
    /// The move text could not be read as a move of this game.
    #[error("malformed move '{0}'")]
    MalformedMove(String),
    /// The move is well formed but not legal in this position.
    #[error("illegal move '{mv}' in position {position}")]
    IllegalMove {
        /// The move as given.
        mv: String,
        /// The position it was tried in.
        position: String,
    },
}

/// Splits a position text into its two fields, the board and the side to move;
/// `expected` describes the form for the error message.
///
/// # Errors
/// [`GameError::MalformedPosition`] when there are not exactly two fields.
pub(crate) fn board_and_side<'t>(
    text: &'t str,
    expected: &str,
) -> Result<(&'t str, &'t str), GameError> {
    let mut fields = text.split_whitespace();
    match (fields.next(), fields.next(), fields.next()) {
        (Some(board), Some(side), None) => Ok((board, side)),
        _ => Err(GameError::MalformedPosition(format!(
            "expected '{expected}', got '{text}'"
        ))),
    }
}

/// A move of some game: a small value that also packs into a byte for the transposition table.
pub trait GameMove: Copy + Eq + Hash + Debug + Display + Send + Sync + 'static {
    /// The move as a byte (stable within a game, used by the transposition table).
    fn to_byte(self) -> u8;
    /// Inverse of [`GameMove::to_byte`].
    fn from_byte(byte: u8) -> Self;
}

/// A position of a two-player, perfect-information, zero-sum game.
///
/// Scores are always from the point of view of the side to move, in the game's own unit
/// (discs for Othello, seeds for Kalah), so heuristic and exact scores share one scale.
pub trait Game: Copy + Eq + Hash + Debug + Display + Send + Sync + 'static {
    /// The move type.
    type Move: GameMove;

    /// The game id this position belongs to (e.g. `othello8x8`, `kalah6x6`).
    fn game_id(&self) -> GameId;

    /// The side to move.
    fn side_to_move(&self) -> Side;

    /// Appends the legal moves. A side that cannot move but whose opponent can gets exactly
    /// one move, the pass; the list is empty exactly when the game is over.
    fn generate_moves(&self, moves: &mut MoveList<Self::Move>);

    /// The position after `mv`, which must be legal here (checked only in debug builds;
    /// use [`Game::try_play`] for untrusted moves).
    #[must_use]
    fn play(&self, mv: Self::Move) -> Self;

    /// True when the game is over.
    fn is_terminal(&self) -> bool;

    /// The final score from the side to move; meaningful when [`Game::is_terminal`].
    fn final_score(&self) -> i32;

    /// No final score can exceed this in absolute value.
    fn max_score(&self) -> i32;

    /// The incrementally maintained 64-bit hash.
    fn hash_key(&self) -> u64;

    /// The hash computed from scratch (equals [`Game::hash_key`]; used to check it).
    fn compute_hash(&self) -> u64;

    /// Reads a move in this position's notation. The move is not checked for legality.
    ///
    /// # Errors
    /// [`GameError::MalformedMove`] when the text is not a move of this game.
    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError>;

    /// Number of plies that certainly reach the end of the game from here, when the game
    /// bounds it (Othello: empty squares, plus passes). `None` when it cannot be bounded.
    fn empties(&self) -> Option<u32> {
        None
    }

    /// The number of moves [`Game::generate_moves`] would produce (perft bulk counting).
    fn count_moves(&self) -> usize {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves.len()
    }

    /// True when `mv` is legal here.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves.contains(&mv)
    }

    /// The position after `mv`, or an error if it is not legal here.
    ///
    /// # Errors
    /// [`GameError::IllegalMove`] when `mv` is not a legal move in this position.
    fn try_play(&self, mv: Self::Move) -> Result<Self, GameError> {
        if self.is_legal(mv) {
            Ok(self.play(mv))
        } else {
            Err(GameError::IllegalMove {
                mv: mv.to_string(),
                position: self.to_string(),
            })
        }
    }

    /// Parses then plays a move given as text.
    ///
    /// # Errors
    /// [`GameError::MalformedMove`] or [`GameError::IllegalMove`].
    fn play_text(&self, text: &str) -> Result<Self, GameError> {
        self.try_play(self.parse_move(text)?)
    }
}
