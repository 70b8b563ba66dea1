//! Game records to train on: the WTHOR database's `.wtb` files and Logistello's
//! `logbook.gam(.gz)` text (formats in docs/evaluation.md), replayed and checked by our rules.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use flate2::read::GzDecoder;

use crate::game::othello::{Geometry, Othello, OthelloMove};
use crate::game::{Game, Side, Start};

/// Where a game comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A tournament game of the WTHOR database.
    Wthor,
    /// A game in Logistello's text format (`*.gam`): Logistello's self-play book, or our
    /// own self-play.
    Logistello,
}

/// One game, replayed.
#[derive(Clone, Debug)]
pub struct TrainingGame {
    /// Where it comes from.
    pub source: Source,
    /// Every position in which the side to move had a move, before that move (passes
    /// skipped), from the start.
    pub positions: Vec<Othello>,
    /// Black's final disc margin (empties to the winner), if the game was played out.
    pub result: Option<i32>,
    /// Black's disc margin with perfect play from the position with 24 empties (WTHOR).
    pub theoretical: Option<i32>,
    /// How many of the first positions the game's result does not value: those before
    /// the random moves of a self-play opening marked `random N` (each is followed by a
    /// move no player chose).
    pub unlabelled: usize,
}

/// Plays `moves` from the standard start, passing where the side to move has no move.
/// `colours`, when given, says who made each move and must agree with the rules.
fn replay(
    moves: &[OthelloMove],
    colours: Option<&[Side]>,
) -> anyhow::Result<(Vec<Othello>, Othello)> {
    let mut position = Othello::start(Geometry::Board8x8, Start::Standard);
    let mut positions = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        if position.moves() == 0 {
            if position.is_terminal() {
                bail!("move {} ({mv}) after the end of the game", i + 1);
            }
            position = position.play(OthelloMove::PASS);
        }
        if let Some(colours) = colours
            && colours[i] != position.side_to_move()
        {
            bail!("move {} ({mv}) by the wrong colour", i + 1);
        }
        positions.push(position);
        position = position
            .try_play(mv)
            .with_context(|| format!("move {} ({mv})", i + 1))?;
    }
    Ok((positions, position))
}

/// Black's disc margin of a finished position.
fn black_margin(position: &Othello) -> i32 {
    match position.side_to_move() {
        Side::First => position.final_score(),
        Side::Second => -position.final_score(),
    }
}

/// Reads one WTHOR `.wtb` file.
///
/// # Errors
/// When the file cannot be read, its header is wrong, or a game is illegal.
pub fn read_wthor(path: &Path) -> anyhow::Result<Vec<TrainingGame>> {
    let bytes = crate::files::read(path, crate::files::SizeLimit::GAME_RECORDS)?;
    parse_wthor(&bytes).with_context(|| format!("{}", path.display()))
}

/// Parses the bytes of a `.wtb` file.
fn parse_wthor(bytes: &[u8]) -> anyhow::Result<Vec<TrainingGame>> {
    const HEADER: usize = 16;
    const RECORD: usize = 68;
    if bytes.len() < HEADER {
        bail!("shorter than a WTHOR header");
    }
    let games = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes")) as usize;
    if bytes[12] != 8 && bytes[12] != 0 {
        bail!("board size {} (only 8x8 is read)", bytes[12]);
    }
    if bytes.len() != HEADER + games * RECORD {
        bail!(
            "{} bytes where the header's {games} games need {}",
            bytes.len(),
            HEADER + games * RECORD
        );
    }
    let depth = u32::from(bytes[14]);
    bytes[HEADER..]
        .chunks_exact(RECORD)
        .enumerate()
        .map(|(n, record)| {
            let moves = record[8..]
                .iter()
                .take_while(|&&b| b != 0)
                .map(|&b| {
                    let (row, column) = (b / 10, b % 10);
                    if !(1..=8).contains(&row) || !(1..=8).contains(&column) {
                        bail!("square code {b}");
                    }
                    Ok(OthelloMove::square(u32::from((row - 1) * 8 + column - 1)))
                })
                .collect::<anyhow::Result<Vec<_>>>()
                .with_context(|| format!("game {}", n + 1))?;
            let (positions, end) =
                replay(&moves, None).with_context(|| format!("game {}", n + 1))?;
            let reaches = |empties: u32| {
                positions.iter().any(|p| p.empty().count_ones() == empties)
                    || end.empty().count_ones() == empties
            };
            let theoretical = (depth > 0 && reaches(depth)).then(|| 2 * i32::from(record[7]) - 64);
            Ok(TrainingGame {
                source: Source::Wthor,
                positions,
                result: end.is_terminal().then(|| black_margin(&end)),
                theoretical,
                unlabelled: 0,
            })
        })
        .collect()
}

