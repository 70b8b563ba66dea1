//! Printing scores, iterations and counters for the command line.

use std::fmt::Display;

use engine::search::{Bound, Iteration, Proof, Report, Score};

/// A score as `+16`, `>=+2 wld`, `-4 exact`...
pub fn score(score: &Score) -> String {
    let bound = match score.bound {
        Bound::Exact => "",
        Bound::Lower => ">=",
        Bound::Upper => "<=",
    };
    let proof = match score.proof {
        Proof::Heuristic => "",
        Proof::Solved => " exact",
        Proof::Wld => " wld",
    };
    format!("{bound}{:+}{proof}", score.value)
}

/// Moves separated by spaces.
pub fn line<M: Display>(moves: &[M]) -> String {
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// One line per completed iteration, on stderr (progress of a long search).
pub fn progress<M: Display>(report: Report<'_, M>) {
    match report {
        Report::Iteration(it) => eprintln!("{}", iteration(it)),
        Report::Pass {
            depth: d,
            pass,
            time,
        } => eprintln!(
            "  depth {} pass bound {:+} value {:+} interval [{}, {}] nodes {} time {:.3}",
            d,
            pass.bound,
            pass.value,
            pass.lower,
            pass.upper,
            pass.nodes,
            time.as_secs_f64()
        ),
    }
}

/// An iteration as one line.
pub fn iteration<M: Display>(it: &Iteration<M>) -> String {
    format!(
        "depth {} score {} nodes {} evals {} tt {}/{} passes {} time {:.3} nps {} pv {}",
        it.depth,
        score(&it.score),
        it.stats.nodes,
        it.stats.leaf_evals,
        it.stats.tt_hits,
        it.stats.tt_probes,
        it.stats.passes.len(),
        it.time.as_secs_f64(),
        it.stats.nps(it.time),
        line(&it.pv)
    )
}
