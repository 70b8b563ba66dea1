//! `engine match`: engines against each other (see `engine::match_runner`).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use engine::game::GameId;
use engine::match_runner::stats::Sprt;
use engine::match_runner::{
    self, Clock, EngineSpec, GameRecord, GameRules, MatchConfig, Shard, combined_records,
    merge_records, merged_tally, openings,
};
use protocol::Endpoint;

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct MatchArgs {
    #[command(subcommand)]
    action: Option<MatchAction>,
    /// An engine: "name=A depth=6 algorithm=negascout hash=32 option.MidDepth=8" with
    /// cmd='<command line>', tcp=<host:port>, or nboard='<command line>' for an engine
    /// that speaks NBoard (default: this engine binary). Give two or more.
    #[arg(
        long = "engine",
        value_name = "SPEC",
        required_unless_present = "preset"
    )]
    engines: Vec<String>,
    /// Game id.
    #[arg(long, default_value = "othello8x8")]
    game: GameId,
    /// Openings: every distinct position this many plies from the start, or, when there
    /// are more than 20,000, as many as --games needs drawn by random moves (--seed).
    #[arg(long, default_value_t = 4, conflicts_with = "openings_file")]
    opening_plies: usize,
    /// Openings from a file, one a line: startpos|parallel|<position text> [moves ...].
    #[arg(long, value_name = "FILE", conflicts_with = "openings")]
    openings_file: Option<PathBuf>,
    /// Openings from the opening book (8x8 Othello): `book:<plies>:<max value>` for the
    /// positions that many book moves from the start valued within that many discs
    /// (`book:<plies>:<max value>:<book file>` for another book than the shipped one); as
    /// many as --games needs drawn with --seed.
    #[arg(long, value_name = "SPEC", conflicts_with = "opening_plies")]
    openings: Option<String>,
    /// Rounds (each plays every opening twice per pairing, colours swapped).
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// Play at most this many games (of the schedule, in order; even numbers keep pairs whole).
    #[arg(long)]
    games: Option<usize>,
    /// The first engine plays each other one (default: every pairing).
    #[arg(long)]
    gauntlet: bool,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Seed of the opening order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A clock per side: <ms>[+<inc ms>], e.g. 10000+100.
    #[arg(long, value_name = "MS[+INC]")]
    clock: Option<String>,
    /// Othello: end a game by exact solve at or below this many empty squares.
    #[arg(long, value_name = "EMPTIES")]
    adjudicate: Option<u32>,
    /// How long past its own time an engine may take for a move before it loses (ms); for
    /// moves limited by depth or nodes only, the whole wait.
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    move_timeout: u64,
    /// How long an engine may take to start and answer its handshake (ms): generous, as
    /// some engines search before their first reply.
    #[arg(long, value_name = "MS", default_value_t = 120_000)]
    start_timeout: u64,
    /// Append every finished game to this file (JSON lines).
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Also append every game to this file as a GGF record (8x8 Othello).
    #[arg(long, value_name = "FILE")]
    ggf: Option<PathBuf>,
    /// Continue the match recorded in --results.
    #[arg(long, requires = "results")]
    resume: bool,
    /// Stop when decided: elo0,elo1,alpha,beta (two engines), e.g. 0,10,0.05,0.05 or
    /// -5,5,0.05,0.05.
    #[arg(long, value_name = "E0,E1,A,B", allow_hyphen_values = true)]
    sprt: Option<String>,
    /// The test goes on from these earlier matches' results files (the same two engines,
    /// other openings, say): their games count before this match's, each file's pairs
    /// kept apart as `match combine` counts them, and the match stops when the whole test
    /// decides.
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "sprt")]
    sprt_after: Vec<PathBuf>,
    /// Play only the i-th of n disjoint parts of the schedule (the same openings, seeds and
    /// pairs as the whole match), e.g. 3/8; `engine match merge` combines the parts.
    #[arg(long, value_name = "I/N", requires = "results")]
    shard: Option<Shard>,
    /// A built-in experiment instead: `paper-kalah` replays docs/algorithms.md §001 (Kalah 6x6, depths 2..8).
    #[arg(long, conflicts_with = "engines")]
    preset: Option<String>,
}

