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

/// How long to think: an even share of the clock over the moves left, plus most of the
/// increment, never more than the clock minus a margin (and at least 1 ms).
pub(crate) fn budget(time_ms: u64, inc_ms: u64, moves_left: u64) -> Duration {
    let usable = time_ms.saturating_sub(MARGIN_MS);
    let share = (usable / moves_left.max(1)).saturating_add(inc_ms / 4 * 3);
    Duration::from_millis(share.min(usable).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_share_the_clock_and_never_exceed_it() {
        assert_eq!(budget(60_020, 0, 30), Duration::from_millis(2000));
        assert_eq!(budget(10_020, 1000, 10), Duration::from_millis(1750));
        assert_eq!(budget(520, 10_000, 1), Duration::from_millis(500));
        assert_eq!(budget(0, 0, 0), Duration::from_millis(1));
        assert_eq!(
            budget(u64::MAX, u64::MAX, 1),
            Duration::from_millis(u64::MAX - 20)
        );
    }
}
