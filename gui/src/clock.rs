//! The game's clock: each side's time left, the running side charged as it thinks, an
//! increment after each move, and the side whose flag fell.

use std::time::{Duration, Instant};

use crate::settings::ClockSettings;

/// Both sides' clocks.
#[derive(Clone, Debug)]
pub struct GameClock {
    /// Time left at the last stop, by side.
    left: [Duration; 2],
    increment: Duration,
    /// The side whose clock runs, and since when.
    running: Option<(usize, Instant)>,
    /// A side whose time runs out loses.
    pub flag_loses: bool,
}

impl GameClock {
    /// Clocks at the start of a game.
    #[must_use]
    pub fn new(settings: &ClockSettings) -> GameClock {
        let base = Duration::from_millis(settings.base_ms);
        GameClock {
            left: [base; 2],
            increment: Duration::from_millis(settings.increment_ms),
            running: None,
            flag_loses: settings.flag_loses,
        }
    }

    /// A side's time left now (zero once it has run out).
    #[must_use]
    pub fn left(&self, side: usize) -> Duration {
        match self.running {
            Some((running, since)) if running == side => {
                self.left[side].saturating_sub(since.elapsed())
            }
            _ => self.left[side],
        }
    }

    /// The increment per move.
    #[must_use]
    pub fn increment(&self) -> Duration {
        self.increment
    }

    /// The side whose clock runs, if any.
    #[must_use]
    pub fn running(&self) -> Option<usize> {
        self.running.map(|(side, _)| side)
    }

    /// Runs `side`'s clock (the other's stops, as when it moved without an increment);
    /// nothing changes if it runs already.
    pub fn run(&mut self, side: usize) {
        if self.running() != Some(side) {
            self.stop();
            self.running = Some((side, Instant::now()));
        }
    }

    /// Stops the running clock, charging its side the time it ran.
    pub fn stop(&mut self) {
        if let Some((side, _)) = self.running {
            self.left[side] = self.left(side);
            self.running = None;
        }
    }

    /// `side` has moved: its clock stops and gains the increment. Returns the time the
    /// move took (zero if its clock was not running).
    pub fn moved(&mut self, side: usize) -> Duration {
        let took = match self.running.take() {
            Some((running, since)) if running == side => since.elapsed(),
            other => {
                self.running = other;
                Duration::ZERO
            }
        };
        self.stop();
        self.left[side] = self.left[side].saturating_sub(took) + self.increment;
        took
    }

    /// The side whose time has run out, if its flag falls (the clock running out of a
    /// side that plays on does not count).
    #[must_use]
    pub fn flag_fallen(&self) -> Option<usize> {
        let side = self.running()?;
        (self.flag_loses && self.left(side).is_zero()).then_some(side)
    }
}

/// `4:59`, `0:09.4` under ten seconds (tenths matter then), `12:00:00` above an hour.
#[must_use]
pub fn clock_text(left: Duration) -> String {
    let tenths = left.as_millis() / 100;
    let seconds = tenths / 10;
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else if seconds < 10 {
        format!("{m}:{s:02}.{}", tenths % 10)
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(base_ms: u64, increment_ms: u64) -> GameClock {
        GameClock::new(&ClockSettings {
            base_ms,
            increment_ms,
            flag_loses: true,
        })
    }

    #[test]
    fn a_move_charges_its_side_and_adds_the_increment() {
        let mut c = clock(60_000, 2_000);
        c.run(0);
        std::thread::sleep(Duration::from_millis(30));
        let took = c.moved(0);
        assert!(took >= Duration::from_millis(30));
        assert_eq!(c.left(0), Duration::from_millis(62_000) - took);
        assert_eq!(c.running(), None);
        // The other side's clock did not move.
        assert_eq!(c.left(1), Duration::from_secs(60));
        c.run(1);
        c.run(1);
        assert_eq!(c.running(), Some(1));
        c.stop();
        assert!(c.left(1) <= Duration::from_secs(60));
        // A move with no clock running takes no time but still earns the increment.
        assert_eq!(c.moved(1), Duration::ZERO);
        assert!(c.left(1) > Duration::from_secs(61));
    }

    #[test]
    fn a_flag_falls_only_when_it_loses() {
        let mut c = clock(20, 0);
        c.run(1);
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(c.left(1), Duration::ZERO);
        assert_eq!(c.flag_fallen(), Some(1));
        c.flag_loses = false;
        assert_eq!(c.flag_fallen(), None);
    }

    #[test]
    fn clocks_read_as_players_read_them() {
        assert_eq!(clock_text(Duration::from_millis(299_999)), "4:59");
        assert_eq!(clock_text(Duration::from_millis(9_450)), "0:09.4");
        assert_eq!(clock_text(Duration::from_secs(3 * 3600 + 61)), "3:01:01");
        assert_eq!(clock_text(Duration::ZERO), "0:00.0");
    }
}
