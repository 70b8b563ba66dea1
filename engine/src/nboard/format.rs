//! The lines NBoard expects: `search <pv> <eval> 0 <depth>` and `=== <mv>/<eval>/<time>`.

use crate::game::Game;
use crate::game::othello::{Othello, OthelloMove};
use crate::ggf::move_text;
use crate::search::{DEPTH_TO_END, Iteration, Proof, Score};

/// `search F5-D6-C3 -1.00 0 12`, with depth `100%` for an exact solve and `100%W` for a
/// win/loss/draw proof (NBoard then shows the value as exact, or as a win, loss or draw).
fn search_line(position: &Othello, depth: i32, score: Score, pv: &[OthelloMove]) -> String {
    let pv: Vec<String> = pv.iter().map(|&m| move_text(m)).collect();
    let empties = position.empties().unwrap_or(0);
    let depth = match score.proof {
        Proof::Exact => "100%".to_string(),
        Proof::WinLossDraw => "100%W".to_string(),
        Proof::Heuristic if depth >= DEPTH_TO_END => empties.to_string(),
        Proof::Heuristic => depth.to_string(),
    };
    format!(
        "search {} {:.2} 0 {depth}",
        pv.join("-"),
        f64::from(score.value)
    )
}

/// The `search` lines of an iteration: the best move's, then one per further ranked move
/// (`hint n` with n > 1), each PV starting with the move it values.
pub(super) fn search_lines(position: &Othello, it: &Iteration<OthelloMove>) -> Vec<String> {
    it.ranked()
        .map(|(_, score, pv)| search_line(position, it.depth, score, pv))
        .collect()
}

/// `=== F5/-1.00/0.52`: the move chosen, its value for the mover, seconds taken.
pub(super) fn chosen(mv: OthelloMove, value: i32, seconds: f64) -> String {
    format!("=== {}/{:.2}/{seconds:.2}", move_text(mv), f64::from(value))
}
