//! The match runner: engines against each other through the protocol, with the rules
//! checked by the runner, faults counted, results appended as they finish, and
//! statistics users can trust.
//!
//! A match is a schedule of games: for every round, pairing and opening, two games with
//! colours swapped (games `2k` and `2k+1`, which the pentanomial statistics pair). Games
//! run on `concurrency` threads, each with its own engine processes or connections.

mod error;
mod fault;
mod game;
mod nboard_player;
pub mod openings;
pub mod paper_kalah;
mod player;
mod record;
mod sequential;
mod shard;
mod spec;
pub mod stats;
mod tally;

pub use crate::shard::Shard;
pub use error::{MatchError, OpeningError};
pub use fault::FaultKind;
pub use game::{Clock, GameRules, ScheduledGame};
pub use openings::Opening;
pub use record::{GameRecord, GameResult, Termination, read_results, write_results};
pub use sequential::SequentialTest;
pub use shard::{combined_records, merge_records, merged_tally};
pub use spec::{EngineSpec, SpecError};
pub use tally::Tally;

use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use rand::SeedableRng;
use rand::seq::SliceRandom;

use player::Player;
use record::ResultsFile;
use stats::Sprt;

use crate::game::GameId;
use crate::game::othello::Geometry;
use crate::search::TranspositionTable;

/// Table size for adjudication solves, per game thread.
const ADJUDICATION_HASH_MIB: usize = 64;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines (at least two).
    pub engines: Vec<EngineSpec>,
    /// Game, clock, adjudication, timeouts.
    pub rules: GameRules,
    /// The openings, each played twice per pairing and round.
    pub openings: Vec<Opening>,
    /// Rounds.
    pub rounds: usize,
    /// Play at most this many games of the schedule.
    pub games: Option<usize>,
    /// The first engine against each other one, instead of every pairing.
    pub gauntlet: bool,
    /// Games played at once.
    pub concurrency: usize,
    /// Seed of the opening order.
    pub seed: u64,
    /// Results file (JSON lines).
    pub results: Option<PathBuf>,
    /// Also append each game as a GGF record to this file (8x8 Othello).
    pub ggf: Option<PathBuf>,
    /// Continue the match recorded in `results`.
    pub resume: bool,
    /// Stop when this test is decided (two engines).
    pub sprt: Option<Sprt>,
    /// Earlier matches' games of the same two engines that the test counts before this
    /// match's (as [`combined_records`] reads them), so that a test goes on across
    /// matches; empty for a test of this match alone.
    pub sprt_earlier: Vec<GameRecord>,
    /// Play only this part of the schedule.
    pub shard: Option<Shard>,
}

/// The pairs of engines (by index) that play each other: every pair, or with `gauntlet`
/// the first engine against each other one.
#[must_use]
pub fn pairings(engines: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    if gauntlet {
        (1..engines).map(|j| (0, j)).collect()
    } else {
        (0..engines)
            .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
            .collect()
    }
}

/// The games of a match, in order.
#[must_use]
pub fn schedule(config: &MatchConfig) -> Vec<ScheduledGame> {
    let pairings = pairings(config.engines.len(), config.gauntlet);
    let mut games = Vec::new();
    for round in 0..config.rounds {
        let mut order: Vec<usize> = (0..config.openings.len()).collect();
        let mut rng = rand::rngs::StdRng::seed_from_u64(config.seed.wrapping_add(round as u64));
        order.shuffle(&mut rng);
        for &opening in &order {
            for &(a, b) in &pairings {
                for (first, second) in [(a, b), (b, a)] {
                    games.push(ScheduledGame {
                        index: games.len(),
                        round,
                        opening: config.openings[opening].clone(),
                        first,
                        second,
                    });
                }
            }
        }
    }
    if let Some(limit) = config.games {
        games.truncate(limit);
    }
    games
}

/// Starts each engine once, with its options, before any game: one that cannot start (a
/// mistyped command, an address nobody listens on), dies at once or refuses an option
/// would otherwise lose every game by a fault. One that only starts too slowly is left to
/// the games, which count its stalls.
fn check_engines(config: &MatchConfig) -> Result<(), MatchError> {
    for spec in &config.engines {
        let mut player = Player::new(spec, config.rules.start_timeout);
        if let Err(fault) = player.new_game()
            && fault.kind != FaultKind::Stall
        {
            return Err(MatchError::EngineStart {
                engine: spec.name.clone(),
                detail: fault.detail,
            });
        }
    }
    Ok(())
}

