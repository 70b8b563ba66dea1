//! `engine train <data dir> -o <weights>` and `engine accuracy <data dir>`: fit the 8x8
//! pattern evaluation to game records and measure it against exact scores.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use clap::{Args, ValueEnum};
use engine::search::Selectivity;
use engine::search::othello::eval::PatternWeights;
use engine::search::othello::eval::weights::{PHASES, phase_discs};
use engine::train::accuracy::{ChoiceRow, References, accuracy, choices};
use engine::train::dataset::{GivenLabels, LabelPolicy};
use engine::train::fit::FitParams;
use engine::train::games::Source;
use engine::train::labels::{Method, read_labels};
use engine::train::network::NetParams;
use engine::train::{TrainConfig, read_folders, split, train};

fn default_threads() -> usize {
    engine::cores::available_cores()
}

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Folders of game records: WTHOR `*.wtb` files, Logistello `*.gam(.gz)` books and
    /// `engine selfplay` games, searched recursively (one in twenty games held out), or
    /// such files.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Where to write the weights.
    #[arg(short, long)]
    output: PathBuf,
    /// Conjugate-gradient iterations per phase.
    #[arg(long, default_value_t = FitParams::default().iterations)]
    iterations: usize,
    /// Ridge penalty on each weight (squared discs).
    #[arg(long, default_value_t = FitParams::default().lambda)]
    lambda: f64,
    /// Label WTHOR positions with at most this many empties by an exact solve (0: never).
    #[arg(long, default_value_t = 0)]
    solve_empties: u32,
    /// Solve in one WTHOR game of this many (the others keep their final score).
    #[arg(long, default_value_t = 1)]
    solve_every: usize,
    /// Threads for solving and fitting.
    #[arg(long, default_value_t = default_threads())]
    threads: usize,
    /// Labels from `engine label solve` or `label search` (repeatable): positions they
    /// hold are trained on them (an exact label before a searched one).
    #[arg(long, value_name = "FILE")]
    labels: Vec<PathBuf>,
    /// Fit each phase also on the positions of neighbouring phases whose discs come within
    /// this many of its own (0: on its own positions alone).
    #[arg(long, default_value_t = 0, value_name = "DISCS")]
    phase_margin: u32,
    /// How much of a position's label a searched label makes, the game's label the rest
    /// (1: the search's value alone; exact labels always replace the game's).
    #[arg(long, default_value_t = 1.0, value_name = "W")]
    searched_weight: f64,
    /// Keep the linear model of this weights file instead of fitting one: train only the
    /// network over it.
    #[arg(long, value_name = "FILE", conflicts_with = "no_net")]
    linear: Option<PathBuf>,
    /// Fit the linear model alone, without the network over the pattern tables.
    #[arg(long)]
    no_net: bool,
    /// The first and last phases the network corrects (phase p holds 4 + 4p to 7 + 4p
    /// discs).
    #[arg(long, num_args = 2, value_names = ["FIRST", "LAST"],
          default_values_t = [NetParams::default().phases.0, NetParams::default().phases.1])]
    net_phases: Vec<usize>,
    /// The network's passes over the training positions.
    #[arg(long, default_value_t = NetParams::default().epochs)]
    net_epochs: usize,
    /// The seed of the network's start and of its order of the positions.
    #[arg(long, default_value_t = NetParams::default().seed)]
    net_seed: u64,
}

