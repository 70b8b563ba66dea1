//! Othello's Multi-ProbCut model: how far a deep search's value strays from a shallow
//! one's, fitted from our own searches of positions of the game records
//! (`engine probcut fit`, docs/selectivity.md) and shipped in `engine/data/probcut.txt`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The spread of the deep value around the shallow one, linear in the empties and both
/// depths: `constant + per_empty * empties + per_depth * depth + per_shallow * shallow`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SigmaModel {
    /// Discs.
    pub constant: f32,
    /// Discs per empty square at the node.
    pub per_empty: f32,
    /// Discs per ply of the deep search.
    pub per_depth: f32,
    /// Discs per ply of the shallow search.
    pub per_shallow: f32,
}

/// The smallest spread used: a model extrapolated far from its data never claims more
/// certainty than this.
const MIN_SIGMA: f32 = 1.0;

impl SigmaModel {
    /// The spread, in discs, at a node with `empties` empty squares searched to `depth`,
    /// predicted by a search to `shallow`.
    #[must_use]
    pub fn sigma(&self, empties: f32, depth: i32, shallow: i32) -> f32 {
        (self.constant
            + self.per_empty * empties
            + self.per_depth * depth as f32
            + self.per_shallow * shallow as f32)
            .max(MIN_SIGMA)
    }

    /// The model shipped with the engine.
    #[must_use]
    pub fn builtin() -> SigmaModel {
        include_str!("../../../data/probcut.txt")
            .parse()
            .expect("the shipped ProbCut model parses")
    }
}

/// A model file that could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("ProbCut model: {0}")]
pub struct ModelError(String);

impl FromStr for SigmaModel {
    type Err = ModelError;

    /// Reads `sigma <constant> <per_empty> <per_depth> <per_shallow>`, after any `#`
    /// comment lines.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let c = model_line(text, "sigma", 4)?;
        Ok(SigmaModel {
            constant: c[0],
            per_empty: c[1],
            per_depth: c[2],
            per_shallow: c[3],
        })
    }
}

impl fmt::Display for SigmaModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "sigma {:.4} {:.4} {:.4} {:.4}",
            self.constant, self.per_empty, self.per_depth, self.per_shallow
        )
    }
}

/// The shallow search's depth at a node of a probable solve with `empties` empty squares:
/// about a third of them, even (an odd depth's values stray from the exact score by two
/// discs on average, an even one's by none; docs/selectivity.md), at least 2.
#[must_use]
pub fn end_shallow_depth(empties: u32) -> i32 {
    ((empties / 3) & !1).max(2) as i32
}

/// The spread of the exact score around the value of a search to [`end_shallow_depth`],
/// linear in the empties: `constant + per_empty * empties`. Fitted by `engine probcut
/// fit-end` from solved positions of the game records; shipped in
/// `engine/data/probcut-end.txt`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndModel {
    /// Discs.
    pub constant: f32,
    /// Discs per empty square at the node.
    pub per_empty: f32,
}

impl EndModel {
    /// The spread, in discs, at a node with `empties` empty squares.
    #[must_use]
    pub fn sigma(&self, empties: f32) -> f32 {
        (self.constant + self.per_empty * empties).max(MIN_SIGMA)
    }

    /// The model shipped with the engine.
    #[must_use]
    pub fn builtin() -> EndModel {
        include_str!("../../../data/probcut-end.txt")
            .parse()
            .expect("the shipped endgame ProbCut model parses")
    }
}

/// The numbers of the first line of `text` that is not a comment, which must start with
/// `keyword` and hold `count` of them.
fn model_line(text: &str, keyword: &str, count: usize) -> Result<Vec<f32>, ModelError> {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .ok_or_else(|| ModelError(format!("no '{keyword}' line")))?;
    let mut words = line.split_whitespace();
    if words.next() != Some(keyword) {
        return Err(ModelError(format!(
            "expected '{keyword} ...', got '{line}'"
        )));
    }
    let c: Vec<f32> = words
        .map(|w| w.parse::<f32>().ok().filter(|x| x.is_finite()))
        .collect::<Option<_>>()
        .ok_or_else(|| ModelError(format!("bad number in '{line}'")))?;
    if c.len() != count {
        return Err(ModelError(format!(
            "expected {count} coefficients, got {}",
            c.len()
        )));
    }
    Ok(c)
}

impl FromStr for EndModel {
    type Err = ModelError;

    /// Reads `end <constant> <per_empty>`, after any `#` comment lines.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let c = model_line(text, "end", 2)?;
        Ok(EndModel {
            constant: c[0],
            per_empty: c[1],
        })
    }
}

impl fmt::Display for EndModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "end {:.4} {:.4}", self.constant, self.per_empty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_model_parses_and_gives_spreads_of_a_few_discs() {
        let m = SigmaModel::builtin();
        assert_eq!(
            m.to_string().parse::<SigmaModel>().unwrap().to_string(),
            m.to_string()
        );
        for empties in [16.0, 30.0, 44.0, 56.0] {
            for depth in 3..=20 {
                let sigma = m.sigma(empties, depth, crate::search::probcut::shallow_depth(depth));
                assert!(
                    (MIN_SIGMA..8.0).contains(&sigma),
                    "{empties} {depth}: {sigma}"
                );
            }
        }
    }

    #[test]
    fn bad_files_are_errors() {
        for text in [
            "",
            "# only a comment",
            "sigma 1 2 3",
            "sigma 1 2 3 x",
            "spread 1 2 3 4",
        ] {
            assert!(text.parse::<SigmaModel>().is_err(), "{text}");
        }
        assert!("# c\nsigma 1 0.1 0.2 -0.1".parse::<SigmaModel>().is_ok());
        for text in ["", "end 1", "end 1 x", "sigma 1 2", "end 1 2 3"] {
            assert!(text.parse::<EndModel>().is_err(), "{text}");
        }
    }

    #[test]
    fn the_shipped_endgame_model_parses_and_shallow_depths_are_even() {
        let m = EndModel::builtin();
        assert_eq!(m.to_string().parse::<EndModel>().unwrap(), m);
        for empties in 10..=30 {
            let sigma = m.sigma(empties as f32);
            assert!((MIN_SIGMA..10.0).contains(&sigma), "{empties}: {sigma}");
            let shallow = end_shallow_depth(empties);
            assert!(shallow >= 2 && shallow % 2 == 0 && shallow <= empties as i32 / 3 + 1);
        }
    }
}