/// What a match played: its tally (including the games of a resumed file) and, when it
/// was asked for one, its sequential test.
#[derive(Clone, Debug)]
pub struct MatchOutcome {
    /// The match's games.
    pub tally: Tally,
    /// The SPRT (`MatchConfig::sprt`), over earlier matches' games too when given.
    pub test: Option<SequentialTest>,
}

impl MatchOutcome {
    /// The final report: the tally's, then the test's.
    #[must_use]
    pub fn report(&self) -> String {
        let mut report = self.tally.report(None);
        if let Some(test) = &self.test {
            report.push_str(&format!("\n{}\n", test.report()));
        }
        report
    }
}

/// Plays the match.
///
/// # Errors
/// A results file that cannot be read or written, or that belongs to another match;
/// an engine that cannot play at all (see `check_engines`); earlier games for the test
/// between other engines.
pub fn run(config: &MatchConfig) -> Result<MatchOutcome, MatchError> {
    if config.engines.len() < 2 {
        return Err(MatchError::TooFewEngines);
    }
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    if names.iter().collect::<HashSet<_>>().len() < names.len() {
        return Err(MatchError::DuplicateNames);
    }
    for spec in config.engines.iter().filter(|e| e.nboard) {
        if config.rules.game != GameId::Othello(Geometry::Board8x8) {
            return Err(MatchError::NboardGame {
                engine: spec.name.clone(),
            });
        }
        if spec.algorithm.is_some()
            || spec.nodes.is_some()
            || spec.movetime.is_some()
            || !spec.options.is_empty()
        {
            return Err(MatchError::NboardSettings {
                engine: spec.name.clone(),
            });
        }
    }
    if config.shard.is_some() && config.sprt.is_some() {
        return Err(MatchError::ShardSprt);
    }
    let mut test = config
        .sprt
        .map(|sprt| SequentialTest::new(sprt, &names, &config.sprt_earlier))
        .transpose()?;
    check_engines(config)?;
    let games = schedule(config);
    let mine = |g: &ScheduledGame| config.shard.is_none_or(|s| s.plays(g.index));
    let planned = games.iter().filter(|g| mine(g)).count();
    eprintln!(
        "match: {} engines, {}, {} openings, {planned} games{}, {} at once",
        config.engines.len(),
        config.rules.game,
        config.openings.len(),
        config
            .shard
            .map(|s| format!(" (shard {s} of a {}-game schedule)", games.len()))
            .unwrap_or_default(),
        config.concurrency
    );
    let mut tally = Tally::new(names.clone());
    let mut done = HashSet::new();
    let mut file = None;
    if let Some(path) = &config.results {
        let previous = read_results(path)?;
        if !previous.is_empty() && !config.resume {
            return Err(MatchError::ResultsExist {
                path: path.clone(),
                games: previous.len(),
            });
        }
        for record in &previous {
            let same = games.get(record.index).is_some_and(|planned| {
                mine(planned)
                    && record.first == names[planned.first]
                    && record.second == names[planned.second]
                    && record.opening == planned.opening.to_string()
            });
            if !same {
                return Err(MatchError::OtherMatch {
                    path: path.clone(),
                    index: record.index,
                });
            }
            if done.insert(record.index) {
                tally.add(record);
                if let Some(test) = test.as_mut() {
                    test.add(record);
                }
            }
        }
        file = Some(ResultsFile::append(path)?);
    }
    let mut ggf = match &config.ggf {
        Some(path) => {
            if config.rules.game != GameId::Othello(Geometry::Board8x8) {
                return Err(MatchError::GgfGame);
            }
            Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|source| MatchError::File {
                        action: "open",
                        path: path.clone(),
                        source,
                    })?,
            )
        }
        None => None,
    };
    let mut pending = games.iter().filter(|g| mine(g) && !done.contains(&g.index));
    let progress = Progress::new(planned, done.len());
    progress.update(&tally, test.as_ref());
    let (jobs_tx, jobs) = crossbeam_channel::unbounded();
    let (results_tx, results) = crossbeam_channel::unbounded();
    std::thread::scope(|scope| -> Result<(), MatchError> {
        // Games are handed out one per thread at first, then one per counted result, so
        // that none starts once the test has decided; on an error the channel closes
        // with this closure and the threads stop after their games.
        let mut jobs_tx = Some(jobs_tx);
        let mut hand_out = |test: &Option<SequentialTest>| {
            let next = pending
                .next()
                .filter(|_| !test.as_ref().is_some_and(SequentialTest::decided));
            match (next, &jobs_tx) {
                (Some(game), Some(tx)) => {
                    let _ = tx.send(game);
                }
                _ => jobs_tx = None,
            }
        };
        for _ in 0..config.concurrency.max(1) {
            hand_out(&test);
            let jobs = jobs.clone();
            let results_tx = results_tx.clone();
            scope.spawn(move || {
                let mut players: Vec<Player<'_>> = config
                    .engines
                    .iter()
                    .map(|spec| Player::new(spec, config.rules.start_timeout))
                    .collect();
                let mut solver = None;
                while let Ok(game) = jobs.recv() {
                    let solver = solver.get_or_insert_with(|| {
                        TranspositionTable::new(if config.rules.adjudicate_empties.is_some() {
                            ADJUDICATION_HASH_MIB
                        } else {
                            1
                        })
                    });
                    let [first, second] = players
                        .get_disjoint_mut([game.first, game.second])
                        .expect("a game pairs two different engines");
                    let record = game::play(&config.rules, game, [first, second], solver);
                    if results_tx.send(record).is_err() {
                        break;
                    }
                }
            });
        }
        drop(results_tx);
        for record in results {
            if let Some(file) = file.as_mut() {
                file.write(&record)?;
            }
            if let (Some(out), Some(path)) = (ggf.as_mut(), &config.ggf) {
                let game = &games[record.index];
                let text = record::to_ggf(&record, &game.opening, config.rules.game)?;
                writeln!(out, "{text}").map_err(|source| MatchError::File {
                    action: "write",
                    path: path.clone(),
                    source,
                })?;
            }
            tally.add(&record);
            if let Some(test) = test.as_mut() {
                test.add(&record);
            }
            progress.game_done(&record, &tally, test.as_ref());
            hand_out(&test);
        }
        Ok(())
    })?;
    progress.finish();
    Ok(MatchOutcome { tally, test })
}

