//! Training the network over the pattern tables
//! ([`network`](crate::search::othello::eval::network); docs/evaluation.md, "The network
//! over the patterns"): stochastic gradient descent on what the linear model leaves of
//! each label, one table of rows shared by the phases it covers, a head per phase.
//! Deterministic: the samples are visited in an order drawn from a seed.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng, rngs::StdRng};

use super::dataset::Sample;
use crate::search::othello::eval::network::{ENTRY_UNITS, HIDDEN, NetFloats};
use crate::search::othello::eval::weights::{PHASES, PatternWeights, SCALE};

/// How to train the network.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetParams {
    /// The first and last phases it corrects (one table for all of them: a table per
    /// phase learns the training positions instead, session 65).
    pub phases: (usize, usize),
    /// Passes over the samples.
    pub epochs: usize,
    /// The rows' learning rate at the first pass.
    pub rate: f32,
    /// The heads' learning rate at the first pass (they see every sample of their phase).
    pub head_rate: f32,
    /// Both rates are multiplied by this after each pass.
    pub decay: f32,
    /// Weight decay on the rows: keeps rarely seen configurations near 0.
    pub l2: f32,
    /// Rows start uniform in `±init`.
    pub init: f32,
    /// The seed of the start and of the order of the samples.
    pub seed: u64,
}

impl Default for NetParams {
    /// Session 65's settings, measured on the shipped data.
    fn default() -> Self {
        NetParams {
            phases: (3, 13),
            epochs: 6,
            rate: 0.002,
            head_rate: 0.0002,
            decay: 0.7,
            l2: 0.003,
            init: 0.05,
            seed: 65,
        }
    }
}

/// The largest entry of a row, in discs: what a byte holds in [`ENTRY_UNITS`].
const MAX_ENTRY: f32 = 127.0 / ENTRY_UNITS as f32;

/// One training position: its discs, its head and what the linear model leaves of its label.
struct Residual {
    me: u64,
    opp: u64,
    head: u8,
    residual: f32,
}

/// The network as it trains.
struct Trainer {
    table: Vec<f32>,
    heads: Vec<([f32; HIDDEN], [f32; HIDDEN], f32)>,
}

impl Trainer {
    /// The hidden sums of a sample (its rows `ids` and head `head`).
    fn sums(&self, head: usize, ids: &[u32]) -> [f32; HIDDEN] {
        let mut sums = self.heads[head].0;
        for &id in ids {
            let row = &self.table[id as usize * HIDDEN..][..HIDDEN];
            for (sum, w) in sums.iter_mut().zip(row) {
                *sum += w;
            }
        }
        sums
    }

    /// The correction, in discs, of a sample's hidden sums.
    fn output(&self, head: usize, sums: &[f32; HIDDEN]) -> f32 {
        let (_, out, offset) = &self.heads[head];
        offset
            + sums
                .iter()
                .zip(out)
                .map(|(s, v)| s.max(0.0) * v)
                .sum::<f32>()
    }

    /// One gradient step on the squared error of a sample; returns that error.
    fn step(&mut self, head: usize, ids: &[u32], target: f32, rates: (f32, f32), l2: f32) -> f32 {
        let sums = self.sums(head, ids);
        let error = self.output(head, &sums) - target;
        let (rate, head_rate) = rates;
        let (bias, out, offset) = &mut self.heads[head];
        let mut grad = [0.0; HIDDEN];
        for k in 0..HIDDEN {
            if sums[k] > 0.0 {
                grad[k] = error * out[k];
                out[k] -= head_rate * error * sums[k];
            }
            bias[k] -= head_rate * grad[k];
        }
        *offset -= head_rate * error;
        for &id in ids {
            let row = &mut self.table[id as usize * HIDDEN..][..HIDDEN];
            for (w, g) in row.iter_mut().zip(&grad) {
                // Within what a byte of the engine's table holds.
                *w = (*w - rate * (g + l2 * *w)).clamp(-MAX_ENTRY, MAX_ENTRY);
            }
        }
        error * error
    }
}

