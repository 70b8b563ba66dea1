//! Self-play games for training (`engine selfplay`; issue 28): the engine plays itself from
//! random openings, a search of a fixed depth choosing each move until few enough squares
//! are left to solve, then perfect play, so that every game's final score is the exact value
//! of its position at that point. Positions no human game reaches, as many as the machine
//! can play: what the evaluation lacks most is data.
//!
//! Games are written as lines of a Logistello-style `.gam` text file (`+d3-c3...: +04 10`,
//! then `random N` where the run marks its random plies, which training leaves
//! unlabelled), which `engine train` reads beside the game records, after a first comment
//! line that names the settings (`# engine selfplay ...`). Game `k` of a run depends only
//! on the settings and `k` (its own random opening, a cleared table), so a run gives the
//! same file on any number of threads, resumes after its last whole line, and splits into
//! shards (`--shard i/n`: games `k` with `k mod n = i - 1`) whose files train together.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, bail};
use rand::{RngExt, SeedableRng, rngs::StdRng};

use super::games::parse_logistello;
use crate::game::othello::{Geometry, Othello, OthelloMove};
use crate::game::{Game, Side, Start};
use crate::search::{Limits, SearchParams, Selectivity, TranspositionTable, search, solve_exact};
use crate::shard::Shard;

/// Each thread's table, cleared before each game (so a game does not depend on the ones
/// played before it) and kept through the game (the solves of its last moves reuse it).
const TABLE_MIB: usize = 16;
/// Games written between two syncs of the file: what an interruption can lose.
const SYNC_EVERY: usize = 64;
/// Random openings a balanced game tries before it settles for the nearest to a draw of
/// them: with few opening plies there may be no opening within the bound at all.
const OPENING_TRIES: u32 = 1000;

/// How many plies an opening plays at random: a count, or a range each game draws its
/// count from uniformly (`10` or `10-40`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningPlies {
    /// The fewest.
    pub min: u32,
    /// The most.
    pub max: u32,
}

impl OpeningPlies {
    /// Exactly `plies`.
    #[must_use]
    pub fn exactly(plies: u32) -> OpeningPlies {
        OpeningPlies {
            min: plies,
            max: plies,
        }
    }

    /// A game's count. A fixed count draws nothing, so that the games of runs made before
    /// ranges existed come out the same.
    fn draw(self, rng: &mut StdRng) -> u32 {
        if self.min == self.max {
            self.min
        } else {
            rng.random_range(self.min..=self.max)
        }
    }
}

impl std::fmt::Display for OpeningPlies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.min)
        } else {
            write!(f, "{}-{}", self.min, self.max)
        }
    }
}

impl std::str::FromStr for OpeningPlies {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let count = |t: &str| {
            t.trim()
                .parse::<u32>()
                .ok()
                .filter(|&n| n <= MAX_OPENING_PLIES)
                .ok_or_else(|| format!("`{t}`: not a count of plies from 0 to {MAX_OPENING_PLIES}"))
        };
        let (min, max) = match text.split_once('-') {
            Some((min, max)) => (count(min)?, count(max)?),
            None => (count(text)?, count(text)?),
        };
        if min > max {
            return Err(format!("`{text}`: the fewest plies come first"));
        }
        Ok(OpeningPlies { min, max })
    }
}

/// The most plies an opening plays at random.
pub const MAX_OPENING_PLIES: u32 = 50;

/// How the games are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelfPlaySettings {
    /// Plies played at random from the start (uniformly among the legal moves).
    pub opening_plies: OpeningPlies,
    /// Whether each game's line marks its random plies (`random N` after the result), so
    /// that `engine train` labels only the positions after them: the result a game
    /// reaches after a random move says nothing of the positions before it.
    pub unlabelled_openings: bool,
    /// Keep only openings whose value (by the search that plays the game) is within this
    /// many discs of a draw; another random opening is drawn until one is. `None` keeps
    /// every opening.
    pub balanced: Option<u32>,
    /// Depth of the search that chooses each later move.
    pub depth: u32,
    /// Multi-ProbCut's confidence in that search.
    pub selectivity: Selectivity,
    /// From this many empty squares on, moves come from an exact solve.
    pub solve_empties: u32,
    /// Seed of the random openings.
    pub seed: u64,
    /// The part of the run this file holds.
    pub shard: Shard,
}

