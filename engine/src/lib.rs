//! A game-search engine for two-player perfect-information games: Othello on several
//! boards and Kalah, searched with negamax, alpha-beta, NegaScout and MTD(f).

/// The name the engine gives in every protocol it speaks.
pub const ENGINE_NAME: &str = "gamesearch";

pub mod bench;
pub mod book;
pub mod core;
pub mod cores;
pub mod data_dir;
pub mod files;
pub mod fronts;
pub mod game;
pub mod ggf;
pub mod level;
pub mod match_runner;
pub mod perft;
pub mod search;
pub mod server;
pub mod shard;
pub mod suite;
pub mod train;
