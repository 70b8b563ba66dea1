//! Command-line parsing and the subcommands; with none, the protocol server.

mod bench;
mod book;
mod compare;
mod kalah_db;
mod label;
mod matches;
mod perft;
mod probcut;
mod report;
mod selfplay;
mod solve;
mod train;

use std::io::{BufRead, Read};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use std::sync::Arc;

use engine::data_dir::{default_data_dir, kalah_dir};
use engine::fronts::Protocol;
use engine::game::GameId;
use engine::search::SelectivitySchedule;
use engine::search::kalah::{AutoContext, DatabaseCache, DatabaseSource, KalahDatabase};
use engine::search::othello::eval::{EvalChoice, EvalKind};
use engine::server::{self, EngineDefaults, FileAccess, ServerConfig};

/// Game-search engine for Othello and Kalah.
///
/// With no command it serves the protocol of PROTOCOL.md on stdin/stdout, or with
/// --listen over TCP.
#[derive(Debug, Parser)]
#[command(
    name = "engine",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    server: ServerArgs,
}

/// Options of the protocol server.
#[derive(Debug, Args)]
struct ServerArgs {
    /// Serve TCP on this address (`host:port`; a port alone binds 127.0.0.1).
    #[arg(long, value_name = "ADDR")]
    listen: Option<String>,
    /// Most TCP clients served at once.
    #[arg(long, default_value_t = ServerConfig::default().max_connections)]
    max_connections: usize,
    /// Longest accepted input line, in bytes.
    #[arg(long, default_value_t = ServerConfig::default().max_line_bytes)]
    max_line_bytes: usize,
    /// Total MiB of transposition tables over all sessions.
    #[arg(long, value_name = "MIB", default_value_t = ServerConfig::default().engine.table_memory_mib)]
    table_memory: usize,
    /// The largest table (option Hash) one session may set, in MiB (at most --table-memory).
    #[arg(long, value_name = "MIB", default_value_t = ServerConfig::default().engine.max_hash_mib)]
    max_hash: usize,
    /// A new session's table size (option Hash) in MiB.
    #[arg(long, value_name = "MIB", default_value_t = ServerConfig::default().engine.hash_mib)]
    hash: usize,
    /// Bytes of output a client may leave unread before its session is ended.
    #[arg(long, value_name = "BYTES", default_value_t = ServerConfig::default().max_output_bytes)]
    max_output_bytes: usize,
    /// Seconds a TCP client may send no line while no search of its runs before it is
    /// disconnected (0: never).
    #[arg(long, value_name = "SECONDS", default_value_t = default_idle_timeout())]
    idle_timeout: u64,
    /// Speak the NBoard protocol on stdin/stdout (also chosen when the first line is
    /// `nboard <version>`).
    #[arg(long, conflicts_with = "listen")]
    nboard: bool,
    /// Multi-ProbCut's confidence of a new session's heuristic searches (option
    /// `Selectivity`; the NBoard mode's, which has no options): auto (73 with 300 ms
    /// or more a move, else 58), 58, 73, 87, 95, 98, 99 or 100 (full width).
    #[arg(long, value_name = "PERCENT", default_value_t = SelectivitySchedule::PLAY)]
    selectivity: SelectivitySchedule,
    /// New sessions (and the NBoard mode) start with the opening book off (option
    /// `OwnBook`): every move is searched.
    #[arg(long)]
    no_book: bool,
    /// Search threads of a new session (option `Threads`; the NBoard mode's threads).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Search threads of all sessions together; a `go` gets what is free of them (see
    /// PROTOCOL.md).
    #[arg(long, default_value_t = ServerConfig::default().engine.max_threads)]
    max_threads: usize,
    /// The engine's data directory (`KalahDatabase auto` finds installed databases in its
    /// `kalah` folder), whose files TCP clients may name in options (`EvalFile`,
    /// `KalahDatabase`); repeat for more directories they may name. Default: $GAMESEARCH_DATA_DIR,
    /// else the platform's data directory (~/.local/share/gamesearch on Linux).
    #[arg(long, value_name = "DIR")]
    data_dir: Vec<PathBuf>,
    /// Let TCP clients name any file the engine can read (only for trusted networks).
    #[arg(long, conflicts_with = "data_dir")]
    allow_remote_files: bool,
    #[command(flatten)]
    eval: EvalArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaves of the game tree to a depth (a pass is a ply; a finished game is one leaf).
    Perft(perft::PerftArgs),
    /// Solve a position exactly (or prove win/loss/draw): score, best move, PV, nodes, time.
    Solve(solve::SolveArgs),
    /// Run every algorithm, with and without the table, on one position (the papers' tables).
    Compare(compare::CompareArgs),
    /// Fixed benchmark with a node-count signature; --ffo solves FFO endgame positions.
    Bench(bench::BenchArgs),
    /// Play engines against each other: openings, clocks, faults, Elo, SPRT, results file.
    Match(Box<matches::MatchArgs>),
    /// Fit the 8x8 pattern evaluation to game records (WTHOR, Logistello) and write its weights.
    Train(train::TrainArgs),
    /// Mean absolute error of the evaluations against exact scores of held-out positions.
    Accuracy(train::AccuracyArgs),
    /// Kalah endgame databases: install one where `go solve` finds it, build one into a
    /// file, list them, or say what a file covers.
    KalahDb(kalah_db::KalahDbArgs),
    /// Labels for training: solve the game records' positions with some empties, or value
    /// them by a search.
    Label(label::LabelArgs),
    /// Self-play games for training: random openings, a search's moves, perfect play at the end.
    Selfplay(selfplay::SelfPlayArgs),
    /// The opening book: build one from game records, deepen it, add games, show its moves.
    Book(book::BookArgs),
    /// Multi-ProbCut's model: sample our searches at every depth, then fit it.
    Probcut(probcut::ProbcutArgs),
}

