//! `engine bench`: the fixed list with its node-count signature, or `--ffo` endgames.

use std::time::{Duration, Instant};

use anyhow::bail;
use clap::Args;
use engine::bench::{BENCH_CASES, BENCH_HASH_MIB, run_case, solve_exact};
use engine::game::Game;
use engine::search::TranspositionTable;
use engine::suite::ffo;

use super::report;

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Solve FFO endgame positions instead of the fixed list.
    #[arg(long)]
    ffo: bool,
    /// First and last FFO position number (the shipped suite has 40..=59).
    #[arg(long, num_args = 2, value_names = ["FIRST", "LAST"], default_values_t = [40, 49])]
    range: Vec<u32>,
    /// Transposition table size in MiB for --ffo.
    #[arg(long, default_value_t = 512)]
    hash: usize,
}

pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    if args.ffo {
        return run_ffo(args);
    }
    let mut tt = TranspositionTable::new(BENCH_HASH_MIB);
    let started = Instant::now();
    let mut nodes = 0;
    for case in BENCH_CASES {
        let line = run_case(case, &mut tt);
        eprintln!(
            "{} {} depth {}: score {:+} best {} nodes {} time {:.3}",
            case.game,
            case.position,
            case.depth.map_or("end".into(), |d| d.to_string()),
            line.score,
            line.best_move,
            line.nodes,
            line.time.as_secs_f64()
        );
        nodes += line.nodes;
    }
    let time = started.elapsed();
    println!(
        "{nodes} nodes {} nps",
        (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64
    );
    Ok(())
}

fn run_ffo(args: &BenchArgs) -> anyhow::Result<()> {
    let (first, last) = (args.range[0], args.range[1]);
    let suite: Vec<_> = ffo()
        .into_iter()
        .filter(|p| {
            p.id.parse::<u32>()
                .is_ok_and(|n| (first..=last).contains(&n))
        })
        .collect();
    if suite.is_empty() {
        bail!("no FFO positions numbered {first}..={last} (the suite has 40..=59)");
    }
    let mut tt = TranspositionTable::new(args.hash);
    let (mut total_nodes, mut total_time, mut wrong) = (0u64, Duration::ZERO, 0);
    println!(
        "{:>4} {:>7} {:>6} {:>6} {:>5} {:>14} {:>9} {:>12}  pv",
        "ffo", "empties", "score", "known", "best", "nodes", "time (s)", "nodes/s"
    );
    for entry in &suite {
        tt.clear();
        let result = solve_exact(&entry.position, &mut tt);
        let best = result.best_move.map_or("none".into(), |m| m.to_string());
        let right = entry.score == Some(result.score.value) && entry.best_moves.contains(&best);
        if !right {
            wrong += 1;
        }
        println!(
            "{:>4} {:>7} {:>+6} {:>+6} {:>5} {:>14} {:>9.2} {:>12}  {}{}",
            entry.id,
            entry.position.empties().unwrap_or(0),
            result.score.value,
            entry.score.unwrap_or_default(),
            best,
            result.stats.nodes,
            result.time.as_secs_f64(),
            result.stats.nps(result.time),
            report::line(&result.pv),
            if right { "" } else { "  WRONG" }
        );
        total_nodes += result.stats.nodes;
        total_time += result.time;
    }
    println!(
        "total: {} positions, {total_nodes} nodes, {:.2} s, {} nodes/s",
        suite.len(),
        total_time.as_secs_f64(),
        (total_nodes as f64 / total_time.as_secs_f64().max(1e-6)) as u64
    );
    if wrong > 0 {
        bail!("{wrong} positions solved wrongly");
    }
    Ok(())
}
