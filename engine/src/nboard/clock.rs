//! The game's clock in NBoard mode: a `go` may not use more than its share of the time the
//! mover has left, read from the record (`TI`, and the seconds each move took).

use std::time::Duration;

use crate::game::Game;
use crate::ggf::GgfGame;
use crate::server::timing::budget;

/// Kept back from the time left for the reply to reach the GUI and be registered.
const GUI_MARGIN_MS: u64 = 200;

/// The time the next move may take: what the mover has left (`TI` less the times of its
/// moves so far, less a margin for the GUI), shared as the native protocol shares a clock
/// (`go time`): evenly over the moves the mover may still have to make. `None` when the
/// record has no `TI`.
#[must_use]
pub(super) fn move_budget(game: &GgfGame) -> Option<Duration> {
    let total = parse_time(game.property("TI")?)?;
    let end = game.final_position();
    let mover = end.side_to_move();
    let mut position = game.start;
    let mut used = 0.0;
    for m in &game.moves {
        if position.side_to_move() == mover {
            used += m.time.unwrap_or(0.0);
        }
        position = position.play(m.mv);
    }
    // Whole milliseconds; `as` saturates a huge or negative value into range.
    let left_ms = ((total - used) * 1000.0).max(0.0) as u64;
    let moves_left = u64::from(end.empties().unwrap_or(60)).div_ceil(2);
    Some(budget(left_ms.saturating_sub(GUI_MARGIN_MS), 0, moves_left))
}

/// Seconds of a GGF time: `s`, `m:s` or `h:m:s` (each part a number), before any `/`
/// (GGF adds increments after one).
fn parse_time(text: &str) -> Option<f64> {
    let main = text.split('/').next()?.trim();
    if main.is_empty() {
        return None;
    }
    let mut seconds = 0.0;
    for part in main.split(':') {
        let value: f64 = part.trim().parse().ok()?;
        if !value.is_finite() || value < 0.0 {
            return None;
        }
        seconds = seconds * 60.0 + value;
    }
    Some(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_in_ggf_forms() {
        assert_eq!(parse_time("15:00"), Some(900.0));
        assert_eq!(parse_time("1:00:00"), Some(3600.0));
        assert_eq!(parse_time("90"), Some(90.0));
        assert_eq!(parse_time("05:00//02:00"), Some(300.0));
        assert_eq!(parse_time(""), None);
        assert_eq!(parse_time("abc"), None);
        assert_eq!(parse_time("-1"), None);
    }

    #[test]
    fn the_budget_shares_what_the_mover_has_left() {
        let game: GgfGame = "(;GM[Othello]TI[1:00]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//10]W[F6//20]B[D3//5];)"
            .parse()
            .unwrap();
        // White to move: 60 s less its 20 s and the margin, over 29 moves (57 empties).
        assert_eq!(
            move_budget(&game),
            Some(budget(40_000 - GUI_MARGIN_MS, 0, 29))
        );
        let untimed: GgfGame = "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)"
            .parse()
            .unwrap();
        assert_eq!(move_budget(&untimed), None);
        // Black has used more than its five seconds: the least budget.
        let flagged: GgfGame = "(;GM[Othello]TI[0:05]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//10]W[F6//1];)"
            .parse()
            .unwrap();
        assert_eq!(move_budget(&flagged), Some(Duration::from_millis(1)));
    }
}
