//! `engine bench`: the fixed list with its node-count signature, or endgame suites
//! (`--ffo` for the shipped FFO positions, `--file` for any FFO/OBF file), exact or
//! win/loss/draw (`--wld`), or searched within a depth or a node budget.

use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Args;
use engine::bench::{BENCH_CASES, BENCH_HASH_MIB, run_case};
use engine::game::Game;
use engine::game::othello::{Othello, OthelloMove};
use engine::search::othello::eval::Evaluator;
use engine::search::{
    Algorithm, Depth, Goal, Limits, Proof, SearchParams, SearchResult, Selectivity,
    SelectivitySchedule, TranspositionTable, search_with, solve_exact,
};
use engine::suite::{SuitePosition, ffo, parse_suite};

use super::report;

#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("budget").args(["depth", "nodes"]))]
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
    /// With --ffo or --file: only prove win, loss or draw (checked against the sign of the
    /// known score).
    #[arg(long)]
    wld: bool,
    /// With --ffo or --file: search each position to this depth (heuristic, iterative
    /// deepening) instead of solving it. Scores and moves are compared with the known
    /// ones, not checked (the summary says how often they stray); a depth that reaches
    /// the end (at least the empty squares) is an exact solve, at any selectivity.
    #[arg(long, conflicts_with = "wld")]
    depth: Option<u32>,
    /// With --ffo or --file: search each position with this many nodes as a move to play
    /// with `go nodes` is searched (deepening, probable solves at rising confidence where
    /// the search reaches the end, the proof; a solve from few empties), deterministic
    /// with one thread. Compared with the known scores as --depth is, and the summary
    /// says how far the searches got: what a timed move finds, without the clock's noise.
    #[arg(long, conflicts_with_all = ["wld", "depth"])]
    nodes: Option<u64>,
    /// With --depth or --nodes: Multi-ProbCut's confidence (58, 73, 87, 95, 98, 99, 100 =
    /// off: full width, or auto: 58 without a time limit).
    #[arg(long, default_value_t = SelectivitySchedule::default(), requires = "budget")]
    selectivity: SelectivitySchedule,
    /// The search at each iteration (negamax, alphabeta, negaalpha, negascout, mtdf;
    /// default: the game's own, negascout for Othello, mtdf for Kalah).
    #[arg(long)]
    algorithm: Option<Algorithm>,
    /// Search threads (1: deterministic node counts; above 1, --ffo and --file also print
    /// the main thread's nodes, for tools/scaling.sh).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    #[command(flatten)]
    eval: super::EvalArgs,
}

pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let params = SearchParams {
        algorithm: args.algorithm,
        threads: usize::from(args.threads),
        selectivity: args.selectivity,
        ..SearchParams::default()
    };
    let evaluator = args.eval.choice()?.evaluator();
    if let Some(path) = &args.file {
        let text = engine::files::read_text(path, engine::files::SizeLimit::POSITION_LIST)?;
        let suite = parse_suite(&text).with_context(|| format!("in {}", path.display()))?;
        return run_suite(&suite, args, &params, &evaluator);
    }
    if (args.wld || args.depth.is_some() || args.nodes.is_some()) && !args.ffo {
        bail!("--wld, --depth and --nodes need --ffo or --file");
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
        return run_suite(&suite, args, &params, &evaluator);
    }
    let mut tt = TranspositionTable::new(BENCH_HASH_MIB);
    let started = Instant::now();
    let mut nodes = 0;
    for case in BENCH_CASES {
        let line = run_case(case, &mut tt, &params, &evaluator);
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
    println!("{nodes} nodes {} nps", rate(nodes, time));
    Ok(())
}

