//! The desktop client: play, watch and analyse Othello and Kalah through the engine
//! protocol. By default it runs our own engine inside the process (its TCP server on a
//! loopback port), so it works with no set-up; any other engine that speaks the protocol
//! can be chosen per side.

pub mod app;
pub mod board;
pub mod clock;
pub mod control;
pub mod db_install;
pub mod engine_link;
pub mod game;
pub mod move_values;
pub mod review;
pub mod settings;

pub use app::App;
