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

/// Progress lines of a long run that resumes (`label`, `selfplay`): done of total, the
/// time so far, and the time left at the rate since this run began.
pub struct RunProgress {
    started: std::time::Instant,
    /// Items done and seconds elapsed at the first report (what a resumed run found).
    first: Option<(usize, f64)>,
}

impl RunProgress {
    pub fn new(started: std::time::Instant) -> RunProgress {
        RunProgress {
            started,
            first: None,
        }
    }

    /// `  done/total <what> (percent), elapsed s, about N min left`.
    pub fn line(&mut self, done: usize, total: usize, what: &str) -> String {
        let elapsed = self.started.elapsed().as_secs_f64();
        let (start, at) = *self.first.get_or_insert((done, elapsed));
        let rate = (done - start) as f64 / (elapsed - at).max(1e-9);
        let eta = if done > start && done < total {
            format!(
                ", about {:.0} min left",
                (total - done) as f64 / rate / 60.0
            )
        } else {
            String::new()
        };
        format!(
            "  {done}/{total} {what} ({:.1}%), {elapsed:.0} s{eta}",
            100.0 * done as f64 / total.max(1) as f64
        )
    }
}
