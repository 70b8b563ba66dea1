//! The Kalah position and its sowing rules.

use std::fmt;

use super::rules::{EndRule, KalahRules};
use crate::game::zobrist;
use crate::game::{Game, GameError, GameId, GameMove, MoveList, Side, Start, board_and_side};

/// A move: the pit number 1..=P, counted in sowing order from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KalahMove(u8);

impl KalahMove {
    /// The move that sows pit `number` (1-based).
    #[must_use]
    pub fn pit(number: u8) -> KalahMove {
        KalahMove(number)
    }

    /// The pit number (1-based).
    #[must_use]
    pub fn number(self) -> u8 {
        self.0
    }
}

impl GameMove for KalahMove {
    fn to_byte(self) -> u8 {
        self.0
    }

    fn from_byte(byte: u8) -> Self {
        KalahMove(byte)
    }
}

impl fmt::Display for KalahMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

const MAX_COUNT: usize = 73;
/// Keys: one per (board index, seed count), then the side to move.
const KEYS: [u64; 14 * MAX_COUNT + 1] = zobrist::keys(0x0ca1_a400_0000_0002);
const SECOND_TO_MOVE_KEY: u64 = KEYS[14 * MAX_COUNT];

fn pit_key(index: usize, count: u8) -> u64 {
    KEYS[index * MAX_COUNT + count as usize]
}

/// A Kalah position. The board is the papers' array: South's pits `0..P`, South's store
/// `P`, North's pits `P+1..=2P`, North's store `2P+1`. South ([`Side::First`]) moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Kalah {
    board: [u8; 14],
    side: Side,
    rules: KalahRules,
    hash: u64,
}

impl Kalah {
    /// The start position: every pit holds the variant's seeds, stores are empty.
    #[must_use]
    pub fn start(rules: KalahRules) -> Kalah {
        let p = usize::from(rules.pits);
        let mut board = [0; 14];
        board[..p].fill(rules.seeds);
        board[p + 1..=2 * p].fill(rules.seeds);
        Kalah::from_board(rules, board, Side::First)
    }

    fn from_board(rules: KalahRules, board: [u8; 14], side: Side) -> Kalah {
        let mut position = Kalah {
            board,
            side,
            rules,
            hash: 0,
        };
        position.hash = position.compute_hash();
        position
    }

    /// Reads the position text: the `2P+2` counts of the board array separated by commas
    /// (South's pits, South's store, North's pits, North's store), a space, and the side
    /// to move (`S` or `N`). The seeds must add up to the variant's total.
    ///
    /// # Errors
    /// [`GameError::MalformedPosition`] saying what is wrong.
    pub fn parse(rules: KalahRules, text: &str) -> Result<Kalah, GameError> {
        let malformed = |why: String| GameError::MalformedPosition(why);
        let len = 2 * usize::from(rules.pits) + 2;
        let (counts, side) =
            board_and_side(text, &format!("<{len} comma-separated counts> <S|N>"))?;
        let side = match side {
            "S" | "s" => Side::First,
            "N" | "n" => Side::Second,
            other => {
                return Err(malformed(format!(
                    "side to move must be S or N, not '{other}'"
                )));
            }
        };
        let counts: Vec<&str> = counts.split(',').collect();
        if counts.len() != len {
            return Err(malformed(format!(
                "{rules} has {len} board entries, got {}",
                counts.len()
            )));
        }
        let mut board = [0u8; 14];
        for (slot, count) in board.iter_mut().zip(&counts) {
            *slot = count
                .parse()
                .map_err(|_| malformed(format!("'{count}' is not a seed count")))?;
        }
        let total: u32 = board.iter().map(|&c| u32::from(c)).sum();
        if total != rules.total_seeds() {
            return Err(malformed(format!(
                "{rules} has {} seeds, the board holds {total}",
                rules.total_seeds()
            )));
        }
        Ok(Kalah::from_board(rules, board, side))
    }

    /// The variant.
    #[must_use]
    pub fn rules(&self) -> KalahRules {
        self.rules
    }

    /// The board array (entries past `2P+1` are zero).
    #[must_use]
    pub fn board(&self) -> [u8; 14] {
        self.board
    }

