//! Kalah's endgame databases and exact solver against a plain solver written here from the
//! game's own rules: every board of Kalah(3,3) under each rule set, and many positions
//! late in random games of larger boards, solved with and without databases.

use std::collections::HashMap;
use std::sync::Arc;

use engine::files::FileError;
use engine::game::kalah::{Kalah, KalahRules};
use engine::game::{Game, MoveList, Side};
use engine::search::kalah::{DatabaseError, KalahDatabase, Storage};
use engine::search::{Goal, Limits, Proof, SearchParams, TranspositionTable, search_with};

/// What the pits of `position` are worth to its side to move: its final score less the
/// stores' difference (memoised plain negamax over the game's own moves).
struct Plain(HashMap<(Vec<u8>, Side), i32>);

impl Plain {
    fn stores(position: &Kalah) -> i32 {
        let side = position.side_to_move();
        position.store(side) as i32 - position.store(side.opponent()) as i32
    }

    fn pits_value(&mut self, position: &Kalah) -> i32 {
        let p = usize::from(position.rules().pits);
        let board = position.board();
        let key = (
            [&board[..p], &board[p + 1..=2 * p]].concat(),
            position.side_to_move(),
        );
        if let Some(&v) = self.0.get(&key) {
            return v;
        }
        let v = if position.is_terminal() {
            position.final_score() - Plain::stores(position)
        } else {
            let mut moves = MoveList::new();
            position.generate_moves(&mut moves);
            moves
                .iter()
                .map(|&mv| {
                    let child = position.play(mv);
                    let v = self.value(&child);
                    let v = if child.side_to_move() == position.side_to_move() {
                        v
                    } else {
                        -v
                    };
                    v - Plain::stores(position)
                })
                .max()
                .expect("a position that is not over has moves")
        };
        self.0.insert(key, v);
        v
    }

    /// The exact final score from the side to move.
    fn value(&mut self, position: &Kalah) -> i32 {
        Plain::stores(position) + self.pits_value(position)
    }
}

/// Every board of `rules`' size with `seeds` seeds in the pits (the rest in the stores),
/// South to move.
fn boards(rules: KalahRules, seeds: u32) -> Vec<Kalah> {
    let p = usize::from(rules.pits);
    let mut out = Vec::new();
    let mut counts = vec![0u32; 2 * p];
    fn fill(i: usize, left: u32, counts: &mut Vec<u32>, emit: &mut dyn FnMut(&[u32])) {
        if i + 1 == counts.len() {
            counts[i] = left;
            emit(counts);
            return;
        }
        for c in 0..=left {
            counts[i] = c;
            fill(i + 1, left - c, counts, emit);
        }
    }
    let stores = rules.total_seeds() - seeds;
    fill(0, seeds, &mut counts, &mut |c| {
        let south: Vec<String> = c[..p].iter().map(u32::to_string).collect();
        let north: Vec<String> = c[p..].iter().map(u32::to_string).collect();
        let text = format!(
            "{},{},{},{} S",
            south.join(","),
            stores / 2,
            north.join(","),
            stores - stores / 2
        );
        out.push(Kalah::parse(rules, &text).expect("a board of the right total"));
    });
    out
}

#[test]
fn databases_agree_with_a_plain_solver_on_every_board_of_kalah_3x3() {
    for id in [
        "kalah3x3",
        "kalah3x3-noemptycapture",
        "kalah3x3-endwhenstuck",
        "kalah3x3-noemptycapture-endwhenstuck",
    ] {
        let rules: KalahRules = id.parse().unwrap();
        let db = KalahDatabase::build(rules, rules.total_seeds(), 2, &mut |_| {}, None).unwrap();
        assert_eq!(db.positions(), 134_596, "{id}");
        let mut plain = Plain(HashMap::new());
        let mut checked = 0;
        for seeds in 0..=rules.total_seeds() {
            for position in boards(rules, seeds) {
                assert_eq!(
                    db.value(&position),
                    Some(plain.value(&position)),
                    "{id} {position}"
                );
                checked += 1;
            }
        }
        assert_eq!(checked, 134_596);
    }
}

