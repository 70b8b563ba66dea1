//! The memory for transposition tables, shared by all sessions of a server, so that
//! clients together cannot take more than the configured total.

use std::sync::{Arc, Mutex, PoisonError};

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
pub(crate) struct PoolExhausted {
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
        *self.used_mib.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// An empty reservation, grown with [`Reservation::resize`].
    pub(crate) fn reservation(self: &Arc<TablePool>) -> Reservation {
        Reservation {
            pool: Arc::clone(self),
            mib: 0,
        }
    }
}

/// Memory held by one session; returned to the pool when dropped.
#[derive(Debug)]
pub(crate) struct Reservation {
    pool: Arc<TablePool>,
    mib: usize,
}

impl Reservation {
    /// MiB held.
    #[cfg(test)]
    pub(crate) fn mib(&self) -> usize {
        self.mib
    }

    /// Holds `mib` instead of the current amount, or changes nothing if the pool cannot
    /// afford it.
    pub(crate) fn resize(&mut self, mib: usize) -> Result<(), PoolExhausted> {
        let mut used = self
            .pool
            .used_mib
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let others = *used - self.mib;
        if others + mib > self.pool.limit_mib {
            return Err(PoolExhausted {
                wanted: mib,
                available: self.pool.limit_mib - others,
                limit: self.pool.limit_mib,
            });
        }
        *used = others + mib;
        self.mib = mib;
        Ok(())
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut used = self
            .pool
            .used_mib
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *used -= self.mib;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reservations_share_the_limit_and_give_back() {
        let pool = TablePool::new(100);
        let mut a = pool.reservation();
        let mut b = pool.reservation();
        a.resize(60).unwrap();
        assert!(b.resize(50).is_err());
        assert_eq!(b.mib(), 0);
        b.resize(40).unwrap();
        a.resize(10).unwrap();
        assert_eq!(pool.used_mib(), 50);
        drop(b);
        assert_eq!(pool.used_mib(), 10);
        a.resize(100).unwrap();
        drop(a);
        assert_eq!(pool.used_mib(), 0);
    }
}