/// Reads Logistello's book games (gzip-compressed when the name ends in `.gz`).
///
/// # Errors
/// When the file cannot be read or a line is not a legal game.
pub fn read_logistello(path: &Path) -> anyhow::Result<Vec<TrainingGame>> {
    let file = crate::files::open(path, crate::files::SizeLimit::GAME_RECORDS)?;
    let reader: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(GzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut games = Vec::new();
    for (n, line) in BufReader::new(reader).lines().enumerate() {
        let line = line.with_context(|| format!("{}: line {}", path.display(), n + 1))?;
        // Blank lines, and comment lines such as `engine selfplay`'s header, hold no game.
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        games.push(
            parse_logistello(&line)
                .with_context(|| format!("{}: line {}", path.display(), n + 1))?,
        );
    }
    Ok(games)
}

/// Parses one game line: `+d3-c3...: <margin> <n>`, then `random N` where marked.
pub(crate) fn parse_logistello(line: &str) -> anyhow::Result<TrainingGame> {
    let (moves_text, tail) = line.split_once(':').unwrap_or((line, ""));
    let moves_text = moves_text.trim();
    if !moves_text.is_ascii() || !moves_text.len().is_multiple_of(3) {
        bail!("not a sequence of +xy/-xy moves");
    }
    let mut moves = Vec::with_capacity(60);
    let mut colours = Vec::with_capacity(60);
    let start = Othello::start(Geometry::Board8x8, Start::Standard);
    for chunk in moves_text.as_bytes().chunks(3) {
        colours.push(match chunk[0] {
            b'+' => Side::First,
            b'-' => Side::Second,
            _ => bail!("a move must start with + or -"),
        });
        let text = std::str::from_utf8(&chunk[1..]).expect("ASCII");
        moves.push(start.parse_move(text)?);
    }
    let unlabelled = random_plies(tail, moves.len())?;
    let (positions, end) = replay(&moves, Some(&colours))?;
    if !end.is_terminal() {
        bail!("the game does not reach its end");
    }
    Ok(TrainingGame {
        source: Source::Logistello,
        positions,
        result: Some(black_margin(&end)),
        theoretical: None,
        unlabelled,
    })
}

/// The random plies a game line's tail (after its `:`) marks: `<margin> <n> random N`
/// (`engine selfplay --unlabelled-openings`), else none. At most the game's `moves`.
fn random_plies(tail: &str, moves: usize) -> anyhow::Result<usize> {
    let mut words = tail.split_whitespace().skip(2);
    match (words.next(), words.next(), words.next()) {
        (None, ..) => Ok(0),
        (Some("random"), Some(n), None) => match n.parse::<usize>() {
            Ok(n) if n <= moves => Ok(n),
            _ => bail!("`random {n}`: not a count of the game's {moves} moves"),
        },
        _ => bail!("after the result, only `random N` may follow"),
    }
}

/// Whether a file's name is a game file's: `*.wtb`, `*.gam` or `*.gam.gz`.
fn is_game_file(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".wtb")
        || name.ends_with(".gam")
        || name.ends_with(".gam.gz")
}

