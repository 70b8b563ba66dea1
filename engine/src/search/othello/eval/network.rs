//! The network over the pattern tables: a correction added to the linear sum of
//! [`weights`](super::weights) in the middle of the game (docs/evaluation.md, "The
//! network over the patterns").
//!
//! Every parameter of the linear model (a pattern configuration or a whole-board feature's
//! value) also owns [`HIDDEN`] numbers, one table shared by the phases it covers. A
//! position's 60 rows are summed with its phase's biases; each sum passes `max(0, x)` and
//! is weighed by the phase's output weight; the phase's offset is added. The linear model
//! sees each shape alone; the network sees how they combine. Its correction is clamped to
//! [`MAX_CORRECTION`], so that a leaf whose linear value lies further than that outside a
//! search's window needs no network to fail low or high
//! ([`PatternWeights::evaluate_within`](super::PatternWeights::evaluate_within)).

use super::patterns::LAYOUT;
use super::weights::{PHASES, SCALE};

/// Hidden units.
pub const HIDDEN: usize = 16;

/// Table entries and biases are in these units per disc (an entry is a byte: within
/// ±3.97 discs, where the trainer keeps the rows).
pub const ENTRY_UNITS: i32 = 32;

/// Output weights are in these units per 1.
pub const OUT_UNITS: i32 = 64;

/// The largest output weight (32): with it, a unit's sum times its weight, summed over
/// the units, stays within an `i32` whatever the rows.
pub const MAX_OUT: i16 = 2048;

/// A unit's sum times its output weight is in `ENTRY_UNITS * OUT_UNITS` units per disc:
/// this many of them make a weight unit.
const PER_WEIGHT_UNIT: i32 = ENTRY_UNITS * OUT_UNITS / SCALE;
const _: () = assert!(PER_WEIGHT_UNIT * SCALE == ENTRY_UNITS * OUT_UNITS);

/// The largest correction, in weight units: 8 discs, more than 99.5% of corrections.
pub const MAX_CORRECTION: i32 = 8 * SCALE;

/// One phase's head: what turns the summed rows into a correction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    /// Added to each unit's sum, in [`ENTRY_UNITS`].
    pub bias: [i16; HIDDEN],
    /// Each unit's output weight, in [`OUT_UNITS`], within `±MAX_OUT`.
    pub out: [i16; HIDDEN],
    /// Added to the output, in weight units.
    pub offset: i32,
}

/// A trained network as floats (discs), as the trainer makes it.
#[derive(Clone, Debug)]
pub struct NetFloats {
    /// The first and last phases it corrects.
    pub phases: (usize, usize),
    /// `HIDDEN` numbers per trained parameter (a phase's numbering), in discs.
    pub table: Vec<f32>,
    /// Per phase from the first: biases, output weights, offset (discs).
    pub heads: Vec<([f32; HIDDEN], [f32; HIDDEN], f32)>,
}

/// The network, quantised, ready to evaluate with.
#[derive(Clone)]
pub struct PatternNet {
    /// The first and last phases it corrects.
    phases: (usize, usize),
    /// `HIDDEN` entries per trained parameter: what files hold.
    params: Vec<[i8; HIDDEN]>,
    /// The same per table index (indices a symmetry apart share a parameter's row), so
    /// that the evaluation reads a row straight from a position's index.
    rows: Vec<[i8; HIDDEN]>,
    /// One head per phase from the first.
    heads: Vec<Head>,
}

impl std::fmt::Debug for PatternNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PatternNet(phases {}-{}, {} rows)",
            self.phases.0,
            self.phases.1,
            self.params.len()
        )
    }
}

impl PartialEq for PatternNet {
    fn eq(&self, other: &Self) -> bool {
        self.phases == other.phases && self.params == other.params && self.heads == other.heads
    }
}

impl Eq for PatternNet {}

/// A network's parts that do not fit together.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("network: {0}")]
pub struct NetShapeError(pub String);

