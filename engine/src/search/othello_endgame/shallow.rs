//! The last empty squares, without the table: fewest-opponent-replies first with
//! several empties, then region by region with odd regions first (parity), and dedicated
//! code for the last four squares and the last one.

use arrayvec::ArrayVec;

use super::{Solver, final_score};
use crate::game::othello::geometry::squares;
use crate::game::othello::last_flips::count_last_flips;
use crate::game::othello::movegen::{NEIGHBOURS, flips, legal_moves};
use crate::game::othello::stability::stable_discs;
use crate::search::INFINITY;

/// Up to this many empties, [`Solver::few_squares`] searches without the general node's
/// bookkeeping.
const FEW_EMPTIES: usize = 4;
const FEW_EMPTIES_U32: u32 = FEW_EMPTIES as u32;

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
            2..=FEW_EMPTIES_U32 => return self.few_squares(me, opp, alpha, beta, passed, empty),
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

    /// The empty squares (at most [`FEW_EMPTIES`]) in the order the general case tries
    /// them: those of quadrants with an odd number of empties first, each group from the
    /// lowest square up.
    fn parity_order(&self, empty: u64) -> ArrayVec<u32, FEW_EMPTIES> {
        let mut odd = 0u8;
        for sq in squares(empty) {
            odd ^= 1 << self.quadrant[sq as usize];
        }
        let is_odd = |sq: &u32| odd & 1 << self.quadrant[*sq as usize] != 0;
        let mut order: ArrayVec<u32, FEW_EMPTIES> = squares(empty).filter(is_odd).collect();
        order.extend(squares(empty).filter(|sq| !is_odd(sq)));
        order
    }

    /// The last few empty squares, searched in the general case's order and counting the
    /// same nodes, without its bookkeeping (no move list, no ordering beyond parity).
    fn few_squares(
        &mut self,
        me: u64,
        opp: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
        empty: u64,
    ) -> i32 {
        let order = self.parity_order(empty);
        let mut best = -INFINITY;
        for &sq in &order {
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
            let (next_me, next_opp, rest) =
                (opp & !flipped, me | flipped | placed, empty & !placed);
            let v = if order.len() == 2 {
                -self.last_square(next_me, next_opp, rest)
            } else {
                -self.few_squares(next_me, next_opp, -beta, -alpha.max(best), false, rest)
            };
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
        -self.few_squares(opp, me, -beta, -alpha, true, empty)
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