    fn pits(&self) -> usize {
        usize::from(self.rules.pits)
    }

    /// Index of `side`'s first pit and of its store.
    fn layout(&self, side: Side) -> (usize, usize) {
        let p = self.pits();
        match side {
            Side::First => (0, p),
            Side::Second => (p + 1, 2 * p + 1),
        }
    }

    fn side_seeds(&self, side: Side) -> u32 {
        let (first, store) = self.layout(side);
        self.board[first..store].iter().map(|&c| u32::from(c)).sum()
    }

    /// Seeds in `side`'s store.
    #[must_use]
    pub fn store(&self, side: Side) -> u32 {
        u32::from(self.board[self.layout(side).1])
    }

    fn set(&mut self, index: usize, count: u8) {
        self.hash ^= pit_key(index, self.board[index]) ^ pit_key(index, count);
        self.board[index] = count;
    }
}

impl Game for Kalah {
    type Move = KalahMove;

    fn game_id(&self) -> GameId {
        GameId::Kalah(self.rules)
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn generate_moves(&self, moves: &mut MoveList<KalahMove>) {
        if self.is_terminal() {
            return;
        }
        let (first, store) = self.layout(self.side);
        for (i, &count) in self.board[first..store].iter().enumerate() {
            if count > 0 {
                moves.push(KalahMove(i as u8 + 1));
            }
        }
    }

    fn play(&self, mv: KalahMove) -> Kalah {
        let mut next = *self;
        let (first, own_store) = self.layout(self.side);
        let opponent_store = self.layout(self.side.opponent()).1;
        let ring = 2 * self.pits() + 2;
        let start = first + usize::from(mv.0) - 1;
        debug_assert!(
            start < own_store && self.board[start] > 0,
            "illegal {mv} in {self}"
        );
        let mut seeds = self.board[start];
        next.set(start, 0);
        let mut at = start;
        while seeds > 0 {
            at = (at + 1) % ring;
            if at != opponent_store {
                next.set(at, next.board[at] + 1);
                seeds -= 1;
            }
        }
        if at == own_store {
            return next; // another move for the same side
        }
        if (first..own_store).contains(&at) && next.board[at] == 1 {
            let opposite = 2 * self.pits() - at;
            let captured = next.board[opposite];
            if captured > 0 || self.rules.empty_capture {
                next.set(own_store, next.board[own_store] + captured + 1);
                next.set(at, 0);
                next.set(opposite, 0);
            }
        }
        next.side = self.side.opponent();
        next.hash ^= SECOND_TO_MOVE_KEY;
        next
    }

    fn is_terminal(&self) -> bool {
        match self.rules.end {
            EndRule::EitherSideEmpty => {
                self.side_seeds(Side::First) == 0 || self.side_seeds(Side::Second) == 0
            }
            EndRule::MoverStuck => self.side_seeds(self.side) == 0,
        }
    }

    fn final_score(&self) -> i32 {
        let total = |side| (self.store(side) + self.side_seeds(side)) as i32;
        total(self.side) - total(self.side.opponent())
    }

    fn max_score(&self) -> i32 {
        self.rules.total_seeds() as i32
    }

    fn hash_key(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let side = if self.side == Side::Second {
            SECOND_TO_MOVE_KEY
        } else {
            0
        };
        let variant = zobrist::mix(
            self.rules
                .to_string()
                .bytes()
                .fold(0, |h, b| h << 5 ^ h >> 59 ^ u64::from(b)),
        );
        self.board
            .iter()
            .enumerate()
            .fold(side ^ variant, |h, (i, &c)| h ^ pit_key(i, c))
    }

    fn parse_move(&self, text: &str) -> Result<KalahMove, GameError> {
        // Only the number as moves print it: `str::parse` would also take "+1" and "01".
        match text.parse::<u8>() {
            Ok(n) if (1..=self.rules.pits).contains(&n) && n.to_string() == text => {
                Ok(KalahMove(n))
            }
            _ => Err(GameError::MalformedMove(format!(
                "{text} (a pit number 1..={} is expected)",
                self.rules.pits
            ))),
        }
    }
}

impl fmt::Display for Kalah {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let len = 2 * self.pits() + 2;
        for (i, count) in self.board[..len].iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{count}")?;
        }
        f.write_str(if self.side == Side::First { " S" } else { " N" })
    }
}

