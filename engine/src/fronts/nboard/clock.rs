//! The game's clock in NBoard mode: the time the mover has left, read from the record
//! (`TI`, and the seconds each move took), for the engine to share out as it shares a
//! native `go time`.

use protocol::TimeControl;

use crate::game::Game;
use crate::ggf::GgfGame;

/// Kept back from the time left for the reply to reach the GUI and be registered.
const GUI_MARGIN_MS: u64 = 200;

/// The mover's clock: `TI` less the times of its moves so far, less a margin for the GUI.
/// `None` when the record has no `TI`.
#[must_use]
pub(super) fn mover_clock(game: &GgfGame) -> Option<TimeControl> {
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
    Some(TimeControl {
        time: left_ms.saturating_sub(GUI_MARGIN_MS),
        inc: None,
    })
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
    fn the_clock_is_what_the_mover_has_left() {
        let game: GgfGame = "(;GM[Othello]TI[1:00]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//10]W[F6//20]B[D3//5];)"
            .parse()
            .unwrap();
        // White to move: 60 s less its 20 s and the margin.
        let left = |time| Some(TimeControl { time, inc: None });
        assert_eq!(mover_clock(&game), left(40_000 - GUI_MARGIN_MS));
        let untimed: GgfGame = "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)"
            .parse()
            .unwrap();
        assert_eq!(mover_clock(&untimed), None);
        // Black has used more than its five seconds: none left.
        let flagged: GgfGame = "(;GM[Othello]TI[0:05]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//10]W[F6//1];)"
            .parse()
            .unwrap();
        assert_eq!(mover_clock(&flagged), left(0));
    }
}
