//! The static square order of docs/algorithms.md §003, per board geometry, computed once:
//! what the mid-game ordering and the endgame solver both start from.

use std::sync::OnceLock;

use crate::game::othello::Geometry;
use crate::game::othello::geometry::{Shift, neighbours, squares};

/// Static order classes, best first (docs/algorithms.md §003): corners, edges away from corners, the
/// inner board, the ring next to the edge, squares next to corners, X-squares last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
enum SquareClass {
    Corner,
    Edge,
    Inner,
    SecondRing,
    NextToCorner,
    XSquare,
}

/// How many [`SquareClass`]es there are.
const SQUARE_CLASSES: usize = SquareClass::XSquare as usize + 1;

/// Per-geometry data for move ordering, computed once.
pub(crate) struct OrderTables {
    /// The static priority (lower first) of each square.
    pub(crate) priority: [u8; 64],
    /// The corners (unflippable squares).
    pub(crate) corners: u64,
    /// The squares of each static class, best class first.
    pub(crate) classes: [u64; SQUARE_CLASSES],
}

pub(crate) fn order_tables(geometry: Geometry) -> &'static OrderTables {
    static TABLES: OnceLock<Vec<OrderTables>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        Geometry::ALL
            .iter()
            .map(|&g| {
                let priority = priority_table(g);
                OrderTables {
                    classes: std::array::from_fn(|class| {
                        squares(g.mask())
                            .filter(|&sq| usize::from(priority[sq as usize]) == class)
                            .fold(0, |acc, sq| acc | 1 << sq)
                    }),
                    priority,
                    corners: g.corners(),
                }
            })
            .collect()
    });
    let index = Geometry::ALL
        .iter()
        .position(|&g| g == geometry)
        .unwrap_or(0);
    &tables[index]
}

fn priority_table(geometry: Geometry) -> [u8; 64] {
    let mask = geometry.mask();
    let corners = geometry.corners();
    // Squares with a neighbour off the board (in any of the eight directions).
    let edge = squares(mask)
        .map(|sq| 1u64 << sq)
        .filter(|&bit| {
            Shift::LINES
                .iter()
                .any(|&(a, b)| a.apply(bit) & mask == 0 || b.apply(bit) & mask == 0)
        })
        .fold(0, |acc, bit| acc | bit);
    let next_to_corner = neighbours(corners) & mask & !corners;
    let x_squares = next_to_corner & !edge;
    let second_ring = neighbours(edge) & mask & !edge;
    let mut table = [u8::MAX; 64];
    for sq in squares(mask) {
        let bit = 1u64 << sq;
        let class = if corners & bit != 0 {
            SquareClass::Corner
        } else if x_squares & bit != 0 {
            SquareClass::XSquare
        } else if next_to_corner & bit != 0 {
            SquareClass::NextToCorner
        } else if edge & bit != 0 {
            SquareClass::Edge
        } else if second_ring & bit != 0 {
            SquareClass::SecondRing
        } else {
            SquareClass::Inner
        };
        table[sq as usize] = class as u8;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_first_x_squares_last() {
        let p = &order_tables(Geometry::Board8x8).priority;
        assert_eq!(p[0], SquareClass::Corner as u8);
        assert_eq!(p[9], SquareClass::XSquare as u8);
        assert_eq!(p[1], SquareClass::NextToCorner as u8);
        assert_eq!(p[2], SquareClass::Edge as u8);
        assert_eq!(p[27], SquareClass::Inner as u8);
        assert_eq!(p[10], SquareClass::SecondRing as u8);
    }
}
