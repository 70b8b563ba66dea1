//! Matches played over many machines: a shard plays a disjoint part of the schedule, and
//! [`merge`] combines the shards' results files into the tally the whole match gives.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use super::error::MatchError;
use super::record::{GameRecord, read_results};
use super::tally::Tally;

/// The `index`-th (from 1) of `count` disjoint parts of a schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, 1..=count.
    pub index: usize,
    /// How many parts.
    pub count: usize,
}

impl Shard {
    /// Whether the shard plays game `index` of the schedule. Games `2k` and `2k+1` (one
    /// opening, colours swapped) stay together, so each shard's pairs are whole; pairs are
    /// dealt out in turn, so every shard gets a share of every part of the schedule.
    #[must_use]
    pub fn plays(&self, index: usize) -> bool {
        (index / 2) % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `i/n`, with 1 <= i <= n.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("'{text}' is not a shard i/n with 1 <= i <= n (e.g. 2/8)");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

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
        let end = records.iter().map(|r| r.index + 1).max().unwrap_or(0);
        all.extend(records.into_iter().map(|mut r| {
            r.index += offset;
            r
        }));
        offset += end.next_multiple_of(2);
    }
    Ok(all)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_read_and_split_pairs_whole() {
        assert_eq!("2/8".parse(), Ok(Shard { index: 2, count: 8 }));
        for bad in ["0/3", "4/3", "1", "a/b", "1/0", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let shards: Vec<Shard> = (1..=3).map(|index| Shard { index, count: 3 }).collect();
        for game in 0..60 {
            let owners: Vec<&Shard> = shards.iter().filter(|s| s.plays(game)).collect();
            assert_eq!(owners.len(), 1, "game {game}");
            assert!(owners[0].plays(game ^ 1), "game {game}'s pair");
        }
    }
}
