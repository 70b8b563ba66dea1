//! The Kalah variant: board size, seeds, and the two rule points that differ between sources.

use std::fmt;
use std::str::FromStr;

use crate::game::GameError;

/// Most pits a side supported.
pub const MAX_PITS: u8 = 6;
/// Most seeds per pit supported at the start.
pub const MAX_SEEDS: u8 = 6;

/// When the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndRule {
    /// As soon as either side's pits are all empty; each player then takes the seeds left on
    /// its own side (the rules of the published solved values).
    EitherSideEmpty,
    /// Only when the side to move has no seeds; the opponent then takes what is left on its side.
    MoverStuck,
}

/// A Kalah variant. The id is `kalah<P>x<S>`, followed by `-noemptycapture` and/or
/// `-endwhenstuck` when those rules differ from the defaults of the published solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KalahRules {
    /// Pits on each side (1..=6).
    pub pits: u8,
    /// Seeds in each pit at the start (1..=6).
    pub seeds: u8,
    /// Whether a last seed in an empty own pit captures when the opposite pit is empty too.
    pub empty_capture: bool,
    /// When the game ends.
    pub end: EndRule,
}

const NO_EMPTY_CAPTURE: &str = "-noemptycapture";
const END_WHEN_STUCK: &str = "-endwhenstuck";

impl KalahRules {
    /// The default rules (those of the published solved values) for a board size.
    ///
    /// # Errors
    /// [`GameError::UnknownGame`] when the size is out of range.
    pub fn new(pits: u8, seeds: u8) -> Result<KalahRules, GameError> {
        if !(1..=MAX_PITS).contains(&pits) || !(1..=MAX_SEEDS).contains(&seeds) {
            return Err(GameError::UnknownGame(format!(
                "kalah{pits}x{seeds} (pits and seeds must be 1..=6)"
            )));
        }
        Ok(KalahRules {
            pits,
            seeds,
            empty_capture: true,
            end: EndRule::EitherSideEmpty,
        })
    }

    /// The same board under the common commercial capture rule (no capture of an empty pit).
    #[must_use]
    pub fn without_empty_capture(self) -> KalahRules {
        KalahRules {
            empty_capture: false,
            ..self
        }
    }

    /// Total seeds in play.
    #[must_use]
    pub fn total_seeds(self) -> u32 {
        2 * u32::from(self.pits) * u32::from(self.seeds)
    }
}

impl fmt::Display for KalahRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kalah{}x{}", self.pits, self.seeds)?;
        if !self.empty_capture {
            f.write_str(NO_EMPTY_CAPTURE)?;
        }
        if self.end == EndRule::MoverStuck {
            f.write_str(END_WHEN_STUCK)?;
        }
        Ok(())
    }
}

impl FromStr for KalahRules {
    type Err = GameError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let unknown = || GameError::UnknownGame(s.to_string());
        let lower = s.to_ascii_lowercase();
        let rest = lower.strip_prefix("kalah").ok_or_else(unknown)?;
        let size_end = rest.find('-').unwrap_or(rest.len());
        let (size, mut flags) = rest.split_at(size_end);
        let mut rules = if size.is_empty() {
            KalahRules::new(6, 6)?
        } else {
            let (p, s) = size.split_once('x').ok_or_else(unknown)?;
            let pits = p.parse().map_err(|_| unknown())?;
            let seeds = s.parse().map_err(|_| unknown())?;
            KalahRules::new(pits, seeds)?
        };
        while !flags.is_empty() {
            if let Some(r) = flags
                .strip_prefix(NO_EMPTY_CAPTURE)
                .filter(|_| rules.empty_capture)
            {
                rules.empty_capture = false;
                flags = r;
            } else if let Some(r) = flags
                .strip_prefix(END_WHEN_STUCK)
                .filter(|_| rules.end == EndRule::EitherSideEmpty)
            {
                rules.end = EndRule::MoverStuck;
                flags = r;
            } else {
                return Err(unknown());
            }
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for id in [
            "kalah6x6",
            "kalah2x3-noemptycapture",
            "kalah4x4-endwhenstuck",
            "kalah1x1-noemptycapture-endwhenstuck",
        ] {
            assert_eq!(
                id.parse::<KalahRules>().map(|r| r.to_string()),
                Ok(id.to_string())
            );
        }
        assert_eq!("kalah".parse::<KalahRules>(), KalahRules::new(6, 6));
        assert_eq!(
            "KALAH6X4".parse::<KalahRules>().map(|r| r.to_string()),
            Ok("kalah6x4".into())
        );
    }

    #[test]
    fn bad_ids_are_refused() {
        for id in [
            "kalah7x6",
            "kalah0x3",
            "kalah6x",
            "kalah6x6-",
            "kalah6x6-foo",
            "kalahx6",
            "kalah6x6-endwhenstuck-endwhenstuck",
        ] {
            assert!(id.parse::<KalahRules>().is_err(), "{id}");
        }
    }
}
