//! Othello's evaluations: the trained patterns ([`weights`], [`patterns`], [`globals`])
//! with the network over their tables ([`network`]) on 8x8, the hand-weighted features
//! ([`hand`]) on every board, and the choice between them (options `Eval` and
//! `EvalFile`).

pub(crate) mod globals;
pub mod hand;
pub mod network;
pub(crate) mod patterns;
pub mod weights;

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

use thiserror::Error;

use crate::game::othello::Geometry;
pub use weights::{PatternWeights, WeightsError};

/// Which evaluation the searches use where a game offers more than one.
#[derive(Clone, Debug)]
pub enum Evaluator {
    /// The hand-weighted features of [`othello::evaluate`] (every board).
    Hand,
    /// Trained pattern weights on 8x8 (the hand evaluation on the other boards).
    Patterns(Arc<PatternWeights>),
}

impl Default for Evaluator {
    /// The shipped trained weights.
    fn default() -> Self {
        Evaluator::Patterns(PatternWeights::builtin())
    }
}

impl Evaluator {
    /// The trained weights, where they apply: on 8x8 (every other board uses the hand
    /// evaluation).
    #[must_use]
    pub fn patterns_for(&self, geometry: Geometry) -> Option<&PatternWeights> {
        match self {
            Evaluator::Patterns(weights) if geometry == Geometry::Board8x8 => Some(weights),
            _ => None,
        }
    }
}

impl PartialEq for Evaluator {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Evaluator::Hand, Evaluator::Hand) => true,
            (Evaluator::Patterns(a), Evaluator::Patterns(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Eq for Evaluator {}

/// The evaluations by name, as options and flags give them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// Trained patterns (the shipped weights, or a file's).
    #[default]
    Trained,
    /// The hand-weighted features.
    Hand,
}

impl EvalKind {
    /// The option value.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Trained => "trained",
            EvalKind::Hand => "hand",
        }
    }
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown evaluation name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown evaluation '{0}' (expected trained or hand)")]
pub struct UnknownEval(pub String);

impl FromStr for EvalKind {
    type Err = UnknownEval;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [EvalKind::Trained, EvalKind::Hand]
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownEval(s.to_string()))
    }
}

/// The evaluation as options and flags choose it: which one, and the trained weights with
/// the file they came from (none: the shipped weights).
#[derive(Clone, Debug, Default)]
pub struct EvalChoice {
    /// Trained or hand.
    pub kind: EvalKind,
    /// The weights file, if not the shipped weights.
    pub file: Option<PathBuf>,
    /// The trained weights (used when `kind` is trained).
    pub weights: Option<Arc<PatternWeights>>,
}

impl PartialEq for EvalChoice {
    /// The same evaluation from the same file.
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind && self.file == other.file
    }
}

impl Eq for EvalChoice {}

impl EvalChoice {
    /// The choice of `kind` with the weights of `file` (none: the shipped ones).
    ///
    /// # Errors
    /// When the file is missing or not a weights file of this engine.
    pub fn new(kind: EvalKind, file: Option<&Path>) -> Result<EvalChoice, WeightsError> {
        let weights = file.map(PatternWeights::load).transpose()?.map(Arc::new);
        Ok(EvalChoice {
            kind,
            file: file.map(Path::to_path_buf),
            weights,
        })
    }

    /// The evaluator for the searches.
    #[must_use]
    pub fn evaluator(&self) -> Evaluator {
        match self.kind {
            EvalKind::Hand => Evaluator::Hand,
            EvalKind::Trained => Evaluator::Patterns(
                self.weights
                    .as_ref()
                    .map_or_else(PatternWeights::builtin, Arc::clone),
            ),
        }
    }
}
