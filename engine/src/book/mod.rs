//! The opening book of 8x8 Othello (docs/book.md): positions that enough recorded games
//! reach, each with the value of its best move out of the book (a search of ours), and
//! every position's value propagated by negamax through the book's moves. Positions are
//! kept once per symmetry class (and once for both colours: a value is the side to
//! move's).

pub mod build;
pub mod file;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, OnceLock};

use rand::{Rng, RngExt};

use crate::game::othello::symmetry::all_transforms;
use crate::game::othello::symmetry::canonical;
use crate::game::othello::{Geometry, Othello, OthelloMove};
use crate::game::{Game, Side, Start};

pub use file::{BookError, read_book, write_book};

/// A position as the book keys it: the side to move's discs and the opponent's, in the
/// symmetry class's canonical orientation.
pub type Key = (u64, u64);

/// The best move out of the book from a book position, as a search valued it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// Its value for the side to move, in discs.
    pub value: i8,
    /// Its square in the key's orientation.
    pub square: u8,
    /// The depth of the search that valued it.
    pub depth: u8,
}

/// What the book knows of a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// Recorded games that reached it (0: added by `deepen`).
    pub games: u32,
    /// Its best move leaving the book, once searched (`None` also when every move stays in
    /// the book).
    pub leaf: Option<Leaf>,
}

/// A move the book values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, in the position asked about.
    pub mv: OthelloMove,
    /// Its value for the side to move, in discs.
    pub value: i32,
    /// Recorded games that played it (the games of the position it leads to).
    pub games: u32,
    /// It leaves the book: its value is a search's ([`Leaf`]), not the book's.
    pub leaves_book: bool,
}

/// The book: its positions and their negamax values.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<Key, Entry>,
    values: HashMap<Key, i32>,
}

/// The key of `position`, if the book can hold it (8x8).
#[must_use]
pub fn key_of(position: &Othello) -> Option<Key> {
    (position.geometry() == Geometry::Board8x8).then(|| canonical(position.me(), position.opp()))
}

/// The position of a key (the side to move shown as Black).
#[must_use]
pub fn position_of(key: Key) -> Othello {
    Othello::from_bitboards(Geometry::Board8x8, key.0, key.1, Side::First)
        .expect("a key's discs do not overlap")
}

/// The position after `mv` where the game goes on with a choice: a forced pass is played.
/// Returns it and whether the side to move there is the one that played `mv`.
#[must_use]
pub fn settle(position: &Othello, mv: OthelloMove) -> (Othello, bool) {
    let child = position.play(mv);
    if child.moves() == 0 && !child.is_terminal() {
        (child.play(OthelloMove::PASS), true)
    } else {
        (child, false)
    }
}

/// The legal moves of `position` (none for a pass or the end).
fn moves_of(position: &Othello) -> impl Iterator<Item = OthelloMove> + use<> {
    crate::game::othello::geometry::squares(position.moves()).map(OthelloMove::square)
}

impl Book {
    /// A book of `entries`, valued.
    #[must_use]
    pub fn new(entries: HashMap<Key, Entry>) -> Book {
        let mut book = Book {
            entries,
            values: HashMap::new(),
        };
        book.revalue();
        book
    }

    /// A book of positions reached by these numbers of games, no leaf searched yet.
    #[must_use]
    pub fn from_counts(counts: impl IntoIterator<Item = (Key, u32)>) -> Book {
        Book::new(
            counts
                .into_iter()
                .map(|(key, games)| (key, Entry { games, leaf: None }))
                .collect(),
        )
    }

    /// The book shipped in the engine (`engine/data/book.gsb`), read once.
    ///
    /// # Panics
    /// Never: the shipped file is checked by the tests.
    #[must_use]
    pub fn builtin() -> Arc<Book> {
        static BUILTIN: OnceLock<Arc<Book>> = OnceLock::new();
        static FILE: &[u8] = include_bytes!("../../data/book.gsb");
        Arc::clone(BUILTIN.get_or_init(|| {
            Arc::new(file::parse(FILE, "the shipped book").expect("the shipped book is valid"))
        }))
    }

    /// Its positions.
    #[must_use]
    pub fn entries(&self) -> &HashMap<Key, Entry> {
        &self.entries
    }

    /// Positions held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when it holds no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// True when it holds `key`.
    #[must_use]
    pub fn contains(&self, key: &Key) -> bool {
        self.entries.contains_key(key)
    }

    /// The negamax value of a book position for its side to move.
    #[must_use]
    pub fn value(&self, key: &Key) -> Option<i32> {
        self.values.get(key).copied()
    }

    /// Adds a position (reached by `games` more games), or counts them on the one held.
    /// The leaves this makes stale ([`Book::stale_leaves`]: the new position's, and its
    /// parents' whose leaf led to it) are then searched, and the book valued again.
    pub fn add(&mut self, key: Key, games: u32) {
        let entry = self.entries.entry(key).or_default();
        entry.games = entry.games.saturating_add(games);
    }

