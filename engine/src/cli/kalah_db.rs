//! `engine kalah-db build <pits> <max seeds> -o <file>`, `info <file>`, and the data
//! directory's databases: `install <pits>` and `list`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use clap::{Args, Subcommand};
use engine::data_dir::{DATA_DIR_ENV, default_data_dir, kalah_dir};
use engine::game::kalah::{EndRule, KalahRules};
use engine::search::kalah::{
    KalahDatabase, Storage, database_positions, default_install_seeds, installed_name,
    list_installed,
};

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
    /// Build the database a board needs into the data directory, where `KalahDatabase
    /// auto` (the default) finds it; an interrupted install resumes where it stopped.
    Install(InstallArgs),
    /// List the databases in the data directory.
    List {
        /// The data directory (default: $GAMESEARCH_DATA_DIR, else the platform's).
        #[arg(long, value_name = "DIR")]
        data_dir: Option<PathBuf>,
    },
}

#[derive(Debug, Args)]
struct InstallArgs {
    /// Pits a side (1..=6).
    #[arg(value_parser = clap::value_parser!(u8).range(1..=6))]
    pits: u8,
    /// Most seeds on the board (default: 4 a pit on both sides, at most about 1.3 G
    /// positions: 24 for 6 pits, 31 for 5).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=100))]
    seeds: Option<u32>,
    #[command(flatten)]
    rules: RuleArgs,
    /// The data directory (default: $GAMESEARCH_DATA_DIR, else the platform's).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// Threads building it (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
}

/// The rule set a database is built for.
#[derive(Debug, Args)]
struct RuleArgs {
    /// The commercial capture rule: no capture when the opposite pit is empty.
    #[arg(long)]
    no_empty_capture: bool,
    /// The game ends only when the side to move has no seeds.
    #[arg(long)]
    end_when_stuck: bool,
}

impl RuleArgs {
    fn rules(&self, pits: u8) -> anyhow::Result<KalahRules> {
        let mut rules = KalahRules::new(pits, 1)?;
        rules.empty_capture = !self.no_empty_capture;
        if self.end_when_stuck {
            rules.end = EndRule::MoverStuck;
        }
        Ok(rules)
    }
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
    #[command(flatten)]
    rules: RuleArgs,
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
        KalahDbCommand::Install(args) => install(args),
        KalahDbCommand::List { data_dir } => list(data_dir.as_deref()),
    }
}

/// The `kalah` folder of the data directory `--data-dir` names, or of the default one.
fn kalah_folder(data_dir: Option<&Path>) -> anyhow::Result<PathBuf> {
    let data = data_dir
        .map(Path::to_path_buf)
        .or_else(default_data_dir)
        .with_context(|| {
            format!("no data directory on this platform: give --data-dir or set {DATA_DIR_ENV}")
        })?;
    Ok(kalah_dir(&data))
}

fn install(args: &InstallArgs) -> anyhow::Result<()> {
    let rules = args.rules.rules(args.pits)?;
    let seeds = args
        .seeds
        .unwrap_or_else(|| default_install_seeds(args.pits));
    let dir = kalah_folder(args.data_dir.as_deref())?;
    let total = database_positions(args.pits, seeds);
    eprintln!(
        "installing {} in {}: {total} positions ({:.2} GB on disk and in memory) for {} pits, \
         at most {seeds} seeds",
        installed_name(rules, seeds),
        dir.display(),
        total as f64 / 1e9,
        args.pits,
    );
    let started = Instant::now();
    let mut resumed = None;
    let path = KalahDatabase::install(
        &dir,
        rules,
        seeds,
        threads(args.threads),
        &mut |n, kept| {
            if kept {
                resumed = Some(n);
                return;
            }
            if let Some(n) = resumed.take() {
                eprintln!("  seeds 0..={n} kept from the unfinished install");
            }
            let done = database_positions(args.pits, n);
            let elapsed = started.elapsed().as_secs_f64();
            eprintln!(
                "  seeds {n:>3}: {done:>13} positions, {:5.1}%, {elapsed:.1} s",
                100.0 * done as f64 / total as f64
            );
        },
        None,
    )?;
    let bytes = std::fs::metadata(&path)
        .with_context(|| format!("cannot read back {}", path.display()))?
        .len();
    println!(
        "{}: {}, {total} positions, {bytes} bytes, installed in {:.1} s",
        path.display(),
        KalahDatabase::check_file(&path)?,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn list(data_dir: Option<&Path>) -> anyhow::Result<()> {
    let dir = kalah_folder(data_dir)?;
    let found = list_installed(&dir)
        .with_context(|| format!("cannot read the data directory {}", dir.display()))?;
    if found.is_empty() {
        println!(
            "no Kalah database in {} (`engine kalah-db install <pits>` builds one)",
            dir.display()
        );
    }
    for db in found {
        let name = db
            .path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into());
        match db.content {
            Ok(c) => match c.partial {
                None => println!("{name}: {}, {} bytes", c.describe(), db.bytes),
                Some(layers) => println!(
                    "{name}: unfinished install of {}: {layers} of {} layers built (run the \
                     install again to resume)",
                    c.describe(),
                    c.max_seeds + 1
                ),
            },
            Err(e) => println!("{name}: unusable: {e}"),
        }
    }
    Ok(())
}

fn threads(asked: Option<u16>) -> usize {
    asked.map_or_else(engine::cores::available_cores, usize::from)
}

fn build(args: &BuildArgs) -> anyhow::Result<()> {
    let rules = args.rules.rules(args.pits)?;
    let total = database_positions(args.pits, args.max_seeds);
    eprintln!(
        "building {total} positions ({:.1} MiB) for {} pits, at most {} seeds",
        total as f64 / f64::from(1 << 20),
        args.pits,
        args.max_seeds
    );
    let started = Instant::now();
    let db = KalahDatabase::build(
        rules,
        args.max_seeds,
        threads(args.threads),
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
