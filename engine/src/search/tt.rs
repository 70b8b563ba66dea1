//! The transposition table: fixed memory, buckets of four entries, each storing the
//! interval (lower, upper) known to hold a position's value at some depth (docs/algorithms.md §000).
//!
//! Entry layout, 16 bytes:
//!
//! ```text
//!  bytes 0..8   key     full 64-bit hash (no false matches short of a 64-bit collision)
//!  bytes 8..10  lower   i16, the value is >= lower
//!  bytes 10..12 upper   i16, the value is <= upper
//!  byte  12     depth   remaining depth the bounds hold at
//!  byte  13     flags   bit 0: proven (every leaf below was a finished game)
//!  byte  14     mv      best move (GameMove::to_byte), NO_MOVE if none
//!  byte  15     age     search generation that last wrote it
//! ```

use super::INFINITY;
use crate::game::GameMove;

const NO_MOVE: u8 = u8::MAX;
const PROVEN: u8 = 1;
const BUCKET_SIZE: usize = 4;

/// One stored result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Entry {
    key: u64,
    lower: i16,
    upper: i16,
    depth: u8,
    flags: u8,
    mv: u8,
    age: u8,
}

const _: () = assert!(size_of::<Entry>() == 16);
const _: () = assert!(size_of::<Bucket>() == 64);

#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Bucket([Entry; BUCKET_SIZE]);

impl Entry {
    /// The value is at least this.
    #[must_use]
    pub fn lower(&self) -> i32 {
        i32::from(self.lower)
    }

    /// The value is at most this.
    #[must_use]
    pub fn upper(&self) -> i32 {
        i32::from(self.upper)
    }

    /// The depth the bounds were searched to.
    #[must_use]
    pub fn depth(&self) -> i32 {
        i32::from(self.depth)
    }

    /// True when every leaf behind the bounds was a finished game.
    #[must_use]
    pub fn proven(&self) -> bool {
        self.flags & PROVEN != 0
    }

    /// The best move found, if any.
    #[must_use]
    pub fn best_move<M: GameMove>(&self) -> Option<M> {
        (self.mv != NO_MOVE).then(|| M::from_byte(self.mv))
    }

    /// Whether the bounds may be used for a search to `depth`: a heuristic result only at
    /// exactly its own depth (so every search agrees with plain negamax at that depth), a
    /// proven one at any depth at least as deep as its proof.
    #[must_use]
    pub fn usable_at(&self, depth: i32) -> bool {
        let own = self.depth();
        own == depth || (self.proven() && own <= depth)
    }
}

/// What a search learnt about a position, to be stored.
#[derive(Clone, Copy, Debug)]
pub struct Store<M> {
    /// The position's hash.
    pub key: u64,
    /// Remaining depth of the search.
    pub depth: i32,
    /// Lower bound of the value.
    pub lower: i32,
    /// Upper bound of the value.
    pub upper: i32,
    /// Whether only finished games were behind the result.
    pub proven: bool,
    /// The best move, if one was found.
    pub best_move: Option<M>,
}

/// The bounds a fail-soft search's result `value` in the window `(alpha, beta)` proves:
/// at most `value` when it failed low, at least when it failed high, else exactly.
#[must_use]
pub fn bounds_of(value: i32, alpha: i32, beta: i32) -> (i32, i32) {
    if value <= alpha {
        (-INFINITY, value)
    } else if value >= beta {
        (value, INFINITY)
    } else {
        (value, value)
    }
}

/// A fixed-size transposition table.
#[derive(Debug)]
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: u8,
}

impl TranspositionTable {
    /// A table using at most `mib` MiB (rounded down to a power-of-two number of buckets;
    /// at least one bucket).
    #[must_use]
    pub fn new(mib: usize) -> TranspositionTable {
        let bytes = mib.saturating_mul(1 << 20);
        let count = (bytes / size_of::<Bucket>()).max(1);
        let count = 1 << count.ilog2();
        TranspositionTable {
            buckets: vec![Bucket::default(); count],
            age: 0,
        }
    }

