//! Board shapes. Every board is embedded in the top-left corner of an 8x8 bitboard
//! (square index = row * 8 + column), and a mask says which squares exist.

use std::fmt;
use std::str::FromStr;

use crate::game::GameError;

/// One of the Othello boards we support.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Geometry {
    /// The standard 8x8 board.
    Board8x8,
    /// 6x6 (solved by Feinstein, 1993: White wins by 4).
    Board6x6,
    /// 4x4 (docs/algorithms.md §000 and §002).
    Board4x4,
    /// 4 rows by 6 columns (docs/algorithms.md §002).
    Board4x6,
    /// The 24-square "mini-mini" board of docs/algorithms.md §000: rows of 2, 4, 6, 6, 4, 2 cut from 6x6.
    Octagon,
}

/// Columns 2-3, 1-4, 0-5, 0-5, 1-4, 2-3 of rows 0-5.
const OCTAGON_MASK: u64 = 0x0c | 0x1e << 8 | 0x3f << 16 | 0x3f << 24 | 0x1e << 32 | 0x0c << 40;

impl Geometry {
    /// Every supported geometry.
    pub const ALL: [Geometry; 5] = [
        Geometry::Board8x8,
        Geometry::Board6x6,
        Geometry::Board4x4,
        Geometry::Board4x6,
        Geometry::Octagon,
    ];

    /// Number of rows.
    #[must_use]
    pub const fn rows(self) -> u32 {
        match self {
            Geometry::Board8x8 => 8,
            Geometry::Board6x6 | Geometry::Octagon => 6,
            Geometry::Board4x4 | Geometry::Board4x6 => 4,
        }
    }

    /// Number of columns.
    #[must_use]
    pub const fn columns(self) -> u32 {
        match self {
            Geometry::Board8x8 => 8,
            Geometry::Board6x6 | Geometry::Octagon | Geometry::Board4x6 => 6,
            Geometry::Board4x4 => 4,
        }
    }

    /// The squares that exist on this board.
    #[must_use]
    pub const fn mask(self) -> u64 {
        match self {
            Geometry::Octagon => OCTAGON_MASK,
            _ => {
                let row = (1u64 << self.columns()) - 1;
                let mut mask = 0;
                let mut r = 0;
                while r < self.rows() {
                    mask |= row << (8 * r);
                    r += 1;
                }
                mask
            }
        }
    }

    /// Number of squares on the board.
    #[must_use]
    pub const fn squares(self) -> u32 {
        self.mask().count_ones()
    }

    /// The game id (`othello8x8`, ..., `octagon`).
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Geometry::Board8x8 => "othello8x8",
            Geometry::Board6x6 => "othello6x6",
            Geometry::Board4x4 => "othello4x4",
            Geometry::Board4x6 => "othello4x6",
            Geometry::Octagon => "octagon",
        }
    }

    /// Index (0-based) of the upper-left of the four centre squares.
    #[must_use]
    pub const fn centre(self) -> u32 {
        (self.rows() / 2 - 1) * 8 + self.columns() / 2 - 1
    }

    /// The squares that can never be flipped: on each of the four lines through them,
    /// at least one neighbour is off the board (the four corners on a rectangle).
    #[must_use]
    pub fn corners(self) -> u64 {
        let mask = self.mask();
        let on_board = |bits: u64, shift: Shift| shift.apply(bits) & mask != 0;
        squares(mask)
            .map(|sq| 1u64 << sq)
            .filter(|&bit| {
                Shift::LINES
                    .iter()
                    .all(|&(a, b)| !on_board(bit, a) || !on_board(bit, b))
            })
            .fold(0, |acc, bit| acc | bit)
    }
}

impl fmt::Display for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Geometry {
    type Err = GameError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.to_ascii_lowercase();
        if lower == "othello" || lower == "reversi" {
            return Ok(Geometry::Board8x8);
        }
        Geometry::ALL
            .into_iter()
            .find(|g| g.id() == lower)
            .ok_or_else(|| GameError::UnknownGame(s.to_string()))
    }
}

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// One step in one of the eight directions on the 8x8 bitboard, without wrapping.
#[derive(Clone, Copy, Debug)]
pub struct Shift {
    /// Shift amount; positive shifts towards higher square indices.
    amount: i32,
    /// Squares that may be reached (masks out wrapping across the board edge).
    keep: u64,
}