/// Positions late in random games: the first with at most `seeds` seeds on the board.
fn late_positions(id: &str, seeds: u32, count: usize) -> Vec<Kalah> {
    let rules: KalahRules = id.parse().unwrap();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut out = Vec::new();
    while out.len() < count {
        let mut position = Kalah::start(rules);
        while !position.is_terminal() {
            let on_board =
                rules.total_seeds() - position.store(Side::First) - position.store(Side::Second);
            if on_board <= seeds {
                out.push(position);
                break;
            }
            let mut moves = MoveList::new();
            position.generate_moves(&mut moves);
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            position = position.play(moves[(state % moves.len() as u64) as usize]);
        }
    }
    out
}

fn solve(position: &Kalah, db: Option<&Arc<KalahDatabase>>) -> (i32, Option<u8>) {
    solve_with(position, db, 1)
}

fn solve_with(
    position: &Kalah,
    db: Option<&Arc<KalahDatabase>>,
    threads: usize,
) -> (i32, Option<u8>) {
    let mut tt = TranspositionTable::new(16);
    let params = SearchParams {
        threads,
        ..SearchParams::default()
    };
    let limits = Limits {
        goal: Goal::Solve,
        ..Limits::default()
    };
    let result = search_with(
        position,
        &mut tt,
        &params,
        &db.cloned(),
        &limits,
        &mut |_| {},
    );
    assert_eq!(result.score.proof, Proof::Solved, "{position}");
    (result.score.value, result.best_move.map(|m| m.number()))
}

#[test]
fn solves_agree_with_a_plain_solver_with_and_without_databases() {
    for (id, seeds) in [
        ("kalah6x4", 16),
        ("kalah5x5-noemptycapture", 16),
        ("kalah6x6-endwhenstuck", 15),
        ("kalah4x6", 18),
    ] {
        let rules: KalahRules = id.parse().unwrap();
        let small = Arc::new(KalahDatabase::build(rules, 9, 1, &mut |_| {}, None).unwrap());
        let mut plain = Plain(HashMap::new());
        // The database itself, on the boards it covers.
        for position in late_positions(id, 9, 60) {
            assert_eq!(
                small.value(&position),
                Some(plain.value(&position)),
                "{id} {position}"
            );
        }
        for position in late_positions(id, seeds, 30) {
            let expected = plain.value(&position);
            for db in [None, Some(&small)] {
                let (value, best) = solve(&position, db);
                assert_eq!(value, expected, "{id} {position} db {db:?}");
                // The best move achieves the value.
                let mv = position.parse_move(&best.unwrap().to_string()).unwrap();
                let child = position.play(mv);
                let after = if child.side_to_move() == position.side_to_move() {
                    plain.value(&child)
                } else {
                    -plain.value(&child)
                };
                assert_eq!(after, expected, "{id} {position}: {mv} does not achieve it");
            }
        }
    }
}

#[test]
fn parallel_solves_agree_with_the_plain_solver() {
    let rules: KalahRules = "kalah6x4".parse().unwrap();
    let db = Arc::new(KalahDatabase::build(rules, 8, 2, &mut |_| {}, None).unwrap());
    let mut plain = Plain(HashMap::new());
    for position in late_positions("kalah6x4", 16, 12) {
        let expected = plain.value(&position);
        for (threads, db) in [(2, None), (3, Some(&db)), (8, Some(&db))] {
            let (value, best) = solve_with(&position, db, threads);
            assert_eq!(value, expected, "{position} with {threads} threads");
            assert!(best.is_some());
        }
    }
    // Far enough from the end for the helpers to take other orders: the value of one thread.
    for position in late_positions("kalah6x4", 26, 6) {
        let (expected, _) = solve_with(&position, Some(&db), 1);
        for threads in [2, 4] {
            let (value, _) = solve_with(&position, Some(&db), threads);
            assert_eq!(value, expected, "{position} with {threads} threads");
        }
    }
}