    /// The union of `books` (the shards of one build, say): each position's games are the
    /// most any of them counts, its leaf the deepest any of them searched.
    #[must_use]
    pub fn merge<'a>(books: impl IntoIterator<Item = &'a Book>) -> Book {
        let mut merged: HashMap<Key, Entry> = HashMap::new();
        for book in books {
            for (key, entry) in &book.entries {
                let held = merged.entry(*key).or_default();
                held.games = held.games.max(entry.games);
                if entry.leaf.map(|l| l.depth) > held.leaf.map(|l| l.depth) {
                    held.leaf = entry.leaf;
                }
            }
        }
        Book::new(merged)
    }

    /// Sets a position's leaf.
    pub fn set_leaf(&mut self, key: Key, leaf: Option<Leaf>) {
        if let Some(entry) = self.entries.get_mut(&key) {
            entry.leaf = leaf;
        }
    }

    /// The moves of a book position leading to book positions, and its leaf's square
    /// (if any move leaves the book), in the key's orientation.
    #[must_use]
    pub fn book_children(&self, key: Key) -> Vec<(OthelloMove, Key, bool)> {
        let position = position_of(key);
        moves_of(&position)
            .filter_map(|mv| {
                let (child, same_side) = settle(&position, mv);
                let child_key = canonical(child.me(), child.opp());
                self.entries
                    .contains_key(&child_key)
                    .then_some((mv, child_key, same_side))
            })
            .collect()
    }

    /// The moves of a book position that leave the book, in the key's orientation.
    #[must_use]
    pub fn moves_out(&self, key: Key) -> Vec<OthelloMove> {
        let position = position_of(key);
        let inside: HashSet<OthelloMove> = self
            .book_children(key)
            .into_iter()
            .map(|(mv, ..)| mv)
            .collect();
        moves_of(&position)
            .filter(|mv| !inside.contains(mv))
            .collect()
    }

    /// The positions whose leaf must be searched (again): one with moves out of the book
    /// but no leaf, or whose leaf's move now leads into the book.
    #[must_use]
    pub fn stale_leaves(&self) -> Vec<Key> {
        let mut stale: Vec<Key> = self
            .entries
            .iter()
            .filter(|(key, entry)| {
                let out = self.moves_out(**key);
                match entry.leaf {
                    None => !out.is_empty(),
                    Some(leaf) => !out.contains(&OthelloMove::square(leaf.square.into())),
                }
            })
            .map(|(key, _)| *key)
            .collect();
        stale.sort_unstable();
        stale
    }

    /// Values every position again by negamax (after positions or leaves changed).
    pub fn revalue(&mut self) {
        let mut values = HashMap::with_capacity(self.entries.len());
        let mut keys: Vec<Key> = self.entries.keys().copied().collect();
        keys.sort_unstable();
        for key in keys {
            self.value_into(key, &mut values);
        }
        self.values = values;
    }

    /// The value of `key` (a book position), computed into `values` with its
    /// descendants'. A position without a leaf or book move (a leaf not searched yet)
    /// counts as its best book move, or 0 with none.
    fn value_into(&self, key: Key, values: &mut HashMap<Key, i32>) -> i32 {
        if let Some(&v) = values.get(&key) {
            return v;
        }
        let leaf = self.entries[&key].leaf.map(|l| i32::from(l.value));
        let best = self
            .book_children(key)
            .into_iter()
            .map(|(_, child, same_side)| {
                let v = self.value_into(child, values);
                if same_side { v } else { -v }
            })
            .chain(leaf)
            .max()
            .unwrap_or(0);
        values.insert(key, best);
        best
    }

    /// The book's moves in `position`, best first (ties in square order): every move to a
    /// book position with its value and games, and the best move out of the book with
    /// its search value. Empty when the book does not hold the position.
    #[must_use]
    pub fn moves(&self, position: &Othello) -> Vec<BookMove> {
        let Some(key) = key_of(position) else {
            return Vec::new();
        };
        let Some(entry) = self.entries.get(&key) else {
            return Vec::new();
        };
        // The symmetry taking the position to its key, to find the leaf's square here.
        let symmetry = (0..8)
            .find(|&k| {
                (
                    all_transforms(position.me())[k],
                    all_transforms(position.opp())[k],
                ) == key
            })
            .expect("a key is one of the position's symmetries");
        let mut found: Vec<BookMove> = Vec::new();
        let mut leaf_taken = false;
        for mv in moves_of(position) {
            let (child, same_side) = settle(position, mv);
            let child_key = canonical(child.me(), child.opp());
            if let (Some(child_entry), Some(&v)) =
                (self.entries.get(&child_key), self.values.get(&child_key))
            {
                found.push(BookMove {
                    mv,
                    value: if same_side { v } else { -v },
                    games: child_entry.games,
                    leaves_book: false,
                });
            } else if let Some(leaf) = entry.leaf
                && !leaf_taken
                && let Some(square) = mv.index()
                && all_transforms(1 << square)[symmetry] == 1 << leaf.square
            {
                leaf_taken = true;
                found.push(BookMove {
                    mv,
                    value: leaf.value.into(),
                    games: 0,
                    leaves_book: true,
                });
            }
        }
        found.sort_by_key(|m| (-m.value, m.mv.index()));
        found
    }

    /// The move to play from the book in `position`: among the book's moves within
    /// `randomness` discs of the best, one drawn by `rng` (the best, first in square order,
    /// at 0). `None` when the book does not hold the position.
    pub fn choose(
        &self,
        position: &Othello,
        randomness: u32,
        rng: &mut impl Rng,
    ) -> Option<BookMove> {
        let moves = self.moves(position);
        let best = moves.first()?.value;
        let near: Vec<BookMove> = moves
            .into_iter()
            .take_while(|m| m.value >= best - randomness as i32)
            .collect();
        Some(if randomness == 0 {
            near[0]
        } else {
            near[rng.random_range(0..near.len())]
        })
    }

    /// The book's main line from the standard start: the best book move each time, for as
    /// long as it stays in the book.
    #[must_use]
    pub fn main_line(&self) -> Vec<OthelloMove> {
        let mut position = Othello::start(Geometry::Board8x8, Start::Standard);
        let mut line = Vec::new();
        while let Some(best) = self.moves(&position).first().copied() {
            line.push(best.mv);
            if best.leaves_book {
                break;
            }
            let (next, passed) = settle(&position, best.mv);
            if passed {
                line.push(OthelloMove::PASS);
            }
            position = next;
        }
        line
    }
}

#[cfg(test)]
mod tests;