/// The game files under `dir`: every `*.wtb` and every `*.gam` / `*.gam.gz`, searched
/// recursively, in name order; or `dir` itself when it is a game file (one batch of
/// self-play games, labelled on its own).
///
/// # Errors
/// When the folder cannot be listed, or a file is not a game file.
pub fn find_game_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if dir.is_file() {
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !is_game_file(name) {
            bail!(
                "{}: not a game file (*.wtb, *.gam, *.gam.gz)",
                dir.display()
            );
        }
        return Ok(vec![dir.to_path_buf()]);
    }
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(&folder)
            .with_context(|| format!("cannot list {}", folder.display()))?;
        for entry in entries {
            let path = entry?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                folders.push(path);
            } else if is_game_file(name) {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Reads every game file under `dir`.
///
/// # Errors
/// When there is none or one cannot be read.
pub fn read_games(dir: &Path) -> anyhow::Result<Vec<TrainingGame>> {
    let files = find_game_files(dir)?;
    if files.is_empty() {
        bail!(
            "no game files (*.wtb, *.gam, *.gam.gz) under {}",
            dir.display()
        );
    }
    let mut games = Vec::new();
    for file in files {
        let name = file.to_string_lossy();
        if name.to_ascii_lowercase().ends_with(".wtb") {
            games.extend(read_wthor(&file)?);
        } else {
            games.extend(read_logistello(&file)?);
        }
    }
    Ok(games)
}

/// Writes games as a WTHOR `.wtb` file (for test fixtures): `(moves, theoretical
/// black disc count)` per game; the real score is the game's own.
#[cfg(test)]
pub(crate) fn write_wthor(games: &[(Vec<OthelloMove>, u8)]) -> Vec<u8> {
    let mut bytes = vec![20, 25, 1, 1];
    bytes.extend_from_slice(&(games.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&[0, 0, 0xe9, 0x07, 8, 0, 24, 0]);
    for (moves, theoretical) in games {
        let (_, end) = replay(moves, None).expect("legal");
        let black = (black_margin(&end) + 64) / 2;
        bytes.extend_from_slice(&[0; 6]);
        bytes.push(black as u8);
        bytes.push(*theoretical);
        let mut codes: Vec<u8> = moves
            .iter()
            .map(|m| {
                let sq = m.index().expect("no pass") as u8;
                (sq / 8 + 1) * 10 + sq % 8 + 1
            })
            .collect();
        codes.resize(60, 0);
        bytes.extend_from_slice(&codes);
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logistello_lines_replay_with_their_passes() {
        let line = "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+f8-a6+b4-a5+a4-e8+b8-h7+g8-b7+g2-g3+h2-a1+f1-e2+h3-a3+a8-a7+h8-g7+a2-b1-g1+h1: +00 10";
        let game = parse_logistello(line).unwrap();
        assert_eq!(game.positions.len(), 60);
        assert_eq!(game.result, Some(0));
        // Black passes before White's g1: two White moves in a row.
        assert_eq!(game.positions[58].side_to_move(), Side::Second);
        assert_eq!(game.unlabelled, 0);
        // A self-play opening's random plies, marked after the result.
        let marked = parse_logistello(&format!("{line} random 34")).unwrap();
        assert_eq!(marked.unlabelled, 34);
        assert_eq!(marked.positions, game.positions);
        assert_eq!(
            parse_logistello(&format!("{line} random 60"))
                .unwrap()
                .unlabelled,
            60
        );
        for bad in [
            "random 61",
            "random",
            "random -1",
            "random 3 4",
            "random x",
            "ρ 3",
        ] {
            let err = parse_logistello(&format!("{line} {bad}")).unwrap_err();
            assert!(err.to_string().contains("random"), "{bad}: {err}");
        }
    }

    #[test]
    fn bad_logistello_lines_are_refused() {
        for line in [
            "+d3+c3: +00 10",
            "+d3-c3+c4-e3+c2: +00 10",
            "+z9: +00 10",
            "xd3: +00 10",
            "+d3-é: 0",
        ] {
            assert!(parse_logistello(line).is_err(), "{line}");
        }
    }

    #[test]
    fn wthor_files_round_trip() {
        let line = "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+b4-e8+h3-g3+h2-e2+h7-g2+b1-a1+h1-a2+a3-g7+f8-h8+g8-a4+g1-f1+a6-a5+a7-a8+b8-b7: -04 10";
        let game = parse_logistello(line).unwrap();
        let start = Othello::start(Geometry::Board8x8, Start::Standard);
        let moves: Vec<OthelloMove> = line
            .split(':')
            .next()
            .unwrap()
            .as_bytes()
            .chunks(3)
            .map(|c| {
                start
                    .parse_move(std::str::from_utf8(&c[1..]).unwrap())
                    .unwrap()
            })
            .collect();
        let bytes = write_wthor(&[(moves.clone(), 30)]);
        let back = parse_wthor(&bytes).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].positions, game.positions);
        assert_eq!(back[0].result, Some(-4));
        assert_eq!(back[0].theoretical, Some(-4));
        assert!(parse_wthor(&bytes[..bytes.len() - 1]).is_err());
        let mut bad = bytes.clone();
        bad[16 + 8] = 99;
        assert!(parse_wthor(&bad).is_err());
    }
}
