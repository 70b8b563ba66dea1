//! Every algorithm, with and without the table, returns the value of plain negamax at the
//! same depth on many random positions of every game, and its best move achieves it.

use engine::game::{Game, GameId, MoveList};
use engine::search::eval::Evaluate;
use engine::search::{Algorithm, Limits, SearchParams, Searchable, TranspositionTable, search};
use engine::with_position;

/// A small deterministic generator (splitmix64) so the positions are the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plain negamax written independently of the engine's searcher.
fn reference<G: Evaluate>(position: &G, depth: i32) -> i32 {
    if depth <= 0 {
        return if position.is_terminal() {
            position.final_score()
        } else {
            position.evaluate(&G::Resources::default())
        };
    }
    let mut moves = MoveList::new();
    position.generate_moves(&mut moves);
    if moves.is_empty() {
        return position.final_score();
    }
    moves
        .iter()
        .map(|&mv| {
            let child = position.play(mv);
            if child.side_to_move() == position.side_to_move() {
                reference(&child, depth)
            } else {
                -reference(&child, depth - 1)
            }
        })
        .max()
        .unwrap_or(i32::MIN)
}

/// The depth the reference searches for a search asked for `depth`: the same, or where that
/// reaches the end of the game (at least the empty squares) the whole game, since the
/// engine then solves (`Limits::goal`); with passes as plies, twice the empties (and one
/// more) surely reach the end.
fn reference_depth<G: Game>(position: &G, depth: i32) -> i32 {
    match position.empties() {
        Some(e) if depth >= e as i32 => 2 * e as i32 + 1,
        _ => depth,
    }
}

/// Value of `mv` from the mover's view, by the reference.
fn move_value<G: Evaluate>(position: &G, mv: G::Move, depth: i32) -> i32 {
    let child = position.play(mv);
    if child.side_to_move() == position.side_to_move() {
        reference(&child, depth)
    } else {
        -reference(&child, depth - 1)
    }
}

/// The search's value is the reference's at `full` plies, and its best move achieves it.
fn check_result<G: Evaluate>(
    position: &G,
    result: &engine::search::SearchResult<G::Move>,
    full: i32,
    expected: i32,
    what: &str,
) {
    assert_eq!(result.score.value, expected, "value: {what}");
    let mv = result.best_move.expect("a move");
    assert_eq!(
        move_value(position, mv, full),
        expected,
        "best move {mv}: {what}"
    );
}

/// A random position `plies_min..plies_max` random moves from the start (not finished).
fn random_position<G: Game>(start: G, rng: &mut Rng, plies: std::ops::Range<usize>) -> G {
    loop {
        let mut p = start;
        let target = plies.start + rng.below(plies.len());
        for _ in 0..target {
            let mut moves = MoveList::new();
            p.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            p = p.play(moves[rng.below(moves.len())]);
        }
        if !p.is_terminal() {
            return p;
        }
    }
}

/// `count` random positions (see [`random_position`]), each with a depth: `depths` in turn.
fn positions_and_depths<G: Game>(
    start: G,
    plies: std::ops::Range<usize>,
    depths: &[i32],
    count: usize,
    seed: u64,
) -> impl Iterator<Item = (G, i32)> + '_ {
    let mut rng = Rng(seed);
    (0..count).map(move |i| {
        let position = random_position(start, &mut rng, plies.clone());
        (position, depths[i % depths.len()])
    })
}

/// Every algorithm, with and without the table and iterative deepening, each run with a
/// table of its own, against the reference on `count` random positions.
fn check_game<G: Searchable>(
    start: G,
    plies: std::ops::Range<usize>,
    depths: &[i32],
    count: usize,
    seed: u64,
) {
    let mut tt = TranspositionTable::new(1);
    for (position, depth) in positions_and_depths(start, plies, depths, count, seed) {
        let full = reference_depth(&position, depth);
        let expected = reference(&position, full);
        for algorithm in Algorithm::ALL {
            for use_tt in [false, true] {
                for iterative in [false, true] {
                    let params = SearchParams {
                        algorithm: Some(algorithm),
                        use_tt,
                        iterative,
                        ..SearchParams::default()
                    };
                    let limits = Limits {
                        depth: Some(depth as u32),
                        ..Limits::default()
                    };
                    // A fresh table each run: no search reads another's entries back.
                    tt.clear();
                    let result = search(&position, &mut tt, &params, &limits, &mut |_| {});
                    let what = format!(
                        "{algorithm} tt={use_tt} id={iterative} depth {depth} on {position}"
                    );
                    check_result(&position, &result, full, expected, &what);
                }
            }
        }
    }
}