impl SelfPlaySettings {
    /// The file's first line, which a resumed run must find again.
    #[must_use]
    pub fn header(&self) -> String {
        // Unbalanced runs keep the header they had before `balanced` existed, so that
        // their files still resume.
        let balanced = self
            .balanced
            .map_or(String::new(), |discs| format!(" within {discs} discs"));
        let unlabelled = if self.unlabelled_openings {
            " (unlabelled)"
        } else {
            ""
        };
        format!(
            "# engine selfplay: opening plies {}{balanced}{unlabelled}, depth {}, selectivity \
             {}, solve from {} empties, seed {}, shard {}/{}",
            self.opening_plies,
            self.depth,
            self.selectivity,
            self.solve_empties,
            self.seed,
            self.shard.index,
            self.shard.count
        )
    }

    /// The search that plays the games' moves (and values a balanced run's openings).
    fn search(&self) -> (SearchParams, Limits) {
        let params = SearchParams {
            selectivity: self.selectivity.into(),
            principal_variation: false,
            ..SearchParams::default()
        };
        (params, Limits::depth_or_exact(Some(self.depth)))
    }

    /// The run's game numbers that this shard plays, below `games`.
    fn schedule(&self, games: usize) -> Vec<u64> {
        self.shard.items(games).map(|k| k as u64).collect()
    }
}

/// Plays game `k` of a run with `settings`, on the table `tt`, and returns its `.gam` line
/// (without the line end).
#[must_use]
pub fn play_game(settings: &SelfPlaySettings, k: u64, tt: &mut TranspositionTable) -> String {
    let mut rng = game_rng(settings, k);
    let (params, limits) = settings.search();
    tt.clear();
    let (mut position, mut line) = match settings.balanced {
        None => random_opening(settings.opening_plies.draw(&mut rng), &mut rng),
        Some(discs) => balanced_opening(settings, discs, &mut rng, tt),
    };
    // Moves are three characters each; passes are not written.
    let random_plies = line.len() / 3;
    while !position.is_terminal() {
        if position.moves() == 0 {
            position = position.play(OthelloMove::PASS);
            continue;
        }
        let empties = position.empty().count_ones();
        let result = if empties <= settings.solve_empties {
            solve_exact(&position, tt)
        } else {
            search(&position, tt, &params, &limits, &mut |_| {})
        };
        let mv = result
            .best_move
            .expect("a position with a legal move has a best move");
        push_move(&mut line, &position, mv);
        position = position.play(mv);
    }
    // Logistello's convention: Black's discs minus White's, empties to nobody.
    let (black, white) = (position.black().count_ones(), position.white().count_ones());
    let _ = write!(line, ": {:+03} 10", black as i32 - white as i32);
    if settings.unlabelled_openings {
        let _ = write!(line, " random {random_plies}");
    }
    line
}

