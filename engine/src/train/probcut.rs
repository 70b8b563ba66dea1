//! Multi-ProbCut's model from our own searches (`engine probcut sample` and
//! `engine probcut fit`, docs/selectivity.md): positions of the game records searched full
//! width at every depth, then the spread of each deep value around the shallow one that
//! predicts it, as a function of the empties and the two depths.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::RangeInclusive;

use anyhow::{Context, bail};
use rand::{RngExt, SeedableRng, rngs::StdRng};

use super::games::TrainingGame;
use crate::game::othello::{Geometry, Othello};
use crate::search::othello::probcut::SigmaModel;
use crate::search::probcut::{MIN_DEPTH, shallow_depth};
use crate::search::{Limits, Report, SearchParams, TranspositionTable, search};

/// One sampled position and its full-width values at depths 1, 2, ...
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthValues {
    /// Its number in the sample (lines of a sample file may come in any order).
    pub index: usize,
    /// The position.
    pub position: Othello,
    /// `values[d - 1]`: the minimax value at depth `d`, from the side to move.
    pub values: Vec<i32>,
}

impl DepthValues {
    /// The line of a sample file: `<index> <board> <side> <value at depth 1> ...`.
    #[must_use]
    pub fn line(&self) -> String {
        let mut line = format!("{} {}", self.index, self.position);
        for v in &self.values {
            let _ = write!(line, " {v}");
        }
        line
    }

    /// Reads a line written by [`DepthValues::line`].
    ///
    /// # Errors
    /// When the line is not one.
    pub fn parse(line: &str) -> anyhow::Result<DepthValues> {
        let mut words = line.split_whitespace();
        let index = words
            .next()
            .context("empty line")?
            .parse()
            .context("bad index")?;
        let board = words.next().context("no board")?;
        let side = words.next().context("no side to move")?;
        let position = Othello::parse(Geometry::Board8x8, &format!("{board} {side}"))?;
        let values = words
            .map(|w| w.parse::<i32>().context("bad value"))
            .collect::<anyhow::Result<Vec<_>>>()?;
        if values.iter().any(|v| v.abs() > 64) {
            bail!("a value beyond 64 discs");
        }
        Ok(DepthValues {
            index,
            position,
            values,
        })
    }
}

/// Reads a sample file's text: every complete line checked (a damaged one is an error
/// naming its line); a last line without its newline, as a search interrupted while
/// writing leaves it, is left out. Returns the samples and the length of the text they
/// fill (what to keep before appending).
///
/// # Errors
/// The first complete line that is not a sample.
pub fn read_sample(text: &str) -> anyhow::Result<(Vec<DepthValues>, usize)> {
    let complete = text.rfind('\n').map_or(0, |i| i + 1);
    let samples = text[..complete]
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| DepthValues::parse(l).with_context(|| format!("line {}", i + 1)))
        .collect::<anyhow::Result<_>>()?;
    Ok((samples, complete))
}

/// `count` positions of `games`, the same for the same seed: each from a game drawn at
/// random, at a number of empties drawn from `empties` (drawn again when the game has no
/// position with as many, as after a pass).
#[must_use]
pub fn pick_positions(
    games: &[TrainingGame],
    count: usize,
    empties: RangeInclusive<u32>,
    seed: u64,
) -> Vec<Othello> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut picked = Vec::with_capacity(count);
    if games.is_empty() || empties.is_empty() {
        return picked;
    }
    // Bounded, in case no game reaches the empties asked for.
    for _ in 0..count.saturating_mul(100) {
        if picked.len() == count {
            break;
        }
        let game = &games[rng.random_range(0..games.len())];
        let e = rng.random_range(empties.clone());
        if let Some(p) = game.positions.iter().find(|p| p.empty().count_ones() == e) {
            picked.push(*p);
        }
    }
    picked
}

/// The deepest depth sampled at `empties`: two short of the end, so that no search ends
/// the game everywhere (the cut applies only where the search stops short of the end).
#[must_use]
pub fn deepest(empties: u32, max_depth: u32) -> u32 {
    max_depth.min(empties.saturating_sub(2)).max(1)
}

