//! `engine label solve|search|merge|info`: labels for training, from our solver (exact)
//! or our search (for positions too far from the end to solve).

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use engine::match_runner::Shard;
use engine::search::Selectivity;
use engine::train::games::read_games;
use engine::train::labels::{LabelsHeader, Method, describe, label, merge, read_labels, select};

#[derive(Debug, Args)]
pub struct LabelArgs {
    #[command(subcommand)]
    command: LabelCommand,
}

#[derive(Debug, Subcommand)]
enum LabelCommand {
    /// Solve the positions of the training games with a range of empties (one per
    /// symmetry class; held-out games left out) and append them to a labels file;
    /// run again, it resumes.
    Solve(SolveArgs),
    /// Value the positions of the training games with a range of empties by a search of
    /// a given depth (one per symmetry class; held-out games left out) and append them to
    /// a labels file; run again, it resumes.
    Search(SearchArgs),
    /// Combine the files of a run's shards into one.
    Merge {
        /// The shards' files.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The combined file.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Say what a labels file holds (reading and checking all of it).
    Info {
        /// A labels file.
        file: PathBuf,
    },
}

#[derive(Debug, Args)]
struct SolveArgs {
    /// Empty squares of the positions: `N` or `LO-HI` (at most 30).
    #[arg(long, value_parser = parse_solve_empties)]
    empties: (u32, u32),
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Debug, Args)]
struct SearchArgs {
    /// Empty squares of the positions: `N` or `LO-HI`.
    #[arg(long, value_parser = parse_empties)]
    empties: (u32, u32),
    /// Depth of the search (plies; a position it takes to the end is solved exactly).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    /// Multi-ProbCut's confidence (58, 73, 87, 95, 98, 99, or 100 = full width).
    #[arg(long, default_value_t = Selectivity::DATA)]
    selectivity: Selectivity,
    #[command(flatten)]
    run: RunArgs,
}

/// What every labelling run takes.
#[derive(Debug, Args)]
struct RunArgs {
    /// Folder of game records, or one game file (as for `engine train`).
    data: PathBuf,
    /// The labels file (appended to: a run interrupted resumes).
    #[arg(short, long)]
    output: PathBuf,
    /// Label only every n-th position from the i-th (`i/n`), e.g. one machine of n.
    #[arg(long, default_value = "1/1")]
    shard: Shard,
    /// Threads labelling.
    #[arg(long, default_value_t = engine::cores::available_cores())]
    threads: usize,
}

/// `N` or `LO-HI` empties, at most `max`.
fn empties_up_to(text: &str, max: u32) -> Result<(u32, u32), String> {
    let bad = || format!("'{text}' is not N or LO-HI empties (at most {max})");
    let (lo, hi) = text.split_once('-').unwrap_or((text, text));
    let lo: u32 = lo.trim().parse().map_err(|_| bad())?;
    let hi: u32 = hi.trim().parse().map_err(|_| bad())?;
    if lo > hi || hi > max {
        return Err(bad());
    }
    Ok((lo, hi))
}

fn parse_solve_empties(text: &str) -> Result<(u32, u32), String> {
    empties_up_to(text, 30)
}

fn parse_empties(text: &str) -> Result<(u32, u32), String> {
    empties_up_to(text, 60)
}

pub fn run(args: &LabelArgs) -> anyhow::Result<()> {
    match &args.command {
        LabelCommand::Solve(args) => run_labelling(&args.run, args.empties, Method::Exact),
        LabelCommand::Search(args) => run_labelling(
            &args.run,
            args.empties,
            Method::Search {
                depth: args.depth,
                selectivity: args.selectivity,
            },
        ),
        LabelCommand::Merge { inputs, output } => {
            let inputs: Vec<&std::path::Path> = inputs.iter().map(PathBuf::as_path).collect();
            let n = merge(&inputs, output)?;
            println!("{}: {n} positions", output.display());
            Ok(())
        }
        LabelCommand::Info { file } => {
            let (header, samples) = read_labels(file)?;
            let (lo, hi) = header.empties;
            let mut counts = vec![0usize; (hi - lo + 1) as usize];
            for s in &samples {
                counts[(s.empties() - lo) as usize] += 1;
            }
            println!(
                "{}: {}, {} positions",
                file.display(),
                describe(&header),
                samples.len()
            );
            for (e, n) in (lo..=hi).zip(counts) {
                println!("  {e:>2} empties: {n}");
            }
            Ok(())
        }
    }
}

fn run_labelling(args: &RunArgs, empties: (u32, u32), method: Method) -> anyhow::Result<()> {
    let started = Instant::now();
    let games = read_games(&args.data)?;
    let (lo, hi) = empties;
    let positions = select(&games, lo..=hi);
    let header = LabelsHeader {
        empties,
        shard: Some(args.shard),
        method,
    };
    eprintln!(
        "{} games, {} positions with {lo}-{hi} empties (one per symmetry class): {}",
        games.len(),
        positions.len(),
        describe(&header)
    );
    let mut progress = super::report::RunProgress::new(started);
    label(
        &positions,
        empties,
        args.shard,
        method,
        &args.output,
        args.threads,
        &mut |done, total| eprintln!("{}", progress.line(done, total, "labelled")),
    )?;
    println!(
        "{}: {} in {:.0} s",
        args.output.display(),
        describe(&header),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
