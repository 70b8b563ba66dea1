//! `engine compare <preset | game position>`: every algorithm, with and without the table,
//! on one position, as in the papers' tables.

use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;
use engine::game::{AnyPosition, GameId};
use engine::search::{
    Algorithm, Limits, SearchParams, Searchable, Thresholds, TranspositionTable, search,
};
use engine::with_position;

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// A preset (4x4, 4x6, octagon, kalah) or a game id.
    #[arg(value_name = "PRESET|GAME")]
    what: String,
    /// With a game id: `startpos`, `parallel`, or a position text.
    #[arg(allow_hyphen_values = true)]
    position: Option<String>,
    /// Search depth (default: to the end of the game; the kalah preset uses 2..=8).
    #[arg(long)]
    depth: Option<u32>,
    /// Give up on a row after this many nodes (plain negamax on the larger boards).
    #[arg(long, default_value_t = 200_000_000)]
    max_nodes: u64,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

/// Evaluation counts the papers report, by (preset start, algorithm, table).
fn seeds_figure(setup: &str, algorithm: Algorithm, use_tt: bool) -> Option<u64> {
    use Algorithm::{AlphaBeta, Mtdf, NegaAlpha, NegaScout, Negamax};
    Some(match (setup, algorithm, use_tt) {
        ("othello4x4 startpos", Negamax, false) => 60_060,
        ("othello4x4 parallel", Negamax, false) => 67_116,
        ("othello4x4 startpos", Negamax, true) => 22_022,
        ("othello4x4 startpos", AlphaBeta, false) => 10_016,
        ("othello4x4 parallel", AlphaBeta, false) => 13_590,
        ("othello4x4 startpos", NegaAlpha, false) => 718,
        ("othello4x4 parallel", NegaAlpha, false) => 1_059,
        ("othello4x6 startpos", AlphaBeta, false) => 22_029_381,
        ("othello4x6 parallel", AlphaBeta, false) => 20_608_101,
        ("othello4x6 startpos", NegaAlpha, false) => 211_710,
        ("othello4x6 parallel", NegaAlpha, false) => 513_340,
        ("octagon startpos", AlphaBeta, false) => 1_690_895,
        ("octagon parallel", AlphaBeta, false) => 898_585,
        ("octagon startpos", AlphaBeta, true) => 924_065,
        ("octagon parallel", AlphaBeta, true) => 551_341,
        ("octagon startpos", NegaScout, false) => 1_309_977,
        ("octagon parallel", NegaScout, false) => 524_627,
        ("octagon startpos", NegaScout, true) => 691_090,
        ("octagon parallel", NegaScout, true) => 270_972,
        ("octagon startpos", Mtdf, true) => 577_479,
        ("octagon parallel", Mtdf, true) => 252_897,
        _ => return None,
    })
}

pub fn run(args: &CompareArgs) -> anyhow::Result<()> {
    let setups: Vec<(String, Option<u32>)> = match (args.what.as_str(), &args.position) {
        (preset, None) => match preset {
            "4x4" | "4x6" => ["startpos", "parallel"]
                .iter()
                .map(|s| (format!("othello{preset} {s}"), args.depth))
                .collect(),
            "octagon" => vec![
                ("octagon startpos".into(), args.depth),
                ("octagon parallel".into(), args.depth),
            ],
            "kalah" => match args.depth {
                Some(d) => vec![("kalah6x6 startpos".into(), Some(d))],
                None => (2..=8)
                    .map(|d| ("kalah6x6 startpos".into(), Some(d)))
                    .collect(),
            },
            other => {
                bail!("unknown preset '{other}' (4x4, 4x6, octagon, kalah, or: <game> <position>)")
            }
        },
        (game, Some(position)) => vec![(format!("{game} {position}"), args.depth)],
    };
    let mut tt = TranspositionTable::new(args.hash);
    for (setup, depth) in setups {
        let (game, text) = setup.split_once(' ').unwrap_or((&setup, "startpos"));
        let game: GameId = game.parse()?;
        let position: AnyPosition = game
            .position(text)
            .with_context(|| format!("bad position '{text}'"))?;
        let depth_text = depth.map_or("end".to_string(), |d| d.to_string());
        println!("\n{setup}, depth {depth_text}");
        println!(
            "{:<20} {:>6} {:>14} {:>12} {:>14} {:>10} {:>14}",
            "algorithm", "value", "evaluations", "table hits", "nodes", "time (s)", "papers' evals"
        );
        for (algorithm, use_tt, iterative) in rows() {
            let params = SearchParams {
                algorithm: Some(algorithm),
                use_tt,
                iterative,
                // The seeds start MTD(f) from 0 and count every leaf, with no special endgame code.
                first_guess: (!iterative).then_some(0),
                principal_variation: false,
                thresholds: Thresholds {
                    small_solver_empties: 0,
                    ..Thresholds::default()
                },
                ..SearchParams::default()
            };
            let limits = Limits {
                nodes: Some(args.max_nodes),
                ..Limits::depth_or_exact(depth)
            };
            tt.clear();
            let row = with_position!(position, p => run_row(&p, &mut tt, &params, &limits));
            let name = format!(
                "{algorithm}{}{}",
                if use_tt { " +table" } else { "" },
                if iterative { " +ID" } else { "" }
            );
            let seeds = if iterative {
                None
            } else {
                seeds_figure(&setup, algorithm, use_tt)
            };
            let value = row.value.map_or("-".to_string(), |v| format!("{v:+}"));
            println!(
                "{name:<20} {value:>6} {:>14} {:>12} {:>14} {:>10.3} {:>14}",
                if row.value.is_some() {
                    row.evals.to_string()
                } else {
                    format!(">{}", row.evals)
                },
                row.hits,
                row.nodes,
                row.time.as_secs_f64(),
                seeds.map_or(String::new(), |s| s.to_string())
            );
        }
    }
    Ok(())
}

/// Every algorithm without and with the table, then MTD(f) driven by iterative deepening.
fn rows() -> impl Iterator<Item = (Algorithm, bool, bool)> {
    Algorithm::ALL
        .into_iter()
        .flat_map(|a| [(a, false, false), (a, true, false)])
        .chain([(Algorithm::Mtdf, true, true)])
}

struct Row {
    /// `None` when the node limit stopped the search.
    value: Option<i32>,
    evals: u64,
    hits: u64,
    nodes: u64,
    time: Duration,
}

fn run_row<G: Searchable>(
    position: &G,
    tt: &mut TranspositionTable,
    params: &SearchParams,
    limits: &Limits,
) -> Row {
    let result = search(position, tt, params, limits, &mut |_| {});
    Row {
        value: (!result.stopped).then_some(result.score.value),
        evals: result.stats.leaf_evals,
        hits: result.stats.tt_hits,
        nodes: result.stats.nodes,
        time: result.time,
    }
}