/// Solves each position (exactly, or win/loss/draw with `wld`); a known score or best-move
/// list that disagrees fails. Prints one line per position, the total, and a summary by
/// number of empties: the figures to put beside another engine's.
fn run_suite(
    suite: &[SuitePosition],
    args: &BenchArgs,
    params: &SearchParams,
    evaluator: &Evaluator,
) -> anyhow::Result<()> {
    let wld = args.wld;
    let mut tt = TranspositionTable::new(args.hash);
    let limits = match (args.depth, args.nodes) {
        (Some(depth), _) => Limits::depth_or_exact(Some(depth)),
        (None, Some(nodes)) => Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        (None, None) => Limits {
            goal: if wld { Goal::Wld } else { Goal::Solve },
            ..Limits::default()
        },
    };
    // Scores compared with the known ones, not checked: a search within a budget.
    let budgeted = args.depth.is_some() || args.nodes.is_some();
    let mut reached = Reached::default();
    let mut by_empties: BTreeMap<u32, (usize, u64, Duration)> = BTreeMap::new();
    let (mut total_nodes, mut total_time, mut wrong) = (0u64, Duration::ZERO, 0);
    let mut main_nodes = 0u64;
    // With a depth: (positions with a known score, scores that differ, moves that differ).
    let mut strays = (0, 0, 0);
    println!(
        "{:>4} {:>7} {:>6} {:>6} {:>5} {:>14} {:>9} {:>12}  pv",
        "id", "empties", "score", "known", "best", "nodes", "time (s)", "nodes/s"
    );
    for entry in suite {
        tt.clear();
        let result = search_with(
            &entry.position,
            &mut tt,
            params,
            evaluator,
            &limits,
            &mut |_| {},
        );
        let best = result.best_move.map_or("none".into(), |m| m.to_string());
        let value = result.score.value;
        // The move is a best one: listed, or its exact value is the known best score.
        let best_is_known = |tt: &mut TranspositionTable| {
            let best_value = entry.score.unwrap_or(value);
            entry.best_moves.is_empty()
                || entry.best_moves.contains(&best)
                || result
                    .best_move
                    .is_some_and(|mv| ties(&entry.position, mv, best_value, tt))
        };
        reached.count(&result);
        let right = if budgeted {
            if let Some(known) = entry.score {
                strays.0 += 1;
                // A win/loss/draw proof's size is only a bound.
                strays.1 += usize::from(if result.score.proof == Proof::Wld {
                    known.signum() != value.signum()
                } else {
                    known != value
                });
                strays.2 += usize::from(!best_is_known(&mut tt));
            }
            true
        } else if wld {
            entry.score.is_none_or(|s| s.signum() == value.signum())
        } else {
            entry.score.is_none_or(|s| s == value) && best_is_known(&mut tt)
        };
        if !right {
            wrong += 1;
        }
        println!(
            "{:>4} {:>7} {:>+6} {:>6} {:>5} {:>14} {:>9.2} {:>12}  {}{}",
            entry.id,
            entry.position.empties().unwrap_or(0),
            value,
            entry.score.map_or("?".into(), |s| format!("{s:+}")),
            best,
            result.stats.nodes,
            result.time.as_secs_f64(),
            result.stats.nps(result.time),
            report::line(&result.pv),
            if right { "" } else { "  WRONG" }
        );
        let group = by_empties
            .entry(entry.position.empties().unwrap_or(0))
            .or_default();
        *group = (
            group.0 + 1,
            group.1 + result.stats.nodes,
            group.2 + result.time,
        );
        total_nodes += result.stats.nodes;
        main_nodes += result.main_nodes;
        total_time += result.time;
    }
    println!(
        "total: {} positions, {total_nodes} nodes, {:.2} s, {} nodes/s",
        suite.len(),
        total_time.as_secs_f64(),
        rate(total_nodes, total_time)
    );
    if params.threads > 1 {
        let helpers = (total_nodes - main_nodes) as f64 / (params.threads - 1) as f64;
        println!(
            "threads: {}, the main one {main_nodes} nodes, each helper {:.2}x as many on average",
            params.threads,
            helpers / main_nodes.max(1) as f64
        );
    }
    if strays.0 > 0 {
        println!(
            "against the known scores: {} of {} scores differ, {} best moves",
            strays.1, strays.0, strays.2
        );
    }
    if args.nodes.is_some() {
        println!("{reached}");
    }
    if by_empties.len() > 1 {
        println!(
            "{:>7} {:>10} {:>14} {:>9} {:>12}",
            "empties", "positions", "nodes", "time (s)", "nodes/s"
        );
        for (empties, (count, nodes, time)) in &by_empties {
            println!(
                "{empties:>7} {count:>10} {nodes:>14} {:>9.2} {:>12}",
                time.as_secs_f64(),
                rate(*nodes, *time)
            );
        }
    }
    if wrong > 0 {
        bail!("{wrong} positions solved wrongly");
    }
    Ok(())
}

/// Whether `mv`, a move the file does not list as best, is one too (a suite may list only
/// some of the tied best moves): its value, solved exactly, is `value`. Not timed.
fn ties(position: &Othello, mv: OthelloMove, value: i32, tt: &mut TranspositionTable) -> bool {
    tt.clear();
    let child = position.play(mv);
    -solve_exact(&child, tt).score.value == value
}

/// How far the searches of a suite got: proofs, probable solves by confidence, and
/// searches that stopped short of the end.
#[derive(Default)]
struct Reached {
    proofs: usize,
    wld_proofs: usize,
    probable: BTreeMap<Selectivity, usize>,
    short: usize,
}

impl Reached {
    /// Counts a search by its last finished iteration.
    fn count(&mut self, result: &SearchResult<OthelloMove>) {
        let last = result.iterations.last();
        match last.map(|it| (it.depth, it.score.proof, it.selectivity)) {
            Some((_, Proof::Solved, _)) => self.proofs += 1,
            Some((_, Proof::Wld, _)) => self.wld_proofs += 1,
            Some((Depth::End, Proof::Heuristic, level)) => {
                *self.probable.entry(level).or_default() += 1;
            }
            _ => self.short += 1,
        }
    }
}

impl fmt::Display for Reached {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "reached: {} exact proofs, {} win/loss/draw proofs, probable solves",
            self.proofs, self.wld_proofs
        )?;
        if self.probable.is_empty() {
            write!(f, " none")?;
        }
        for (level, count) in &self.probable {
            write!(f, " {count} at {level}%")?;
        }
        write!(f, ", {} short of the end", self.short)
    }
}

fn rate(nodes: u64, time: Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64
}