pub fn run_train(args: &TrainArgs) -> anyhow::Result<()> {
    anyhow::ensure!(args.iterations >= 1, "--iterations must be at least 1");
    anyhow::ensure!(
        args.lambda.is_finite() && args.lambda >= 0.0,
        "--lambda must be a non-negative number"
    );
    anyhow::ensure!(
        args.solve_empties <= 30,
        "--solve-empties must be at most 30"
    );
    anyhow::ensure!(
        (0.0..=1.0).contains(&args.searched_weight),
        "--searched-weight must be between 0 and 1"
    );
    let (first, last) = (args.net_phases[0], args.net_phases[1]);
    anyhow::ensure!(
        first <= last && last < PHASES,
        "--net-phases must be FIRST LAST with FIRST <= LAST < {PHASES}"
    );
    anyhow::ensure!(args.net_epochs >= 1, "--net-epochs must be at least 1");
    let linear = args
        .linear
        .as_deref()
        .map(PatternWeights::load)
        .transpose()?
        .map(|w| w.params().to_vec());
    let started = Instant::now();
    let (mut searched, mut exact) = (Vec::new(), Vec::new());
    for file in &args.labels {
        let (header, samples) = read_labels(file)?;
        match header.method {
            Method::Exact => exact.extend(samples),
            Method::Search { .. } => searched.extend(samples),
        }
    }
    let (searched_count, exact_count) = (searched.len(), exact.len());
    let given = GivenLabels::new(exact, searched, args.searched_weight);
    if !given.is_empty() {
        eprintln!(
            "labels read: {exact_count} exact, {searched_count} searched ({} positions)",
            given.len()
        );
    }
    let config = TrainConfig {
        given,
        fit: FitParams {
            iterations: args.iterations,
            lambda: args.lambda,
        },
        labels: LabelPolicy {
            solve_empties: args.solve_empties,
            solve_every: args.solve_every,
        },
        threads: args.threads.max(1),
        phase_margin: args.phase_margin,
        linear,
        net: (!args.no_net).then_some(NetParams {
            phases: (first, last),
            epochs: args.net_epochs,
            seed: args.net_seed,
            ..NetParams::default()
        }),
    };
    let (weights, reports) = train(&args.data, config)?;
    weights
        .save(&args.output)
        .context("cannot save the weights")?;
    println!(
        "{:>5} {:>7} {:>10} {:>9} {:>9} {:>9} {:>11} {:>11} {:>9}",
        "phase",
        "discs",
        "positions",
        "mse 0",
        "mse fit",
        "held out",
        "mae fit",
        "mae linear",
        "mae hand"
    );
    for r in &reports {
        let (first, last) = phase_discs(r.phase);
        println!(
            "{:>5} {:>7} {:>10} {:>9.1} {:>9.1} {:>9} {:>11.2} {:>11.2} {:>9.2}",
            r.phase,
            format!("{first}-{last}"),
            r.samples,
            r.mse.0,
            r.mse.1,
            r.test_samples,
            r.test_mae.0,
            r.linear_mae,
            r.test_mae.1
        );
    }
    let bytes = std::fs::metadata(&args.output).map_or(0, |m| m.len());
    println!(
        "wrote {} ({bytes} bytes) in {:.1} s",
        args.output.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[derive(Debug, Args)]
pub struct AccuracyArgs {
    /// Folders of games, as `engine train` takes them (in the same order, the same games
    /// are held out); their held-out games are measured.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Whose held-out games: `wthor` (the tournament records: human games, also measured
    /// against WTHOR's theoretical scores at 24 empties) or `gam` (the `*.gam` files:
    /// Logistello's and our self-play games).
    #[arg(long, value_enum, default_value_t = Games::Wthor)]
    games: Games,
    /// Weights to measure, a column each (repeatable; default: the shipped ones).
    #[arg(long)]
    eval_file: Vec<PathBuf>,
    /// Empties at which held-out positions are solved exactly and measured (`--empties`
    /// with no value: none, e.g. with `--searched` alone).
    #[arg(long, value_delimiter = ',', num_args = 0.., default_value = "10,14,18,20")]
    empties: Vec<u32>,
    /// Empties at which held-out positions are valued by a deep search of ours instead
    /// (with the shipped evaluation at 87% selectivity), e.g. 30,36,42.
    #[arg(long, value_delimiter = ',')]
    searched: Vec<u32>,
    /// Depth of that search.
    #[arg(long, default_value_t = 16)]
    search_depth: u32,
    /// Positions solved (or searched) per number of empties.
    #[arg(long, default_value_t = 200)]
    positions: usize,
    /// Threads for solving and searching.
    #[arg(long, default_value_t = default_threads())]
    threads: usize,
    /// A labels file of exact scores (made if missing) that the solves are read from and
    /// added to, so that each position is solved once: the engine games' held-out
    /// positions at 14-30 empties are in `data/accuracy/engine-games.lab`.
    #[arg(long)]
    cache: Option<PathBuf>,
    /// With `--cache`: measure only the positions the cache holds, solving nothing (the
    /// column `positions` says how many).
    #[arg(long, requires = "cache")]
    cached_only: bool,
    /// Measure how each evaluation chooses among the moves of the positions at
    /// `--empties` instead (every move solved): the discs its one-ply choice loses
    /// against the best move, and its error between the moves (with its mean error over
    /// them taken out), on average, `regret/between` a column.
    #[arg(long, conflicts_with = "searched")]
    choices: bool,
}

/// The games `engine accuracy` measures on.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Games {
    Wthor,
    Gam,
}

pub fn run_accuracy(args: &AccuracyArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.empties.iter().all(|&e| (1..=30).contains(&e)),
        "--empties must lie in 1..=30"
    );
    anyhow::ensure!(
        args.searched.iter().all(|&e| (1..=60).contains(&e)),
        "--searched must lie in 1..=60"
    );
    anyhow::ensure!(
        (1..=60).contains(&args.search_depth),
        "--search-depth must lie in 1..=60"
    );
    anyhow::ensure!(
        !(args.empties.is_empty() && args.searched.is_empty()),
        "nothing to measure: give --empties or --searched some empties"
    );
    let weights = if args.eval_file.is_empty() {
        vec![("shipped".to_string(), PatternWeights::builtin())]
    } else {
        args.eval_file
            .iter()
            .map(|path| {
                Ok((
                    path.display().to_string(),
                    Arc::new(PatternWeights::load(path)?),
                ))
            })
            .collect::<anyhow::Result<_>>()?
    };
    let games = read_folders(&args.data)?;
    let (_, test) = split(&games);
    let measured: Vec<&PatternWeights> = weights.iter().map(|(_, w)| w.as_ref()).collect();
    let references = References {
        source: match args.games {
            Games::Wthor => Source::Wthor,
            Games::Gam => Source::Logistello,
        },
        solved: args.empties.clone(),
        searched: args.searched.clone(),
        search: Method::Search {
            depth: args.search_depth,
            selectivity: Selectivity::DATA,
        },
        per_empties: args.positions,
        threads: args.threads.max(1),
        cache: args.cache.clone(),
        cached_only: args.cached_only,
    };
    if args.choices {
        return print_choices(&choices(&test, &measured, &references)?, &weights);
    }
    let rows = accuracy(&test, &measured, &references)?;
    // A column of mean absolute errors per weights measured, then the hand evaluation's.
    println!(
        "{:>7} {:>8} {:>9} {} {:>9}",
        "empties",
        "value by",
        "positions",
        weights
            .iter()
            .map(|(name, _)| format!("{name:>12}"))
            .collect::<Vec<_>>()
            .join(" "),
        "mae hand"
    );
    for r in rows {
        // No positions (a cache read only that holds none): no error to give.
        let error = |e: f64| {
            if r.positions == 0 {
                "-".to_string()
            } else {
                format!("{e:.2}")
            }
        };
        println!(
            "{:>7} {:>8} {:>9} {} {:>9}",
            r.empties,
            r.label,
            r.positions,
            r.trained
                .iter()
                .map(|&e| format!("{:>12}", error(e)))
                .collect::<Vec<_>>()
                .join(" "),
            error(r.hand)
        );
    }
    Ok(())
}

