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

use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI8, Ordering};
use std::sync::{Arc, Mutex};

use flate2::bufread::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::{Compression, Crc};
use thiserror::Error;

use super::pits::{MAX_BOARD_PITS, PitRules, Pits};
use crate::game::Game;
use crate::game::kalah::{EndRule, Kalah, KalahRules};

const MAGIC: &[u8; 8] = b"GSKDB001";
const HEADER: usize = 8 + 4 + 8;
/// A value not computed yet (values lie in -N..=N).
const UNKNOWN: i8 = i8::MIN;
/// Most seeds a database may cover (values must fit a signed byte).
pub const MAX_DATABASE_SEEDS: u32 = 100;
/// Distributions a build thread takes at a time.
const BUILD_CHUNK: usize = 1 << 12;
/// Most positions a database may hold (one byte each).
const MAX_POSITIONS: u64 = 16 << 30;

/// Why a database cannot be built, read or used.
#[derive(Debug, Error)]
pub enum DatabaseError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The reason.
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

/// Moves `counts` to the next distribution of the same seeds in lexicographic order (one
/// more seed in the pit before the last non-empty one, the rest of its seeds in the last
/// pit); false after the last.
fn next_distribution(counts: &mut [u8]) -> bool {
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

/// Positions a database of `pits` a side and at most `max_seeds` seeds holds.
#[must_use]
pub fn database_positions(pits: u8, max_seeds: u32) -> u64 {
    let m = 2 * usize::from(pits);
    // Distributions of at most N seeds over m pits: (N + m) choose m.
    binomials(max_seeds)[max_seeds as usize + m][m]
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
        let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let rules = PitRules::of(rules);
        let positions = KalahDatabase::positions_for(&rules, max_seeds)?;
        let indexer = Indexer::new(&rules, max_seeds);
        let values: Vec<AtomicI8> = std::iter::repeat_with(|| AtomicI8::new(UNKNOWN))
            .take(positions)
            .collect();
        let builder = Builder {
            rules,
            indexer: &indexer,
            values: &values,
        };
        let m = 2 * rules.pits;
        let threads = threads.max(1);
        for n in 0..=max_seeds {
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
            progress(n);
        }
        Ok(KalahDatabase {
            rules,
            max_seeds,
            values: values.into_iter().map(AtomicI8::into_inner).collect(),
            indexer,
        })
    }

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

    /// Writes the database: zlib-compressed (about half the size), or plain bytes with a
    /// CRC-32 (read several times faster).
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save(&self, path: &Path, storage: Storage) -> Result<(), DatabaseError> {
        let io = |source| DatabaseError::Io {
            path: path.display().to_string(),
            source,
        };
        let file = std::io::BufWriter::new(std::fs::File::create(path).map_err(io)?);
        let header = self.header();
        let chunks = self
            .values
            .chunks(1 << 16)
            .map(|chunk| chunk.iter().map(|&v| v as u8).collect::<Vec<u8>>());
        match storage {
            Storage::Compressed => {
                let mut z = ZlibEncoder::new(file, Compression::fast());
                z.write_all(&header).map_err(io)?;
                for bytes in chunks {
                    z.write_all(&bytes).map_err(io)?;
                }
                z.finish().and_then(|mut w| w.flush()).map_err(io)
            }
            Storage::Plain => {
                let mut file = file;
                let mut crc = Crc::new();
                crc.update(&header);
                file.write_all(&header).map_err(io)?;
                for bytes in chunks {
                    crc.update(&bytes);
                    file.write_all(&bytes).map_err(io)?;
                }
                file.write_all(&crc.sum().to_le_bytes()).map_err(io)?;
                file.flush().map_err(io)
            }
        }
    }

    fn header(&self) -> [u8; HEADER] {
        let mut header = [0u8; HEADER];
        header[..8].copy_from_slice(MAGIC);
        header[8] = self.rules.pits as u8;
        header[9] = u8::from(self.rules.empty_capture);
        header[10] = u8::from(self.rules.end == EndRule::MoverStuck);
        header[12..].copy_from_slice(&u64::from(self.max_seeds).to_le_bytes());
        header
    }

    /// Reads a database written by [`KalahDatabase::save`].
    ///
    /// # Errors
    /// When the file cannot be read, or is not a whole database.
    pub fn load(path: &Path) -> Result<KalahDatabase, DatabaseError> {
        Self::read(open(path)?)
    }

    /// What a database file covers, from its header alone (the values are read, and
    /// checked, only by [`KalahDatabase::load`]).
    ///
    /// # Errors
    /// When the file cannot be opened or does not start as a database.
    pub fn check_file(path: &Path) -> Result<String, DatabaseError> {
        let (storage, rest) = storage_of(open(path)?)?;
        let mut header = [0u8; HEADER];
        match storage {
            Storage::Plain => BufReader::new(rest).read_exact(&mut header),
            Storage::Compressed => ZlibDecoder::new(BufReader::new(rest)).read_exact(&mut header),
        }
        .map_err(damaged)?;
        let (rules, max_seeds) = parse_header(&header)?;
        Ok(describe(&rules, max_seeds))
    }

    /// Reads a database from the bytes of a file, in either storage.
    ///
    /// # Errors
    /// [`DatabaseError::Format`] saying what is wrong.
    pub fn read(input: impl Read) -> Result<KalahDatabase, DatabaseError> {
        let (storage, rest) = storage_of(input)?;
        if storage == Storage::Plain {
            Self::read_plain(rest)
        } else {
            // A buffered decoder takes no byte past the stream, so what follows it shows.
            let mut z = ZlibDecoder::new(BufReader::with_capacity(1 << 20, rest));
            let mut header = [0u8; HEADER];
            z.read_exact(&mut header).map_err(damaged)?;
            let (rules, max_seeds) = parse_header(&header)?;
            let bytes = read_values(&mut z, &rules, max_seeds)?;
            expect_end(&mut z)?;
            expect_end(&mut z.into_inner())?;
            Ok(KalahDatabase::from_bytes(rules, max_seeds, bytes))
        }
    }

    fn read_plain(mut input: impl Read) -> Result<KalahDatabase, DatabaseError> {
        let mut header = [0u8; HEADER];
        input.read_exact(&mut header).map_err(damaged)?;
        let (rules, max_seeds) = parse_header(&header)?;
        let bytes = read_values(&mut input, &rules, max_seeds)?;
        let mut sum = [0u8; 4];
        input.read_exact(&mut sum).map_err(damaged)?;
        expect_end(&mut input)?;
        let mut crc = Crc::new();
        crc.update(&header);
        crc.update(&bytes);
        if crc.sum() != u32::from_le_bytes(sum) {
            return Err(DatabaseError::Format("damaged (CRC-32 mismatch)".into()));
        }
        Ok(KalahDatabase::from_bytes(rules, max_seeds, bytes))
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

/// How [`KalahDatabase::save`] stores the values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// zlib-compressed.
    Compressed,
    /// Plain bytes and a CRC-32.
    Plain,
}

fn open(path: &Path) -> Result<std::fs::File, DatabaseError> {
    std::fs::File::open(path).map_err(|source| DatabaseError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// A reader's first bytes put back in front of the rest.
type Rejoined<R> = std::io::Chain<std::io::Cursor<[u8; 8]>, R>;

/// How a file's bytes are stored, told by its first bytes (a plain file starts with the
/// magic, a compressed one with the zlib header), and all of its bytes again.
fn storage_of<R: Read>(mut input: R) -> Result<(Storage, Rejoined<R>), DatabaseError> {
    let mut start = [0u8; 8];
    input.read_exact(&mut start).map_err(damaged)?;
    let storage = if &start == MAGIC {
        Storage::Plain
    } else {
        Storage::Compressed
    };
    Ok((storage, std::io::Cursor::new(start).chain(input)))
}

fn damaged(e: std::io::Error) -> DatabaseError {
    DatabaseError::Format(format!("damaged or cut short ({e})"))
}

/// The rules and seeds a file's header gives.
fn parse_header(header: &[u8; HEADER]) -> Result<(PitRules, u32), DatabaseError> {
    if &header[..8] != MAGIC {
        return Err(DatabaseError::Format("no GSKDB001 header".into()));
    }
    let (pits, capture, end) = (header[8], header[9], header[10]);
    let max_seeds = u64::from_le_bytes(header[12..20].try_into().expect("8 bytes"));
    if !(1..=6).contains(&pits) || capture > 1 || end > 1 || max_seeds > 100 {
        return Err(DatabaseError::Format(format!(
            "header out of range (pits {pits}, seeds {max_seeds})"
        )));
    }
    let rules = PitRules {
        pits: usize::from(pits),
        empty_capture: capture == 1,
        end: if end == 1 {
            EndRule::MoverStuck
        } else {
            EndRule::EitherSideEmpty
        },
    };
    Ok((rules, max_seeds as u32))
}

fn read_values(
    input: &mut impl Read,
    rules: &PitRules,
    max_seeds: u32,
) -> Result<Vec<u8>, DatabaseError> {
    let mut bytes = vec![0u8; KalahDatabase::positions_for(rules, max_seeds)?];
    input.read_exact(&mut bytes).map_err(damaged)?;
    Ok(bytes)
}

fn expect_end(input: &mut impl Read) -> Result<(), DatabaseError> {
    if input.read(&mut [0u8; 1]).map_err(damaged)? != 0 {
        return Err(DatabaseError::Format("longer than its header says".into()));
    }
    Ok(())
}

/// Where a search gets its Kalah database: none, one built in memory for the game's rules,
/// or a file. Text: `none`, a number of seeds, or a path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DatabaseSource {
    /// No database.
    #[default]
    None,
    /// Built in memory for every board of at most this many seeds.
    Build(u32),
    /// Read from a file written by `engine kalah-db build`.
    File(PathBuf),
}

impl std::fmt::Display for DatabaseSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DatabaseSource::None => f.write_str("none"),
            DatabaseSource::Build(n) => write!(f, "{n}"),
            DatabaseSource::File(path) => write!(f, "{}", path.display()),
        }
    }
}