impl Cli {
    /// True for the protocol servers (no subcommand) and the match runner: long-running
    /// processes that talk through pipes and sockets and handle every failed write.
    #[must_use]
    pub fn serves(&self) -> bool {
        matches!(self.command, None | Some(Command::Match(_)))
    }
}

/// Runs the parsed command line.
///
/// # Errors
/// Any failure of the command, with a one-line reason.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Compare(args)) => compare::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Match(args)) => matches::run(&args),
        Some(Command::Train(args)) => train::run_train(&args),
        Some(Command::Accuracy(args)) => train::run_accuracy(&args),
        Some(Command::KalahDb(args)) => kalah_db::run(&args),
        Some(Command::Label(args)) => label::run(&args),
        Some(Command::Selfplay(args)) => selfplay::run(&args),
        Some(Command::Probcut(args)) => probcut::run(&args),
        Some(Command::Book(args)) => book::run(&args),
        None => serve(&cli.server),
    }
}

fn default_idle_timeout() -> u64 {
    ServerConfig::default()
        .idle_timeout
        .map_or(0, |t| t.as_secs())
}

fn serve(args: &ServerArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.max_connections >= 1,
        "--max-connections must be at least 1"
    );
    anyhow::ensure!(
        args.max_line_bytes >= 64,
        "--max-line-bytes must be at least 64"
    );
    anyhow::ensure!(
        args.table_memory >= 1,
        "--table-memory must be at least 1 MiB"
    );
    anyhow::ensure!(args.max_hash >= 1, "--max-hash must be at least 1 MiB");
    anyhow::ensure!(
        (1..=1024).contains(&args.max_threads),
        "--max-threads must be between 1 and 1024"
    );
    anyhow::ensure!(
        (1..=args.max_threads).contains(&args.threads),
        "--threads must be between 1 and --max-threads ({})",
        args.max_threads
    );
    let max_hash = args.max_hash.min(args.table_memory);
    anyhow::ensure!(
        (1..=max_hash).contains(&args.hash),
        "--hash must be between 1 and --max-hash and --table-memory ({max_hash} MiB)"
    );
    anyhow::ensure!(
        args.max_output_bytes >= args.max_line_bytes,
        "--max-output-bytes must be at least --max-line-bytes ({})",
        args.max_line_bytes
    );
    let named = args.data_dir.iter().map(|dir| {
        dir.canonicalize()
            .ok()
            .filter(|d| d.is_dir())
            .with_context(|| format!("--data-dir {}: not a directory", dir.display()))
    });
    let mut data_dirs = named.collect::<anyhow::Result<Vec<_>>>()?;
    if data_dirs.is_empty() {
        // The default need not exist yet: `kalah-db install` makes it.
        let default = default_data_dir();
        data_dirs.extend(default.map(|d| d.canonicalize().unwrap_or(d)));
    }
    let data_dir = data_dirs.first().cloned();
    let remote_files = if args.allow_remote_files {
        FileAccess::Any
    } else {
        FileAccess::Under(data_dirs)
    };
    let config = ServerConfig {
        remote_files,
        max_line_bytes: args.max_line_bytes,
        max_connections: args.max_connections,
        max_output_bytes: args.max_output_bytes,
        idle_timeout: (args.idle_timeout > 0).then(|| Duration::from_secs(args.idle_timeout)),
        engine: EngineDefaults {
            table_memory_mib: args.table_memory,
            max_hash_mib: args.max_hash,
            hash_mib: args.hash,
            eval: args.eval.choice()?,
            max_threads: args.max_threads,
            threads: args.threads,
            selectivity: args.selectivity,
            own_book: !args.no_book,
            data_dir,
        },
    };
    if let Some(addr) = &args.listen {
        return server::serve_tcp(addr, config);
    }
    // The first line tells which protocol the frontend speaks.
    let mut first = Vec::new();
    std::io::stdin()
        .lock()
        .take(args.max_line_bytes as u64 + 1)
        .read_until(b'\n', &mut first)
        .context("cannot read stdin")?;
    let nboard_first = String::from_utf8_lossy(&first).split_whitespace().next() == Some("nboard");
    let protocol = if args.nboard || nboard_first {
        Protocol::Nboard
    } else {
        Protocol::Native
    };
    server::serve_stdio(config, first, protocol)
}