fn start(id: &str) -> engine::game::AnyPosition {
    id.parse::<GameId>().unwrap().position("startpos").unwrap()
}

#[test]
fn othello_4x4() {
    with_position!(start("othello4x4"), p => check_game(p, 0..10, &[1, 2, 3, 4, 5, 12], 1000, 1));
}

#[test]
fn othello_6x6() {
    with_position!(start("othello6x6"), p => check_game(p, 0..28, &[1, 2, 3, 4], 1000, 2));
}

#[test]
fn othello_8x8_near_the_end() {
    with_position!(start("othello8x8"), p => check_game(p, 46..58, &[1, 2, 3, 4, 5], 1000, 3));
}

#[test]
fn octagon() {
    with_position!(start("octagon"), p => check_game(p, 0..18, &[1, 2, 3, 4], 1000, 4));
}

#[test]
fn kalah_6x4() {
    with_position!(start("kalah6x4"), p => check_game(p, 0..40, &[1, 2, 3, 4], 1000, 5));
}

#[test]
fn kalah_6x6() {
    with_position!(start("kalah6x6"), p => check_game(p, 0..50, &[1, 2, 3, 4], 1000, 6));
}

/// Deeper searches, where the table's cut-offs, enhanced transposition cut-offs and the
/// searches' re-searches all come into play.
#[test]
fn deeper_searches_on_small_boards() {
    with_position!(start("othello4x4"), p => check_game(p, 0..3, &[6, 7, 8], 60, 21));
    with_position!(start("othello4x6"), p => check_game(p, 0..8, &[6, 7, 8], 40, 22));
    with_position!(start("othello6x6"), p => check_game(p, 0..16, &[6, 7], 16, 23));
    with_position!(start("kalah6x4"), p => check_game(p, 0..20, &[6, 7, 8], 16, 24));
}

/// Where the evaluation's network corrects the linear sum (16-59 discs) and the searches'
/// frontier evaluates leaves with their window: every search still finds the value of
/// the full evaluation that the reference reads at every leaf.
#[test]
fn othello_8x8_where_the_network_corrects() {
    with_position!(start("othello8x8"), p => check_game(p, 14..50, &[1, 2, 3, 4], 300, 26));
}

#[test]
fn othello_8x8_midgame() {
    with_position!(start("othello8x8"), p => check_game(p, 10..30, &[5, 6, 5, 6, 7], 10, 25));
}

/// One table kept across the positions of a game and every depth and algorithm, as a
/// game keeps it: entries of other positions, depths and algorithms are read back.
fn check_kept_table<G: Searchable>(start: G, depths: &[i32], games: usize, seed: u64) {
    let mut rng = Rng(seed);
    let mut tt = TranspositionTable::new(1);
    for game in 0..games {
        let mut position = start;
        let mut ply = 0;
        while !position.is_terminal() {
            let depth = depths[(ply + game) % depths.len()];
            let full = reference_depth(&position, depth);
            let expected = reference(&position, full);
            let algorithm = Algorithm::ALL[(ply + game) % Algorithm::ALL.len()];
            let params = SearchParams {
                algorithm: Some(algorithm),
                ..SearchParams::default()
            };
            let limits = Limits::depth_or_exact(Some(depth as u32));
            let result = search(&position, &mut tt, &params, &limits, &mut |_| {});
            let what =
                format!("{algorithm} depth {depth} at ply {ply} of game {game} on {position}");
            check_result(&position, &result, full, expected, &what);
            let mut moves = MoveList::new();
            position.generate_moves(&mut moves);
            position = position.play(moves[rng.below(moves.len())]);
            ply += 1;
        }
    }
}

#[test]
fn one_table_kept_through_games() {
    with_position!(start("othello4x4"), p => check_kept_table(p, &[2, 5, 3, 7, 4, 6], 20, 31));
    with_position!(start("othello6x6"), p => check_kept_table(p, &[3, 5, 2, 4, 6], 4, 32));
    with_position!(start("octagon"), p => check_kept_table(p, &[2, 4, 3, 5], 10, 33));
    with_position!(start("kalah6x4"), p => check_kept_table(p, &[3, 6, 2, 5, 4], 4, 34));
}

