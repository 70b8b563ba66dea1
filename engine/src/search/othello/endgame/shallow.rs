//! The last empty squares, without the table: fewest-opponent-replies first with
//! several empties, then in parity order (odd regions first) with no move list, and
//! dedicated code for the last three squares (no order to compute, no loop to set up).

use arrayvec::ArrayVec;

use super::{Solver, final_score};
use crate::game::othello::geometry::squares;
use crate::game::othello::last_flips::count_last_flips;
use crate::game::othello::movegen::{NEIGHBOURS, flips, legal_moves};
use crate::search::INFINITY;

/// From this many empties on, order by the opponent's replies; below, by parity alone in
/// [`Solver::parity_squares`]. The stability cut-off is tried only from here on too.
const FASTEST_FIRST_EMPTIES: usize = 7;
const FASTEST_FIRST_EMPTIES_U32: u32 = FASTEST_FIRST_EMPTIES as u32;

/// A node of the parity layer: the position, its window, whether the move before was a
/// pass, its empty squares ([`Solver::in_order`]'s arguments in one).
#[derive(Clone, Copy)]
struct Few {
    me: u64,
    opp: u64,
    alpha: i32,
    beta: i32,
    passed: bool,
    empty: u64,
}

impl Few {
    fn new(me: u64, opp: u64, alpha: i32, beta: i32, passed: bool, empty: u64) -> Few {
        Few {
            me,
            opp,
            alpha,
            beta,
            passed,
            empty,
        }
    }
}

impl Solver<'_, '_> {
    /// The exact value with few empties (no table, no limit checks: the work is small).
    pub(super) fn shallow(
        &mut self,
        me: u64,
        opp: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        self.ctx.stats.nodes += 1;
        let empty = self.mask & !(me | opp);
        match empty.count_ones() {
            0 => {
                self.ctx.stats.leaf_evals += 1;
                return final_score(me, opp, 0);
            }
            1 => return self.last_square(me, opp, empty),
            2 => return self.last_two(me, opp, alpha, beta, passed, empty),
            3 => return self.last_three(me, opp, alpha, beta, passed, empty),
            4..FASTEST_FIRST_EMPTIES_U32 => {
                return self.parity_squares(me, opp, alpha, beta, passed, empty);
            }
            _ => {}
        }
        if let Some(most) = self.stability_cutoff(me, opp, alpha) {
            return most;
        }
        let mut moves: ArrayVec<(u32, u64, u64), 32> = ArrayVec::new();
        for sq in squares(legal_moves(me, opp, empty)) {
            let placed = 1u64 << sq;
            let flipped = flips(sq, me, opp);
            let (next_me, next_opp) = (opp & !flipped, me | flipped | placed);
            let replies = legal_moves(next_me, next_opp, empty & !placed).count_ones();
            moves.push((replies << 8 | sq, next_me, next_opp));
        }
        moves.sort_unstable_by_key(|m| m.0);
        let mut best = -INFINITY;
        for (_, next_me, next_opp) in moves {
            let v = -self.shallow(next_me, next_opp, -beta, -alpha.max(best), false);
            if v > best {
                best = v;
                if v >= beta {
                    return v;
                }
            }
        }
        if best > -INFINITY {
            return best;
        }
        if passed {
            self.ctx.stats.leaf_evals += 1;
            return final_score(me, opp, empty.count_ones() as i32);
        }
        -self.shallow(opp, me, -beta, -alpha, true)
    }

    /// The empty squares (fewer than [`FASTEST_FIRST_EMPTIES`]) in parity order: those of
    /// quadrants with an odd number of empties first, each group from the lowest square up.
    fn parity_order(&self, empty: u64) -> ArrayVec<u32, FASTEST_FIRST_EMPTIES> {
        let odd = self
            .regions
            .iter()
            .filter(|&&r| (r & empty).count_ones() % 2 == 1)
            .fold(0, |acc, r| acc | r);
        squares(empty & odd).chain(squares(empty & !odd)).collect()
    }

    /// A node with four to six empty squares, searched in parity order without a move
    /// list. Its node is counted by its parent.
    fn parity_squares(
        &mut self,
        me: u64,
        opp: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
        empty: u64,
    ) -> i32 {
        let node = Few::new(me, opp, alpha, beta, passed, empty);
        let order = self.parity_order(empty);
        let child = if order.len() == 4 {
            Self::last_three
        } else {
            Self::parity_squares
        };
        self.in_order(node, &order, child, Self::parity_squares)
    }

