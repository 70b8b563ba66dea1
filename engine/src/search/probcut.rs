//! Multi-ProbCut (Buro): at a node of depth `d`, a search of depth `d'` much shallower
//! predicts the deep value; when the prediction lies outside the window with the chosen
//! confidence, the node is cut without its deep search (docs/selectivity.md).
//!
//! A game gives the prediction's error ([`Searchable::probcut`](super::Searchable::probcut)),
//! fitted from its own searches; the search's [`Selectivity`] gives the confidence.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

/// From this remaining depth on, nodes try a cut.
pub const MIN_DEPTH: i32 = 2;

/// The shallow search's depth for a node of remaining depth `depth` (at least
/// [`MIN_DEPTH`]): `depth` less twice a quarter of it rounded, at least 2 less; at depth
/// 2 that is 0, the position's own value (its evaluation, no search). An even difference
/// keeps both searches ending on the same side's move, which Othello's values swing with.
#[must_use]
pub fn shallow_depth(depth: i32) -> i32 {
    let quarter = ((depth + 2) / 4).max(1);
    depth - 2 * quarter
}

/// How much the search may trust predictions: the confidence of a cut, as a percentage
/// (the probability that the deep search would have cut too, were the errors normal).
/// 100 is a full-width search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Selectivity(Level);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Level {
    P58,
    P73,
    P87,
    P95,
    P98,
    P99,
    Full,
}

impl Selectivity {
    /// No cut: every search is full width.
    pub const FULL: Selectivity = Selectivity(Level::Full);

    /// Every level, least selective last: Edax's five and full width, and below them 58%
    /// (0.8 deviations), where the matches found the engine strongest.
    pub const ALL: [Selectivity; 7] = [
        Selectivity(Level::P58),
        Selectivity(Level::P73),
        Selectivity(Level::P87),
        Selectivity(Level::P95),
        Selectivity(Level::P98),
        Selectivity(Level::P99),
        Selectivity(Level::Full),
    ];

    /// The level games are played at unless told otherwise: the one the matches in
    /// docs/selectivity.md found strongest at equal time (58% beat 73% and 0.6
    /// deviations did not beat 58%).
    pub const PLAY: Selectivity = Selectivity(Level::P58);

    /// The level the commands that make data (self-play games, searched labels, the
    /// book's leaves, `accuracy`'s searched reference) search at unless told otherwise:
    /// the one the shipped files were made with, so that their documented commands make
    /// them again.
    pub const DATA: Selectivity = Selectivity(Level::P87);

    /// Where the probable solves before a solve asked for start (then 87% and 95%): their
    /// table entries order the proof's moves, so that the whole takes about 0.8x the time
    /// of the proof alone on FFO #40-#49 (58%, 87% and 95% alike within the noise;
    /// docs/benchmarks-journal.md, session 53).
    pub const SOLVE_WARM_UP: Selectivity = Selectivity(Level::P73);

    /// The most confident probable solve a search makes before its exact solve: above
    /// 95% a probable solve costs about as much as the proof (FFO #50, 26 empties: 58% in
    /// 93 ms, then 73% in 31 ms more, 87% 113 ms, 95% 854 ms, 98% 900 ms; the proof alone
    /// 3.8 s).
    const TOP_PROBABLE: Selectivity = Selectivity(Level::P95);

    /// The levels of the probable solves a search at this level makes before its exact
    /// solve: this one, then each more confident one up to 95%, as Edax raises its
    /// endgame's confidence. When time runs out before the proof, the most confident one
    /// finished stands; each costs little beside the next (its table entries order the
    /// next one's moves).
    pub(crate) fn probable_solves(self) -> impl Iterator<Item = Selectivity> {
        Selectivity::ALL
            .into_iter()
            .filter(move |&s| s == self || (self < s && s <= Self::TOP_PROBABLE))
    }

    /// The confidence as a percentage.
    #[must_use]
    pub fn percent(self) -> u32 {
        match self.0 {
            Level::P58 => 58,
            Level::P73 => 73,
            Level::P87 => 87,
            Level::P95 => 95,
            Level::P98 => 98,
            Level::P99 => 99,
            Level::Full => 100,
        }
    }

    /// The level of this percentage, if it is one of [`ALL`](Self::ALL)'s.
    #[must_use]
    pub fn from_percent(percent: u32) -> Option<Selectivity> {
        Selectivity::ALL
            .into_iter()
            .find(|level| level.percent() == percent)
    }