#[test]
fn kalah_commercial_rules() {
    with_position!(start("kalah4x3-noemptycapture-endwhenstuck"), p => check_game(p, 0..20, &[1, 2, 3, 5], 300, 7));
}

/// Multi-PV: every ranked move carries its own negamax value at the search's depth, ranks
/// best first, each legal move at most once, `k` of them (or all).
fn check_multipv<G: Searchable>(
    start: G,
    plies: std::ops::Range<usize>,
    depths: &[i32],
    count: usize,
    seed: u64,
) {
    let mut tt = TranspositionTable::new(1);
    for (position, depth) in positions_and_depths(start, plies, depths, count, seed) {
        let mut legal = MoveList::new();
        position.generate_moves(&mut legal);
        for (algorithm, k) in [(Algorithm::Mtdf, usize::MAX), (Algorithm::NegaScout, 2)] {
            let params = SearchParams {
                algorithm: Some(algorithm),
                ..SearchParams::default()
            };
            let limits = Limits {
                depth: Some(depth as u32),
                multipv: k,
                ..Limits::default()
            };
            tt.clear();
            let result = search(&position, &mut tt, &params, &limits, &mut |_| {});
            let what = format!("{algorithm} multipv {k} depth {depth} on {position}");
            let last = result.iterations.last().expect("an iteration");
            let lines: Vec<_> = last.ranked().collect();
            assert_eq!(lines.len(), k.min(legal.len()), "{what}");
            let full = reference_depth(&position, depth);
            assert_eq!(lines[0].1.value, reference(&position, full), "{what}");
            for (rank, (mv, score, pv)) in lines.iter().enumerate() {
                assert_eq!(
                    score.value,
                    move_value(&position, *mv, full),
                    "rank {rank}: {what}"
                );
                assert_eq!(pv.first(), Some(mv), "rank {rank}: {what}");
                assert!(lines[..rank].iter().all(|l| l.0 != *mv), "{what}");
                if rank > 0 {
                    assert!(lines[rank - 1].1.value >= score.value, "{what}");
                }
            }
        }
    }
}

#[test]
fn multipv_values_every_move_as_negamax() {
    with_position!(start("othello6x6"), p => check_multipv(p, 0..24, &[1, 2, 3, 4], 200, 8));
    with_position!(start("othello8x8"), p => check_multipv(p, 48..58, &[1, 2, 3, 4], 200, 9));
    with_position!(start("kalah6x4"), p => check_multipv(p, 0..30, &[1, 2, 3, 4], 200, 10));
}

#[test]
fn multipv_solves_value_every_move_exactly() {
    use engine::search::Goal;
    let mut rng = Rng(11);
    let mut tt = TranspositionTable::new(1);
    with_position!(start("othello8x8"), start => {
        for _ in 0..100 {
            let position = random_position(start, &mut rng, 50..58);
            let limits = Limits {
                goal: Goal::Solve,
                multipv: usize::MAX,
                ..Limits::default()
            };
            tt.clear();
            let result = search(&position, &mut tt, &SearchParams::default(), &limits, &mut |_| {});
            let last = result.iterations.last().expect("an iteration");
            let mut legal = MoveList::new();
            position.generate_moves(&mut legal);
            assert_eq!(last.alternatives.len() + 1, legal.len(), "{position}");
            for (mv, score, _) in last.ranked() {
                assert_eq!(score.value, move_value(&position, mv, 64), "{mv} on {position}");
            }
        }
    });
}

