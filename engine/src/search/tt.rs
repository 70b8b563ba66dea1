//! The transposition table: fixed memory, buckets of four entries, each storing the
//! interval (lower, upper) known to hold a position's value at some depth (docs/algorithms.md §000).
//!
//! Every search thread shares one table without a lock. An entry is two 64-bit words,
//! each read and written atomically: the packed data, and the key XOR-ed with the data.
//! A reader accepts an entry only when the two words XOR back to its key, so an entry
//! torn by two threads writing at once (one word of each) reads as absent rather than
//! as a wrong result (Hyatt and Mann's lockless hashing).
//!
//! Data word, from the low byte up:
//!
//! ```text
//!  bits  0..16  lower   i16, the value is >= lower
//!  bits 16..32  upper   i16, the value is <= upper
//!  bits 32..40  depth   remaining depth the bounds hold at
//!  bits 40..48  flags   bit 0: proven (every leaf below was a finished game);
//!                       bits 1..4: selectivity rank (0: full width; see Selectivity::rank)
//!  bits 48..56  mv      best move (GameMove::to_byte), NO_MOVE if none
//!  bits 56..64  age     search generation that last wrote it
//! ```

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::game::GameMove;

const NO_MOVE: u8 = u8::MAX;
const PROVEN: u8 = 1;
const RANK_SHIFT: u8 = 1;
const RANK_MASK: u8 = 0b111;
const BUCKET_SIZE: usize = 4;
/// Buckets made or cleared between two checks of a stop flag: one MiB, a fraction of a
/// millisecond.
const CHUNK_BUCKETS: usize = (1 << 20) / size_of::<Bucket>();

/// One stored result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    key: u64,
    lower: i16,
    upper: i16,
    depth: u8,
    flags: u8,
    mv: u8,
    age: u8,
}

/// Four entries of two words each: one cache line.
#[derive(Debug, Default)]
#[repr(C, align(64))]
struct Bucket([AtomicU64; 2 * BUCKET_SIZE]);

const _: () = assert!(size_of::<Bucket>() == 64);

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

    /// The selectivity rank of the search that found the bounds (0: full width).
    #[must_use]
    pub fn selectivity(&self) -> u8 {
        (self.flags >> RANK_SHIFT) & RANK_MASK
    }

    /// Whether the bounds may be used for a search to `depth` at selectivity rank
    /// `selectivity`: a proven result at any depth at least as deep as its proof; a
    /// heuristic one from a search at most as selective, and in a full-width search only at
    /// exactly its own depth (so that it agrees with plain negamax at that depth), in a
    /// selective one also at any shallower depth (it is inexact anyway, and a deeper value
    /// is the better estimate: Multi-ProbCut's shallow searches find them).
    #[must_use]
    pub fn usable_at(&self, depth: i32, selectivity: u8) -> bool {
        let own = self.depth();
        let heuristic_usable = own == depth || (selectivity > 0 && own > depth);
        (heuristic_usable && self.selectivity() <= selectivity) || (self.proven() && own <= depth)
    }

    fn data(&self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.depth) << 32
            | u64::from(self.flags) << 40
            | u64::from(self.mv) << 48
            | u64::from(self.age) << 56
    }

    fn from_words(check: u64, data: u64) -> Entry {
        Entry {
            key: check ^ data,
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8,
            flags: (data >> 40) as u8,
            mv: (data >> 48) as u8,
            age: (data >> 56) as u8,
        }
    }
}

impl Bucket {
    /// The `i`-th entry as stored now (its key is garbage if torn or empty).
    #[inline]
    fn load(&self, i: usize) -> Entry {
        let check = self.0[2 * i].load(Ordering::Relaxed);
        let data = self.0[2 * i + 1].load(Ordering::Relaxed);
        Entry::from_words(check, data)
    }

    #[inline]
    fn save(&self, i: usize, entry: &Entry) {
        let data = entry.data();
        self.0[2 * i].store(entry.key ^ data, Ordering::Relaxed);
        self.0[2 * i + 1].store(data, Ordering::Relaxed);
    }
}

