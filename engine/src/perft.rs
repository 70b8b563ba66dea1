//! Perft: counting the leaves of the game tree, to pin the rules to published numbers.
//!
//! Convention (that of OEIS A124004 for Othello): a pass counts as a ply, and a game that
//! ends before the full depth counts as one leaf. (Edax's `perft` drops such finished games
//! instead, and so gives 24571056 rather than 24571284 at depth 10.)

use crate::game::{Game, MoveList};

/// The number of leaves `depth` plies below `position`.
#[must_use]
pub fn perft<G: Game>(position: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        // Bulk counting: a finished game is one leaf, and so is a pass.
        1 => position.count_moves().max(1) as u64,
        _ => {
            let mut moves = MoveList::new();
            position.generate_moves(&mut moves);
            if moves.is_empty() {
                return 1;
            }
            moves
                .iter()
                .map(|&mv| perft(&position.play(mv), depth - 1))
                .sum()
        }
    }
}

/// The number of distinct finished games reachable from `position` (docs/algorithms.md §002: the leaves
/// plain minimax evaluates when it searches to the end).
#[must_use]
pub fn finished_games<G: Game>(position: &G) -> u64 {
    // Games end, so an unbounded perft counts each finished game once.
    perft(position, u32::MAX)
}