impl PatternNet {
    /// A network from its quantised parts: `params` rows for every trained parameter,
    /// one head per phase in `phases`.
    ///
    /// # Errors
    /// When the phases are not a range within the game's, the counts do not match or an
    /// output weight exceeds [`MAX_OUT`].
    pub fn new(
        phases: (usize, usize),
        params: Vec<[i8; HIDDEN]>,
        heads: Vec<Head>,
    ) -> Result<PatternNet, NetShapeError> {
        let (first, last) = phases;
        if first > last || last >= PHASES {
            return Err(NetShapeError(format!(
                "phases {first}-{last} are not within 0-{}",
                PHASES - 1
            )));
        }
        if params.len() != LAYOUT.params {
            return Err(NetShapeError(format!(
                "{} rows for {} parameters",
                params.len(),
                LAYOUT.params
            )));
        }
        if heads.len() != last - first + 1 {
            return Err(NetShapeError(format!(
                "{} heads for phases {first}-{last}",
                heads.len()
            )));
        }
        if heads
            .iter()
            .any(|h| h.out.iter().any(|w| w.abs() > MAX_OUT))
        {
            return Err(NetShapeError(format!("an output weight beyond ±{MAX_OUT}")));
        }
        let rows = LAYOUT.param.iter().map(|&p| params[p as usize]).collect();
        Ok(PatternNet {
            phases,
            params,
            rows,
            heads,
        })
    }

    /// The network of the trainer's floats, rounded to the units the evaluation reads.
    ///
    /// # Errors
    /// As [`PatternNet::new`].
    pub fn quantise(floats: &NetFloats) -> Result<PatternNet, NetShapeError> {
        let to_i8 = |x: f32| (x * ENTRY_UNITS as f32).round().clamp(-127.0, 127.0) as i8;
        let to_i16 = |x: f32, units: i32, limit: i16| {
            let limit = f32::from(limit);
            (x * units as f32).round().clamp(-limit, limit) as i16
        };
        if floats.table.len() != LAYOUT.params * HIDDEN {
            return Err(NetShapeError(format!(
                "{} table entries for {} parameters",
                floats.table.len(),
                LAYOUT.params
            )));
        }
        let params = floats
            .table
            .chunks_exact(HIDDEN)
            .map(|row| std::array::from_fn(|k| to_i8(row[k])))
            .collect();
        let heads = floats
            .heads
            .iter()
            .map(|(bias, out, offset)| Head {
                bias: std::array::from_fn(|k| to_i16(bias[k], ENTRY_UNITS, i16::MAX)),
                out: std::array::from_fn(|k| to_i16(out[k], OUT_UNITS, MAX_OUT)),
                offset: (offset * SCALE as f32).round() as i32,
            })
            .collect();
        PatternNet::new(floats.phases, params, heads)
    }

    /// The first and last phases it corrects.
    #[must_use]
    pub fn phases(&self) -> (usize, usize) {
        self.phases
    }

    /// The rows by trained parameter.
    #[must_use]
    pub fn params(&self) -> &[[i8; HIDDEN]] {
        &self.params
    }

    /// The heads, phase by phase from the first.
    #[must_use]
    pub fn heads(&self) -> &[Head] {
        &self.heads
    }

    /// Whether it corrects positions of `phase`.
    #[inline]
    #[must_use]
    pub fn covers(&self, phase: usize) -> bool {
        (self.phases.0..=self.phases.1).contains(&phase)
    }

    /// The correction, in weight units within `±MAX_CORRECTION`, of a position of
    /// `phase` (which it covers) whose table indices are `indices`.
    #[inline]
    #[must_use]
    pub fn correction(&self, phase: usize, indices: &[u32]) -> i32 {
        let head = &self.heads[phase - self.phases.0];
        let mut sums = head.bias;
        for &index in indices {
            let row = &self.rows[index as usize];
            for (sum, &entry) in sums.iter_mut().zip(row) {
                // Training keeps the sums within a few hundred discs' units; a file
                // that does not cannot make the evaluation panic.
                *sum = sum.saturating_add(i16::from(entry));
            }
        }
        // At most 16 x 32,767 x MAX_OUT in magnitude: within an i32.
        let total: i32 = sums
            .iter()
            .zip(&head.out)
            .map(|(&sum, &out)| i32::from(sum.max(0)) * i32::from(out))
            .sum();
        (total / PER_WEIGHT_UNIT)
            .saturating_add(head.offset)
            .clamp(-MAX_CORRECTION, MAX_CORRECTION)
    }