    /// How many standard deviations of the prediction's error a bound must clear to be
    /// cut; `None` for a full-width search.
    #[must_use]
    pub fn deviations(self) -> Option<f32> {
        match self.0 {
            Level::P58 => Some(0.8),
            Level::P73 => Some(1.1),
            Level::P87 => Some(1.5),
            Level::P95 => Some(2.0),
            Level::P98 => Some(2.6),
            Level::P99 => Some(3.3),
            Level::Full => None,
        }
    }

    /// A small number for the table's entries: 0 when full width, more as the level is
    /// more selective. A result is reused only by searches at most as trusting.
    #[must_use]
    pub fn rank(self) -> u8 {
        Level::Full as u8 - self.0 as u8
    }
}

impl Default for Selectivity {
    /// Full width: the library's searches are exact unless asked otherwise.
    fn default() -> Self {
        Selectivity::FULL
    }
}

impl fmt::Display for Selectivity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.percent())
    }
}

/// A selectivity that is not one of the levels.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("selectivity must be one of 58, 73, 87, 95, 98, 99, 100 (or off), got '{0}'")]
pub struct SelectivityError(String);

impl FromStr for Selectivity {
    type Err = SelectivityError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let text = s.trim().trim_end_matches('%');
        if text.eq_ignore_ascii_case("off") {
            return Ok(Selectivity::FULL);
        }
        text.parse()
            .ok()
            .and_then(Selectivity::from_percent)
            .ok_or_else(|| SelectivityError(s.to_string()))
    }
}

/// The selectivity of a search's heuristic iterations: one level, or `auto`, a level chosen
/// by the time the search has.
///
/// Why `auto`: at equal time a less selective search is shallower but errs less, and which
/// pays turns with the time: 58% beat 73% at 100 ms a move (+28 Elo, 800 games), 73% beat
/// 58% at 500 ms (+20, 400 games; docs/selectivity.md). Rising with the depth inside one
/// search instead lost (-14 at 500 ms): the less selective iterations cannot reuse the
/// table's values of the more selective ones before them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SelectivitySchedule {
    /// Every selective iteration at this level.
    Fixed(Selectivity),
    /// 73% when the search has [`AUTO_LESS_SELECTIVE_FROM`] or more (a move's time, or
    /// its share of a clock), 58% when it has less or no time limit (a depth, nodes or
    /// an analysis).
    Auto,
}

/// The time from which `auto` searches at 73% rather than 58%: between the 100 ms where
/// 58% won and the 500 ms where 73% did.
pub const AUTO_LESS_SELECTIVE_FROM: Duration = Duration::from_millis(300);

impl SelectivitySchedule {
    /// The schedule games are played at unless told otherwise (option `Selectivity`, the
    /// levels, `serve --selectivity`).
    pub const PLAY: SelectivitySchedule = SelectivitySchedule::Fixed(Selectivity::PLAY);

    /// The level of a search with `time` (its move's time or share of a clock; `None`
    /// without a time limit).
    #[must_use]
    pub fn for_time(self, time: Option<Duration>) -> Selectivity {
        match self {
            SelectivitySchedule::Fixed(level) => level,
            SelectivitySchedule::Auto => match time {
                Some(t) if t >= AUTO_LESS_SELECTIVE_FROM => Selectivity(Level::P73),
                _ => Selectivity(Level::P58),
            },
        }
    }

    /// Whether any iteration is selective (below 100%).
    #[must_use]
    pub fn is_selective(self) -> bool {
        self != SelectivitySchedule::Fixed(Selectivity::FULL)
    }
}

impl Default for SelectivitySchedule {
    /// Full width, as [`Selectivity`]'s default.
    fn default() -> Self {
        SelectivitySchedule::Fixed(Selectivity::FULL)
    }
}

impl From<Selectivity> for SelectivitySchedule {
    fn from(level: Selectivity) -> Self {
        SelectivitySchedule::Fixed(level)
    }
}

impl fmt::Display for SelectivitySchedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelectivitySchedule::Fixed(level) => level.fmt(f),
            SelectivitySchedule::Auto => f.write_str("auto"),
        }
    }
}

/// A selectivity that is neither `auto` nor one of the levels.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("selectivity must be auto or one of 58, 73, 87, 95, 98, 99, 100 (or off), got '{0}'")]
pub struct SelectivityScheduleError(String);

impl FromStr for SelectivitySchedule {
    type Err = SelectivityScheduleError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.trim().eq_ignore_ascii_case("auto") {
            return Ok(SelectivitySchedule::Auto);
        }
        s.parse()
            .map(SelectivitySchedule::Fixed)
            .map_err(|_| SelectivityScheduleError(s.to_string()))
    }
}

