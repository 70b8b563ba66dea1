//! The game on screen: where it started, the moves played, and a cursor for undo/redo
//! and jumping through the move list. The rules come from the engine crate; the engine
//! process is only asked for moves.

use engine::game::othello::Geometry;
use engine::game::{AnyPosition, GameError, GameId};
use engine::ggf::GgfGame;
use thiserror::Error;

use crate::settings::ClockSettings;

/// Why a game cannot be set up, played on or written.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RecordError {
    /// The game id, start or move is not valid.
    #[error("{0}")]
    Game(#[from] GameError),
    /// A move of a game line or record does not play.
    #[error("move {number}: {source}")]
    Move {
        /// Its number, from 1.
        number: usize,
        /// Why.
        source: GameError,
    },
    /// GGF is for 8x8 Othello only.
    #[error("GGF records hold 8x8 Othello games")]
    NotGgf,
}

/// What the record says of one move besides the move: as GGF keeps it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveNote {
    /// The move's value for its mover (an engine's score, or the review's).
    pub value: Option<f64>,
    /// Seconds the mover's clock ran for it.
    pub seconds: Option<f64>,
}

/// A game record with a cursor.
#[derive(Clone, Debug, PartialEq)]
pub struct GameHistory {
    game: GameId,
    /// `startpos`, `parallel` or a position text.
    start: String,
    start_position: AnyPosition,
    moves: Vec<String>,
    /// What is known of each move, beside it.
    notes: Vec<MoveNote>,
    /// Positions after each move (`positions[0]` is the start).
    positions: Vec<AnyPosition>,
    /// How many moves are on the board (moves after it can be redone).
    cursor: usize,
}

impl GameHistory {
    /// A new game from `start` (`startpos`, `parallel` or a position text).
    ///
    /// # Errors
    /// When `start` is not a position of `game`.
    pub fn new(game: GameId, start: &str) -> Result<GameHistory, RecordError> {
        let position = game.position(start.trim())?;
        Ok(GameHistory {
            game,
            start: start.trim().to_string(),
            start_position: position,
            moves: Vec::new(),
            notes: Vec::new(),
            positions: vec![position],
            cursor: 0,
        })
    }

    /// The game id.
    #[must_use]
    pub fn game(&self) -> GameId {
        self.game
    }

    /// The start as `position` takes it.
    #[must_use]
    pub fn start(&self) -> &str {
        &self.start
    }

    /// The position on the board.
    #[must_use]
    pub fn position(&self) -> AnyPosition {
        self.positions[self.cursor]
    }

    /// The position before the last move on the board, if any.
    #[must_use]
    pub fn previous(&self) -> Option<AnyPosition> {
        self.cursor.checked_sub(1).map(|i| self.positions[i])
    }

    /// Moves on the board.
    #[must_use]
    pub fn moves(&self) -> &[String] {
        &self.moves[..self.cursor]
    }

    /// Every move, including those undone.
    #[must_use]
    pub fn all_moves(&self) -> &[String] {
        &self.moves
    }

    /// Moves on the board.
    #[must_use]
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The last move on the board.
    #[must_use]
    pub fn last_move(&self) -> Option<&str> {
        self.moves().last().map(String::as_str)
    }

    /// Plays `mv` if it is legal here; moves that were undone are dropped unless `mv` is
    /// the next of them (then it is a redo).
    ///
    /// # Errors
    /// Why the move is refused.
    pub fn play(&mut self, mv: &str) -> Result<(), GameError> {
        let next = self.position().play_text(mv)?;
        if self.moves.get(self.cursor).is_some_and(|m| m == mv) {
            self.cursor += 1;
            return Ok(());
        }
        self.moves.truncate(self.cursor);
        self.notes.truncate(self.cursor);
        self.positions.truncate(self.cursor + 1);
        self.moves.push(mv.to_string());
        self.notes.push(MoveNote::default());
        self.positions.push(next);
        self.cursor += 1;
        Ok(())
    }

    /// What is known of move `index` (from 0) of [`GameHistory::all_moves`].
    #[must_use]
    pub fn note(&self, index: usize) -> MoveNote {
        self.notes.get(index).copied().unwrap_or_default()
    }

    /// Changes what is known of move `index` (nothing if there is no such move).
    pub fn annotate(&mut self, index: usize, change: impl FnOnce(&mut MoveNote)) {
        if let Some(note) = self.notes.get_mut(index) {
            change(note);
        }
    }

