//! `engine solve <game> <position>` and `engine solve --file <suite>`.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;
use engine::game::{AnyPosition, GameId};
use engine::search::{
    Algorithm, Goal, Limits, SearchParams, Searchable, TranspositionTable, search_with,
};
use engine::suite::parse_suite;

use super::report;

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Game id (othello8x8, othello6x6, othello4x4, othello4x6, octagon, kalah<P>x<S>...).
    #[arg(required_unless_present = "file")]
    game: Option<GameId>,
    /// `startpos`, `parallel`, or a position text (quote it: it contains a space).
    #[arg(required_unless_present = "file", allow_hyphen_values = true)]
    position: Option<String>,
    /// Solve every position of an FFO/OBF suite file (8x8 Othello) and check known scores.
    #[arg(long, conflicts_with_all = ["game", "position"])]
    file: Option<PathBuf>,
    /// Only prove win, loss or draw.
    #[arg(long)]
    wld: bool,
    /// The search at each iteration (negamax, alphabeta, negaalpha, negascout, mtdf;
    /// default: the game's own, negascout for Othello, mtdf for Kalah).
    #[arg(long)]
    algorithm: Option<Algorithm>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256)]
    hash: usize,
    /// Search threads (1: deterministic node counts).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    #[command(flatten)]
    eval: super::EvalArgs,
    #[command(flatten)]
    kalah_db: super::KalahDbArg,
}

pub fn run(args: &SolveArgs) -> anyhow::Result<()> {
    let mut tt = TranspositionTable::new(args.hash);
    let evaluator = args.eval.choice()?.evaluator();
    let params = SearchParams {
        algorithm: args.algorithm,
        threads: usize::from(args.threads),
        ..SearchParams::default()
    };
    let limits = Limits {
        goal: if args.wld { Goal::Wld } else { Goal::Solve },
        ..Limits::default()
    };
    if let Some(file) = &args.file {
        let text = engine::files::read_text(file, engine::files::SizeLimit::POSITION_LIST)?;
        let suite = parse_suite(&text).with_context(|| format!("in {}", file.display()))?;
        let mut wrong = 0;
        for entry in &suite {
            tt.clear();
            let (value, _) = solve_one(
                &entry.position,
                &evaluator,
                &mut tt,
                &params,
                &limits,
                &entry.id,
            );
            if entry.score.is_some_and(|s| s != value) && !args.wld {
                eprintln!(
                    "#{}: expected {:+}, got {value:+}",
                    entry.id,
                    entry.score.unwrap_or_default()
                );
                wrong += 1;
            }
        }
        if wrong > 0 {
            bail!(
                "{wrong} of {} positions solved to a different score than the file gives",
                suite.len()
            );
        }
        return Ok(());
    }
    let (Some(game), Some(text)) = (args.game, &args.position) else {
        bail!("give a game and a position, or --file");
    };
    let position = game
        .position(text)
        .with_context(|| format!("bad position '{text}'"))?;
    // Each game's own resources: Kalah's database.
    match position {
        AnyPosition::Othello(p) => solve_one(&p, &evaluator, &mut tt, &params, &limits, ""),
        AnyPosition::Kalah(p) => {
            let database = args.kalah_db.obtain(game)?;
            solve_one(&p, &database, &mut tt, &params, &limits, "")
        }
    };
    Ok(())
}

/// Solves one position, printing the result; returns the score and the time taken.
fn solve_one<G: Searchable>(
    position: &G,
    resources: &G::Resources,
    tt: &mut TranspositionTable,
    params: &SearchParams,
    limits: &Limits,
    label: &str,
) -> (i32, Duration) {
    let result = search_with(
        position,
        tt,
        params,
        resources,
        limits,
        &mut report::progress,
    );
    let prefix = if label.is_empty() {
        String::new()
    } else {
        format!("#{label} ")
    };
    println!(
        "{prefix}score {} best {} pv {}",
        report::score(&result.score),
        result
            .best_move
            .map_or("none".to_string(), |m| m.to_string()),
        report::line(&result.pv)
    );
    println!(
        "{prefix}nodes {} time {:.3} s nps {}",
        result.stats.nodes,
        result.time.as_secs_f64(),
        result.stats.nps(result.time)
    );
    (result.score.value, result.time)
}
