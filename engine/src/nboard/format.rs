//! The lines NBoard expects: `search <pv> <eval> 0 <depth>` and `=== <mv>/<eval>/<time>`.

use crate::game::Game;
use crate::game::othello::{Othello, OthelloMove};
use crate::ggf::move_text;
use crate::search::{DEPTH_TO_END, Iteration, Proof};

/// `search F5-D6-C3 -1.00 0 12`, with depth `<empties>@100%` for an exact solve and
/// `<empties>@100%W` for a win/loss/draw proof.
pub(super) fn search_line(position: &Othello, it: &Iteration<OthelloMove>) -> String {
    let pv: Vec<String> = it.pv.iter().map(|&m| move_text(m)).collect();
    let empties = position.empties().unwrap_or(0);
    let depth = match it.score.proof {
        Proof::Exact => format!("{empties}@100%"),
        Proof::WinLossDraw => format!("{empties}@100%W"),
        Proof::Heuristic if it.depth >= DEPTH_TO_END => empties.to_string(),
        Proof::Heuristic => it.depth.to_string(),
    };
    format!(
        "search {} {:.2} 0 {depth}",
        pv.join("-"),
        f64::from(it.score.value)
    )
}

/// `=== F5/-1.00/0.52`: the move chosen, its value for the mover, seconds taken.
pub(super) fn chosen(mv: OthelloMove, value: i32, seconds: f64) -> String {
    format!("=== {}/{:.2}/{seconds:.2}", move_text(mv), f64::from(value))
}