impl Shift {
    const EAST: Shift = Shift {
        amount: 1,
        keep: NOT_A,
    };
    const WEST: Shift = Shift {
        amount: -1,
        keep: NOT_H,
    };
    const SOUTH: Shift = Shift {
        amount: 8,
        keep: !0,
    };
    const NORTH: Shift = Shift {
        amount: -8,
        keep: !0,
    };
    const SOUTH_EAST: Shift = Shift {
        amount: 9,
        keep: NOT_A,
    };
    const NORTH_WEST: Shift = Shift {
        amount: -9,
        keep: NOT_H,
    };
    const SOUTH_WEST: Shift = Shift {
        amount: 7,
        keep: NOT_H,
    };
    const NORTH_EAST: Shift = Shift {
        amount: -7,
        keep: NOT_A,
    };

    /// The four lines, each as its two opposite directions.
    pub const LINES: [(Shift, Shift); 4] = [
        (Shift::EAST, Shift::WEST),
        (Shift::SOUTH, Shift::NORTH),
        (Shift::SOUTH_EAST, Shift::NORTH_WEST),
        (Shift::SOUTH_WEST, Shift::NORTH_EAST),
    ];

    /// True when this direction goes towards higher square indices.
    #[must_use]
    pub const fn towards_higher(self) -> bool {
        self.amount > 0
    }

    /// The squares a step in this direction may land on (the others would wrap around
    /// an edge).
    #[must_use]
    pub const fn keep(self) -> u64 {
        self.keep
    }

    /// The shift amount: positive towards higher square indices.
    #[must_use]
    pub const fn amount(self) -> i32 {
        self.amount
    }

    /// Moves every bit one step in this direction.
    #[must_use]
    pub const fn apply(self, bits: u64) -> u64 {
        if self.amount > 0 {
            (bits << self.amount) & self.keep
        } else {
            (bits >> -self.amount) & self.keep
        }
    }
}

/// The squares adjacent (in the eight directions) to any square of `bits`.
#[must_use]
pub fn neighbours(bits: u64) -> u64 {
    let horizontal = ((bits << 1) & NOT_A) | ((bits >> 1) & NOT_H) | bits;
    (horizontal | (horizontal << 8) | (horizontal >> 8)) & !bits
}

/// Iterates over the indices of the set bits, lowest first.
pub fn squares(mut bits: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let sq = bits.trailing_zeros();
            bits &= bits - 1;
            sq
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_counts() {
        let counts: Vec<u32> = Geometry::ALL.iter().map(|g| g.squares()).collect();
        assert_eq!(counts, [64, 36, 16, 24, 24]);
    }

    #[test]
    fn octagon_rows_are_2_4_6_6_4_2() {
        let rows: Vec<u32> = (0..8)
            .map(|r| ((Geometry::Octagon.mask() >> (8 * r)) & 0xff).count_ones())
            .collect();
        assert_eq!(rows, [2, 4, 6, 6, 4, 2, 0, 0]);
    }

    #[test]
    fn corners() {
        assert_eq!(Geometry::Board8x8.corners(), 0x8100_0000_0000_0081);
        assert_eq!(Geometry::Board4x6.corners(), 1 | 1 << 5 | 1 << 24 | 1 << 29);
        // The octagon's unflippable squares: both squares of the short rows, both ends of the long rows.
        assert_eq!(
            Geometry::Octagon.corners(),
            0b1100 | 0b1100 << 40 | 0b10_0001 << 16 | 0b10_0001 << 24
        );
    }

    #[test]
    fn ids_round_trip() {
        for g in Geometry::ALL {
            assert_eq!(g.id().parse::<Geometry>(), Ok(g));
        }
        assert_eq!("othello".parse::<Geometry>(), Ok(Geometry::Board8x8));
        assert!("othello5x5".parse::<Geometry>().is_err());
    }
}
