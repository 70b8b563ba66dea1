//! Command-line parsing and the subcommands.

mod bench;
mod compare;
mod perft;
mod report;
mod solve;

use clap::{Parser, Subcommand};

/// Game-search engine for Othello and Kalah.
#[derive(Debug, Parser)]
#[command(name = "engine", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaves of the game tree to a depth (a pass is a ply; a finished game is one leaf).
    Perft(perft::PerftArgs),
    /// Solve a position exactly (or prove win/loss/draw): score, best move, PV, nodes, time.
    Solve(solve::SolveArgs),
    /// Run every algorithm, with and without the table, on one position (the seeds' tables).
    Compare(compare::CompareArgs),
    /// Fixed benchmark with a node-count signature; --ffo solves FFO endgame positions.
    Bench(bench::BenchArgs),
}

/// Runs the parsed command line.
///
/// # Errors
/// Any failure of the command, with a one-line reason.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Compare(args) => compare::run(&args),
        Command::Bench(args) => bench::run(&args),
    }
}