/// The evaluation flags of the commands that search.
#[derive(Debug, Args)]
pub(crate) struct EvalArgs {
    /// Evaluation on 8x8: the trained patterns or the hand-weighted features (option `Eval`).
    #[arg(long, value_name = "trained|hand", default_value_t = EvalKind::default())]
    eval: EvalKind,
    /// Trained weights to use instead of the shipped ones (option `EvalFile`).
    #[arg(long, value_name = "FILE")]
    eval_file: Option<PathBuf>,
}

impl EvalArgs {
    /// The evaluation the flags choose.
    pub(crate) fn choice(&self) -> anyhow::Result<EvalChoice> {
        Ok(EvalChoice::new(self.eval, self.eval_file.as_deref())?)
    }
}

/// The Kalah database flag of the commands that search.
#[derive(Debug, Args)]
pub(crate) struct KalahDbArg {
    /// Kalah endgame database: `auto` (a solve takes the largest installed by `engine
    /// kalah-db install`, or builds a small one in memory for a large game), `none`, a
    /// number of seeds (built in memory for the game's rules), or a file from `engine
    /// kalah-db build` (option `KalahDatabase`).
    #[arg(long, value_name = "auto|none|SEEDS|FILE", default_value = "auto")]
    kalah_db: DatabaseSource,
}

impl KalahDbArg {
    /// The database for a solve of `game`, if it is Kalah and the flag names one (or
    /// `auto` finds or builds one, in the default data directory); building one shows its
    /// progress on stderr, and `auto` says how to install one if it would help.
    pub(crate) fn obtain(&self, game: GameId) -> anyhow::Result<Option<Arc<KalahDatabase>>> {
        let GameId::Kalah(rules) = game else {
            return Ok(None);
        };
        let started = std::time::Instant::now();
        let dir = default_data_dir().map(|d| kalah_dir(&d));
        let context = AutoContext {
            dir: dir.as_deref(),
            solve: true,
        };
        if self.kalah_db == DatabaseSource::Auto
            && let Some(hint) = context.install_hint(rules)
        {
            eprintln!("{hint}");
        }
        // One command, one database: nothing to share it with.
        let db = DatabaseCache::default().obtain(
            &self.kalah_db,
            rules,
            context,
            &mut |n| {
                if n % 4 == 0 {
                    eprintln!(
                        "kalah database: boards of {n} seeds done, {:.1} s",
                        started.elapsed().as_secs_f64()
                    );
                }
            },
            None,
        )?;
        if let Some(db) = &db {
            eprintln!(
                "kalah database: {}, {} positions, ready in {:.1} s",
                db.describe(),
                db.positions(),
                started.elapsed().as_secs_f64()
            );
        }
        Ok(db)
    }
}
