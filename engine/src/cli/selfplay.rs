//! `engine selfplay -o games.gam --games N`: self-play games for training the evaluation.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use engine::match_runner::Shard;
use engine::search::Selectivity;
use engine::train::selfplay::{OpeningPlies, SelfPlaySettings, self_play};

#[derive(Debug, Args)]
pub struct SelfPlayArgs {
    /// The games file (`.gam` text, which `engine train` reads; appended to: a run
    /// interrupted resumes).
    #[arg(short, long)]
    output: PathBuf,
    /// Games of the whole run (over all shards); run again with more, it plays on.
    #[arg(long)]
    games: usize,
    /// Plies played at random from the start: a count, or a range each game draws its
    /// count from (`10-40`), at most 50.
    #[arg(long, default_value = "10")]
    opening_plies: OpeningPlies,
    /// Mark each game's random plies after its result (`random N`), so that `engine
    /// train` labels only the positions after them: what a game scores after a random
    /// move does not value the positions before it.
    #[arg(long)]
    unlabelled_openings: bool,
    /// Keep only random openings that the search of `--depth` values within this many
    /// discs of a draw (others are drawn again): games from balanced positions, as
    /// matches start from.
    #[arg(long, value_name = "DISCS", value_parser = clap::value_parser!(u32).range(0..=64))]
    balanced: Option<u32>,
    /// Depth of the search that chooses the later moves.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: u32,
    /// Multi-ProbCut's confidence in that search (58, 73, 87, 95, 98, 99, or 100 = full width).
    #[arg(long, default_value_t = Selectivity::DATA)]
    selectivity: Selectivity,
    /// Solve exactly, and play perfectly, from this many empty squares on (at most 30).
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(0..=30))]
    solve_empties: u32,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only the games `k` with `k mod n = i - 1` (`i/n`), e.g. one machine of n.
    #[arg(long, default_value = "1/1")]
    shard: Shard,
    /// Threads playing (a game each).
    #[arg(long, default_value_t = engine::cores::available_cores())]
    threads: usize,
}

pub fn run(args: &SelfPlayArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let settings = SelfPlaySettings {
        opening_plies: args.opening_plies,
        unlabelled_openings: args.unlabelled_openings,
        balanced: args.balanced,
        depth: args.depth,
        selectivity: args.selectivity,
        solve_empties: args.solve_empties,
        seed: args.seed,
        shard: args.shard,
    };
    eprintln!("{}", settings.header().trim_start_matches("# "));
    let mut progress = super::report::RunProgress::new(started);
    let mut reported: Option<f64> = None;
    let held = self_play(
        &settings,
        args.games,
        &args.output,
        args.threads,
        &mut |done, total| {
            // A line every ten seconds at most, the first and the last.
            let elapsed = started.elapsed().as_secs_f64();
            if reported.is_some_and(|at| done < total && elapsed - at < 10.0) {
                return;
            }
            reported = Some(elapsed);
            eprintln!("{}", progress.line(done, total, "games"));
        },
    )?;
    println!(
        "{}: {held} games (shard {}) in {:.0} s",
        args.output.display(),
        args.shard,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