/// What a search learnt about a position, to be stored.
#[derive(Clone, Copy, Debug)]
pub struct Store<M> {
    /// The position's 64-bit hash (its key in the table).
    pub key: u64,
    /// Remaining depth of the search.
    pub depth: i32,
    /// Lower bound of the value.
    pub lower: i32,
    /// Upper bound of the value.
    pub upper: i32,
    /// Whether only finished games were behind the result.
    pub proven: bool,
    /// The selectivity rank of the search (0: full width; see `Selectivity::rank`).
    pub selectivity: u8,
    /// The best move, if one was found.
    pub best_move: Option<M>,
}

/// A fixed-size transposition table, shared by the threads of a search.
#[derive(Debug)]
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// Buckets at full size.
    target: usize,
    age: AtomicU8,
}

/// Asks the kernel to back the table's memory (`buckets`' capacity, not yet touched) with
/// huge pages where it can: a probe is a random access to a large table, and with small
/// pages most also miss the TLB (on Zen 4, 0.96x the time of a full-width search with a
/// 64 MiB table: docs/benchmarks-journal.md). Only advice: without it the table works the same.
#[cfg(target_os = "linux")]
fn advise_huge_pages(buckets: &Vec<Bucket>) {
    const PAGE: usize = 4096;
    let start = buckets.as_ptr() as usize;
    let end = start + buckets.capacity() * size_of::<Bucket>();
    let first = start.next_multiple_of(PAGE);
    if end > first {
        // SAFETY: `madvise` with MADV_HUGEPAGE changes no contents and no access rights;
        // the range lies within the vector's own allocation, page-aligned as it requires.
        #[allow(unsafe_code)]
        unsafe {
            libc::madvise(
                first as *mut libc::c_void,
                (end - first) & !(PAGE - 1),
                libc::MADV_HUGEPAGE,
            );
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: &Vec<Bucket>) {}

impl TranspositionTable {
    /// A table using at most `mib` MiB (rounded down to a power-of-two number of buckets;
    /// at least one bucket).
    #[must_use]
    pub fn new(mib: usize) -> TranspositionTable {
        let mut table = Self::growing(mib);
        table.grow_unless(&|| false);
        table
    }

    /// A table of one bucket that [`TranspositionTable::grow_unless`] makes into one of
    /// `mib` MiB: a large table takes a good part of a second to make, which a search
    /// with little time or a `stop` cannot wait for. At every size it is a whole table
    /// (entries stored before it grew are lost, never wrong).
    #[must_use]
    pub fn growing(mib: usize) -> TranspositionTable {
        let bytes = mib.saturating_mul(1 << 20);
        let target = 1 << (bytes / size_of::<Bucket>()).max(1).ilog2();
        let mut buckets = Vec::with_capacity(target);
        advise_huge_pages(&buckets);
        buckets.push(Bucket::default());
        TranspositionTable {
            buckets,
            target,
            age: AtomicU8::new(0),
        }
    }

    /// Adds buckets, a MiB at a time, until the table has its full size, unless `stopped`
    /// says so between two MiB; true when it has its full size.
    pub fn grow_unless(&mut self, stopped: &dyn Fn() -> bool) -> bool {
        while self.buckets.len() < self.target {
            if stopped() {
                return false;
            }
            let chunk = CHUNK_BUCKETS.min(self.target - self.buckets.len());
            self.buckets
                .extend(std::iter::repeat_with(Bucket::default).take(chunk));
        }
        true
    }

    /// Bytes of memory the entries use.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<Bucket>()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.clear_unless(&|| false);
    }

    /// Forgets everything, unless `stopped` says so between two MiB of the zeroing: then
    /// some entries are left (each whole, so the table is as usable as before) and the
    /// result is false.
    pub fn clear_unless(&mut self, stopped: &dyn Fn() -> bool) -> bool {
        for chunk in self.buckets.chunks_mut(CHUNK_BUCKETS) {
            if stopped() {
                return false;
            }
            for word in chunk.iter_mut().flat_map(|b| b.0.iter_mut()) {
                *word.get_mut() = 0;
            }
        }
        *self.age.get_mut() = 0;
        true
    }

    /// Starts a new search generation: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        let age = self.age.get_mut();
        *age = age.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // The high bits pick the bucket; the full key is checked in the entry.
        &self.buckets[((key >> 32).wrapping_mul(self.buckets.len() as u64) >> 32) as usize]
    }

    /// Asks the processor to bring `key`'s bucket into the cache, for a probe soon after.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is a hint: it reads nothing into the program and never
            // faults; the address is a bucket of the table.
            #[allow(unsafe_code)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(bucket.cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if stored.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = self.bucket(key);
        (0..BUCKET_SIZE)
            .map(|i| bucket.load(i))
            .find(|e| e.key == key && e.upper >= e.lower)
    }

    /// Stores a result. An entry for the same position at the same depth has its interval
    /// narrowed (docs/algorithms.md §000); otherwise the least valuable entry of the bucket is replaced:
    /// one from an older search first, then the shallowest. Another thread's store to the
    /// same bucket at the same moment may win instead: the table loses a result, never
    /// holds a wrong one.
    pub fn store<M: GameMove>(&self, store: &Store<M>) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(store.key);
        let entries: [Entry; BUCKET_SIZE] = std::array::from_fn(|i| bucket.load(i));
        let clamp = |v: i32| v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        let depth = store.depth.clamp(0, i32::from(u8::MAX)) as u8;
        let mut lower = clamp(store.lower);
        let mut upper = clamp(store.upper);
        let mut mv = store.best_move.map_or(NO_MOVE, GameMove::to_byte);
        let proven = store.proven;
        let rank = store.selectivity.min(RANK_MASK);
        let slot = match entries.iter().position(|e| e.key == store.key) {
            Some(i) => {
                let old = entries[i];
                if mv == NO_MOVE {
                    mv = old.mv;
                }
                if old.proven() && !proven && old.depth <= depth {
                    // The proven bounds still hold at this depth: keep them, with the new move.
                    bucket.save(i, &Entry { mv, age, ..old });
                    return;
                }
                if old.depth == depth && old.proven() == proven && old.selectivity() == rank {
                    let (l, u) = (lower.max(old.lower), upper.min(old.upper));
                    if l <= u {
                        (lower, upper) = (l, u);
                    }
                }
                i
            }
            None => (0..BUCKET_SIZE)
                .min_by_key(|&i| {
                    let e = &entries[i];
                    (e.age == age, e.proven(), e.depth)
                })
                .unwrap_or(0),
        };
        let flags = (u8::from(proven) * PROVEN) | (rank << RANK_SHIFT);
        bucket.save(
            slot,
            &Entry {
                key: store.key,
                lower,
                upper,
                depth,
                flags,
                mv,
                age,
            },
        );
    }

    /// Permille of a sample of entries written by the current search.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let age = self.age.load(Ordering::Relaxed);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| {
                (0..BUCKET_SIZE)
                    .filter(|&i| {
                        let e = b.load(i);
                        e.age == age && e.key != 0
                    })
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
            selectivity: 0,
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
    fn making_and_clearing_stop_when_asked() {
        let mut tt = TranspositionTable::growing(4);
        assert!(!tt.grow_unless(&|| true));
        assert_eq!(tt.bytes(), 64, "one bucket: a whole table already");
        tt.store(&store(42, 5, -3, 7));
        assert!(tt.probe(42).is_some());
        let made = std::cell::Cell::new(0);
        let stop_after_two = || {
            made.set(made.get() + 1);
            made.get() > 2
        };
        assert!(!tt.grow_unless(&stop_after_two));
        assert_eq!(
            tt.bytes(),
            64 + (2 << 20),
            "two MiB made after the first bucket"
        );
        assert!(tt.grow_unless(&|| false));
        assert_eq!(tt.bytes(), 4 << 20);
        for key in 1..1000_u64 {
            tt.store(&store(key.wrapping_mul(0x9e37_79b9_7f4a_7c15), 5, -3, 7));
        }
        assert!(!tt.clear_unless(&|| true), "stopped before the first MiB");
        assert!(
            (1..1000_u64).any(|key| tt.probe(key.wrapping_mul(0x9e37_79b9_7f4a_7c15)).is_some())
        );
        assert!(tt.clear_unless(&|| false));
        assert!(
            (1..1000_u64).all(|key| tt.probe(key.wrapping_mul(0x9e37_79b9_7f4a_7c15)).is_none())
        );
    }

    #[test]
    fn insert_and_probe() {
        let tt = TranspositionTable::new(1);
        tt.store(&store(42, 5, -3, 7));
        let e = tt.probe(42).unwrap();
        assert_eq!((e.lower(), e.upper(), e.depth()), (-3, 7, 5));
        assert_eq!(e.best_move(), Some(KalahMove::pit(3)));
        assert!(tt.probe(43).is_none());
    }

    #[test]
    fn same_depth_narrows_the_interval() {
        let tt = TranspositionTable::new(1);
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
        let tt = TranspositionTable::new(1);
        tt.store(&store(1, 5, 0, 0));
        tt.store(&Store {
            proven: true,
            ..store(2, 5, 0, 0)
        });
        let heuristic = tt.probe(1).unwrap();
        let proven = tt.probe(2).unwrap();
        assert!(
            heuristic.usable_at(5, 0) && !heuristic.usable_at(4, 0) && !heuristic.usable_at(6, 0)
        );
        assert!(proven.usable_at(5, 0) && proven.usable_at(9, 0) && !proven.usable_at(4, 0));
    }

    #[test]
    fn selective_results_serve_only_searches_as_selective() {
        let tt = TranspositionTable::new(1);
        tt.store(&Store {
            selectivity: 3,
            ..store(1, 5, -2, 4)
        });
        let selective = tt.probe(1).unwrap();
        assert_eq!(selective.selectivity(), 3);
        assert!(!selective.usable_at(5, 0) && !selective.usable_at(5, 2));
        assert!(selective.usable_at(5, 3) && selective.usable_at(5, 5));
        assert!(
            selective.usable_at(4, 3),
            "a deeper result serves a selective search"
        );
        assert!(!selective.usable_at(6, 3));
        // A full-width result serves every search; it replaces the selective one rather
        // than narrowing it.
        tt.store(&store(1, 5, 0, 9));
        let full = tt.probe(1).unwrap();
        assert_eq!((full.lower(), full.upper(), full.selectivity()), (0, 9, 0));
        assert!(full.usable_at(5, 0) && full.usable_at(5, 3));
        assert!(!full.usable_at(4, 0) && full.usable_at(4, 3));
        // A proven result serves whatever the selectivity it was found at.
        tt.store(&Store {
            proven: true,
            selectivity: 4,
            ..store(2, 5, 1, 1)
        });
        assert!(tt.probe(2).unwrap().usable_at(7, 0));
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

    #[test]
    fn threads_writing_at_once_never_leave_a_wrong_entry() {
        // Every key's bounds are a function of the key: a torn entry would show another's.
        let bounds = |key: u64| {
            let v = (key % 101) as i32 - 50;
            (v, v + (key % 7) as i32)
        };
        let tt = TranspositionTable::new(0); // one bucket: every store collides
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let tt = &tt;
                scope.spawn(move || {
                    for i in 0..200_000u64 {
                        let key = (i * 4 + t).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                        let (lower, upper) = bounds(key);
                        tt.store(&store(key, (i % 20) as i32, lower, upper));
                        let probe = key ^ 0x5555;
                        if let Some(e) = tt.probe(probe) {
                            assert_eq!((e.lower(), e.upper()), bounds(probe));
                        }
                        if let Some(e) = tt.probe(key) {
                            assert_eq!((e.lower(), e.upper()), bounds(key));
                        }
                    }
                });
            }
        });
    }
}