/// The tables of `engine accuracy --choices`: per count of empties, `regret/between` per
/// weights measured, then the hand evaluation's; then, per weights after the first, their
/// difference from the first's, position by position, with its 95% interval.
fn print_choices(
    rows: &[ChoiceRow],
    weights: &[(String, Arc<PatternWeights>)],
) -> anyhow::Result<()> {
    let names: Vec<&str> = weights
        .iter()
        .map(|(name, _)| name.as_str())
        .chain(["hand"])
        .collect();
    let header = |names: &[&str]| {
        println!(
            "{:>7} {:>9} {}",
            "empties",
            "positions",
            names
                .iter()
                .map(|name| format!("{name:>22}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    };
    let line = |r: &ChoiceRow, cells: Vec<String>| {
        let cells: Vec<String> = cells
            .into_iter()
            .map(|cell| {
                if r.positions() == 0 {
                    "-".to_string()
                } else {
                    cell
                }
            })
            .map(|cell| format!("{cell:>22}"))
            .collect();
        println!("{:>7} {:>9} {}", r.empties, r.positions(), cells.join(" "));
    };
    println!("regret/between, in discs:");
    header(&names);
    for r in rows {
        let cells = (0..names.len())
            .map(|n| {
                let c = r.mean(n);
                format!("{:.2}/{:.2}", c.regret, c.between)
            })
            .collect();
        line(r, cells);
    }
    if names.len() > 1 {
        println!("against {}, the same positions (95% intervals):", names[0]);
        header(&names[1..]);
        for r in rows {
            let cells = (1..names.len())
                .map(|n| {
                    let ((regret, r95), (between, b95)) = r.against_first(n);
                    format!("{regret:+.2}±{r95:.2}/{between:+.3}±{b95:.3}")
                })
                .collect();
            line(r, cells);
        }
    }
    Ok(())
}
