//! Exact solver for the last empty squares of Othello: bitboards only, no table, fail-soft.
//! With many empties, moves are tried fewest-opponent-replies first; near the end, empties
//! are tried region by region with odd regions first (parity).

use arrayvec::ArrayVec;

use super::{INFINITY, SearchStats};
use crate::game::othello::geometry::squares;
use crate::game::othello::movegen::{flips, legal_moves};
use crate::game::othello::stability::stable_discs;
use crate::game::othello::{Geometry, Othello};

/// The exact final score of `position` from the side to move, fail-soft in `(alpha, beta)`.
#[must_use]
pub fn solve(position: &Othello, alpha: i32, beta: i32, stats: &mut SearchStats) -> i32 {
    let geometry = position.geometry();
    let mut solver = Solver {
        stats,
        geometry,
        mask: geometry.mask(),
        squares: geometry.squares() as i32,
        regions: regions(geometry),
    };
    solver.solve(position.me(), position.opp(), alpha, beta, false)
}

/// The four quadrants of the board, for parity.
fn regions(geometry: Geometry) -> [u64; 4] {
    let (rows, columns) = (geometry.rows(), geometry.columns());
    let mut out = [0u64; 4];
    for sq in squares(geometry.mask()) {
        let (r, c) = (sq / 8, sq % 8);
        let q = usize::from(r >= rows / 2) * 2 + usize::from(c >= columns / 2);
        out[q] |= 1 << sq;
    }
    out
}

/// Final disc difference for `me` with `empties` empty squares going to the winner.
fn final_score(me: u64, opp: u64, empties: i32) -> i32 {
    let diff = me.count_ones() as i32 - opp.count_ones() as i32;
    match diff.signum() {
        1 => diff + empties,
        -1 => diff - empties,
        _ => 0,
    }
}

/// From this many empties on, order by the opponent's replies rather than by parity.
const FASTEST_FIRST_EMPTIES: u32 = 7;

/// The stability cutoff is tried only with this many empties or more, and only when alpha
/// is at least this high (otherwise it rarely cuts and costs more than it saves).
const STABILITY_EMPTIES: u32 = 7;
const STABILITY_ALPHA: i32 = 8;

struct Solver<'a> {
    stats: &'a mut SearchStats,
    geometry: Geometry,
    mask: u64,
    squares: i32,
    regions: [u64; 4],
}

impl Solver<'_> {
    fn solve(&mut self, me: u64, opp: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        self.stats.nodes += 1;
        let empty = self.mask & !(me | opp);
        match empty.count_ones() {
            1 => return self.last_square(me, opp, empty),
            2 => return self.two_squares(me, opp, alpha, beta, passed, empty),
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
                let v = -self.solve(next_me, next_opp, -beta, -alpha.max(best), false);
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
                    let flipped = flips(sq, me, opp);
                    if flipped == 0 {
                        continue;
                    }
                    let v = -self.solve(
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
            self.stats.leaf_evals += 1;
            return final_score(me, opp, empty.count_ones() as i32);
        }
        -self.solve(opp, me, -beta, -alpha, true)
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
            let flipped = flips(sq, me, opp);
            if flipped == 0 {
                continue;
            }
            // The child is a node with one empty square.
            self.stats.nodes += 1;
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
            self.stats.leaf_evals += 1;
            return final_score(me, opp, 2);
        }
        self.stats.nodes += 1;
        -self.two_squares(opp, me, -beta, -alpha, true, empty)
    }

    /// One empty square left: whoever can play there does, then the game is over.
    fn last_square(&mut self, me: u64, opp: u64, empty: u64) -> i32 {
        self.stats.leaf_evals += 1;
        let sq = empty.trailing_zeros();
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
