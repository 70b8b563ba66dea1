//! Building a database by retrograde analysis, layer by layer of seeds, on many threads.

use std::sync::atomic::{AtomicBool, AtomicI8, Ordering};

use super::{DatabaseError, Indexer, KalahDatabase, UNKNOWN, layer, whole_layers};
use crate::game::kalah::KalahRules;
use crate::search::kalah::pits::{MAX_BOARD_PITS, PitRules, Pits};

/// Distributions a thread takes at a time, between two looks at the stop flag.
const BUILD_CHUNK: usize = 1 << 12;

/// Hears of each finished layer of seeds: its number of seeds and its values.
pub(super) type LayerSink<'a> = dyn FnMut(u32, &[AtomicI8]) -> Result<(), DatabaseError> + 'a;

/// A database being built: its values are shared by the threads of the build.
struct Builder<'a> {
    rules: PitRules,
    indexer: &'a Indexer,
    values: &'a [AtomicI8],
}

impl Builder<'_> {
    /// The value of `pits` holding `seeds` seeds, computing it (and the positions with as
    /// many seeds it leads to) when not known yet.
    fn solve(&self, pits: &Pits, seeds: u32) -> i32 {
        let index = self.indexer.index(pits, seeds);
        let known = self.values[index].load(Ordering::Relaxed);
        if known != UNKNOWN {
            return i32::from(known);
        }
        let rules = self.rules;
        let value = pits.final_value(&rules).unwrap_or_else(|| {
            pits.movable(rules.pits)
                .map(|pit| {
                    let s = pits.sow(&rules, pit);
                    let child = self.solve(&s.next, seeds - s.gain as u32);
                    s.gain + if s.again { child } else { -child }
                })
                .max()
                .unwrap_or_default()
        });
        self.values[index].store(value as i8, Ordering::Relaxed);
        value
    }
}

/// Moves `counts` to the next distribution of the same seeds in lexicographic order (one
/// more seed in the pit before the last non-empty one, the rest of its seeds in the last
/// pit); false after the last.
pub(super) fn next_distribution(counts: &mut [u8]) -> bool {
    let Some(last) = (1..counts.len()).rev().find(|&i| counts[i] > 0) else {
        return false;
    };
    let rest = counts[last];
    counts[last - 1] += 1;
    counts[last] = 0;
    let end = counts.len() - 1;
    counts[end] = rest - 1;
    true
}

impl KalahDatabase {
    /// Builds the database of `rules`' board size and rule set for every board of at most
    /// `max_seeds` seeds (the seeds a pit starts with do not matter), on `threads` threads.
    /// `progress` hears of each finished layer of seeds; raising `stop` ends the build within
    /// a few thousand positions.
    ///
    /// # Errors
    /// [`DatabaseError::TooLarge`] when it would not fit in memory, [`DatabaseError::Stopped`].
    pub fn build(
        rules: KalahRules,
        max_seeds: u32,
        threads: usize,
        progress: &mut dyn FnMut(u32),
        stop: Option<&AtomicBool>,
    ) -> Result<KalahDatabase, DatabaseError> {
        let mut on_layer = |n, _: &[AtomicI8]| {
            progress(n);
            Ok(())
        };
        Self::build_resuming(rules, max_seeds, threads, Vec::new(), &mut on_layer, stop)
    }

    /// [`KalahDatabase::build`] from the values of the first layers (`done`: the layers of
    /// 0, 1, ... seeds, whole), handing each layer it finishes to `on_layer`.
    pub(super) fn build_resuming(
        rules: KalahRules,
        max_seeds: u32,
        threads: usize,
        done: Vec<u8>,
        on_layer: &mut LayerSink<'_>,
        stop: Option<&AtomicBool>,
    ) -> Result<KalahDatabase, DatabaseError> {
        let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let rules = PitRules::of(rules);
        let positions = KalahDatabase::positions_for(&rules, max_seeds)?;
        let indexer = Indexer::new(&rules, max_seeds);
        let first = whole_layers(&rules, max_seeds, done.len());
        let values: Vec<AtomicI8> = done
            .into_iter()
            .map(|b| AtomicI8::new(b as i8))
            .chain(std::iter::repeat_with(|| AtomicI8::new(UNKNOWN)))
            .take(positions)
            .collect();
        let builder = Builder {
            rules,
            indexer: &indexer,
            values: &values,
        };
        let m = 2 * rules.pits;
        let threads = threads.max(1);
        for n in first..=max_seeds {
            // The threads share the layer by chunks of its distributions. Two threads that
            // meet at a position both compute its value and write the same byte.
            std::thread::scope(|scope| {
                for thread in 0..threads {
                    let builder = &builder;
                    scope.spawn(move || {
                        let mut pits = Pits([0; MAX_BOARD_PITS]);
                        pits.0[m - 1] = n as u8;
                        for count in 0usize.. {
                            if (count / BUILD_CHUNK) % threads == thread {
                                if count % BUILD_CHUNK == 0 && stopped() {
                                    return;
                                }
                                builder.solve(&pits, n);
                            }
                            if !next_distribution(&mut pits.0[..m]) {
                                break;
                            }
                        }
                    });
                }
            });
            if stopped() {
                return Err(DatabaseError::Stopped);
            }
            on_layer(n, &values[layer(&rules, n)])?;
        }
        Ok(KalahDatabase {
            rules,
            max_seeds,
            values: values.into_iter().map(AtomicI8::into_inner).collect(),
            indexer,
        })
    }
}