    /// Bytes of memory the entries use.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<Bucket>()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.age = 0;
    }

    /// Starts a new search generation: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> usize {
        // The high bits pick the bucket; the full key is checked in the entry.
        ((key >> 32).wrapping_mul(self.buckets.len() as u64) >> 32) as usize
    }

    /// The entry for `key`, if stored.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = &self.buckets[self.bucket(key)];
        bucket
            .0
            .iter()
            .find(|e| e.key == key && e.upper >= e.lower)
            .copied()
    }

    /// Stores a result. An entry for the same position at the same depth has its interval
    /// narrowed (docs/algorithms.md §000); otherwise the least valuable entry of the bucket is replaced:
    /// one from an older search first, then the shallowest.
    pub fn store<M: GameMove>(&mut self, store: &Store<M>) {
        let age = self.age;
        let index = self.bucket(store.key);
        let bucket = &mut self.buckets[index].0;
        let clamp = |v: i32| v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        let depth = store.depth.clamp(0, i32::from(u8::MAX)) as u8;
        let mut lower = clamp(store.lower);
        let mut upper = clamp(store.upper);
        let mut mv = store.best_move.map_or(NO_MOVE, GameMove::to_byte);
        let proven = store.proven;
        let slot = match bucket.iter().position(|e| e.key == store.key) {
            Some(i) => {
                let old = bucket[i];
                if mv == NO_MOVE {
                    mv = old.mv;
                }
                if old.proven() && !proven && old.depth <= depth {
                    // The proven bounds still hold at this depth: keep them, with the new move.
                    bucket[i] = Entry { mv, age, ..old };
                    return;
                }
                if old.depth == depth && old.proven() == proven {
                    let (l, u) = (lower.max(old.lower), upper.min(old.upper));
                    if l <= u {
                        (lower, upper) = (l, u);
                    }
                }
                i
            }
            None => (0..BUCKET_SIZE)
                .min_by_key(|&i| {
                    let e = &bucket[i];
                    (e.age == age, e.proven(), e.depth)
                })
                .unwrap_or(0),
        };
        let flags = if proven { PROVEN } else { 0 };
        bucket[slot] = Entry {
            key: store.key,
            lower,
            upper,
            depth,
            flags,
            mv,
            age,
        };
    }

    /// Permille of a sample of entries written by the current search.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| {
                b.0.iter()
                    .filter(|e| e.age == self.age && e.key != 0)
                    .count()
            })
            .sum();
        (used * 1000 / (sample * BUCKET_SIZE)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::kalah::KalahMove;

    fn store(key: u64, depth: i32, lower: i32, upper: i32) -> Store<KalahMove> {
        Store {
            key,
            depth,
            lower,
            upper,
            proven: false,
            best_move: Some(KalahMove::pit(3)),
        }
    }

    #[test]
    fn sized_from_mib() {
        assert_eq!(TranspositionTable::new(1).bytes(), 1 << 20);
        assert_eq!(TranspositionTable::new(3).bytes(), 2 << 20);
        assert_eq!(TranspositionTable::new(0).bytes(), 64);
    }

    #[test]
    fn insert_and_probe() {
        let mut tt = TranspositionTable::new(1);
        tt.store(&store(42, 5, -3, 7));
        let e = tt.probe(42).unwrap();
        assert_eq!((e.lower(), e.upper(), e.depth()), (-3, 7, 5));
        assert_eq!(e.best_move(), Some(KalahMove::pit(3)));
        assert!(tt.probe(43).is_none());
    }

    #[test]
    fn same_depth_narrows_the_interval() {
        let mut tt = TranspositionTable::new(1);
        tt.store(&store(42, 5, -10, 4));
        tt.store(&store(42, 5, 2, 100));
        let e = tt.probe(42).unwrap();
        assert_eq!((e.lower(), e.upper()), (2, 4));
        // A different depth replaces.
        tt.store(&store(42, 6, 0, 0));
        let e = tt.probe(42).unwrap();
        assert_eq!((e.lower(), e.upper(), e.depth()), (0, 0, 6));
    }

    #[test]
    fn usable_depths() {
        let mut tt = TranspositionTable::new(1);
        tt.store(&store(1, 5, 0, 0));
        tt.store(&Store {
            proven: true,
            ..store(2, 5, 0, 0)
        });
        let heuristic = tt.probe(1).unwrap();
        let proven = tt.probe(2).unwrap();
        assert!(heuristic.usable_at(5) && !heuristic.usable_at(4) && !heuristic.usable_at(6));
        assert!(proven.usable_at(5) && proven.usable_at(9) && !proven.usable_at(4));
    }

    #[test]
    fn collisions_in_a_bucket_replace_the_shallowest() {
        let mut tt = TranspositionTable::new(0); // one bucket: every key collides
        for (key, depth) in [(1, 9), (2, 3), (3, 7), (4, 8)] {
            tt.store(&store(key, depth, 0, 0));
        }
        tt.store(&store(5, 6, 0, 0));
        assert!(tt.probe(2).is_none(), "the shallowest entry goes");
        for key in [1, 3, 4, 5] {
            assert!(tt.probe(key).is_some(), "{key}");
        }
        // Entries of an older search go before deeper current ones.
        tt.new_search();
        tt.store(&store(6, 1, 0, 0));
        tt.store(&store(7, 1, 0, 0));
        assert!(tt.probe(6).is_some() && tt.probe(7).is_some());
    }
}
