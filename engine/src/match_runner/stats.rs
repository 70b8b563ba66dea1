//! Match statistics: Elo difference with a 95% interval, pentanomial counts of game
//! pairs, and the sequential probability ratio test (SPRT).
//!
//! Elo uses the logistic model: an expected score `s` means a difference of
//! `-400 log10(1/s - 1)`. The interval comes from the normal approximation of the mean
//! score. The SPRT is the generalised SPRT of fishtest (M. Van den Bergh): with mean `m`
//! and variance `v` of the per-game (or per-pair) score over `n` samples, and `s0`, `s1` the
//! scores of `elo0`, `elo1`, `LLR = n (s1 - s0) (2m - s0 - s1) / (2v)`.

/// Wins, draws and losses from one engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
}

impl Wdl {
    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win is 1, a draw 1/2.
    #[must_use]
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Adds one game's points (1, 0.5 or 0).
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The other side's view.
    #[must_use]
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

/// An Elo difference with its 95% interval. When every game went one way the estimate
/// is only a bound (`clamped`): scores are kept within what they would be had one more
/// game been drawn, so every number stays finite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// The estimate.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// True when all games were won (the estimate is a lower bound) or all lost (an
    /// upper bound).
    pub clamped: bool,
}

/// The Elo difference of a score fraction in (0, 1).
#[must_use]
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The score fraction expected at an Elo difference.
#[must_use]
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The normal quantile of a two-sided 95% interval.
pub(crate) const Z95: f64 = 1.959_963_984_540_054;

/// Elo from a record, or `None` without games. Always finite.
#[must_use]
pub fn elo(record: &Wdl) -> Option<Elo> {
    elo_of_samples(
        &[1.0, 0.5, 0.0],
        &[record.wins, record.draws, record.losses],
    )
}

/// Elo from samples of scores (`values[i]`, a fraction of the most a sample can score,
/// seen `counts[i]` times), or `None` without samples; the interval from the samples'
/// variance. Always finite.
fn elo_of_samples(values: &[f64], counts: &[u32]) -> Option<Elo> {
    let n = f64::from(counts.iter().sum::<u32>());
    if n == 0.0 {
        return None;
    }
    let weighted = || values.iter().zip(counts).map(|(&v, &c)| (v, f64::from(c)));
    let mean = weighted().map(|(v, c)| v * c).sum::<f64>() / n;
    let variance = weighted().map(|(v, c)| c * (v - mean).powi(2)).sum::<f64>() / n;
    // As if one more game had been drawn: finite at the extremes.
    let edge = 0.5 / (n + 1.0);
    let clamp = |s: f64| s.clamp(edge, 1.0 - edge);
    let spread = Z95 * (variance / n).sqrt();
    Some(Elo {
        elo: elo_of_score(clamp(mean)),
        low: elo_of_score(clamp(mean - spread)),
        high: elo_of_score(clamp(mean + spread)),
        clamped: mean <= 0.0 || mean >= 1.0,
    })
}

/// Counts of game pairs (same opening, colours swapped) by the pair's points for one
/// engine: 0, 1/2, 1, 3/2, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Adds a pair with these points (0 to 2 in halves).
    pub fn add(&mut self, points: f64) {
        let slot = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[slot] += 1;
    }

    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// Elo from the pairs, or `None` without any: the interval from the spread of the
    /// pairs' scores, narrower than the games' when the openings decide much of a game
    /// (each pair plays one opening both ways).
    #[must_use]
    pub fn elo(&self) -> Option<Elo> {
        elo_of_samples(&[0.0, 0.25, 0.5, 0.75, 1.0], &self.0)
    }
}

/// An SPRT: H0 `elo = elo0` against H1 `elo = elo1` at error rates `alpha`, `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Not decided yet.
    Continue,
    /// H0 accepted (the engine is not `elo1` better).
    H0,
    /// H1 accepted.
    H1,
}

