//! Labels from our solver or our search (`engine label`): the positions of the training
//! games (held-out games excluded) with a range of empty squares, one per symmetry class,
//! each solved exactly (`solve`) or valued by a search of a given depth (`search`: for
//! positions too far from the end to solve), written to a compact file that `engine train
//! --labels` reads. A run can be one shard of many (`--shard i/n`, then `engine label
//! merge`) and resumes where it stopped. The same files of exact scores keep the solves
//! of `engine accuracy --cache` ([`exact_cached`]).
//!
//! File: `GSLAB001` for exact labels, `GSLAB002` for searched ones; the empties range and
//! the shard (8 bytes: lowest, highest empties, shard index, shard count as u16; 0/0 once
//! merged); for `GSLAB002` the search's depth and selectivity percentage (u16 each); then
//! 17-byte records: the side to move's discs and the opponent's (u64, little-endian, in
//! the symmetry class's canonical orientation) and the label, the final margin for the
//! side to move (i8).

use std::collections::{HashMap, HashSet};
use std::io::{Read, Seek, SeekFrom, Write};
use std::ops::RangeInclusive;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use thiserror::Error;

use super::dataset::{Sample, is_held_out};
use super::games::TrainingGame;
use crate::game::othello::Othello;
use crate::game::othello::symmetry::canonical;
use crate::search::{Limits, SearchParams, Selectivity, TranspositionTable, search, solve_exact};
use crate::shard::Shard;

/// The magic of a file of exact labels, and of searched ones.
const MAGIC: [&[u8; 8]; 2] = [b"GSLAB001", b"GSLAB002"];
/// Bytes of the header of exact labels; searched ones add the search's depth and
/// selectivity.
const HEADER: usize = 16;
/// Bytes of the header of searched labels.
const SEARCH_HEADER: usize = 20;
/// The table of each thread of a search labelling, cleared before each position (so that
/// a label does not depend on the positions searched before it): small, to clear fast.
const SEARCH_TABLE_MIB: usize = 8;
/// Bytes of a record.
const RECORD: usize = 17;
/// Positions solved between two writes: what an interruption can lose.
const BATCH: usize = 256;

/// Why a labels file cannot be used.
#[derive(Debug, Error)]
pub enum LabelError {
    /// A file that may not be read (not a regular file, too large) or cannot be.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// Not a labels file, or a damaged one.
    #[error("{path}: {reason}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

/// How a file's positions were labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The exact score, by our solver.
    Exact,
    /// The value of our search to this depth at this selectivity (iterative deepening
    /// with the shipped evaluation, a cleared table; a position the depth takes to the
    /// end is solved exactly instead).
    Search {
        /// Plies.
        depth: u32,
        /// Multi-ProbCut's confidence.
        selectivity: Selectivity,
    },
}

/// What a labels file holds: the empties range, the shard that made it, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelsHeader {
    /// Empty squares of its positions.
    pub empties: (u32, u32),
    /// The shard that made it (`None` once merged).
    pub shard: Option<Shard>,
    /// How its positions were labelled.
    pub method: Method,
}

impl LabelsHeader {
    fn bytes(&self) -> Vec<u8> {
        let (index, count) = self.shard.map_or((0, 0), |s| (s.index, s.count));
        let mut fields = vec![
            self.empties.0 as usize,
            self.empties.1 as usize,
            index,
            count,
        ];
        let magic = match self.method {
            Method::Exact => MAGIC[0],
            Method::Search { depth, selectivity } => {
                fields.extend([depth as usize, selectivity.percent() as usize]);
                MAGIC[1]
            }
        };
        let mut h = magic.to_vec();
        for v in fields {
            h.extend_from_slice(&(v as u16).to_le_bytes());
        }
        h
    }