/// Progress on stderr: a bar on a terminal, a line per game otherwise.
struct Progress {
    bar: indicatif::ProgressBar,
    lines: bool,
}

impl Progress {
    fn new(total: usize, done: usize) -> Progress {
        let bar = indicatif::ProgressBar::new(total as u64);
        bar.set_position(done as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games  {elapsed_precise}  {msg}",
        ) {
            bar.set_style(style);
        }
        Progress {
            bar,
            lines: !std::io::stderr().is_terminal(),
        }
    }

    /// The match's standing: the first pairing's score and Elo, and the test's LLR.
    fn headline(tally: &Tally, test: Option<&SequentialTest>) -> String {
        match test {
            Some(test) => format!("{}  {}", tally.headline(), test.progress()),
            None => tally.headline(),
        }
    }

    fn update(&self, tally: &Tally, test: Option<&SequentialTest>) {
        self.bar.set_message(Progress::headline(tally, test));
    }

    fn game_done(&self, record: &GameRecord, tally: &Tally, test: Option<&SequentialTest>) {
        self.bar.inc(1);
        self.update(tally, test);
        if self.lines {
            let how = match (&record.termination, &record.fault) {
                (Termination::Fault, Some(f)) => format!(" ({} by {})", f.kind.name(), f.engine),
                (Termination::Adjudicated, _) => " (adjudicated)".into(),
                _ => String::new(),
            };
            let result = match record.result {
                GameResult::FirstWins => "1-0",
                GameResult::Draw => "1/2-1/2",
                GameResult::SecondWins => "0-1",
            };
            eprintln!(
                "game {} {} - {} {result}{how}; {}",
                record.index + 1,
                record.first,
                record.second,
                Progress::headline(tally, test)
            );
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
