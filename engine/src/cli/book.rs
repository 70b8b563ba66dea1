//! `engine book build|deepen|add|merge|show|info`: the opening book (docs/book.md).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use engine::book::build::{LeafSearch, add_games, complete, deepen, positions_of, select};
use engine::book::{Book, read_book, write_book};
use engine::game::othello::{Geometry, OthelloMove};
use engine::game::{AnyPosition, GameId};
use engine::ggf::parse_games;
use engine::match_runner::{Opening, Shard};
use engine::search::Selectivity;
use engine::train::games::{read_games, read_logistello, read_wthor};

#[derive(Debug, Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Debug, Subcommand)]
enum BookCommand {
    /// Make a book from game records: the positions enough games reach, each leaf valued
    /// by a search; run again on the same output, it resumes.
    Build(BuildArgs),
    /// Extend a book along its best lines (and search the leaves it lacks).
    Deepen(DeepenArgs),
    /// Add the positions of games (`.ggf`, `.wtb`, `.gam`, `.gam.gz` files) to a book.
    Add(AddArgs),
    /// Combine books (the shards of one build) into one.
    Merge {
        /// The books.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The combined book.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// List the book's moves in a position, with their values and games.
    Show {
        /// The position: `startpos`, or a position text, then `moves <m1> <m2> ...`.
        #[arg(default_value = "startpos")]
        position: String,
        /// The book (the shipped one when not given).
        #[arg(long)]
        book: Option<PathBuf>,
    },
    /// Compare the book's values and best moves with deeper searches of a sample of its
    /// positions.
    Check {
        /// The book (the shipped one when not given).
        book: Option<PathBuf>,
        /// Positions compared.
        #[arg(long, default_value_t = 100)]
        sample: usize,
        /// Depth of the searches compared with.
        #[arg(long, default_value_t = 18)]
        depth: u32,
        /// Draws the sample.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads of each search.
        #[arg(long, default_value_t = engine::cores::available_cores())]
        threads: usize,
    },
    /// Say what a book holds (reading and checking all of it).
    Info {
        /// The book (the shipped one when not given).
        book: Option<PathBuf>,
    },
}

#[derive(Debug, Args)]
struct Search {
    /// Depth of each leaf's search.
    #[arg(long, default_value_t = 14)]
    depth: u32,
    /// Multi-ProbCut's confidence in the leaf searches (as option `Selectivity`).
    #[arg(long, default_value_t = Selectivity::DATA)]
    selectivity: Selectivity,
    /// Threads searching.
    #[arg(long, default_value_t = engine::cores::available_cores())]
    threads: usize,
}

impl Search {
    fn settings(&self) -> anyhow::Result<LeafSearch> {
        if !(1..=60).contains(&self.depth) {
            bail!("--depth must be between 1 and 60");
        }
        Ok(LeafSearch {
            depth: self.depth,
            selectivity: self.selectivity,
        })
    }
}

#[derive(Debug, Args)]
struct BuildArgs {
    /// Folder of game records, or one game file (as for `engine train`).
    data: PathBuf,
    /// The book (written after every batch of leaves).
    #[arg(short, long)]
    output: PathBuf,
    /// Only positions within this many moves of the start.
    #[arg(long, default_value_t = 24)]
    plies: usize,
    /// Only positions at least this many games reach.
    #[arg(long, default_value_t = 20)]
    min_games: u32,
    /// Search only every n-th leaf from the i-th (`i/n`), e.g. one machine of n; then
    /// `engine book merge`.
    #[arg(long, default_value = "1/1")]
    shard: Shard,
    #[command(flatten)]
    search: Search,
}

#[derive(Debug, Args)]
struct DeepenArgs {
    /// The book, extended in place.
    book: PathBuf,
    /// Positions to add.
    #[arg(long, default_value_t = 1000)]
    positions: usize,
    /// Follow every move within this many discs of the best.
    #[arg(long, default_value_t = 2)]
    margin: i32,
    #[command(flatten)]
    search: Search,
}

#[derive(Debug, Args)]
struct AddArgs {
    /// The book, extended in place.
    book: PathBuf,
    /// Game files.
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// Only positions within this many moves of the start.
    #[arg(long, default_value_t = 24)]
    plies: usize,
    #[command(flatten)]
    search: Search,
}

pub fn run(args: &BookArgs) -> anyhow::Result<()> {
    match &args.command {
        BookCommand::Build(args) => build(args),
        BookCommand::Deepen(args) => {
            let settings = args.search.settings()?;
            let mut book = read_book(&args.book)?;
            let started = Instant::now();
            deepen(
                &mut book,
                args.positions,
                args.margin,
                settings,
                args.search.threads,
                &args.book,
                &mut progress("added", started),
            )?;
            summary(&args.book, &book, started);
            Ok(())
        }
        BookCommand::Add(args) => add(args),
        BookCommand::Merge { inputs, output } => {
            let books = inputs
                .iter()
                .map(|path| read_book(path))
                .collect::<Result<Vec<_>, _>>()?;
            let book = Book::merge(&books);
            write_book(&book, output)?;
            let stale = book.stale_leaves().len();
            println!("{}: {} positions", output.display(), book.len());
            if stale > 0 {
                println!(
                    "{stale} positions still lack their leaf search: run `engine book deepen {} --positions 0`",
                    output.display()
                );
            }
            Ok(())
        }
        BookCommand::Show { position, book } => show(position, book.as_deref()),
        BookCommand::Check {
            book,
            sample,
            depth,
            seed,
            threads,
        } => check(&*load(book.as_deref())?, *sample, *depth, *seed, *threads),
        BookCommand::Info { book } => {
            let loaded = load(book.as_deref())?;
            let name = book.as_ref().map_or_else(
                || "the shipped book".to_string(),
                |b| b.display().to_string(),
            );
            describe(&name, &loaded);
            Ok(())
        }
    }
}

fn load(path: Option<&Path>) -> anyhow::Result<std::sync::Arc<Book>> {
    Ok(match path {
        Some(path) => std::sync::Arc::new(read_book(path)?),
        None => Book::builtin(),
    })
}

fn build(args: &BuildArgs) -> anyhow::Result<()> {
    let settings = args.search.settings()?;
    let started = Instant::now();
    let games = read_games(&args.data)?;
    let counts = select(
        games.iter().map(|g| g.positions.as_slice()),
        args.plies,
        args.min_games,
    );
    eprintln!(
        "{} games: {} positions within {} moves reached by at least {} games, shard {}",
        games.len(),
        counts.len(),
        args.plies,
        args.min_games,
        args.shard
    );
    let mut book = if args.output.exists() {
        let book = read_book(&args.output)?;
        let same = book.len() == counts.len()
            && counts
                .iter()
                .all(|(key, games)| book.entries().get(key).is_some_and(|e| e.games == *games));
        if !same {
            bail!(
                "{} holds another book (give another output file, or `engine book deepen` it)",
                args.output.display()
            );
        }
        eprintln!("resuming {}", args.output.display());
        book
    } else {
        Book::from_counts(counts)
    };
    complete(
        &mut book,
        settings,
        args.shard,
        args.search.threads,
        &args.output,
        &mut progress("searched", started),
    )?;
    summary(&args.output, &book, started);
    Ok(())
}

fn add(args: &AddArgs) -> anyhow::Result<()> {
    let settings = args.search.settings()?;
    let started = Instant::now();
    let mut book = read_book(&args.book)?;
    let mut games: Vec<Vec<engine::game::othello::Othello>> = Vec::new();
    for file in &args.games {
        let name = file.to_string_lossy().to_ascii_lowercase();
        if name.ends_with(".ggf") {
            let text = engine::files::read_text(file, engine::files::SizeLimit::POSITION_LIST)?;
            for (n, game) in parse_games(&text)
                .with_context(|| file.display().to_string())?
                .into_iter()
                .enumerate()
            {
                if game.start != engine::ggf::GgfGame::standard_start() {
                    bail!(
                        "{} game {}: not from the standard start (the book holds 8x8 games from it)",
                        file.display(),
                        n + 1
                    );
                }
                let moves: Vec<OthelloMove> = game.moves.iter().map(|m| m.mv).collect();
                games.push(
                    positions_of(&moves)
                        .with_context(|| format!("{} game {}", file.display(), n + 1))?,
                );
            }
        } else {
            let read = if name.ends_with(".wtb") {
                read_wthor(file)?
            } else {
                read_logistello(file)?
            };
            games.extend(read.into_iter().map(|g| g.positions));
        }
    }
    let before = book.len();
    add_games(&mut book, games.iter().map(Vec::as_slice), args.plies);
    eprintln!(
        "{} games: {} new positions",
        games.len(),
        book.len() - before
    );
    complete(
        &mut book,
        settings,
        Shard::WHOLE,
        args.search.threads,
        &args.book,
        &mut progress("searched", started),
    )?;
    summary(&args.book, &book, started);
    Ok(())
}

fn show(position: &str, path: Option<&Path>) -> anyhow::Result<()> {
    let book = load(path)?;
    let opening = Opening::parse(GameId::Othello(Geometry::Board8x8), position)?;
    let AnyPosition::Othello(position) = opening.position else {
        bail!("the book holds 8x8 Othello positions");
    };
    let moves = book.moves(&position);
    if moves.is_empty() {
        println!("not in the book");
        return Ok(());
    }
    println!("{:<6} {:>6} {:>8}", "move", "value", "games");
    for m in moves {
        let games = if m.leaves_book {
            "out of book (search)".to_string()
        } else {
            m.games.to_string()
        };
        println!("{:<6} {:>+6} {games:>8}", m.mv.to_string(), m.value);
    }
    Ok(())
}

fn check(book: &Book, sample: usize, depth: u32, seed: u64, threads: usize) -> anyhow::Result<()> {
    use rand::SeedableRng;
    if !(1..=60).contains(&depth) {
        bail!("--depth must be between 1 and 60");
    }
    let mut keys: Vec<_> = book.entries().keys().copied().collect();
    keys.sort_unstable();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let sample = sample.min(keys.len());
    let chosen = rand::seq::index::sample(&mut rng, keys.len(), sample);
    let params = engine::search::SearchParams {
        threads: threads.max(1),
        // As the book's leaves were searched.
        selectivity: Selectivity::DATA.into(),
        ..engine::search::SearchParams::default()
    };
    let evaluator = engine::search::othello::eval::Evaluator::default();
    let mut tt = engine::search::TranspositionTable::new(256);
    let (mut errors, mut same_move) = (Vec::new(), 0);
    let started = Instant::now();
    for (n, i) in chosen.into_iter().enumerate() {
        let position = engine::book::position_of(keys[i]);
        let limits = engine::search::Limits::depth_or_exact(Some(depth));
        let deep = engine::search::search_with(
            &position,
            &mut tt,
            &params,
            &evaluator,
            &limits,
            &mut |_| {},
        );
        let moves = book.moves(&position);
        let best = moves.first().context("a book position has book moves")?;
        errors.push((best.value - deep.score.value).abs());
        same_move += usize::from(deep.best_move == Some(best.mv));
        if (n + 1) % 10 == 0 {
            eprintln!(
                "  {}/{sample} compared, {:.0} s",
                n + 1,
                started.elapsed().as_secs_f64()
            );
        }
    }
    errors.sort_unstable();
    let count = errors.len().max(1) as f64;
    println!(
        "{} positions against depth {depth}: mean |book - search| {:.2} discs, median {}, \
         90th percentile {}, largest {}; same best move {:.0}%",
        errors.len(),
        errors.iter().sum::<i32>() as f64 / count,
        errors.get(errors.len() / 2).unwrap_or(&0),
        errors.get(errors.len() * 9 / 10).unwrap_or(&0),
        errors.last().unwrap_or(&0),
        100.0 * same_move as f64 / count
    );
    Ok(())
}

fn describe(name: &str, book: &Book) {
    let searched = book.entries().values().filter(|e| e.leaf.is_some()).count();
    let start = engine::book::key_of(&engine::game::othello::Othello::start(
        Geometry::Board8x8,
        engine::game::Start::Standard,
    ))
    .and_then(|key| book.value(&key));
    let line: Vec<String> = book.main_line().iter().map(ToString::to_string).collect();
    println!(
        "{name}: {} positions, {searched} with a leaf searched",
        book.len()
    );
    let stale = book.stale_leaves().len();
    if stale > 0 {
        println!(
            "  {stale} positions lack their leaf search (a shard's book: merge, then deepen --positions 0)"
        );
    }
    if let Some(v) = start {
        println!("  start position: {v:+}");
    }
    println!("  main line ({} moves): {}", line.len(), line.join(" "));
}

fn summary(path: &Path, book: &Book, started: Instant) {
    describe(&path.display().to_string(), book);
    println!("  {:.0} s", started.elapsed().as_secs_f64());
}

fn progress(what: &'static str, started: Instant) -> impl FnMut(usize, usize) {
    move |done, total| {
        let elapsed = started.elapsed().as_secs_f64();
        eprintln!(
            "  {done}/{total} {what} ({:.1}%), {elapsed:.0} s",
            100.0 * done as f64 / total.max(1) as f64
        );
    }
}