impl std::str::FromStr for DatabaseSource {
    type Err = DatabaseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.is_empty() || s.eq_ignore_ascii_case("none") {
            Ok(DatabaseSource::None)
        } else if s.bytes().all(|b| b.is_ascii_digit()) {
            match s.parse::<u32>() {
                Ok(n) if n <= MAX_DATABASE_SEEDS => Ok(DatabaseSource::Build(n)),
                _ => Err(DatabaseError::Format(format!(
                    "{s} seeds: at most {MAX_DATABASE_SEEDS}"
                ))),
            }
        } else {
            Ok(DatabaseSource::File(PathBuf::from(s)))
        }
    }
}

/// The last database obtained, shared by every search that asks for the same one.
static LAST: Mutex<Option<(DatabaseSource, PitRules, Arc<KalahDatabase>)>> = Mutex::new(None);

impl DatabaseSource {
    /// The database for `rules`: built (or read) once, then shared until another is asked
    /// for. `progress` hears of each layer of seeds built; raising `stop` ends a build.
    ///
    /// # Errors
    /// An unreadable or damaged file, one built for other rules, or a size that does not
    /// fit in memory.
    pub fn obtain(
        &self,
        rules: KalahRules,
        progress: &mut dyn FnMut(u32),
        stop: Option<&AtomicBool>,
    ) -> Result<Option<Arc<KalahDatabase>>, DatabaseError> {
        let pit_rules = PitRules::of(rules);
        let last = || {
            LAST.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if let Some((source, r, db)) = last().as_ref()
            && source == self
            && (*r == pit_rules || matches!(self, DatabaseSource::File(_)))
        {
            db.check_rules(rules)?;
            return Ok(Some(Arc::clone(db)));
        }
        // Built or read without the lock, so that a search waiting for another's
        // database can still be stopped.
        let db = match self {
            DatabaseSource::None => return Ok(None),
            DatabaseSource::Build(n) => {
                let threads = std::thread::available_parallelism().map_or(1, usize::from);
                KalahDatabase::build(rules, *n, threads, progress, stop)?
            }
            DatabaseSource::File(path) => {
                let db = KalahDatabase::load(path)?;
                db.check_rules(rules)?;
                db
            }
        };
        let db = Arc::new(db);
        *last() = Some((self.clone(), pit_rules, Arc::clone(&db)));
        Ok(Some(db))
    }
}

#[cfg(test)]
mod tests {
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
