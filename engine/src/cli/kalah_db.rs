//! `engine kalah-db build <pits> <max seeds> -o <file>` and `engine kalah-db info <file>`.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clap::{Args, Subcommand};
use engine::game::kalah::{EndRule, KalahRules};
use engine::search::kalah::{KalahDatabase, Storage, database_positions};

#[derive(Debug, Args)]
pub struct KalahDbArgs {
    #[command(subcommand)]
    command: KalahDbCommand,
}

#[derive(Debug, Subcommand)]
enum KalahDbCommand {
    /// Build the database of every board of at most <max seeds> seeds, by retrograde analysis.
    Build(BuildArgs),
    /// Say what a database file covers (reading and checking all of it).
    Info {
        /// A database file written by `kalah-db build`.
        file: PathBuf,
    },
}

#[derive(Debug, Args)]
struct BuildArgs {
    /// Pits a side (1..=6).
    #[arg(value_parser = clap::value_parser!(u8).range(1..=6))]
    pits: u8,
    /// Most seeds on the board.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=100))]
    max_seeds: u32,
    /// Where to write it.
    #[arg(short, long)]
    output: PathBuf,
    /// The commercial capture rule: no capture when the opposite pit is empty.
    #[arg(long)]
    no_empty_capture: bool,
    /// The game ends only when the side to move has no seeds.
    #[arg(long)]
    end_when_stuck: bool,
    /// Store plain bytes with a CRC-32 instead of compressing: about twice the size on disk,
    /// read several times faster.
    #[arg(long)]
    plain: bool,
    /// Threads building it (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
}

pub fn run(args: &KalahDbArgs) -> anyhow::Result<()> {
    match &args.command {
        KalahDbCommand::Build(args) => build(args),
        KalahDbCommand::Info { file } => {
            let db = KalahDatabase::load(file)?;
            println!(
                "{}: {}, {} positions",
                file.display(),
                db.describe(),
                db.positions()
            );
            Ok(())
        }
    }
}

fn build(args: &BuildArgs) -> anyhow::Result<()> {
    let mut rules = KalahRules::new(args.pits, 1)?;
    rules.empty_capture = !args.no_empty_capture;
    if args.end_when_stuck {
        rules.end = EndRule::MoverStuck;
    }
    let total = database_positions(args.pits, args.max_seeds);
    eprintln!(
        "building {total} positions ({:.1} MiB) for {} pits, at most {} seeds",
        total as f64 / f64::from(1 << 20),
        args.pits,
        args.max_seeds
    );
    let started = Instant::now();
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        usize::from,
    );
    let db = KalahDatabase::build(
        rules,
        args.max_seeds,
        threads,
        &mut |n| {
            eprintln!(
                "  seeds {n:>3}: {:>13} positions done, {:.1} s",
                database_positions(args.pits, n),
                started.elapsed().as_secs_f64()
            );
        },
        None,
    )?;
    let built = started.elapsed();
    let storage = if args.plain {
        Storage::Plain
    } else {
        Storage::Compressed
    };
    db.save(&args.output, storage)?;
    let bytes = std::fs::metadata(&args.output)
        .with_context(|| format!("cannot read back {}", args.output.display()))?
        .len();
    println!(
        "{}: {}, {} positions, built in {:.1} s, {} bytes on disk",
        args.output.display(),
        db.describe(),
        db.positions(),
        built.as_secs_f64(),
        bytes
    );
    Ok(())
}
