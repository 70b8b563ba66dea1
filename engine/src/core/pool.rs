//! What all sessions of a server share and must not exceed together: the memory for
//! transposition tables, and the search threads.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use thiserror::Error;

/// A budget of MiB from which sessions reserve their tables.
#[derive(Debug)]
pub(crate) struct TablePool {
    limit_mib: usize,
    used_mib: Mutex<usize>,
}

/// Not enough of the pool is left.
#[derive(Debug, Error)]
#[error(
    "table memory exhausted: Hash {wanted} MiB needs more than the {available} MiB left \
     of the server's {limit} MiB; set a smaller Hash"
)]
pub struct PoolExhausted {
    wanted: usize,
    available: usize,
    limit: usize,
}

impl TablePool {
    pub(crate) fn new(limit_mib: usize) -> Arc<TablePool> {
        Arc::new(TablePool {
            limit_mib,
            used_mib: Mutex::new(0),
        })
    }

    /// The total, which is also the largest table one session may have.
    pub(crate) fn limit_mib(&self) -> usize {
        self.limit_mib
    }

    /// MiB reserved now.
    pub(crate) fn used_mib(&self) -> usize {
        *self.used()
    }

    /// An empty reservation, grown with [`Reservation::grow_to`].
    pub(crate) fn reservation(self: &Arc<TablePool>) -> Arc<Reservation> {
        Arc::new(Reservation {
            pool: Arc::clone(self),
            mib: AtomicUsize::new(0),
        })
    }

    fn used(&self) -> MutexGuard<'_, usize> {
        self.used_mib.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Memory held by one session; returned to the pool when dropped. The session grows it
/// before a search may allocate a larger table; the search thread shrinks it only once a
/// smaller table has replaced the old one, so the pool never counts less than what is
/// really allocated.
#[derive(Debug)]
pub(crate) struct Reservation {
    pool: Arc<TablePool>,
    /// Changed only under the pool's lock.
    mib: AtomicUsize,
}

impl Reservation {
    /// MiB held.
    pub(crate) fn mib(&self) -> usize {
        self.mib.load(Ordering::Relaxed)
    }

    /// Holds at least `mib`, or changes nothing if the pool cannot afford it.
    pub(crate) fn grow_to(&self, mib: usize) -> Result<(), PoolExhausted> {
        self.grow_within(mib, mib).map(drop)
    }

    /// Holds as much as the pool affords up to `wanted`, and at least `needed` (or changes
    /// nothing and fails); returns the MiB the caller may use, between the two.
    pub(crate) fn grow_within(&self, needed: usize, wanted: usize) -> Result<usize, PoolExhausted> {
        let limit = self.pool.limit_mib;
        let mut used = self.pool.used();
        let held = self.mib();
        let available = limit - (*used - held);
        if needed > available {
            return Err(PoolExhausted {
                wanted: needed,
                available,
                limit,
            });
        }
        let mib = wanted.max(needed).min(available);
        if mib > held {
            *used += mib - held;
            self.mib.store(mib, Ordering::Relaxed);
        }
        Ok(mib)
    }

    /// Holds at most `mib`: what is left after a table was replaced by a smaller one.
    pub(crate) fn shrink_to(&self, mib: usize) {
        let mut used = self.pool.used();
        let held = self.mib();
        if mib < held {
            *used -= held - mib;
            self.mib.store(mib, Ordering::Relaxed);
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        *self.pool.used() -= self.mib();
    }
}

/// The search threads of all sessions (`--max-threads`).
#[derive(Debug)]
pub(crate) struct ThreadBudget {
    limit: usize,
    used: Mutex<usize>,
}

/// Threads a running search holds; given back when dropped.
#[derive(Debug)]
pub(crate) struct ThreadLease {
    budget: Arc<ThreadBudget>,
    threads: usize,
}

impl ThreadBudget {
    pub(crate) fn new(limit: usize) -> Arc<ThreadBudget> {
        Arc::new(ThreadBudget {
            limit,
            used: Mutex::new(0),
        })
    }

    /// The total.
    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    /// Up to `wanted` threads, as many as are free, but always one: a search runs on its
    /// session's own thread even when every other is taken (sessions are capped by
    /// `--max-connections`).
    pub(crate) fn lease(self: &Arc<ThreadBudget>, wanted: usize) -> ThreadLease {
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        let threads = wanted.min(self.limit.saturating_sub(*used)).max(1);
        *used += threads;
        ThreadLease {
            budget: Arc::clone(self),
            threads,
        }
    }
}

impl ThreadLease {
    /// Threads held.
    pub(crate) fn threads(&self) -> usize {
        self.threads
    }
}

impl Drop for ThreadLease {
    fn drop(&mut self) {
        *self
            .budget
            .used
            .lock()
            .unwrap_or_else(PoisonError::into_inner) -= self.threads;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leases_share_the_thread_budget() {
        let budget = ThreadBudget::new(4);
        let a = budget.lease(3);
        assert_eq!(a.threads(), 3);
        let b = budget.lease(3);
        assert_eq!(b.threads(), 1, "what is left");
        let c = budget.lease(2);
        assert_eq!(c.threads(), 1, "one thread even when none is left");
        drop((a, c));
        assert_eq!(budget.lease(8).threads(), 3);
    }

    #[test]
    fn reservations_share_the_limit_and_give_back() {
        let pool = TablePool::new(100);
        let a = pool.reservation();
        let b = pool.reservation();
        a.grow_to(60).unwrap();
        assert!(b.grow_to(50).is_err());
        assert_eq!(b.mib(), 0);
        b.grow_to(40).unwrap();
        // Growing to less than is held keeps what is held; shrinking gives back.
        a.grow_to(10).unwrap();
        assert_eq!(pool.used_mib(), 100);
        a.shrink_to(10);
        assert_eq!(pool.used_mib(), 50);
        a.shrink_to(20);
        assert_eq!(a.mib(), 10);
        drop(b);
        assert_eq!(pool.used_mib(), 10);
        a.grow_to(100).unwrap();
        drop(a);
        assert_eq!(pool.used_mib(), 0);
        // A table wanted larger than needed takes what is left, and at least what is needed.
        let c = pool.reservation();
        c.grow_to(30).unwrap();
        let d = pool.reservation();
        assert_eq!(d.grow_within(10, 90).unwrap(), 70);
        assert_eq!(pool.used_mib(), 100);
        assert!(c.grow_within(40, 50).is_err());
        assert_eq!(c.grow_within(20, 50).unwrap(), 30, "what it holds");
        assert_eq!(pool.used_mib(), 100);
    }
}