#[derive(Debug, Subcommand)]
enum MatchAction {
    /// Combine the results files of a match's shards (`--shard i/n`) and print the report
    /// the whole match gives.
    Merge {
        /// The shards' results files (JSON lines).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Also write the merged games, in the schedule's order, to this results file.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Also say what an SPRT decides on these games: elo0,elo1,alpha,beta.
        #[arg(long, value_name = "E0,E1,A,B", allow_hyphen_values = true)]
        sprt: Option<String>,
    },
    /// Count the results files of several matches together (the same engines with other
    /// seeds or openings, say) and print one report: Elo with its interval over all the
    /// games, each colour-swapped pair taken within its own file.
    Combine {
        /// The matches' results files (JSON lines; a sharded match's shards may be given
        /// as they are).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Also say what an SPRT decides on the games of all the files (their pairs
        /// counted together): elo0,elo1,alpha,beta, e.g. 0,10,0.05,0.05. So a test
        /// begun with `match --sprt` can go on in another match (other openings, say).
        #[arg(long, value_name = "E0,E1,A,B", allow_hyphen_values = true)]
        sprt: Option<String>,
        /// Count engine OLD's games as NEW's: successive builds of one engine, each
        /// played under its own name against the same opponent (repeatable).
        #[arg(long, value_name = "OLD=NEW")]
        same: Vec<String>,
    },
}

pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    match &args.action {
        Some(MatchAction::Merge {
            files,
            output,
            sprt,
        }) => return merge(files, output.as_deref(), sprt.as_deref()),
        Some(MatchAction::Combine { files, sprt, same }) => {
            return combine(files, sprt.as_deref(), same);
        }
        None => {}
    }
    if let Some(preset) = &args.preset {
        return match preset.as_str() {
            "paper-kalah" | "seeds-kalah" => {
                Ok(match_runner::paper_kalah::run(&mut std::io::stdout(), 32)?)
            }
            other => bail!("unknown preset '{other}' (paper-kalah)"),
        };
    }
    let me = Endpoint::Command(vec![
        std::env::current_exe()
            .context("cannot find this engine's own path")?
            .display()
            .to_string(),
    ]);
    let engines = args
        .engines
        .iter()
        .map(|s| EngineSpec::parse(s, &me))
        .collect::<Result<Vec<_>, _>>()?;
    // The openings the games need: each is played twice per pairing and round.
    let pairings = match_runner::pairings(engines.len(), args.gauntlet).len();
    let per_opening = (2 * pairings * args.rounds).max(1);
    let wanted = args.games.map(|g| g.div_ceil(per_opening));
    let openings = match (&args.openings_file, &args.openings) {
        (Some(path), _) => {
            let text = engine::files::read_text(path, engine::files::SizeLimit::POSITION_LIST)?;
            openings::from_text(args.game, &text)
                .with_context(|| format!("in {}", path.display()))?
        }
        (None, Some(spec)) => {
            let (plies, max_value, file) = parse_book_openings(spec)?;
            let book = match file {
                Some(file) => std::sync::Arc::new(engine::book::read_book(&file)?),
                None => engine::book::Book::builtin(),
            };
            openings::from_book(&book, args.game, plies, max_value, wanted, args.seed)?
        }
        (None, None) => openings::after_plies(args.game, args.opening_plies, wanted, args.seed)?,
    };
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    if sprt.is_some() && engines.len() != 2 {
        bail!("--sprt needs exactly two engines");
    }
    let config = MatchConfig {
        engines,
        rules: GameRules {
            game: args.game,
            clock: args.clock.as_deref().map(parse_clock).transpose()?,
            adjudicate_empties: args.adjudicate,
            move_timeout: Duration::from_millis(args.move_timeout),
            start_timeout: Duration::from_millis(args.start_timeout),
        },
        openings,
        rounds: args.rounds,
        games: args.games,
        gauntlet: args.gauntlet,
        concurrency: args.concurrency,
        seed: args.seed,
        results: args.results.clone(),
        ggf: args.ggf.clone(),
        resume: args.resume,
        sprt,
        sprt_earlier: combined_records(&args.sprt_after)?,
        shard: args.shard,
    };
    print!("{}", match_runner::run(&config)?.report());
    Ok(())
}

/// `engine match merge`: the shards' records, one per game, and their report.
fn merge(
    files: &[PathBuf],
    output: Option<&std::path::Path>,
    sprt: Option<&str>,
) -> anyhow::Result<()> {
    let sprt = sprt.map(parse_sprt).transpose()?;
    let records = merge_records(files)?;
    if let Some(path) = output
        && !records.is_empty()
    {
        match_runner::write_results(path, &records)?;
    }
    report(&records, files, "merged", sprt.as_ref())
}

