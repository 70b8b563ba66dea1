//! The specialised Othello endgame solver against a plain solver written here, on thousands
//! of random positions with 1-9 empty squares on every board (passes near the end
//! included), with full and random windows: the value must be exact inside the window and
//! a correct bound outside it (fail-soft). The performance work on the solver keeps this
//! green.

use engine::game::othello::{Geometry, Othello};
use engine::game::{Game, MoveList, Start};
use engine::search::SearchStats;
use engine::search::othello_endgame::solve;

/// xorshift64: reproducible choices.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plain negamax to the end through the public rules: the exact final score.
fn plain(position: &Othello) -> i32 {
    let mut moves = MoveList::new();
    position.generate_moves(&mut moves);
    if moves.is_empty() {
        return position.final_score();
    }
    moves
        .iter()
        .map(|&mv| -plain(&position.play(mv)))
        .max()
        .unwrap_or(i32::MIN)
}

/// A random unfinished position with `empties` empty squares or a few more (a game may
/// end early; then another is drawn).
fn random_position(geometry: Geometry, empties: u32, rng: &mut Rng) -> Othello {
    loop {
        let mut p = Othello::start(geometry, Start::Standard);
        while p.empties().is_some_and(|e| e > empties) && !p.is_terminal() {
            let mut moves = MoveList::new();
            p.generate_moves(&mut moves);
            p = p.play(moves[rng.below(moves.len())]);
        }
        if !p.is_terminal() {
            return p;
        }
    }
}

fn check(geometry: Geometry, max_empties: u32, count: usize, seed: u64) {
    let mut rng = Rng(seed);
    let limit = geometry.squares() as i32;
    let mut passes_seen = 0;
    for i in 0..count {
        let empties = 1 + (i as u32 % max_empties);
        let position = random_position(geometry, empties, &mut rng);
        if position.count_moves() == 1 && position.moves() == 0 {
            passes_seen += 1;
        }
        let exact = plain(&position);
        let mut stats = SearchStats::default();
        let full = solve(&position, -limit - 1, limit + 1, &mut stats);
        assert_eq!(full, exact, "full window on {position}");
        // A random window around the value: fail-soft bounds must hold.
        let alpha = exact - 1 - rng.below(6) as i32 + rng.below(3) as i32;
        let beta = alpha + 1 + rng.below(4) as i32;
        let value = solve(&position, alpha, beta, &mut stats);
        let what = format!("window ({alpha}, {beta}), exact {exact}, got {value} on {position}");
        if value <= alpha {
            assert!(exact <= value, "fail-low above the value: {what}");
        } else if value >= beta {
            assert!(exact >= value, "fail-high below the value: {what}");
        } else {
            assert_eq!(value, exact, "inside the window: {what}");
        }
    }
    // The draw must reach the special cases it is meant to cover.
    assert!(
        passes_seen > 0,
        "{geometry}: no position where the side to move must pass"
    );
}

#[test]
fn board_8x8_last_nine_empties() {
    // Nine covers the parity order below seven empties, fastest-first and the stability
    // cut-off from seven on; the plain solver makes more too slow for a test.
    check(Geometry::Board8x8, 9, 3000, 11);
}

#[test]
fn board_6x6_last_nine_empties() {
    check(Geometry::Board6x6, 9, 2000, 12);
}

#[test]
fn small_boards() {
    check(Geometry::Board4x4, 8, 1000, 13);
    check(Geometry::Board4x6, 9, 1000, 14);
    check(Geometry::Octagon, 9, 1000, 15);
}
