//! The rules pinned by published counts, and Kalah cross-checked against a second,
//! deliberately plain implementation.

use engine::game::kalah::{EndRule, Kalah, KalahRules};
use engine::game::othello::{Geometry, Othello};
use engine::game::{Game, Start};
use engine::perft::{finished_games, perft};

fn check_perft<G: Game>(position: &G, expected: &[u64]) {
    for (depth, &count) in (1..).zip(expected) {
        assert_eq!(perft(position, depth), count, "{position} depth {depth}");
    }
}

#[test]
fn othello_8x8_perft_matches_oeis_a124004() {
    let start = Othello::start(Geometry::Board8x8, Start::Standard);
    check_perft(
        &start,
        &[
            4,
            12,
            56,
            244,
            1396,
            8200,
            55092,
            390_216,
            3_005_288,
            24_571_284,
            212_258_800,
        ],
    );
}

#[test]
fn othello_6x6_perft() {
    let start = Othello::start(Geometry::Board6x6, Start::Standard);
    check_perft(
        &start,
        &[
            4, 12, 56, 244, 1364, 7604, 47740, 308_716, 2_114_912, 14_976_792,
        ],
    );
}

#[test]
fn othello_4x4_finished_games_match_seeds_002() {
    let standard = Othello::start(Geometry::Board4x4, Start::Standard);
    let parallel = Othello::start(Geometry::Board4x4, Start::Parallel);
    assert_eq!(finished_games(&standard), 60_060);
    assert_eq!(finished_games(&parallel), 67_116);
}

/// Kalah written the simplest way: a plain array, one seed at a time, no hashing.
#[derive(Clone)]
struct PlainKalah {
    /// South pits, South store, North pits, North store.
    board: Vec<u32>,
    pits: usize,
    south_to_move: bool,
    empty_capture: bool,
    end_when_either_side_empty: bool,
}

impl PlainKalah {
    fn new(pits: usize, seeds: u32, empty_capture: bool, end_when_either_side_empty: bool) -> Self {
        let mut board = vec![seeds; 2 * pits + 2];
        board[pits] = 0;
        board[2 * pits + 1] = 0;
        PlainKalah {
            board,
            pits,
            south_to_move: true,
            empty_capture,
            end_when_either_side_empty,
        }
    }

    fn side_pits(&self, south: bool) -> std::ops::Range<usize> {
        if south {
            0..self.pits
        } else {
            self.pits + 1..2 * self.pits + 1
        }
    }

    fn side_empty(&self, south: bool) -> bool {
        self.side_pits(south).all(|i| self.board[i] == 0)
    }

    fn game_over(&self) -> bool {
        if self.end_when_either_side_empty {
            self.side_empty(true) || self.side_empty(false)
        } else {
            self.side_empty(self.south_to_move)
        }
    }

    fn moves(&self) -> Vec<usize> {
        if self.game_over() {
            return vec![];
        }
        self.side_pits(self.south_to_move)
            .filter(|&i| self.board[i] > 0)
            .collect()
    }

    fn play(&self, from: usize) -> PlainKalah {
        let mut next = self.clone();
        let own_store = if self.south_to_move {
            self.pits
        } else {
            2 * self.pits + 1
        };
        let other_store = if self.south_to_move {
            2 * self.pits + 1
        } else {
            self.pits
        };
        let mut hand = next.board[from];
        next.board[from] = 0;
        let mut at = from;
        while hand > 0 {
            at = (at + 1) % next.board.len();
            if at == other_store {
                continue;
            }
            next.board[at] += 1;
            hand -= 1;
        }
        if at == own_store {
            return next;
        }
        let mine = self.side_pits(self.south_to_move).contains(&at);
        if mine && next.board[at] == 1 {
            let opposite = 2 * self.pits - at;
            if next.board[opposite] > 0 || self.empty_capture {
                next.board[own_store] += next.board[opposite] + 1;
                next.board[at] = 0;
                next.board[opposite] = 0;
            }
        }
        next.south_to_move = !self.south_to_move;
        next
    }

    fn perft(&self, depth: u32) -> u64 {
        let moves = self.moves();
        if depth == 0 || moves.is_empty() {
            return 1;
        }
        moves.iter().map(|&m| self.play(m).perft(depth - 1)).sum()
    }
}

fn variants() -> Vec<KalahRules> {
    let mut all = Vec::new();
    for pits in 1..=6 {
        for seeds in 1..=6 {
            let rules = KalahRules::new(pits, seeds).unwrap();
            for empty_capture in [true, false] {
                for end in [EndRule::EitherSideEmpty, EndRule::MoverStuck] {
                    all.push(KalahRules {
                        empty_capture,
                        end,
                        ..rules
                    });
                }
            }
        }
    }
    all
}

#[test]
fn kalah_perft_agrees_with_the_plain_implementation() {
    for rules in variants() {
        let plain = PlainKalah::new(
            rules.pits.into(),
            rules.seeds.into(),
            rules.empty_capture,
            rules.end == EndRule::EitherSideEmpty,
        );
        let depth = if rules.pits >= 5 { 7 } else { 9 };
        for d in 1..=depth {
            assert_eq!(
                perft(&Kalah::start(rules), d),
                plain.perft(d),
                "{rules} depth {d}"
            );
        }
    }
}

#[test]
fn kalah_perft_table() {
    // Our own table, each row cross-checked by the plain implementation above.
    let table: &[(&str, &[u64])] = &[
        ("kalah6x6", &[6, 35, 190, 1_056, 5_882, 32_243, 177_804]),
        ("kalah4x4", &[4, 15, 51, 181, 644, 2_203, 7_466]),
        (
            "kalah6x4-noemptycapture",
            &[6, 35, 185, 942, 4_690, 23_233, 114_430],
        ),
        ("kalah3x3-endwhenstuck", &[3, 8, 19, 48, 120, 283, 615]),
    ];
    for (id, counts) in table {
        let rules: KalahRules = id.parse().unwrap();
        let start = Kalah::start(rules);
        let plain = PlainKalah::new(
            rules.pits.into(),
            rules.seeds.into(),
            rules.empty_capture,
            rules.end == EndRule::EitherSideEmpty,
        );
        for (depth, &count) in (1..).zip(counts.iter()) {
            assert_eq!(plain.perft(depth), count, "plain {id} depth {depth}");
            assert_eq!(perft(&start, depth), count, "{id} depth {depth}");
        }
    }
}