    /// A network of random rows and heads over `phases`: for tests.
    #[cfg(test)]
    pub(crate) fn random(phases: (usize, usize), seed: u64) -> PatternNet {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(seed);
        let params = (0..LAYOUT.params)
            .map(|_| std::array::from_fn(|_| rng.random_range(-12..=12)))
            .collect();
        let heads = (phases.0..=phases.1)
            .map(|_| Head {
                bias: std::array::from_fn(|_| rng.random_range(-200..200)),
                out: std::array::from_fn(|_| rng.random_range(-100..100)),
                offset: rng.random_range(-300..300),
            })
            .collect();
        PatternNet::new(phases, params, heads).expect("a random network's shape")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::othello::eval::patterns::TABLE_LEN;

    #[test]
    fn quantising_rounds_to_the_units_and_keeps_the_shape() {
        let floats = NetFloats {
            phases: (3, 4),
            table: (0..LAYOUT.params * HIDDEN)
                .map(|i| (i % 7) as f32 / 16.0 - 0.2)
                .collect(),
            heads: vec![([0.5; HIDDEN], [0.25; HIDDEN], -1.5); 2],
        };
        let net = PatternNet::quantise(&floats).unwrap();
        assert_eq!(net.phases(), (3, 4));
        assert_eq!(net.params()[0][0], -6);
        assert_eq!(net.heads()[1].bias[3], 16);
        assert_eq!(net.heads()[1].out[3], 16);
        assert_eq!(net.heads()[0].offset, -192);
        let short = NetFloats {
            heads: vec![([0.0; HIDDEN], [0.0; HIDDEN], 0.0)],
            ..floats
        };
        assert!(PatternNet::quantise(&short).is_err());
    }

    #[test]
    fn a_correction_is_the_heads_sum_of_the_rows() {
        let net = PatternNet::random((3, 13), 1);
        let indices: Vec<u32> = (0..60).map(|i| i * 997 % TABLE_LEN as u32).collect();
        for phase in 3..=13 {
            let head = &net.heads()[phase - 3];
            let mut expected = f64::from(head.offset) / f64::from(SCALE);
            for k in 0..HIDDEN {
                let sum: i32 = i32::from(head.bias[k])
                    + indices
                        .iter()
                        .map(|&i| i32::from(net.params()[LAYOUT.param[i as usize] as usize][k]))
                        .sum::<i32>();
                expected += f64::from(sum.max(0)) / f64::from(ENTRY_UNITS) * f64::from(head.out[k])
                    / f64::from(OUT_UNITS);
            }
            let expected = (expected * f64::from(SCALE))
                .clamp(-f64::from(MAX_CORRECTION), f64::from(MAX_CORRECTION));
            let got = f64::from(net.correction(phase, &indices));
            assert!(
                (got - expected).abs() <= 1.0,
                "phase {phase}: {got} vs {expected}"
            );
        }
    }

    #[test]
    fn mismatched_parts_are_refused() {
        let head = Head {
            bias: [0; HIDDEN],
            out: [0; HIDDEN],
            offset: 0,
        };
        let rows = vec![[0; HIDDEN]; LAYOUT.params];
        assert!(PatternNet::new((5, 4), rows.clone(), vec![]).is_err());
        assert!(PatternNet::new((3, PHASES), rows.clone(), vec![head.clone(); 13]).is_err());
        assert!(PatternNet::new((3, 3), rows[1..].to_vec(), vec![head.clone()]).is_err());
        assert!(PatternNet::new((3, 4), rows.clone(), vec![head.clone()]).is_err());
        assert!(PatternNet::new((3, 4), rows, vec![head.clone(), head]).is_ok());
    }
}