/// The position's full-width values at depths 1 to [`deepest`]: one iterative deepening
/// (MTD(f), one thread), each iteration's score. The table is cleared first, so each
/// position's values and nodes are the same whatever was searched before.
#[must_use]
pub fn depth_values(
    index: usize,
    position: &Othello,
    max_depth: u32,
    tt: &mut TranspositionTable,
) -> DepthValues {
    tt.clear();
    let depth = deepest(position.empty().count_ones(), max_depth);
    let mut values = Vec::new();
    let limits = Limits::depth_or_exact(Some(depth));
    search(
        position,
        tt,
        &SearchParams::default(),
        &limits,
        &mut |report| {
            if let Report::Iteration(it) = report {
                values.push(it.score.value);
            }
        },
    );
    DepthValues {
        index,
        position: *position,
        values,
    }
}

/// The spread of the deep values around the shallow ones at one depth and range of
/// empties: what the fit is made from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// Remaining depth of the node.
    pub depth: u32,
    /// Empties at the node: the first of a group of [`EMPTIES_GROUP`].
    pub empties: u32,
    /// Positions measured.
    pub count: usize,
    /// Mean of deep minus shallow value, in discs.
    pub mean: f64,
    /// Root mean square of deep minus shallow value, in discs (bias included).
    pub rms: f64,
}

/// Empties per group of [`Spread`]s.
pub const EMPTIES_GROUP: u32 = 4;

/// The spreads of `samples` at every depth from [`MIN_DEPTH`] with its
/// [`shallow_depth`], by group of empties.
#[must_use]
pub fn spreads(samples: &[DepthValues]) -> Vec<Spread> {
    // (depth, empties group) -> (count, sum, sum of squares)
    let mut sums: BTreeMap<(u32, u32), (usize, f64, f64)> = BTreeMap::new();
    for s in samples {
        let empties = s.position.empty().count_ones();
        let group = empties / EMPTIES_GROUP * EMPTIES_GROUP;
        for depth in MIN_DEPTH..=s.values.len() as i32 {
            let shallow = shallow_depth(depth);
            let diff = f64::from(s.values[depth as usize - 1] - s.values[shallow as usize - 1]);
            let entry = sums.entry((depth as u32, group)).or_default();
            entry.0 += 1;
            entry.1 += diff;
            entry.2 += diff * diff;
        }
    }
    sums.into_iter()
        .map(|((depth, empties), (count, sum, squares))| Spread {
            depth,
            empties,
            count,
            mean: sum / count as f64,
            rms: (squares / count as f64).sqrt(),
        })
        .collect()
}