    /// The header at the start of `bytes`, and its length.
    fn parse(bytes: &[u8]) -> Option<(LabelsHeader, usize)> {
        let magic = bytes.get(..8)?;
        let len = if magic == MAGIC[0] {
            HEADER
        } else if magic == MAGIC[1] {
            SEARCH_HEADER
        } else {
            return None;
        };
        let h = bytes.get(..len)?;
        let v = |i: usize| u16::from_le_bytes([h[8 + 2 * i], h[9 + 2 * i]]);
        let (lo, hi, index, count) = (v(0), v(1), v(2), v(3));
        if lo > hi || hi > 60 || index > count {
            return None;
        }
        let shard = (count > 0).then(|| Shard {
            index: index.into(),
            count: count.into(),
        });
        if shard.is_some_and(|s| s.index == 0) {
            return None;
        }
        let method = if len == HEADER {
            Method::Exact
        } else {
            let selectivity = Selectivity::from_percent(v(5).into())?;
            let depth = u32::from(v(4));
            if depth == 0 {
                return None;
            }
            Method::Search { depth, selectivity }
        };
        let header = LabelsHeader {
            empties: (lo.into(), hi.into()),
            shard,
            method,
        };
        Some((header, len))
    }
}

/// The positions to label: those of the games not held out (the `n`-th of `games` is held
/// out as [`is_held_out`] says) with `empties` empty squares, one per symmetry class in
/// canonical orientation, in the order they first appear.
#[must_use]
pub fn select(games: &[TrainingGame], empties: RangeInclusive<u32>) -> Vec<(u64, u64)> {
    let mut seen = HashSet::new();
    games
        .iter()
        .enumerate()
        .filter(|(n, _)| !is_held_out(*n))
        .flat_map(|(_, g)| &g.positions)
        .filter(|p| empties.contains(&p.empty().count_ones()))
        .map(|p| canonical(p.me(), p.opp()))
        .filter(|key| seen.insert(*key))
        .collect()
}

/// Reads a labels file whole.
///
/// # Errors
/// A file that cannot be read, is not a labels file, is cut short inside a record, or
/// holds a record that cannot be (overlapping discs, a score past 64, empties outside its
/// range).
pub fn read_labels(path: &Path) -> Result<(LabelsHeader, Vec<Sample>), LabelError> {
    let bytes = crate::files::read(path, crate::files::SizeLimit::LABELS)?;
    let (header, len) = header_of(path, &bytes)?;
    let body = &bytes[len..];
    if body.len() % RECORD != 0 {
        return Err(format(
            path,
            format!(
                "cut short: {} bytes past the last whole record (an interrupted run: resume \
                 it with the same command)",
                body.len() % RECORD
            ),
        ));
    }
    let samples = records(path, &header, body)?;
    Ok((header, samples))
}

fn header_of(path: &Path, bytes: &[u8]) -> Result<(LabelsHeader, usize), LabelError> {
    LabelsHeader::parse(bytes).ok_or_else(|| {
        format(
            path,
            "not a labels file (no GSLAB001 or GSLAB002 header)".into(),
        )
    })
}

fn records(path: &Path, header: &LabelsHeader, body: &[u8]) -> Result<Vec<Sample>, LabelError> {
    let (lo, hi) = header.empties;
    body.chunks_exact(RECORD)
        .enumerate()
        .map(|(i, r)| {
            let word = |at: usize| u64::from_le_bytes(r[at..at + 8].try_into().expect("8 bytes"));
            let sample = Sample {
                me: word(0),
                opp: word(8),
                label: r[16] as i8,
            };
            let empties = sample.empties();
            if sample.me & sample.opp != 0
                || sample.label.unsigned_abs() > 64
                || !(lo..=hi).contains(&empties)
            {
                return Err(format(path, format!("record {i} is damaged")));
            }
            Ok(sample)
        })
        .collect()
}