#[test]
fn heuristic_searches_read_the_database_as_exact() {
    // A depth-1 search of a position the database covers knows its exact value.
    let rules: KalahRules = "kalah6x4".parse().unwrap();
    let db = Arc::new(KalahDatabase::build(rules, 12, 2, &mut |_| {}, None).unwrap());
    let mut plain = Plain(HashMap::new());
    let mut checked = 0;
    for position in late_positions("kalah6x4", 14, 40) {
        let mut tt = TranspositionTable::new(4);
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let database = Some(Arc::clone(&db));
        let params = SearchParams::default();
        let result = search_with(&position, &mut tt, &params, &database, &limits, &mut |_| {});
        let mut moves = MoveList::new();
        position.generate_moves(&mut moves);
        let children_covered = moves.iter().all(|&mv| {
            let c = position.play(mv);
            c.side_to_move() != position.side_to_move() && db.value(&c).is_some()
        });
        if children_covered {
            assert_eq!(result.score.value, plain.value(&position), "{position}");
            assert_eq!(result.score.proof, Proof::Solved, "{position}");
            checked += 1;
        }
    }
    assert!(
        checked >= 5,
        "only {checked} positions had every child in the database"
    );
}

#[test]
fn database_files_round_trip_and_refuse_damage_and_other_rules() {
    let rules: KalahRules = "kalah4x3".parse().unwrap();
    let db = KalahDatabase::build(rules, 10, 1, &mut |_| {}, None).unwrap();
    let dir = std::env::temp_dir().join(format!("kalah-db-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, storage) in [
        ("k4.db", Storage::Compressed),
        ("k4-plain.db", Storage::Plain),
    ] {
        let path = dir.join(name);
        db.save(&path, storage).unwrap();
        let back = KalahDatabase::load(&path).unwrap();
        assert_eq!(back, db);
        for position in late_positions("kalah4x3", 10, 50) {
            assert_eq!(back.value(&position), db.value(&position));
            assert!(db.value(&position).is_some());
        }
        assert!(back.check_rules(rules).is_ok());
        assert!(back.check_rules("kalah4x6".parse().unwrap()).is_ok());
        for other in [
            "kalah4x3-noemptycapture",
            "kalah4x3-endwhenstuck",
            "kalah5x3",
        ] {
            let err = back.check_rules(other.parse().unwrap()).unwrap_err();
            assert!(matches!(err, DatabaseError::Rules { .. }), "{other}: {err}");
            let other_position = Kalah::start(other.parse().unwrap());
            assert_eq!(back.value(&other_position), None);
        }
        let bytes = std::fs::read(&path).unwrap();
        let damaged: Vec<u8> = bytes
            .iter()
            .enumerate()
            .map(|(i, &b)| if i == bytes.len() / 2 { b ^ 0x55 } else { b })
            .collect();
        let longer = [&bytes[..], b"x"].concat();
        for bad in [
            &bytes[..bytes.len() / 2],
            &bytes[..bytes.len() - 1],
            &damaged[..],
            &longer[..],
            b"not a database",
            &[][..],
        ] {
            assert!(KalahDatabase::read(bad).is_err(), "{name} {}", bad.len());
        }
    }
    // Refused by the one file reader (engine::files): a missing file is the system's
    // error, a folder is no database file at all.
    assert!(matches!(
        KalahDatabase::load(&dir.join("missing.db")),
        Err(DatabaseError::File(FileError::Io { .. }))
    ));
    assert!(matches!(
        KalahDatabase::load(&dir),
        Err(DatabaseError::File(FileError::NotARegularFile { .. }))
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}
