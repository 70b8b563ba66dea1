//! Stable discs: a rules fact (which discs can never be flipped again) that both the
//! evaluation and the endgame solver use.

use super::geometry::{Geometry, Shift};

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
}