/// Trains a network on `by_phase` (a phase's samples at its index) to correct `linear`'s
/// evaluation, calling `progress` after each pass with its number and the mean squared
/// error (discs) of the corrected evaluation over the pass.
///
/// # Panics
/// If the phases are not within the game's.
pub fn train_net(
    by_phase: &[Vec<Sample>],
    linear: &PatternWeights,
    params: NetParams,
    progress: &mut dyn FnMut(usize, f64),
) -> NetFloats {
    let (first, last) = params.phases;
    assert!(first <= last && last < PHASES, "phases within the game's");
    let residuals: Vec<Residual> = (first..=last)
        .flat_map(|phase| {
            by_phase
                .get(phase)
                .into_iter()
                .flatten()
                .map(move |s| (phase, s))
        })
        .map(|(phase, s)| Residual {
            me: s.me,
            opp: s.opp,
            head: (phase - first) as u8,
            residual: f32::from(s.label)
                - linear.raw(s.me, s.opp, s.empties()) as f32 / SCALE as f32,
        })
        .collect();
    let mut rng = StdRng::seed_from_u64(params.seed);
    let mut trainer = Trainer {
        table: (0..PatternWeights::params_per_phase() * HIDDEN)
            .map(|_| rng.random_range(-params.init..params.init))
            .collect(),
        heads: (first..=last)
            .map(|_| {
                (
                    [0.0; HIDDEN],
                    std::array::from_fn(|_| rng.random_range(-0.5..0.5)),
                    0.0,
                )
            })
            .collect(),
    };
    let mut order: Vec<u32> = (0..residuals.len() as u32).collect();
    let mut ids = vec![0; PatternWeights::feature_count()];
    let mut rates = (params.rate, params.head_rate);
    for epoch in 1..=params.epochs {
        order.shuffle(&mut rng);
        let mut squares = 0.0;
        for &i in &order {
            let r = &residuals[i as usize];
            PatternWeights::features(r.me, r.opp, &mut ids);
            squares +=
                f64::from(trainer.step(usize::from(r.head), &ids, r.residual, rates, params.l2));
        }
        progress(epoch, squares / residuals.len().max(1) as f64);
        rates = (rates.0 * params.decay, rates.1 * params.decay);
    }
    NetFloats {
        phases: params.phases,
        table: trainer.table,
        heads: trainer.heads,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::{Geometry, Othello};
    use crate::game::{Game, MoveList, Side, Start};
    use crate::search::othello::eval::network::PatternNet;
    use crate::search::othello::eval::weights::phase;

    /// Positions of phase 4 (20-23 discs) from random games, labelled by a rule no sum of
    /// pattern weights can express: +10 where the side to move leads both in discs and in
    /// moves or trails in both, -10 otherwise.
    fn samples(count: usize) -> Vec<Sample> {
        let mut rng = StdRng::seed_from_u64(5);
        let mut out = Vec::new();
        while out.len() < count {
            let mut p = Othello::start(Geometry::Board8x8, Start::Standard);
            while !p.is_terminal() && p.empty().count_ones() > 40 {
                let mut moves = MoveList::new();
                p.generate_moves(&mut moves);
                p = p.play(moves[rng.random_range(0..moves.len())]);
                if phase(p.empty().count_ones()) == 4 && p.moves() != 0 {
                    let [mine, theirs] = p.both_moves();
                    let leads = p.me().count_ones() > p.opp().count_ones();
                    let mobile = mine.count_ones() > theirs.count_ones();
                    let label = if leads == mobile { 10 } else { -10 };
                    out.push(Sample {
                        me: p.me(),
                        opp: p.opp(),
                        label,
                    });
                }
            }
        }
        out
    }

    #[test]
    fn the_network_learns_what_the_linear_model_leaves_and_the_engine_reads_it() {
        let train = samples(20_000);
        let mut by_phase = vec![Vec::new(); PHASES];
        by_phase[4] = train;
        let linear =
            PatternWeights::from_params(vec![0; PHASES * PatternWeights::params_per_phase()]);
        let params = NetParams {
            phases: (4, 4),
            epochs: 4,
            rate: 0.01,
            head_rate: 0.002,
            ..NetParams::default()
        };
        let mut passes = Vec::new();
        let floats = train_net(&by_phase, &linear, params, &mut |pass, mse| {
            passes.push((pass, mse));
        });
        assert_eq!(passes.iter().map(|p| p.0).collect::<Vec<_>>(), [1, 2, 3, 4]);
        // The linear model (all zeros) errs by 100 on every sample.
        let last = passes[3].1;
        assert!(last < 70.0 && last < passes[0].1, "{passes:?}");
        // Deterministic from its seed.
        let again = train_net(&by_phase, &linear, params, &mut |_, _| {});
        assert_eq!(again.table, floats.table);
        // The engine evaluates with the quantised network what the trainer computed,
        // to within rounding, and the file keeps it.
        let net = PatternNet::quantise(&floats).unwrap();
        let weights = PatternWeights::decode(&linear.with_net(Some(net)).encode()).unwrap();
        let trainer = Trainer {
            table: floats.table.clone(),
            heads: floats.heads.clone(),
        };
        let mut ids = vec![0; PatternWeights::feature_count()];
        let (mut checked, mut off) = (0, 0);
        for s in by_phase[4].iter().take(2_000) {
            PatternWeights::features(s.me, s.opp, &mut ids);
            let float = trainer.output(0, &trainer.sums(0, &ids)).clamp(-8.0, 8.0);
            let p = Othello::from_bitboards(Geometry::Board8x8, s.me, s.opp, Side::First).unwrap();
            let engine = weights.evaluate(&p);
            checked += 1;
            if (f64::from(engine) - f64::from(float)).abs() > 0.75 {
                off += 1;
            }
        }
        // Rounding to discs can only move a value half a disc; quantising the rows
        // (1/32 disc) a little more, rarely.
        assert!(
            off * 100 <= checked,
            "{off} of {checked} off by more than 0.75 disc"
        );
    }
}
