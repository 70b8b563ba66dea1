//! The Othello position: two bitboards from the side to move's view, plus the geometry.

use std::fmt;

use super::geometry::{Geometry, squares};
use super::movegen::{both_legal_moves, flips, legal_moves};
use crate::game::zobrist;
use crate::game::{Game, GameError, GameId, GameMove, MoveList, Side, Start, board_and_side};

/// A move: a square index (row * 8 + column) or the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OthelloMove(u8);

impl OthelloMove {
    /// The pass, played when the side to move has no legal move but the opponent has.
    pub const PASS: OthelloMove = OthelloMove(64);

    /// The move to `square` (0..64, row-major from a1).
    #[must_use]
    pub fn square(square: u32) -> OthelloMove {
        debug_assert!(square < 64);
        OthelloMove(square as u8)
    }

    /// The square index, or `None` for the pass.
    #[must_use]
    pub fn index(self) -> Option<u32> {
        (self != Self::PASS).then_some(u32::from(self.0))
    }
}

impl GameMove for OthelloMove {
    fn to_byte(self) -> u8 {
        self.0
    }

    fn from_byte(byte: u8) -> Self {
        OthelloMove(byte)
    }
}

impl fmt::Display for OthelloMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index() {
            None => f.write_str("pass"),
            Some(sq) => write!(f, "{}{}", char::from(b'a' + (sq % 8) as u8), sq / 8 + 1),
        }
    }
}

/// The table key of a position: `me` (the side to move's discs) and `opp` mixed with the
/// board's mask. Computed from the bitboards where it is used, so making a move costs
/// nothing for it. The key does not see colours: a position and its colour-swapped twin
/// (same discs for the side to move, other side to move) have the same value from the side
/// to move, so they may share a table entry.
#[inline]
#[must_use]
pub fn position_key(me: u64, opp: u64, mask: u64) -> u64 {
    zobrist::mix(me ^ zobrist::mix(opp ^ mask))
}

/// An Othello position. Black (`X`, [`Side::First`]) moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Othello {
    me: u64,
    opp: u64,
    side: Side,
    geometry: Geometry,
}

impl Othello {
    /// A start position of `geometry`.
    #[must_use]
    pub fn start(geometry: Geometry, start: Start) -> Othello {
        let c = geometry.centre();
        let (black, white) = match start {
            Start::Standard => (1 << (c + 1) | 1 << (c + 8), 1 << c | 1 << (c + 9)),
            Start::Parallel => (1 << (c + 1) | 1 << (c + 9), 1 << c | 1 << (c + 8)),
        };
        Othello::from_colours(geometry, black, white, Side::First)
    }

    /// A position from colour bitboards. Discs must lie on the board and not overlap.
    ///
    /// # Errors
    /// [`GameError::MalformedPosition`] when they do not.
    pub fn from_bitboards(
        geometry: Geometry,
        black: u64,
        white: u64,
        side: Side,
    ) -> Result<Othello, GameError> {
        if black & white != 0 {
            return Err(GameError::MalformedPosition(
                "a square holds two discs".into(),
            ));
        }
        if (black | white) & !geometry.mask() != 0 {
            return Err(GameError::MalformedPosition(format!(
                "a disc lies off the {geometry} board"
            )));
        }
        Ok(Othello::from_colours(geometry, black, white, side))
    }

    fn from_colours(geometry: Geometry, black: u64, white: u64, side: Side) -> Othello {
        let (me, opp) = match side {
            Side::First => (black, white),
            Side::Second => (white, black),
        };
        Othello {
            me,
            opp,
            side,
            geometry,
        }
    }

