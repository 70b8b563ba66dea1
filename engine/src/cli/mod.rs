//! Command-line parsing and the subcommands.

mod perft;

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
}

/// Runs the parsed command line.
///
/// # Errors
/// Any failure of the command, with a one-line reason.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Perft(args) => perft::run(&args),
    }
}