/// Game `k`'s random stream: one per game, so that a game depends on its number only.
fn game_rng(settings: &SelfPlaySettings, k: u64) -> StdRng {
    StdRng::seed_from_u64(settings.seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A random opening of `settings.opening_plies` that the game's search values within
/// `discs` of a draw: the first of [`OPENING_TRIES`] that is, else the nearest of them.
fn balanced_opening(
    settings: &SelfPlaySettings,
    discs: u32,
    rng: &mut StdRng,
    tt: &mut TranspositionTable,
) -> (Othello, String) {
    let mut nearest: Option<(u32, (Othello, String))> = None;
    for _ in 0..OPENING_TRIES {
        let opening = random_opening(settings.opening_plies.draw(rng), rng);
        let value = opening_value(settings, &opening.0, tt).unsigned_abs();
        if value <= discs {
            return opening;
        }
        if nearest.as_ref().is_none_or(|(best, _)| value < *best) {
            nearest = Some((value, opening));
        }
    }
    nearest.expect("at least one opening was tried").1
}

/// The value of an opening by the games' search, from a cleared table so that it is the
/// opening's alone.
fn opening_value(
    settings: &SelfPlaySettings,
    opening: &Othello,
    tt: &mut TranspositionTable,
) -> i32 {
    let (params, limits) = settings.search();
    tt.clear();
    search(opening, tt, &params, &limits, &mut |_| {})
        .score
        .value
}

/// `plies` moves at random from the start (fewer if the game ends first), and their line.
fn random_opening(plies: u32, rng: &mut StdRng) -> (Othello, String) {
    let mut position = Othello::start(Geometry::Board8x8, Start::Standard);
    let mut line = String::with_capacity(3 * 60 + 8);
    let mut played = 0;
    while played < plies && !position.is_terminal() {
        let legal = position.moves();
        if legal == 0 {
            position = position.play(OthelloMove::PASS);
            continue;
        }
        let mv = OthelloMove::square(nth_bit(legal, rng.random_range(0..legal.count_ones())));
        push_move(&mut line, &position, mv);
        position = position.play(mv);
        played += 1;
    }
    (position, line)
}

/// Appends `mv`, played in `position`, to a `.gam` line (passes are not written).
fn push_move(line: &mut String, position: &Othello, mv: OthelloMove) {
    line.push(match position.side_to_move() {
        Side::First => '+',
        Side::Second => '-',
    });
    let _ = write!(line, "{mv}");
}

/// The index of the `n`-th set bit of `bits` (from the lowest).
fn nth_bit(mut bits: u64, n: u32) -> u32 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}

/// Plays this shard's games of a run of `games` with `settings` on `threads` threads and
/// appends them to `path`, after the games a previous run of the same settings left there
/// (a line cut short is dropped); `progress` hears of the games done and to do. Returns
/// the games the file holds.
///
/// # Errors
/// A file that cannot be read or written, one made with other settings, or a damaged line.
pub fn self_play(
    settings: &SelfPlaySettings,
    games: usize,
    path: &Path,
    threads: usize,
    progress: &mut dyn FnMut(usize, usize),
) -> anyhow::Result<usize> {
    let schedule = settings.schedule(games);
    let (mut file, done) = open_for_append(path, &settings.header())?;
    let total = schedule.len();
    let todo = &schedule[done.min(total)..];
    progress(done.min(total), total);
    if todo.is_empty() {
        return Ok(done);
    }
    let next = AtomicUsize::new(0);
    let (sender, receiver) = crossbeam_channel::unbounded::<(usize, String)>();
    std::thread::scope(|scope| -> anyhow::Result<usize> {
        // Owned here, so that an error of the writer drops it and the players stop.
        let receiver = receiver;
        for _ in 0..threads.max(1) {
            let (next, sender) = (&next, sender.clone());
            scope.spawn(move || {
                let mut tt = TranspositionTable::new(TABLE_MIB);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&k) = todo.get(i) else { return };
                    if sender.send((i, play_game(settings, k, &mut tt))).is_err() {
                        return; // the writer stopped on an error
                    }
                }
            });
        }
        drop(sender);
        // Lines are written in the schedule's order, whatever order they finish in.
        let mut waiting = BTreeMap::new();
        let mut written = 0;
        for (i, line) in receiver.iter() {
            waiting.insert(i, line);
            while let Some(line) = waiting.remove(&written) {
                writeln!(file, "{line}")
                    .with_context(|| format!("cannot write {}", path.display()))?;
                written += 1;
                if written % SYNC_EVERY == 0 || written == todo.len() {
                    file.sync_data()
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    progress(done + written, total);
                }
            }
        }
        Ok(done + written)
    })
}

