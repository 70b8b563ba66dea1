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
use crate::search::Searchable;
use crate::search::othello::eval::Evaluator;
use crate::search::othello::probcut::{EndModel, SigmaModel, end_shallow_depth};
use crate::search::probcut::{MIN_DEPTH, shallow_depth};
use crate::search::{Limits, Report, SearchParams, TranspositionTable, search_with, solve_exact};

/// One sampled position and its full-width values at depths 1, 2, ...
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthValues {
    /// Its number in the sample (lines of a sample file may come in any order).
    pub index: usize,
    /// The position.
    pub position: Othello,
    /// `values[d - 1]`: the minimax value at depth `d`, from the side to move.
    pub values: Vec<i32>,
    /// The value at depth 0: the position's own value (its evaluation) with the weights
    /// that searched it, so that a fit does not depend on the weights it runs with. Older
    /// sample files lack it.
    pub standing: Option<i32>,
    /// The exact score, when sampled for the endgame model (`engine probcut sample --end`).
    pub exact: Option<i32>,
}

/// The words of a sample line that name the value after them, in their order.
const KEYWORDS: [&str; 2] = ["eval", "end"];

impl DepthValues {
    /// The line of a sample file: `<index> <board> <side> <value at depth 1> ...`, then
    /// `eval <value at depth 0>` and `end <exact score>` when it has them.
    #[must_use]
    pub fn line(&self) -> String {
        let mut line = format!("{} {}", self.index, self.position);
        for v in &self.values {
            let _ = write!(line, " {v}");
        }
        for (word, value) in KEYWORDS.iter().zip([self.standing, self.exact]) {
            if let Some(value) = value {
                let _ = write!(line, " {word} {value}");
            }
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
        let words: Vec<&str> = words.collect();
        let value = |w: &str| w.parse::<i32>().context("bad value");
        let depths = words
            .iter()
            .position(|w| KEYWORDS.contains(w))
            .unwrap_or(words.len());
        let values = words[..depths]
            .iter()
            .map(|w| value(w))
            .collect::<anyhow::Result<Vec<_>>>()?;
        // Each keyword at most once, in their order, each followed by one value.
        let mut keyed = [None; KEYWORDS.len()];
        let mut rest = &words[depths..];
        for (word, slot) in KEYWORDS.iter().zip(&mut keyed) {
            if let [w, v, tail @ ..] = rest
                && w == word
            {
                *slot = Some(value(v)?);
                rest = tail;
            }
        }
        if !rest.is_empty() {
            bail!("expected 'eval <value>' then 'end <exact score>' after the values");
        }
        let [standing, exact] = keyed;
        if values
            .iter()
            .chain(&standing)
            .chain(&exact)
            .any(|v| v.abs() > 64)
        {
            bail!("a value beyond 64 discs");
        }
        Ok(DepthValues {
            index,
            position,
            values,
            standing,
            exact,
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

/// The value at depth 0 that a sample records: the position's own value as the search
/// takes it at its horizon (the evaluation with `evaluator`, or the final score).
#[must_use]
pub fn standing_value(position: &Othello, evaluator: &Evaluator) -> i32 {
    position.horizon(evaluator).value()
}

/// The position's full-width values with `evaluator` at depths 1 to [`deepest`]: one
/// iterative deepening (one thread; full width, so every algorithm's values), each
/// iteration's score, and its own value (depth 0); with `end`, its exact score too. The
/// table is cleared first, so each position's values and nodes are the same whatever was
/// searched before.
#[must_use]
pub fn depth_values(
    index: usize,
    position: &Othello,
    max_depth: u32,
    end: bool,
    evaluator: &Evaluator,
    tt: &mut TranspositionTable,
) -> DepthValues {
    tt.clear();
    let depth = deepest(position.empty().count_ones(), max_depth);
    let mut values = Vec::new();
    let limits = Limits::depth_or_exact(Some(depth));
    search_with(
        position,
        tt,
        &SearchParams::default(),
        evaluator,
        &limits,
        &mut |report| {
            if let Report::Iteration(it) = report {
                values.push(it.score.value);
            }
        },
    );
    let exact = end.then(|| solve_exact(position, tt).score.value);
    DepthValues {
        index,
        position: *position,
        values,
        standing: Some(standing_value(position, evaluator)),
        exact,
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

/// The group of empties a position with `empties` belongs to: its first count.
fn group_of(empties: u32) -> u32 {
    empties / EMPTIES_GROUP * EMPTIES_GROUP
}

/// The [`Spread`] of each `(depth, empties group)` over its differences, in key order.
fn spreads_of(differences: impl Iterator<Item = ((u32, u32), i32)>) -> Vec<Spread> {
    // (depth, empties group) -> (count, sum, sum of squares)
    let mut sums: BTreeMap<(u32, u32), (usize, f64, f64)> = BTreeMap::new();
    for (key, diff) in differences {
        let diff = f64::from(diff);
        let entry = sums.entry(key).or_default();
        entry.0 += 1;
        entry.1 += diff;
        entry.2 += diff * diff;
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

/// The spreads of `samples` at every depth from [`MIN_DEPTH`] with its
/// [`shallow_depth`], by group of empties. A shallow depth of 0 is the position's own
/// value as the sample recorded it (with the weights its searches used).
///
/// # Errors
/// A sample without its own value (an older sample file): it has to be sampled again.
pub fn spreads(samples: &[DepthValues]) -> anyhow::Result<Vec<Spread>> {
    let sampled = samples
        .iter()
        .map(|s| {
            let standing = s.standing.with_context(|| {
                format!(
                    "sample {} has no 'eval <value at depth 0>': the file is older than \
                     the fit; sample it again",
                    s.index
                )
            })?;
            Ok((s, standing))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(spreads_of(sampled.into_iter().flat_map(|(s, standing)| {
        let group = group_of(s.position.empty().count_ones());
        (MIN_DEPTH..=s.values.len() as i32).map(move |depth| {
            let value = |d: i32| match d {
                0 => standing,
                _ => s.values[d as usize - 1],
            };
            let diff = value(depth) - value(shallow_depth(depth));
            ((depth as u32, group), diff)
        })
    })))
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
            let shallow = f64::from(shallow_depth(s.depth as i32));
            (
                [1.0, group_middle(s), f64::from(s.depth), shallow],
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
    let c = least_squares(&rows)?;
    Ok(SigmaModel {
        constant: c[0] as f32,
        per_empty: c[1] as f32,
        per_depth: c[2] as f32,
        per_shallow: c[3] as f32,
    })
}

/// The middle of a spread's group of empties.
fn group_middle(s: &Spread) -> f64 {
    f64::from(s.empties) + f64::from(EMPTIES_GROUP - 1) / 2.0
}

/// The spread of the exact scores around the values of the probable solve's shallow
/// searches ([`end_shallow_depth`] of each position's empties), by group of empties: each
/// [`Spread`]'s `depth` is the shallow depth of its group's first count of empties.
/// Samples without an exact score, or not searched as deep, are left out.
#[must_use]
pub fn end_spreads(samples: &[DepthValues]) -> Vec<Spread> {
    spreads_of(samples.iter().filter_map(|s| {
        let empties = s.position.empty().count_ones();
        let value = s.values.get(end_shallow_depth(empties) as usize - 1)?;
        let group = group_of(empties);
        Some(((end_shallow_depth(group) as u32, group), s.exact? - value))
    }))
}

/// Fits `sigma = c0 + c1 * empties` to the endgame spreads by least squares, as
/// [`fit_sigma`] does.
///
/// # Errors
/// When fewer than two groups of `min_count` positions are left.
pub fn fit_end(spreads: &[Spread], min_count: usize) -> anyhow::Result<EndModel> {
    let rows: Vec<([f64; 2], f64, f64)> = spreads
        .iter()
        .filter(|s| s.count >= min_count)
        .map(|s| ([1.0, group_middle(s)], s.rms, s.count as f64))
        .collect();
    if rows.len() < 2 {
        bail!(
            "only {} groups of at least {min_count} solved positions: sample more with --end",
            rows.len()
        );
    }
    let c = least_squares(&rows)?;
    Ok(EndModel {
        constant: c[0] as f32,
        per_empty: c[1] as f32,
    })
}

/// The coefficients `c` minimising `sum w (c . x - y)^2` over the rows `(x, y, w)`: the
/// normal equations, solved by Gaussian elimination with partial pivoting.
fn least_squares<const N: usize>(rows: &[([f64; N], f64, f64)]) -> anyhow::Result<[f64; N]> {
    let mut a = [[0.0f64; N]; N];
    let mut b = [0.0f64; N];
    for (x, y, w) in rows {
        for i in 0..N {
            for j in 0..N {
                a[i][j] += w * x[i] * x[j];
            }
            b[i] += w * x[i] * y;
        }
    }
    for col in 0..N {
        let pivot = (col..N)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        if a[col][col].abs() < 1e-12 {
            bail!("the spreads do not determine the model (all at one depth or empties?)");
        }
        let (pivot_row, pivot_b) = (a[col], b[col]);
        for (r, (row, rb)) in a.iter_mut().zip(&mut b).enumerate() {
            if r != col {
                let factor = row[col] / pivot_row[col];
                for (x, p) in row.iter_mut().zip(pivot_row).skip(col) {
                    *x -= factor * p;
                }
                *rb -= factor * pivot_b;
            }
        }
    }
    Ok(std::array::from_fn(|i| b[i] / a[i][i]))
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
            standing: None,
            exact: None,
        };
        assert_eq!(DepthValues::parse(&s.line()).unwrap(), s);
        let solved = DepthValues {
            exact: Some(-4),
            ..s.clone()
        };
        assert!(solved.line().ends_with(" 0 end -4"), "{}", solved.line());
        assert_eq!(DepthValues::parse(&solved.line()).unwrap(), solved);
        let evaluated = DepthValues {
            standing: Some(5),
            ..solved.clone()
        };
        assert!(
            evaluated.line().ends_with(" 0 eval 5 end -4"),
            "{}",
            evaluated.line()
        );
        assert_eq!(DepthValues::parse(&evaluated.line()).unwrap(), evaluated);
        let unsolved = DepthValues {
            exact: None,
            ..evaluated.clone()
        };
        assert_eq!(DepthValues::parse(&unsolved.line()).unwrap(), unsolved);
        let board = s.line().replace(" 3 -1 2 0", "");
        for bad in [
            " 1 end -4 eval 5",
            " 1 eval 5 eval 5",
            " 1 eval",
            " 1 eval 65",
            " eval x",
        ] {
            assert!(
                DepthValues::parse(&format!("{board}{bad}")).is_err(),
                "{bad}"
            );
        }
        assert!(DepthValues::parse("7 ---- X 1").is_err());
        assert!(DepthValues::parse(&format!("{} 99", s.line())).is_err());
        assert!(DepthValues::parse(&format!("{} end", s.line())).is_err());
        assert!(DepthValues::parse(&format!("{} end 1 2", s.line())).is_err());
        assert!(DepthValues::parse(&format!("{} end 65", s.line())).is_err());
        assert!(DepthValues::parse("").is_err());
    }

    #[test]
    fn an_interrupted_last_line_is_left_out_and_a_damaged_one_refused() {
        let s = DepthValues {
            index: 3,
            position: Othello::start(Geometry::Board8x8, Start::Standard),
            values: vec![1, 2],
            standing: None,
            exact: None,
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
        let evaluator = Evaluator::default();
        let sampled = depth_values(0, &p, 5, false, &evaluator, &mut tt);
        assert_eq!(sampled.values.len(), 5);
        assert_eq!(sampled.exact, None);
        assert_eq!(sampled.standing, Some(p.horizon(&evaluator).value()));
        for (d, &v) in sampled.values.iter().enumerate() {
            let limits = Limits::depth_or_exact(Some(d as u32 + 1));
            let mut fresh = TranspositionTable::new(4);
            let alone = crate::search::search(
                &p,
                &mut fresh,
                &SearchParams::default(),
                &limits,
                &mut |_| {},
            );
            assert_eq!(alone.score.value, v, "depth {}", d + 1);
        }
        // With other weights (the hand evaluation here), their values.
        let hand = depth_values(0, &p, 5, false, &Evaluator::Hand, &mut tt);
        assert_eq!(hand.standing, Some(p.horizon(&Evaluator::Hand).value()));
        assert_ne!(hand, sampled);
    }

    #[test]
    fn spreads_take_depth_0_from_the_sample_and_refuse_a_sample_without_it() {
        // Depth 2's shallow value is depth 0's: the recorded one, whatever the weights.
        let p = Othello::start(Geometry::Board8x8, Start::Standard);
        let sample = |standing| DepthValues {
            index: 4,
            position: p,
            values: vec![0, 3],
            standing,
            exact: None,
        };
        let found = spreads(&[sample(Some(-2))]).unwrap();
        let at_2 = found.iter().find(|s| s.depth == 2).unwrap();
        assert_eq!((at_2.count, at_2.mean), (1, 5.0));
        let err = spreads(&[sample(Some(1)), sample(None)]).unwrap_err();
        assert!(err.to_string().contains("sample 4 has no 'eval"), "{err}");
    }

    #[test]
    fn endgame_spreads_compare_the_exact_score_with_the_shallow_value() {
        // Two positions with 12 empties (shallow depth 4): exact - value at depth 4 is
        // +3 and -1; one without its exact score and one searched too shallow are left out.
        let mut p = Othello::start(Geometry::Board8x8, Start::Standard);
        while p.empty().count_ones() > 12 {
            let mut moves = crate::game::MoveList::new();
            p.generate_moves(&mut moves);
            p = p.play(moves[0]);
        }
        assert_eq!(end_shallow_depth(12), 4);
        let sample = |values: Vec<i32>, exact| DepthValues {
            index: 0,
            position: p,
            values,
            standing: None,
            exact,
        };
        let samples = [
            sample(vec![0, 0, 0, 5, 9], Some(8)),
            sample(vec![0, 0, 0, -2, 9], Some(-3)),
            sample(vec![0, 0, 0, 5], None),
            sample(vec![0, 0], Some(8)),
        ];
        let spreads = end_spreads(&samples);
        assert_eq!(spreads.len(), 1);
        let s = spreads[0];
        assert_eq!((s.depth, s.empties, s.count), (4, 12, 2));
        assert!((s.mean - 1.0).abs() < 1e-9 && (s.rms - 5f64.sqrt()).abs() < 1e-9);
    }

    #[test]
    fn a_known_endgame_spread_is_recovered() {
        let truth = EndModel {
            constant: 3.0,
            per_empty: 0.1,
        };
        let spreads: Vec<Spread> = (12..=24)
            .step_by(4)
            .map(|empties| Spread {
                depth: end_shallow_depth(empties) as u32,
                empties,
                count: 40,
                mean: 0.0,
                rms: f64::from(truth.sigma(empties as f32 + 1.5)),
            })
            .collect();
        let fitted = fit_end(&spreads, 10).unwrap();
        assert!(
            (fitted.constant - truth.constant).abs() < 1e-3,
            "{fitted:?}"
        );
        assert!(
            (fitted.per_empty - truth.per_empty).abs() < 1e-4,
            "{fitted:?}"
        );
        assert!(fit_end(&spreads[..1], 10).is_err());
        assert!(fit_end(&spreads, 41).is_err());
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
