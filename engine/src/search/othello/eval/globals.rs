//! Whole-board features of the trained 8x8 evaluation, read beside its patterns: what no
//! pattern sees. Each feature is a small integer with a weight per value (per phase),
//! trained with the pattern weights: the number of empty squares (a phase spans four, and
//! the side to move's prospects swing between odd and even counts), the quadrants with an
//! odd number of empties (endgame parity), both sides' mobility and both sides' potential
//! mobility. Measured in docs/evaluation.md.

use crate::game::othello::geometry::neighbours;
use crate::game::othello::movegen::both_legal_moves;

/// How many features there are.
pub(crate) const COUNT: usize = 6;

/// Each feature's number of values, in the order of [`values`]: empties, odd quadrants,
/// the side to move's moves, the opponent's, the empty squares next to the opponent's
/// discs (the side to move's potential moves), and next to its own.
pub(crate) const SIZES: [u32; COUNT] = [61, 5, 34, 34, 61, 61];

/// The board's four quadrants.
const QUADRANTS: [u64; 4] = [
    0x0f0f_0f0f,
    0xf0f0_f0f0,
    0x0f0f_0f0f << 32,
    0xf0f0_f0f0 << 32,
];

/// Both sides' legal moves, the side to move's first: what [`values`] reads.
#[inline]
#[must_use]
pub(crate) fn both_moves(me: u64, opp: u64) -> [u64; 2] {
    both_legal_moves(me, opp, !(me | opp))
}

/// Every feature's value for the side to move with discs `me` against `opp`, whose legal
/// moves are `moves` (the side to move's, the opponent's), each below its size.
#[inline]
#[must_use]
pub(crate) fn values(me: u64, opp: u64, moves: [u64; 2]) -> [u32; COUNT] {
    let empty = !(me | opp);
    let odd = QUADRANTS
        .iter()
        .map(|&q| (empty & q).count_ones() & 1)
        .sum();
    let values = [
        empty.count_ones(),
        odd,
        moves[0].count_ones(),
        moves[1].count_ones(),
        (neighbours(opp) & empty).count_ones(),
        (neighbours(me) & empty).count_ones(),
    ];
    std::array::from_fn(|i| values[i].min(SIZES[i] - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::{Geometry, Othello};
    use crate::game::{Game, Start};

    /// The features with the moves found here.
    fn read(me: u64, opp: u64) -> [u32; COUNT] {
        values(me, opp, both_moves(me, opp))
    }

    #[test]
    fn the_start_position_reads_as_expected() {
        let p = Othello::start(Geometry::Board8x8, Start::Standard);
        // 60 empties, every quadrant 15 (odd), 4 moves each, 10 empty squares around each
        // colour's two discs.
        assert_eq!(read(p.me(), p.opp()), [60, 4, 4, 4, 10, 10]);
        assert_eq!(p.empties(), Some(60));
    }

    #[test]
    fn values_stay_below_their_sizes() {
        let boards = [
            (0, 0),
            (u64::MAX, 0),
            (0x5555_5555_5555_5555, 0xaaaa_aaaa_aaaa_aaaa),
        ];
        for (me, opp) in boards {
            for (v, size) in read(me, opp).into_iter().zip(SIZES) {
                assert!(v < size, "{v} of {size} for {me:x} {opp:x}");
            }
        }
    }
}
