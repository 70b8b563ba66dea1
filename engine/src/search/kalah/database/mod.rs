//! Kalah's endgame databases, built by retrograde analysis: for every distribution of at
//! most N seeds over the pits, the most the side to move can still win from the pits
//! (the stores do not matter). A search reads a position's exact value from them as soon
//! as its board holds at most N seeds.
//!
//! Seeds on the board never increase, and a move that keeps them all on the board only
//! moves seeds forward on the mover's own side, so the positions with n seeds depend only
//! on positions with fewer, or with n and seeds further forward: computing the layers
//! n = 0, 1, ... N in turn, each position's value from its children's, never loops.
//!
//! Index: the distributions with n seeds over the 2P pits follow those with fewer seeds,
//! in lexicographic order (the combinatorial number system), one signed byte each.

mod build;
mod file;
mod installed;
mod source;

pub use file::Storage;
pub use installed::{
    Installed, InstalledContent, best_installed, default_install_seeds, installed_name,
    list_installed,
};
pub use source::{AutoContext, DatabaseCache, DatabaseSource, auto_build_seeds};

use thiserror::Error;

use super::pits::{MAX_BOARD_PITS, PitRules, Pits};
use crate::game::Game;
use crate::game::kalah::{EndRule, Kalah, KalahRules};

/// A value not computed yet (values lie in -N..=N).
const UNKNOWN: i8 = i8::MIN;
/// Most seeds a database may cover (values must fit a signed byte).
pub const MAX_DATABASE_SEEDS: u32 = 100;
/// Most positions a database may hold (one byte each).
const MAX_POSITIONS: u64 = 16 << 30;

/// Why a database cannot be built, read or used.
#[derive(Debug, Error)]
pub enum DatabaseError {
    /// A file that may not be read (not a regular file, too large) or cannot be.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file's path.
        path: String,
        /// Why the system refused.
        source: std::io::Error,
    },
    /// The bytes are not a database.
    #[error("not a Kalah database: {0}")]
    Format(String),
    /// Built for other rules than the game's.
    #[error("the database is for {built}, not for {asked}")]
    Rules {
        /// What it was built for.
        built: String,
        /// The game's rules.
        asked: String,
    },
    /// The build was stopped.
    #[error("stopped while building")]
    Stopped,
    /// Too many positions to hold in memory.
    #[error(
        "{positions} positions ({pits} pits, {seeds} seeds) exceed the limit of {MAX_POSITIONS}"
    )]
    TooLarge {
        /// Pits a side.
        pits: usize,
        /// Most seeds.
        seeds: u32,
        /// Positions it would hold.
        positions: u64,
    },
}

/// Values of every distribution of at most [`KalahDatabase::max_seeds`] seeds over the pits
/// of a board size under one rule set.
pub struct KalahDatabase {
    rules: PitRules,
    max_seeds: u32,
    values: Vec<i8>,
    indexer: Indexer,
}

/// Where each distribution's value is stored.
struct Indexer {
    /// Pits on both sides.
    pits: usize,
    /// `binomial[a][k]` = a choose k.
    binomial: Vec<[u64; MAX_BOARD_PITS + 1]>,
}

impl Indexer {
    fn new(rules: &PitRules, max_seeds: u32) -> Indexer {
        Indexer {
            pits: 2 * rules.pits,
            binomial: binomials(max_seeds),
        }
    }

    /// Where the value of `pits` (holding `seeds` seeds) is stored.
    #[inline]
    fn index(&self, pits: &Pits, seeds: u32) -> usize {
        let m = self.pits;
        let c = |a: u32, k: usize| self.binomial[a as usize][k];
        // The distributions with fewer seeds, then those before this one in lexicographic
        // order: for each pit, those with fewer seeds there and the same before it.
        let mut index = c(seeds + m as u32 - 1, m);
        let mut rest = seeds;
        for (i, &count) in pits.0[..m - 1].iter().enumerate() {
            let after = m - 1 - i;
            let count = u32::from(count);
            index += c(rest + after as u32, after) - c(rest - count + after as u32, after);
            rest -= count;
        }
        index as usize
    }
}

impl std::fmt::Debug for KalahDatabase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KalahDatabase({})", self.describe())
    }
}

/// Two databases for the same rules and seeds hold the same values.
impl PartialEq for KalahDatabase {
    fn eq(&self, other: &Self) -> bool {
        (self.rules, self.max_seeds) == (other.rules, other.max_seeds)
    }
}

impl Eq for KalahDatabase {}

fn binomials(max_seeds: u32) -> Vec<[u64; MAX_BOARD_PITS + 1]> {
    let rows = max_seeds as usize + MAX_BOARD_PITS + 1;
    let mut table = vec![[0u64; MAX_BOARD_PITS + 1]; rows];
    for a in 0..rows {
        table[a][0] = 1;
        for k in 1..=MAX_BOARD_PITS.min(a) {
            table[a][k] = table[a - 1][k - 1] + if k < a { table[a - 1][k] } else { 0 };
        }
    }
    table
}

/// Positions a database of `pits` a side and at most `max_seeds` seeds holds.
#[must_use]
pub fn database_positions(pits: u8, max_seeds: u32) -> u64 {
    let m = 2 * usize::from(pits);
    // Distributions of at most N seeds over m pits: (N + m) choose m.
    binomials(max_seeds)[max_seeds as usize + m][m]
}

/// Where the values of the layer of boards holding `n` seeds lie (the layers of fewer
/// seeds come first).
fn layer(rules: &PitRules, n: u32) -> std::ops::Range<usize> {
    let pits = rules.pits as u8;
    let start = n
        .checked_sub(1)
        .map_or(0, |below| database_positions(pits, below));
    start as usize..database_positions(pits, n) as usize
}