    /// Reads the position text: one character per board square in row-major order
    /// (`X` black, `O` white, `-` empty), a space, and the side to move (`X` or `O`).
    ///
    /// # Errors
    /// [`GameError::MalformedPosition`] saying what is wrong.
    pub fn parse(geometry: Geometry, text: &str) -> Result<Othello, GameError> {
        let malformed = |why: String| GameError::MalformedPosition(why);
        let (board, side) =
            board_and_side(text, &format!("<{} squares> <X|O>", geometry.squares()))?;
        let side = match side {
            "X" | "x" | "*" | "B" | "b" => Side::First,
            "O" | "o" | "W" | "w" => Side::Second,
            other => {
                return Err(malformed(format!(
                    "side to move must be X or O, not '{other}'"
                )));
            }
        };
        let cells: Vec<char> = board.chars().collect();
        if cells.len() != geometry.squares() as usize {
            return Err(malformed(format!(
                "{geometry} has {} squares, the board text has {}",
                geometry.squares(),
                cells.len()
            )));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (sq, cell) in squares(geometry.mask()).zip(cells) {
            match cell {
                'X' | 'x' | '*' => black |= 1 << sq,
                'O' | 'o' => white |= 1 << sq,
                '-' | '.' => {}
                other => {
                    return Err(malformed(format!(
                        "unexpected character '{other}' on the board"
                    )));
                }
            }
        }
        Ok(Othello::from_colours(geometry, black, white, side))
    }

    /// The board geometry.
    #[must_use]
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Discs of the side to move.
    #[must_use]
    pub fn me(&self) -> u64 {
        self.me
    }

    /// Discs of the opponent of the side to move.
    #[must_use]
    pub fn opp(&self) -> u64 {
        self.opp
    }

    /// Black's discs.
    #[must_use]
    pub fn black(&self) -> u64 {
        if self.side == Side::First {
            self.me
        } else {
            self.opp
        }
    }

    /// White's discs.
    #[must_use]
    pub fn white(&self) -> u64 {
        if self.side == Side::First {
            self.opp
        } else {
            self.me
        }
    }

    /// The empty squares of the board.
    #[must_use]
    pub fn empty(&self) -> u64 {
        self.geometry.mask() & !(self.me | self.opp)
    }

    /// The squares where the side to move may play (no pass).
    #[must_use]
    pub fn moves(&self) -> u64 {
        legal_moves(self.me, self.opp, self.empty())
    }

    /// The squares where the opponent could play if it were its turn.
    #[must_use]
    pub fn opponent_moves(&self) -> u64 {
        legal_moves(self.opp, self.me, self.empty())
    }

    /// [`moves`](Self::moves) and [`opponent_moves`](Self::opponent_moves) at once, for
    /// the cost of about one.
    #[inline]
    #[must_use]
    pub fn both_moves(&self) -> [u64; 2] {
        both_legal_moves(self.me, self.opp, self.empty())
    }

    /// The disc-difference score when the game ends here, empties going to the winner.
    #[must_use]
    pub fn disc_score(&self) -> i32 {
        let mine = self.me.count_ones() as i32;
        let theirs = self.opp.count_ones() as i32;
        let empties = self.empty().count_ones() as i32;
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => mine - theirs + empties,
            std::cmp::Ordering::Less => mine - theirs - empties,
            std::cmp::Ordering::Equal => 0,
        }
    }
}

impl Game for Othello {
    type Move = OthelloMove;

