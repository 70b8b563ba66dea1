//! Making a book: its positions from game records, each leaf valued by a search of ours
//! (on every core, in batches written as they finish, so a run stopped resumes), deepened
//! along its best lines.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{Book, Key, Leaf, key_of, position_of, settle, write_book};
use crate::game::othello::symmetry::canonical;
use crate::game::othello::{Geometry, Othello, OthelloMove};
use crate::game::{Game, GameMove, Start};
use crate::search::othello::eval::Evaluator;
use crate::search::{Limits, SearchParams, Selectivity, TranspositionTable, search_with};
use crate::shard::Shard;

/// Table of each thread's leaf searches, in MiB.
const TABLE_MIB: usize = 64;

/// How a leaf is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeafSearch {
    /// Depth in plies.
    pub depth: u32,
    /// Multi-ProbCut's confidence.
    pub selectivity: Selectivity,
}

/// The positions of `games` (each a list of positions from the start, in order) within
/// their first `plies` moves that at least `min_games` of them reach, with the games that
/// reach each (a game counts once per position).
#[must_use]
pub fn select<'a>(
    games: impl IntoIterator<Item = &'a [Othello]>,
    plies: usize,
    min_games: u32,
) -> HashMap<Key, u32> {
    let mut counts: HashMap<Key, u32> = HashMap::new();
    for positions in games {
        let mut seen = HashSet::new();
        for position in positions.iter().take(plies) {
            if let Some(key) = key_of(position).filter(|key| seen.insert(*key)) {
                *counts.entry(key).or_default() += 1;
            }
        }
    }
    counts.retain(|_, games| *games >= min_games);
    counts
}

/// The best move of a book position among those that leave the book, by a search of
/// `settings`; `None` when every move stays in the book.
fn search_leaf(
    book: &Book,
    key: Key,
    settings: LeafSearch,
    evaluator: &Evaluator,
    tt: &mut TranspositionTable,
) -> Option<Leaf> {
    let position = position_of(key);
    let out = book.moves_out(key);
    if out.is_empty() {
        return None;
    }
    let exclude = book
        .book_children(key)
        .into_iter()
        .map(|(mv, ..)| mv.to_byte())
        .collect();
    let limits = Limits {
        exclude,
        ..Limits::depth_or_exact(Some(settings.depth))
    };
    let params = SearchParams {
        selectivity: settings.selectivity.into(),
        ..SearchParams::default()
    };
    let result = search_with(&position, tt, &params, evaluator, &limits, &mut |_| {});
    let mv = result.best_move.expect("a book position has moves");
    Some(Leaf {
        value: result.score.value.clamp(-64, 64) as i8,
        square: mv.index().expect("a book position's moves are squares") as u8,
        depth: settings.depth.min(255) as u8,
    })
}

