//! Kalah's exact solver: alpha-beta over the pits alone, fail-soft, to the end of the game.
//!
//! A position's value is its store difference plus the value of its pits (what the side to
//! move can still win from the board), so the solver searches the pits only: positions
//! that differ only in their stores share one table entry. The value of the pits lies
//! within the seeds on the board either way, the databases answer every board they cover,
//! and every table entry is proven, so it holds at any depth.

use arrayvec::ArrayVec;

use super::database::KalahDatabase;
use super::pits::{MAX_BOARD_PITS, PitRules, Pits, Sowing};
use crate::game::kalah::KalahMove;
use crate::game::zobrist;
use crate::search::SolverContext;
use crate::search::bounds_of;
use crate::search::driver::spread_for_thread;
use crate::search::tt::Store;

/// From this many seeds on the board, children's table entries are checked before any
/// search (enhanced transposition cut-off).
const ETC_SEEDS: u32 = 14;

/// From this many seeds on the board, helper threads reorder the moves after the first.
const HELPER_SPREAD_SEEDS: u32 = 20;

/// Table keys of the pits differ from those of whole positions by this.
const PITS_KEY: u64 = 0x6b61_6c61_6870_6974;

/// The table key of `pits` (with the side to move's pits first).
#[inline]
fn pits_key(pits: &Pits) -> u64 {
    let mut bytes = [0u8; 16];
    bytes[..MAX_BOARD_PITS].copy_from_slice(&pits.0);
    let packed = u128::from_le_bytes(bytes);
    zobrist::mix(packed as u64 ^ zobrist::mix((packed >> 64) as u64 ^ PITS_KEY))
}

/// A move of a node's list.
#[derive(Clone, Copy)]
struct Move {
    /// Lower first.
    order: u32,
    pit: usize,
    sowing: Sowing,
}

/// Solves the pits of Kalah positions exactly, with the search's table, counters and limits.
pub(crate) struct KalahSolver<'c, 'a> {
    ctx: &'c mut SolverContext<'a>,
    rules: PitRules,
    db: Option<&'c KalahDatabase>,
}

impl<'c, 'a> KalahSolver<'c, 'a> {
    pub(crate) fn new(
        ctx: &'c mut SolverContext<'a>,
        rules: PitRules,
        db: Option<&'c KalahDatabase>,
    ) -> Self {
        KalahSolver { ctx, rules, db }
    }

    /// The value of `pits` (holding `seeds` seeds) for the side to move, fail-soft in
    /// `(alpha, beta)`. Meaningless once `ctx.stopped` is set.
    pub(crate) fn solve(&mut self, pits: &Pits, seeds: u32, alpha: i32, beta: i32) -> i32 {
        if self.ctx.enter() {
            return 0;
        }
        let ctx = &mut *self.ctx;
        if let Some(v) = pits.final_value(&self.rules) {
            ctx.stats.leaf_evals += 1;
            return v;
        }
        if let Some(v) = self.db.and_then(|db| db.pits_value(pits, seeds)) {
            ctx.stats.leaf_evals += 1;
            ctx.stats.database_hits += 1;
            return v;
        }
        // The side to move wins at most every seed left, and loses at most as many.
        let most = seeds as i32;
        if most <= alpha {
            return most;
        }
        if -most >= beta {
            return -most;
        }
        let (mut lo, mut hi) = (alpha, beta);
        let key = pits_key(pits);
        let mut hash_pit = None;
        let table = ctx.tt;
        if let Some(tt) = table {
            ctx.stats.tt_probes += 1;
            if let Some(entry) = tt.probe(key) {
                hash_pit = entry
                    .best_move::<KalahMove>()
                    .map(|m| usize::from(m.number()) - 1);
                ctx.stats.tt_hits += 1;
                let (lower, upper) = (entry.lower(), entry.upper());
                if lower >= hi || upper <= lo || lower == upper {
                    return if lower >= hi { lower } else { upper };
                }
                lo = lo.max(lower);
                hi = hi.min(upper);
            }
        }

        let p = self.rules.pits;
        let mut moves: ArrayVec<Move, MAX_BOARD_PITS> = pits
            .movable(p)
            .map(|pit| {
                let sowing = pits.sow(&self.rules, pit);
                // Moves that earn another move first (nearest the store first: it does not
                // change the others' counts), then captures (largest first), then the
                // table's move, then the others.
                let order = if sowing.again {
                    (p - pit) as u32
                } else if sowing.capture {
                    200 - sowing.gain as u32
                } else if hash_pit == Some(pit) {
                    300
                } else {
                    // Most sown into the store first, then nearest the store.
                    1000 - 8 * sowing.gain as u32 + (p - pit) as u32
                };
                Move { order, pit, sowing }
            })
            .collect();
        moves.sort_unstable_by_key(|m| m.order);
        if self.ctx.thread > 0 && seeds >= HELPER_SPREAD_SEEDS {
            // Helper threads (lazy SMP) take the moves after the first in another order,
            // so that they spread over the tree instead of repeating the main search.
            spread_for_thread(&mut moves, self.ctx.thread);
        }

        if let Some(tt) = table.filter(|_| seeds >= ETC_SEEDS) {
            for m in moves.iter().filter(|m| !m.sowing.again) {
                self.ctx.stats.tt_probes += 1;
                if let Some(entry) = tt.probe(pits_key(&m.sowing.next))
                    && m.sowing.gain - entry.upper() >= hi
                {
                    self.ctx.stats.tt_hits += 1;
                    return m.sowing.gain - entry.upper();
                }
            }
        }

        let mut best = i32::MIN;
        let mut best_pit = moves[0].pit;
        for m in &moves {
            let Sowing {
                next, gain, again, ..
            } = m.sowing;
            let rest = seeds - gain as u32;
            let floor = lo.max(best);
            let v = if again {
                gain + self.solve(&next, rest, floor - gain, hi - gain)
            } else {
                gain - self.solve(&next, rest, gain - hi, gain - floor)
            };
            if *self.ctx.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_pit = m.pit;
                if best >= hi {
                    break;
                }
            }
        }
        if let Some(tt) = table {
            let (lower, upper) = bounds_of(best, lo, hi);
            tt.store(&Store {
                key,
                depth: seeds as i32,
                lower,
                upper,
                proven: true,
                selectivity: 0,
                best_move: Some(KalahMove::pit(best_pit as u8 + 1)),
            });
        }
        best
    }
}
