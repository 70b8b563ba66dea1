//! Least squares over sparse pattern features: the weights of one phase minimise
//! `sum (label - sum of the position's weights)^2 + lambda * sum w^2`, found by conjugate
//! gradients on the normal equations (CGLS), as Buro fitted Logistello's patterns, with
//! each weight's step scaled by how often it occurs (a Jacobi preconditioner: common and
//! rare patterns converge together).

use super::dataset::Sample;
use crate::search::othello::eval::weights::PatternWeights;

/// How to fit.
#[derive(Clone, Copy, Debug)]
pub struct FitParams {
    /// Conjugate-gradient iterations.
    pub iterations: usize,
    /// Ridge penalty on every weight, in squared discs: keeps rarely seen patterns near 0.
    pub lambda: f64,
}

impl Default for FitParams {
    fn default() -> Self {
        FitParams {
            iterations: 60,
            lambda: 4.0,
        }
    }
}

/// The sparse design matrix: each sample's parameter numbers, `width` per row.
struct Features {
    width: usize,
    ids: Vec<u32>,
}

impl Features {
    fn new(samples: &[Sample]) -> Features {
        let width = PatternWeights::feature_count();
        let mut ids = vec![0; samples.len() * width];
        for (row, s) in ids.chunks_exact_mut(width).zip(samples) {
            PatternWeights::features(s.me, s.opp, row);
        }
        Features { width, ids }
    }

    fn rows(&self) -> impl Iterator<Item = &[u32]> {
        self.ids.chunks_exact(self.width)
    }

    /// `out = A x`.
    fn times(&self, x: &[f64], out: &mut [f64]) {
        for (o, row) in out.iter_mut().zip(self.rows()) {
            *o = row.iter().map(|&f| x[f as usize]).sum();
        }
    }

    /// `out = A^T r`.
    fn transposed_times(&self, r: &[f64], out: &mut [f64]) {
        out.fill(0.0);
        for (&ri, row) in r.iter().zip(self.rows()) {
            for &f in row {
                out[f as usize] += ri;
            }
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Fits one phase's parameters (in discs) to `samples`. `on_iteration` gets each
/// iteration's number and mean squared error on the samples.
#[must_use]
pub fn fit_phase(
    samples: &[Sample],
    params: FitParams,
    on_iteration: &mut dyn FnMut(usize, f64),
) -> Vec<f64> {
    let n_params = PatternWeights::params_per_phase();
    let mut x = vec![0.0; n_params];
    if samples.is_empty() {
        return x;
    }
    let a = Features::new(samples);
    let n = samples.len() as f64;
    // The diagonal of A^T A + lambda I: occurrences of each weight, plus the penalty.
    let mut diagonal = vec![params.lambda.max(1e-9); n_params];
    for row in a.rows() {
        for &f in row {
            diagonal[f as usize] += 1.0;
        }
    }
    let mut r: Vec<f64> = samples.iter().map(|s| f64::from(s.label)).collect();
    let mut s = vec![0.0; n_params];
    a.transposed_times(&r, &mut s);
    let mut z: Vec<f64> = s.iter().zip(&diagonal).map(|(s, d)| s / d).collect();
    let mut p = z.clone();
    let mut gamma = dot(&s, &z);
    let mut q = vec![0.0; samples.len()];
    for iteration in 1..=params.iterations {
        a.times(&p, &mut q);
        let delta = dot(&q, &q) + params.lambda * dot(&p, &p);
        if delta <= 0.0 || gamma <= 0.0 {
            break;
        }
        let alpha = gamma / delta;
        x.iter_mut().zip(&p).for_each(|(x, p)| *x += alpha * p);
        r.iter_mut().zip(&q).for_each(|(r, q)| *r -= alpha * q);
        a.transposed_times(&r, &mut s);
        s.iter_mut()
            .zip(&x)
            .for_each(|(s, x)| *s -= params.lambda * x);
        z.iter_mut()
            .zip(s.iter().zip(&diagonal))
            .for_each(|(z, (s, d))| *z = s / d);
        let next = dot(&s, &z);
        let beta = next / gamma;
        gamma = next;
        p.iter_mut().zip(&z).for_each(|(p, z)| *p = z + beta * *p);
        on_iteration(iteration, dot(&r, &r) / n);
    }
    x
}

/// Parameters in discs as the file's integers (weight units, saturating).
#[must_use]
pub fn quantise(discs: &[f64]) -> Vec<i16> {
    let scale = f64::from(crate::search::othello::eval::weights::SCALE);
    discs
        .iter()
        .map(|w| {
            (w * scale)
                .round()
                .clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16
        })
        .collect()
}
