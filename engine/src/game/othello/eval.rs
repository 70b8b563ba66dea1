//! Mid-game evaluation: a predicted final disc margin from the side to move.
//!
//! Features, in hundredths of a disc: corners, discs next to an empty corner, mobility,
//! potential mobility (frontier), stable discs, parity and a small disc-count term.
//! The sum is rounded to whole discs, so heuristic and exact scores share one scale.

use super::geometry::{Geometry, Shift, neighbours, squares};
use super::position::Othello;

/// Feature weights in hundredths of a disc.
#[derive(Clone, Copy, Debug)]
struct Weights {
    disc: i32,
    corner: i32,
    next_to_empty_corner: i32,
    mobility: i32,
    potential_mobility: i32,
    stable: i32,
    parity: i32,
}

const WEIGHTS: Weights = Weights {
    disc: 10,
    corner: 700,
    next_to_empty_corner: -250,
    mobility: 120,
    potential_mobility: 40,
    stable: 120,
    parity: 50,
};

/// The heuristic value of `position` in discs, from the side to move.
#[must_use]
pub fn evaluate(position: &Othello) -> i32 {
    let w = WEIGHTS;
    let geometry = position.geometry();
    let (me, opp) = (position.me(), position.opp());
    let empty = position.empty();
    let corners = geometry.corners();
    let diff = |f: &dyn Fn(u64) -> u32| f(me) as i32 - f(opp) as i32;

    let next_to_empty_corner = squares(corners & empty).fold(0, |acc, c| acc | neighbours(1 << c));
    let mut centi = w.disc * diff(&|d| d.count_ones())
        + w.corner * diff(&|d| (d & corners).count_ones())
        + w.next_to_empty_corner * diff(&|d| (d & next_to_empty_corner).count_ones())
        + w.stable * diff(&|d| stable_discs(geometry, d, me | opp).count_ones());
    centi += w.mobility
        * (position.moves().count_ones() as i32 - position.opponent_moves().count_ones() as i32);
    // Potential mobility: empty squares next to the opponent's discs are future moves for us.
    centi += w.potential_mobility
        * ((neighbours(opp) & empty).count_ones() as i32
            - (neighbours(me) & empty).count_ones() as i32);
    if empty.count_ones() % 2 == 1 {
        centi += w.parity;
    } else {
        centi -= w.parity;
    }
    let limit = geometry.squares() as i32 - 2;
    (centi + 50).div_euclid(100).clamp(-limit, limit)
}

/// Discs of `discs` that can never be flipped: on each line through them, the line is full
/// (`filled` covers it to both board edges) or one neighbour is off the board or itself such
/// a disc. A sound under-estimate.
#[must_use]
pub fn stable_discs(geometry: Geometry, discs: u64, filled: u64) -> u64 {
    let off_board = !geometry.mask();
    let full = full_lines(filled | off_board);
    let mut stable = 0;
    loop {
        let anchored = stable | off_board;
        let mut next = discs;
        for ((a, b), full) in Shift::LINES.into_iter().zip(full) {
            // A square whose neighbour in direction `a` is anchored (or off the 8x8 grid).
            let from_a = b.apply(anchored) | !b.apply(!0);
            let from_b = a.apply(anchored) | !a.apply(!0);
            next &= from_a | from_b | full;
        }
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// For each of the four lines, the squares whose whole line (to both edges of the 8x8 grid)
/// lies inside `filled`.
fn full_lines(filled: u64) -> [u64; 4] {
    Shift::LINES.map(|(a, b)| {
        // Squares from which every square in the direction opposite to `back` is filled.
        let reach = |back: Shift| {
            let mut ok = filled & !back.apply(!0);
            for _ in 0..7 {
                ok |= filled & back.apply(ok);
            }
            ok
        };
        reach(b) & reach(a)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Start};

    #[test]
    fn start_is_balanced() {
        for g in Geometry::ALL {
            let p = Othello::start(g, Start::Standard);
            assert!(evaluate(&p).abs() <= 2, "{g}: {}", evaluate(&p));
        }
    }

    #[test]
    fn corner_and_edge_run_are_stable() {
        let g = Geometry::Board8x8;
        // a1, b1, c1 owned: all three stable; d4 is not.
        let discs = 0b111 | 1 << 27;
        assert_eq!(stable_discs(g, discs, discs), 0b111);
    }

    #[test]
    fn full_lines_are_stable() {
        let g = Geometry::Board8x8;
        // A full top edge of mixed colours, white on both corners: black's edge discs can
        // only be flipped along the edge, which is full.
        let edge = 0xffu64;
        let black = 0b0111_0110;
        assert_eq!(stable_discs(g, black, edge), black);
        // A full row in the middle does not protect against vertical flips.
        let row = 0xffu64 << 24;
        assert_eq!(stable_discs(g, row, row), 0);
        // A full board: everything is stable.
        assert_eq!(stable_discs(g, 0x0f0f, !0), 0x0f0f);
    }

    #[test]
    fn owning_corners_is_good() {
        let p = Othello::parse(
            Geometry::Board8x8,
            "XXX----X-------------------OX------XO--------------------------- X",
        )
        .unwrap();
        assert!(p.evaluate() > 5);
    }
}
