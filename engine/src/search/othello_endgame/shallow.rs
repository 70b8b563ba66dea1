//! The last empty squares, without the table: fewest-opponent-replies first with
//! several empties, then region by region with odd regions first (parity), and dedicated
//! code for the last two squares.

use arrayvec::ArrayVec;

use super::{Solver, final_score};
use crate::game::othello::geometry::squares;
use crate::game::othello::last_flips::count_last_flips;
use crate::game::othello::movegen::{NEIGHBOURS, flips, legal_moves};
use crate::game::othello::stability::stable_discs;
use crate::search::INFINITY;

/// From this many empties on, order by the opponent's replies rather than by parity.
const FASTEST_FIRST_EMPTIES: u32 = 7;

/// The stability cutoff is tried only with this many empties or more, and only when alpha
/// is at least this high (otherwise it rarely cuts and costs more than it saves).
const STABILITY_EMPTIES: u32 = 7;
const STABILITY_ALPHA: i32 = 8;

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
            1 => return self.last_square(me, opp, empty),
            2 => return self.two_squares(me, opp, alpha, beta, passed, empty),
            3 => {
                let order = self.parity_order(empty);
                return self.three_squares(me, opp, alpha, beta, passed, order);
            }
            _ => {}
        }
        if empty.count_ones() >= STABILITY_EMPTIES && alpha >= STABILITY_ALPHA {
            // The opponent keeps its stable discs: we cannot score more than this.
            let most =
                self.squares - 2 * stable_discs(self.geometry, opp, me | opp).count_ones() as i32;
            if most <= alpha {
                return most;
            }
        }
        let mut best = -INFINITY;
        if empty.count_ones() >= FASTEST_FIRST_EMPTIES {
            let mut moves: ArrayVec<(u32, u64, u64), 32> = ArrayVec::new();
            for sq in squares(legal_moves(me, opp, empty)) {
                let placed = 1u64 << sq;
                let flipped = flips(sq, me, opp);
                let (next_me, next_opp) = (opp & !flipped, me | flipped | placed);
                let replies = legal_moves(next_me, next_opp, empty & !placed).count_ones();
                moves.push((replies << 8 | sq, next_me, next_opp));
            }
            moves.sort_unstable_by_key(|m| m.0);
            for (_, next_me, next_opp) in moves {
                let v = -self.shallow(next_me, next_opp, -beta, -alpha.max(best), false);
                if v > best {
                    best = v;
                    if v >= beta {
                        return v;
                    }
                }
            }
        } else {
            let odd = self
                .regions
                .iter()
                .filter(|&&r| (r & empty).count_ones() % 2 == 1)
                .fold(0, |acc, r| acc | r);
            for group in [empty & odd, empty & !odd] {
                for sq in squares(group) {
                    if NEIGHBOURS[sq as usize] & opp == 0 {
                        continue;
                    }
                    let flipped = flips(sq, me, opp);
                    if flipped == 0 {
                        continue;
                    }
                    let v = -self.shallow(
                        opp & !flipped,
                        me | flipped | 1 << sq,
                        -beta,
                        -alpha.max(best),
                        false,
                    );
                    if v > best {
                        best = v;
                        if v >= beta {
                            return v;
                        }
                    }
                }
            }
        }
        if best > -INFINITY {
            return best;
        }
        if passed || empty == 0 {
            self.ctx.stats.leaf_evals += 1;
            return final_score(me, opp, empty.count_ones() as i32);
        }
        -self.shallow(opp, me, -beta, -alpha, true)
    }

    /// The three empty squares in the order the general case tries them: those alone in
    /// their quadrant (odd regions) first, each group from the lowest square up.
    fn parity_order(&self, empty: u64) -> [u32; 3] {
        let a = empty.trailing_zeros();
        let rest = empty & (empty - 1);
        let (b, c) = (rest.trailing_zeros(), 63 - rest.leading_zeros());
        let q = |sq: u32| self.quadrant[sq as usize];
        if q(a) == q(b) && q(b) != q(c) {
            [c, a, b]
        } else if q(a) == q(c) && q(a) != q(b) {
            [b, a, c]
        } else {
            [a, b, c]
        }
    }

    /// Three empty squares left, in `order`: the general case's search and node count
    /// without its bookkeeping.
    fn three_squares(
        &mut self,
        me: u64,
        opp: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
        order: [u32; 3],
    ) -> i32 {
        let empty = order.iter().fold(0u64, |acc, &sq| acc | 1 << sq);
        let mut best = -INFINITY;
        for sq in order {
            if NEIGHBOURS[sq as usize] & opp == 0 {
                continue;
            }
            let flipped = flips(sq, me, opp);
            if flipped == 0 {
                continue;
            }
            // The child is a node with two empty squares.
            self.ctx.stats.nodes += 1;
            let placed = 1 << sq;
            let v = -self.two_squares(
                opp & !flipped,
                me | flipped | placed,
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
            return final_score(me, opp, 3);
        }
        self.ctx.stats.nodes += 1;
        -self.three_squares(opp, me, -beta, -alpha, true, order)
    }

    /// Two empty squares left, searched exactly as the general case would (both quadrants
    /// hold one empty each or one holds both, so parity tries the lower square first),
    /// counting the same nodes, without its move ordering's bookkeeping.
    fn two_squares(
        &mut self,
        me: u64,
        opp: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
        empty: u64,
    ) -> i32 {
        let mut best = -INFINITY;
        for sq in squares(empty) {
            if NEIGHBOURS[sq as usize] & opp == 0 {
                continue;
            }
            let flipped = flips(sq, me, opp);
            if flipped == 0 {
                continue;
            }
            // The child is a node with one empty square.
            self.ctx.stats.nodes += 1;
            let placed = 1 << sq;
            let v = -self.last_square(opp & !flipped, me | flipped | placed, empty & !placed);
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
            return final_score(me, opp, 2);
        }
        self.ctx.stats.nodes += 1;
        -self.two_squares(opp, me, -beta, -alpha, true, empty)
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