/// Searches the leaves of `keys` on `threads` threads, a batch at a time; after each batch
/// its leaves are set in `book` and `batch_done` hears of them (to save the book) with
/// the positions done and to do.
pub fn search_leaves(
    book: &mut Book,
    keys: &[Key],
    settings: LeafSearch,
    threads: usize,
    batch_done: &mut dyn FnMut(&Book, usize, usize) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let threads = threads.max(1);
    let batch_size = 32 * threads;
    let evaluator = Evaluator::default();
    let mut tables: Vec<TranspositionTable> = (0..threads)
        .map(|_| TranspositionTable::new(TABLE_MIB))
        .collect();
    let mut done = 0;
    for batch in keys.chunks(batch_size) {
        let next = AtomicUsize::new(0);
        let shared: &Book = book;
        let found: Vec<(Key, Option<Leaf>)> = std::thread::scope(|scope| {
            let workers: Vec<_> = tables
                .iter_mut()
                .map(|tt| {
                    let (next, evaluator) = (&next, &evaluator);
                    scope.spawn(move || {
                        let mut found = Vec::new();
                        while let Some(&key) = batch.get(next.fetch_add(1, Ordering::Relaxed)) {
                            found.push((key, search_leaf(shared, key, settings, evaluator, tt)));
                        }
                        found
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().expect("a leaf search does not panic"))
                .collect()
        });
        for (key, leaf) in found {
            book.set_leaf(key, leaf);
        }
        done += batch.len();
        batch_done(book, done, keys.len())?;
    }
    book.revalue();
    Ok(())
}

/// Whether `shard` searches the leaf of `key`: a fixed share of the positions, so that a
/// shard resumed, or run on a book another shard has begun, does the same ones.
#[must_use]
pub fn in_shard(shard: Shard, key: Key) -> bool {
    shard.holds_hash(crate::game::zobrist::mix(
        key.0 ^ crate::game::zobrist::mix(key.1),
    ))
}

/// Searches every leaf of `book` that needs it and that `shard` owns, writing the book to
/// `path` after each batch; `progress` hears of the positions done and to do.
///
/// # Errors
/// When the book cannot be written.
pub fn complete(
    book: &mut Book,
    settings: LeafSearch,
    shard: Shard,
    threads: usize,
    path: &Path,
    progress: &mut dyn FnMut(usize, usize),
) -> anyhow::Result<()> {
    let stale: Vec<Key> = book
        .stale_leaves()
        .into_iter()
        .filter(|&key| in_shard(shard, key))
        .collect();
    progress(0, stale.len());
    search_leaves(book, &stale, settings, threads, &mut |book, done, all| {
        write_book(book, path)?;
        progress(done, all);
        Ok(())
    })?;
    write_book(book, path)?;
    Ok(())
}

/// The positions `deepen` adds next: along the book's lines from the start whose moves
/// are within `margin` discs of the best, the positions the best moves out of the book
/// lead to, nearest the start first, at most `count`.
#[must_use]
pub fn frontier(book: &Book, margin: i32, count: usize) -> Vec<Key> {
    let start = Othello::start(Geometry::Board8x8, Start::Standard);
    let mut queue = VecDeque::from([start]);
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    while let Some(position) = queue.pop_front() {
        if found.len() >= count {
            break;
        }
        let moves = book.moves(&position);
        let Some(best) = moves.first().map(|m| m.value) else {
            continue;
        };
        for m in moves.iter().filter(|m| m.value >= best - margin) {
            let (child, _) = settle(&position, m.mv);
            if child.is_terminal() {
                continue;
            }
            let key = canonical(child.me(), child.opp());
            if !seen.insert(key) {
                continue;
            }
            if m.leaves_book {
                found.push(key);
            } else {
                queue.push_back(child);
            }
        }
    }
    found.truncate(count);
    found
}

/// Adds up to `positions` positions along the best lines ([`frontier`]), searching their
/// leaves and those their parents need again, a round at a time, writing the book to
/// `path` after each; `progress` hears of the positions added and asked for. Leaves left
/// to search (a merged book's, an interrupted run's) are searched first.
///
/// # Errors
/// When the book cannot be written.
pub fn deepen(
    book: &mut Book,
    positions: usize,
    margin: i32,
    settings: LeafSearch,
    threads: usize,
    path: &Path,
    progress: &mut dyn FnMut(usize, usize),
) -> anyhow::Result<()> {
    let round = 16 * threads.max(1);
    let mut added = 0;
    progress(0, positions);
    loop {
        let whole = Shard::WHOLE;
        complete(book, settings, whole, threads, path, &mut |_, _| {})?;
        if added >= positions {
            return Ok(());
        }
        let next = frontier(book, margin, round.min(positions - added));
        if next.is_empty() {
            return Ok(());
        }
        added += next.len();
        for key in next {
            book.add(key, 0);
        }
        progress(added, positions);
    }
}

/// Adds the positions of `games` (lists of positions from the start) within their first
/// `plies` moves to `book`, one game more for each.
pub fn add_games<'a>(
    book: &mut Book,
    games: impl IntoIterator<Item = &'a [Othello]>,
    plies: usize,
) {
    for (key, games) in select(games, plies, 1) {
        book.add(key, games);
    }
}

/// The positions of a game of `moves` from the standard start, before each move (passes
/// skipped).
///
/// # Errors
/// When a move is illegal.
pub fn positions_of(moves: &[OthelloMove]) -> anyhow::Result<Vec<Othello>> {
    let mut position = Othello::start(Geometry::Board8x8, Start::Standard);
    let mut positions = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        if mv == OthelloMove::PASS {
            position = position.play(mv);
            continue;
        }
        positions.push(position);
        position = position
            .try_play(mv)
            .map_err(|e| anyhow::anyhow!("move {} ({mv}): {e}", i + 1))?;
    }
    Ok(positions)
}