/// `engine match combine`: several matches' records, each file's pairs kept apart, and
/// their report.
fn combine(files: &[PathBuf], sprt: Option<&str>, same: &[String]) -> anyhow::Result<()> {
    let sprt = sprt.map(parse_sprt).transpose()?;
    let mut records = combined_records(files)?;
    for pair in same {
        count_as_one(&mut records, pair)?;
    }
    report(&records, files, "combined", sprt.as_ref())
}

/// `--same OLD=NEW`: renames engine OLD to NEW in `records`. A name no game has (a typo)
/// and two engines that played each other are errors.
fn count_as_one(records: &mut [GameRecord], pair: &str) -> anyhow::Result<()> {
    let (old, new) = pair
        .split_once('=')
        .filter(|(old, new)| !old.is_empty() && !new.is_empty() && old != new)
        .with_context(|| format!("--same '{pair}': expected OLD=NEW, two engines' names"))?;
    let mut found = false;
    for record in records.iter_mut() {
        for name in [&mut record.first, &mut record.second] {
            if name == old {
                new.clone_into(name);
                found = true;
            }
        }
        if record.first == record.second {
            bail!("--same {pair}: {old} played {new}, so they cannot count as one engine");
        }
    }
    if !found {
        bail!("--same {pair}: no game in the files names '{old}'");
    }
    Ok(())
}

/// The report of the games read from `files`, with the SPRT's verdict when one is asked.
fn report(
    records: &[GameRecord],
    files: &[PathBuf],
    how: &str,
    sprt: Option<&Sprt>,
) -> anyhow::Result<()> {
    if records.is_empty() {
        bail!("no games in {} file(s)", files.len());
    }
    let tally = merged_tally(records);
    if sprt.is_some() && tally.names().len() != 2 {
        bail!(
            "--sprt needs exactly two engines (the files name {})",
            tally.names().len()
        );
    }
    eprintln!("{how} {} games from {} files", records.len(), files.len());
    print!("{}", tally.report(sprt));
    Ok(())
}

fn parse_clock(text: &str) -> anyhow::Result<Clock> {
    let (time, inc) = text.split_once('+').unwrap_or((text, "0"));
    let number = |s: &str| {
        s.trim()
            .parse::<u64>()
            .with_context(|| format!("--clock {text}: '{s}' is not milliseconds"))
    };
    let clock = Clock {
        time_ms: number(time)?,
        inc_ms: number(inc)?,
    };
    if clock.time_ms == 0 {
        bail!("--clock {text}: the time must be positive");
    }
    Ok(clock)
}

/// `book:<plies>:<max value>[:<file>]`.
fn parse_book_openings(spec: &str) -> anyhow::Result<(usize, i32, Option<PathBuf>)> {
    let bad = || {
        anyhow::anyhow!(
            "--openings '{spec}': expected book:<plies>:<max value>[:<book file>], e.g. book:8:4"
        )
    };
    let mut parts = spec.splitn(4, ':');
    if parts.next() != Some("book") {
        return Err(bad());
    }
    let plies = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
    let max_value = parts
        .next()
        .and_then(|v| v.parse().ok())
        .filter(|v: &i32| (0..=64).contains(v))
        .ok_or_else(bad)?;
    Ok((plies, max_value, parts.next().map(PathBuf::from)))
}

fn parse_sprt(text: &str) -> anyhow::Result<Sprt> {
    let values = text
        .split(',')
        .map(|v| v.trim().parse::<f64>().ok().filter(|v| v.is_finite()))
        .collect::<Option<Vec<f64>>>()
        .with_context(|| format!("--sprt {text}: expected four numbers elo0,elo1,alpha,beta"))?;
    let [elo0, elo1, alpha, beta] = values[..] else {
        bail!("--sprt {text}: expected four numbers elo0,elo1,alpha,beta");
    };
    if elo1 <= elo0 || !(0.0 < alpha && alpha < 0.5) || !(0.0 < beta && beta < 0.5) {
        bail!("--sprt {text}: need elo0 < elo1 and alpha, beta in (0, 0.5)");
    }
    Ok(Sprt {
        elo0,
        elo1,
        alpha,
        beta,
    })
}