/// Labels the positions of `shard` (every `count`-th from the `index`-th) among
/// `positions`, whose empties lie in `empties`, by `method`, and appends them to `path`,
/// after those a previous run of the same command left there (a record cut short is
/// dropped); `progress` hears of the positions done and to do, after each batch.
///
/// # Errors
/// A file that cannot be read or written, or one made with another empties range, shard
/// or method.
pub fn label(
    positions: &[(u64, u64)],
    empties: (u32, u32),
    shard: Shard,
    method: Method,
    path: &Path,
    threads: usize,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(), LabelError> {
    let header = LabelsHeader {
        empties,
        shard: Some(shard),
        method,
    };
    let mine: Vec<(u64, u64)> = positions
        .iter()
        .enumerate()
        .filter(|(i, _)| shard.holds(*i))
        .map(|(_, p)| *p)
        .collect();
    let (mut file, done) = open_for_append(path, header)?;
    let done = done.len();
    let mut tables = tables_for(method, threads);
    let mut solved = done.min(mine.len());
    progress(solved, mine.len());
    for batch in mine[solved..].chunks(BATCH) {
        let scores = label_batch(batch, method, &mut tables, &AtomicUsize::new(0));
        let mut bytes = Vec::with_capacity(batch.len() * RECORD);
        for (&(me, opp), score) in batch.iter().zip(scores) {
            push_record(&mut bytes, me, opp, score);
        }
        file.write_all(&bytes)
            .and_then(|()| file.sync_data())
            .map_err(io(path))?;
        solved += batch.len();
        progress(solved, mine.len());
    }
    Ok(())
}

/// What [`exact_cached`] does with the positions its file does not hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    /// Solves them on this many threads and adds them to the file.
    Solve {
        /// Threads solving.
        threads: usize,
    },
    /// Leaves them without a score (and the file as it is).
    Skip,
}

