//! Kalah (mancala): pits, stores, sowing and captures, with both published rule variants.

pub(crate) mod position;
mod rules;

pub use position::{Kalah, KalahMove};
pub use rules::{EndRule, KalahRules, MAX_PITS, MAX_SEEDS};
