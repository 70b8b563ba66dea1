//! `engine probcut sample` and `engine probcut fit`: Multi-ProbCut's model from our own
//! searches of positions of the game records (docs/selectivity.md).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use engine::search::TranspositionTable;
use engine::search::othello::eval::{EvalChoice, EvalKind};
use engine::train::games::read_games;
use engine::train::probcut::{
    EMPTIES_GROUP, Spread, depth_values, end_spreads, fit_end, fit_sigma, pick_positions,
    read_sample, spreads, standing_value,
};

fn default_threads() -> usize {
    engine::cores::available_cores()
}

#[derive(Debug, Args)]
pub struct ProbcutArgs {
    #[command(subcommand)]
    command: ProbcutCommand,
}

#[derive(Debug, Subcommand)]
enum ProbcutCommand {
    /// Search positions of the game records full width at every depth and append their
    /// values to a sample file (run it again to resume).
    Sample(SampleArgs),
    /// Fit the model to a sample file and write it (engine/data/probcut.txt ships one).
    Fit(FitArgs),
    /// Fit the model of probable solves to the solved positions of a sample file (made
    /// with `sample --end`) and write it (engine/data/probcut-end.txt ships one).
    FitEnd(FitArgs),
}

#[derive(Debug, Args)]
struct SampleArgs {
    /// Folder of game records (WTHOR `*.wtb`, Logistello `*.gam(.gz)`), searched
    /// recursively, or one such file.
    data: PathBuf,
    /// The sample file: appended to, and read first to skip positions already searched.
    #[arg(short, long)]
    output: PathBuf,
    /// Positions to sample.
    #[arg(long, default_value_t = 2000)]
    positions: usize,
    /// Deepest search (each position also stops two plies short of the end).
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Fewest empties of a sampled position.
    #[arg(long, default_value_t = 12)]
    min_empties: u32,
    /// Most empties of a sampled position.
    #[arg(long, default_value_t = 56)]
    max_empties: u32,
    /// Seed of the positions' draw (the same seed draws the same positions).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads, one position each.
    #[arg(long, default_value_t = default_threads())]
    threads: usize,
    /// Table of each thread, in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Solve each position exactly too, for the model of probable solves (keep
    /// --max-empties low: a solve at 24 empties takes seconds).
    #[arg(long)]
    end: bool,
    /// Trained weights to search with instead of the shipped ones: the model for those
    /// weights (a sample records each position's evaluation, and resumes only with the
    /// weights it began with).
    #[arg(long, value_name = "FILE")]
    eval_file: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct FitArgs {
    /// A sample file of `engine probcut sample`.
    sample: PathBuf,
    /// Where to write the model.
    #[arg(short, long)]
    output: PathBuf,
    /// Groups (depth, empties) with fewer positions are left out of the fit.
    #[arg(long, default_value_t = 30)]
    min_count: usize,
}

pub fn run(args: &ProbcutArgs) -> anyhow::Result<()> {
    match &args.command {
        ProbcutCommand::Sample(args) => sample(args),
        ProbcutCommand::Fit(args) => fit(args),
        ProbcutCommand::FitEnd(args) => fit_end_model(args),
    }
}

/// The sample file's text, if it exists.
fn sample_text(path: &std::path::Path) -> anyhow::Result<String> {
    match engine::files::read_text(path, engine::files::SizeLimit::POSITION_LIST) {
        Ok(text) => Ok(text),
        Err(e) if e.is_not_found() => Ok(String::new()),
        Err(e) => Err(e.into()),
    }
}

fn sample(args: &SampleArgs) -> anyhow::Result<()> {
    anyhow::ensure!((2..=30).contains(&args.depth), "--depth must lie in 2..=30");
    anyhow::ensure!(
        args.min_empties >= 4 && args.min_empties <= args.max_empties && args.max_empties <= 59,
        "--min-empties and --max-empties must satisfy 4 <= min <= max <= 59"
    );
    anyhow::ensure!(args.hash >= 1, "--hash must be at least 1 MiB");
    let evaluator = EvalChoice::new(EvalKind::Trained, args.eval_file.as_deref())?.evaluator();
    let text = sample_text(&args.output)?;
    let (samples, keep) =
        read_sample(&text).with_context(|| format!("in {}", args.output.display()))?;
    // Values of other weights would mix two models in one fit.
    if let Some(s) = samples
        .iter()
        .find(|s| s.standing != Some(standing_value(&s.position, &evaluator)))
    {
        bail!(
            "{}: sample {} was searched with other weights (or before samples recorded their \
             evaluation): give the weights it began with, or another file",
            args.output.display(),
            s.index
        );
    }
    let done: BTreeSet<usize> = samples.iter().map(|s| s.index).collect();
    let games = read_games(&args.data)?;
    let positions = pick_positions(
        &games,
        args.positions,
        args.min_empties..=args.max_empties,
        args.seed,
    );
    if positions.len() < args.positions {
        bail!(
            "the games give only {} positions with {}-{} empties",
            positions.len(),
            args.min_empties,
            args.max_empties
        );
    }
    let todo: Vec<usize> = (0..positions.len()).filter(|i| !done.contains(i)).collect();
    eprintln!(
        "probcut sample: {} positions, {} already in {}, {} to search",
        positions.len(),
        done.len(),
        args.output.display(),
        todo.len()
    );
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.output)
        .with_context(|| format!("cannot open {}", args.output.display()))?;
    if keep < text.len() {
        eprintln!("probcut sample: an interrupted last line left out");
        file.set_len(keep as u64)
            .with_context(|| format!("cannot truncate {}", args.output.display()))?;
    }
    let file = Mutex::new(file);
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        let workers: Vec<_> = (0..args.threads.max(1))
            .map(|_| {
                scope.spawn(|| -> anyhow::Result<()> {
                    let mut tt = TranspositionTable::new(args.hash);
                    while let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let sampled = depth_values(
                            i,
                            &positions[i],
                            args.depth,
                            args.end,
                            &evaluator,
                            &mut tt,
                        );
                        let mut out = file.lock().map_err(|_| anyhow::anyhow!("writer failed"))?;
                        writeln!(out, "{}", sampled.line())
                            .and_then(|()| out.flush())
                            .with_context(|| format!("cannot write {}", args.output.display()))?;
                        let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
                        if n.is_multiple_of(20) || n == todo.len() {
                            let secs = started.elapsed().as_secs_f64();
                            let eta = secs / n as f64 * (todo.len() - n) as f64;
                            eprintln!(
                                "probcut sample: {n}/{} searched, {secs:.0} s, eta {eta:.0} s",
                                todo.len()
                            );
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        for worker in workers {
            worker
                .join()
                .map_err(|_| anyhow::anyhow!("a search thread panicked"))??;
        }
        Ok(())
    })
}

/// The samples of a sample file, which must hold some.
fn read_samples(
    path: &std::path::Path,
) -> anyhow::Result<Vec<engine::train::probcut::DepthValues>> {
    let text = sample_text(path)?;
    let (samples, _) = read_sample(&text).with_context(|| format!("in {}", path.display()))?;
    anyhow::ensure!(!samples.is_empty(), "{} has no sample", path.display());
    Ok(samples)
}

/// Prints the spreads a model is fitted to, a line per group.
fn print_spreads(spreads: &[Spread], depth: &str) {
    println!(
        "{depth:>7} {:>7} {:>6} {:>7} {:>6}",
        "empties", "count", "mean", "rms"
    );
    for s in spreads {
        println!(
            "{:>7} {:>7} {:>6} {:>7.2} {:>6.2}",
            s.depth,
            format!("{}-{}", s.empties, s.empties + EMPTIES_GROUP - 1),
            s.count,
            s.mean,
            s.rms
        );
    }
}

/// Writes a model file: `what` (comment lines), how it was made, then the model's line.
fn write_model(
    args: &FitArgs,
    command: &str,
    what: &str,
    positions: usize,
    model: &dyn std::fmt::Display,
) -> anyhow::Result<()> {
    let text = format!(
        "{what}# Made by: engine probcut {command} {} -o {} --min-count {} ({positions} positions)\n{model}\n",
        args.sample.display(),
        args.output.display(),
        args.min_count,
    );
    std::fs::write(&args.output, text)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    println!("{model}");
    println!("wrote {}", args.output.display());
    Ok(())
}

fn fit(args: &FitArgs) -> anyhow::Result<()> {
    let samples = read_samples(&args.sample)?;
    let spreads = spreads(&samples).with_context(|| format!("in {}", args.sample.display()))?;
    print_spreads(&spreads, "depth");
    let model = fit_sigma(&spreads, args.min_count)?;
    let what = "# Multi-ProbCut's model (docs/selectivity.md): the spread in discs of a deep search's\n\
                # value around the shallow one's, linear in empties, depth and shallow depth.\n";
    write_model(args, "fit", what, samples.len(), &model)
}

fn fit_end_model(args: &FitArgs) -> anyhow::Result<()> {
    let samples = read_samples(&args.sample)?;
    let spreads = end_spreads(&samples);
    print_spreads(&spreads, "shallow");
    let model = fit_end(&spreads, args.min_count)?;
    let solved = samples.iter().filter(|s| s.exact.is_some()).count();
    let what = "# The model of probable solves (docs/selectivity.md): the spread in discs of the exact\n\
                # score around a shallow search's value (depth: about a third of the empties, even),\n\
                # linear in empties.\n";
    write_model(args, "fit-end", what, solved, &model)
}