    fn game_id(&self) -> GameId {
        GameId::Othello(self.geometry)
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn generate_moves(&self, moves: &mut MoveList<OthelloMove>) {
        let mine = self.moves();
        if mine != 0 {
            moves.extend(squares(mine).map(OthelloMove::square));
        } else if self.opponent_moves() != 0 {
            moves.push(OthelloMove::PASS);
        }
    }

    fn count_moves(&self) -> usize {
        match self.moves().count_ones() {
            0 => usize::from(self.opponent_moves() != 0),
            n => n as usize,
        }
    }

    #[inline]
    fn play(&self, mv: OthelloMove) -> Othello {
        let Some(sq) = mv.index() else {
            debug_assert!(self.moves() == 0, "pass with legal moves in {self}");
            return Othello {
                me: self.opp,
                opp: self.me,
                side: self.side.opponent(),
                ..*self
            };
        };
        let flipped = flips(sq, self.me, self.opp);
        debug_assert!(
            flipped != 0 && self.empty() & (1 << sq) != 0,
            "illegal {mv} in {self}"
        );
        let placed = 1u64 << sq;
        Othello {
            me: self.opp & !flipped,
            opp: self.me | flipped | placed,
            side: self.side.opponent(),
            geometry: self.geometry,
        }
    }

    fn is_terminal(&self) -> bool {
        self.moves() == 0 && self.opponent_moves() == 0
    }

    fn final_score(&self) -> i32 {
        self.disc_score()
    }

    fn max_score(&self) -> i32 {
        self.geometry.squares() as i32
    }

    fn hash_key(&self) -> u64 {
        position_key(self.me, self.opp, self.geometry.mask())
    }

    fn compute_hash(&self) -> u64 {
        // Nothing is kept up to date move by move: the key is always computed afresh.
        self.hash_key()
    }

    fn parse_move(&self, text: &str) -> Result<OthelloMove, GameError> {
        let malformed = || GameError::MalformedMove(text.to_string());
        if text.eq_ignore_ascii_case("pass") {
            return Ok(OthelloMove::PASS);
        }
        let &[column, row] = text.as_bytes() else {
            return Err(malformed());
        };
        let column = column.to_ascii_lowercase().wrapping_sub(b'a');
        let row = row.wrapping_sub(b'1');
        if column >= 8 || row >= 8 {
            return Err(malformed());
        }
        let sq = u32::from(row) * 8 + u32::from(column);
        if self.geometry.mask() & (1 << sq) == 0 {
            return Err(GameError::MalformedMove(format!(
                "{text} (no such square on {})",
                self.geometry
            )));
        }
        Ok(OthelloMove::square(sq))
    }

    fn empties(&self) -> Option<u32> {
        Some(self.empty().count_ones())
    }
}

impl fmt::Display for Othello {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (black, white) = (self.black(), self.white());
        for sq in squares(self.geometry.mask()) {
            let bit = 1u64 << sq;
            let c = if black & bit != 0 {
                'X'
            } else if white & bit != 0 {
                'O'
            } else {
                '-'
            };
            write!(f, "{c}")?;
        }
        f.write_str(if self.side == Side::First { " X" } else { " O" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_text_is_the_ffo_format() {
        let start = Othello::start(Geometry::Board8x8, Start::Standard);
        assert_eq!(
            start.to_string(),
            "---------------------------OX------XO--------------------------- X"
        );
        assert_eq!(
            Othello::parse(Geometry::Board8x8, &start.to_string()),
            Ok(start)
        );
    }

    #[test]
    fn parallel_start_on_4x4() {
        let start = Othello::start(Geometry::Board4x4, Start::Parallel);
        assert_eq!(start.to_string(), "-----OX--OX----- X");
    }

    #[test]
    fn octagon_start_has_24_squares() {
        let start = Othello::start(Geometry::Octagon, Start::Standard);
        assert_eq!(start.to_string(), "--------OX----XO-------- X");
    }

    #[test]
    fn moves_parse_and_print() {
        let p = Othello::start(Geometry::Board8x8, Start::Standard);
        assert_eq!(p.parse_move("D3").map(|m| m.to_string()), Ok("d3".into()));
        assert_eq!(p.parse_move("PASS"), Ok(OthelloMove::PASS));
        assert!(p.parse_move("i1").is_err());
        assert!(p.parse_move("a9").is_err());
        assert!(p.parse_move("").is_err());
        let small = Othello::start(Geometry::Board4x4, Start::Standard);
        assert!(small.parse_move("e1").is_err());
    }

    #[test]
    fn illegal_moves_are_refused() {
        let p = Othello::start(Geometry::Board8x8, Start::Standard);
        assert!(matches!(
            p.play_text("a1"),
            Err(GameError::IllegalMove { .. })
        ));
        assert!(matches!(
            p.play_text("pass"),
            Err(GameError::IllegalMove { .. })
        ));
        assert!(matches!(
            p.play_text("d4"),
            Err(GameError::IllegalMove { .. })
        ));
        assert!(p.play_text("d3").is_ok());
    }

    #[test]
    fn final_score_gives_empties_to_the_winner() {
        // Four black discs, one white, rest empty: black wins 4-1 with 11 empties.
        let p = Othello::parse(Geometry::Board4x4, "XXXXO----------- O").unwrap();
        assert_eq!(p.final_score(), -(3 + 11));
    }

    #[test]
    fn malformed_positions_are_refused() {
        for text in [
            "",
            "X",
            "XO X",
            "-----OX--OX----- Z",
            "-----OX--OX----? X",
            "a b c",
        ] {
            assert!(Othello::parse(Geometry::Board4x4, text).is_err(), "{text}");
        }
    }
}