/// Kalah has no parallel start.
pub(crate) fn start_of(rules: KalahRules, start: Start) -> Result<Kalah, GameError> {
    match start {
        Start::Standard => Ok(Kalah::start(rules)),
        Start::Parallel => Err(GameError::NoSuchStart {
            game: rules.to_string(),
            start: "parallel".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kalah(id: &str, text: &str) -> Kalah {
        Kalah::parse(id.parse().unwrap(), text).unwrap()
    }

    #[test]
    fn start_text() {
        let start = Kalah::start(KalahRules::new(6, 6).unwrap());
        assert_eq!(start.to_string(), "6,6,6,6,6,6,0,6,6,6,6,6,6,0 S");
    }

    #[test]
    fn last_seed_in_store_gives_another_move() {
        let start = Kalah::start(KalahRules::new(6, 6).unwrap());
        let next = start.play_text("1").unwrap();
        assert_eq!(next.to_string(), "0,7,7,7,7,7,1,6,6,6,6,6,6,0 S");
    }

    #[test]
    fn sowing_skips_the_opponent_store_and_wraps() {
        let p = kalah("kalah2x3", "0,11,0,1,0,0 S");
        // 11 seeds from pit 2 go twice round the five slots South sows into, the last one
        // into South's store: South moves again.
        let next = p.play_text("2").unwrap();
        assert_eq!(next.to_string(), "2,2,3,3,2,0 S");
    }

    #[test]
    fn capture_takes_both_pits() {
        // South sows pit 1 (1 seed) into empty pit 2, opposite (north pit 1) holds 4.
        let p = kalah("kalah2x3", "1,0,5,4,2,0 S");
        assert_eq!(p.play_text("1").unwrap().to_string(), "0,0,10,0,2,0 N");
    }

    #[test]
    fn empty_capture_depends_on_the_rules() {
        let with = kalah("kalah2x3", "1,0,5,0,6,0 S").play_text("1").unwrap();
        assert_eq!(with.to_string(), "0,0,6,0,6,0 N");
        let without = kalah("kalah2x3-noemptycapture", "1,0,5,0,6,0 S")
            .play_text("1")
            .unwrap();
        assert_eq!(without.to_string(), "0,1,5,0,6,0 N");
    }

    #[test]
    fn end_rules() {
        let text = "0,0,6,1,5,0 N";
        let either = kalah("kalah2x3", text);
        assert!(either.is_terminal());
        assert_eq!(either.final_score(), 0);
        let stuck = kalah("kalah2x3-endwhenstuck", text);
        assert!(!stuck.is_terminal());
        assert!(kalah("kalah2x3-endwhenstuck", "0,0,6,1,5,0 S").is_terminal());
    }

    #[test]
    fn bad_positions_and_moves() {
        let rules: KalahRules = "kalah2x3".parse().unwrap();
        for text in [
            "",
            "1,2,3 S",
            "3,3,0,3,3,0 X",
            "3,3,0,3,3,1 S",
            "3,3,0,3,3,x S",
            "3,3,0,3,3,0 S extra",
            "300,3,0,3,3,0 S",
        ] {
            assert!(Kalah::parse(rules, text).is_err(), "{text}");
        }
        let start = Kalah::start(rules);
        assert!(start.parse_move("0").is_err());
        assert!(start.parse_move("3").is_err());
        assert!(start.parse_move("-1").is_err());
        // Only as moves print: a pit's number read otherwise would not be a legal move's text.
        for text in ["+1", "01", " 1", "1 "] {
            assert!(start.parse_move(text).is_err(), "{text}");
        }
        assert_eq!(start.parse_move("2").map(|m| m.to_string()), Ok("2".into()));
        let emptied = Kalah::parse(rules, "0,3,3,3,3,0 S").unwrap();
        assert!(matches!(
            emptied.play_text("1"),
            Err(GameError::IllegalMove { .. })
        ));
    }
}