/// Lazy SMP: helpers share the table, and every entry any thread stores is a true bound at
/// its depth, so a parallel search returns the single-thread value, heuristic ones included.
#[test]
fn parallel_searches_return_the_single_thread_value() {
    use engine::search::{Bound, Goal};
    let mut rng = Rng(12);
    let mut tt = TranspositionTable::new(4);
    with_position!(start("othello8x8"), start => {
        for i in 0..60 {
            let position = random_position(start, &mut rng, 44..54);
            let threads = [2, 4, 8][i % 3];
            let params = SearchParams {
                threads,
                ..SearchParams::default()
            };
            for goal in [Goal::Solve, Goal::Wld] {
                let limits = Limits {
                    goal,
                    ..Limits::default()
                };
                tt.clear();
                let one = search(&position, &mut tt, &SearchParams::default(), &limits, &mut |_| {});
                tt.clear();
                let many = search(&position, &mut tt, &params, &limits, &mut |_| {});
                let what = format!("{goal:?} with {threads} threads on {position}");
                if goal == Goal::Solve {
                    assert_eq!(many.score, one.score, "{what}");
                } else {
                    // A proof of a win or loss: the same outcome, and a true bound on the
                    // exact score (its size depends on the order the threads cut in).
                    assert_eq!(many.score.value.signum(), one.score.value.signum(), "{what}");
                    assert_eq!((many.score.bound, many.score.proof), (one.score.bound, one.score.proof), "{what}");
                    tt.clear();
                    let exact = engine::search::solve_exact(&position, &mut tt).score.value;
                    let holds = match many.score.bound {
                        Bound::Lower => exact >= many.score.value,
                        Bound::Upper => exact <= many.score.value,
                        Bound::Exact => exact == many.score.value,
                    };
                    assert!(holds, "{what}: {:?} but the exact score is {exact}", many.score);
                }
                let mv = many.best_move.expect("a move");
                assert!(position.is_legal(mv), "{what}");
                if goal == Goal::Solve {
                    // The move is a best one: its child's single-thread value.
                    let child = position.play(mv);
                    tt.clear();
                    let after = engine::search::solve_exact(&child, &mut tt).score.value;
                    let value = if child.side_to_move() == position.side_to_move() { after } else { -after };
                    assert_eq!(value, one.score.value, "{what}");
                }
            }
        }
    });
    // Mid-game searches deep enough for the threads to put off each other's moves (from 5
    // plies above the horizon): the single-thread value at the same depth.
    with_position!(start("othello8x8"), start => {
        for i in 0..12 {
            let position = random_position(start, &mut rng, 16..30);
            let threads = [2, 4][i % 2];
            let algorithm = Algorithm::ALL[i % Algorithm::ALL.len()];
            let params = SearchParams {
                algorithm: Some(algorithm),
                threads,
                ..SearchParams::default()
            };
            let limits = Limits::depth_or_exact(Some(7));
            tt.clear();
            let one = search(&position, &mut tt, &SearchParams::default(), &limits, &mut |_| {});
            tt.clear();
            let many = search(&position, &mut tt, &params, &limits, &mut |_| {});
            let what = format!("{algorithm} depth 7 with {threads} threads on {position}");
            assert_eq!(many.score.value, one.score.value, "{what}");
            assert!(position.is_legal(many.best_move.expect("a move")), "{what}");
            // The main thread's iterations, its own or taken over from a helper that
            // finished one first: ever deeper, to the depth asked for.
            let depths: Vec<u32> = many
                .iterations
                .iter()
                .map(|it| match it.depth {
                    engine::search::Depth::Plies(d) => d,
                    engine::search::Depth::End => u32::MAX,
                })
                .collect();
            assert!(depths.windows(2).all(|w| w[0] < w[1]), "{what}: {depths:?}");
            assert_eq!(depths.last(), Some(&7), "{what}: {depths:?}");
        }
    });
    for game in ["othello6x6", "kalah6x4"] {
        with_position!(start(game), start => {
            let cases = positions_and_depths(start, 4..20, &[2, 3, 4, 5], 60, 13);
            for (i, (position, depth)) in cases.enumerate() {
                // Every algorithm's search, helpers and all.
                let algorithm = Algorithm::ALL[i % Algorithm::ALL.len()];
                let params = SearchParams {
                    algorithm: Some(algorithm),
                    threads: 4,
                    ..SearchParams::default()
                };
                let limits = Limits::depth_or_exact(Some(depth as u32));
                tt.clear();
                let result = search(&position, &mut tt, &params, &limits, &mut |_| {});
                let what = format!("{algorithm} depth {depth} with 4 threads on {position}");
                assert_eq!(result.score.value, reference(&position, depth), "{what}");
                let mv = result.best_move.expect("a move");
                assert_eq!(move_value(&position, mv, depth), result.score.value, "{what}");
            }
        });
    }
}