/// A game's prediction of a deep search's value from a shallow one, at one node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    /// Depth of the shallow search.
    pub shallow: i32,
    /// Standard deviation of the deep value around the shallow one, in score units.
    pub sigma: f32,
}

impl Prediction {
    /// The shallow value at or above which the deep value is at least `beta` with
    /// `deviations` standard deviations to spare.
    #[must_use]
    pub fn high_bound(&self, beta: i32, deviations: f32) -> i32 {
        (beta as f32 + deviations * self.sigma).ceil() as i32
    }

    /// The shallow value at or below which the deep value is at most `alpha`.
    #[must_use]
    pub fn low_bound(&self, alpha: i32, deviations: f32) -> i32 {
        (alpha as f32 - deviations * self.sigma).floor() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probable_solves_rise_in_confidence_to_95_percent() {
        let ladder = |percent| -> Vec<u32> {
            Selectivity::from_percent(percent)
                .unwrap()
                .probable_solves()
                .map(Selectivity::percent)
                .collect()
        };
        assert_eq!(ladder(58), [58, 73, 87, 95]);
        assert_eq!(ladder(87), [87, 95]);
        assert_eq!(ladder(95), [95]);
        // A level chosen above the top makes its own probable solve only.
        assert_eq!(ladder(98), [98]);
        assert_eq!(ladder(99), [99]);
    }

    #[test]
    fn shallow_depths_keep_parity_and_shrink() {
        for d in MIN_DEPTH..=40 {
            let s = shallow_depth(d);
            assert!(s >= 0 && s <= d - 2, "depth {d}: shallow {s}");
            assert!(s == 1 || (d - s) % 2 == 0, "depth {d}: shallow {s}");
        }
        assert_eq!(shallow_depth(2), 0);
        assert_eq!(shallow_depth(3), 1);
        assert_eq!(shallow_depth(8), 4);
        assert_eq!(shallow_depth(12), 6);
    }

    #[test]
    fn levels_parse_and_print() {
        for level in Selectivity::ALL {
            assert_eq!(level.to_string().parse(), Ok(level));
        }
        assert_eq!("off".parse(), Ok(Selectivity::FULL));
        assert_eq!("87%".parse(), Ok(Selectivity::DATA));
        assert_eq!("58".parse(), Ok(Selectivity::PLAY));
        assert_eq!(
            "73%".parse::<Selectivity>().map(Selectivity::percent),
            Ok(73)
        );
        assert!("90".parse::<Selectivity>().is_err());
        assert!("".parse::<Selectivity>().is_err());
        assert_eq!(Selectivity::FULL.deviations(), None);
        assert_eq!(Selectivity::FULL.rank(), 0);
        assert!(
            Selectivity::ALL
                .windows(2)
                .all(|w| w[0].rank() > w[1].rank())
        );
    }

    #[test]
    fn auto_is_less_selective_with_more_time_and_a_fixed_level_is_fixed() {
        let auto = SelectivitySchedule::Auto;
        let ms = |ms| Some(Duration::from_millis(ms));
        let percent = |time| auto.for_time(time).percent();
        assert_eq!(
            (percent(None), percent(ms(100)), percent(ms(299))),
            (58, 58, 58)
        );
        assert_eq!((percent(ms(300)), percent(ms(60_000))), (73, 73));
        let fixed = SelectivitySchedule::from(Selectivity::DATA);
        assert!(
            [None, ms(1), ms(1_000)]
                .iter()
                .all(|&t| fixed.for_time(t) == Selectivity::DATA)
        );
        assert!(auto.is_selective() && fixed.is_selective());
        assert!(!SelectivitySchedule::default().is_selective());
        for schedule in [auto, fixed, SelectivitySchedule::default()] {
            assert_eq!(schedule.to_string().parse(), Ok(schedule));
        }
        assert_eq!(" Auto ".parse(), Ok(auto));
        assert_eq!("off".parse(), Ok(SelectivitySchedule::default()));
        assert!("automatic".parse::<SelectivitySchedule>().is_err());
    }

    #[test]
    fn bounds_clear_the_window_by_the_margin() {
        let p = Prediction {
            shallow: 4,
            sigma: 2.5,
        };
        assert_eq!(p.high_bound(10, 2.0), 15);
        assert_eq!(p.low_bound(-10, 2.0), -15);
        assert_eq!(p.high_bound(0, 1.1), 3);
        assert_eq!(p.low_bound(0, 1.1), -3);
    }
}
