//! Mid-game evaluation: a predicted final disc margin from the side to move. On 8x8 the
//! trained patterns of [`super::weights`] by default; here the hand-weighted features,
//! used on every other board and on 8x8 when asked for (option `Eval hand`).
//!
//! Features, in hundredths of a disc: corners, discs next to an empty corner, mobility,
//! potential mobility (frontier), stable discs, parity and a small disc-count term.
//! The sum is rounded to whole discs, so heuristic and exact scores share one scale.

use super::Evaluator;
use crate::game::othello::Othello;
use crate::game::othello::geometry::{neighbours, squares};
use crate::game::othello::stability::stable_discs;
use crate::search::eval::Evaluate;

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

impl Evaluate for Othello {
    /// Which evaluation, with its trained weights.
    type Resources = Evaluator;

    #[inline]
    fn evaluate(&self, evaluator: &Evaluator) -> i32 {
        match evaluator.patterns_for(self.geometry()) {
            Some(weights) => weights.evaluate(self),
            None => evaluate(self),
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Start;
    use crate::game::othello::Geometry;

    #[test]
    fn start_is_balanced() {
        for g in Geometry::ALL {
            let p = Othello::start(g, Start::Standard);
            assert!(evaluate(&p).abs() <= 2, "{g}: {}", evaluate(&p));
        }
    }

    #[test]
    fn owning_corners_is_good() {
        let p = Othello::parse(
            Geometry::Board8x8,
            "XXX----X-------------------OX------XO--------------------------- X",
        )
        .unwrap();
        assert!(evaluate(&p) > 5);
        assert!(p.evaluate(&Evaluator::Hand) > 5);
    }
}