/// How many whole layers (0, 1, ... seeds, at most `max_seeds`) the first `len` values
/// hold.
fn whole_layers(rules: &PitRules, max_seeds: u32, len: usize) -> u32 {
    (0..=max_seeds)
        .take_while(|&n| layer(rules, n).end <= len)
        .count() as u32
}

impl KalahDatabase {
    /// Positions a database holds, if it fits.
    fn positions_for(rules: &PitRules, max_seeds: u32) -> Result<usize, DatabaseError> {
        let positions = database_positions(rules.pits as u8, max_seeds.min(MAX_DATABASE_SEEDS));
        if max_seeds > MAX_DATABASE_SEEDS || positions > MAX_POSITIONS {
            return Err(DatabaseError::TooLarge {
                pits: rules.pits,
                seeds: max_seeds,
                positions,
            });
        }
        Ok(positions as usize)
    }

    /// The value of `pits` holding `seeds` seeds, if the database covers it.
    #[inline]
    pub(crate) fn pits_value(&self, pits: &Pits, seeds: u32) -> Option<i32> {
        (seeds <= self.max_seeds).then(|| i32::from(self.values[self.indexer.index(pits, seeds)]))
    }

    /// The exact final score of `position` from its side to move (the store difference
    /// plus what the pits are worth), if the database covers its board and its rules.
    #[must_use]
    pub fn value(&self, position: &Kalah) -> Option<i32> {
        let rules = position.rules();
        let side = position.side_to_move();
        let (own, other) = (position.store(side), position.store(side.opponent()));
        let seeds = rules.total_seeds() - own - other;
        if seeds > self.max_seeds || PitRules::of(rules) != self.rules {
            return None;
        }
        self.pits_value(&Pits::of(position), seeds)
            .map(|v| own as i32 - other as i32 + v)
    }

    /// Whether the database is for these rules (board size and rule set).
    pub(crate) fn serves(&self, rules: &PitRules) -> bool {
        self.rules == *rules
    }

    /// Most seeds on the board the database covers.
    #[must_use]
    pub fn max_seeds(&self) -> u32 {
        self.max_seeds
    }

    /// Positions held.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.values.len()
    }

    /// Whether the database is for the board size and rule set of `rules`.
    ///
    /// # Errors
    /// [`DatabaseError::Rules`] naming both.
    pub fn check_rules(&self, rules: KalahRules) -> Result<(), DatabaseError> {
        if PitRules::of(rules) == self.rules {
            Ok(())
        } else {
            Err(DatabaseError::Rules {
                built: self.describe(),
                asked: rules.to_string(),
            })
        }
    }

    /// What the database covers, e.g. `6 pits, at most 20 seeds, empty capture, game ends when either side is empty`.
    #[must_use]
    pub fn describe(&self) -> String {
        describe(&self.rules, self.max_seeds)
    }

    fn from_bytes(rules: PitRules, max_seeds: u32, bytes: Vec<u8>) -> KalahDatabase {
        KalahDatabase {
            rules,
            max_seeds,
            values: bytes.into_iter().map(|b| b as i8).collect(),
            indexer: Indexer::new(&rules, max_seeds),
        }
    }
}

fn describe(rules: &PitRules, max_seeds: u32) -> String {
    format!(
        "{} pits, at most {max_seeds} seeds, {}, {}",
        rules.pits,
        if rules.empty_capture {
            "empty capture"
        } else {
            "no empty capture"
        },
        match rules.end {
            EndRule::EitherSideEmpty => "game ends when either side is empty",
            EndRule::MoverStuck => "game ends when the side to move is empty",
        }
    )
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::build::next_distribution;
    use super::*;

    #[test]
    fn threads_build_the_same_values() {
        let rules: KalahRules = "kalah3x3-noemptycapture".parse().unwrap();
        let values = |threads| {
            KalahDatabase::build(rules, 14, threads, &mut |_| {}, None)
                .unwrap()
                .values
        };
        let one = values(1);
        assert!(one.iter().all(|&v| v != UNKNOWN));
        assert_eq!(values(3), one);
        let stop = AtomicBool::new(true);
        assert!(matches!(
            KalahDatabase::build(rules, 14, 2, &mut |_| {}, Some(&stop)),
            Err(DatabaseError::Stopped)
        ));
    }

    #[test]
    fn indices_count_every_distribution_once() {
        let rules: KalahRules = "kalah3x3".parse().unwrap();
        let rules = PitRules::of(rules);
        let indexer = Indexer::new(&rules, 7);
        let mut seen = vec![false; KalahDatabase::positions_for(&rules, 7).unwrap()];
        for n in 0..=7u32 {
            // Every distribution of n seeds over 6 pits, as digits of base 8.
            for code in 0..8usize.pow(6) {
                let mut pits = Pits([0; MAX_BOARD_PITS]);
                let mut x = code;
                for pit in &mut pits.0[..6] {
                    *pit = (x % 8) as u8;
                    x /= 8;
                }
                if pits.0.iter().map(|&c| u32::from(c)).sum::<u32>() != n {
                    continue;
                }
                let i = indexer.index(&pits, n);
                assert!(!seen[i], "{pits:?}");
                seen[i] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
        let mut d = [0u8, 0, 3];
        let mut order = vec![d];
        while next_distribution(&mut d) {
            order.push(d);
        }
        assert_eq!(order.len(), 10);
        assert_eq!(order[1], [0, 1, 2]);
        assert_eq!(order[9], [3, 0, 0]);
        assert_eq!(database_positions(3, 7), 1716);
        assert_eq!(database_positions(6, 20), 225_792_840);
    }
}