/// The exact scores of `positions`: those the labels file `path` holds (exact scores at
/// any empties, in canonical orientation: a cache of solves) read from it, the others as
/// `missing` says: solved and appended to it as each is solved (the file made if there is
/// none), since a position with 30 empties can take minutes, so that an interrupted run
/// keeps every solve it finished; or left out (`None`). `done` counts the positions found
/// or solved.
///
/// # Errors
/// A file that cannot be read or written, or one that is not such a cache.
pub fn exact_cached(
    positions: &[(u64, u64)],
    path: &Path,
    missing: Missing,
    done: &AtomicUsize,
) -> Result<Vec<Option<i8>>, LabelError> {
    let header = LabelsHeader {
        empties: (0, 60),
        shard: None,
        method: Method::Exact,
    };
    // Opened (and checked) before anything is solved, to fail at once.
    let (file, known, threads) = match missing {
        Missing::Solve { threads } => {
            let (file, known) = open_for_append(path, header)?;
            (Some(file), known, threads)
        }
        Missing::Skip => {
            let (found, known) = read_labels(path)?;
            if found != header {
                return Err(format(
                    path,
                    format!("not a cache of solves ({})", describe(&found)),
                ));
            }
            (None, known, 0)
        }
    };
    let mut scores: HashMap<(u64, u64), i8> = known
        .into_iter()
        .map(|s| ((s.me, s.opp), s.label))
        .collect();
    let keys: Vec<(u64, u64)> = positions
        .iter()
        .map(|&(me, opp)| canonical(me, opp))
        .collect();
    let mut asked = HashSet::new();
    let missing: Vec<(u64, u64)> = keys
        .iter()
        .filter(|key| !scores.contains_key(key) && asked.insert(**key))
        .copied()
        .collect();
    done.fetch_add(positions.len() - missing.len(), Ordering::Relaxed);
    let Some(mut file) = file else {
        return Ok(keys.iter().map(|key| scores.get(key).copied()).collect());
    };
    let next = AtomicUsize::new(0);
    let written = std::thread::scope(|scope| {
        let (sender, solved) = crossbeam_channel::unbounded();
        for mut tt in tables_for(Method::Exact, threads) {
            let (next, missing, sender) = (&next, &missing, sender.clone());
            scope.spawn(move || {
                while let Some(&(me, opp)) = missing.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let score = label_of(&position_of(me, opp), Method::Exact, &mut tt);
                    if sender.send((me, opp, score)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);
        for (me, opp, score) in solved {
            let mut bytes = Vec::with_capacity(RECORD);
            push_record(&mut bytes, me, opp, score);
            if let Err(e) = file.write_all(&bytes).and_then(|()| file.sync_data()) {
                // The workers stop at their next position.
                next.store(missing.len(), Ordering::Relaxed);
                return Err(io(path)(e));
            }
            scores.insert((me, opp), score);
            done.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    });
    written?;
    Ok(keys.iter().map(|key| scores.get(key).copied()).collect())
}

/// Appends a record: the discs of the side to move and of the opponent, and the score.
fn push_record(bytes: &mut Vec<u8>, me: u64, opp: u64, score: i8) {
    bytes.extend_from_slice(&me.to_le_bytes());
    bytes.extend_from_slice(&opp.to_le_bytes());
    bytes.push(score as u8);
}

/// The labels of `positions` by `method`, on `threads` threads; `done` counts them.
#[must_use]
pub fn label_all(
    positions: &[(u64, u64)],
    method: Method,
    threads: usize,
    done: &AtomicUsize,
) -> Vec<i8> {
    label_batch(positions, method, &mut tables_for(method, threads), done)
}

/// A table for each of `threads` labelling threads (at least one), sized for `method`.
fn tables_for(method: Method, threads: usize) -> Vec<TranspositionTable> {
    let mib = match method {
        Method::Exact => 32,
        Method::Search { .. } => SEARCH_TABLE_MIB,
    };
    (0..threads.max(1))
        .map(|_| TranspositionTable::new(mib))
        .collect()
}

/// The labels of `batch` by `method`, on one thread per table; `done` counts them.
fn label_batch(
    batch: &[(u64, u64)],
    method: Method,
    tables: &mut [TranspositionTable],
    done: &AtomicUsize,
) -> Vec<i8> {
    let next = AtomicUsize::new(0);
    let mut scores = vec![0i8; batch.len()];
    let found: Vec<Vec<(usize, i8)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = tables
            .iter_mut()
            .map(|tt| {
                let next = &next;
                scope.spawn(move || {
                    let mut found = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(me, opp)) = batch.get(i) else {
                            return found;
                        };
                        found.push((i, label_of(&position_of(me, opp), method, tt)));
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a solve does not panic"))
            .collect()
    });
    for (i, score) in found.into_iter().flatten() {
        scores[i] = score;
    }
    scores
}

/// The position of a record or a selected position (the side to move's discs `me`).
fn position_of(me: u64, opp: u64) -> Othello {
    Othello::from_bitboards(
        crate::game::othello::Geometry::Board8x8,
        me,
        opp,
        crate::game::Side::First,
    )
    .expect("a labelled position's discs do not overlap")
}

/// The label of `position` by `method`, with the table `tt`.
fn label_of(position: &Othello, method: Method, tt: &mut TranspositionTable) -> i8 {
    let value = match method {
        Method::Exact => solve_exact(position, tt).score.value,
        Method::Search { depth, selectivity } => {
            tt.clear();
            let params = SearchParams {
                selectivity: selectivity.into(),
                principal_variation: false,
                ..SearchParams::default()
            };
            let limits = Limits::depth_or_exact(Some(depth));
            search(position, tt, &params, &limits, &mut |_| {})
                .score
                .value
        }
    };
    value.clamp(-64, 64) as i8
}

/// The file opened after its last whole record (made with `header` if new), and the
/// records it holds.
fn open_for_append(
    path: &Path,
    header: LabelsHeader,
) -> Result<(std::fs::File, Vec<Sample>), LabelError> {
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(io(path))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(io(path))?;
    if bytes.is_empty() {
        file.write_all(&header.bytes()).map_err(io(path))?;
        return Ok((file, Vec::new()));
    }
    let (found, len) = header_of(path, &bytes)?;
    if found != header {
        return Err(format(
            path,
            format!(
                "made by another run ({}): give another output file",
                describe(&found)
            ),
        ));
    }
    let whole = (bytes.len() - len) / RECORD;
    let held = records(path, &found, &bytes[len..len + whole * RECORD])?;
    let end = (len + whole * RECORD) as u64;
    file.set_len(end)
        .and_then(|()| file.seek(SeekFrom::Start(end)).map(drop))
        .map_err(io(path))?;
    Ok((file, held))
}

/// Writes the records of several labels files (the shards of one run) to `output`, one
/// per position.
///
/// # Errors
/// A file that cannot be read or is damaged, files of different empties ranges or
/// methods, or two that give one position different scores.
pub fn merge(inputs: &[&Path], output: &Path) -> Result<usize, LabelError> {
    let mut merged: std::collections::BTreeMap<(u64, u64), i8> = Default::default();
    let mut run = None;
    for &path in inputs {
        let (header, samples) = read_labels(path)?;
        let (empties, method) = *run.get_or_insert((header.empties, header.method));
        if empties != header.empties {
            return Err(format(
                path,
                "another empties range than the other files".into(),
            ));
        }
        if method != header.method {
            return Err(format(
                path,
                "labelled another way than the other files".into(),
            ));
        }
        for s in samples {
            if *merged.entry((s.me, s.opp)).or_insert(s.label) != s.label {
                return Err(format(
                    path,
                    format!(
                        "gives {:#x} {:#x} another score than an earlier file",
                        s.me, s.opp
                    ),
                ));
            }
        }
    }
    let (empties, method) = run.unwrap_or(((0, 0), Method::Exact));
    let header = LabelsHeader {
        empties,
        shard: None,
        method,
    };
    let mut bytes = header.bytes();
    for (&(me, opp), &score) in &merged {
        push_record(&mut bytes, me, opp, score);
    }
    std::fs::write(output, bytes).map_err(io(output))?;
    Ok(merged.len())
}

/// `empties 18-20, shard 2/8, exact` or `empties 30-34, merged, search depth 10 at 87%`.
#[must_use]
pub fn describe(header: &LabelsHeader) -> String {
    let (lo, hi) = header.empties;
    let shard = header
        .shard
        .map_or_else(|| "merged".to_string(), |s| format!("shard {s}"));
    let method = match header.method {
        Method::Exact => "exact".to_string(),
        Method::Search { depth, selectivity } => {
            format!("search depth {depth} at {}%", selectivity.percent())
        }
    };
    format!("empties {lo}-{hi}, {shard}, {method}")
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> LabelError + '_ {
    move |source| LabelError::Io {
        path: path.display().to_string(),
        source,
    }
}

fn format(path: &Path, reason: String) -> LabelError {
    LabelError::Format {
        path: path.display().to_string(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    use super::*;
    use crate::game::othello::symmetry::all_transforms;
    use crate::game::othello::{Geometry, OthelloMove};
    use crate::game::{Game, MoveList, Start};
    use crate::train::games::Source;

    /// Games of random moves, each position before a move kept.
    fn games(count: usize) -> Vec<TrainingGame> {
        let mut rng = StdRng::seed_from_u64(3);
        (0..count)
            .map(|_| {
                let mut position = Othello::start(Geometry::Board8x8, Start::Standard);
                let mut positions = Vec::new();
                while !position.is_terminal() {
                    let mut list = MoveList::new();
                    position.generate_moves(&mut list);
                    if list[0] != OthelloMove::PASS {
                        positions.push(position);
                    }
                    position = position.play(list[rng.random_range(0..list.len())]);
                }
                TrainingGame {
                    source: Source::Logistello,
                    positions,
                    result: None,
                    theoretical: None,
                    unlabelled: 0,
                }
            })
            .collect()
    }

    #[test]
    fn one_position_per_symmetry_class_is_labelled() {
        // The start position, and the four first moves' positions, each one class.
        let games = games(40);
        let after_one = select(&games, 59..=59);
        assert_eq!(after_one.len(), 1, "the four first moves are symmetric");
        assert_eq!(select(&games, 60..=60).len(), 1);
    }

    #[test]
    fn labels_resume_merge_and_refuse_damage() {
        let dir = tempfile::tempdir().unwrap();
        let games = games(60);
        let positions = select(&games, 6..=8);
        assert!(positions.len() > 100, "{}", positions.len());
        let whole = dir.path().join("all.lab");
        label(
            &positions,
            (6, 8),
            Shard::WHOLE,
            Method::Exact,
            &whole,
            2,
            &mut |_, _| {},
        )
        .unwrap();
        let (header, all) = read_labels(&whole).unwrap();
        assert_eq!(header.empties, (6, 8));
        assert_eq!(all.len(), positions.len());
        for s in all.iter().take(20) {
            let p =
                Othello::from_bitboards(Geometry::Board8x8, s.me, s.opp, crate::game::Side::First)
                    .unwrap();
            let exact = solve_exact(&p, &mut TranspositionTable::new(1)).score.value;
            assert_eq!(i32::from(s.label), exact);
        }
        // Two shards, the first interrupted in its second record and resumed.
        let shard = |index| Shard { index, count: 2 };
        let (a, b) = (dir.path().join("a.lab"), dir.path().join("b.lab"));
        label(
            &positions,
            (6, 8),
            shard(1),
            Method::Exact,
            &a,
            1,
            &mut |_, _| {},
        )
        .unwrap();
        let full = std::fs::read(&a).unwrap();
        std::fs::write(&a, &full[..HEADER + RECORD + 5]).unwrap();
        assert!(read_labels(&a).is_err(), "a record cut short is refused");
        let mut resumed_from = None;
        label(
            &positions,
            (6, 8),
            shard(1),
            Method::Exact,
            &a,
            1,
            &mut |done, _| {
                resumed_from.get_or_insert(done);
            },
        )
        .unwrap();
        assert_eq!(resumed_from, Some(1));
        assert_eq!(std::fs::read(&a).unwrap(), full);
        assert!(
            label(
                &positions,
                (6, 8),
                shard(2),
                Method::Exact,
                &a,
                1,
                &mut |_, _| {}
            )
            .is_err(),
            "another shard's file"
        );
        label(
            &positions,
            (6, 8),
            shard(2),
            Method::Exact,
            &b,
            1,
            &mut |_, _| {},
        )
        .unwrap();
        let merged = dir.path().join("merged.lab");
        assert_eq!(merge(&[&a, &b], &merged).unwrap(), positions.len());
        let (header, mut from_shards) = read_labels(&merged).unwrap();
        assert_eq!(header.shard, None);
        let mut all = all;
        all.sort_by_key(|s| (s.me, s.opp));
        from_shards.sort_by_key(|s| (s.me, s.opp));
        assert_eq!(from_shards, all);
        // A record with an impossible score.
        let mut damaged = std::fs::read(&merged).unwrap();
        damaged[HEADER + 16] = 100;
        std::fs::write(&merged, damaged).unwrap();
        let err = read_labels(&merged).unwrap_err().to_string();
        assert!(err.contains("record 0 is damaged"), "{err}");
    }

    #[test]
    fn searched_labels_are_the_searches_values() {
        let dir = tempfile::tempdir().unwrap();
        let games = games(30);
        let positions: Vec<_> = select(&games, 30..=34).into_iter().take(40).collect();
        let method = Method::Search {
            depth: 3,
            selectivity: Selectivity::DATA,
        };
        let path = dir.path().join("searched.lab");
        let one = Shard::WHOLE;
        label(&positions, (30, 34), one, method, &path, 2, &mut |_, _| {}).unwrap();
        let (header, samples) = read_labels(&path).unwrap();
        assert_eq!(header.method, method);
        assert!(describe(&header).ends_with("search depth 3 at 87%"));
        assert_eq!(samples.len(), positions.len());
        // Each label is the search's value, whatever thread or table state searched it.
        let mut tt = TranspositionTable::new(1);
        for (s, &(me, opp)) in samples.iter().zip(&positions) {
            assert_eq!((s.me, s.opp), (me, opp));
            let p = Othello::from_bitboards(Geometry::Board8x8, me, opp, crate::game::Side::First)
                .unwrap();
            assert_eq!(s.label, label_of(&p, method, &mut tt));
        }
        // Resuming with another method, or merging with exact labels, is refused.
        assert!(
            label(
                &positions,
                (30, 34),
                one,
                Method::Exact,
                &path,
                1,
                &mut |_, _| {}
            )
            .is_err()
        );
        let exact = dir.path().join("exact.lab");
        let header = LabelsHeader {
            empties: (30, 34),
            shard: Some(one),
            method: Method::Exact,
        };
        std::fs::write(&exact, header.bytes()).unwrap();
        let err = merge(&[&path, &exact], &dir.path().join("m.lab")).unwrap_err();
        assert!(err.to_string().contains("labelled another way"), "{err}");
    }

    #[test]
    fn a_cache_of_solves_is_read_before_solving_and_grows() {
        let dir = tempfile::tempdir().unwrap();
        let games = games(20);
        let classes = select(&games, 8..=9);
        // Each class twice, in two orientations: the cache keys them as one.
        let positions: Vec<(u64, u64)> = classes
            .iter()
            .take(30)
            .flat_map(|&(me, opp)| {
                let (m, o) = (all_transforms(me), all_transforms(opp));
                [(m[3], o[3]), (m[5], o[5])]
            })
            .collect();
        let path = dir.path().join("cache.lab");
        let done = AtomicUsize::new(0);
        let solve = |threads| Missing::Solve { threads };
        // Nothing to read yet: with nothing solved, no file.
        assert!(exact_cached(&positions, &path, Missing::Skip, &done).is_err());
        let scores: Vec<i8> = exact_cached(&positions, &path, solve(2), &done)
            .unwrap()
            .into_iter()
            .map(Option::unwrap)
            .collect();
        assert_eq!(done.load(Ordering::Relaxed), positions.len());
        let mut tt = TranspositionTable::new(1);
        for (&(me, opp), &score) in positions.iter().zip(&scores) {
            let exact = solve_exact(&position_of(me, opp), &mut tt).score.value;
            assert_eq!(i32::from(score), exact);
        }
        let (_, cached) = read_labels(&path).unwrap();
        assert_eq!(cached.len(), 30, "one record per class");
        // A score the cache holds is read, not solved again: a planted one comes back.
        // (Records come in the order the threads finish them.)
        let first = canonical(positions[0].0, positions[0].1);
        let at = cached.iter().position(|s| (s.me, s.opp) == first).unwrap();
        let planted = if scores[0] < 64 { scores[0] + 1 } else { 63 };
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER + at * RECORD + 16] = planted as u8;
        std::fs::write(&path, &bytes).unwrap();
        let again = exact_cached(&positions[..2], &path, solve(1), &AtomicUsize::new(0));
        assert_eq!(again.unwrap(), vec![Some(planted); 2]);
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "nothing appended");
        // New positions are appended; another kind of labels file is refused.
        let more: Vec<_> = select(&games, 10..=10).into_iter().take(5).collect();
        let skipped = exact_cached(&more, &path, Missing::Skip, &AtomicUsize::new(0));
        assert_eq!(skipped.unwrap(), vec![None; 5]);
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "nothing solved");
        exact_cached(&more, &path, solve(1), &AtomicUsize::new(0)).unwrap();
        assert_eq!(read_labels(&path).unwrap().1.len(), 35);
        let other = dir.path().join("other.lab");
        label(
            &more,
            (10, 10),
            Shard::WHOLE,
            Method::Exact,
            &other,
            1,
            &mut |_, _| {},
        )
        .unwrap();
        let err = exact_cached(&more, &other, solve(1), &AtomicUsize::new(0)).unwrap_err();
        assert!(err.to_string().contains("made by another run"), "{err}");
        let err = exact_cached(&more, &other, Missing::Skip, &AtomicUsize::new(0)).unwrap_err();
        assert!(err.to_string().contains("not a cache of solves"), "{err}");
    }
}
