//! Run-time choice of game: a game id, and positions and moves of any game.

use std::fmt;
use std::str::FromStr;

use super::kalah::{Kalah, KalahMove, KalahRules};
use super::othello::{Geometry, Othello, OthelloMove};
use super::{Game, GameError, Start};

/// A game and its variant, as named on the command line and in the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameId {
    /// Othello on one of the supported boards.
    Othello(Geometry),
    /// Kalah of some size and rule set.
    Kalah(KalahRules),
}

impl GameId {
    /// A start position of this game.
    ///
    /// # Errors
    /// [`GameError::NoSuchStart`] when the game has no such start (Kalah has no parallel one).
    pub fn start(self, start: Start) -> Result<AnyPosition, GameError> {
        match self {
            GameId::Othello(g) => Ok(AnyPosition::Othello(Othello::start(g, start))),
            GameId::Kalah(r) => super::kalah::position::start_of(r, start).map(AnyPosition::Kalah),
        }
    }

    /// Reads a position of this game from its position text.
    ///
    /// # Errors
    /// [`GameError::MalformedPosition`] when the text is not a position of this game.
    pub fn parse_position(self, text: &str) -> Result<AnyPosition, GameError> {
        match self {
            GameId::Othello(g) => Othello::parse(g, text).map(AnyPosition::Othello),
            GameId::Kalah(r) => Kalah::parse(r, text).map(AnyPosition::Kalah),
        }
    }

    /// Reads `startpos`, `parallel`, or a position text.
    ///
    /// # Errors
    /// As [`GameId::start`] and [`GameId::parse_position`].
    pub fn position(self, text: &str) -> Result<AnyPosition, GameError> {
        match text {
            "startpos" => self.start(Start::Standard),
            "parallel" => self.start(Start::Parallel),
            _ => self.parse_position(text),
        }
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameId::Othello(g) => g.fmt(f),
            GameId::Kalah(r) => r.fmt(f),
        }
    }
}

impl FromStr for GameId {
    type Err = GameError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        // `get`, not indexing: the text is a client's and may cut a character at byte 5.
        if s.get(..5)
            .is_some_and(|head| head.eq_ignore_ascii_case("kalah"))
        {
            s.parse().map(GameId::Kalah)
        } else {
            s.parse().map(GameId::Othello)
        }
    }
}

/// A position of any supported game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyPosition {
    /// An Othello position.
    Othello(Othello),
    /// A Kalah position.
    Kalah(Kalah),
}

/// A move of any supported game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// An Othello move.
    Othello(OthelloMove),
    /// A Kalah move.
    Kalah(KalahMove),
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Othello(m) => m.fmt(f),
            AnyMove::Kalah(m) => m.fmt(f),
        }
    }
}

/// Runs `$body` with `$pos` bound to the concrete position inside an [`AnyPosition`],
/// so generic code is monomorphised per game.
#[macro_export]
macro_rules! with_position {
    ($any:expr, $pos:ident => $body:expr) => {
        match $any {
            $crate::game::AnyPosition::Othello($pos) => $body,
            $crate::game::AnyPosition::Kalah($pos) => $body,
        }
    };
}

impl AnyPosition {
    /// The game this position belongs to.
    #[must_use]
    pub fn game_id(&self) -> GameId {
        with_position!(self, p => p.game_id())
    }

    /// Plays a move given as text, checking that it is legal.
    ///
    /// # Errors
    /// [`GameError::MalformedMove`] or [`GameError::IllegalMove`].
    pub fn play_text(&self, text: &str) -> Result<AnyPosition, GameError> {
        Ok(match self {
            AnyPosition::Othello(p) => AnyPosition::Othello(p.play_text(text)?),
            AnyPosition::Kalah(p) => AnyPosition::Kalah(p.play_text(text)?),
        })
    }

    /// The legal moves as text.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<String> {
        with_position!(self, p => {
            let mut moves = super::MoveList::new();
            p.generate_moves(&mut moves);
            moves.iter().map(ToString::to_string).collect()
        })
    }

    /// True when the game is over.
    #[must_use]
    pub fn is_terminal(&self) -> bool {
        with_position!(self, p => p.is_terminal())
    }

    /// The side to move.
    #[must_use]
    pub fn side_to_move(&self) -> super::Side {
        with_position!(self, p => p.side_to_move())
    }

    /// The final score from the side to move (meaningful when the game is over).
    #[must_use]
    pub fn final_score(&self) -> i32 {
        with_position!(self, p => p.final_score())
    }

    /// No final score can exceed this in absolute value.
    #[must_use]
    pub fn max_score(&self) -> i32 {
        with_position!(self, p => p.max_score())
    }

    /// Empty squares, for games that count them.
    #[must_use]
    pub fn empties(&self) -> Option<u32> {
        with_position!(self, p => p.empties())
    }
}

impl From<Othello> for AnyPosition {
    fn from(position: Othello) -> Self {
        AnyPosition::Othello(position)
    }
}

impl From<Kalah> for AnyPosition {
    fn from(position: Kalah) -> Self {
        AnyPosition::Kalah(position)
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_position!(self, p => p.fmt(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids() {
        for id in [
            "othello8x8",
            "othello6x6",
            "othello4x4",
            "othello4x6",
            "octagon",
            "kalah6x6",
            "kalah3x2-noemptycapture",
        ] {
            assert_eq!(
                id.parse::<GameId>().map(|g| g.to_string()),
                Ok(id.to_string())
            );
        }
        assert_eq!(
            "othello".parse::<GameId>(),
            Ok(GameId::Othello(Geometry::Board8x8))
        );
        assert!("chess".parse::<GameId>().is_err());
        assert!("kal".parse::<GameId>().is_err());
    }

    #[test]
    fn positions_from_text() {
        let g: GameId = "kalah".parse().unwrap();
        assert!(g.position("parallel").is_err());
        let start = g.position("startpos").unwrap();
        assert_eq!(g.position(&start.to_string()), Ok(start));
        assert_eq!(start.legal_moves().len(), 6);
    }
}
