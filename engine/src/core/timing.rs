//! Turning a clock (`go time <ms> inc <ms>`) into a time for this move.

use std::time::Duration;

use crate::game::AnyPosition;

/// Kept back from every budget for the protocol round trip and the end of the search.
const MARGIN_MS: u64 = 20;

/// Othello's empties from which the solver plays: its moves from there take a small part
/// of the clock (under 60 s + 0.5 s, 0.1 s a move on average from 23 empties, against
/// 3-5 s before; under 10 s + 0.1 s, 0.2 s against 0.5-0.9 s).
const SOLVER_EMPTIES: u32 = 20;

/// The solver's moves, counted as this many moves of the clock's share: a reserve for the
/// solves that take longer than usual. One: with two, a quarter of a 10 s + 0.1 s clock
/// was left at the end (docs/benchmarks-journal.md, session 46).
const SOLVER_MOVES: u32 = 1;

/// Moves counted beyond the side's own before the late middle game, so that the time the
/// solver's moves leave goes more to the moves from 44 to 21 empties (they decide the
/// endgame that the solver then plays) than to the early ones.
const LATE_MIDDLE_GAME_MOVES: u32 = 4;

/// Empties at which [`LATE_MIDDLE_GAME_MOVES`] are all gone: they phase out over the 16
/// empties above (from 44), one every four empties.
const LATE_MIDDLE_GAME_FROM: u32 = 28;

/// The moves the side to move shares its clock among, roughly.
pub(crate) fn moves_left(position: &AnyPosition) -> u64 {
    match position {
        AnyPosition::Othello(p) => {
            othello_moves_left(crate::game::Game::empties(p).unwrap_or(60)).into()
        }
        // Kalah games are rarely longer than this for one side after the opening.
        AnyPosition::Kalah(_) => 20,
    }
}

/// [`moves_left`] of an Othello position with `empties` empty squares: each side fills
/// about half of them, the solver's counted as [`SOLVER_MOVES`], and the moves before the
/// late middle game with [`LATE_MIDDLE_GAME_MOVES`] more.
fn othello_moves_left(empties: u32) -> u32 {
    empties.saturating_sub(SOLVER_EMPTIES).div_ceil(2)
        + empties.div_ceil(2).min(SOLVER_MOVES)
        + (empties.saturating_sub(LATE_MIDDLE_GAME_FROM) / 4).min(LATE_MIDDLE_GAME_MOVES)
}

/// How long to think on a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Allowance {
    /// The time the move should take: no iteration starts after it.
    pub(crate) soft: Duration,
    /// The time it may take at most: a search still running then is stopped.
    pub(crate) hard: Duration,
}

/// A move's allowance: an even share of the clock over the moves left plus most of the
/// increment (at least 1 ms); an iteration under way at that time may run to three times
/// as long, but never past a quarter of the clock unless the share is more (nor ever
/// past the clock less a margin).
pub(crate) fn allowance(time_ms: u64, inc_ms: u64, moves_left: u64) -> Allowance {
    let usable = time_ms.saturating_sub(MARGIN_MS);
    let share = (usable / moves_left.max(1))
        .saturating_add(inc_ms / 4 * 3)
        .min(usable)
        .max(1);
    let hard = share.saturating_mul(3).min((usable / 4).max(share));
    Allowance {
        soft: Duration::from_millis(share),
        hard: Duration::from_millis(hard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_late_middle_game_counts_fewer_moves_and_the_solver_s_one() {
        // Early on, fewer than the side's moves to the end (the solver's take little).
        assert_eq!(othello_moves_left(60), 25);
        assert_eq!(othello_moves_left(50), 20);
        assert_eq!(othello_moves_left(44), 17);
        // Then fewer still: the late middle game takes more of what is left.
        assert_eq!(othello_moves_left(36), 11);
        assert_eq!(othello_moves_left(28), 5);
        assert_eq!(othello_moves_left(21), 2);
        // The solver's moves as one.
        assert_eq!(othello_moves_left(20), 1);
        assert_eq!(othello_moves_left(8), 1);
        assert_eq!(othello_moves_left(3), 1);
        assert_eq!(othello_moves_left(2), 1);
        assert_eq!(othello_moves_left(1), 1);
        assert_eq!(othello_moves_left(0), 0, "the allowance takes at least one");
        // Fewer empties never count more moves.
        for e in 1..=60 {
            assert!(othello_moves_left(e - 1) <= othello_moves_left(e), "{e}");
        }
    }

    #[test]
    fn allowances_share_the_clock_and_never_exceed_it() {
        let ms = Duration::from_millis;
        let a = allowance(60_020, 0, 30);
        assert_eq!((a.soft, a.hard), (ms(2000), ms(6000)));
        let a = allowance(10_020, 1000, 10);
        assert_eq!(
            (a.soft, a.hard),
            (ms(1750), ms(2500)),
            "a quarter of the clock"
        );
        let a = allowance(520, 10_000, 1);
        assert_eq!((a.soft, a.hard), (ms(500), ms(500)), "never past the clock");
        let a = allowance(0, 0, 0);
        assert_eq!((a.soft, a.hard), (ms(1), ms(1)));
        let a = allowance(u64::MAX, u64::MAX, 1);
        assert_eq!((a.soft, a.hard), (ms(u64::MAX - 20), ms(u64::MAX - 20)));
        for (time, inc, left) in [(2000, 20, 30), (300, 20, 30), (10_000, 100, 2)] {
            let a = allowance(time, inc, left);
            assert!(
                a.soft <= a.hard && a.hard <= ms(time - 20),
                "{time} {inc} {left}"
            );
        }
    }
}