impl Sprt {
    /// The bounds (lower, upper) of the log-likelihood ratio.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The LLR of per-sample points (`values[i]` scored `counts[i]` times, as fractions of
    /// the maximum). Zero while the samples show no variation.
    #[must_use]
    pub fn llr_of(&self, values: &[f64], counts: &[u32]) -> f64 {
        let n: f64 = counts.iter().map(|&c| f64::from(c)).sum();
        if n == 0.0 {
            return 0.0;
        }
        let mean = values
            .iter()
            .zip(counts)
            .map(|(v, &c)| v * f64::from(c))
            .sum::<f64>()
            / n;
        let variance = values
            .iter()
            .zip(counts)
            .map(|(v, &c)| (v - mean).powi(2) * f64::from(c))
            .sum::<f64>()
            / n;
        if variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The LLR of a game record (trinomial).
    #[must_use]
    pub fn llr_trinomial(&self, record: &Wdl) -> f64 {
        self.llr_of(
            &[0.0, 0.5, 1.0],
            &[record.losses, record.draws, record.wins],
        )
    }

    /// The LLR of game pairs (pentanomial).
    #[must_use]
    pub fn llr_pentanomial(&self, pairs: &Pentanomial) -> f64 {
        self.llr_of(&[0.0, 0.25, 0.5, 0.75, 1.0], &pairs.0)
    }

    /// The decision at `llr`.
    #[must_use]
    pub fn state(&self, llr: f64) -> SprtState {
        let (low, high) = self.bounds();
        if llr >= high {
            SprtState::H1
        } else if llr <= low {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-3
    }

    #[test]
    fn elo_and_interval_of_known_records() {
        // 60% is +70.44 Elo. W=100 D=100 L=50: mean 0.6, per-game variance 0.14,
        // standard error sqrt(0.14/250) = 0.023664, so the 95% score interval is
        // 0.553619 .. 0.646381, i.e. +37.40 .. +104.78 Elo.
        let e = elo(&Wdl {
            wins: 100,
            draws: 100,
            losses: 50,
        })
        .unwrap();
        assert!(close(e.elo, 70.437), "{}", e.elo);
        assert!(close(e.low, 37.402), "{}", e.low);
        assert!(close(e.high, 104.781), "{}", e.high);
        assert!(!e.clamped);
        // An even record is 0 with a symmetric interval.
        let even = elo(&Wdl {
            wins: 10,
            draws: 0,
            losses: 10,
        })
        .unwrap();
        assert!(close(even.elo, 0.0) && close(even.low, -even.high));
    }

    #[test]
    fn elo_of_game_pairs() {
        // Pairs [1, 2, 4, 2, 1]: mean 0.5, per-pair variance 0.075, standard error
        // sqrt(0.075/10) = 0.086603, so the 95% interval is 0.330265 .. 0.669735, i.e.
        // -122.82 .. +122.82 Elo.
        let e = Pentanomial([1, 2, 4, 2, 1]).elo().unwrap();
        assert!(close(e.elo, 0.0), "{}", e.elo);
        assert!(close(e.high, 122.818) && close(e.low, -122.818), "{e:?}");
        // Session 19's match (pairs [13, 13, 48, 26, 25]): the games' estimate, a narrower
        // interval than the 250 games' own (+12.8 .. +92.2).
        let e = Pentanomial([13, 13, 48, 26, 25]).elo().unwrap();
        assert!(close(e.elo, 51.801), "{}", e.elo);
        assert!(close(e.low, 14.880) && close(e.high, 89.925), "{e:?}");
        assert_eq!(Pentanomial::default().elo(), None);
        let all_won = Pentanomial([0, 0, 0, 0, 3]).elo().unwrap();
        assert!(all_won.clamped && all_won.elo.is_finite() && all_won.elo > 0.0);
    }

    #[test]
    fn small_and_one_sided_samples_stay_finite() {
        assert_eq!(elo(&Wdl::default()), None);
        for record in [
            Wdl {
                wins: 1,
                draws: 0,
                losses: 0,
            },
            Wdl {
                wins: 0,
                draws: 0,
                losses: 3,
            },
            Wdl {
                wins: 0,
                draws: 2,
                losses: 0,
            },
            Wdl {
                wins: 50,
                draws: 0,
                losses: 0,
            },
        ] {
            let e = elo(&record).unwrap();
            assert!(
                e.elo.is_finite() && e.low.is_finite() && e.high.is_finite(),
                "{record:?}"
            );
            assert!(e.low <= e.elo && e.elo <= e.high);
        }
        // One game, won: with a drawn game more it would be 75%: at least +190.85.
        let one = elo(&Wdl {
            wins: 1,
            draws: 0,
            losses: 0,
        })
        .unwrap();
        assert!(one.clamped && close(one.elo, 190.849));
    }

    #[test]
    fn sprt_llr_of_known_records() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (low, high) = sprt.bounds();
        assert!(close(low, -2.944) && close(high, 2.944));
        // W=60 D=100 L=40: n=200, mean 0.55, variance 0.1225; s0 = 0.5,
        // s1 = 0.514387; LLR = 200 * 0.014387 * 0.085613 / 0.245 = 1.00549.
        let llr = sprt.llr_trinomial(&Wdl {
            wins: 60,
            draws: 100,
            losses: 40,
        });
        assert!(close(llr, 1.00549), "{llr}");
        assert_eq!(sprt.state(llr), SprtState::Continue);
        // Pairs [5, 20, 50, 20, 5]: mean 0.5, so the LLR is -n (s1-s0)^2 / (2v)
        // with v = 0.05: -100 * 0.014387^2 / 0.1 = -0.20699.
        let llr = sprt.llr_pentanomial(&Pentanomial([5, 20, 50, 20, 5]));
        assert!(close(llr, -0.20699), "{llr}");
        // A lopsided record decides.
        let llr = sprt.llr_trinomial(&Wdl {
            wins: 400,
            draws: 100,
            losses: 100,
        });
        assert_eq!(sprt.state(llr), SprtState::H1);
        assert_eq!(
            sprt.llr_trinomial(&Wdl {
                wins: 0,
                draws: 5,
                losses: 0
            }),
            0.0
        );
    }
}