    /// The position after `n` moves of [`GameHistory::all_moves`] (clamped).
    #[must_use]
    pub fn position_at(&self, n: usize) -> AnyPosition {
        self.positions[n.min(self.moves.len())]
    }

    /// The same game with the board after `n` moves (clamped), the later moves kept.
    #[must_use]
    pub fn at(&self, n: usize) -> GameHistory {
        let mut game = self.clone();
        game.jump(n);
        game
    }

    /// Takes back one move. False at the start.
    pub fn undo(&mut self) -> bool {
        if self.cursor == 0 {
            return false;
        }
        self.cursor -= 1;
        true
    }

    /// Replays one undone move. False when there is none.
    pub fn redo(&mut self) -> bool {
        if self.cursor == self.moves.len() {
            return false;
        }
        self.cursor += 1;
        true
    }

    /// Puts the board after `n` moves (clamped to the moves known).
    pub fn jump(&mut self, n: usize) {
        self.cursor = n.min(self.moves.len());
    }

    /// The game as one line: `<game> <start> [moves ...]` (the arguments of `position`),
    /// which [`GameHistory::parse`] reads back.
    #[must_use]
    pub fn record_text(&self) -> String {
        let mut text = format!("{} {}", self.game, self.start);
        if !self.moves().is_empty() {
            text.push_str(" moves ");
            text.push_str(&self.moves().join(" "));
        }
        text
    }

    /// Reads a game line as [`GameHistory::record_text`] writes it, or a position text of
    /// `game` alone.
    ///
    /// # Errors
    /// Why the text is not a game or position.
    pub fn parse(game: GameId, text: &str) -> Result<GameHistory, RecordError> {
        let text = text.trim();
        let (game, rest) = match text.split_once(' ') {
            Some((first, rest)) => match first.parse::<GameId>() {
                Ok(id) => (id, rest),
                Err(_) => (game, text),
            },
            None => (game, text),
        };
        let (start, moves) = match rest.split_once(" moves") {
            Some((start, moves)) => (start, moves.split_whitespace().collect()),
            None => (rest, Vec::new()),
        };
        let mut record = GameHistory::new(game, start)?;
        for (i, mv) in moves.iter().enumerate() {
            record.play(mv).map_err(|source| RecordError::Move {
                number: i + 1,
                source,
            })?;
        }
        Ok(record)
    }

    /// The position text of the board (what `position` takes instead of `startpos`).
    #[must_use]
    pub fn position_text(&self) -> String {
        match self.position() {
            AnyPosition::Othello(p) => p.to_string(),
            AnyPosition::Kalah(p) => p.to_string(),
        }
    }

    /// The starting position.
    #[must_use]
    pub fn start_position(&self) -> AnyPosition {
        self.start_position
    }

    /// The game as a GGF record (8x8 Othello only), with the result once it is over.
    ///
    /// # Errors
    /// For other games.
    pub fn to_ggf(
        &self,
        black: &str,
        white: &str,
        clock: Option<&ClockSettings>,
    ) -> Result<GgfGame, RecordError> {
        let AnyPosition::Othello(start) = self.start_position else {
            return Err(RecordError::NotGgf);
        };
        if start.geometry() != Geometry::Board8x8 {
            return Err(RecordError::NotGgf);
        }
        let mut ggf = GgfGame::new(start, black, white);
        if let Some(clock) = clock {
            ggf.set_property("TI", &time_control_text(clock));
        }
        for (mv, note) in self.moves().iter().zip(&self.notes) {
            ggf.push_text(mv)?;
            if let Some(last) = ggf.moves.last_mut() {
                last.eval = note.value;
                last.time = note.seconds;
            }
        }
        ggf.set_result_if_over();
        Ok(ggf)
    }

    /// A game read from a GGF record.
    ///
    /// # Errors
    /// When a move of the record does not replay (never for a record that parsed).
    pub fn from_ggf(ggf: &GgfGame) -> Result<GameHistory, RecordError> {
        let game = GameId::Othello(Geometry::Board8x8);
        let start = if ggf.start == GgfGame::standard_start() {
            "startpos".to_string()
        } else {
            ggf.start.to_string()
        };
        let mut record = GameHistory::new(game, &start)?;
        for (i, m) in ggf.moves.iter().enumerate() {
            record
                .play(&m.mv.to_string())
                .map_err(|source| RecordError::Move {
                    number: i + 1,
                    source,
                })?;
            record.notes[i] = MoveNote {
                value: m.eval,
                seconds: m.time,
            };
        }
        Ok(record)
    }
}