    /// Three empty squares left, in parity order (as [`Solver::parity_order`] gives it,
    /// from the squares' quadrants alone: the square alone in its quadrant first when the
    /// other two share one, an even one; otherwise every square is odd, lowest first).
    fn last_three(
        &mut self,
        me: u64,
        opp: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
        empty: u64,
    ) -> i32 {
        let node = Few::new(me, opp, alpha, beta, passed, empty);
        let (low, high) = (empty.trailing_zeros(), 63 - empty.leading_zeros());
        let middle = (empty & !(1 << low | 1 << high)).trailing_zeros();
        let same = |x: u32, y: u32| {
            let both = 1 << x | 1 << y;
            self.regions.iter().any(|&r| r & both == both)
        };
        let order = if same(low, middle) && !same(middle, high) {
            [high, low, middle]
        } else if same(low, high) && !same(low, middle) {
            [middle, low, high]
        } else {
            [low, middle, high]
        };
        self.in_order(node, &order, Self::last_two, Self::last_three)
    }

    /// Two empty squares left, the lower tried first (the order parity would give them:
    /// both in odd quadrants or both in even ones).
    fn last_two(
        &mut self,
        me: u64,
        opp: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
        empty: u64,
    ) -> i32 {
        let node = Few::new(me, opp, alpha, beta, passed, empty);
        let order = [empty.trailing_zeros(), 63 - empty.leading_zeros()];
        let last = |s: &mut Self, me, opp, _, _, _, empty| s.last_square(me, opp, empty);
        self.in_order(node, &order, last, Self::last_two)
    }

    /// The moves of a node with few empties in `order` (every empty square), each child
    /// searched by `child`, a pass by `again` (this node's own search for the opponent).
    /// The children's nodes are counted here, as `shallow` would count them. Inlined
    /// into each caller, so that the calls are direct.
    #[inline(always)]
    fn in_order(
        &mut self,
        node: Few,
        order: &[u32],
        child: impl Fn(&mut Self, u64, u64, i32, i32, bool, u64) -> i32,
        again: fn(&mut Self, u64, u64, i32, i32, bool, u64) -> i32,
    ) -> i32 {
        let Few {
            me,
            opp,
            alpha,
            beta,
            passed,
            empty,
        } = node;
        let mut best = -INFINITY;
        for &sq in order {
            if NEIGHBOURS[sq as usize] & opp == 0 {
                continue;
            }
            let flipped = flips(sq, me, opp);
            if flipped == 0 {
                continue;
            }
            // The child's node.
            self.ctx.stats.nodes += 1;
            let placed = 1 << sq;
            let (next_me, next_opp) = (opp & !flipped, me | flipped | placed);
            let v = -child(
                self,
                next_me,
                next_opp,
                -beta,
                -alpha.max(best),
                false,
                empty & !placed,
            );
            if v > best {
                best = v;
                if v >= beta {
                    return v;
                }
            }
        }
        if best > -INFINITY {
            return best;
        }
        if passed {
            self.ctx.stats.leaf_evals += 1;
            return final_score(me, opp, order.len() as i32);
        }
        self.ctx.stats.nodes += 1;
        -again(self, opp, me, -beta, -alpha, true, empty)
    }

    /// One empty square left: whoever can play there does, then the game is over.
    fn last_square(&mut self, me: u64, opp: u64, empty: u64) -> i32 {
        self.ctx.stats.leaf_evals += 1;
        let sq = empty.trailing_zeros();
        if self.mask == u64::MAX {
            // A full 8x8 board but for this square: count the flips, make none.
            let mine = me.count_ones() as i32;
            let n = count_last_flips(sq, me) as i32;
            if n > 0 {
                return 2 * (mine + n) - 62;
            }
            let n = count_last_flips(sq, opp) as i32;
            if n > 0 {
                return 2 * (mine - n) - 64;
            }
            return if 2 * mine > 63 {
                2 * mine - 62
            } else {
                2 * mine - 64
            };
        }
        let mine = flips(sq, me, opp);
        if mine != 0 {
            return final_score(me | mine | empty, opp & !mine, 0);
        }
        let theirs = flips(sq, opp, me);
        if theirs != 0 {
            return final_score(me & !theirs, opp | theirs | empty, 0);
        }
        final_score(me, opp, 1)
    }
}
