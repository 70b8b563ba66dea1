//! The database file: a header (`GSKDB001`, the rules, the most seeds) and a signed byte
//! per position, zlib-compressed or plain with a CRC-32; checked whole when read.

use std::io::{BufReader, Read, Write};
use std::path::Path;

use flate2::bufread::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::{Compression, Crc};

use super::{DatabaseError, KalahDatabase, describe};
use crate::game::kalah::EndRule;
use crate::search::kalah::pits::PitRules;

const MAGIC: &[u8; 8] = b"GSKDB001";
/// Bytes of the header.
pub(super) const HEADER: usize = 8 + 4 + 8;

impl KalahDatabase {
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
        let header = header_of(&self.rules, self.max_seeds);
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
        let (rules, max_seeds) = Self::file_header(path)?;
        Ok(describe(&rules, max_seeds))
    }

    /// The rules and most seeds of a database file, from its header.
    pub(super) fn file_header(path: &Path) -> Result<(PitRules, u32), DatabaseError> {
        let (storage, rest) = storage_of(open(path)?)?;
        let mut header = [0u8; HEADER];
        match storage {
            Storage::Plain => BufReader::new(rest).read_exact(&mut header),
            Storage::Compressed => ZlibDecoder::new(BufReader::new(rest)).read_exact(&mut header),
        }
        .map_err(damaged)?;
        parse_header(&header)
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
}

/// How [`KalahDatabase::save`] stores the values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// zlib-compressed.
    Compressed,
    /// Plain bytes and a CRC-32.
    Plain,
}

fn open(path: &Path) -> Result<std::io::Take<std::fs::File>, DatabaseError> {
    Ok(crate::files::open(
        path,
        crate::files::SizeLimit::KALAH_DATABASE,
    )?)
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

/// The header of a database of `rules` with at most `max_seeds` seeds.
pub(super) fn header_of(rules: &PitRules, max_seeds: u32) -> [u8; HEADER] {
    let mut header = [0u8; HEADER];
    header[..8].copy_from_slice(MAGIC);
    header[8] = rules.pits as u8;
    header[9] = u8::from(rules.empty_capture);
    header[10] = u8::from(rules.end == EndRule::MoverStuck);
    header[12..].copy_from_slice(&u64::from(max_seeds).to_le_bytes());
    header
}

/// The rules and seeds a file's header gives.
pub(super) fn parse_header(header: &[u8; HEADER]) -> Result<(PitRules, u32), DatabaseError> {
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
