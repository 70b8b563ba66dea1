//! `engine bench`: the fixed list with its node-count signature, or endgame suites
//! (`--ffo` for the shipped FFO positions, `--file` for any FFO/OBF file).

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Args;
use engine::bench::{BENCH_CASES, BENCH_HASH_MIB, run_case};
use engine::game::Game;
use engine::search::TranspositionTable;
use engine::search::solve_exact;
use engine::suite::{SuitePosition, ffo, parse_suite};

use super::report;

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Solve FFO endgame positions instead of the fixed list.
    #[arg(long)]
    ffo: bool,
    /// First and last FFO position number (the shipped suite has 40..=59).
    #[arg(long, num_args = 2, value_names = ["FIRST", "LAST"], default_values_t = [40, 49])]
    range: Vec<u32>,
    /// Solve every position of an FFO/OBF suite file instead.
    #[arg(long, value_name = "FILE", conflicts_with = "ffo")]
    file: Option<std::path::PathBuf>,
    /// Transposition table size in MiB for --ffo and --file.
    #[arg(long, default_value_t = 512)]
    hash: usize,
}

pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    if let Some(path) = &args.file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let suite = parse_suite(&text).with_context(|| format!("in {}", path.display()))?;
        return run_suite(&suite, args.hash);
    }
    if args.ffo {
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
        return run_suite(&suite, args.hash);
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

/// Solves each position exactly; a known score or best-move list that disagrees fails.
fn run_suite(suite: &[SuitePosition], hash_mib: usize) -> anyhow::Result<()> {
    let mut tt = TranspositionTable::new(hash_mib);
    let (mut total_nodes, mut total_time, mut wrong) = (0u64, Duration::ZERO, 0);
    println!(
        "{:>4} {:>7} {:>6} {:>6} {:>5} {:>14} {:>9} {:>12}  pv",
        "ffo", "empties", "score", "known", "best", "nodes", "time (s)", "nodes/s"
    );
    for entry in suite {
        tt.clear();
        let result = solve_exact(&entry.position, &mut tt);
        let best = result.best_move.map_or("none".into(), |m| m.to_string());
        let right = entry.score.is_none_or(|s| s == result.score.value)
            && (entry.best_moves.is_empty() || entry.best_moves.contains(&best));
        if !right {
            wrong += 1;
        }
        println!(
            "{:>4} {:>7} {:>+6} {:>6} {:>5} {:>14} {:>9.2} {:>12}  {}{}",
            entry.id,
            entry.position.empties().unwrap_or(0),
            result.score.value,
            entry.score.map_or("?".into(), |s| format!("{s:+}")),
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
