//! Matches played over many machines: a shard plays a disjoint part of the schedule, and
//! [`merge`] combines the shards' results files into the tally the whole match gives.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::error::MatchError;
use super::record::{GameRecord, read_results};
use super::tally::Tally;

/// The records of several results files (the shards of one match), one per game, in the
/// schedule's order. The same game in two files must be the same record (a shard run
/// twice); two different records of one game are an error.
///
/// # Errors
/// A file that is missing or cannot be read, or two files that disagree on a game.
pub fn merge_records(paths: &[PathBuf]) -> Result<Vec<GameRecord>, MatchError> {
    let mut games: BTreeMap<usize, (GameRecord, &PathBuf)> = BTreeMap::new();
    for path in paths {
        for record in read_existing(path)? {
            match games.get(&record.index) {
                Some((seen, first)) if !same_game(seen, &record) => {
                    return Err(MatchError::MergeConflict {
                        index: record.index,
                        first: (*first).clone(),
                        second: path.clone(),
                    });
                }
                Some(_) => {}
                None => {
                    games.insert(record.index, (record, path));
                }
            }
        }
    }
    Ok(games.into_values().map(|(record, _)| record).collect())
}

/// The records of several results files counted together: each file's games are renumbered
/// past the files before it, so that a pair (games 2k and 2k+1, one opening with colours
/// swapped) is only ever made within one file. Every file holds whole pairs (a shard plays
/// both games of its pairs), so the files may be whole matches of the same engines with
/// other seeds or openings, or the shards of one match.
///
/// # Errors
/// A file that is missing or cannot be read.
pub fn combined_records(paths: &[PathBuf]) -> Result<Vec<GameRecord>, MatchError> {
    let mut all = Vec::new();
    let mut offset = 0;
    for path in paths {
        let records = read_existing(path)?;
        let end = pairs_end(&records);
        all.extend(records.into_iter().map(|mut r| {
            r.index += offset;
            r
        }));
        offset += end;
    }
    Ok(all)
}

/// The first index past `records`' games, rounded up to a whole pair: where games
/// counted after them start, so that no pair is made across the two.
pub(super) fn pairs_end(records: &[GameRecord]) -> usize {
    records
        .iter()
        .map(|r| r.index + 1)
        .max()
        .unwrap_or(0)
        .next_multiple_of(2)
}

/// The records of a results file that must exist: a file named to merge or combine that is
/// missing (a mistyped name) is an error, not a match of no games.
fn read_existing(path: &Path) -> Result<Vec<GameRecord>, MatchError> {
    std::fs::metadata(path).map_err(|source| MatchError::File {
        action: "read",
        path: path.to_path_buf(),
        source,
    })?;
    read_results(path)
}

/// The same game: everything equal but the times, which differ between two runs.
fn same_game(a: &GameRecord, b: &GameRecord) -> bool {
    let untimed = |r: &GameRecord| {
        let mut r = r.clone();
        for ply in &mut r.moves {
            ply.time_ms = 0;
        }
        r
    };
    untimed(a) == untimed(b)
}

/// The tally of merged records: engines in the order the schedule first pairs them (the
/// order of the match's `--engine` list, when every engine has played).
#[must_use]
pub fn merged_tally(records: &[GameRecord]) -> Tally {
    let mut names: Vec<String> = Vec::new();
    for record in records {
        for name in [&record.first, &record.second] {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
    }
    let mut tally = Tally::new(names);
    for record in records {
        tally.add(record);
    }
    tally
}
