//! The moves some thread of a parallel search is searching right now (simplified ABDADA,
//! docs/parallel.md): a thread that meets a move another thread has in hand searches its
//! other moves first, and that one last, by when its value is usually in the table.

use std::sync::atomic::{AtomicU64, Ordering};

use arrayvec::ArrayVec;

use crate::game::MAX_MOVES;

/// Slots of the table (a power of two). A slot holds one move's key; a collision only
/// loses a mark (the move is then searched at once, as without the table).
const SLOTS: usize = 1 << 14;

/// The moves in progress, shared by the threads of one search. Marks are hints: losing
/// one, or keeping one a little too long, changes only which thread searches what first,
/// never a value.
#[derive(Debug)]
pub(crate) struct BusyMoves {
    slots: Box<[AtomicU64]>,
}

/// The key of `mv` (a move's byte) played from the position with table key `key`.
#[inline]
#[must_use]
pub(crate) fn move_key(key: u64, mv: u8) -> u64 {
    // Never 0, the mark of an empty slot: the low bit is set.
    (key ^ (u64::from(mv) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1
}

impl BusyMoves {
    pub(crate) fn new() -> BusyMoves {
        BusyMoves {
            slots: std::iter::repeat_with(|| AtomicU64::new(0))
                .take(SLOTS)
                .collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        // The low bits pick the slot (the table picks buckets by the high bits).
        &self.slots[(key >> 1) as usize & (SLOTS - 1)]
    }

    /// Whether some thread has marked the move with this key.
    #[inline]
    pub(crate) fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks the move with this key as in progress until the returned guard is dropped.
    #[inline]
    pub(crate) fn mark(&self, key: u64) -> Mark<'_> {
        self.slot(key).store(key, Ordering::Relaxed);
        Mark { busy: self, key }
    }
}

/// A move marked as in progress; dropping it removes the mark if it is still there.
pub(crate) struct Mark<'b> {
    busy: &'b BusyMoves,
    key: u64,
}

impl Drop for Mark<'_> {
    #[inline]
    fn drop(&mut self) {
        let _ = self.busy.slot(self.key).compare_exchange(
            self.key,
            0,
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
    }
}

/// The order in which a node searches its moves: the list's order, except that a move
/// after the first that another thread has in hand is put off until the others are done
/// (young brothers wait; the eldest, whose value sets the window, never does).
pub(crate) struct YoungBrothers {
    len: usize,
    next: usize,
    put_off: ArrayVec<u8, MAX_MOVES>,
}

impl YoungBrothers {
    /// The order of a list of `len` moves.
    #[inline]
    pub(crate) fn new(len: usize) -> YoungBrothers {
        YoungBrothers {
            len,
            next: 0,
            put_off: ArrayVec::new(),
        }
    }

    /// The index of the next move to search, or `None` when all have been. `defer(i)` is
    /// asked once per move, in order (so the caller may finish preparing move `i` there,
    /// e.g. sorting it into place); the moves it says another thread has in hand come back,
    /// in order, after the last one. Its answer for the first move is ignored.
    #[inline]
    pub(crate) fn next(&mut self, mut defer: impl FnMut(usize) -> bool) -> Option<usize> {
        while self.next < self.len {
            let i = self.next;
            self.next += 1;
            if defer(i) && i > 0 {
                self.put_off.push(i as u8);
            } else {
                return Some(i);
            }
        }
        let i = *self.put_off.get(self.next - self.len)?;
        self.next += 1;
        Some(usize::from(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_come_and_go() {
        let busy = BusyMoves::new();
        let a = move_key(0x1234_5678_9abc_def0, 19);
        let b = move_key(0x1234_5678_9abc_def0, 20);
        assert_ne!(a, b);
        assert!(!busy.is_busy(a));
        let mark = busy.mark(a);
        assert!(busy.is_busy(a));
        assert!(!busy.is_busy(b));
        drop(busy.mark(b));
        assert!(busy.is_busy(a), "another move's mark leaves this one");
        drop(mark);
        assert!(!busy.is_busy(a));
    }

    #[test]
    fn young_brothers_wait_for_the_others() {
        let order = |len: usize, busy: &[usize]| {
            let mut walk = YoungBrothers::new(len);
            let mut asked = Vec::new();
            let mut out = Vec::new();
            while let Some(i) = walk.next(|i| {
                asked.push(i);
                busy.contains(&i)
            }) {
                out.push(i);
            }
            (out, asked)
        };
        assert_eq!(order(4, &[]), (vec![0, 1, 2, 3], vec![0, 1, 2, 3]));
        assert_eq!(order(0, &[]), (vec![], vec![]));
        // The first move is never put off; each move is asked about once.
        assert_eq!(
            order(5, &[0, 1, 3]),
            (vec![0, 2, 4, 1, 3], vec![0, 1, 2, 3, 4])
        );
        assert_eq!(order(3, &[0, 1, 2]), (vec![0, 1, 2], vec![0, 1, 2]));
    }
}
