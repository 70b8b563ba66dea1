//! The fixed benchmark behind `engine bench`: a node-count signature that pins the search's
//! behaviour (a test checks it), and the FFO endgame suite for speed.

use std::time::Duration;

use crate::game::{AnyPosition, GameId};
use crate::search::othello::eval::Evaluator;
use crate::search::{Limits, SearchParams, SearchResult, TranspositionTable, search, search_with};

/// Table size for every bench search, so the node counts are the same everywhere.
pub const BENCH_HASH_MIB: usize = 64;

/// One search of the fixed list.
#[derive(Clone, Debug)]
pub struct BenchCase {
    /// Game id.
    pub game: &'static str,
    /// `startpos` or a position text.
    pub position: &'static str,
    /// Depth of a heuristic search, or `None` for an exact solve.
    pub depth: Option<u32>,
}

/// Mid-game Othello at a fixed depth, an exact 8x8 endgame (16 empties), and Kalah.
pub const BENCH_CASES: &[BenchCase] = &[
    BenchCase {
        game: "othello8x8",
        position: "startpos",
        depth: Some(13),
    },
    BenchCase {
        game: "othello8x8",
        position: "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O",
        depth: Some(12),
    },
    BenchCase {
        game: "othello8x8",
        position: "-OOOOO----OOOO---OOOOX--XXXXXX---OXOOX--OOOXOX----OOXX----XXXX-- O",
        depth: Some(12),
    },
    BenchCase {
        game: "othello6x6",
        position: "startpos",
        depth: Some(14),
    },
    BenchCase {
        game: "othello8x8",
        position: "--O-XO----XXOXX---XOXXX-X-OXXOOOXXXXXOO-XOXOOX-OXOOXXXX-XOOOOO-X X",
        depth: None,
    },
    BenchCase {
        game: "kalah6x6",
        position: "startpos",
        depth: Some(12),
    },
    BenchCase {
        game: "kalah6x4",
        position: "startpos",
        depth: Some(14),
    },
];

/// The outcome of one bench case.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// What was searched: game, position, algorithm, depth or goal.
    pub case: BenchCase,
    /// Score value found.
    pub score: i32,
    /// Best move as text.
    pub best_move: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// Runs one case with a fresh table of [`BENCH_HASH_MIB`] (the signature is that of the
/// default parameters).
///
/// # Panics
/// If a built-in case is malformed (a test checks they are not).
#[must_use]
pub fn run_case(
    case: &BenchCase,
    tt: &mut TranspositionTable,
    params: &SearchParams,
    evaluator: &Evaluator,
) -> BenchLine {
    let game: GameId = case.game.parse().expect("bench game id");
    let position = game.position(case.position).expect("bench position");
    tt.clear();
    let limits = Limits::depth_or_exact(case.depth);
    let (score, best_move, nodes, time) = match position {
        AnyPosition::Othello(p) => summary(&search_with(
            &p,
            tt,
            params,
            evaluator,
            &limits,
            &mut |_| {},
        )),
        AnyPosition::Kalah(p) => summary(&search(&p, tt, params, &limits, &mut |_| {})),
    };
    BenchLine {
        case: case.clone(),
        score,
        best_move,
        nodes,
        time,
    }
}

fn summary<M: std::fmt::Display>(r: &SearchResult<M>) -> (i32, String, u64, Duration) {
    (
        r.score.value,
        r.best_move
            .as_ref()
            .map_or("none".into(), ToString::to_string),
        r.stats.nodes,
        r.time,
    )
}
