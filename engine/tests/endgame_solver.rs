//! The specialised Othello endgame solver against a plain solver written here, on thousands
//! of random positions with 1-14 empty squares on every board (passes near the end
//! included), with full and random windows: the value must be exact inside the window and
//! a correct bound outside it (fail-soft). The performance work on the solver keeps this
//! green.

use engine::game::othello::{Geometry, Othello};
use engine::game::{Game, MoveList, Start};
use engine::search::othello::endgame::solve;
use engine::search::{SearchStats, TranspositionTable};

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

/// Plain alpha-beta to the end through the public rules, no table, no ordering: the exact
/// final score inside `(alpha, beta)`, else the bound it crossed (fail-hard).
fn plain(position: &Othello, mut alpha: i32, beta: i32) -> i32 {
    let mut moves = MoveList::new();
    position.generate_moves(&mut moves);
    if moves.is_empty() {
        return position.final_score().clamp(alpha, beta);
    }
    for &mv in &moves {
        alpha = alpha.max(-plain(&position.play(mv), -beta, -alpha));
        if alpha >= beta {
            break;
        }
    }
    alpha
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

/// Checks `count` positions with empties in the range; returns how many of them were a
/// pass for the side to move.
fn check(
    geometry: Geometry,
    empties: std::ops::RangeInclusive<u32>,
    count: usize,
    seed: u64,
) -> usize {
    let mut rng = Rng(seed);
    let limit = geometry.squares() as i32;
    let mut passes_seen = 0;
    // One table for the whole run: entries of earlier positions and windows must not
    // mislead later searches.
    let mut tt = TranspositionTable::new(4);
    for i in 0..count {
        let span = empties.end() - empties.start() + 1;
        let position = random_position(geometry, empties.start() + i as u32 % span, &mut rng);
        if position.count_moves() == 1 && position.moves() == 0 {
            passes_seen += 1;
        }
        let exact = plain(&position, -limit - 1, limit + 1);
        let mut stats = SearchStats::default();
        let full = solve(&position, -limit - 1, limit + 1, &mut tt, &mut stats);
        assert_eq!(full, exact, "full window on {position}");
        // A random window around the value: fail-soft bounds must hold.
        let alpha = exact - 1 - rng.below(6) as i32 + rng.below(3) as i32;
        let beta = alpha + 1 + rng.below(4) as i32;
        let value = solve(&position, alpha, beta, &mut tt, &mut stats);
        let what = format!("window ({alpha}, {beta}), exact {exact}, got {value} on {position}");
        if value <= alpha {
            assert!(exact <= value, "fail-low above the value: {what}");
        } else if value >= beta {
            assert!(exact >= value, "fail-high below the value: {what}");
        } else {
            assert_eq!(value, exact, "inside the window: {what}");
        }
    }
    passes_seen
}

/// The draw must reach the special cases it is meant to cover.
fn assert_passes_seen(geometry: Geometry, passes_seen: usize) {
    assert!(
        passes_seen > 0,
        "{geometry}: no position where the side to move must pass"
    );
}

#[test]
fn board_8x8_last_nine_empties() {
    // The shallow layer: parity order below seven empties, fastest-first and the
    // stability cut-off from seven on; then the first nodes of the table layer.
    assert_passes_seen(
        Geometry::Board8x8,
        check(Geometry::Board8x8, 1..=9, 3000, 11),
    );
}

#[test]
fn board_8x8_table_layer() {
    // Nodes over the table with their transposition and stability cut-offs.
    check(Geometry::Board8x8, 10..=14, 300, 16);
}

#[test]
fn board_6x6_last_twelve_empties() {
    assert_passes_seen(
        Geometry::Board6x6,
        check(Geometry::Board6x6, 1..=12, 1000, 12),
    );
}

#[test]
fn small_boards() {
    for (geometry, empties, seed) in [
        (Geometry::Board4x4, 1..=8, 13),
        (Geometry::Board4x6, 1..=12, 14),
        (Geometry::Octagon, 1..=12, 15),
    ] {
        assert_passes_seen(geometry, check(geometry, empties, 1000, seed));
    }
}
