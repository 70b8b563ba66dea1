use std::collections::HashMap;

use rand::SeedableRng;
use rand::rngs::StdRng;

use super::build::{LeafSearch, complete, deepen, frontier, in_shard, positions_of, select};
use super::file::{parse, to_bytes};
use super::*;
use crate::search::{Limits, SearchParams, TranspositionTable};
use crate::shard::Shard;

fn start() -> Othello {
    Othello::start(Geometry::Board8x8, Start::Standard)
}

fn line(text: &str) -> Vec<Othello> {
    let moves: Vec<OthelloMove> = text
        .split_whitespace()
        .map(|m| start().parse_move(m).unwrap())
        .collect();
    positions_of(&moves).unwrap()
}

/// Three games: two share their first three moves, one is the first's mirror image.
fn games() -> Vec<Vec<Othello>> {
    vec![
        line("f5 d6 c3 d3 c4"),
        line("f5 d6 c3 f4"),
        // The start's symmetry: d3 is f5 reflected, c5 then d6's image, and so on.
        line("d3 c5 f6"),
    ]
}

const SHALLOW: LeafSearch = LeafSearch {
    depth: 2,
    selectivity: crate::search::Selectivity::FULL,
};

fn small_book(dir: &std::path::Path) -> Book {
    let games = games();
    let counts = select(games.iter().map(Vec::as_slice), 4, 2);
    let mut book = Book::from_counts(counts);
    complete(
        &mut book,
        SHALLOW,
        Shard::WHOLE,
        1,
        &dir.join("b.gsb"),
        &mut |_, _| {},
    )
    .unwrap();
    book
}

#[test]
fn positions_are_counted_once_per_symmetry_class_and_game() {
    let games = games();
    let counts = select(games.iter().map(Vec::as_slice), 4, 1);
    let key = |p: &Othello| key_of(p).unwrap();
    let g = &games;
    // The start: three games; after f5 (or its image d3): three; after f5 d6: three.
    assert_eq!(counts[&key(&g[0][0])], 3);
    assert_eq!(counts[&key(&g[0][1])], 3);
    assert_eq!(counts[&key(&g[0][2])], 3);
    // After f5 d6 c3: the first two games (the third stops before).
    assert_eq!(counts[&key(&g[0][3])], 2);
    assert_eq!(counts.len(), 4);
    assert_eq!(select(games.iter().map(Vec::as_slice), 4, 3).len(), 3);
    assert_eq!(select(games.iter().map(Vec::as_slice), 2, 1).len(), 2);
}

#[test]
fn values_are_the_negamax_of_the_leaves_and_a_search_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let book = small_book(dir.path());
    assert!(book.stale_leaves().is_empty());
    // Each position's value is its best move's: a book move's value or its leaf's.
    for key in book.entries().keys() {
        let position = position_of(*key);
        let moves = book.moves(&position);
        assert_eq!(Some(moves[0].value), book.value(key), "{position}");
        assert!(moves.windows(2).all(|w| w[0].value >= w[1].value));
        // The leaf is the best of the moves out of the book at its depth.
        let out = book.moves_out(*key);
        if let Some(leaf) = book.entries()[key].leaf {
            let best = out
                .iter()
                .map(|&mv| {
                    let (child, same) = settle(&position, mv);
                    let mut tt = TranspositionTable::new(1);
                    let r = crate::search::search(
                        &child,
                        &mut tt,
                        &SearchParams::default(),
                        &Limits::depth_or_exact(Some(1)),
                        &mut |_| {},
                    );
                    if same { r.score.value } else { -r.score.value }
                })
                .max()
                .unwrap();
            assert_eq!(i32::from(leaf.value), best, "{position}");
        }
    }
}

#[test]
fn a_book_move_is_found_in_every_orientation() {
    let dir = tempfile::tempdir().unwrap();
    let book = small_book(dir.path());
    let at_f5 = book.moves(&start().play(start().parse_move("f5").unwrap()));
    let at_d3 = book.moves(&start().play(start().parse_move("d3").unwrap()));
    assert!(!at_f5.is_empty());
    assert_eq!(
        at_f5.iter().map(|m| m.value).collect::<Vec<_>>(),
        at_d3.iter().map(|m| m.value).collect::<Vec<_>>()
    );
    // d6 after f5 is c5 after d3 (the diagonal reflection).
    let d6 = at_f5.iter().find(|m| m.mv.to_string() == "d6").unwrap();
    let c5 = at_d3.iter().find(|m| m.mv.to_string() == "c5").unwrap();
    assert_eq!((d6.value, d6.games), (c5.value, c5.games));
    // A position outside the book has no book moves.
    let out = line("f5 f6 e6 f4 e3")[4];
    assert!(book.moves(&out).is_empty());
}

