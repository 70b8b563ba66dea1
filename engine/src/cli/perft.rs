//! `engine perft <game> <depth> [--position P] [--divide]`.

use std::time::Instant;

use anyhow::Context;
use clap::Args;
use engine::game::{Game, GameId, MoveList};
use engine::perft::perft;
use engine::with_position;

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Game id: othello8x8 (othello), othello6x6, othello4x4, othello4x6, octagon, kalah<P>x<S>...
    game: GameId,
    /// Plies to count.
    depth: u32,
    /// Start from `startpos`, `parallel`, or a position text.
    #[arg(long, default_value = "startpos", allow_hyphen_values = true)]
    position: String,
    /// Also print the count below each legal move.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: &PerftArgs) -> anyhow::Result<()> {
    let position = args
        .game
        .position(&args.position)
        .with_context(|| format!("bad --position '{}'", args.position))?;
    let started = Instant::now();
    let count = with_position!(position, p => {
        if args.divide && args.depth > 0 {
            let mut moves = MoveList::new();
            p.generate_moves(&mut moves);
            let mut total = 0;
            for mv in moves {
                let n = perft(&p.play(mv), args.depth - 1);
                println!("{mv} {n}");
                total += n;
            }
            if total == 0 { 1 } else { total }
        } else {
            perft(&p, args.depth)
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "perft {} depth {}: {count} leaves in {seconds:.3} s, {:.0} leaves/s",
        args.game,
        args.depth,
        count as f64 / seconds.max(1e-9)
    );
    Ok(())
}