/// A clock as GGF's `TI` writes it: the time for the game, then the increment
/// (`05:00/00:03`).
#[must_use]
pub fn time_control_text(clock: &ClockSettings) -> String {
    let mm_ss = |ms: u64| format!("{:02}:{:02}", ms / 60_000, ms / 1000 % 60);
    format!("{}/{}", mm_ss(clock.base_ms), mm_ss(clock.increment_ms))
}

/// Reads a `TI` value: `[[h:]mm:]ss` for the game, optionally `/increment` and more
/// (GGS's extension, ignored). `None` when it is not a time.
#[must_use]
pub fn parse_time_control(text: &str) -> Option<(u64, u64)> {
    let ms = |part: &str| -> Option<u64> {
        let part = part.trim();
        if part.is_empty() {
            return Some(0);
        }
        part.split(':')
            .try_fold(0u64, |total, field| {
                let n: u64 = field.trim().parse().ok()?;
                total.checked_mul(60)?.checked_add(n)
            })?
            .checked_mul(1000)
    };
    let mut parts = text.split('/');
    let base = ms(parts.next()?)?;
    let increment = parts.next().map_or(Some(0), ms)?;
    (base > 0).then_some((base, increment))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn othello() -> GameId {
        "othello8x8".parse().unwrap()
    }

    #[test]
    fn play_undo_redo_and_branch() {
        let mut g = GameHistory::new(othello(), "startpos").unwrap();
        g.play("f5").unwrap();
        g.play("d6").unwrap();
        assert!(g.play("a1").is_err());
        assert!(g.undo());
        assert_eq!(g.moves(), ["f5"]);
        assert!(g.redo());
        assert_eq!(g.moves(), ["f5", "d6"]);
        g.jump(1);
        g.play("f6").unwrap();
        assert_eq!(g.all_moves(), ["f5", "f6"]);
        assert!(!g.redo());
        g.jump(0);
        assert!(!g.undo());
    }

    #[test]
    fn notes_and_the_clock_go_to_ggf_and_back() {
        let mut g = GameHistory::new(othello(), "startpos").unwrap();
        g.play("f5").unwrap();
        g.play("d6").unwrap();
        g.annotate(0, |n| n.seconds = Some(1.5));
        g.annotate(1, |n| {
            n.value = Some(-2.0);
            n.seconds = Some(0.25);
        });
        let clock = ClockSettings {
            base_ms: 300_000,
            increment_ms: 3_000,
            flag_loses: true,
        };
        let text = g.to_ggf("a", "b", Some(&clock)).unwrap().to_string();
        assert!(text.contains("TI[05:00/00:03]"), "{text}");
        assert!(text.contains("B[F5//1.50]W[D6/-2.00/0.25]"), "{text}");
        let back = GameHistory::from_ggf(&text.parse().unwrap()).unwrap();
        assert_eq!(back.note(0).seconds, Some(1.5));
        assert_eq!(back.note(1).value, Some(-2.0));
        assert_eq!(parse_time_control("05:00/00:03"), Some((300_000, 3_000)));
        assert_eq!(parse_time_control("15:00"), Some((900_000, 0)));
        assert_eq!(parse_time_control("1:00:00//02:00"), Some((3_600_000, 0)));
        assert_eq!(parse_time_control("soon"), None);
        assert_eq!(parse_time_control("0"), None);
        // Undone moves lose their notes when another move replaces them.
        g.undo();
        g.play("f6").unwrap();
        assert_eq!(g.note(1), MoveNote::default());
    }

    #[test]
    fn record_text_reads_back() {
        let mut g = GameHistory::new(othello(), "startpos").unwrap();
        g.play("f5").unwrap();
        g.play("d6").unwrap();
        let text = g.record_text();
        assert_eq!(text, "othello8x8 startpos moves f5 d6");
        let back = GameHistory::parse(othello(), &text).unwrap();
        assert_eq!(back.position(), g.position());
        let kalah = GameHistory::parse(othello(), "kalah6x4 startpos moves 3").unwrap();
        assert_eq!(kalah.game().to_string(), "kalah6x4");
        let from_text = GameHistory::parse(othello(), &g.position_text()).unwrap();
        assert_eq!(from_text.position(), g.position());
        let ggf = g.to_ggf("me", "engine", None).unwrap();
        let back = GameHistory::from_ggf(&ggf.to_string().parse().unwrap()).unwrap();
        assert_eq!(back.moves(), g.moves());
        assert!(kalah.to_ggf("a", "b", None).is_err());
        assert!(GameHistory::parse(othello(), "nonsense").is_err());
    }
}