#[test]
fn choose_takes_the_best_or_one_within_the_margin() {
    let dir = tempfile::tempdir().unwrap();
    let book = small_book(dir.path());
    let mut rng = StdRng::seed_from_u64(1);
    let moves = book.moves(&start());
    let best = book.choose(&start(), 0, &mut rng).unwrap();
    assert_eq!(best, moves[0]);
    for _ in 0..50 {
        let m = book.choose(&start(), 64, &mut rng).unwrap();
        assert!(moves.contains(&m));
    }
}

#[test]
fn a_margin_of_one_disc_draws_only_the_moves_within_it() {
    let book = Book::builtin();
    let (after_f5, _) = settle(&start(), start().parse_move("f5").unwrap());
    let valued: Vec<(String, i32)> = book
        .moves(&after_f5)
        .iter()
        .map(|m| (m.mv.to_string(), m.value))
        .collect();
    assert_eq!(
        valued,
        [("d6".into(), -1), ("f6".into(), -2), ("f4".into(), -8)]
    );
    let drawn: std::collections::BTreeSet<String> = (0..100)
        .map(|seed| {
            let mut rng = StdRng::seed_from_u64(seed);
            book.choose(&after_f5, 1, &mut rng).unwrap().mv.to_string()
        })
        .collect();
    assert_eq!(drawn, ["d6".to_string(), "f6".to_string()].into());
    let mut rng = StdRng::seed_from_u64(0);
    assert_eq!(
        book.choose(&after_f5, 0, &mut rng).unwrap().mv.to_string(),
        "d6"
    );
}

#[test]
fn the_file_round_trips_and_damage_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let book = small_book(dir.path());
    let bytes = to_bytes(&book);
    let again = parse(&bytes, "b").unwrap();
    assert_eq!(again.entries(), book.entries());
    let read = read_book(&dir.path().join("b.gsb")).unwrap();
    assert_eq!(read.entries(), book.entries());
    for cut in [0, 5, 15, bytes.len() - 1] {
        assert!(parse(&bytes[..cut], "b").is_err(), "cut at {cut}");
    }
    for at in [3, 9, 20, 40, bytes.len() - 2] {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x10;
        let err = parse(&damaged, "b").unwrap_err().to_string();
        assert!(err.starts_with("b: "), "{err}");
    }
    assert!(read_book(&dir.path().join("missing.gsb")).is_err());
}

#[test]
fn the_shipped_book_loads_and_plays_the_start() {
    let book = Book::builtin();
    assert!(book.len() > 1000, "{} positions", book.len());
    let moves = book.moves(&start());
    assert_eq!(moves.len(), 4, "every first move is in the book");
    // The four first moves are one by symmetry.
    assert!(moves.iter().all(|m| m.value == moves[0].value));
    assert!(book.main_line().len() >= 10);
}

#[test]
fn deepening_extends_the_best_lines_and_keeps_leaves_fresh() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.gsb");
    let mut book = small_book(dir.path());
    let before = book.len();
    let next = frontier(&book, 0, 3);
    assert!(!next.is_empty());
    deepen(&mut book, 6, 0, SHALLOW, 2, &path, &mut |_, _| {}).unwrap();
    assert!(book.len() >= before + 6, "{} after {before}", book.len());
    assert!(book.stale_leaves().is_empty());
    assert_eq!(read_book(&path).unwrap().entries(), book.entries());
    for key in next {
        assert!(book.contains(&key));
    }
}

#[test]
fn shards_merge_into_the_whole_book() {
    let dir = tempfile::tempdir().unwrap();
    let whole = small_book(dir.path());
    let games = games();
    let counts: HashMap<Key, u32> = select(games.iter().map(Vec::as_slice), 4, 2);
    let shards: Vec<Book> = (1..=2)
        .map(|index| {
            let mut book = Book::from_counts(counts.clone());
            let shard = Shard { index, count: 2 };
            let path = dir.path().join(format!("s{index}.gsb"));
            complete(&mut book, SHALLOW, shard, 1, &path, &mut |_, _| {}).unwrap();
            // A shard searches its own share of the leaves only.
            assert!(
                book.entries()
                    .iter()
                    .all(|(&key, e)| e.leaf.is_none() || in_shard(shard, key))
            );
            book
        })
        .collect();
    let merged = Book::merge(&shards);
    assert_eq!(merged.entries(), whole.entries());
    assert_eq!(
        merged.value(&key_of(&start()).unwrap()),
        whole.value(&key_of(&start()).unwrap())
    );
}
