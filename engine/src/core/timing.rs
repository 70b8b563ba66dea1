//! Turning a clock (`go time <ms> inc <ms>`) into a time for this move.

use std::time::Duration;

use crate::game::AnyPosition;

/// Kept back from every budget for the protocol round trip and the end of the search.
const MARGIN_MS: u64 = 20;

/// The side to move's moves still to play, roughly.
pub(crate) fn moves_left(position: &AnyPosition) -> u64 {
    match position {
        // Each side fills about half of the empty squares.
        AnyPosition::Othello(p) => {
            u64::from(crate::game::Game::empties(p).unwrap_or(60)).div_ceil(2)
        }
        // Kalah games are rarely longer than this for one side after the opening.
        AnyPosition::Kalah(_) => 20,
    }
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
