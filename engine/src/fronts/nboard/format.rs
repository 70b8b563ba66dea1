//! The lines NBoard expects: `search <pv> <eval> 0 <depth>` and `=== <mv>/<eval>/<time>`.

use protocol::{Depth, Info, Proof};

/// A move as GGF writes it: `F5`, `PA` for a pass.
fn ggf_move(mv: &str) -> String {
    if mv == "pass" {
        "PA".into()
    } else {
        mv.to_ascii_uppercase()
    }
}

/// `search F5-D6-C3 -1.00 0 12`, with depth `100%` for an exact solve and `100%W` for a
/// win/loss/draw proof (NBoard then shows the value as exact, or as a win, loss or draw);
/// a search to the end counts the `empties` left.
pub(super) fn search_line(info: &Info, empties: u32) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| ggf_move(m)).collect();
    let score = info.score.unwrap_or_default();
    let depth = match (score.proof, info.depth) {
        (Proof::Solved, _) => "100%".to_string(),
        (Proof::Wld, _) => "100%W".to_string(),
        (Proof::Heuristic, Some(Depth::End)) => empties.to_string(),
        (Proof::Heuristic, Some(Depth::Plies(n))) => n.to_string(),
        (Proof::Heuristic, None) => "0".to_string(),
    };
    format!(
        "search {} {:.2} 0 {depth}",
        pv.join("-"),
        f64::from(score.value)
    )
}

/// `=== F5/-1.00/0.52`: the move chosen, its value for the mover, seconds taken.
pub(super) fn chosen(mv: &str, value: i32, seconds: f64) -> String {
    format!("=== {}/{:.2}/{seconds:.2}", ggf_move(mv), f64::from(value))
}