/// Fits `sigma = c0 + c1 * empties + c2 * depth + c3 * shallow` to the spreads by least
/// squares, each group weighted by its count (the middle of the group's empties); groups
/// of fewer than `min_count` positions are left out.
///
/// # Errors
/// When too few groups are left to fit four coefficients.
pub fn fit_sigma(spreads: &[Spread], min_count: usize) -> anyhow::Result<SigmaModel> {
    let rows: Vec<([f64; 4], f64, f64)> = spreads
        .iter()
        .filter(|s| s.count >= min_count)
        .map(|s| {
            let middle = f64::from(s.empties) + f64::from(EMPTIES_GROUP - 1) / 2.0;
            let shallow = f64::from(shallow_depth(s.depth as i32));
            (
                [1.0, middle, f64::from(s.depth), shallow],
                s.rms,
                s.count as f64,
            )
        })
        .collect();
    if rows.len() < 8 {
        bail!(
            "only {} groups of at least {min_count} positions: sample more positions",
            rows.len()
        );
    }
    // Normal equations, 4x4, solved by Gaussian elimination with partial pivoting.
    let mut a = [[0.0f64; 5]; 4];
    for (x, y, w) in &rows {
        for i in 0..4 {
            for j in 0..4 {
                a[i][j] += w * x[i] * x[j];
            }
            a[i][4] += w * x[i] * y;
        }
    }
    for col in 0..4 {
        let pivot = (col..4)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        if a[col][col].abs() < 1e-12 {
            bail!("the spreads do not determine the model (all at one depth or empties?)");
        }
        let pivot_row = a[col];
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let factor = row[col] / pivot_row[col];
                for (x, p) in row.iter_mut().zip(pivot_row).skip(col) {
                    *x -= factor * p;
                }
            }
        }
    }
    let c: [f64; 4] = std::array::from_fn(|i| a[i][4] / a[i][i]);
    Ok(SigmaModel {
        constant: c[0] as f32,
        per_empty: c[1] as f32,
        per_depth: c[2] as f32,
        per_shallow: c[3] as f32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::OthelloMove;
    use crate::game::{Game, Start};

    #[test]
    fn lines_round_trip() {
        let s = DepthValues {
            index: 7,
            position: Othello::start(Geometry::Board8x8, Start::Standard),
            values: vec![3, -1, 2, 0],
        };
        assert_eq!(DepthValues::parse(&s.line()).unwrap(), s);
        assert!(DepthValues::parse("7 ---- X 1").is_err());
        assert!(DepthValues::parse(&format!("{} 99", s.line())).is_err());
        assert!(DepthValues::parse("").is_err());
    }

    #[test]
    fn an_interrupted_last_line_is_left_out_and_a_damaged_one_refused() {
        let s = DepthValues {
            index: 3,
            position: Othello::start(Geometry::Board8x8, Start::Standard),
            values: vec![1, 2],
        };
        let whole = format!("{}\n", s.line());
        let text = format!("{whole}{}", &s.line()[..20]);
        let (samples, keep) = read_sample(&text).unwrap();
        assert_eq!((samples, keep), (vec![s.clone()], whole.len()));
        assert_eq!(read_sample("").unwrap(), (Vec::new(), 0));
        let err = read_sample(&format!("{whole}3 bad\n")).unwrap_err();
        assert!(format!("{err:#}").contains("line 2"), "{err:#}");
    }

    #[test]
    fn values_are_the_searches_at_each_depth() {
        let start = Othello::start(Geometry::Board8x8, Start::Standard);
        let p = start.play(OthelloMove::square(19));
        let mut tt = TranspositionTable::new(4);
        let sampled = depth_values(0, &p, 5, &mut tt);
        assert_eq!(sampled.values.len(), 5);
        for (d, &v) in sampled.values.iter().enumerate() {
            let limits = Limits::depth_or_exact(Some(d as u32 + 1));
            let mut fresh = TranspositionTable::new(4);
            let alone = search(
                &p,
                &mut fresh,
                &SearchParams::default(),
                &limits,
                &mut |_| {},
            );
            assert_eq!(alone.score.value, v, "depth {}", d + 1);
        }
    }

    #[test]
    fn a_known_linear_spread_is_recovered() {
        let truth = SigmaModel {
            constant: 1.5,
            per_empty: 0.05,
            per_depth: 0.2,
            per_shallow: -0.1,
        };
        let spreads: Vec<Spread> = (MIN_DEPTH as u32..=12)
            .flat_map(|depth| (4..=56).step_by(4).map(move |empties| (depth, empties)))
            .map(|(depth, empties)| Spread {
                depth,
                empties,
                count: 50,
                mean: 0.0,
                rms: f64::from(truth.sigma(
                    empties as f32 + 1.5,
                    depth as i32,
                    shallow_depth(depth as i32),
                )),
            })
            .collect();
        let fitted = fit_sigma(&spreads, 10).unwrap();
        for (a, b) in [
            (fitted.constant, truth.constant),
            (fitted.per_empty, truth.per_empty),
            (fitted.per_depth, truth.per_depth),
            (fitted.per_shallow, truth.per_shallow),
        ] {
            assert!((a - b).abs() < 1e-3, "{fitted:?}");
        }
        assert!(fit_sigma(&spreads[..3], 10).is_err());
    }
}