/// The file opened after its last whole game (with `header` written if it is new), and how
/// many games it holds; every whole line is checked.
fn open_for_append(path: &Path, header: &str) -> anyhow::Result<(std::fs::File, usize)> {
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.is_empty() {
        writeln!(file, "{header}").with_context(|| format!("cannot write {}", path.display()))?;
        return Ok((file, 0));
    }
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let text = std::str::from_utf8(&bytes[..whole])
        .with_context(|| format!("{}: not a text file", path.display()))?;
    let mut lines = text.lines();
    let found = lines.next().unwrap_or_default();
    if found != header {
        bail!(
            "{}: made by another run ({}): give another output file",
            path.display(),
            found.trim_start_matches("# engine selfplay: ")
        );
    }
    let mut count = 0;
    for (n, line) in lines.enumerate() {
        parse_logistello(line).with_context(|| format!("{}: line {}", path.display(), n + 2))?;
        count += 1;
    }
    file.set_len(whole as u64)
        .and_then(|()| file.seek(SeekFrom::Start(whole as u64)).map(drop))
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok((file, count))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::games::read_logistello;

    fn settings(shard: Shard) -> SelfPlaySettings {
        SelfPlaySettings {
            opening_plies: OpeningPlies::exactly(6),
            unlabelled_openings: false,
            balanced: None,
            depth: 2,
            selectivity: Selectivity::DATA,
            solve_empties: 8,
            seed: 5,
            shard,
        }
    }

    #[test]
    fn games_are_legal_finished_and_depend_on_their_number_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.gam");
        let mut calls = Vec::new();
        let held = self_play(&settings(Shard::WHOLE), 6, &path, 2, &mut |d, t| {
            calls.push((d, t))
        });
        assert_eq!(held.unwrap(), 6);
        assert_eq!(calls.first(), Some(&(0, 6)));
        assert_eq!(calls.last(), Some(&(6, 6)));
        let games = read_logistello(&path).unwrap();
        assert_eq!(games.len(), 6);
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().skip(1).collect();
        // Different openings, and each game is what playing its number alone gives.
        assert_ne!(lines[0][..18], lines[1][..18]);
        let mut tt = TranspositionTable::new(1);
        assert_eq!(play_game(&settings(Shard::WHOLE), 4, &mut tt), lines[4]);
        // Every game ends with perfect play: its final score is its exact value at the
        // solve point.
        for game in &games {
            let at = game
                .positions
                .iter()
                .find(|p| p.empty().count_ones() <= 8)
                .unwrap();
            let exact = solve_exact(at, &mut tt).score.value;
            let black = if at.side_to_move() == Side::First {
                exact
            } else {
                -exact
            };
            assert_eq!(Some(black), game.result);
        }
    }

    #[test]
    fn balanced_runs_start_from_openings_valued_near_a_draw() {
        let balanced = SelfPlaySettings {
            balanced: Some(1),
            ..settings(Shard::WHOLE)
        };
        // Files made before the option resume: an unbalanced run's header is unchanged.
        assert_eq!(
            settings(Shard::WHOLE).header(),
            "# engine selfplay: opening plies 6, depth 2, selectivity 87, solve from 8 \
             empties, seed 5, shard 1/1"
        );
        assert!(
            balanced
                .header()
                .contains("opening plies 6 within 1 discs,")
        );
        let mut tt = TranspositionTable::new(1);
        let mut values = Vec::new();
        for k in 0..8 {
            let line = play_game(&balanced, k, &mut tt);
            let game = parse_logistello(&line).unwrap();
            let opening = &game.positions[6];
            assert_eq!(opening.empty().count_ones(), 60 - 6);
            let value = opening_value(&balanced, opening, &mut tt);
            assert!(value.abs() <= 1, "game {k} opens at {value}: {line}");
            values.push(value);
        }
        // With no opening within the bound (one ply: the four first moves are one up to
        // symmetry), the game still comes, from the nearest one tried.
        let impossible = SelfPlaySettings {
            opening_plies: OpeningPlies::exactly(1),
            balanced: Some(0),
            ..settings(Shard::WHOLE)
        };
        let first = Othello::start(Geometry::Board8x8, Start::Standard);
        let first = first.play(first.parse_move("d3").unwrap());
        assert_ne!(
            opening_value(&impossible, &first, &mut tt),
            0,
            "the first move is within the bound"
        );
        let game = parse_logistello(&play_game(&impossible, 0, &mut tt)).unwrap();
        assert!(game.result.is_some());
        // Without the option, some of the same games open further from a draw.
        let mut unbalanced = 0;
        for k in 0..8 {
            let game = parse_logistello(&play_game(&settings(Shard::WHOLE), k, &mut tt)).unwrap();
            let value = opening_value(&balanced, &game.positions[6], &mut tt);
            unbalanced += usize::from(value.abs() > 1);
        }
        assert!(unbalanced > 0, "{values:?}");
    }

    #[test]
    fn opening_ranges_draw_each_games_count_and_can_mark_it() {
        assert_eq!("10".parse(), Ok(OpeningPlies::exactly(10)));
        assert_eq!(" 10 - 40".parse(), Ok(OpeningPlies { min: 10, max: 40 }));
        for bad in ["40-10", "51", "x", "", "10-", "-3", "1-2-3", "١٠"] {
            assert!(bad.parse::<OpeningPlies>().is_err(), "{bad}");
        }
        assert_eq!(OpeningPlies { min: 6, max: 20 }.to_string(), "6-20");
        let marked = SelfPlaySettings {
            opening_plies: OpeningPlies { min: 6, max: 20 },
            unlabelled_openings: true,
            ..settings(Shard::WHOLE)
        };
        assert!(
            marked
                .header()
                .contains("opening plies 6-20 (unlabelled), depth 2,")
        );
        let mut tt = TranspositionTable::new(1);
        let mut counts = Vec::new();
        for k in 0..12 {
            let line = play_game(&marked, k, &mut tt);
            let game = parse_logistello(&line).unwrap();
            // The mark counts the random plies: the moves before it are the game's
            // opening as drawn, the later ones the search's.
            let (moves, random) = line.split_once(':').unwrap();
            let n = game.unlabelled;
            assert!((6..=20).contains(&n), "{line}");
            assert!(random.ends_with(&format!(" random {n}")), "{line}");
            let mut rng = game_rng(&marked, k);
            let plies = marked.opening_plies.draw(&mut rng);
            assert_eq!(random_opening(plies, &mut rng).1, moves[..3 * n]);
            counts.push(n);
        }
        counts.sort_unstable();
        counts.dedup();
        assert!(counts.len() > 3, "{counts:?}");
        // Unmarked, the same games carry no mark.
        let unmarked = SelfPlaySettings {
            unlabelled_openings: false,
            ..marked
        };
        let line = play_game(&unmarked, 0, &mut tt);
        assert_eq!(parse_logistello(&line).unwrap().unlabelled, 0);
        assert!(play_game(&marked, 0, &mut tt).starts_with(&line));
    }

    #[test]
    fn runs_resume_shard_and_refuse_other_settings() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.gam");
        let mut quiet = |_, _| {};
        self_play(&settings(Shard::WHOLE), 5, &path, 1, &mut quiet).unwrap();
        let full = std::fs::read_to_string(&path).unwrap();

        // Cut inside the fourth game: the run again keeps three and plays two.
        let resumed = dir.path().join("b.gam");
        let cut = full.match_indices('\n').nth(3).unwrap().0 + 10;
        std::fs::write(&resumed, &full[..cut]).unwrap();
        assert_eq!(
            self_play(&settings(Shard::WHOLE), 5, &resumed, 2, &mut quiet).unwrap(),
            5
        );
        assert_eq!(std::fs::read_to_string(&resumed).unwrap(), full);

        // Two shards hold the run's games between them.
        let mut shard_lines = Vec::new();
        for index in 1..=2 {
            let part = dir.path().join(format!("s{index}.gam"));
            let shard = settings(Shard { index, count: 2 });
            let held = self_play(&shard, 5, &part, 1, &mut quiet).unwrap();
            assert_eq!(held, [3, 2][index - 1]);
            let text = std::fs::read_to_string(&part).unwrap();
            shard_lines.extend(text.lines().skip(1).map(str::to_string));
        }
        let mut run_lines: Vec<String> = full.lines().skip(1).map(str::to_string).collect();
        run_lines.sort();
        shard_lines.sort();
        assert_eq!(run_lines, shard_lines);

        // Other settings, or a damaged line, are refused.
        let other = SelfPlaySettings {
            depth: 3,
            ..settings(Shard::WHOLE)
        };
        let err = self_play(&other, 5, &path, 1, &mut quiet).unwrap_err();
        assert!(err.to_string().contains("another run"), "{err}");
        std::fs::write(&resumed, full.replacen("+", "*", 2)).unwrap();
        let err = self_play(&settings(Shard::WHOLE), 6, &resumed, 1, &mut quiet).unwrap_err();
        assert!(format!("{err:#}").contains("line 2"), "{err:#}");
    }
}
