//! docs/algorithms.md §001's experiment: Kalah 6x6 played engine against engine, the first player
//! searching to depth `d1` and the second to `d2`, for `d1, d2` in 2..=8, with the
//! evaluations each side needed. Played in-process so the counts are the searches' own.

use std::io::Write;

use crate::game::kalah::{Kalah, KalahRules};
use crate::game::{Game, Side};
use crate::search::{Algorithm, Limits, SearchParams, TranspositionTable, search};

/// Depths of the experiment.
pub const DEPTHS: std::ops::RangeInclusive<u32> = 2..=8;

/// One game of the experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The first player's depth.
    pub d1: u32,
    /// The second player's depth.
    pub d2: u32,
    /// Final store difference, first player minus second.
    pub score: i32,
    /// Leaf evaluations of the first player over the game.
    pub evals_first: u64,
    /// Leaf evaluations of the second player.
    pub evals_second: u64,
}

/// Plays Kalah 6x6 from the start, first player at `d1`, second at `d2`, both with
/// `algorithm` and a table of `hash_mib` each. As in the papers, each search is a single
/// search to its depth; MTD(f) takes the player's previous value as its first guess.
#[must_use]
pub fn play(algorithm: Algorithm, d1: u32, d2: u32, hash_mib: usize) -> Pairing {
    let rules = KalahRules::new(6, 6).expect("kalah 6x6 exists");
    let mut position = Kalah::start(rules);
    let mut tables = [
        TranspositionTable::new(hash_mib),
        TranspositionTable::new(hash_mib),
    ];
    let mut guesses: [Option<i32>; 2] = [None, None];
    let mut evals = [0u64; 2];
    while !position.is_terminal() {
        let side = usize::from(position.side_to_move() == Side::Second);
        let params = SearchParams {
            algorithm: Some(algorithm),
            iterative: false,
            first_guess: guesses[side],
            ..SearchParams::default()
        };
        let depth = if side == 0 { d1 } else { d2 };
        let result = search(
            &position,
            &mut tables[side],
            &params,
            &Limits::depth_or_exact(Some(depth)),
            &mut |_| {},
        );
        evals[side] += result.stats.leaf_evals;
        guesses[side] = Some(result.score.value);
        let Some(mv) = result.best_move else { break };
        position = position.play(mv);
    }
    let score = match position.side_to_move() {
        Side::First => position.final_score(),
        Side::Second => -position.final_score(),
    };
    Pairing {
        d1,
        d2,
        score,
        evals_first: evals[0],
        evals_second: evals[1],
    }
}

/// Runs the whole experiment for NegaScout and MTD(f), printing a table per algorithm.
///
/// # Errors
/// When writing to `out` fails.
pub fn run(out: &mut impl Write, hash_mib: usize) -> std::io::Result<()> {
    writeln!(
        out,
        "docs/algorithms.md §001: Kalah 6x6 from the start, first player at depth d1 against second at depth d2"
    )?;
    writeln!(
        out,
        "(score: first player's store difference at the end; evaluations: leaves each side evaluated)"
    )?;
    for algorithm in [Algorithm::NegaScout, Algorithm::Mtdf] {
        writeln!(out, "\n{algorithm} with a transposition table")?;
        writeln!(
            out,
            "d1 d2  score  evaluations (first)  evaluations (second)"
        )?;
        let (mut total_first, mut total_second) = (0, 0);
        for d1 in DEPTHS {
            for d2 in DEPTHS {
                let p = play(algorithm, d1, d2, hash_mib);
                total_first += p.evals_first;
                total_second += p.evals_second;
                writeln!(
                    out,
                    "{d1:>2} {d2:>2}  {:>+5}  {:>19}  {:>20}",
                    p.score, p.evals_first, p.evals_second
                )?;
            }
        }
        writeln!(out, "total        {total_first:>19}  {total_second:>20}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_reproducible_and_counted() {
        for algorithm in [Algorithm::NegaScout, Algorithm::Mtdf] {
            let a = play(algorithm, 3, 2, 4);
            assert_eq!(a, play(algorithm, 3, 2, 4), "deterministic");
            assert!(a.evals_first > 0 && a.evals_second > 0);
            assert!(a.score.abs() <= 72, "72 seeds in all");
        }
    }
}
